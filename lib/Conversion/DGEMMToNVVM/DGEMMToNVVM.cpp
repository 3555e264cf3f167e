//===- DGEMMToNVVM.cpp - the convert-dgemm-to-nvvm pass --------------------===//
//
// One pattern per kernel-level dgemm op:
//   dgemm.schedule_tile  -> i32 arithmetic (the grouped tile order)
//   dgemm.wgmma_tile     -> 4 x nvvm.wgmma.mma_async m64nNk32 e4m3, the
//                           first with scale-d = zero
//   dgemm.promote        -> per register: fma(acc, sa(row) * sb(col group), t)
//   dgemm.promote_cols   -> per register: fma(acc, sa(row) * sb(column), t)
//   dgemm.add_bias       -> per 8-column group one vector<2xf32> global
//                           load of the columns' bias, fadd per register
//   dgemm.epilogue_store -> wait until the previous store read the staging
//                           tile, bf16x2 packing (or f32 pairs), shared
//                           stores, async-proxy fence, named barrier, TMA
//                           store or reduce-add by thread 0 (not waited for:
//                           it drains during the next tile; per_warpgroup:
//                           each warpgroup's rows by its first thread)
//                           (with `stmatrix`: stmatrix.x4, or .x2 at two
//                           row waves, instead of the bf16 shared stores)
//                           (with `rows`, a tile with fewer valid rows:
//                           predicated 16-byte copies by the threads instead)
//   dgemm.epilogue_store_rows -> bf16x2 packing, predicated global stores
//
//===----------------------------------------------------------------------===//
#include "WgmmaDescriptor.h"

#include "dgemm/Conversion/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dgemm {
#define GEN_PASS_DEF_CONVERTDGEMMTONVVM
#include "dgemm/Conversion/Passes.h.inc"
} // namespace mlir::dgemm

using namespace mlir;
using namespace mlir::dgemm;

static Value i32c(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

namespace {

/// The two f32 values of a fragment pair (registers i, i + 1 of the part
/// that holds 8-column group j) as a vector<2xf32>.
Value f32Pair(OpBuilder &b, Location loc, ValueRange totals,
              int64_t groupsPerPart, int64_t j, int64_t h) {
  Type i32 = b.getI32Type();
  auto v2f32 = VectorType::get({2}, b.getF32Type());
  Value part = totals[j / groupsPerPart];
  int64_t field = 4 * (j % groupsPerPart) + 2 * h;
  Value v = LLVM::UndefOp::create(b, loc, v2f32);
  for (int64_t e = 0; e < 2; ++e) {
    Value x = LLVM::ExtractValueOp::create(b, loc, part, field + e);
    v = LLVM::InsertElementOp::create(b, loc, v, x,
                                      LLVM::ConstantOp::create(b, loc, i32, e));
  }
  return v;
}

/// How an epilogue op's totals cover its tile: `waves` row waves of
/// `waveRows` rows (64 per consumer; two waves at block M 256, the second
/// `waveRows` further down), each `parts` fragments of `groupsPerPart`
/// 8-column groups; totals[w * parts + p] is wave w's part p.
struct TileTotals {
  int64_t waveRows, waves, parts, groupsPerPart;
  template <typename Op>
  explicit TileTotals(Op op)
      : waveRows(64 * op.getConsumers()), waves(op.getBlockM() / waveRows),
        parts(static_cast<int64_t>(op.getTotals().size()) / waves),
        groupsPerPart(op.getBlockN() / 8 / parts) {}
};

/// The same pair packed as bf16x2 in an i32.
Value packedPair(OpBuilder &b, Location loc, ValueRange totals,
                 int64_t groupsPerPart, int64_t j, int64_t h) {
  auto v2bf16 = VectorType::get({2}, b.getBF16Type());
  Value v = f32Pair(b, loc, totals, groupsPerPart, j, h);
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(),
                                 LLVM::FPTruncOp::create(b, loc, v2bf16, v));
}

/// `v` through an asm `mov` with side effects: LLVM cannot hoist what is
/// computed from the result out of the loops around it (address math that
/// depends on the thread index alone would otherwise be computed once above
/// the tile loop and held in registers through the K loop).
Value opaqueI32(OpBuilder &b, Location loc, Value v) {
  return LLVM::InlineAsmOp::create(
             b, loc, b.getI32Type(), ValueRange{v}, "mov.u32 $0, $1;", "=r,r",
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             /*asm_dialect=*/LLVM::AsmDialectAttr(),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

struct ScheduleTileLowering : OpRewritePattern<ScheduleTileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScheduleTileOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    int64_t g = op.getSwizzleGroup(), nb = op.getNumNBlocks();
    Value t = op.getTile();
    if (op.getAlongM()) {
      // Groups of g M blocks, M fastest inside one.
      Value perGroup = i32c(rw, loc, nb * g);
      Value group = arith::DivUIOp::create(rw, loc, t, perGroup);
      Value firstM = arith::MulIOp::create(rw, loc, group, i32c(rw, loc, g));
      Value width = arith::MinUIOp::create(
          rw, loc, i32c(rw, loc, g),
          arith::SubIOp::create(rw, loc, op.getNumMBlocks(), firstM));
      Value r = arith::RemUIOp::create(rw, loc, t, perGroup);
      Value mBlock = arith::AddIOp::create(
          rw, loc, firstM, arith::RemUIOp::create(rw, loc, r, width));
      Value nBlock = arith::DivUIOp::create(rw, loc, r, width);
      rw.replaceOp(op, {mBlock, nBlock});
      return success();
    }
    Value perGroup =
        arith::MulIOp::create(rw, loc, op.getNumMBlocks(), i32c(rw, loc, g));
    Value group = arith::DivUIOp::create(rw, loc, t, perGroup);
    Value firstN = arith::MulIOp::create(rw, loc, group, i32c(rw, loc, g));
    Value width = arith::MinUIOp::create(
        rw, loc, i32c(rw, loc, g),
        arith::SubIOp::create(rw, loc, i32c(rw, loc, nb), firstN));
    Value r = arith::RemUIOp::create(rw, loc, t, perGroup);
    Value mBlock = arith::DivUIOp::create(rw, loc, r, width);
    Value nBlock = arith::AddIOp::create(
        rw, loc, firstN, arith::RemUIOp::create(rw, loc, r, width));
    rw.replaceOp(op, {mBlock, nBlock});
    return success();
  }
};

struct WgmmaTileLowering : OpRewritePattern<WgmmaTileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WgmmaTileOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rw.getContext();
    Type fragment = op.getAcc().getType();

    auto shape = NVVM::MMAShapeAttr::get(ctx, 64, op.getN(), 32);
    auto e4m3 = NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::e4m3);
    auto f32 = NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32);
    auto one = NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one);
    auto row = NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row);
    auto col = NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::col);
    Value startA = buildWgmmaStart(rw, loc, op.getATile());
    Value startB = buildWgmmaStart(rw, loc, op.getBTile());
    // The first step ignores its input (scale-d = zero): no register moves.
    Value acc = LLVM::UndefOp::create(rw, loc, fragment);
    for (int64_t kk = 0; kk < 4; ++kk) {
      // A k32 step is 32 bytes further along K: 2 in the start address.
      Value da = buildWgmmaDescriptor(rw, loc, startA, 2 * kk);
      Value db = buildWgmmaDescriptor(rw, loc, startB, 2 * kk);
      auto scaleD = NVVM::WGMMAScaleOutAttr::get(
          ctx, kk == 0 ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one);
      acc = NVVM::WgmmaMmaAsyncOp::create(rw, loc, fragment, acc, da, db,
                                          shape, e4m3, e4m3, f32, scaleD, one,
                                          one, row, col, nullptr);
    }
    rw.replaceOp(op, acc);
    return success();
  }
};

