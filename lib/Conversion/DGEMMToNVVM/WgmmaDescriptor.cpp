//===- WgmmaDescriptor.cpp - wgmma shared-memory matrix descriptors --------===//
//
// desc = zext((ptrtoint(tile) & 0x3FFFF) >> 4) | kWgmmaDescriptorHigh.
//
//===----------------------------------------------------------------------===//
#include "WgmmaDescriptor.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

Value mlir::dgemm::buildWgmmaDescriptor(OpBuilder &b, Location loc,
                                        Value tile) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value addr = LLVM::PtrToIntOp::create(b, loc, i32, tile);
  Value masked = LLVM::AndOp::create(
      b, loc, addr, LLVM::ConstantOp::create(b, loc, i32, 0x3FFFF));
  Value start = LLVM::LShrOp::create(
      b, loc, masked, LLVM::ConstantOp::create(b, loc, i32, 4));
  Value wide = LLVM::ZExtOp::create(b, loc, i64, start);
  Value high = LLVM::ConstantOp::create(
      b, loc, i64, b.getI64IntegerAttr((int64_t)kWgmmaDescriptorHigh));
  return LLVM::OrOp::create(b, loc, wide, high);
}
