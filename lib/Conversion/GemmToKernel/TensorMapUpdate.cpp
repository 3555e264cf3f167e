//===- TensorMapUpdate.cpp - tensor maps written on the device ------------===//
//
// The fields of a CUtensorMap are opaque; PTX's tensormap.replace writes
// them (sm_90a, PTX 8.3). NVVM has no op for it, so it is inline PTX. The
// ordinal of global_stride is that of the dimension above: ordinal 0 is the
// pitch between rows (dimension 1), in bytes. The proxy fences are NVVM ops.
//
//===----------------------------------------------------------------------===//
#include "TensorMapUpdate.h"

using namespace mlir;
using namespace mlir::dgemm;

void mlir::dgemm::replaceTensorMap2D(KernelIR &k, Value map, Value address,
                                     Value innerDim, Value rows,
                                     Value rowPitch) {
  // One asm statement: the four fields of one map (the memory clobber keeps
  // it in order with the thread's other memory operations).
  LLVM::InlineAsmOp::create(
      k.b, k.loc, /*res=*/Type(), ValueRange{map, address, innerDim, rows,
                                             rowPitch},
      "tensormap.replace.tile.global_address.global.b1024.b64 [$0], $1;\n\t"
      "tensormap.replace.tile.global_dim.global.b1024.b32 [$0], 0, $2;\n\t"
      "tensormap.replace.tile.global_dim.global.b1024.b32 [$0], 1, $3;\n\t"
      "tensormap.replace.tile.global_stride.global.b1024.b64 [$0], 0, $4;",
      "l,l,r,r,l,~{memory}", /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      /*asm_dialect=*/LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr());
}

void mlir::dgemm::publishTensorMaps(KernelIR &k, ArrayRef<Value> maps) {
  auto gpu = NVVM::MemScopeKind::GPU;
  NVVM::FenceProxyReleaseOp::create(k.b, k.loc, gpu);
  for (Value map : maps) {
    Value generic = LLVM::AddrSpaceCastOp::create(k.b, k.loc, k.ptr, map);
    NVVM::FenceProxyAcquireOp::create(k.b, k.loc, gpu, generic, k.c32(128));
  }
}