struct PromoteLowering : OpRewritePattern<PromoteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PromoteOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    auto type = cast<LLVM::LLVMStructType>(op.getTotal().getType());
    int64_t fields = type.getBody().size();
    Value result = op.getTotal();
    Value second;
    if (op.getSb2()) // groups from here take the third block's scale
      second = arith::AddIOp::create(rw, loc, op.getFormer(),
                                     i32c(rw, loc, 16));
    for (int64_t j = 0; j < fields / 4; ++j) {
      // 8-column group j: B scale of the first, second (or third) block.
      Value group = i32c(rw, loc, op.getFirstGroup() + j);
      Value sb = op.getSb1();
      if (second) {
        Value third = arith::CmpIOp::create(
            rw, loc, arith::CmpIPredicate::uge, group, second);
        sb = arith::SelectOp::create(rw, loc, third, op.getSb2(), sb);
      }
      Value first = arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::ult,
                                          group, op.getFormer());
      sb = arith::SelectOp::create(rw, loc, first, op.getSb0(), sb);
      Value scale0 = arith::MulFOp::create(rw, loc, op.getSa0(), sb);
      Value scale1 = arith::MulFOp::create(rw, loc, op.getSa1(), sb);
      for (int64_t q = 0; q < 4; ++q) {
        int64_t i = 4 * j + q;
        Value a = LLVM::ExtractValueOp::create(rw, loc, op.getAcc(), i);
        Value t = LLVM::ExtractValueOp::create(rw, loc, op.getTotal(), i);
        Value s = q < 2 ? scale0 : scale1; // rows r0, r0 + 8
        Value r = LLVM::FMAOp::create(rw, loc, a, s, t);
        result = LLVM::InsertValueOp::create(rw, loc, result, r, i);
      }
    }
    rw.replaceOp(op, result);
    return success();
  }
};

