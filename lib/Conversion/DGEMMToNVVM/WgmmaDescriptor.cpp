//===- WgmmaDescriptor.cpp - wgmma shared-memory matrix descriptors --------===//
//
// desc = zext(((addr32(tile) & 0x3FFFF) >> 4) + step | LBO) | high word,
// addr32 the tile's shared address computed in 32 bits.
//
//===----------------------------------------------------------------------===//
#include "WgmmaDescriptor.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;

/// The 32-bit shared address of `ptr`: ptrtoint of the root of its chain
/// of single-index byte GEPs, plus their offsets added in i32.
static Value sharedAddress32(OpBuilder &b, Location loc, Value ptr) {
  Type i32 = b.getI32Type();
  SmallVector<Value> offsets;
  int64_t constant = 0;
  while (auto gep = ptr.getDefiningOp<LLVM::GEPOp>()) {
    if (gep.getElemType() != b.getI8Type() || gep.getIndices().size() != 1)
      break;
    auto index = gep.getIndices()[0];
    if (auto attr = dyn_cast<IntegerAttr>(index)) {
      constant += attr.getInt();
    } else {
      Value v = cast<Value>(index);
      if (v.getType() != i32)
        v = LLVM::TruncOp::create(b, loc, i32, v);
      offsets.push_back(v);
    }
    ptr = gep.getBase();
  }
  Value addr = LLVM::PtrToIntOp::create(b, loc, i32, ptr);
  for (Value v : offsets)
    addr = LLVM::AddOp::create(b, loc, addr, v);
  if (constant)
    addr = LLVM::AddOp::create(b, loc, addr,
                               LLVM::ConstantOp::create(b, loc, i32, constant));
  return addr;
}

Value mlir::dgemm::buildWgmmaStart(OpBuilder &b, Location loc, Value tile) {
  Type i32 = b.getI32Type();
  auto c32 = [&](int64_t v) { return LLVM::ConstantOp::create(b, loc, i32, v); };
  Value masked =
      LLVM::AndOp::create(b, loc, sharedAddress32(b, loc, tile), c32(0x3FFFF));
  return LLVM::LShrOp::create(b, loc, masked, c32(4));
}

Value mlir::dgemm::buildWgmmaDescriptor(OpBuilder &b, Location loc,
                                        Value start, int64_t step16) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto c32 = [&](int64_t v) { return LLVM::ConstantOp::create(b, loc, i32, v); };
  // The start address is at most 0x3FFF (256 KiB >> 4): a step of a few
  // units cannot carry into the leading byte offset at bit 16.
  if (step16)
    start = LLVM::AddOp::create(b, loc, start, c32(step16));
  Value low = LLVM::OrOp::create(
      b, loc, start, c32(int64_t(kWgmmaDescriptorHigh & 0xFFFFFFFFu)));
  Value wide = LLVM::ZExtOp::create(b, loc, i64, low);
  Value high = LLVM::ConstantOp::create(
      b, loc, i64,
      b.getI64IntegerAttr(int64_t(kWgmmaDescriptorHigh & ~uint64_t(0xFFFFFFFFu))));
  return LLVM::OrOp::create(b, loc, wide, high);
}
