//===- ConfigSelection.cpp - Kernel config choice for FP8 GEMMs -----------===//
//
// Implements `selectConfig`, the pure function that picks block M/N, the
// pipeline depth, 2-CTA multicast, the consumer warpgroups, the tile-order
// group and the persistent grid size of a block-scaled FP8 GEMM on Hopper,
// and `checkConfig` / `checkProblem`, which explain in one sentence why a
// config or a problem cannot be used. The rules and the cost model are drawn
// below; docs/config-selection.md has the same with the chosen configs of the
// reference shapes.
//
//===----------------------------------------------------------------------===//
//
// Consumer warpgroups and registers
// ---------------------------------
//   blockM  math WGs  rows per WG  m64 waves per WG
//      64       1         64             1
//     128       2         64             1
//     256       2        128             2
//
// A consumer thread holds the fresh wgmma tile and the promoted f32 total of
// each of its m64 waves (the waves run one after the other and share the
// fresh tile): an m64nN f32 fragment is N/2 registers per thread, so
//
//   needed = (1 + rowsPerWG / 64) * blockN / 2 + 40 (addresses, scales, loop)
//   budget = 240 with one consumer  (setmaxnreg pair (24, 240) at 256 threads)
//            232 with two consumers (setmaxnreg pair (40, 232) at 384 threads)
//
//   blockM 64 : blockN + 40  <= 240      ->  blockN <= 200
//   blockM 128: blockN + 40  <= 232      ->  blockN <= 192
//   blockM 256: 3*blockN/2 + 40 <= 232   ->  blockN <= 128
//
// B-scale blocks (128x128 recipe)
// -------------------------------
// Tiles start at n0 = j * blockN; n0 mod 128 takes every multiple of
// g = gcd(blockN, 128) below 128, so the worst tile starts at 128 - g inside
// its scale block and ends at 128 - g + blockN. Spanning at most two blocks:
//
//   128 - g + blockN <= 256   <=>   blockN <= 128 + g
//
//   two: 112 136 144 160 192 (256)      three: 152 168 176 184 200 ...
//
// The kernel handles three (any block N up to 256 spans at most three); the
// selection keeps to two-block tiles until three-block ones are swept.
//
// The 1x128 recipe (wgrad) has a B scale per row and no such limit. f32
// outputs take block N a multiple of 32 (or covering N): the epilogue stages
// them in 128-byte swizzled chunks of 32 columns.
//
// Shared memory
// -------------
//   stage = 128*BM (A) + 128*BN (B) + 4*BM (A scales)
//         + roundUp(4*BN, 128) (B scales, 1x128 recipe only: a TMA destination
//                               is 128-byte aligned)
//         + 16 (full + empty mbarrier)
//   fixed = BM*BN * (2 for bf16, 4 for f32)  (output staging tile)
//         + 1024                             (slack: alignment)
//         + roundUp(8 * K/128, 128)          (the tile's B scales: two rows of
//                                             K/128 floats, 128x128 recipe)
//   stages = min(8, (smemPerBlock - fixed) / stage), chosen configs need >= 3.
// A and B tiles are multiples of 1024 bytes (BM, BN multiples of 8), so every
// swizzle-128 tile stays 1024-aligned.
//
// Block sizes: the cost model
// ---------------------------
// Candidates: blockM in {64, 128, 256} ({64, 128} for the contiguous layout,
// whose groups are aligned to 128 rows; only 64 when m <= 64), blockN every
// multiple of 8 in [min(16, n8), min(256, n8)] with n8 = max(8, roundUp(n, 8)),
// each kept if it fits the registers, the scale blocks and at least 3 stages.
// Block N 8 only when N <= 8: an n8 tile makes every CTA read a whole A block
// for 8 columns, twice the GPU-wide A traffic of n16, which the per-SM model
// below does not see (it would pick 64x8 for M = 64, N = 1024). DeepGEMM's
// smallest block N is 16 as well.
//
//   tiles = ceil(m/BM) * ceil(n/BN)           (contiguous: m is all rows)
//         * groups                            (masked, k-grouped)
//   waves = ceil(tiles / SMs)
//   cost  = waves * (F + R * (row waves - 1) + BM * max(BN, 32 + BN/2)
//                    ^ fixed                    ^ tensor-core time
//                    + 64 * (BM + BN))
//                      ^ operand loads
//
// R = 16384 is the extra fixed cost of a consumer's second m64 row wave at
// block M 256 (its own wgmma wait and promotion): the H200 sweep measured a
// 256x128 tile at about 1.42 times a 128x192 one for 1.33 times the work.
//
// F = 24576 is a tile's fixed cost per K element whatever its size: the
// consumer's per-K-block barrier waits, scale reads, wgmma issue and drain.
// It was calibrated on the H200 config sweep (bench/sweep/, checked by
// scripts/check_sweep.py): without it the model preferred 128x160 at
// 4096x7168x16384 (1116 TFLOPS measured) over 128x192 (1242), and 128x128 at
// 4096x4096x7168 (1043) over 128x192 (1156); with it 15 of the 18 normal
// shapes got a config within 5% of the best swept one (13 before), and 18 of
// 18 in the sweep of the kernel of commit 406b9ac (the data committed in
// bench/sweep/). Block M 256 was swept later (bench/sweep/*-bm256.jsonl),
// which set R.
//
// The unit is 1/4096 of a clock per K element (an SM does ~4096 FP8 MACs per
// clock and pulls ~64 bytes per clock from L2). The waves factor makes the
// busiest SM what counts. max(BN, 32 + BN/2) is the wgmma floor: an
// m64nNk32 reads its 64x32 A tile (2 KiB) from shared memory at ~128 B/clk,
// 16 + N/4 clocks, which beats the N/2 clocks of math below N = 64 (an
// estimate; it changes none of the reference shapes' choices, but keeps
// narrow tiles from looking cheaper than they run). Lowest cost wins; ties
// go to the larger tile (BM*BN), then the larger BM, then the smaller BN.
//
//   M=256, N=7168: 128x112 -> 2*64 = 128 tiles, 1 wave, cost 29696
//                  128x128 -> 2*56 = 112 tiles, 1 wave, cost 32768
//
// Multicast, grid and tile order
// ------------------------------
// 2-CTA clusters only when m >= 512 (masked: expected rows per group) and the
// options' multicastMinRows and multicastMinK allow (the runtime's: M >= 8192,
// K >= 2048), the target SM count is even, the tiles take more than one
// wave, the kind is not k-grouped and the
// GEMM is not a weight-gradient form (1x128 B scales, f32 output; their
// lowering takes no clusters): multicast A (the two CTAs are neighbours
// along N) needs an even count of N blocks; multicast B (neighbours along M)
// block N a multiple of 16 (each CTA loads half of B's tile) and, for the
// normal GEMM, an even count of M blocks (the contiguous layout: any, its
// kernel checks each pair's groups on the device). Where both can pair,
// the larger tile is shared: B when block N > block M, else A.
// numSMs = ceil(tiles / waves) rounded up to the cluster size: the fewest CTAs
// that keep the waves. swizzleGroup = 1 for a single wave, else
// min(16, N blocks), kept even with multicast A.
//
// Second tile shape (masked, G >= 2, 256-row tiles on single CTAs)
// ----------------------------------------------------------------
// altBlockM/N/Stages: the best config with block M <= 128 and no multicast,
// on all SMs (altNumSMs). The kernel holds both and prices each on the
// device from masked_m as ceil(tiles / CTAs) * tileRoundCost, so groups with
// more rows than expected (each a second, nearly empty 256-row block) can
// run as 128-row tiles (docs/config-selection.md, "Two tile shapes").
//
//===----------------------------------------------------------------------===//