struct PromoteColsLowering : OpRewritePattern<PromoteColsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PromoteColsOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    auto type = cast<LLVM::LLVMStructType>(op.getTotal().getType());
    int64_t fields = type.getBody().size();
    Value result = op.getTotal();
    Type i32 = rw.getI32Type();
    for (int64_t j = 0; j < fields / 4; ++j) {
      // Registers 4j + {0, 1}: row r0, columns c, c + 1; 4j + {2, 3}: row
      // r0 + 8, the same columns.
      Value pair = op.getSb()[j];
      Value sb[2];
      for (int64_t e = 0; e < 2; ++e)
        sb[e] = LLVM::ExtractElementOp::create(
            rw, loc, pair, LLVM::ConstantOp::create(rw, loc, i32, e));
      for (int64_t q = 0; q < 4; ++q) {
        int64_t i = 4 * j + q;
        Value sa = q < 2 ? op.getSa0() : op.getSa1();
        Value scale = arith::MulFOp::create(rw, loc, sa, sb[q % 2]);
        Value a = LLVM::ExtractValueOp::create(rw, loc, op.getAcc(), i);
        Value t = LLVM::ExtractValueOp::create(rw, loc, op.getTotal(), i);
        Value r = LLVM::FMAOp::create(rw, loc, a, scale, t);
        result = LLVM::InsertValueOp::create(rw, loc, result, r, i);
      }
    }
    rw.replaceOp(op, result);
    return success();
  }
};

/// Epilogue fusion: each 8-column group j's pair of columns c = n0 + 8j +
/// 2 * (lane % 4) (clamped to n - 2: a tile past the matrix's last column
/// adds the last pair to sums the store clips) is loaded once as a
/// vector<2xf32> and added to registers 4g + {0, 2} (column c) and 4g +
/// {1, 3} (column c + 1) of the fragment holding group j, in every row wave.
struct AddBiasLowering : OpRewritePattern<AddBiasOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddBiasOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    const TileTotals tt(op);
    Type i32 = rw.getI32Type(), f32 = rw.getF32Type();
    auto v2f32 = VectorType::get({2}, f32);
    auto c = [&](int64_t v) { return i32c(rw, loc, v); };
    Value lane = arith::RemUIOp::create(rw, loc, op.getTid(), c(32));
    Value first = arith::AddIOp::create(
        rw, loc, op.getN0(),
        arith::MulIOp::create(
            rw, loc, arith::RemUIOp::create(rw, loc, lane, c(4)), c(2)));
    SmallVector<Value> totals(op.getTotals().begin(), op.getTotals().end());
    for (int64_t j = 0; j < op.getBlockN() / 8; ++j) {
      Value col = arith::MinUIOp::create(
          rw, loc, arith::AddIOp::create(rw, loc, first, c(8 * j)),
          c(op.getN() - 2));
      Value addr =
          LLVM::GEPOp::create(rw, loc, op.getBias().getType(), f32,
                              op.getBias(), ArrayRef<LLVM::GEPArg>{col});
      Value pair = LLVM::LoadOp::create(rw, loc, v2f32, addr, /*alignment=*/8);
      Value bias[2];
      for (int64_t e = 0; e < 2; ++e)
        bias[e] = LLVM::ExtractElementOp::create(
            rw, loc, pair, LLVM::ConstantOp::create(rw, loc, i32, e));
      const int64_t part = j / tt.groupsPerPart, g = j % tt.groupsPerPart;
      for (int64_t w = 0; w < tt.waves; ++w) {
        Value &total = totals[w * tt.parts + part];
        for (int64_t q = 0; q < 4; ++q) {
          int64_t field = 4 * g + q;
          Value x = LLVM::ExtractValueOp::create(rw, loc, total, field);
          Value y = LLVM::FAddOp::create(rw, loc, x, bias[q % 2]);
          total = LLVM::InsertValueOp::create(rw, loc, total, y, field);
        }
      }
    }
    rw.replaceOp(op, totals);
    return success();
  }
};

/// The consumer warpgroup of thread `tid` (tid / 128).
Value warpgroupOf(EpilogueStoreOp op, PatternRewriter &rw) {
  return arith::DivUIOp::create(rw, op.getLoc(), op.getTid(),
                                i32c(rw, op.getLoc(), 128));
}

/// The epilogue's barrier: named barrier 1 for all consumer threads, or
/// (per_warpgroup) barrier 7 + w for warpgroup w's 128.
void epilogueBarrier(EpilogueStoreOp op, PatternRewriter &rw) {
  Location loc = op.getLoc();
  if (op.getPerWarpgroup()) {
    Value id = arith::AddIOp::create(rw, loc, warpgroupOf(op, rw),
                                     i32c(rw, loc, 7));
    NVVM::BarrierOp::create(rw, loc, Type(), id, i32c(rw, loc, 128), nullptr,
                            Value());
    return;
  }
  NVVM::BarrierOp::create(rw, loc, Type(), i32c(rw, loc, 1),
                          i32c(rw, loc, 128 * op.getConsumers()), nullptr,
                          Value());
}

/// The thread that stores (and waits for) the staged tile: thread 0, or
/// (per_warpgroup) each warpgroup's first.
Value epilogueLeader(EpilogueStoreOp op, PatternRewriter &rw) {
  Location loc = op.getLoc();
  Value t = op.getPerWarpgroup()
                ? arith::RemUIOp::create(rw, loc, op.getTid(),
                                         i32c(rw, loc, 128))
                      .getResult()
                : op.getTid();
  return arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::eq, t,
                               i32c(rw, loc, 0));
}

