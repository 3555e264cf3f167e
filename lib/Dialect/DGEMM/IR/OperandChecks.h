//===- OperandChecks.h - verifier helpers for dgemm ops ---------*- C++ -*-===//
//
// The checks every dgemm op verifier repeats: an operand is a ranked memref
// of a given rank and element type, has a strided layout, is contiguous along
// one dimension, its TMA rows are 16-byte aligned, a dimension has the size
// another operand implies. Each emits one actionable message naming the
// operand ("A", "B scales", ...) and the values involved.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_LIB_DIALECT_DGEMM_IR_OPERANDCHECKS_H
#define DGEMM_LIB_DIALECT_DGEMM_IR_OPERANDCHECKS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace mlir::dgemm::detail {

/// Dimension sizes as the messages print them ("?" for dynamic).
std::string formatDims(ArrayRef<int64_t> dims);

/// Checks on one memref operand of `op`, named `name` in messages.
class OperandChecker {
public:
  OperandChecker(Operation *op, Value v, StringRef name)
      : op(op), value(v), name(name) {}

  /// Ranked memref of `rank` dims; `shapeDoc` such as "[M, K]".
  LogicalResult rank(int64_t rank, StringRef shapeDoc);
  /// Element type is one of `allowed`; `allowedDoc` such as "f8E4M3FN or f8E5M2".
  LogicalResult elementType(ArrayRef<Type> allowed, StringRef allowedDoc);
  /// Dimension `dim` (named `dimName`) is static.
  LogicalResult staticDim(int64_t dim, StringRef dimName);
  /// Dimension `dim` equals `expected` (either may be dynamic: then no check).
  /// `what` says where `expected` comes from ("K of A").
  LogicalResult dimEquals(int64_t dim, int64_t expected, StringRef dimName,
                          StringRef what);
  /// Unit stride along `dim` (the contiguous dimension), with `layoutDoc`
  /// naming the expected layout ("K-major", "MN-major").
  LogicalResult contiguousAlong(int64_t dim, StringRef layoutDoc);
  /// Every static stride other than along `innerDim` is a multiple of 16
  /// bytes, so TMA can address each row.
  LogicalResult tmaRowsAligned(int64_t innerDim);
  /// Stride of dimension `dim` is >= `minStride` when both are static
  /// (scale columns must not overlap).
  LogicalResult strideAtLeast(int64_t dim, int64_t minStride, StringRef why);
  /// No two elements share an address, as far as the static strides and
  /// sizes tell (outputs: overlapping rows would race).
  LogicalResult notSelfOverlapping();

  MemRefType type() const { return memref; }
  int64_t dimSize(int64_t d) const { return memref.getDimSize(d); }

private:
  LogicalResult strides(SmallVectorImpl<int64_t> &out);

  Operation *op;
  Value value;
  StringRef name;
  MemRefType memref;
};

} // namespace mlir::dgemm::detail

#endif // DGEMM_LIB_DIALECT_DGEMM_IR_OPERANDCHECKS_H
