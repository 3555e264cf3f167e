//===- Passes.h - dgemm conversion passes -----------------------*- C++ -*-===//
//
// Declarations and registration of include/dgemm/Conversion/Passes.td, and
// the pipelines dgemm-to-ptx / dgemm-kernel-to-ptx.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_CONVERSION_PASSES_H
#define DGEMM_CONVERSION_PASSES_H

#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::dgemm {
#define GEN_PASS_DECL
#include "dgemm/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dgemm/Conversion/Passes.h.inc"

/// dgemm IR -> kernel IR: select configs (the lowering's capabilities:
/// cluster 1, block M <= 128), lower to kernels.
void buildDGEMMToKernelPipeline(OpPassManager &pm);
/// kernel IR -> gpu.binary holding PTX.
void buildKernelToPTXPipeline(OpPassManager &pm);
/// Both: dgemm IR -> PTX (what the runtime runs).
void buildDGEMMToPTXPipeline(OpPassManager &pm);
/// Registers the three as dgemm-to-kernel, dgemm-kernel-to-ptx, dgemm-to-ptx.
void registerDGEMMPipelines();
} // namespace mlir::dgemm

#endif // DGEMM_CONVERSION_PASSES_H