#include "dgemm/Config/ConfigSelection.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>

using namespace dgemm;

namespace {

constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();
constexpr int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();

/// Registers a consumer thread keeps for addresses, scales and loop state.
constexpr int64_t kRegisterReserve = 40;
/// Bytes of the stage's full and empty mbarriers.
constexpr int64_t kBarrierBytes = 16;
/// Shared memory kept outside the stages and the output tile.
constexpr int64_t kSmemSlack = 1024;
constexpr int64_t kMaxStages = 8;
constexpr int64_t kMinChosenStages = 3;
constexpr int64_t kMaxSwizzleGroup = 16;
constexpr int64_t kMulticastMinRows = 512;

/// ceil(a / b) for a >= 0, b > 0, without forming a + b - 1.
int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }
int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// a * b and a + b for non-negative operands, saturating instead of
/// overflowing, so that absurd sizes cannot wrap the arithmetic around.
int64_t mulSat(int64_t a, int64_t b) {
  if (a != 0 && b > kMaxInt64 / a)
    return kMaxInt64;
  return a * b;
}
int64_t addSat(int64_t a, int64_t b) {
  return a > kMaxInt64 - b ? kMaxInt64 : a + b;
}

std::string str(int64_t v) { return std::to_string(v); }

/// Consumer warpgroups for a block M: 64 -> 1, 128 -> 2 (64 rows each),
/// 256 -> 2 (128 rows each); 0 for any other block M.
int64_t mathWarpgroupsFor(int64_t blockM) {
  switch (blockM) {
  case 64:
    return 1;
  case 128:
  case 256:
    return 2;
  default:
    return 0;
  }
}

