//===- Passes.h - dgemm transformation passes -------------------*- C++ -*-===//
//
// Declarations and registration of the passes in Passes.td.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_DIALECT_DGEMM_TRANSFORMS_PASSES_H
#define DGEMM_DIALECT_DGEMM_TRANSFORMS_PASSES_H

#include "dgemm/Config/ConfigSelection.h"
#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"
#include "mlir/Pass/Pass.h"

namespace mlir::dgemm {
#define GEN_PASS_DECL
#include "dgemm/Dialect/DGEMM/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dgemm/Dialect/DGEMM/Transforms/Passes.h.inc"
} // namespace mlir::dgemm

#endif // DGEMM_DIALECT_DGEMM_TRANSFORMS_PASSES_H
