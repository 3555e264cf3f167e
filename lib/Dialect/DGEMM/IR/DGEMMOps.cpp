//===- DGEMMOps.cpp - dgemm op verifiers and interfaces --------------------===//
//
// Verifiers of dgemm.gemm, dgemm.grouped_gemm and dgemm.k_grouped_gemm (one
// message per broken rule, see test/Dialect/DGEMM/invalid.mlir) and their
// GemmOpInterface methods, which describe each op's problem to the config
// selection.
//
// The normal and m-grouped ops share one operand layout, with an optional
// leading group dimension on A/D (masked) and on B (both grouped layouts):
//
//   A        [G?, M, K]              K-major
//   A scales [G?, M, ceil(K/128)]    MN-major (stride 1 along M)
//   B        [G?, N, K]              K-major
//   B scales [G?, ceil(N/128), ceil(K/128)]  (128x128 recipe)
//            [N, ceil(K/128)] MN-major       (1x128 recipe, normal only)
//   D        [G?, M, N]              row-major
//
//===----------------------------------------------------------------------===//
#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"

#include "OperandChecks.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::dgemm;
using mlir::dgemm::detail::OperandChecker;

#define GET_OP_CLASSES
#include "dgemm/Dialect/DGEMM/IR/DGEMMOps.cpp.inc"

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

namespace {
/// Sizes found while verifying the shared operand layout.
struct GemmSizes {
  int64_t m = ShapedType::kDynamic, n = 0, k = 0, g = 1;
};

/// Shape documentation with an optional leading group dimension.
std::string shapeDoc(bool grouped, StringRef rest) {
  return grouped ? ("[G, " + rest + "]").str() : ("[" + rest + "]").str();
}
} // namespace