/// Block M 256 (two m64 row waves per consumer) is lowered for the normal
/// GEMM and the masked layout with a bf16 output and 128x128 B scales.
bool blockMAllowed(int64_t blockM, const ProblemDesc &p) {
  if (blockM == 64 || blockM == 128)
    return true;
  return blockM == 256 &&
         (p.kind == GemmKind::Normal || p.kind == GemmKind::GroupedMasked) &&
         p.out == OutType::BF16 &&
         p.bScale == BScaleGranularity::Block128x128;
}

const char *kindName(GemmKind kind) {
  switch (kind) {
  case GemmKind::Normal:
    return "normal";
  case GemmKind::GroupedContiguous:
    return "grouped contiguous";
  case GemmKind::GroupedMasked:
    return "grouped masked";
  case GemmKind::KGrouped:
    return "k-grouped";
  }
  return "unknown";
}

/// Output tiles of the whole launch.
int64_t numTiles(int64_t blockM, int64_t blockN, const ProblemDesc &p) {
  int64_t perGroup = mulSat(ceilDiv(p.m, blockM), ceilDiv(p.n, blockN));
  if (p.kind == GemmKind::GroupedMasked || p.kind == GemmKind::KGrouped)
    return mulSat(perGroup, p.groups);
  return perGroup;
}

/// Tensor-core time of one tile per K element (1/4096 clock): the m64nNk32
/// wgmma is bound by its A read from shared memory below N = 64.
int64_t tileComputeCost(int64_t blockM, int64_t blockN) {
  return blockM * std::max(blockN, 32 + blockN / 2);
}

/// Operand loads of one tile per K element (1/4096 clock at 64 B/clk).
/// A tile's fixed cost per K element, whatever its size (see the model).
constexpr int64_t kTileFixedCost = 24576;

/// The extra fixed cost per K element of each further m64 row wave of a
/// consumer (block M 256): the wave's own wgmma wait and promotion, which
/// the tensor cores do not overlap (see the model).
constexpr int64_t kRowWaveCost = 16384;

/// m64 row waves per consumer warpgroup.
int64_t rowWaves(int64_t blockM) {
  return std::max<int64_t>(blockM / (64 * mathWarpgroupsFor(blockM)), 1);
}

/// Largest K at which bf16 kernels take only block N multiples of 64, whose
/// epilogue stages swizzled chunks (KernelLayout::dSwizzle; other widths
/// stage row-major, with bank conflicts). With more K blocks a tile's
/// epilogue weighs less and other widths stay candidates.
constexpr int64_t kSwizzledEpilogueMaxK = 4096;

/// Whether the lowering runs the tile's K blocks in pairs (one row wave,
/// takesKBlockPairs), counted by the cost model for the weight-gradient GEMMs
/// (1x128 B scales, normal and k-grouped kinds): there a pair
/// hides one block's promotion (a multiply and an FMA per register) behind
/// the other's wgmmas, and the tile's fixed cost is taken as half of F.
/// Calibrated on the H200: 128x128 in pairs ran at about 0.65 of the time of
/// a 128x192 tile one block at a time (2/3 of the work), and 12-24% faster
/// than 128x128 one block at a time
/// (bench/results/2026-12-02-c900c1d+kunroll-ab-wgrad-kunroll.log).
bool pairedWeightGradientTile(int64_t blockM, int64_t blockN,
                              int64_t warpgroups, const ProblemDesc &p) {
  return (p.kind == GemmKind::Normal || p.kind == GemmKind::KGrouped) &&
         p.bScale == BScaleGranularity::Row1x128 &&
         blockM / warpgroups <= 64 &&
         takesKBlockPairs(blockN, consumerRegisterBudget(warpgroups));
}

int64_t tileLoadCost(int64_t blockM, int64_t blockN) {
  return 64 * (blockM + blockN);
}

/// Stages that fit next to the fixed part, 0 when not even one does.
int64_t maxStages(int64_t blockM, int64_t blockN, const ProblemDesc &p,
                  const TargetDesc &t) {
  int64_t left = t.smemPerBlock - fixedSmemBytes(blockM, blockN, p);
  if (left <= 0)
    return 0;
  return left / stageBytes(blockM, blockN, p);
}

struct Candidate {
  int64_t blockM = 0;
  int64_t blockN = 0;
  int64_t stages = 0;
  int64_t tiles = 0;
  int64_t waves = 0;
  int64_t cost = 0;
};

/// True when `a` is preferred over `b`: lower cost, then the larger tile,
/// then the larger block M, then the smaller block N.
bool better(const Candidate &a, const Candidate &b) {
  if (a.cost != b.cost)
    return a.cost < b.cost;
  if (a.blockM * a.blockN != b.blockM * b.blockN)
    return a.blockM * a.blockN > b.blockM * b.blockN;
  if (a.blockM != b.blockM)
    return a.blockM > b.blockM;
  return a.blockN < b.blockN;
}

} // namespace