/// The bf16 staging stores of an epilogue with `stmatrix`. Per row wave w,
/// a tile of one row wave takes its 8-column groups in pairs (2p, 2p + 1):
/// one `stmatrix.m8n8.x4` per warp whose sources are the packs (j, h) =
/// (2p, 0), (2p, 1), (2p + 1, 0), (2p + 1, 1), the 8x8 matrices {rows 0-7
/// of the warp's 16, group 2p}, {rows 8-15, 2p}, {rows 0-7, 2p + 1}, {rows
/// 8-15, 2p + 1} (HOPPER-FACTS.md, "stmatrix mapping"); a last odd group,
/// and every group of a tile of two row waves (block M 256, where ptxas
/// spilled with .x4 and did not with .x2), takes `.x2` with its two packs.
/// Lane l gives the address of row l % 8 of matrix l / 8: tile row R = 16 *
/// warp + 8 * ((l / 8) & 1) + l % 8, group g + l / 16 for the .x4 of pair
/// (g, g + 1), g for an .x2 of group g, at the offsets writeStaging uses:
///   row-major: (R * BN + 8g) * 2
///   swizzled:  (g / 8) * BM * 128 + R * 128 + ((g % 8) ^ (R % 8)) * 16
/// With R % 8 = l % 8 and, for an .x4, g even (so (g + l / 16) % 8 = g % 8
/// + l / 16), the swizzled piece is (g % 8) ^ (l / 16) ^ (l % 8) (.x2: (g %
/// 8) ^ (l % 8)): a per-lane value XORed with a constant per store.
void writeStagingStmatrix(EpilogueStoreOp op, bool swizzled,
                          PatternRewriter &rw) {
  Location loc = op.getLoc();
  MLIRContext *ctx = rw.getContext();
  Value staging = op.getStaging();
  const int64_t bm = op.getBlockM(), bn = op.getBlockN(), groups = bn / 8;
  const TileTotals tt(op);
  const bool pairs = tt.waves == 1;
  Type i8 = rw.getI8Type();
  auto c = [&](int64_t v) { return i32c(rw, loc, v); };
  Value warp = arith::DivUIOp::create(rw, loc, op.getTid(), c(32));
  Value lane = arith::RemUIOp::create(rw, loc, op.getTid(), c(32));
  Value l8 = arith::RemUIOp::create(rw, loc, lane, c(8));
  Value half = arith::AndIOp::create(
      rw, loc, arith::DivUIOp::create(rw, loc, lane, c(8)), c(1));
  Value second = arith::DivUIOp::create(rw, loc, lane, c(16)); // l / 16
  Value row = arith::AddIOp::create(
      rw, loc, arith::MulIOp::create(rw, loc, warp, c(16)),
      arith::AddIOp::create(rw, loc, arith::MulIOp::create(rw, loc, half, c(8)),
                            l8));
  // The lane's byte offset for group 0 and wave 0: base4 and piece4 with
  // its group l / 16 (.x4), base2 and piece2 with group 0 (.x2).
  Value base4, base2, piece4, piece2;
  if (swizzled) {
    Value rowBytes = arith::MulIOp::create(rw, loc, row, c(128));
    if (pairs)
      piece4 = arith::MulIOp::create(
          rw, loc, arith::XOrIOp::create(rw, loc, second, l8), c(16));
    piece2 = arith::MulIOp::create(rw, loc, l8, c(16));
    base4 = base2 = rowBytes;
  } else {
    base2 = arith::MulIOp::create(rw, loc, row, c(2 * bn));
    if (pairs)
      base4 = arith::AddIOp::create(
          rw, loc, base2, arith::MulIOp::create(rw, loc, second, c(16)));
  }
  auto layout = NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row);
  auto shape = NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8);
  auto b16 =
      NVVM::LdStMatrixEltTypeAttr::get(ctx, NVVM::LdStMatrixEltType::B16);
  for (int64_t w = 0; w < tt.waves; ++w) {
    ValueRange totals = op.getTotals().slice(w * tt.parts, tt.parts);
    for (int64_t g = 0; g < groups;) {
      const bool x4 = pairs && g + 1 < groups;
      Value offset;
      if (swizzled) {
        Value piece = arith::XOrIOp::create(rw, loc, x4 ? piece4 : piece2,
                                            c(g % 8 * 16));
        offset = arith::AddIOp::create(
            rw, loc, arith::AddIOp::create(rw, loc, base2, piece),
            c(g / 8 * bm * 128 + w * tt.waveRows * 128));
      } else {
        offset = arith::AddIOp::create(rw, loc, x4 ? base4 : base2,
                                       c(16 * g + w * tt.waveRows * bn * 2));
      }
      Value addr = LLVM::GEPOp::create(rw, loc, staging.getType(), i8, staging,
                                       ArrayRef<LLVM::GEPArg>{offset});
      SmallVector<Value, 4> sources;
      const int64_t next = g + (x4 ? 2 : 1);
      for (; g < next; ++g)
        for (int64_t h = 0; h < 2; ++h)
          sources.push_back(
              packedPair(rw, loc, totals, tt.groupsPerPart, g, h));
      NVVM::StMatrixOp::create(rw, loc, addr, sources, layout, shape, b16);
    }
  }
}