/// Verifies A, A scales, B, B scales and D of a normal or m-grouped GEMM.
/// `aGrouped`: A, A scales and D have a leading group dim; `bGrouped`: B and B
/// scales have one.
static LogicalResult verifyGemmOperands(Operation *op, Value aV, Value saV,
                                        Value bV, Value sbV, Value dV,
                                        RecipeAttr recipe, bool aGrouped,
                                        bool bGrouped, bool allowF32Out,
                                        GemmSizes &sizes) {
  MLIRContext *ctx = op->getContext();
  Type e4m3 = Float8E4M3FNType::get(ctx), e5m2 = Float8E5M2Type::get(ctx);
  Type f32 = Float32Type::get(ctx), bf16 = BFloat16Type::get(ctx);
  const int64_t ga = aGrouped ? 1 : 0, gb = bGrouped ? 1 : 0;
  const bool perRowB = recipe.isPerRowB();

  OperandChecker a(op, aV, "A"), sa(op, saV, "A scales"), b(op, bV, "B"),
      sb(op, sbV, "B scales"), d(op, dV, "D");
  if (failed(a.rank(2 + ga, shapeDoc(aGrouped, "M, K"))) ||
      failed(sa.rank(2 + ga, shapeDoc(aGrouped, "M, ceil(K/128)"))) ||
      failed(b.rank(2 + gb, shapeDoc(bGrouped, "N, K"))) ||
      failed(sb.rank(2 + gb,
                     perRowB ? shapeDoc(bGrouped, "N, ceil(K/128)")
                             : shapeDoc(bGrouped, "ceil(N/128), ceil(K/128)"))) ||
      failed(d.rank(2 + ga, shapeDoc(aGrouped, "M, N"))))
    return failure();

  if (failed(a.elementType({e4m3, e5m2}, "f8E4M3FN or f8E5M2")) ||
      failed(b.elementType({e4m3, e5m2}, "f8E4M3FN or f8E5M2")) ||
      failed(sa.elementType({f32}, "f32")) ||
      failed(sb.elementType({f32}, "f32")))
    return failure();
  if (allowF32Out) {
    if (failed(d.elementType({bf16, f32}, "bf16 or f32")))
      return failure();
  } else if (failed(d.elementType({bf16}, "bf16"))) {
    return failure();
  }

  if (failed(a.staticDim(ga + 1, "K")) || failed(b.staticDim(gb, "N")))
    return failure();
  const int64_t m = a.dimSize(ga), k = a.dimSize(ga + 1), n = b.dimSize(gb);
  if (k <= 0 || k % 128 != 0)
    return op->emitOpError() << "K must be a positive multiple of 128 (the "
                                "scale block), got "
                             << k;
  const int64_t kb = k / 128;

  // Sizes that must agree among the operands.
  if (failed(b.dimEquals(gb + 1, k, "K", "K of A")) ||
      failed(d.dimEquals(ga, m, "M", "M of A")) ||
      failed(d.dimEquals(ga + 1, n, "N", "N of B")) ||
      failed(sa.dimEquals(ga, m, "M", "M of A")) ||
      failed(sa.dimEquals(ga + 1, kb, "ceil(K/128)", "K/128 of A")))
    return failure();
  if (perRowB) {
    if (failed(sb.dimEquals(gb, n, "N", "N of B")) ||
        failed(sb.dimEquals(gb + 1, kb, "ceil(K/128)", "K/128 of A")))
      return failure();
  } else if (failed(sb.dimEquals(gb, ceilDiv(n, 128), "ceil(N/128)",
                                 "ceil(N/128) of B")) ||
             failed(sb.dimEquals(gb + 1, kb, "ceil(K/128)", "K/128 of A"))) {
    return failure();
  }

  // Group counts.
  int64_t g = 1;
  if (bGrouped) {
    g = b.dimSize(0);
    if (failed(sb.dimEquals(0, g, "G", "the group count of B")))
      return failure();
    if (aGrouped &&
        (failed(a.dimEquals(0, g, "G", "the group count of B")) ||
         failed(sa.dimEquals(0, g, "G", "the group count of B")) ||
         failed(d.dimEquals(0, g, "G", "the group count of B"))))
      return failure();
  }

  // Layouts: what TMA and the kernel read.
  if (failed(a.contiguousAlong(ga + 1, "K-major")) ||
      failed(a.tmaRowsAligned(ga + 1)) ||
      failed(b.contiguousAlong(gb + 1, "K-major")) ||
      failed(b.tmaRowsAligned(gb + 1)) ||
      failed(d.contiguousAlong(ga + 1, "row-major")) ||
      failed(d.tmaRowsAligned(ga + 1)) || failed(d.notSelfOverlapping()) ||
      failed(sa.contiguousAlong(
          ga, "MN-major (each K block's M scales contiguous, e.g. "
              "strided<[1, ?]>)")) ||
      failed(sa.strideAtLeast(ga + 1, m, "M")) ||
      failed(sa.tmaRowsAligned(ga)))
    return failure();
  if (perRowB) {
    if (failed(sb.contiguousAlong(
            gb, "MN-major (each K block's N scales contiguous, e.g. "
                "strided<[1, ?]>)")) ||
        failed(sb.strideAtLeast(gb + 1, n, "N")) ||
        failed(sb.tmaRowsAligned(gb)))
      return failure();
  } else if (failed(sb.contiguousAlong(
                 gb + 1, "K-block-major (row-major [ceil(N/128), "
                         "ceil(K/128)])"))) {
    return failure();
  }

  sizes.m = m;
  sizes.n = n;
  sizes.k = k;
  sizes.g = g;
  return success();
}

/// m_hint and an attached config: the hint is positive, the config one the
/// kernel can run for this problem on the op's target.
static LogicalResult verifyHintAndConfig(GemmOpInterface op,
                                         std::optional<int64_t> mHint) {
  if (mHint && *mHint < 1)
    return op->emitOpError() << "m_hint must be positive, got " << *mHint;
  ConfigAttr config = op.getKernelConfig();
  if (!config)
    return success();
  ::dgemm::ProblemDesc p = op.getProblem(/*defaultM=*/1);
  std::string why = ::dgemm::checkConfig(toKernelConfig(config), p,
                                         toTargetDesc(op.getEffectiveTarget()));
  if (!why.empty())
    return op->emitOpError() << "config " << config
                             << " cannot run this GEMM: " << why;
  return success();
}