bool KernelConfig::operator==(const KernelConfig &o) const {
  return blockM == o.blockM && blockN == o.blockN && stages == o.stages &&
         clusterSize == o.clusterSize && multicast == o.multicast &&
         mathWarpgroups == o.mathWarpgroups && swizzleGroup == o.swizzleGroup &&
         numSMs == o.numSMs && streamB == o.streamB &&
         altBlockM == o.altBlockM && altBlockN == o.altBlockN &&
         altStages == o.altStages && altNumSMs == o.altNumSMs &&
         aBoxRows == o.aBoxRows;
}

KernelConfig KernelConfig::alt() const {
  KernelConfig a = *this;
  a.blockM = altBlockM;
  a.blockN = altBlockN;
  a.stages = altStages;
  a.numSMs = altNumSMs;
  a.clusterSize = 1;
  a.multicast = Multicast::None;
  // streamB is the first shape's: a group's M blocks are neighbours in the
  // masked walk, so the tiles that share a B tile run at about the same
  // time whatever the second shape's block M. On the H200 the drawn 4 x 256
  // rows at K = 2048 (the 128x192 shape runs) took 3-4% less time with it,
  // the other masked cases within the spread
  // (bench/results/2026-12-04-203ae91-ab-alt-stream-b*.log).
  a.altBlockM = a.altBlockN = a.altStages = a.altNumSMs = 0;
  a.aBoxRows = 0;
  return a;
}

const char *dgemm::toString(Multicast m) {
  switch (m) {
  case Multicast::None:
    return "none";
  case Multicast::A:
    return "a";
  case Multicast::B:
    return "b";
  }
  return "unknown";
}

int64_t dgemm::consumerRegisterBudget(int64_t mathWarpgroups) {
  switch (mathWarpgroups) {
  case 1:
    return 240; // (24, 240) at 256 threads.
  case 2:
    return 232; // (40, 232) at 384 threads: 40 + 2*232 <= 3*168.
  case 3:
    return 160; // (24, 160) at 512 threads: 24 + 3*160 <= 4*128.
  default:
    return 0;
  }
}

int64_t dgemm::consumerRegistersNeeded(int64_t blockM, int64_t blockN,
                                       int64_t mathWarpgroups,
                                       BScaleGranularity bScale) {
  int64_t rowsPerWarpgroup = blockM / std::max<int64_t>(mathWarpgroups, 1);
  int64_t wavesPerWarpgroup =
      ceilDiv(std::max<int64_t>(rowsPerWarpgroup, 1), 64);
  // 1x128 recipe: the thread's columns' B scales of the K block (two per
  // 8-column group) held while it promotes, when the stage is released
  // before the promotion (the kernel releases it after the promotion
  // instead when these do not fit: KernelLayout::lateRelease; the config
  // checks count the fresh tile and the total only, see checkConfig).
  int64_t columnScales =
      bScale == BScaleGranularity::Row1x128 ? blockN / 4 : 0;
  return (1 + wavesPerWarpgroup) * blockN / 2 + columnScales +
         kRegisterReserve;
}

bool dgemm::takesKBlockPairs(int64_t blockN, int64_t consumerRegs) {
  return 3 * blockN / 2 + kRegisterReserve <= consumerRegs;
}

int64_t dgemm::bScaleBlocksSpanned(int64_t blockN) {
  return spansAtMostTwoScaleBlocks(blockN) ? 2 : 3;
}

bool dgemm::spansAtMostTwoScaleBlocks(int64_t blockN) {
  if (blockN <= 0)
    return false;
  return blockN <= 128 + std::gcd(blockN, int64_t(128));
}

int64_t dgemm::stageBytes(int64_t blockM, int64_t blockN,
                          const ProblemDesc &p) {
  int64_t bytes = 128 * blockM + 128 * blockN + 4 * blockM + kBarrierBytes;
  if (p.bScale == BScaleGranularity::Row1x128)
    bytes += roundUp(4 * blockN, 128);
  return bytes;
}

int64_t dgemm::fixedSmemBytes(int64_t blockM, int64_t blockN,
                              const ProblemDesc &p) {
  int64_t elementBytes = p.out == OutType::BF16 ? 2 : 4;
  int64_t bScaleBuffer =
      p.bScale == BScaleGranularity::Block128x128
          ? roundUp(4 * bScaleBlocksSpanned(blockN) *
                        std::max<int64_t>(p.k / 128, 1),
                    128)
          : 0;
  // The masked kernel keeps a copy of masked_m, the contiguous one given by
  // offsets a copy of them (one i32 per group).
  int64_t groupCounts =
      p.kind == GemmKind::GroupedMasked || p.groupOffsets
          ? 4 * std::max<int64_t>(p.groups, 1)
          : 0;
  return elementBytes * blockM * blockN + kSmemSlack + bScaleBuffer +
         groupCounts;
}

