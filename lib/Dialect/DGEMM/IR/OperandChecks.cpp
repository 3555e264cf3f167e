//===- OperandChecks.cpp - verifier helpers for dgemm ops -----------------===//
//
// Implements OperandChecker: one message per broken rule, naming the operand.
//
//===----------------------------------------------------------------------===//
#include "OperandChecks.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dgemm::detail;

std::string mlir::dgemm::detail::formatDims(ArrayRef<int64_t> dims) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(dims, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << "?";
    else
      os << d;
  });
  os << "]";
  return s;
}

LogicalResult OperandChecker::rank(int64_t r, StringRef shapeDoc) {
  memref = dyn_cast<MemRefType>(value.getType());
  if (!memref || memref.getRank() != r)
    return op->emitOpError() << name << " must be a ranked memref of rank " << r
                             << " " << shapeDoc << ", got " << value.getType();
  return success();
}

LogicalResult OperandChecker::elementType(ArrayRef<Type> allowed,
                                          StringRef allowedDoc) {
  if (!llvm::is_contained(allowed, memref.getElementType()))
    return op->emitOpError() << name << " must have element type " << allowedDoc
                             << ", got " << memref.getElementType();
  return success();
}

LogicalResult OperandChecker::staticDim(int64_t dim, StringRef dimName) {
  if (memref.isDynamicDim(dim))
    return op->emitOpError() << dimName << " (dimension " << dim << " of "
                             << name << ") must be static";
  return success();
}

LogicalResult OperandChecker::dimEquals(int64_t dim, int64_t expected,
                                        StringRef dimName, StringRef what) {
  int64_t got = memref.getDimSize(dim);
  if (ShapedType::isDynamic(got) || ShapedType::isDynamic(expected) ||
      got == expected)
    return success();
  return op->emitOpError() << name << " has " << dimName << " = " << got
                           << " (dimension " << dim << " of shape "
                           << formatDims(memref.getShape()) << ") but "
                           << what << " is " << expected;
}

LogicalResult OperandChecker::strides(SmallVectorImpl<int64_t> &out) {
  int64_t offset;
  if (failed(memref.getStridesAndOffset(out, offset)))
    return op->emitOpError() << name << " must have a strided layout, got "
                             << memref;
  return success();
}

LogicalResult OperandChecker::contiguousAlong(int64_t dim,
                                              StringRef layoutDoc) {
  SmallVector<int64_t> s;
  if (failed(strides(s)))
    return failure();
  // A dimension of size 1 has no stride to speak of.
  if (s[dim] == 1 || memref.getDimSize(dim) == 1)
    return success();
  return op->emitOpError() << name << " must be " << layoutDoc
                           << " (unit stride along dimension " << dim
                           << "), got strides " << formatDims(s);
}

LogicalResult OperandChecker::tmaRowsAligned(int64_t innerDim) {
  SmallVector<int64_t> s;
  if (failed(strides(s)))
    return failure();
  int64_t bits = memref.getElementTypeBitWidth();
  for (auto [d, stride] : llvm::enumerate(s)) {
    if ((int64_t)d == innerDim || ShapedType::isDynamic(stride) ||
        memref.getDimSize(d) == 1)
      continue;
    int64_t bytes = stride * bits / 8;
    if (bytes % 16 != 0)
      return op->emitOpError()
             << "rows of " << name
             << " must be 16-byte aligned for TMA: the stride of dimension "
             << d << " is " << stride << " elements = " << bytes << " bytes";
  }
  return success();
}

LogicalResult OperandChecker::strideAtLeast(int64_t dim, int64_t minStride,
                                            StringRef why) {
  SmallVector<int64_t> s;
  if (failed(strides(s)))
    return failure();
  if (ShapedType::isDynamic(s[dim]) || ShapedType::isDynamic(minStride) ||
      memref.getDimSize(dim) == 1 || s[dim] >= minStride)
    return success();
  return op->emitOpError() << name << " has stride " << s[dim]
                           << " along dimension " << dim << ", less than "
                           << why << " = " << minStride;
}

LogicalResult OperandChecker::notSelfOverlapping() {
  SmallVector<int64_t> s;
  if (failed(strides(s)))
    return failure();
  // No elements, no overlap (and the canonical strides of such a shape are 0).
  if (llvm::is_contained(memref.getShape(), 0))
    return success();
  // Dimensions of more than one element, innermost (smallest stride, then the
  // later dimension) first; each must step past all the ones inside it span.
  SmallVector<int64_t> dims;
  for (int64_t d = 0, e = memref.getRank(); d < e; ++d) {
    if (memref.getDimSize(d) == 1)
      continue;
    if (ShapedType::isDynamic(s[d]))
      return success(); // Cannot order the dimensions.
    if (s[d] == 0)
      return op->emitOpError()
             << name << " must not overlap itself (it is written): dimension "
             << d << " has stride 0";
    dims.push_back(d);
  }
  llvm::sort(dims, [&](int64_t x, int64_t y) {
    return std::make_pair(s[x], -x) < std::make_pair(s[y], -y);
  });
  for (size_t i = 1; i < dims.size(); ++i) {
    int64_t inner = dims[i - 1], outer = dims[i];
    int64_t innerSize = memref.getDimSize(inner);
    if (ShapedType::isDynamic(innerSize))
      continue;
    int64_t span = s[inner] * innerSize;
    if (s[outer] < span)
      return op->emitOpError()
             << name << " must not overlap itself (it is written): the stride "
             << "of dimension " << outer << " is " << s[outer]
             << " elements, less than the " << span << " elements dimension "
             << inner << " spans";
  }
  return success();
}
