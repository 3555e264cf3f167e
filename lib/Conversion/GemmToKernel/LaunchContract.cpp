//===- LaunchContract.cpp - the dgemm.launch attribute of a GEMM kernel ----===//
//
// What the runtime needs to launch the kernel (docs/launch-contract.md):
// threads, cluster, dynamic shared memory, the persistent grid bound, block
// sizes, and how to build each parameter from the op's operands
// (A = 0, A scales = 1, B = 2, B scales = 3, D = 4).
//
//===----------------------------------------------------------------------===//
#include "GemmKernel.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::dgemm;

namespace {
struct ContractBuilder {
  MLIRContext *ctx;
  Builder b{ctx};

  NamedAttribute i64(StringRef name, int64_t v) {
    return b.getNamedAttr(name, b.getI64IntegerAttr(v));
  }
  /// A tensor map of operand `operand`: logical dims innermost first, box.
  Attribute tensorMap(int64_t operand, ArrayRef<int64_t> dims,
                      ArrayRef<int64_t> box, int64_t swizzle,
                      StringRef dtype) {
    return b.getDictionaryAttr(
        {b.getNamedAttr("kind", b.getStringAttr("tensor_map")),
         i64("operand", operand),
         b.getNamedAttr("dims", b.getI64ArrayAttr(dims)),
         b.getNamedAttr("box", b.getI64ArrayAttr(box)), i64("swizzle", swizzle),
         b.getNamedAttr("dtype", b.getStringAttr(dtype))});
  }
};
} // namespace

DictionaryAttr mlir::dgemm::buildGemmLaunchContract(MLIRContext *ctx,
                                                    const KernelLayout &l) {
  ContractBuilder c{ctx};
  Builder &b = c.b;
  SmallVector<Attribute> params(6);
  // With A multicast, each CTA of the pair loads half of the tile's rows.
  params[kMapA] =
      c.tensorMap(0, {1, 0}, {128, l.blockM / l.cluster}, 128, "u8");
  params[kMapSFA] = c.tensorMap(1, {0, 1}, {l.blockM, 1}, 0, "f32");
  params[kMapB] = c.tensorMap(2, {1, 0}, {128, l.blockN}, 128, "u8");
  // D: one box per tile, or 64-column boxes with 128-byte swizzle.
  params[kMapD] = l.dSwizzle
                      ? c.tensorMap(4, {1, 0}, {64, l.blockM}, 128, "bf16")
                      : c.tensorMap(4, {1, 0}, {l.blockN, l.blockM}, 0, "bf16");
  params[kSFBPtr] = b.getDictionaryAttr(
      {b.getNamedAttr("kind", b.getStringAttr("ptr")), c.i64("operand", 3)});
  params[kM] =
      b.getDictionaryAttr({b.getNamedAttr("kind", b.getStringAttr("m"))});
  return b.getDictionaryAttr(
      {c.i64("block", l.threads), c.i64("cluster", l.cluster),
       c.i64("dynamic_smem", l.smemBytes), c.i64("max_ctas", l.maxCtas),
       c.i64("block_m", l.blockM), c.i64("block_n", l.blockN),
       c.i64("n", l.n), c.i64("k", l.k),
       b.getNamedAttr("params", b.getArrayAttr(params))});
}
