//===- GemmKernel.h - build the kernel IR of a normal FP8 GEMM --*- C++ -*-===//
//
// buildGemmKernel writes one warp-specialized, persistent Hopper kernel for
// dgemm.gemm as an llvm.func whose body is kernel IR (scf/arith, NVVM
// barriers and TMA, dgemm kernel ops).
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_LIB_CONVERSION_GEMMTOKERNEL_GEMMKERNEL_H
#define DGEMM_LIB_CONVERSION_GEMMTOKERNEL_GEMMKERNEL_H

#include "KernelLayout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::dgemm {

/// Kernel parameters, in order.
enum GemmKernelParam { kMapA = 0, kMapSFA, kMapB, kMapD, kSFBPtr, kM };

/// Builds the kernel at the builder's insertion point (inside a gpu.module
/// that holds the dynamic shared memory global `smemSymbol`).
LLVM::LLVMFuncOp buildGemmKernel(OpBuilder &b, Location loc, StringRef name,
                                 const KernelLayout &l, StringRef smemSymbol);

/// The launch contract (docs/launch-contract.md) of that kernel.
DictionaryAttr buildGemmLaunchContract(MLIRContext *ctx,
                                       const KernelLayout &l);

} // namespace mlir::dgemm

#endif // DGEMM_LIB_CONVERSION_GEMMTOKERNEL_GEMMKERNEL_H
