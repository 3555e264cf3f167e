//===- DGEMM.h - dgemm dialect, attributes and ops --------------*- C++ -*-===//
//
// One header for users of the dgemm dialect: the dialect, its enums and
// attributes, the GemmOpInterface and the ops.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_DIALECT_DGEMM_IR_DGEMM_H
#define DGEMM_DIALECT_DGEMM_IR_DGEMM_H

#include "dgemm/Config/ConfigSelection.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dgemm/Dialect/DGEMM/IR/DGEMMDialect.h.inc"
#include "dgemm/Dialect/DGEMM/IR/DGEMMEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dgemm/Dialect/DGEMM/IR/DGEMMAttrs.h.inc"

#include "dgemm/Dialect/DGEMM/IR/DGEMMInterfaces.h.inc"

#define GET_OP_CLASSES
#include "dgemm/Dialect/DGEMM/IR/DGEMMOps.h.inc"

namespace mlir::dgemm {
/// The ConfigSelection view of a config attribute, and back.
::dgemm::KernelConfig toKernelConfig(ConfigAttr attr);
ConfigAttr toConfigAttr(MLIRContext *ctx, const ::dgemm::KernelConfig &c);
::dgemm::TargetDesc toTargetDesc(TargetAttr attr);
} // namespace mlir::dgemm

#endif // DGEMM_DIALECT_DGEMM_IR_DGEMM_H
