//===- ConfigSelectionTest.cpp - Tests for selectConfig and its checks ----===//
//
// Unit tests of the kernel config choice: the worked examples of the cost
// model, every DeepSeek-V3 reference shape of bench/SHAPES.md (valid, within
// the SMs, shared memory filled), the register, scale-block and shared-memory
// rules, multicast and grid rules, and the messages of checkProblem and
// checkConfig.
//
//===----------------------------------------------------------------------===//

#include "dgemm/Config/ConfigSelection.h"

#include "gtest/gtest.h"

#include <ostream>
#include <tuple>
#include <string>
#include <vector>

using namespace dgemm;

namespace dgemm {
/// Readable configs in gtest failure messages.
void PrintTo(const KernelConfig &c, std::ostream *os) {
  *os << "{block_m " << c.blockM << ", block_n " << c.blockN << ", stages "
      << c.stages << ", cluster " << c.clusterSize << ", multicast "
      << toString(c.multicast) << ", math_wgs " << c.mathWarpgroups
      << ", swizzle " << c.swizzleGroup << ", num_sms " << c.numSMs
      << (c.streamB ? ", stream_b" : "");
  if (c.aBoxRows)
    *os << ", a_box_rows " << c.aBoxRows;
  if (c.hasAlt())
    *os << ", alt " << c.altBlockM << "x" << c.altBlockN << " stages "
        << c.altStages << " on " << c.altNumSMs;
  *os << "}";
}
} // namespace dgemm

