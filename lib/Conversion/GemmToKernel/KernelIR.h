//===- KernelIR.h - small builders for kernel IR ----------------*- C++ -*-===//
//
// A thin layer over OpBuilder for the i32 arithmetic, shared-memory address
// computation and special registers the kernel IR is made of, so that the
// kernel builder reads like the kernel.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_LIB_CONVERSION_GEMMTOKERNEL_KERNELIR_H
#define DGEMM_LIB_CONVERSION_GEMMTOKERNEL_KERNELIR_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::dgemm {

class KernelIR {
public:
  KernelIR(OpBuilder &b, Location loc)
      : b(b), loc(loc), i1(b.getI1Type()), i8(b.getI8Type()),
        i32(b.getI32Type()), i64(b.getI64Type()), f32(b.getF32Type()),
        ptr(LLVM::LLVMPointerType::get(b.getContext())),
        ptr1(LLVM::LLVMPointerType::get(b.getContext(), 1)),
        ptr3(LLVM::LLVMPointerType::get(b.getContext(), 3)),
        ptr7(LLVM::LLVMPointerType::get(b.getContext(), 7)) {}

  Value c32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  }
  Value c1(bool v) { return arith::ConstantIntOp::create(b, loc, i1, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value divu(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value remu(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value xori(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }
  Value minu(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value ult(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value ceilDiv(Value x, int64_t d) {
    return divu(add(x, c32(d - 1)), c32(d));
  }

  /// `base + offset` bytes, a pointer in base's address space.
  Value byteAt(Value base, Value offset) {
    return LLVM::GEPOp::create(b, loc, base.getType(), i8, base,
                               ArrayRef<LLVM::GEPArg>{offset});
  }
  Value byteAt(Value base, int64_t offset) {
    if (offset == 0)
      return base;
    return LLVM::GEPOp::create(b, loc, base.getType(), i8, base,
                               ArrayRef<LLVM::GEPArg>{(int32_t)offset});
  }
  /// `base + index * elementBytes`.
  Value elementAt(Value base, Value index, int64_t elementBytes) {
    return byteAt(base, mul(index, c32(elementBytes)));
  }
  Value loadF32(Value p) { return LLVM::LoadOp::create(b, loc, f32, p); }

  Value tid() { return NVVM::ThreadIdXOp::create(b, loc, i32); }
  Value ctaId() { return NVVM::BlockIdXOp::create(b, loc, i32); }
  Value numCtas() { return NVVM::GridDimXOp::create(b, loc, i32); }
  /// %ctaid.x and %nctaid.x read where they are built, through inline PTX
  /// with side effects: LLVM neither merges them with the kernel's first
  /// reads nor moves them (the k-grouped tile loop: its tile index then
  /// stays on the uniform datapath in the consumers' K loop).
  Value ctaIdHere() { return specialRegisterHere("ctaid.x"); }
  Value numCtasHere() { return specialRegisterHere("nctaid.x"); }

  /// `v` (i32) as lane 0 of the warp holds it (shfl.sync.idx over all
  /// lanes): a value ptxas knows to be the same in every lane of the warp,
  /// so that what is computed from it can live in uniform registers. Every
  /// lane of the warp must run it.
  Value laneZero(Value v) {
    return NVVM::ShflOp::create(b, loc, i32, c32(-1), v, c32(0), c32(0x1f),
                                NVVM::ShflKind::idx, UnitAttr())
        .getResult();
  }

  /// The i32 `v` through an inline PTX move, which LLVM cannot see
  /// through: keeps it from specialising code on a known value.
  Value opaque(Value v) {
    return inlinePtxI32("mov.b32 $0, $1;", "=r,r", v, /*sideEffects=*/false);
  }

  /// The i32 special register %`name`, read by an inline PTX move with
  /// side effects.
  Value specialRegisterHere(StringRef name) {
    return inlinePtxI32(("mov.u32 $0, %" + name + ";").str(), "=r", {},
                        /*sideEffects=*/true);
  }

  /// 0 from an inline PTX move that LLVM can neither fold nor hoist out
  /// of a conditional block (inline assembly is not speculatable); ptxas
  /// sees the constant.
  Value opaqueZeroHere() {
    return inlinePtxI32("mov.b32 $0, 0;", "=r", {}, /*sideEffects=*/false);
  }

  /// True, from a compare of an inline PTX move of 0 with side effects:
  /// LLVM can neither fold it nor merge two of them, so a branch on it
  /// keeps its block's code in place (ptxas folds the branch away).
  Value opaqueTrueHere() {
    return eq(inlinePtxI32("mov.b32 $0, 0;", "=r", {}, /*sideEffects=*/true),
              c32(0));
  }

  /// An i32 from inline PTX `text` with `constraints` on `operands`.
  Value inlinePtxI32(StringRef text, StringRef constraints,
                     ValueRange operands, bool sideEffects) {
    return LLVM::InlineAsmOp::create(
               b, loc, i32, operands, text, constraints, sideEffects,
               /*is_align_stack=*/false,
               LLVM::tailcallkind::TailCallKind::None,
               /*asm_dialect=*/LLVM::AsmDialectAttr(),
               /*operand_attrs=*/ArrayAttr())
        .getResult(0);
  }

  OpBuilder &b;
  Location loc;
  Type i1, i8, i32, i64, f32;
  LLVM::LLVMPointerType ptr, ptr1, ptr3, ptr7;
};

} // namespace mlir::dgemm

#endif // DGEMM_LIB_CONVERSION_GEMMTOKERNEL_KERNELIR_H