/// The staging half of an epilogue: the leader (epilogueLeader) waits until
/// the previous tile's TMA store has read the staging tile, the consumers
/// meet at the epilogue's barrier (epilogueBarrier), and each thread writes
/// its totals (bf16 pairs, or f32 pairs) into the op's `block_m` x `block_n`
/// staging tile:
///   row-major:  (row * BN + 8j + col) * E
///   swizzled:   (j / G) * BM * 128 + row * 128 + (piece ^ (row % 8)) * 16
///               + (col * E) % 16,   piece = ((8j + col) * E % 128) / 16,
///               G = 8-column groups per 128-byte chunk (8 bf16, 4 f32)
/// (E bytes per element; row % 8 is lane / 4 for both of a thread's rows).
/// Returns the leader's predicate.
Value writeStaging(EpilogueStoreOp op, bool swizzled, bool f32,
                   PatternRewriter &rw) {
  Location loc = op.getLoc();
  Value staging = op.getStaging();
  int64_t bn = op.getBlockN();
  const TileTotals tt(op);
  const int64_t waveRows = tt.waveRows, waves = tt.waves, parts = tt.parts,
                groupsPerPart = tt.groupsPerPart;
  Type i8 = rw.getI8Type();
  Value tid = op.getTid();
  auto c = [&](int64_t v) { return i32c(rw, loc, v); };
  Value warp = arith::DivUIOp::create(rw, loc, tid, c(32));
  Value lane = arith::RemUIOp::create(rw, loc, tid, c(32));
  // Row of the thread's first register pair: 16 * warp + lane / 4 (warps
  // of all consumer warpgroups are consecutive 16-row slices).
  Value laneRow = arith::DivUIOp::create(rw, loc, lane, c(4));
  Value row0 = arith::AddIOp::create(
      rw, loc, arith::MulIOp::create(rw, loc, warp, c(16)), laneRow);
  Value col = arith::MulIOp::create(
      rw, loc, arith::RemUIOp::create(rw, loc, lane, c(4)), c(2));
  const int64_t bm = op.getBlockM(), e = f32 ? 4 : 2;
  // Columns per 128-byte swizzled chunk, 8-column groups per chunk.
  const int64_t chunkCols = 128 / e, groupsPerChunk = chunkCols / 8;
  Value row1 = arith::AddIOp::create(rw, loc, row0, c(8));
  // Row-major: the byte offset of row0's first pair, once; row1 is 8 rows
  // further, and group j 8 * E bytes further.
  Value rowMajor0 = arith::MulIOp::create(
      rw, loc,
      arith::AddIOp::create(rw, loc,
                            arith::MulIOp::create(rw, loc, row0, c(bn)), col),
      c(e));
  Value rowMajor1 = arith::AddIOp::create(rw, loc, rowMajor0, c(8 * e * bn));
  // Swizzled: the 16-byte piece of column `col` within an 8-column group
  // and the byte within the piece (bf16: piece 0, byte col * 2; f32: piece
  // col / 4, byte (col % 4) * 4).
  Value colPiece = f32 ? arith::DivUIOp::create(rw, loc, col, c(4)).getResult()
                       : c(0);
  Value colByte =
      f32 ? arith::MulIOp::create(
                rw, loc, arith::RemUIOp::create(rw, loc, col, c(4)), c(4))
                .getResult()
          : arith::MulIOp::create(rw, loc, col, c(2)).getResult();
  // f32, swizzled: a 64-bit store goes out as two half-warps of 16 lanes,
  // rows laneRow 0-3 (4-7) of it. With every lane storing the same 8-column
  // group j, the pieces (2j + col / 4) ^ laneRow of those rows are 4
  // distinct 16-byte pieces, each written twice: a 4-way bank conflict
  // (Nsight Compute: 4 wavefronts per store where 2 suffice). So a lane with
  // an odd laneRow stores group j ^ 2 of its chunk where the others store
  // group j (same chunk, every group once): its pieces are 4 further
  // (laneRow ^ 4 in the XOR), and the 8 rows of a store then write 8
  // distinct pieces of each half-warp's 128 bytes.
  const bool swapGroups = swizzled && f32;
  Value oddRow, pieceRow = laneRow;
  if (swapGroups) {
    Value odd = arith::AndIOp::create(rw, loc, laneRow, c(1));
    pieceRow = arith::XOrIOp::create(
        rw, loc, laneRow, arith::MulIOp::create(rw, loc, odd, c(4)));
    oddRow =
        arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::ne, odd, c(0));
  }
  // Wave w's rows are waveRows * w further down (a multiple of 8, so the
  // swizzle pattern row % 8 is the same).
  auto offset = [&](Value row, int64_t j, int64_t w) -> Value {
    if (!swizzled)
      return arith::AddIOp::create(rw, loc, row == row0 ? rowMajor0 : rowMajor1,
                                   c(8 * e * j + w * waveRows * bn * e));
    int64_t firstPiece = (j % groupsPerChunk) * 8 * e / 16;
    Value piece = arith::XOrIOp::create(
        rw, loc, pieceRow,
        arith::AddIOp::create(rw, loc, colPiece, c(firstPiece)));
    Value inChunk = arith::AddIOp::create(
        rw, loc, arith::MulIOp::create(rw, loc, row, c(128)),
        arith::AddIOp::create(
            rw, loc, arith::MulIOp::create(rw, loc, piece, c(16)), colByte));
    return arith::AddIOp::create(
        rw, loc, inChunk,
        c((j / groupsPerChunk) * bm * 128 + w * waveRows * 128));
  };
  // The previous tile's store must have read the staging tile.
  Value leader = epilogueLeader(op, rw);
  auto drained = scf::IfOp::create(rw, loc, leader, false);
  {
    OpBuilder::InsertionGuard g(rw);
    rw.setInsertionPointToStart(drained.thenBlock());
    NVVM::CpAsyncBulkWaitGroupOp::create(rw, loc, rw.getI32IntegerAttr(0),
                                         rw.getUnitAttr());
  }
  epilogueBarrier(op, rw);
  if (op.getStmatrix() && !f32) {
    writeStagingStmatrix(op, swizzled, rw);
    return leader;
  }
  for (int64_t w = 0; w < waves; ++w) {
    ValueRange totals = op.getTotals().slice(w * parts, parts);
    for (int64_t j = 0; j < bn / 8; ++j) {
      for (int64_t h = 0; h < 2; ++h) {
        Value packed = f32 ? f32Pair(rw, loc, totals, groupsPerPart, j, h)
                           : packedPair(rw, loc, totals, groupsPerPart, j, h);
        if (swapGroups) // slot j: group j ^ 2 for the odd rows (above)
          packed = arith::SelectOp::create(
              rw, loc, oddRow,
              f32Pair(rw, loc, totals, groupsPerPart, j ^ 2, h), packed);
        Value addr = LLVM::GEPOp::create(
            rw, loc, staging.getType(), i8, staging,
            ArrayRef<LLVM::GEPArg>{offset(h ? row1 : row0, j, w)});
        LLVM::StoreOp::create(rw, loc, packed, addr, /*alignment=*/e * 2);
      }
    }
  }
  return leader;
}