int64_t dgemm::tileRoundCost(int64_t blockM, int64_t blockN,
                             const ProblemDesc &p) {
  int64_t warpgroups = std::max<int64_t>(mathWarpgroupsFor(blockM), 1);
  int64_t fixedCost = pairedWeightGradientTile(blockM, blockN, warpgroups, p)
                          ? kTileFixedCost / 2
                          : kTileFixedCost;
  return fixedCost + kRowWaveCost * (rowWaves(blockM) - 1) +
         tileComputeCost(blockM, blockN) + tileLoadCost(blockM, blockN);
}

int64_t dgemm::countTiles(const KernelConfig &c, const ProblemDesc &p) {
  if (c.blockM < 1 || c.blockN < 1)
    return 0;
  return numTiles(c.blockM, c.blockN, p);
}

int64_t dgemm::smemBytes(const KernelConfig &c, const ProblemDesc &p) {
  int64_t bytes = addSat(mulSat(c.stages, stageBytes(c.blockM, c.blockN, p)),
                         fixedSmemBytes(c.blockM, c.blockN, p));
  // Two tile shapes share the dynamic shared memory: one runs.
  if (c.hasAlt())
    bytes = std::max(bytes, smemBytes(c.alt(), p));
  return bytes;
}

std::string dgemm::checkProblem(const ProblemDesc &p) {
  if (p.m < 1 || p.m > kMaxInt32)
    return "M must be in [1, " + str(kMaxInt32) + "], got " + str(p.m);
  int64_t nAlign = p.out == OutType::BF16 ? 8 : 4;
  const char *outName = p.out == OutType::BF16 ? "BF16" : "F32";
  if (p.n < nAlign || p.n % nAlign != 0)
    return "N must be a positive multiple of " + str(nAlign) + " for a " +
           outName + " output (16-byte rows), got " + str(p.n);
  if (p.n > kMaxInt32)
    return "N must be at most " + str(kMaxInt32) + ", got " + str(p.n);
  if (p.k < 128 || p.k % 128 != 0)
    return "K must be a positive multiple of 128, got " + str(p.k);
  if (p.k > kMaxInt32)
    return "K must be at most " + str(kMaxInt32) + ", got " + str(p.k);
  if (p.groups < 1 || p.groups > kMaxInt32)
    return "groups must be in [1, " + str(kMaxInt32) + "], got " +
           str(p.groups);
  if (p.kind == GemmKind::Normal && p.groups != 1)
    return "the normal GEMM has groups = 1, got " + str(p.groups);
  return "";
}

