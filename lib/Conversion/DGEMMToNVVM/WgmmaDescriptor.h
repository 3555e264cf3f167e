//===- WgmmaDescriptor.h - wgmma shared-memory matrix descriptors -*- C++ -*-===//
//
// The 64-bit descriptor wgmma reads a K-major, 128B-swizzled FP8 tile
// through (HOPPER-FACTS §1):
//
//   bits  0-13  start address (addr & 0x3FFFF) >> 4
//   bits 16-29  leading byte offset >> 4   = 1 (unused for swizzled K-major)
//   bits 32-45  stride byte offset >> 4    = 64 (1024 B between 8-row groups)
//   bits 49-51  base offset                = 0 (tiles are 1024-aligned)
//   bits 62-63  swizzle mode               = 1 (128B)
//
// A k32 step inside the 128-byte K slice adds 32 bytes: descriptor + 2.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_LIB_CONVERSION_DGEMMTONVVM_WGMMADESCRIPTOR_H
#define DGEMM_LIB_CONVERSION_DGEMMTONVVM_WGMMADESCRIPTOR_H

#include "mlir/IR/Builders.h"

namespace mlir::dgemm {

/// Constant high part: swizzle 128B, SBO 1024 B, LBO 16 B.
constexpr uint64_t kWgmmaDescriptorHigh =
    (uint64_t(1) << 62) | (uint64_t(64) << 32) | (uint64_t(1) << 16);

/// The descriptor's start address field (i32) of the tile at shared
/// pointer `tile` (!llvm.ptr<3>): (addr & 0x3FFFF) >> 4, computed in 32
/// bits from the root of `tile`'s chain of byte GEPs plus their offsets
/// (shared pointers are 64-bit in NVPTX, and 64-bit adds with carries cost
/// registers and issue slots in the K loop).
Value buildWgmmaStart(OpBuilder &b, Location loc, Value tile);

/// The descriptor (i64) `step16` 16-byte units past `start` (a k32 step is
/// 2): the step is added to the low word, the high word is a constant.
Value buildWgmmaDescriptor(OpBuilder &b, Location loc, Value start,
                           int64_t step16);

} // namespace mlir::dgemm

#endif // DGEMM_LIB_CONVERSION_DGEMMTONVVM_WGMMADESCRIPTOR_H