namespace {

ProblemDesc normal(int64_t m, int64_t n, int64_t k) {
  ProblemDesc p;
  p.kind = GemmKind::Normal;
  p.m = m;
  p.n = n;
  p.k = k;
  return p;
}

/// Contiguous layout: `m` is the sum of the groups' rows.
ProblemDesc contiguous(int64_t groups, int64_t mPerGroup, int64_t n,
                       int64_t k) {
  ProblemDesc p = normal(groups * mPerGroup, n, k);
  p.kind = GemmKind::GroupedContiguous;
  p.groups = groups;
  return p;
}

/// Masked layout: `m` is the expected rows per group.
ProblemDesc masked(int64_t groups, int64_t mPerGroup, int64_t n, int64_t k) {
  ProblemDesc p = normal(mPerGroup, n, k);
  p.kind = GemmKind::GroupedMasked;
  p.groups = groups;
  return p;
}

/// The weight-gradient GEMM: 1x128 B scales, f32 D.
ProblemDesc wgrad(int64_t m, int64_t n, int64_t k) {
  ProblemDesc p = normal(m, n, k);
  p.out = OutType::F32;
  p.bScale = BScaleGranularity::Row1x128;
  return p;
}

/// The k-grouped weight-gradient GEMM: `k` is the mean K per group.
ProblemDesc kGrouped(int64_t groups, int64_t m, int64_t n, int64_t k) {
  ProblemDesc p = wgrad(m, n, k);
  p.kind = GemmKind::KGrouped;
  p.groups = groups;
  return p;
}

/// The 28 shapes of bench/SHAPES.md: 18 normal, 4 contiguous, 6 masked.
std::vector<ProblemDesc> referenceShapes() {
  std::vector<ProblemDesc> shapes;
  const int64_t nk[][2] = {{2112, 7168},  {24576, 1536}, {32768, 512},
                           {7168, 16384}, {4096, 7168},  {7168, 2048}};
  for (int64_t m : {64, 128, 4096})
    for (const auto &s : nk)
      shapes.push_back(normal(m, s[0], s[1]));
  for (int64_t g : {4, 8}) {
    shapes.push_back(contiguous(g, 32768 / g, 4096, 7168));
    shapes.push_back(contiguous(g, 32768 / g, 7168, 2048));
  }
  for (int64_t g : {1, 2, 4}) {
    shapes.push_back(masked(g, 1024 / g, 4096, 7168));
    shapes.push_back(masked(g, 1024 / g, 7168, 2048));
  }
  return shapes;
}

std::string describe(const ProblemDesc &p) {
  return "kind " + std::to_string(static_cast<int>(p.kind)) + " groups " +
         std::to_string(p.groups) + " m " + std::to_string(p.m) + " n " +
         std::to_string(p.n) + " k " + std::to_string(p.k);
}

/// A config that is valid for normal(4096, 4096, 7168) on the default target,
/// for the checkConfig message tests to break one field at a time.
KernelConfig validConfig() {
  KernelConfig c;
  c.blockM = 128;
  c.blockN = 128;
  c.stages = 5;
  c.clusterSize = 2;
  c.multicast = Multicast::A;
  c.mathWarpgroups = 2;
  c.swizzleGroup = 16;
  c.numSMs = 128;
  return c;
}

TEST(ConfigSelection, Example256x7168PicksBlockN112) {
  // 128x112: 2 * 64 = 128 tiles in one wave; 128x128 has only 112 tiles.
  TargetDesc t;
  KernelConfig c = selectConfig(normal(256, 7168, 7168), t);
  EXPECT_EQ(c.blockM, 128);
  EXPECT_EQ(c.blockN, 112);
  EXPECT_EQ(c.mathWarpgroups, 2);
  EXPECT_EQ(c.stages, 6);
  EXPECT_EQ(c.multicast, Multicast::None);
  EXPECT_EQ(c.clusterSize, 1);
  EXPECT_EQ(c.numSMs, 128);
  EXPECT_EQ(c.swizzleGroup, 1);
}

TEST(ConfigSelection, ReferenceShapesAreValid) {
  TargetDesc t;
  std::vector<ProblemDesc> shapes = referenceShapes();
  ASSERT_EQ(shapes.size(), 28u);
  for (const ProblemDesc &p : shapes) {
    SCOPED_TRACE(describe(p));
    ASSERT_EQ(checkProblem(p), "");
    KernelConfig c = selectConfig(p, t);
    EXPECT_EQ(checkConfig(c, p, t), "");
    EXPECT_GE(c.numSMs, 1);
    EXPECT_LE(c.numSMs, 132);
    EXPECT_GE(c.stages, 3);
    EXPECT_LE(c.stages, 8);
    // The ring fills shared memory: one more stage would not fit.
    if (c.stages < 8) {
      int64_t used = c.stages * stageBytes(c.blockM, c.blockN, p) +
                     fixedSmemBytes(c.blockM, c.blockN, p);
      EXPECT_LE(used, t.smemPerBlock);
      EXPECT_GT(used + stageBytes(c.blockM, c.blockN, p), t.smemPerBlock);
      KernelConfig more = c;
      more.stages += 1;
      EXPECT_NE(checkConfig(more, p, t), "");
    }
  }
}

TEST(ConfigSelection, HandComputedChoices) {
  struct Expected {
    ProblemDesc p;
    int64_t blockM, blockN;
    Multicast multicast;
    int64_t numSMs;
  };
  const Expected table[] = {
      // 1 m block x 132 n blocks of 16 = 132 tiles, one wave.
      {normal(64, 2112, 7168), 64, 16, Multicast::None, 132},
      // 24576 / 192 = 128 tiles, one wave; 200 would span 3 scale blocks.
      {normal(64, 24576, 1536), 64, 192, Multicast::None, 128},
      // 64x112: 2 x 64 = 128 tiles, cost 7168 + 64*176 = 18432; 128x56 also
      // 128 tiles but 128*60 + 64*184 = 19456.
      {normal(128, 7168, 16384), 64, 112, Multicast::None, 128},
      // With the fixed per-tile cost F = 24576 and R = 16384 for the second
      // row wave of block M 256 (calibrated on the H200 sweeps, bench/sweep/):
      // 256x128 makes 16 x 32 = 512 tiles, 4 waves of F + R + 32768 +
      // 64*384 = 98304 = 393216; 128x192: 704 tiles, 6 waves of 24576 +
      // 24576 + 20480 = 69632 = 417792. 32 n blocks: multicast A.
      {normal(4096, 4096, 7168), 256, 128, Multicast::A, 128},
      // 16 x 56 = 896 tiles, 7 waves of 98304 = 688128; 128x192: 1216
      // tiles, 10 waves = 696320.
      {normal(4096, 7168, 16384), 256, 128, Multicast::A, 128},
      // 128x192: 352 tiles, 3 waves of 69632 = 208896; 256x128: 16 x 17 =
      // 272 tiles, 3 waves of 98304; 11 n blocks: multicast B.
      {normal(4096, 2112, 7168), 128, 192, Multicast::B, 118},
      // 4 groups x 1 x 56 = 224 tiles, 2 waves of F + R + 32768 + 64*384
      // = 98304; 128x192: 4 x 2 x 38 = 304 tiles, 3 waves of 69632.
      // Masked has no B multicast and m = 256 is below 512 anyway.
      {masked(4, 256, 7168, 2048), 256, 128, Multicast::None, 112},
      // One group as two or more: 4 x 56 = 224 tiles, 2 waves of 98304;
      // 128x192: 8 x 38 = 304 tiles, 3 waves of 69632. 56 n blocks:
      // multicast A.
      {masked(1, 1024, 7168, 2048), 256, 128, Multicast::A, 112},
      // 256 x 22 = 5632 tiles, 43 waves of 45056 (128x128: 63 of 32768).
      // B, the larger tile, shared by pairs of M blocks.
      {contiguous(4, 8192, 4096, 7168), 128, 192, Multicast::B, 132},
  };
  TargetDesc t;
  for (const Expected &e : table) {
    SCOPED_TRACE(describe(e.p));
    KernelConfig c = selectConfig(e.p, t);
    EXPECT_EQ(c.blockM, e.blockM);
    EXPECT_EQ(c.blockN, e.blockN);
    EXPECT_EQ(c.multicast, e.multicast);
    EXPECT_EQ(c.numSMs, e.numSMs);
  }
}

// What the runtime asks for (the lowering's capabilities: block M up to 256,
// multicast from 8192 rows at K >= 2048): the choices the H200 sweeps
// measured best or within 5% of it (bench/sweep/2026-12-01-*-m4096.jsonl).
TEST(ConfigSelection, KernelCapabilitiesFollowTheSweep) {
  TargetDesc t;
  SelectOptions caps = kernelCapabilities();
  EXPECT_TRUE(caps.allowMulticast);
  EXPECT_EQ(caps.multicastMinRows, 8192);
  EXPECT_EQ(caps.multicastMinK, 2048);
  EXPECT_EQ(caps.maxBlockM, 256);
  // Sweep: 256x128 1288 TFLOPS, 128x192 1236.
  KernelConfig c = selectConfig(normal(4096, 7168, 16384), t, caps);
  EXPECT_EQ(c.blockM, 256);
  EXPECT_EQ(c.blockN, 128);
  EXPECT_EQ(c.multicast, Multicast::None);
  // Sweep: 256x128 1221 TFLOPS, 128x192 1155.
  c = selectConfig(normal(4096, 4096, 7168), t, caps);
  EXPECT_EQ(c.blockM, 256);
  EXPECT_EQ(c.blockN, 128);
  // Sweep: 128x192 1157 TFLOPS, the best 256-row tile (256x88) 1044.
  c = selectConfig(normal(4096, 2112, 7168), t, caps);
  EXPECT_EQ(c.blockM, 128);
  EXPECT_EQ(c.blockN, 192);
  // Small M is unchanged: 64x16, 132 tiles.
  c = selectConfig(normal(64, 2112, 7168), t, caps);
  EXPECT_EQ(c.blockM, 64);
  EXPECT_EQ(c.blockN, 16);
  // Sweep (masked, 4 groups of 256 rows): 256x128 1066 TFLOPS, 128x128
  // 983.
  EXPECT_EQ(selectConfig(masked(4, 256, 4096, 7168), t, caps).blockM, 256);
  // One masked group of 1024 rows, K = 2048 (ab_masked_gap.py on
  // 04834ee's bundle): 256x128 940 TFLOPS, the former 128x192 872; at
  // K = 7168 256x128 1191, 128x128 1189.
  EXPECT_EQ(selectConfig(masked(1, 1024, 7168, 2048), t, caps).blockM, 256);
  EXPECT_EQ(selectConfig(masked(1, 1024, 4096, 7168), t, caps).blockM, 256);
  // The contiguous layout and the weight-gradient forms keep block M <= 128.
  EXPECT_LE(selectConfig(contiguous(4, 8192, 4096, 7168), t, caps).blockM,
            128);
  EXPECT_LE(selectConfig(wgrad(4096, 7168, 16384), t, caps).blockM, 128);
}

// Where the runtime's capabilities take multicast (H100, 757b9d9,
// bench/results/2026-12-06-757b9d9-h100-ab-tiles-128x192.log and
// -sweep-contiguous-multicast-drain.jsonl): 8192 rows and more at K >= 2048;
// not at M = 4096 (1-2% slower there) nor at K < 2048 (7% slower at K = 512).
TEST(ConfigSelection, KernelCapabilitiesMulticastFromMeasuredRows) {
  TargetDesc t;
  SelectOptions caps = kernelCapabilities();
  // 128x192: B, the larger tile, is shared where both pair up (1373
  // TFLOPS, A 1337, none 1258).
  KernelConfig c = selectConfig(normal(8192, 4096, 7168), t, caps);
  EXPECT_EQ(c.blockM, 128);
  EXPECT_EQ(c.blockN, 192);
  EXPECT_EQ(c.multicast, Multicast::B);
  EXPECT_EQ(c.clusterSize, 2);
  EXPECT_EQ(c.numSMs % 2, 0);
  EXPECT_EQ(selectConfig(normal(32768, 7168, 2048), t, caps).multicast,
            Multicast::B);
  // An odd count of M blocks (65): A.
  EXPECT_EQ(selectConfig(normal(8320, 7168, 2048), t, caps).multicast,
            Multicast::A);
  // The contiguous layout counts all its rows (4 x 8192) and shares B
  // whatever its M blocks' count (its kernel checks each pair's groups).
  EXPECT_EQ(selectConfig(contiguous(4, 8192, 7168, 2048), t, caps).multicast,
            Multicast::B);
  EXPECT_EQ(selectConfig(contiguous(1, 8320, 7168, 2048), t, caps).multicast,
            Multicast::B);
  // Without B multicast allowed: A.
  SelectOptions noB = caps;
  noB.allowMulticastB = false;
  EXPECT_EQ(selectConfig(contiguous(4, 8192, 7168, 2048), t, noB).multicast,
            Multicast::A);
  // Below the rows or the K: single CTAs.
  EXPECT_EQ(selectConfig(normal(4096, 4096, 7168), t, caps).clusterSize, 1);
  EXPECT_EQ(selectConfig(normal(4096, 2112, 7168), t, caps).clusterSize, 1);
  EXPECT_EQ(selectConfig(normal(16384, 7168, 1536), t, caps).clusterSize, 1);
  EXPECT_EQ(selectConfig(masked(4, 1024, 7168, 2048), t, caps).clusterSize,
            1);
  // The weight-gradient forms (1x128 B scales, f32 output): never, their
  // lowering takes no clusters.
  ProblemDesc wgrad = normal(24576, 1536, 4096);
  wgrad.bScale = BScaleGranularity::Row1x128;
  wgrad.out = OutType::F32;
  EXPECT_EQ(selectConfig(wgrad, t, caps).clusterSize, 1);
  wgrad.bScale = BScaleGranularity::Block128x128;
  EXPECT_EQ(selectConfig(wgrad, t, caps).clusterSize, 1);
  // One wave (128 tiles of 128x192): none.
  EXPECT_EQ(selectConfig(normal(8192, 384, 2048), t, caps).clusterSize, 1);
  // The thresholds never lower the config space's own 512 rows.
  SelectOptions low = caps;
  low.multicastMinRows = 0;
  low.multicastMinK = 0;
  EXPECT_EQ(selectConfig(normal(256, 7168, 2048), t, low).clusterSize, 1);
  EXPECT_EQ(selectConfig(normal(4096, 4096, 7168), t, low).clusterSize, 2);
}

TEST(ConfigSelection, RegisterBudget) {
  EXPECT_EQ(consumerRegisterBudget(1), 240);
  EXPECT_EQ(consumerRegisterBudget(2), 232);

  EXPECT_EQ(consumerRegistersNeeded(128, 256, 2), 296);
  EXPECT_GT(consumerRegistersNeeded(128, 256, 2), consumerRegisterBudget(2));
  // Block M 256: one fresh fragment shared by the two row waves, a total
  // each: 3 * 128/2 + 40.
  EXPECT_EQ(consumerRegistersNeeded(256, 128, 2), 232);
  EXPECT_EQ(consumerRegistersNeeded(256, 136, 2), 244);
  EXPECT_GT(consumerRegistersNeeded(256, 136, 2), consumerRegisterBudget(2));

  // The largest block N of each block M.
  EXPECT_EQ(consumerRegistersNeeded(64, 200, 1), 240);
  EXPECT_GT(consumerRegistersNeeded(64, 208, 1), consumerRegisterBudget(1));
  EXPECT_EQ(consumerRegistersNeeded(128, 192, 2), 232);
  EXPECT_GT(consumerRegistersNeeded(128, 200, 2), consumerRegisterBudget(2));

  ProblemDesc p = normal(4096, 4096, 7168);
  TargetDesc t;
  KernelConfig c = validConfig();
  c.blockN = 256;
  c.stages = 1;
  EXPECT_EQ(checkConfig(c, p, t),
            "block_m = 128, block_n = 256 needs 296 registers per consumer "
            "thread, over the budget of 232");
  c.blockM = 256;
  c.blockN = 136;
  EXPECT_EQ(checkConfig(c, p, t),
            "block_m = 256, block_n = 136 needs 244 registers per consumer "
            "thread, over the budget of 232");
}

TEST(ConfigSelection, ScaleBlockSpan) {
  for (int64_t bn : {8, 64, 112, 128, 136, 144, 160, 192, 256})
    EXPECT_TRUE(spansAtMostTwoScaleBlocks(bn)) << bn;
  for (int64_t bn : {152, 168, 176, 184, 200, 248})
    EXPECT_FALSE(spansAtMostTwoScaleBlocks(bn)) << bn;
  for (int64_t bn : {8, 128, 136, 160, 192, 256})
    EXPECT_EQ(bScaleBlocksSpanned(bn), 2) << bn;
  for (int64_t bn : {152, 176, 248})
    EXPECT_EQ(bScaleBlocksSpanned(bn), 3) << bn;

  // A three-block tile is a valid config (the kernel copies three rows of
  // B scales: 4 bytes more per K block of shared memory than two) ...
  ProblemDesc p = normal(4096, 7168, 7168);
  TargetDesc t;
  KernelConfig c = validConfig();
  c.blockN = 176;
  c.multicast = Multicast::None;
  c.clusterSize = 1;
  c.stages = 4;
  EXPECT_EQ(checkConfig(c, p, t), "");
  EXPECT_EQ(fixedSmemBytes(128, 176, p) - fixedSmemBytes(128, 160, p),
            2 * 128 * 16 + (768 - 512)); // B-scale rows: 3 * 56 and 2 * 56 floats, 128-byte rounded
  // ... that the selection does not choose yet (not swept).
  for (int64_t m : {64, 128, 4096})
    for (int64_t n : {2112, 4096, 7168, 24576})
      EXPECT_TRUE(spansAtMostTwoScaleBlocks(
          selectConfig(normal(m, n, 7168), t).blockN))
          << m << "x" << n;
  p.bScale = BScaleGranularity::Row1x128;
  EXPECT_EQ(checkConfig(c, p, t), "");
}

TEST(ConfigSelection, SharedMemoryPerStage) {
  ProblemDesc p = normal(4096, 4096, 7168);
  // HOPPER-FACTS section 5 sizes plus 16 bytes of mbarriers.
  EXPECT_EQ(stageBytes(128, 112, p), 31232 + 16);
  EXPECT_EQ(stageBytes(128, 128, p), 33280 + 16);
  EXPECT_EQ(stageBytes(64, 128, p), 24832 + 16);
  EXPECT_EQ(stageBytes(128, 192, p), 41472 + 16);
  // D staging, 1 KiB slack, and the tile's two rows of 56 B scales (448 B,
  // padded to 512).
  EXPECT_EQ(fixedSmemBytes(128, 112, p), 28672 + 1024 + 512);
  // 1x128 B scales: 4 * 112 = 448 bytes, padded to 512 for TMA.
  p.bScale = BScaleGranularity::Row1x128;
  EXPECT_EQ(stageBytes(128, 112, p), 31248 + 512);
  p.out = OutType::F32;
  EXPECT_EQ(fixedSmemBytes(128, 112, p), 57344 + 1024);
}

TEST(ConfigSelection, ContiguousNeverPicksBlockM256) {
  TargetDesc t;
  for (int64_t g : {1, 2, 4, 8, 16})
    for (int64_t mPerGroup : {128, 1024, 8192})
      for (int64_t n : {256, 2112, 4096, 7168}) {
        ProblemDesc p = contiguous(g, mPerGroup, n, 2048);
        SCOPED_TRACE(describe(p));
        KernelConfig c = selectConfig(p, t);
        EXPECT_NE(c.blockM, 256);
        EXPECT_EQ(checkConfig(c, p, t), "");
      }
  // While the normal GEMM of the same size may take it.
  EXPECT_EQ(selectConfig(normal(4096, 4096, 7168), t).blockM, 256);
}

// Block M 256 is lowered for the normal GEMM and the masked layout with a
// bf16 output and 128x128 B scales: a config asking for it elsewhere is
// refused with the reason; the selection takes it for the masked layout
// with any number of groups.
TEST(ConfigSelection, BlockM256OnlyForNormalAndMaskedBf16) {
  TargetDesc t;
  KernelConfig c = validConfig();
  c.blockM = 256;
  c.blockN = 128;
  c.stages = 3;
  c.multicast = Multicast::None;
  c.clusterSize = 1;
  EXPECT_EQ(checkConfig(c, normal(4096, 4096, 7168), t), "");
  EXPECT_EQ(checkConfig(c, masked(4, 1024, 4096, 7168), t), "");
  EXPECT_EQ(selectConfig(masked(4, 1024, 4096, 7168), t).blockM, 256);
  EXPECT_EQ(selectConfig(masked(1, 1024, 4096, 7168), t).blockM, 256);
  EXPECT_EQ(checkConfig(c, wgrad(4096, 4096, 7168), t),
            "block_m = 256 is only supported for the normal GEMM and the "
            "masked layout with a bf16 output and 128x128 B scales, not the "
            "normal layout with an f32 output and 1x128 B scales");
  ProblemDesc kg = kGrouped(4, 4096, 4096, 7168);
  EXPECT_EQ(checkConfig(c, kg, t),
            "block_m = 256 is only supported for the normal GEMM and the "
            "masked layout with a bf16 output and 128x128 B scales, not the "
            "k-grouped layout with an f32 output and 1x128 B scales");
  EXPECT_EQ(checkConfig(c, contiguous(4, 8192, 4096, 7168), t),
            "block_m = 256 is not allowed for the grouped contiguous layout "
            "(groups are aligned to 128 rows)");
}

TEST(ConfigSelection, Deterministic) {
  TargetDesc t;
  for (const ProblemDesc &p : referenceShapes())
    EXPECT_EQ(selectConfig(p, t), selectConfig(p, t)) << describe(p);
}

TEST(ConfigSelection, EqualityComparesEveryField) {
  KernelConfig a = validConfig();
  EXPECT_EQ(a, validConfig());
  auto differs = [&](void (*change)(KernelConfig &)) {
    KernelConfig b = a;
    change(b);
    return !(a == b);
  };
  EXPECT_TRUE(differs([](KernelConfig &c) { c.blockM = 64; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.blockN = 112; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.stages = 4; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.clusterSize = 1; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.multicast = Multicast::B; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.mathWarpgroups = 1; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.swizzleGroup = 8; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.numSMs = 132; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.streamB = true; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.altBlockM = 128; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.altBlockN = 192; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.altStages = 4; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.altNumSMs = 132; }));
  EXPECT_TRUE(differs([](KernelConfig &c) { c.aBoxRows = 8; }));
}

TEST(ConfigSelection, MaskedSecondTileShape) {
  TargetDesc t;
  // 4 groups of 256 rows at N 7168, K 2048: 256x128 on its 112 CTAs, and
  // the best 128-row shape (128x192, 4 stages) on all 132 SMs.
  KernelConfig c = selectConfig(masked(4, 256, 7168, 2048), t,
                                kernelCapabilities());
  EXPECT_EQ(c.blockM, 256);
  EXPECT_EQ(c.numSMs, 112);
  ASSERT_TRUE(c.hasAlt());
  EXPECT_EQ(c.altBlockM, 128);
  EXPECT_EQ(c.altBlockN, 192);
  EXPECT_EQ(c.altStages, 4);
  EXPECT_EQ(c.altNumSMs, 132);
  EXPECT_EQ(checkConfig(c, masked(4, 256, 7168, 2048), t), "");
  // The second shape as a config of its own: one CTA per cluster, the
  // first shape's stream_b, no second shape of its own.
  ASSERT_TRUE(c.streamB);
  KernelConfig alt = c.alt();
  EXPECT_EQ(alt.blockM, 128);
  EXPECT_EQ(alt.blockN, 192);
  EXPECT_EQ(alt.stages, 4);
  EXPECT_EQ(alt.numSMs, 132);
  EXPECT_EQ(alt.clusterSize, 1);
  EXPECT_TRUE(alt.streamB);
  EXPECT_FALSE(alt.hasAlt());
  KernelConfig noStream = c;
  noStream.streamB = false;
  EXPECT_FALSE(noStream.alt().streamB);
  // The kernel's shared memory covers both shapes.
  EXPECT_GE(smemBytes(c, masked(4, 256, 7168, 2048)),
            smemBytes(alt, masked(4, 256, 7168, 2048)));
  // The two rounds the drawn sizes [224, 183, 308, 265] take: 336 tiles of
  // 256x128 (3 rounds on 112 CTAs) against 380 of 128x192 (3 on 132): the
  // second is cheaper; with 4 x 256 rows (224 tiles, 2 rounds, against 304,
  // 3 rounds) the first is.
  ProblemDesc p = masked(4, 256, 7168, 2048);
  int64_t first = tileRoundCost(256, 128, p), second = tileRoundCost(128, 192, p);
  EXPECT_LT(3 * second, 3 * first);
  EXPECT_LT(2 * first, 3 * second);
  // None: one group (its rows are the normal GEMM's), a 2-CTA cluster, the
  // contiguous layout, block M 128 already, or when not allowed.
  EXPECT_FALSE(selectConfig(masked(1, 1024, 7168, 2048), t,
                            kernelCapabilities()).hasAlt());
  KernelConfig clustered = selectConfig(masked(2, 512, 7168, 2048), t);
  EXPECT_EQ(clustered.clusterSize, 2);
  EXPECT_FALSE(clustered.hasAlt());
  EXPECT_FALSE(selectConfig(contiguous(4, 8192, 7168, 2048), t).hasAlt());
  EXPECT_FALSE(selectConfig(masked(4, 64, 7168, 2048), t).hasAlt());
  SelectOptions off = kernelCapabilities();
  off.allowAltTile = false;
  EXPECT_FALSE(selectConfig(masked(4, 256, 7168, 2048), t, off).hasAlt());
  // checkConfig's rules for a second shape.
  KernelConfig bad = c;
  bad.altBlockN = 256;
  EXPECT_NE(checkConfig(bad, p, t).find("the second tile shape"),
            std::string::npos);
  bad = c;
  bad.altBlockM = 64; // one math warpgroup where the first has two
  EXPECT_NE(checkConfig(bad, p, t).find("same math warpgroups"),
            std::string::npos);
  bad = c;
  bad.altNumSMs = 133;
  EXPECT_NE(checkConfig(bad, p, t).find("num_sms = 133"), std::string::npos);
  KernelConfig contiguousWithAlt = c;
  contiguousWithAlt.blockM = 128;
  contiguousWithAlt.stages = 4;
  EXPECT_EQ(checkConfig(contiguousWithAlt, contiguous(4, 256, 7168, 2048), t),
            "a second tile shape (alt_block_m) is only supported for the "
            "masked layout, not the grouped contiguous layout");
}

TEST(ConfigSelection, StreamBWhereBIsReadOnceOrInOneWave) {
  TargetDesc t;
  // One M block: every B tile serves one tile.
  EXPECT_TRUE(selectConfig(normal(64, 7168, 16384), t).streamB);
  EXPECT_TRUE(selectConfig(normal(1, 608, 12544), t).streamB);
  // 4 groups of 256 rows at block M 256: one M block per group, two waves.
  KernelConfig c = selectConfig(masked(4, 256, 7168, 2048), t);
  EXPECT_EQ(c.blockM, 256);
  EXPECT_EQ(c.numSMs, 112);
  EXPECT_TRUE(c.streamB);
  // One wave with two M blocks: the B tile's two readers run together.
  c = selectConfig(normal(128, 7168, 16384), t);
  EXPECT_EQ(c.blockM, 64);
  EXPECT_TRUE(c.streamB);
  // Several M blocks over several waves: B is reused later, keep it.
  EXPECT_FALSE(selectConfig(normal(4096, 7168, 16384), t).streamB);
  EXPECT_FALSE(selectConfig(masked(1, 1024, 7168, 2048), t).streamB);
  EXPECT_FALSE(selectConfig(masked(2, 512, 7168, 2048), t).streamB);
  // Layouts and outputs it was not measured on: never.
  EXPECT_FALSE(selectConfig(contiguous(1, 64, 7168, 2048), t).streamB);
  EXPECT_FALSE(selectConfig(wgrad(64, 7168, 4096), t).streamB);
  EXPECT_FALSE(selectConfig(kGrouped(1, 64, 128, 1024), t).streamB);
}

TEST(ConfigSelection, SmallMPicksBlockM64) {
  TargetDesc t;
  for (int64_t m : {1, 16, 63, 64})
    for (int64_t n : {256, 2112, 7168, 32768}) {
      ProblemDesc p = normal(m, n, 7168);
      SCOPED_TRACE(describe(p));
      KernelConfig c = selectConfig(p, t);
      EXPECT_EQ(c.blockM, 64);
      EXPECT_EQ(c.mathWarpgroups, 1);
      EXPECT_GE(c.blockN, 16);
      EXPECT_EQ(checkConfig(c, p, t), "");
    }
}

TEST(ConfigSelection, SmallMCutsABox) {
  TargetDesc t;
  // One M block below block M: A's box holds M's rows rounded up to 8.
  for (auto [m, rows] : {std::pair<int64_t, int64_t>{1, 8}, {8, 8}, {9, 16},
                         {20, 24}, {33, 40}, {56, 56}})
    for (int64_t n : {608, 4096, 7168}) {
      ProblemDesc p = normal(m, n, 7168);
      SCOPED_TRACE(describe(p));
      KernelConfig c = selectConfig(p, t);
      ASSERT_EQ(c.blockM, 64);
      EXPECT_EQ(c.aBoxRows, rows);
      EXPECT_EQ(checkConfig(c, p, t), "");
    }
  // A whole block (57-64 rows round up to 64), more blocks, a hint instead
  // of the row count, or another layout: the box stays whole.
  for (int64_t m : {57, 64, 128, 4096})
    EXPECT_EQ(selectConfig(normal(m, 7168, 7168), t).aBoxRows, 0) << m;
  SelectOptions hint;
  hint.exactM = false;
  EXPECT_EQ(selectConfig(normal(4, 7168, 7168), t, hint).aBoxRows, 0);
  EXPECT_EQ(selectConfig(masked(4, 4, 7168, 7168), t).aBoxRows, 0);
  // Block M 128 (M 65-120, two consumers): cut too; 121-128 rows round
  // up to the whole block.
  KernelConfig m81 = selectConfig(normal(81, 25552, 14208), t);
  EXPECT_EQ(m81.blockM, 128);
  EXPECT_EQ(m81.aBoxRows, 88);
  EXPECT_EQ(checkConfig(m81, normal(81, 25552, 14208), t), "");
  for (auto [m, rows] : {std::pair<int64_t, int64_t>{65, 72}, {120, 120},
                         {121, 0}, {128, 0}}) {
    KernelConfig c = selectConfig(normal(m, 13312, 1024), t);
    EXPECT_EQ(c.blockM, 128) << m;
    EXPECT_EQ(c.aBoxRows, rows) << m;
  }
  // Not measured on the weight-gradient form: not chosen there.
  ProblemDesc wgrad = normal(8, 7168, 4096);
  wgrad.out = OutType::F32;
  wgrad.bScale = BScaleGranularity::Row1x128;
  EXPECT_EQ(selectConfig(wgrad, t).aBoxRows, 0);
  EXPECT_EQ(selectConfig(contiguous(1, 4, 7168, 7168), t).aBoxRows, 0);
}

TEST(ConfigSelection, NarrowN) {
  // N = 8 allows only block N 8; wider N never goes below 16.
  TargetDesc t;
  ProblemDesc p = normal(64, 8, 128);
  KernelConfig c = selectConfig(p, t);
  EXPECT_EQ(c.blockN, 8);
  EXPECT_EQ(c.numSMs, 1);
  EXPECT_EQ(checkConfig(c, p, t), "");
  p = normal(64, 1024, 7168);
  EXPECT_EQ(selectConfig(p, t).blockN, 16);
  // F32 output: N = 4 is allowed and rounds to one block of 8.
  p = normal(64, 4, 128);
  p.out = OutType::F32;
  EXPECT_EQ(checkProblem(p), "");
  EXPECT_EQ(selectConfig(p, t).blockN, 8);
}

TEST(ConfigSelection, MulticastRules) {
  TargetDesc t;
  // Below 512 rows: no cluster.
  KernelConfig c = selectConfig(normal(256, 4096, 7168), t);
  EXPECT_EQ(c.multicast, Multicast::None);
  EXPECT_EQ(c.clusterSize, 1);
  // An odd number of SMs: no cluster.
  TargetDesc odd;
  odd.numSMs = 131;
  c = selectConfig(normal(4096, 4096, 7168), odd);
  EXPECT_EQ(c.multicast, Multicast::None);
  EXPECT_EQ(checkConfig(c, normal(4096, 4096, 7168), odd), "");
  // K-grouped: never.
  ProblemDesc kg = kGrouped(4, 4096, 4096, 4096);
  c = selectConfig(kg, t);
  EXPECT_EQ(c.multicast, Multicast::None);
  EXPECT_EQ(checkConfig(c, kg, t), "");
  // Masked: never B multicast (56 N blocks of 128: A).
  ProblemDesc mk = masked(1, 1024, 7168, 2048);
  c = selectConfig(mk, t);
  EXPECT_EQ(c.blockN, 128);
  EXPECT_EQ(c.multicast, Multicast::A);
  mk.n = 7168 + 128; // 57 N blocks: odd, and B multicast is not for masked
  c = selectConfig(mk, t);
  EXPECT_EQ(c.multicast, Multicast::None);
  // Normal, odd N blocks, even M blocks: B multicast (the pair takes
  // neighbouring M blocks), which the lowering builds for block N a
  // multiple of 16 only.
  ProblemDesc nb = normal(4096, 2112, 7168); // 11 N blocks of 192
  c = selectConfig(nb, t);
  EXPECT_EQ(c.blockN, 192);
  EXPECT_EQ(c.multicast, Multicast::B);
  EXPECT_EQ(checkConfig(c, nb, t), "");
  KernelConfig half = c;
  half.blockN = 120; // 60 rows of B per CTA: not whole 8-row atoms
  EXPECT_NE(checkConfig(half, nb, t).find("multiple of 16"), std::string::npos);
  SelectOptions noB;
  noB.allowMulticastB = false;
  EXPECT_EQ(selectConfig(nb, t, noB).multicast, Multicast::None);
  // Every clustered choice launches an even number of CTAs.
  for (const ProblemDesc &p : referenceShapes()) {
    KernelConfig r = selectConfig(p, t);
    EXPECT_EQ(r.clusterSize, r.multicast == Multicast::None ? 1 : 2);
    EXPECT_EQ(r.numSMs % r.clusterSize, 0) << describe(p);
    // Multicast A walks pairs of N blocks: an even tile-order group, or 1
    // (a single wave, where the order does not matter).
    if (r.multicast == Multicast::A && r.swizzleGroup != 1) {
      EXPECT_EQ(r.swizzleGroup % 2, 0) << describe(p);
    }
  }
}

TEST(ConfigSelection, GridAndTileOrder) {
  TargetDesc t;
  // One wave: as many CTAs as tiles, order irrelevant.
  KernelConfig c = selectConfig(normal(64, 4096, 7168), t);
  EXPECT_EQ(c.blockN, 32);
  EXPECT_EQ(c.numSMs, 128);
  EXPECT_EQ(c.swizzleGroup, 1);
  // 2 x 2 x 56 = 224 tiles of 256x128 in 2 waves: 112 CTAs keep the 2
  // waves. The masked layout walks a group's M blocks first: one N block
  // per step, or one pair with multicast A.
  c = selectConfig(masked(2, 512, 7168, 2048), t);
  EXPECT_EQ(c.numSMs, 112);
  EXPECT_EQ(c.multicast, Multicast::A);
  EXPECT_EQ(c.swizzleGroup, 2);
  c = selectConfig(masked(2, 512, 7168, 2048), t, kernelCapabilities());
  EXPECT_EQ(c.multicast, Multicast::None);
  EXPECT_EQ(c.swizzleGroup, 1);
  // The normal GEMM on the same rows keeps groups of 16 N blocks.
  c = selectConfig(normal(1024, 7168, 2048), t);
  EXPECT_EQ(c.swizzleGroup, 16);
  // Fewer N blocks than 16: the group is all of them.
  c = selectConfig(normal(8192, 256, 7168), t);
  EXPECT_LT(c.swizzleGroup, 16);
  EXPECT_GE(c.swizzleGroup, 1);
  EXPECT_EQ(checkConfig(c, normal(8192, 256, 7168), t), "");
}

TEST(ConfigSelection, NothingFitsGivesRejectedDefault) {
  TargetDesc tiny;
  tiny.smemPerBlock = 16 * 1024; // Not 3 stages of even 64x16.
  ProblemDesc p = normal(4096, 4096, 7168);
  KernelConfig c = selectConfig(p, tiny);
  EXPECT_EQ(c, KernelConfig());
  EXPECT_NE(checkConfig(c, p, tiny), "");
}

TEST(ConfigSelection, CheckProblemMessages) {
  EXPECT_EQ(checkProblem(normal(4096, 4096, 7168)), "");
  EXPECT_EQ(checkProblem(normal(64, 4096, 100)),
            "K must be a positive multiple of 128, got 100");
  EXPECT_EQ(checkProblem(normal(64, 4096, 0)),
            "K must be a positive multiple of 128, got 0");
  EXPECT_EQ(checkProblem(normal(64, 100, 7168)),
            "N must be a positive multiple of 8 for a BF16 output (16-byte "
            "rows), got 100");
  ProblemDesc f32 = normal(64, 100, 7168);
  f32.out = OutType::F32;
  EXPECT_EQ(checkProblem(f32), "");
  f32.n = 6;
  EXPECT_EQ(checkProblem(f32), "N must be a positive multiple of 4 for a F32 "
                               "output (16-byte rows), got 6");
  EXPECT_EQ(checkProblem(normal(0, 4096, 7168)),
            "M must be in [1, 2147483647], got 0");
  EXPECT_EQ(checkProblem(normal(-3, 4096, 7168)),
            "M must be in [1, 2147483647], got -3");
  ProblemDesc g = masked(0, 256, 4096, 7168);
  EXPECT_EQ(checkProblem(g), "groups must be in [1, 2147483647], got 0");
  ProblemDesc n = normal(64, 4096, 7168);
  n.groups = 2;
  EXPECT_EQ(checkProblem(n), "the normal GEMM has groups = 1, got 2");
  // selectConfig outside its precondition does not crash.
  EXPECT_EQ(selectConfig(normal(0, 0, 0), TargetDesc()), KernelConfig());
}

TEST(ConfigSelection, CheckConfigMessages) {
  ProblemDesc p = normal(4096, 4096, 7168);
  TargetDesc t;
  ASSERT_EQ(checkConfig(validConfig(), p, t), "");

  {
    ProblemDesc small = normal(20, 4096, 7168);
    KernelConfig s = selectConfig(small, t);
    ASSERT_EQ(s.aBoxRows, 24);
    s.aBoxRows = 16;
    EXPECT_EQ(checkConfig(s, small, t),
              "a_box_rows = 16 serves M <= 16 only, got M = 20");
    s.aBoxRows = 12;
    EXPECT_EQ(checkConfig(s, small, t),
              "a_box_rows = 12 is not a multiple of 8 in [8, block_m = 64)");
    s.aBoxRows = 64;
    EXPECT_EQ(checkConfig(s, small, t),
              "a_box_rows = 64 is not a multiple of 8 in [8, block_m = 64)");
    KernelConfig mc = validConfig();
    mc.aBoxRows = 8;
    EXPECT_EQ(checkConfig(mc, normal(8, 4096, 7168), t),
              "a_box_rows needs cluster_size = 1 (no multicast), got 2");
  }

  KernelConfig c = validConfig();
  c.blockM = 96;
  EXPECT_EQ(checkConfig(c, p, t), "block_m = 96 is not one of 64, 128, 256");

  c = validConfig();
  c.blockN = 100;
  EXPECT_EQ(checkConfig(c, p, t),
            "block_n = 100 is not a multiple of 8 in [8, 256] (wgmma N)");

  c = validConfig();
  c.mathWarpgroups = 1;
  EXPECT_EQ(checkConfig(c, p, t),
            "block_m = 128 needs math_warpgroups = 2, got 1");

  c = validConfig();
  c.stages = 6;
  EXPECT_EQ(checkConfig(c, p, t),
            "stages = 6 of 33296 bytes each plus 34304 fixed bytes need "
            "234080 bytes of shared memory, over the 232448 a block may use");
  c.stages = 0;
  EXPECT_EQ(checkConfig(c, p, t), "stages = 0 must be at least 1");

  c = validConfig();
  c.clusterSize = 4;
  EXPECT_EQ(checkConfig(c, p, t), "cluster_size = 4 is not 1 or 2");
  c.clusterSize = 1;
  EXPECT_EQ(checkConfig(c, p, t),
            "cluster_size = 1 does not go with multicast = a (a 2-CTA cluster "
            "multicasts a or b, a single CTA none)");

  c = validConfig();
  c.numSMs = 133;
  EXPECT_EQ(checkConfig(c, p, t), "num_sms = 133 is not in [1, 132]");
  c.numSMs = 127;
  EXPECT_EQ(checkConfig(c, p, t),
            "num_sms = 127 is not a multiple of cluster_size = 2");

  c = validConfig();
  c.swizzleGroup = 0;
  EXPECT_EQ(checkConfig(c, p, t), "swizzle_group = 0 must be at least 1");

  c = validConfig();
  c.blockN = 144; // 29 N blocks: A multicast cannot pair them.
  c.stages = 4;
  EXPECT_EQ(checkConfig(c, p, t),
            "multicast = a pairs N blocks, but N = 4096 has 29 blocks of "
            "block_n = 144 (an odd number)");

  ProblemDesc cont = contiguous(4, 8192, 4096, 7168);
  c = validConfig();
  c.blockM = 256;
  c.blockN = 64;
  EXPECT_EQ(checkConfig(c, cont, t),
            "block_m = 256 is not allowed for the grouped contiguous layout "
            "(groups are aligned to 128 rows)");
  // The contiguous layout pairs M blocks (a per-pair group check in the
  // kernel); the masked one does not.
  c = validConfig();
  c.multicast = Multicast::B;
  EXPECT_EQ(checkConfig(c, cont, t), "");
  EXPECT_EQ(checkConfig(c, masked(4, 8192, 4096, 7168), t),
            "multicast = b is only supported for the normal GEMM and the "
            "grouped contiguous layout, not the grouped masked layout");

  // A bad problem is reported before the config.
  EXPECT_EQ(checkConfig(validConfig(), normal(64, 4096, 100), t),
            "K must be a positive multiple of 128, got 100");
}

TEST(ConfigSelection, MulticastNames) {
  EXPECT_STREQ(toString(Multicast::None), "none");
  EXPECT_STREQ(toString(Multicast::A), "a");
  EXPECT_STREQ(toString(Multicast::B), "b");
}

} // namespace

