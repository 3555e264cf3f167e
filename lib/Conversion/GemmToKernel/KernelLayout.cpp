//===- KernelLayout.cpp - shared memory and threads of a GEMM kernel -------===//
//
// Offsets follow the table in KernelLayout.h; sizes agree with
// ::dgemm::stageBytes / fixedSmemBytes, which chose the stage count.
//
//===----------------------------------------------------------------------===//
#include "KernelLayout.h"

#include <algorithm>

using namespace mlir::dgemm;

static int64_t alignTo(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

KernelLayout KernelLayout::get(const ::dgemm::KernelConfig &c,
                               const ::dgemm::ProblemDesc &p, int64_t maxParts,
                               bool accumulate) {
  const int64_t n = p.n, k = p.k;
  KernelLayout l;
  l.kind = p.kind;
  l.groups = p.groups;
  l.perRowB = p.bScale == ::dgemm::BScaleGranularity::Row1x128;
  l.f32Out = p.out == ::dgemm::OutType::F32;
  l.accumulate = accumulate && l.f32Out;
  // Early release needs the columns' scales in registers on top of the
  // fresh tile and the total.
  l.lateRelease =
      l.perRowB &&
      ::dgemm::consumerRegistersNeeded(c.blockM, c.blockN, c.mathWarpgroups,
                                       p.bScale) >
          ::dgemm::consumerRegisterBudget(c.mathWarpgroups);
  l.m = p.m;
  l.groupOffsets = p.groupOffsets && l.contiguous();
  l.blockM = c.blockM;
  l.blockN = c.blockN;
  l.stages = c.stages;
  l.n = n;
  l.k = k;
  l.consumers = c.mathWarpgroups;
  l.rowWaves = std::max<int64_t>(c.blockM / (64 * std::max<int64_t>(l.consumers, 1)), 1);
  l.threads = 128 * (l.consumers + 1);
  // setmaxnreg pairs within the CTA's register pool (HOPPER-FACTS §7):
  // 256 threads: (24, 240); 384 threads: (40, 232).
  l.producerRegs = l.consumers == 1 ? 24 : 40;
  l.consumerRegs = ::dgemm::consumerRegisterBudget(l.consumers);
  if (l.rowWaves == 2 && k > 4096 && l.kind == ::dgemm::GemmKind::Normal) {
    // Block M 256 at long K: (72, 216) ran 1-4% faster than (40, 232) on
    // the H200 at 4096x7168x16384 and 4096x4096x7168, ptxas spilling 9
    // registers at 232 (bench/results/2026-12-01-*-ab-bm256-r.log); at
    // K <= 4096 (swizzled epilogue) 232 was 2-4% faster. (The masked
    // kernel is the other way round: no spills at 232, 20 bytes at 216.)
    l.consumerRegs = 216;
    l.producerRegs = 504 - 2 * 216;
  }
  l.kBlocks = k / 128;
  l.nBlocks = (n + c.blockN - 1) / c.blockN;
  l.nScaleBlocks = (n + 127) / 128;
  l.swizzleGroup = c.swizzleGroup;
  l.maxCtas = c.numSMs;
  l.cluster = c.clusterSize;
  l.mcast = c.clusterSize;
  // Swizzled staging removes the epilogue's bank conflicts, which matter when
  // a tile has few K blocks; with many it measured slower on the H200 (A/B in
  // one process, bench/ab_epilogue.py: K=512 +48%, K=7168 -4..0%, K=16384
  // -6%), so long-K kernels keep row-major staging. Masked kernels stage
  // swizzled at any K: their tiles crossing masked_m are then copied out
  // through the staging tile (KernelLayout::maskedStaged), and at K = 7168
  // they measured 0-7% faster than row-major with the direct partial store
  // (bench/ab_masked_gap.py, equal and drawn group sizes,
  // bench/results/2026-12-02-b956dc7-ab-masked-swizzle.log).
  // f32 rows are twice as long: 32-column chunks, and always swizzled when
  // they can be (row-major f32 rows of 128+ columns put a warp's 8 rows in
  // one bank group).
  if (l.f32Out)
    l.dSwizzle = c.blockN % 32 == 0 ? 128 : 0;
  else
    l.dSwizzle = c.blockN % 64 == 0 &&
                         (k <= 4096 || p.kind == ::dgemm::GemmKind::GroupedMasked)
                     ? 128
                     : 0;
  l.nParts = 1;
  for (int64_t parts = std::max<int64_t>(maxParts, 1); parts > 1; --parts)
    if (c.blockN % (8 * parts) == 0 && c.blockN / parts >= 32) {
      l.nParts = parts;
      break;
    }
  l.aStageBytes = 128 * c.blockM;
  l.bStageBytes = 128 * c.blockN;
  l.sfaStageBytes = 4 * c.blockM;
  // 1x128 recipe: the TMA box of B scales is BN floats (the transaction
  // counts the whole box, also columns past N).
  l.sfbStageBytes = l.perRowB ? alignTo(4 * c.blockN, 128) : 0;
  l.txBytes = l.aStageBytes + l.bStageBytes + l.sfaStageBytes +
              (l.perRowB ? 4 * c.blockN : 0);
  l.dOff = 0;
  l.aOff = alignTo(l.outBytes() * c.blockM * c.blockN, 1024);
  l.bOff = l.aOff + c.stages * l.aStageBytes;
  l.sfaOff = alignTo(l.bOff + c.stages * l.bStageBytes, 128);
  l.sfbOff = alignTo(l.sfaOff + c.stages * l.sfaStageBytes, 128);
  l.bScaleRows = l.perRowB ? 0 : ::dgemm::bScaleBlocksSpanned(c.blockN);
  int64_t sfbBytes =
      l.perRowB ? c.stages * l.sfbStageBytes : 4 * l.bScaleRows * l.kBlocks;
  l.barOff = alignTo(l.sfbOff + sfbBytes, 8);
  l.countOff = l.barOff + 16 * c.stages;
  l.smemBytes = l.countOff + (l.groupsInSmem() ? 4 * l.groups : 0);
  return l;
}