std::string dgemm::checkConfig(const KernelConfig &c, const ProblemDesc &p,
                               const TargetDesc &t) {
  std::string problem = checkProblem(p);
  if (!problem.empty())
    return problem;

  if (!blockMAllowed(c.blockM, p)) {
    if (c.blockM == 256 && p.kind == GemmKind::GroupedContiguous)
      return std::string("block_m = 256 is not allowed for the ") +
             kindName(p.kind) + " layout (groups are aligned to 128 rows)";
    if (c.blockM == 256) {
      std::string with;
      if (p.out == OutType::F32)
        with = " with an f32 output";
      if (p.bScale == BScaleGranularity::Row1x128)
        with += with.empty() ? " with 1x128 B scales" : " and 1x128 B scales";
      return std::string("block_m = 256 is only supported for the normal "
                         "GEMM and the masked layout with a bf16 output and "
                         "128x128 B scales, not the ") +
             kindName(p.kind) + " layout" + with;
    }
    return "block_m = " + str(c.blockM) + " is not one of 64, 128, 256";
  }
  if (c.blockN < 8 || c.blockN > 256 || c.blockN % 8 != 0)
    return "block_n = " + str(c.blockN) +
           " is not a multiple of 8 in [8, 256] (wgmma N)";

  int64_t wantWarpgroups = mathWarpgroupsFor(c.blockM);
  if (c.mathWarpgroups != wantWarpgroups)
    return "block_m = " + str(c.blockM) +
           " needs math_warpgroups = " + str(wantWarpgroups) + ", got " +
           str(c.mathWarpgroups);

  int64_t needed =
      consumerRegistersNeeded(c.blockM, c.blockN, c.mathWarpgroups);
  int64_t budget = consumerRegisterBudget(c.mathWarpgroups);
  if (needed > budget)
    return "block_m = " + str(c.blockM) + ", block_n = " + str(c.blockN) +
           " needs " + str(needed) +
           " registers per consumer thread, over the budget of " + str(budget);

  if (c.stages < 1)
    return "stages = " + str(c.stages) + " must be at least 1";
  int64_t stage = stageBytes(c.blockM, c.blockN, p);
  int64_t fixed = fixedSmemBytes(c.blockM, c.blockN, p);
  if (c.stages > maxStages(c.blockM, c.blockN, p, t))
    return "stages = " + str(c.stages) + " of " + str(stage) +
           " bytes each plus " + str(fixed) + " fixed bytes need " +
           str(addSat(mulSat(c.stages, stage), fixed)) +
           " bytes of shared memory, over the " + str(t.smemPerBlock) +
           " a block may use";

  if (c.clusterSize != 1 && c.clusterSize != 2)
    return "cluster_size = " + str(c.clusterSize) + " is not 1 or 2";
  if ((c.clusterSize == 1) != (c.multicast == Multicast::None))
    return "cluster_size = " + str(c.clusterSize) +
           " does not go with multicast = " + toString(c.multicast) +
           " (a 2-CTA cluster multicasts a or b, a single CTA none)";
  if (c.multicast != Multicast::None && p.kind == GemmKind::KGrouped)
    return "multicast is not supported for the k-grouped GEMM";
  if (c.multicast == Multicast::B && p.kind != GemmKind::Normal &&
      p.kind != GemmKind::GroupedContiguous)
    return std::string("multicast = b is only supported for the normal GEMM "
                       "and the grouped contiguous layout, not the ") +
           kindName(p.kind) + " layout";
  if (c.multicast == Multicast::A && ceilDiv(p.n, c.blockN) % 2 != 0)
    return "multicast = a pairs N blocks, but N = " + str(p.n) + " has " +
           str(ceilDiv(p.n, c.blockN)) +
           " blocks of block_n = " + str(c.blockN) + " (an odd number)";
  if (c.multicast == Multicast::B && c.blockN % 16 != 0)
    return "multicast = b splits B's tile between the pair, which needs "
           "block_n a multiple of 16 (each half whole 8-row swizzle atoms), "
           "got " + str(c.blockN);
  // No rule on the number of M blocks: M is known at run time only, and with
  // an odd count the B-multicasting kernel pairs the last M block with one
  // past M (its CTA loads its half of B and stores nothing).

  if (c.numSMs < 1 || c.numSMs > t.numSMs)
    return "num_sms = " + str(c.numSMs) + " is not in [1, " + str(t.numSMs) +
           "]";
  if (c.numSMs % c.clusterSize != 0)
    return "num_sms = " + str(c.numSMs) +
           " is not a multiple of cluster_size = " + str(c.clusterSize);
  if (c.swizzleGroup < 1)
    return "swizzle_group = " + str(c.swizzleGroup) + " must be at least 1";
  if (c.aBoxRows != 0) {
    if (p.kind != GemmKind::Normal)
      return std::string("a_box_rows is only supported for the normal GEMM, "
                         "not the ") +
             kindName(p.kind) + " layout";
    if (c.clusterSize != 1)
      return "a_box_rows needs cluster_size = 1 (no multicast), got " +
             str(c.clusterSize);
    if (c.aBoxRows < 8 || c.aBoxRows % 8 != 0 || c.aBoxRows >= c.blockM)
      return "a_box_rows = " + str(c.aBoxRows) +
             " is not a multiple of 8 in [8, block_m = " + str(c.blockM) + ")";
    if (p.m > c.aBoxRows)
      return "a_box_rows = " + str(c.aBoxRows) +
             " serves M <= " + str(c.aBoxRows) + " only, got M = " + str(p.m);
  }
  if (c.altBlockM != 0 || c.altBlockN != 0 || c.altStages != 0 ||
      c.altNumSMs != 0) {
    if (p.kind != GemmKind::GroupedMasked)
      return std::string("a second tile shape (alt_block_m) is only "
                         "supported for the masked layout, not the ") +
             kindName(p.kind) + (p.kind == GemmKind::Normal ? " GEMM" : " layout");
    if (c.clusterSize != 1)
      return "a second tile shape (alt_block_m) needs cluster_size = 1, got " +
             str(c.clusterSize);
    if (c.altBlockM >= c.blockM ||
        mathWarpgroupsFor(c.altBlockM) != c.mathWarpgroups)
      return "alt_block_m = " + str(c.altBlockM) +
             " must be below block_m = " + str(c.blockM) +
             " with the same math warpgroups (" + str(c.mathWarpgroups) + ")";
    std::string why = checkConfig(c.alt(), p, t);
    if (!why.empty())
      return "the second tile shape (alt_block_m = " + str(c.altBlockM) +
             ", alt_block_n = " + str(c.altBlockN) +
             ", alt_stages = " + str(c.altStages) +
             ", alt_num_sms = " + str(c.altNumSMs) + "): " + why;
  }
  return "";
}