/// A staged bf16 tile's valid rows to D[group, m0 + row, n0 + column], by
/// the consumer threads: 16-byte pieces, consecutive threads taking
/// consecutive pieces of a row (piece p: row p / (BN/8), columns
/// 8 * (p % (BN/8)) ..), each stored when its row < rows and its first
/// column < ld - n0 (ld and n0 are multiples of 8, so a piece is whole or
/// outside).
void copyOutRows(EpilogueStoreOp op, bool swizzled, PatternRewriter &rw) {
  Location loc = op.getLoc();
  const int64_t bm = op.getBlockM(), bn = op.getBlockN(), ld = op.getLd();
  const int64_t threads = 128 * op.getConsumers();
  Value staging = op.getStaging();
  auto c = [&](int64_t v) { return i32c(rw, loc, v); };
  Type i8 = rw.getI8Type(), i64 = rw.getI64Type();
  auto v4i32 = VectorType::get({4}, rw.getI32Type());
  const int64_t perRow = bn / 8, pieces = bm * perRow;
  // The thread index and the group through an asm statement with side
  // effects, so that no address is computed before the copy: LLVM hoisted
  // all 2 x 12 piece addresses (48 registers) above the main loop, and
  // ptxas spilled at 128x192 (92-152 bytes).
  Value tid = opaqueI32(rw, loc, op.getTid());
  Value group = opaqueI32(rw, loc, op.getGroup());
  Value cols = arith::SubIOp::create(rw, loc, c(ld), op.getN0());
  // Element (0, 0) of the tile: (group * m_max + m0) * ld + n0, in i64.
  auto wide = [&](Value v) -> Value {
    return arith::ExtUIOp::create(rw, loc, i64, v);
  };
  Value tileRow = arith::AddIOp::create(
      rw, loc,
      arith::MulIOp::create(rw, loc, wide(group), wide(op.getMMax())),
      wide(op.getM0()));
  Value tileElement = arith::AddIOp::create(
      rw, loc,
      arith::MulIOp::create(rw, loc, tileRow,
                            arith::ConstantIntOp::create(rw, loc, i64, ld)),
      wide(op.getN0()));
  Value tileBytes = arith::MulIOp::create(
      rw, loc, tileElement, arith::ConstantIntOp::create(rw, loc, i64, 2));
  Value d = LLVM::GEPOp::create(rw, loc, op.getD().getType(), i8, op.getD(),
                                ArrayRef<LLVM::GEPArg>{tileBytes});
  for (int64_t i = 0; i * threads < pieces; ++i) {
    Value p = arith::AddIOp::create(rw, loc, tid, c(i * threads));
    Value row = arith::DivUIOp::create(rw, loc, p, c(perRow));
    Value piece = arith::RemUIOp::create(rw, loc, p, c(perRow));
    Value col = arith::MulIOp::create(rw, loc, piece, c(8));
    Value ok = arith::AndIOp::create(
        rw, loc,
        arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::slt, row,
                              op.getRows()),
        arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::slt, col, cols));
    if ((i + 1) * threads > pieces)
      ok = arith::AndIOp::create(
          rw, loc, ok,
          arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::ult, p,
                                c(pieces)));
    auto guard = scf::IfOp::create(rw, loc, ok, false);
    OpBuilder::InsertionGuard g(rw);
    rw.setInsertionPointToStart(guard.thenBlock());
    // The piece in the staging tile (writeStaging's layout).
    Value from;
    if (swizzled) {
      Value chunk = arith::DivUIOp::create(rw, loc, piece, c(8));
      Value swz = arith::XOrIOp::create(
          rw, loc, arith::RemUIOp::create(rw, loc, piece, c(8)),
          arith::RemUIOp::create(rw, loc, row, c(8)));
      from = arith::AddIOp::create(
          rw, loc, arith::MulIOp::create(rw, loc, chunk, c(bm * 128)),
          arith::AddIOp::create(
              rw, loc, arith::MulIOp::create(rw, loc, row, c(128)),
              arith::MulIOp::create(rw, loc, swz, c(16))));
    } else {
      from = arith::MulIOp::create(
          rw, loc,
          arith::AddIOp::create(
              rw, loc, arith::MulIOp::create(rw, loc, row, c(bn)), col),
          c(2));
    }
    Value src = LLVM::GEPOp::create(rw, loc, staging.getType(), i8, staging,
                                    ArrayRef<LLVM::GEPArg>{from});
    Value v = LLVM::LoadOp::create(rw, loc, v4i32, src, /*alignment=*/16);
    // Byte offset in D in i64: row * ld * 2 can pass 2^31.
    Value to = arith::MulIOp::create(
        rw, loc,
        arith::AddIOp::create(
            rw, loc,
            arith::MulIOp::create(
                rw, loc, arith::ExtUIOp::create(rw, loc, i64, row),
                arith::ConstantIntOp::create(rw, loc, i64, ld)),
            arith::ExtUIOp::create(rw, loc, i64, col)),
        arith::ConstantIntOp::create(rw, loc, i64, 2));
    Value dst = LLVM::GEPOp::create(rw, loc, d.getType(), i8, d,
                                    ArrayRef<LLVM::GEPArg>{to});
    LLVM::StoreOp::create(rw, loc, v, dst, /*alignment=*/16);
  }
}

