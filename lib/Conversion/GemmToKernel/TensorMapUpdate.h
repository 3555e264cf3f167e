//===- TensorMapUpdate.h - tensor maps written on the device ----*- C++ -*-===//
//
// A kernel whose operands change shape per group (the k-grouped GEMM: A_g
// [M, k_g], B_g [N, k_g]) cannot take one tensor map per group as a
// parameter once the groups are many. It takes one template map per
// operand instead (box, swizzle and element type right; address and sizes
// anything valid), copies it into global memory and rewrites the copy for
// each group: replaceTensorMap2D per map, then publishTensorMaps before the
// TMA reads them (PTX tensormap.replace, fence.proxy.tensormap).
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_LIB_CONVERSION_GEMMTOKERNEL_TENSORMAPUPDATE_H
#define DGEMM_LIB_CONVERSION_GEMMTOKERNEL_TENSORMAPUPDATE_H

#include "KernelIR.h"

namespace mlir::dgemm {

/// Rewrites the 2-D map at `map` (global) to describe `rows` rows of
/// `innerDim` elements, `rowPitch` bytes apart, starting at `address` (i64).
/// Box, swizzle and element type stay the template's.
void replaceTensorMap2D(KernelIR &k, Value map, Value address, Value innerDim,
                        Value rows, Value rowPitch);

/// Makes the maps this thread wrote visible to its later TMA operations
/// through them: a tensormap-proxy release fence, then an acquire fence on
/// each map (global pointers).
void publishTensorMaps(KernelIR &k, ArrayRef<Value> maps);

} // namespace mlir::dgemm

#endif // DGEMM_LIB_CONVERSION_GEMMTOKERNEL_TENSORMAPUPDATE_H