static ::dgemm::OutType outTypeOf(Value d) {
  return cast<MemRefType>(d.getType()).getElementType().isF32()
             ? ::dgemm::OutType::F32
             : ::dgemm::OutType::BF16;
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

LogicalResult GemmOp::verify() {
  GemmSizes sizes;
  if (failed(verifyGemmOperands(*this, getA(), getAScale(), getB(),
                                getBScale(), getD(), getRecipe(),
                                /*aGrouped=*/false, /*bGrouped=*/false,
                                /*allowF32Out=*/true, sizes)))
    return failure();
  if (Value c = getC()) {
    auto dType = cast<MemRefType>(getD().getType());
    if (!dType.getElementType().isF32())
      return emitOpError() << "an accumulate input C needs an f32 output D, "
                              "got D of "
                           << dType.getElementType();
    OperandChecker cc(*this, c, "C");
    if (failed(cc.rank(2, "[M, N]")) ||
        failed(cc.elementType({Float32Type::get(getContext())}, "f32")) ||
        failed(cc.dimEquals(0, sizes.m, "M", "M of A")) ||
        failed(cc.dimEquals(1, sizes.n, "N", "N of B")) ||
        failed(cc.contiguousAlong(1, "row-major")) ||
        failed(cc.tmaRowsAligned(1)) || failed(cc.notSelfOverlapping()))
      return failure();
  }
  if (Value bias = getBias()) {
    // Epilogue fusion: added in f32 before the bf16 conversion.
    auto dType = cast<MemRefType>(getD().getType());
    if (!dType.getElementType().isBF16())
      return emitOpError() << "a bias needs a bf16 output D, got D of "
                           << dType.getElementType();
    OperandChecker bc(*this, bias, "bias");
    if (failed(bc.rank(1, "[N]")) ||
        failed(bc.elementType({Float32Type::get(getContext())}, "f32")) ||
        failed(bc.dimEquals(0, sizes.n, "N", "N of B")) ||
        failed(bc.contiguousAlong(0, "contiguous")))
      return failure();
  }
  return verifyHintAndConfig(*this, getMHint());
}

::dgemm::ProblemDesc GemmOp::getProblem(int64_t defaultM) {
  auto a = cast<MemRefType>(getA().getType());
  ::dgemm::ProblemDesc p;
  p.kind = ::dgemm::GemmKind::Normal;
  p.m = !a.isDynamicDim(0) ? a.getDimSize(0) : getMHint().value_or(defaultM);
  p.n = cast<MemRefType>(getB().getType()).getDimSize(0);
  p.k = a.getDimSize(1);
  p.out = outTypeOf(getD());
  p.bScale = getRecipe().isPerRowB() ? ::dgemm::BScaleGranularity::Row1x128
                                     : ::dgemm::BScaleGranularity::Block128x128;
  return p;
}

bool GemmOp::needsMHint() {
  return cast<MemRefType>(getA().getType()).isDynamicDim(0) && !getMHint();
}

//===----------------------------------------------------------------------===//
// GroupedGemmOp
//===----------------------------------------------------------------------===//

LogicalResult GroupedGemmOp::verify() {
  const bool masked = getLayout().getLayout() == GroupedLayout::Masked;
  if (getRecipe().isPerRowB())
    return emitOpError() << "grouped_gemm supports the 1x128 x 128x128 "
                            "recipe only, got "
                         << getRecipe();
  GemmSizes sizes;
  if (failed(verifyGemmOperands(*this, getA(), getAScale(), getB(),
                                getBScale(), getD(), getRecipe(),
                                /*aGrouped=*/masked, /*bGrouped=*/true,
                                /*allowF32Out=*/false, sizes)))
    return failure();
  Type i32 = IntegerType::get(getContext(), 32);
  if (masked) {
    OperandChecker mm(*this, getGroups(), "masked_m");
    if (failed(mm.rank(1, "[G]")) || failed(mm.elementType({i32}, "i32")) ||
        failed(mm.dimEquals(0, sizes.g, "G", "the group count of B")))
      return failure();
  } else if (getLayout().getLayout() == GroupedLayout::ContiguousOffsets) {
    OperandChecker off(*this, getGroups(), "offsets");
    if (failed(off.rank(1, "[G]")) || failed(off.elementType({i32}, "i32")) ||
        failed(off.dimEquals(0, sizes.g, "G", "the group count of B")))
      return failure();
    if (!ShapedType::isDynamic(sizes.m) && sizes.m % 128 != 0)
      return emitOpError() << "a contiguous grouped A must have a multiple of "
                              "128 rows (each group starts at a multiple of "
                              "128), got "
                           << sizes.m;
  } else {
    OperandChecker mi(*this, getGroups(), "m_indices");
    if (failed(mi.rank(1, "[M_sum]")) || failed(mi.elementType({i32}, "i32")) ||
        failed(mi.dimEquals(0, sizes.m, "M_sum", "M_sum of A")))
      return failure();
    if (!ShapedType::isDynamic(sizes.m) && sizes.m % 128 != 0)
      return emitOpError() << "a contiguous grouped A must have a multiple of "
                              "128 rows (each group is padded to 128 rows), "
                              "got "
                           << sizes.m;
  }
  return verifyHintAndConfig(*this, getMHint());
}

::dgemm::ProblemDesc GroupedGemmOp::getProblem(int64_t defaultM) {
  const bool masked = getLayout().getLayout() == GroupedLayout::Masked;
  auto a = cast<MemRefType>(getA().getType());
  auto b = cast<MemRefType>(getB().getType());
  const int64_t mDim = masked ? 1 : 0;
  ::dgemm::ProblemDesc p;
  p.kind = masked ? ::dgemm::GemmKind::GroupedMasked
                  : ::dgemm::GemmKind::GroupedContiguous;
  // Masked: the expected rows per group (m_hint) rather than the capacity.
  if (getMHint())
    p.m = *getMHint();
  else
    p.m = a.isDynamicDim(mDim) ? defaultM : a.getDimSize(mDim);
  // N and K from the operands whose dimension the verifier requires static
  // (B's K may be dynamic: it only has to agree with A's).
  p.n = b.getDimSize(1);
  p.k = a.getDimSize(mDim + 1);
  p.groups = b.isDynamicDim(0) ? 1 : b.getDimSize(0);
  p.out = ::dgemm::OutType::BF16;
  p.groupOffsets = getLayout().getLayout() == GroupedLayout::ContiguousOffsets;
  return p;
}

bool GroupedGemmOp::needsMHint() {
  const bool masked = getLayout().getLayout() == GroupedLayout::Masked;
  return cast<MemRefType>(getA().getType()).isDynamicDim(masked ? 1 : 0) &&
         !getMHint();
}

//===----------------------------------------------------------------------===//
// KGroupedGemmOp
//===----------------------------------------------------------------------===//

LogicalResult KGroupedGemmOp::verify() {
  MLIRContext *ctx = getContext();
  Type e4m3 = Float8E4M3FNType::get(ctx), e5m2 = Float8E5M2Type::get(ctx);
  Type f32 = Float32Type::get(ctx), i32 = IntegerType::get(ctx, 32);
  if (!getRecipe().isPerRowB())
    return emitOpError() << "k_grouped_gemm needs the 1x128 x 1x128 recipe "
                            "(weight gradients), got "
                         << getRecipe();
  OperandChecker a(*this, getA(), "A"), sa(*this, getAScale(), "A scales"),
      b(*this, getB(), "B"), sb(*this, getBScale(), "B scales"),
      ks(*this, getKs(), "ks"), d(*this, getD(), "D");
  if (failed(a.rank(1, "(the A_g [M, k_g] stored one after another)")) ||
      failed(b.rank(1, "(the B_g [N, k_g] stored one after another)")) ||
      failed(sa.rank(2, "[sum(k_g)/128, M]")) ||
      failed(sb.rank(2, "[sum(k_g)/128, N]")) || failed(ks.rank(1, "[G]")) ||
      failed(d.rank(3, "[G, M, N]")))
    return failure();
  if (failed(a.elementType({e4m3, e5m2}, "f8E4M3FN or f8E5M2")) ||
      failed(b.elementType({e4m3, e5m2}, "f8E4M3FN or f8E5M2")) ||
      failed(sa.elementType({f32}, "f32")) ||
      failed(sb.elementType({f32}, "f32")) ||
      failed(ks.elementType({i32}, "i32")) ||
      failed(d.elementType({f32}, "f32 (accumulated in place)")))
    return failure();
  if (failed(d.staticDim(0, "G")) || failed(d.staticDim(1, "M")) ||
      failed(d.staticDim(2, "N")))
    return failure();
  const int64_t g = d.dimSize(0), m = d.dimSize(1), n = d.dimSize(2);
  if (failed(ks.dimEquals(0, g, "G", "the group count of D")) ||
      failed(sa.dimEquals(1, m, "M", "M of D")) ||
      failed(sb.dimEquals(1, n, "N", "N of D")) ||
      failed(sb.dimEquals(0, sa.dimSize(0), "sum(k_g)/128",
                          "sum(k_g)/128 of A scales")))
    return failure();
  // The flat buffers hold M (N) rows of sum(k_g) = 128 * (scale rows) bytes.
  const int64_t kBlocks = sa.dimSize(0);
  if (!ShapedType::isDynamic(kBlocks)) {
    if (failed(a.dimEquals(0, m * 128 * kBlocks, "size",
                           "M x sum(k_g) from D and A scales")) ||
        failed(b.dimEquals(0, n * 128 * kBlocks, "size",
                           "N x sum(k_g) from D and B scales")))
      return failure();
  }
  if (failed(a.contiguousAlong(0, "contiguous")) ||
      failed(b.contiguousAlong(0, "contiguous")) ||
      failed(sa.contiguousAlong(1, "MN-major (row-major [sum(k_g)/128, M])")) ||
      failed(sa.tmaRowsAligned(1)) ||
      failed(sb.contiguousAlong(1, "MN-major (row-major [sum(k_g)/128, N])")) ||
      failed(sb.tmaRowsAligned(1)) ||
      failed(d.contiguousAlong(2, "row-major")) || failed(d.tmaRowsAligned(2)) ||
      failed(d.notSelfOverlapping()))
    return failure();
  return verifyHintAndConfig(*this, std::nullopt);
}

::dgemm::ProblemDesc KGroupedGemmOp::getProblem(int64_t) {
  auto d = cast<MemRefType>(getD().getType());
  auto sa = cast<MemRefType>(getAScale().getType());
  ::dgemm::ProblemDesc p;
  p.kind = ::dgemm::GemmKind::KGrouped;
  p.groups = d.getDimSize(0);
  p.m = d.getDimSize(1);
  p.n = d.getDimSize(2);
  // Each group's K varies; the mean K per group stands for it.
  int64_t kBlocks = sa.isDynamicDim(0) ? p.groups : sa.getDimSize(0);
  p.k = 128 * std::max<int64_t>(1, kBlocks / std::max<int64_t>(1, p.groups));
  p.out = ::dgemm::OutType::F32;
  p.bScale = ::dgemm::BScaleGranularity::Row1x128;
  return p;
}

bool KGroupedGemmOp::needsMHint() { return false; }
