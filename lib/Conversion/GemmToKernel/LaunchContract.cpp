//===- LaunchContract.cpp - the dgemm.launch attribute of a GEMM kernel ----===//
//
// What the runtime needs to launch the kernel (docs/launch-contract.md):
// threads, cluster, dynamic shared memory, the persistent grid bound, block
// sizes, and how to build each parameter from the op's operands
// (A = 0, A scales = 1, B = 2, B scales = 3, D = 4; grouped: groups = 4,
// D = 5; with an accumulate input: C = 4, D = 5), and what the kernel
// computes: `layout` 1 contiguous, 2 masked (with the group count), 3 the
// weight-gradient GEMM (1x128 B scales, f32 D += A * B^T, C = D), 4 the
// k-grouped one (a group_table parameter: template maps of A's and B's
// blocks and each group's K blocks, from the k_g the runtime is given; a
// workspace parameter: device memory per CTA the runtime allocates for the
// launch, where the kernel writes the groups' maps), 5 another variant the
// runtime does not launch, 6 the contiguous layout given by offsets, 7 the
// normal bf16 GEMM with a bias (bias = 4, D = 5); absent: the normal bf16
// GEMM.
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

/// The k-grouped kernel (KGroupedKernelParam): operands A = 0, A scales = 1,
/// B = 2, B scales = 3, ks = 4, D = 5.
static DictionaryAttr buildKGroupedContract(ContractBuilder &c,
                                            const KernelLayout &l) {
  Builder &b = c.b;
  SmallVector<Attribute> params(7);
  params[kKgTable] = b.getDictionaryAttr(
      {b.getNamedAttr("kind", b.getStringAttr("group_table")),
       c.i64("operand", 0), c.i64("operand_b", 2),
       b.getNamedAttr("box", b.getI64ArrayAttr({l.blockM, l.blockN})),
       c.i64("swizzle", 128)});
  // Scales [sum(k_g)/128, M] and [sum(k_g)/128, N], rows of M (N) floats.
  params[kKgMapSFA] = c.tensorMap(1, {1, 0}, {l.blockM, 1}, 0, "f32");
  params[kKgMapSFB] = c.tensorMap(3, {1, 0}, {l.blockN, 1}, 0, "f32");
  int64_t boxN = l.dSwizzle ? 32 : l.blockN;
  params[kKgMapD] = c.tensorMap(5, {2, 1, 0}, {boxN, l.dBoxRows(), 1},
                                l.dSwizzle ? 128 : 0, "f32");
  auto ptr = [&](int64_t operand) {
    return b.getDictionaryAttr({b.getNamedAttr("kind", b.getStringAttr("ptr")),
                                c.i64("operand", operand)});
  };
  params[kKgPtrA] = ptr(0);
  params[kKgPtrB] = ptr(2);
  params[kKgWorkspace] = b.getDictionaryAttr(
      {b.getNamedAttr("kind", b.getStringAttr("workspace")),
       c.i64("bytes", 256 * l.groupMapSlots())});
  return b.getDictionaryAttr(
      {c.i64("block", l.threads), c.i64("cluster", l.cluster),
       c.i64("dynamic_smem", l.smemBytes), c.i64("max_ctas", l.maxCtas),
       c.i64("block_m", l.blockM), c.i64("block_n", l.blockN),
       c.i64("n", l.n), c.i64("k", 0),
       b.getNamedAttr("params", b.getArrayAttr(params)),
       c.i64("layout", 4), c.i64("groups", l.groups)});
}

/// D's operand index. Operands in op order: A, A scales, B, B scales,
/// [groups or C,] D.
static int64_t dOperandOf(const KernelLayout &l) {
  return l.grouped() || l.accumulate || l.bias ? 5 : 4;
}