struct EpilogueStoreLowering : OpRewritePattern<EpilogueStoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(EpilogueStoreOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rw.getContext();
    int64_t bn = op.getBlockN();
    Type i8 = rw.getI8Type();
    auto c = [&](int64_t v) { return i32c(rw, loc, v); };
    const bool swizzled = op.getSwizzle() == 128;
    const bool f32 = op.getF32();
    const int64_t bm = op.getBlockM(), e = f32 ? 4 : 2;
    const int64_t chunkCols = 128 / e;
    Value leader = writeStaging(op, swizzled, f32, rw);
    // Make the shared stores visible to the TMA engine, then one thread
    // stores the tile; it drains while the next tile's main loop runs.
    NVVM::FenceProxyOp::create(
        rw, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    epilogueBarrier(op, rw);
    auto tmaStore = [&] {
      auto store = scf::IfOp::create(rw, loc, leader, false);
      OpBuilder::InsertionGuard g(rw);
      rw.setInsertionPointToStart(store.thenBlock());
      // Per warpgroup: warpgroup w's 64 rows of each row wave v, 64w +
      // v * waveRows rows into each chunk (or into the row-major tile), at
      // m0 + 64w + v * waveRows: one box of 64 rows per wave and chunk.
      const TileTotals tt(op);
      const bool own = op.getPerWarpgroup();
      const int64_t rowBytes = swizzled ? 128 : bn * e;
      Value staging = op.getStaging(), m0 = op.getM0();
      if (own) {
        Value wg = warpgroupOf(op, rw);
        staging = LLVM::GEPOp::create(
            rw, loc, staging.getType(), i8, staging,
            ArrayRef<LLVM::GEPArg>{
                arith::MulIOp::create(rw, loc, wg, c(64 * rowBytes))
                    .getResult()});
        m0 = arith::AddIOp::create(
            rw, loc, m0, arith::MulIOp::create(rw, loc, wg, c(64)));
      }
      // One box of the whole tile (of each wave, per warpgroup), or one per
      // 128-byte column chunk.
      int64_t boxes = swizzled ? bn / chunkCols : 1;
      for (int64_t v = 0; v < (own ? tt.waves : 1); ++v) {
        for (int64_t q = 0; q < boxes; ++q) {
          int64_t offset = q * bm * 128 + v * tt.waveRows * rowBytes;
          Value src = offset == 0
                          ? staging
                          : LLVM::GEPOp::create(rw, loc, staging.getType(), i8,
                                                staging,
                                                ArrayRef<LLVM::GEPArg>{c(offset)})
                                .getResult();
          Value n0 = q == 0 ? op.getN0()
                            : arith::AddIOp::create(rw, loc, op.getN0(),
                                                    c(chunkCols * q))
                                  .getResult();
          Value row0 = v == 0 ? m0
                              : arith::AddIOp::create(rw, loc, m0,
                                                      c(v * tt.waveRows))
                                    .getResult();
          SmallVector<Value, 3> coords = {n0, row0};
          if (op.getGroup())
            coords.push_back(op.getGroup());
          if (op.getReduceAdd())
            NVVM::CpAsyncBulkTensorReduceOp::create(
                rw, loc, op.getDMap(), src,
                NVVM::TMAReduxKindAttr::get(ctx, NVVM::TMAReduxKind::ADD),
                NVVM::TMAStoreModeAttr::get(ctx, NVVM::TMAStoreMode::TILE),
                coords, Value());
          else
            NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
                rw, loc, op.getDMap(), src, coords, op.getDPolicy(),
                NVVM::TMAStoreModeAttr::get(ctx, NVVM::TMAStoreMode::TILE),
                Value());
        }
      }
      NVVM::CpAsyncBulkCommitGroupOp::create(rw, loc);
    };
    if (!op.getRows()) {
      tmaStore();
    } else {
      // A tile with fewer valid rows than block M: copied out by the threads.
      Value whole = arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::sge,
                                          op.getRows(), c(bm));
      auto which = scf::IfOp::create(rw, loc, whole, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard g(rw);
      rw.setInsertionPointToStart(which.thenBlock());
      tmaStore();
      rw.setInsertionPointToStart(which.elseBlock());
      copyOutRows(op, swizzled, rw);
    }
    rw.eraseOp(op);
    return success();
  }
};