KernelConfig dgemm::selectConfig(const ProblemDesc &p, const TargetDesc &t,
                                 const SelectOptions &o) {
  // Outside the precondition: the default config, which checkConfig rejects.
  if (!checkProblem(p).empty())
    return KernelConfig();
  int64_t targetSMs = std::max<int64_t>(t.numSMs, 1);

  // Block sizes: the cheapest candidate by the cost model drawn above.
  Candidate best;
  bool found = false;
  int64_t nRounded = std::max<int64_t>(8, roundUp(p.n, 8));
  int64_t minBlockN = std::min<int64_t>(16, nRounded);
  int64_t maxBlockN = std::min<int64_t>(256, nRounded);
  for (int64_t blockM : {64, 128, 256}) {
    if (!blockMAllowed(blockM, p) || (p.m <= 64 && blockM != 64) ||
        blockM > o.maxBlockM)
      continue;
    int64_t warpgroups = mathWarpgroupsFor(blockM);
    for (int64_t blockN = minBlockN; blockN <= maxBlockN; blockN += 8) {
      // The 1x128 recipe's column scales need not fit: the kernel then
      // releases a stage after the promotion (KernelLayout::lateRelease);
      // 128x192 that way ran 3% faster (geomean of the 12 weight-gradient
      // shapes, 0.97x-1.11x) than 128x128 with early release
      // (bench/results/2026-12-01-9a157d8-ab-wgrad-all.jsonl).
      if (consumerRegistersNeeded(blockM, blockN, warpgroups) >
          consumerRegisterBudget(warpgroups))
        continue;
      if (p.bScale == BScaleGranularity::Block128x128 &&
          !spansAtMostTwoScaleBlocks(blockN))
        continue;
      // f32 outputs: block N a multiple of 32 (unless it covers N), so the
      // epilogue can stage 128-byte swizzled chunks; row-major f32 staging
      // has 8-way bank conflicts.
      if (p.out == OutType::F32 && blockN % 32 != 0 && blockN < nRounded)
        continue;
      // bf16 outputs with K <= 4096: block N a multiple of 64 (unless it
      // covers N), whose epilogue stages swizzled 64-column chunks; the
      // row-major staging of other widths has bank conflicts that cost
      // most when a tile has few K blocks (the grouped sweep: masked
      // 7168x2048 with 2 and 4 groups ran 128x160 at 702 and 705 TFLOPS,
      // 128x192 at 819 and 776, bench/sweep/2026-12-01-f60ef27-grouped).
      if (p.out == OutType::BF16 && p.k <= kSwizzledEpilogueMaxK &&
          blockN % 64 != 0 && blockN < nRounded)
        continue;
      Candidate c;
      c.blockM = blockM;
      c.blockN = blockN;
      c.stages = std::min(kMaxStages, maxStages(blockM, blockN, p, t));
      if (c.stages < kMinChosenStages)
        continue;
      c.tiles = numTiles(blockM, blockN, p);
      c.waves = ceilDiv(c.tiles, targetSMs);
      c.cost = mulSat(c.waves, tileRoundCost(blockM, blockN, p));
      if (!found || better(c, best)) {
        best = c;
        found = true;
      }
    }
  }
  // Nothing fits (a target with too little shared memory): the default
  // config, which checkConfig rejects.
  if (!found)
    return KernelConfig();

  KernelConfig config;
  config.blockM = best.blockM;
  config.blockN = best.blockN;
  config.stages = best.stages;
  config.mathWarpgroups = mathWarpgroupsFor(best.blockM);

  // 2-CTA multicast.
  int64_t nBlocks = ceilDiv(p.n, best.blockN);
  int64_t mBlocks = ceilDiv(p.m, best.blockM);
  // Not for the weight-gradient forms (1x128 B scales or an f32 output):
  // their lowering takes no clusters.
  bool weightGradientForm =
      p.bScale == BScaleGranularity::Row1x128 || p.out == OutType::F32;
  // Nor for a single wave: every tile then loads once anyway, and no
  // single-wave multicast kernel was measured faster (DeepGEMM's model
  // rules it out too).
  if (o.allowMulticast && p.m >= kMulticastMinRows &&
      p.m >= o.multicastMinRows && p.k >= o.multicastMinK &&
      targetSMs % 2 == 0 && p.kind != GemmKind::KGrouped &&
      !weightGradientForm && best.waves > 1) {
    // Share the larger of the two tiles when both can pair: B when block N
    // exceeds block M (the normal GEMM). At 128x192 and 8192-32768 rows B
    // multicast ran 1-7% faster than A on all six shapes measured (H100,
    // bench/results/2026-12-06-757b9d9-h100-ab-tiles-128x192.log).
    bool canA = nBlocks % 2 == 0;
    // The contiguous layout pairs any count of M blocks (the kernel checks
    // each pair's groups on the device, and one past M stores nothing).
    bool canB = o.allowMulticastB && best.blockN % 16 == 0 &&
                ((p.kind == GemmKind::Normal && mBlocks % 2 == 0) ||
                 p.kind == GemmKind::GroupedContiguous);
    if (canB && (!canA || best.blockN > best.blockM))
      config.multicast = Multicast::B;
    else if (canA)
      config.multicast = Multicast::A;
  }
  config.clusterSize = config.multicast == Multicast::None ? 1 : 2;

  // B streamed through L2 (its loads evict_first): with one M block (per
  // group) every B tile serves one tile; with one wave, the tiles sharing a
  // B tile run at the same time, so its reuse is near. Where B is reused
  // across waves the hint costs 1-2% (M = 4096); where it is read once it
  // gains: 3% on the masked 4 x 256 rows at K = 2048, 8-11% at M <= 128, K
  // = 16384 (bench/results/2026-12-01-4a4db6a-ab-l2-hints-*.log). bf16
  // output, normal and masked layouts only: what was measured.
  config.streamB = (mBlocks == 1 || best.waves == 1) &&
                   p.out == OutType::BF16 &&
                   (p.kind == GemmKind::Normal ||
                    p.kind == GemmKind::GroupedMasked);

  // The fewest CTAs that keep the number of waves.
  config.numSMs = std::min(
      targetSMs, roundUp(ceilDiv(best.tiles, best.waves), config.clusterSize));

  // Tile order: irrelevant for a single wave.
  if (best.tiles <= targetSMs) {
    config.swizzleGroup = 1;
  } else if (p.kind == GemmKind::GroupedMasked) {
    // Masked layout: a group's few M blocks first (one N block, or one pair
    // with multicast A, per step of the order), so the tiles that share a
    // B tile run side by side and its evict_first lines (streamB) serve
    // them all before they leave L2. On the H200 the drawn 4 x 256 rows at
    // K = 2048 (the 128x192 second shape, 3 M blocks in a group) ran 2-3%
    // faster than with groups of 16 N blocks, the other K = 2048 masked
    // cases within the spread
    // (bench/results/2026-12-04-513ee45-ab-masked-swizzle*.log).
    config.swizzleGroup = config.multicast == Multicast::A ? 2 : 1;
  } else {
    config.swizzleGroup = std::min(kMaxSwizzleGroup, nBlocks);
    if (config.multicast == Multicast::A && config.swizzleGroup % 2 != 0 &&
        config.swizzleGroup > 1)
      config.swizzleGroup -= 1;
  }

  // A small M (one M block, no multicast): A's TMA box cut to its rows,
  // rounded up to 8, so that a stage does not receive block M rows
  // zero-filled past M. On the H200 (bench/ab_kernel_ir.py, each variant
  // checked): at block M 64 1.3-2x faster at M = 2-32 with K >= 7168
  // (8x4096x7168 25.5 -> 15.4 us, 32x7168x16384 48.1 -> 36.9, 2x1104x14848
  // 35.1 -> 18.0), within 1% on shapes with short K or many tiles
  // (bench/results/2026-12-04-a87e4f8-ab-a-box-rows.log); at block M 128
  // (two consumers, M 65-120) 81x25552x14208 469.7 -> 545.7 TFLOPS and
  // M = 102, 116, 120 within +1% (bench/results/2026-12-05-9f39a9c-ab-a-
  // box-rows-128.log). Never slower. Not taken at block M 256 nor for the
  // weight-gradient form (f32 D, 1x128 B scales): those lower and assemble
  // with a_box_rows but have not run on the GPU with it.
  if (o.exactM && p.kind == GemmKind::Normal && p.out == OutType::BF16 &&
      p.bScale == BScaleGranularity::Block128x128 && config.blockM <= 128 &&
      config.clusterSize == 1 && roundUp(p.m, 8) < config.blockM)
    config.aBoxRows = roundUp(p.m, 8);

  // Masked layout, several groups, 256-row tiles: a group with more rows
  // than expected takes a second, nearly empty block of 256 rows (4 groups
  // drawn as [224, 183, 308, 265] at N = 7168: 336 tiles, 3 rounds, where
  // 4 x 256 rows take 224, 2 rounds). The kernel then also holds the best
  // 128-row shape (128x192 there: 380 tiles, 3 rounds of a cheaper tile)
  // and picks one on the device from masked_m. The second shape runs on
  // every SM (its rounds are counted for rows the selection did not
  // expect); the first keeps its own CTA count (on the H200 a 256x128
  // kernel at K = 2048 ran about 1% slower on 132 CTAs than on its 112).
  if (o.allowAltTile && p.kind == GemmKind::GroupedMasked && p.groups >= 2 &&
      config.blockM == 256 && config.clusterSize == 1) {
    SelectOptions narrow = o;
    narrow.maxBlockM = 128;
    narrow.allowMulticast = false;
    narrow.allowAltTile = false;
    KernelConfig alt = selectConfig(p, t, narrow);
    if (alt.blockM == 128 && alt.mathWarpgroups == config.mathWarpgroups) {
      config.altBlockM = alt.blockM;
      config.altBlockN = alt.blockN;
      config.altStages = alt.stages;
      config.altNumSMs = targetSMs;
    }
  }
  return config;
}