/// The maps of A, A's scales, B and D of a kernel of layout `l`, into
/// maps[kMapA..kMapD].
static void buildOperandMaps(ContractBuilder &c, const KernelLayout &l,
                             MutableArrayRef<Attribute> maps) {
  const int64_t dOperand = dOperandOf(l);
  if (l.masked()) {
    // A [G, M_max, K] and its scales [G, M_max, K/128] (MN-major per
    // group): 3-D maps, so a box never crosses into the next group's rows.
    maps[kMapA] =
        c.tensorMap(0, {2, 1, 0}, {128, l.blockM / l.mcastA(), 1}, 128, "u8");
    maps[kMapSFA] = c.tensorMap(1, {1, 2, 0}, {l.blockM, 1, 1}, 0, "f32");
  } else {
    // With multicast, each CTA of the pair loads half of the multicast
    // operand's rows.
    maps[kMapA] = c.tensorMap(
        0, {1, 0}, {128, l.aBoxRows ? l.aBoxRows : l.blockM / l.mcastA()}, 128,
        "u8");
    maps[kMapSFA] = c.tensorMap(1, {0, 1}, {l.blockM, 1}, 0, "f32");
  }
  // B [N, K], or [G, N, K] with the group outermost; with B multicast a
  // box is half of B's tile (the contiguous layout loads a whole tile as
  // two boxes where a pair's M blocks are of different groups).
  maps[kMapB] =
      l.grouped()
          ? c.tensorMap(2, {2, 1, 0}, {128, l.blockN / l.mcastB(), 1}, 128,
                        "u8")
          : c.tensorMap(2, {1, 0}, {128, l.blockN / l.mcastB()}, 128, "u8");
  // D: one box per tile, or 64-column boxes with 128-byte swizzle; masked:
  // D [G, M_max, N] through a 3-D map.
  // Swizzled boxes are 128 bytes wide: 64 bf16 or 32 f32 columns.
  int64_t boxN = l.dSwizzle ? 128 / l.outBytes() : l.blockN,
          swizzleD = l.dSwizzle ? 128 : 0;
  StringRef dType = l.f32Out ? "f32" : "bf16";
  maps[kMapD] =
      l.masked()
          ? c.tensorMap(dOperand, {2, 1, 0}, {boxN, l.blockM, 1}, swizzleD,
                        dType)
          : c.tensorMap(dOperand, {1, 0}, {boxN, l.dBoxRows()}, swizzleD,
                        dType);
}

DictionaryAttr mlir::dgemm::buildGemmLaunchContract(MLIRContext *ctx,
                                                    const KernelLayout &l,
                                                    const KernelLayout *alt) {
  ContractBuilder c{ctx};
  Builder &b = c.b;
  if (l.kGrouped())
    return buildKGroupedContract(c, l);
  SmallVector<Attribute> params(alt ? kAltMapD + 1
                                : l.masked() ? 8
                                : l.grouped() || l.bias ? 7
                                                        : 6);
  buildOperandMaps(c, l, params);
  // The second tile shape's maps (masked), after the others.
  if (alt)
    buildOperandMaps(c, *alt, MutableArrayRef<Attribute>(params).drop_front(
                                  kAltMapA));
  // Masked: D's address for the tiles that cross masked_m (row-predicated
  // stores).
  auto ptr = [&](int64_t operand) {
    return b.getDictionaryAttr({b.getNamedAttr("kind", b.getStringAttr("ptr")),
                                c.i64("operand", operand)});
  };
  if (l.masked())
    params[kDPtr] = ptr(dOperandOf(l));
  // B scales: [N, K/128] MN-major through a map, a box of BN columns per K
  // block (1x128 recipe); else the address of the 128x128 blocks.
  params[kSFBPtr] = l.perRowB ? c.tensorMap(3, {0, 1}, {l.blockN, 1}, 0, "f32")
                              : ptr(3);
  params[kM] =
      b.getDictionaryAttr({b.getNamedAttr("kind", b.getStringAttr("m"))});
  if (l.grouped())
    params[kGroups] = ptr(4);
  if (l.bias)
    params[kBiasPtr] = ptr(4);
  SmallVector<NamedAttribute> fields = {
      c.i64("block", l.threads), c.i64("cluster", l.cluster),
      c.i64("dynamic_smem", kernelSmemBytes(l, alt)),
      c.i64("max_ctas", alt ? std::max(l.maxCtas, alt->maxCtas) : l.maxCtas),
      c.i64("block_m", l.blockM),
      c.i64("block_n", l.blockN), c.i64("n", l.n), c.i64("k", l.k),
      b.getNamedAttr("params", b.getArrayAttr(params))};
  if (l.grouped()) {
    // 1 contiguous, 2 masked (docs/launch-contract.md); absent: normal.
    fields.push_back(
        c.i64("layout", l.groupOffsets ? 6 : l.contiguous() ? 1 : 2));
    fields.push_back(c.i64("groups", l.groups));
  } else if (l.perRowB || l.f32Out) {
    const bool wgrad = l.perRowB && l.f32Out && l.accumulate;
    fields.push_back(c.i64("layout", wgrad ? 3 : 5));
  } else if (l.bias) {
    // The normal bf16 GEMM with a bias (operands A, A scales, B, B scales,
    // bias, D).
    fields.push_back(c.i64("layout", 7));
  }
  // Tail split: a tile's K blocks may be split over a cluster's two CTAs.
  if (l.tailSplit)
    fields.push_back(c.i64("tile_ctas", 2));
  // A's box cut to a small M's rows: larger M would read rows never loaded.
  if (l.aBoxRows)
    fields.push_back(c.i64("max_m", l.aBoxRows));
  return b.getDictionaryAttr(fields);
}