TEST(ConfigSelection, MaskedGroupCountsTakeSharedMemory) {
  ProblemDesc p;
  p.kind = GemmKind::GroupedMasked;
  p.m = 256;
  p.n = 4096;
  p.k = 7168;
  p.groups = 4;
  int64_t four = fixedSmemBytes(128, 128, p);
  p.groups = 512;
  EXPECT_EQ(fixedSmemBytes(128, 128, p) - four, 4 * (512 - 4));
  p.kind = GemmKind::GroupedContiguous;
  EXPECT_EQ(fixedSmemBytes(128, 128, p), four - 4 * 4);
}

TEST(ConfigSelection, WeightGradientConfigs) {
  // 1x128 B scales: each thread also holds its columns' scales (blockN/4
  // registers) while it promotes.
  EXPECT_EQ(consumerRegistersNeeded(128, 128, 2, BScaleGranularity::Row1x128),
            consumerRegistersNeeded(128, 128, 2) + 32);
  // f32 outputs: block N a multiple of 32 (swizzled 32-column staging
  // chunks) unless the tile covers N; chosen configs fit the registers.
  // The weight shapes measured on the H200 (bench/ab_wgrad.py and the
  // two-bundle run of run_wgrad.py): 128x128 with its K blocks in pairs
  // (half the fixed cost) where its waves win, 128x192 at 2112x7168 (8
  // waves of 128x128 against 5 of 128x192, 1.5 times the work each).
  for (auto [m, n, k, bn] :
       {std::tuple<int64_t, int64_t, int64_t, int64_t>{4096, 7168, 8192, 128},
        {7168, 2048, 4096, 128}, {32768, 512, 4096, 128}, {24576, 1536, 8192, 128},
        {2112, 7168, 4096, 192}}) {
    ProblemDesc w = wgrad(m, n, k);
    KernelConfig c = selectConfig(w, TargetDesc(), kernelCapabilities());
    EXPECT_EQ(c.blockM, 128) << m << "x" << n;
    EXPECT_EQ(c.blockN, bn) << m << "x" << n;
  }
  // The pairs' rule the selection and the lowering share: two fresh
  // fragments and the total within the registers, whatever the kind.
  const int64_t regs = consumerRegisterBudget(2);
  EXPECT_TRUE(takesKBlockPairs(128, regs));
  EXPECT_FALSE(takesKBlockPairs(192, regs));
  // The k-grouped kernels pair K blocks too: 128x128 there, as for the
  // weight-gradient GEMM of the same total K.
  {
    KernelConfig c = selectConfig(kGrouped(4, 4096, 7168, 4096), TargetDesc(),
                                  kernelCapabilities());
    EXPECT_EQ(c.blockM, 128);
    EXPECT_EQ(c.blockN, 128);
  }
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{4096, 7168, 8192},
                         {7168, 2112, 4096}, {24576, 1536, 4096}, {200, 24, 256},
                         {512, 40, 1024}}) {
    ProblemDesc p = wgrad(m, n, k);
    KernelConfig c = selectConfig(p, TargetDesc(), kernelCapabilities());
    EXPECT_EQ(checkConfig(c, p, TargetDesc()), "") << m << "x" << n;
    int64_t n8 = (n + 7) / 8 * 8;
    EXPECT_TRUE(c.blockN % 32 == 0 || c.blockN >= n8) << m << "x" << n << ": " << c.blockN;
    // The fresh tile and the total fit; the column scales may not (the
    // kernel then releases stages after the promotion).
    EXPECT_LE(consumerRegistersNeeded(c.blockM, c.blockN, c.mathWarpgroups),
              consumerRegisterBudget(c.mathWarpgroups));
  }
  // The k-grouped problem: tiles of every group count.
  ProblemDesc kg = kGrouped(4, 4096, 7168, 4096);
  KernelConfig c = selectConfig(kg, TargetDesc(), kernelCapabilities());
  EXPECT_EQ(checkConfig(c, kg, TargetDesc()), "");
  EXPECT_EQ(countTiles(c, kg), 4 * ((4096 + c.blockM - 1) / c.blockM) *
                                   ((7168 + c.blockN - 1) / c.blockN));
}