struct EpilogueStoreRowsLowering : OpRewritePattern<EpilogueStoreRowsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(EpilogueStoreRowsOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    int64_t bn = op.getBlockN(), ld = op.getLd();
    const TileTotals tt(op);
    const int64_t waveRows = tt.waveRows, waves = tt.waves, parts = tt.parts,
                  groupsPerPart = tt.groupsPerPart;
    Type i8 = rw.getI8Type(), i64 = rw.getI64Type();
    auto c = [&](int64_t v) { return i32c(rw, loc, v); };
    auto ult = [&](Value x, Value y) {
      return arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::ult, x, y);
    };
    Value tid = op.getTid();
    Value warp = arith::DivUIOp::create(rw, loc, tid, c(32));
    Value lane = arith::RemUIOp::create(rw, loc, tid, c(32));
    Value row0 = arith::AddIOp::create(
        rw, loc, arith::MulIOp::create(rw, loc, warp, c(16)),
        arith::DivUIOp::create(rw, loc, lane, c(4)));
    Value row1 = arith::AddIOp::create(rw, loc, row0, c(8));
    Value col = arith::MulIOp::create(
        rw, loc, arith::RemUIOp::create(rw, loc, lane, c(4)), c(2));
    // Byte offset of (row, col) in i64: row * ld * 2 can pass 2^31.
    auto rowBase = [&](Value row) -> Value {
      Value r = arith::ExtUIOp::create(rw, loc, i64, row);
      Value cc = arith::ExtUIOp::create(rw, loc, i64, col);
      Value e = arith::AddIOp::create(
          rw, loc,
          arith::MulIOp::create(
              rw, loc, r, arith::ConstantIntOp::create(rw, loc, i64, ld)),
          cc);
      return arith::MulIOp::create(
          rw, loc, e, arith::ConstantIntOp::create(rw, loc, i64, 2));
    };
    for (int64_t w = 0; w < waves; ++w) {
      ValueRange totals = op.getTotals().slice(w * parts, parts);
      Value rows[2] = {row0, row1};
      if (w > 0)
        for (Value &r : rows)
          r = arith::AddIOp::create(rw, loc, r, c(w * waveRows));
      Value rowOk[2] = {ult(rows[0], op.getRows()), ult(rows[1], op.getRows())};
      Value base[2] = {rowBase(rows[0]), rowBase(rows[1])};
      for (int64_t j = 0; j < bn / 8; ++j) {
        Value colOk = ult(arith::AddIOp::create(rw, loc, col, c(8 * j)),
                          op.getCols());
        for (int64_t h = 0; h < 2; ++h) {
          Value ok = arith::AndIOp::create(rw, loc, rowOk[h], colOk);
          auto guard = scf::IfOp::create(rw, loc, ok, false);
          OpBuilder::InsertionGuard g(rw);
          rw.setInsertionPointToStart(guard.thenBlock());
          Value packed = packedPair(rw, loc, totals, groupsPerPart, j, h);
          Value offset = arith::AddIOp::create(
              rw, loc, base[h],
              arith::ConstantIntOp::create(rw, loc, i64, 16 * j));
          Value addr =
              LLVM::GEPOp::create(rw, loc, op.getD().getType(), i8, op.getD(),
                                  ArrayRef<LLVM::GEPArg>{offset});
          LLVM::StoreOp::create(rw, loc, packed, addr, /*alignment=*/4);
        }
      }
    }
    rw.eraseOp(op);
    return success();
  }
};

struct ConvertDGEMMToNVVMPass
    : public mlir::dgemm::impl::ConvertDGEMMToNVVMBase<ConvertDGEMMToNVVMPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ScheduleTileLowering, WgmmaTileLowering, PromoteLowering,
                 PromoteColsLowering, AddBiasLowering, EpilogueStoreLowering,
                 EpilogueStoreRowsLowering>(
        &getContext());
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
    // Every kernel op must be gone.
    WalkResult left = getOperation()->walk([](Operation *op) {
      if (isa<ScheduleTileOp, WgmmaTileOp, PromoteOp, PromoteColsOp,
              AddBiasOp, EpilogueStoreOp, EpilogueStoreRowsOp>(op)) {
        op->emitOpError("was not lowered to NVVM");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
