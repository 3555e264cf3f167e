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
  l.kBlocks = k / 128;
  l.nBlocks = (n + c.blockN - 1) / c.blockN;
  l.nScaleBlocks = (n + 127) / 128;
  l.swizzleGroup = c.swizzleGroup;
  l.maxCtas = c.numSMs;
  l.cluster = c.clusterSize;
  l.mcast = c.clusterSize;
  l.multicastB = c.multicast == ::dgemm::Multicast::B;
  // Swizzled staging removes the epilogue's bank conflicts (row-major rows
  // of 256 or 384 bytes put a warp's 8 rows in one bank group), at any K:
  // A/B in one process on the H200 (bench/ab_kernel_ir.py,
  // bench/results/2026-12-02-eb319a2-ab-swizzle-long-k.log) measured it
  // 2-7% faster than row-major at K = 7168-16384 (4096x4096x7168 1231 ->
  // 1287 TFLOPS, 4096x7168x16384 1316 -> 1350 with block M 256 at 232
  // registers; contiguous 4x8192x4096x7168 1244 -> 1291,
  // 2026-12-02-eb319a2-ab-contiguous.log), and -1..+2% at block M 64. (An
  // A/B on older kernels had it 4-6% slower at long K, so until eb319a2 it
  // was used at K <= 4096 only, and at any K in the masked layout.) f32
  // rows are twice as long: 32-column chunks.
  if (l.f32Out)
    l.dSwizzle = c.blockN % 32 == 0 ? 128 : 0;
  else
    l.dSwizzle = c.blockN % 64 == 0 ? 128 : 0;
  l.splitRegisters();
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
  // A's box cut to a small M's rows (a_box_rows): a stage receives that
  // many rows of A in its slot of blockM rows.
  l.aBoxRows = c.aBoxRows;
  l.txBytes = 128 * (l.aBoxRows ? l.aBoxRows : c.blockM) + l.bStageBytes +
              l.sfaStageBytes + (l.perRowB ? 4 * c.blockN : 0);
  l.dOff = 0;
  l.aOff = alignTo(l.outBytes() * c.blockM * c.blockN, 1024);
  l.bOff = l.aOff + c.stages * l.aStageBytes;
  l.sfaOff = alignTo(l.bOff + c.stages * l.bStageBytes, 128);
  l.sfbOff = alignTo(l.sfaOff + c.stages * l.sfaStageBytes, 128);
  l.bScaleRows = l.perRowB ? 0 : ::dgemm::bScaleBlocksSpanned(c.blockN);
  l.sfbBufferBytes = l.perRowB ? 0 : 4 * l.bScaleRows * l.kBlocks;
  int64_t sfbBytes =
      l.perRowB ? c.stages * l.sfbStageBytes : l.sfbBufferBytes;
  l.barOff = alignTo(l.sfbOff + sfbBytes, 8);
  l.countOff = l.barOff + 16 * c.stages;
  l.smemBytes = l.countOff + (l.groupsInSmem() ? 4 * l.groups : 0);
  return l;
}

void KernelLayout::bScaleBuffers(int64_t count) {
  int64_t moved = alignTo(sfbOff + count * sfbBufferBytes, 8) - barOff;
  barOff += moved;
  countOff += moved;
  smemBytes += moved;
}

void KernelLayout::stageBias() {
  biasOff = alignTo(barOff, 16);
  int64_t moved = alignTo(biasOff + consumers * 4 * blockN, 8) - barOff;
  barOff += moved;
  countOff += moved;
  smemBytes += moved;
  biasStaged = true;
}

void KernelLayout::splitRegisters() {
  // setmaxnreg pairs within the CTA's register pool (HOPPER-FACTS §7):
  // 256 threads: (24, 240); 384 threads: (40, 232).
  producerRegs = consumers == 1 ? 24 : 40;
  consumerRegs = ::dgemm::consumerRegisterBudget(consumers);
  if (consumers == 1 && tailSplit) {
    // The producer's 24 registers spill with the split tail's cluster
    // barriers: (40, 232), also verified at 256 threads.
    producerRegs = 40;
    consumerRegs = 232;
  }
  if (rowWaves == 2 && k > 4096 && kind == ::dgemm::GemmKind::Normal &&
      dSwizzle == 0) {
    // Block M 256 at long K with row-major staging: (72, 216) ran 1-4%
    // faster than (40, 232) on the H200 at 4096x7168x16384 and
    // 4096x4096x7168, ptxas spilling 9 registers at 232
    // (bench/results/2026-12-01-*-ab-bm256-r.log). With swizzled staging
    // 232 does not spill (60 kernels, N 1024-24576, K 4224-16384) and 216
    // does (28 bytes): 232. (The masked kernel has no spills at 232, 20
    // bytes at 216.)
    consumerRegs = 216;
    producerRegs = 504 - 2 * 216;
  }
}
