//===- KernelLayout.h - shared memory and threads of a GEMM kernel -*- C++ -*-===//
//
// What a config and the static sizes fix about one kernel: its warpgroups and
// register split, and where each buffer lives in dynamic shared memory:
//
//   0        D staging tile      BM*BN*E   (E = 2 for bf16, 4 for f32)
//   aOff     A stages            S * BM*128   (SW128 tiles, 1024-aligned)
//   bOff     B stages            S * BN*128
//   sfaOff   A-scale stages      S * BM*4     (128-aligned TMA destinations)
//   sfbOff   the tile's B scales 2 * K/128 * 4 (rows nb0 and nb1, per tile;
//                                128x128 recipe; two such buffers per
//                                consumer warpgroup with
//                                b-scale-prefetch, one per warpgroup with
//                                b-scale-copy=warpgroup, auto's choice for
//                                the contiguous layout), or B-scale stages
//                                S * roundUp(BN*4, 128) (1x128 recipe)
//   barOff   full[S], empty[S]   16*S         (8-byte mbarriers)
//   countOff masked_m copy       4*G          (masked layout, or the
//                                              contiguous offsets)
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_LIB_CONVERSION_GEMMTOKERNEL_KERNELLAYOUT_H
#define DGEMM_LIB_CONVERSION_GEMMTOKERNEL_KERNELLAYOUT_H

#include "dgemm/Config/ConfigSelection.h"

#include <cstdint>
#include <string>

namespace mlir::dgemm {

struct KernelLayout {
  int64_t blockM, blockN, stages, n, k;
  int64_t consumers;        // math warpgroups
  /// m64 row waves per consumer warpgroup: 1, or 2 at block M 256 (each
  /// consumer computes rows 64w.. and 64 * consumers further down, one
  /// wave after the other, reusing one fresh wgmma fragment).
  int64_t rowWaves;
  /// K blocks per iteration of the consumers' K loop: 1, or 2 (both
  /// blocks' wgmmas issued before the first is promoted; two fresh
  /// fragments: one row wave, one part, 128x128 B scales).
  int64_t kUnroll = 1;
  int64_t threads;          // 128 * (consumers + 1)
  /// Block M 64 with two consumer warpgroups that split the K blocks
  /// (dgemm-lower-to-kernel{consumer-k-split}): each computes all 64 rows
  /// over every other K block; warpgroup 1 hands its sums to warpgroup 0
  /// through the staging tile, which stores the tile.
  bool kSplit = false;
  int64_t producerRegs, consumerRegs;
  int64_t kBlocks;          // K / 128
  int64_t nBlocks;          // ceil(N / BN)
  int64_t nScaleBlocks;     // ceil(N / 128)
  int64_t swizzleGroup, maxCtas;
  /// The tile's columns are computed as `nParts` wgmma chains of BN/nParts
  /// columns, committed separately, so that promoting one part overlaps the
  /// tensor cores' work on the next.
  int64_t nParts;
  /// CTAs per cluster: 2 with multicast (A: the pair shares an M block and
  /// takes neighbouring N blocks, each loading half of A's rows for both;
  /// B: the pair shares an N block and takes neighbouring M blocks, each
  /// loading half of B's rows for both), or with `tailSplit`.
  int64_t cluster;
  /// CTAs that share every stage by multicast: `cluster` with multicast,
  /// else 1 (the empty barriers count the consumers of all of them).
  int64_t mcast = 1;
  /// The multicast operand is B (normal GEMM and contiguous layout), not A.
  bool multicastB = false;
  /// CTAs that share A's tile (the N blocks a unit of work pairs) and B's
  /// (the M blocks it pairs): mcast for the multicast operand, else 1.
  int64_t mcastA() const { return multicastB ? 1 : mcast; }
  int64_t mcastB() const { return multicastB ? mcast : 1; }
  /// Normal GEMM, bf16 D: the last wave's tiles, when they fill at most half
  /// of the grid, are each computed by a 2-CTA cluster, one half of the K
  /// blocks per CTA; rank 1 adds its partial sums into rank 0's shared
  /// memory (distributed shared memory), rank 0 stores the tile
  /// (dgemm-lower-to-kernel{tail-split=on}).
  bool tailSplit = false;
  /// Multicast: the producer drains the ring before exit instead of a
  /// cluster barrier at the end (dgemm-lower-to-kernel{multicast-exit=drain}).
  bool drainExit = false;
  /// L2 eviction priority of the TMA loads of A and B
  /// (dgemm-lower-to-kernel{l2-hint-a,l2-hint-b}): "" (no hint), or
  /// "evict_first", "evict_last", "evict_normal" (a `createpolicy` policy
  /// passed with each load).
  std::string l2HintA, l2HintB;
  /// L2 eviction priority of D's TMA stores (dgemm-lower-to-kernel
  /// {l2-hint-d}), as l2HintA; "" (no hint) by default.
  std::string l2HintD;
  /// Rows of A's TMA box when fewer than the tile's (#dgemm.config's
  /// a_box_rows; normal GEMM of one M block, no multicast): the stage's
  /// other A rows are never written, and the kernel serves M <= aBoxRows
  /// only (the contract's max_m). 0: the tile's rows.
  int64_t aBoxRows = 0;
  /// Masked layout: a tile crossing masked_m goes through the staging tile
  /// and out in 16-byte row pieces (dgemm-lower-to-kernel
  /// {masked-partial-store}, needs N % 8 == 0), else straight from
  /// registers in 4-byte pairs.
  bool maskedStaged = false;
  /// maskedStaged was set by masked-partial-store against its 'auto' rule
  /// (the kernel name then ends in _ps or _pd).
  bool maskedStoreOverride = false;
  /// Masked layout: tiles walked by cost (dgemm-lower-to-kernel
  /// {masked-walk=cost}): M blocks by their count of 64-row waves with
  /// valid rows, most first, each class visiting the groups in order; a
  /// CTA's odd-numbered tiles are taken from the far end of their round.
  bool costWalk = false;
  /// Each consumer warpgroup stages and stores its own rows of the output
  /// tile (dgemm-lower-to-kernel{epilogue-sync=warpgroup}): D's box is
  /// blockM / rowWarpgroups() rows; epilogueSyncOverride: set against
  /// 'auto' (kernel name _ew / _et).
  bool epilogueWarpgroup = false;
  bool epilogueSyncOverride = false;
  /// bf16 output: the epilogue writes the staging tile with stmatrix
  /// (dgemm-lower-to-kernel{staging-store}); stagingStoreOverride: chosen
  /// against 'auto' (kernel name _sx, or _sst for shared).
  bool stagingStmatrix = false;
  bool stagingStoreOverride = false;
  /// The warpgroup index taken from lane 0 (shfl.sync), which ptxas knows
  /// to be warp-uniform (dgemm-lower-to-kernel{uniform-warpgroup}).
  bool uniformWarpgroup = false;
  /// The consumers' K loop in rounds of `stages` K blocks, ring slot j in
  /// the j-th copy of the body, so that stage addresses and wgmma
  /// descriptors are constants (dgemm-lower-to-kernel{stage-unroll}; K
  /// blocks one at a time, no K split).
  bool stageUnrolled = false;
  /// stageUnrolled / uniformWarpgroup set against their options' 'auto'
  /// rule (the kernel name then ends in _su or _nsu, _uw or _nuw).
  bool stageUnrollOverride = false;
  /// Each K block tests the next ring entry's full barrier once it
  /// released its own stage, and the next K block waits only where that
  /// failed (dgemm-lower-to-kernel{early-full-wait}: auto in the
  /// stage-unrolled loop, 'on' also in the one-block loop); the override
  /// (kernel name _fw / _nfw) where it differs from the auto rule.
  bool earlyFullWait = false;
  bool earlyFullWaitOverride = false;
  /// The early test is one mbarrier.try_wait.parity (its answer comes when
  /// the stage fills or the hardware's time limit passes), not a
  /// test_wait (dgemm-lower-to-kernel{early-wait-kind=try}; kernel name
  /// _tw).
  bool earlyTryWait = false;
  /// Stage-unrolled, normal or contiguous, K blocks a multiple of the
  /// stages: every tile starts at ring slot 0 and runs whole rounds, so
  /// the copies of the body are not guarded by a test of their K block
  /// (dgemm-lower-to-kernel{full-rounds}; kernel name _fr where set against
  /// the auto rule).
  bool fullRounds = false;
  bool fullRoundsOverride = false;
  /// Normal and contiguous layouts: the persistent walk groups
  /// swizzleGroup M blocks (M units with B multicast) instead of N blocks,
  /// M fastest in a group (dgemm-lower-to-kernel{tile-order=m}; kernel
  /// name _tm).
  bool tileOrderM = false;
  /// Stage-unrolled at block N 192 with 128x128 B scales: two versions of
  /// the round loop, for a tile that starts at a scale-block boundary and
  /// for one that starts half way into a block, so that the promotions'
  /// choice of B scale is a constant (dgemm-lower-to-kernel
  /// {promote-versions}; kernel name _pv where set against the auto rule).
  bool promoteVersions = false;
  bool promoteVersionsOverride = false;
  /// Stage-unrolled with 128x128 B scales: each copy of the body loads the
  /// next K block's B scales (from the tile's scale buffer, which needs no
  /// barrier) once it released its stage, before its promotion, and hands
  /// them to the next copy, so that their shared-memory latency runs
  /// beside the promotion instead of between the next wgmmas
  /// (dgemm-lower-to-kernel{early-b-scales}; kernel name _eb / _neb where
  /// set against the auto rule).
  bool earlyBScales = false;
  bool earlyBScalesOverride = false;
  /// Stage-unrolled: each copy's A tile pointer (pinDescriptorsB: and B's)
  /// plus an opaque 0, so that LLVM computes those wgmma descriptors in the
  /// copy instead of hoisting those of every slot out of the loop
  /// (dgemm-lower-to-kernel{pin-descriptors}); pinOverride: set against
  /// 'auto' (kernel name _pina / _pin / _npin).
  bool pinDescriptors = false;
  bool pinDescriptorsB = false;
  bool pinOverride = false;
  bool uniformWarpgroupOverride = false;
  /// 128 when the epilogue stages D in 64-column chunks with 128-byte
  /// swizzle (block N a multiple of 64; f32: 32-column chunks, block N a
  /// multiple of 32), else 0 (row-major staging).
  int64_t dSwizzle;
  /// Normal, or one of the m-grouped layouts (then `groups` experts, B
  /// [G, N, K] through a 3-D tensor map; masked: A [G, M_max, K] and D
  /// [G, M_max, N] too, tiles that are partly past masked_m[g] written by
  /// row-predicated stores).
  ::dgemm::GemmKind kind = ::dgemm::GemmKind::Normal;
  int64_t groups = 1;
  /// The weight-gradient variants: B scaled per row per 128 K (1x128: the
  /// tile's B scales arrive with each stage by TMA, and each column has its
  /// own), an f32 output, and whether the tile is added into D (TMA
  /// reduce-add: D += A * B^T) rather than stored.
  bool perRowB = false;
  bool f32Out = false;
  bool accumulate = false;
  /// Epilogue fusion (normal layout, bf16 output): the consumers add
  /// bias[column] (f32 [N], kernel parameter kBiasPtr) to their totals
  /// before the epilogue store (dgemm.add_bias).
  bool bias = false;
  /// With a bias: each consumer warpgroup stages its tile's bias columns in
  /// a buffer of its own at biasOff (4 * blockN bytes each): loaded at the
  /// tile's start into registers, stored after the K loop, read by the
  /// epilogue (stageBias()). Without it (no room) the epilogue loads them
  /// from global memory, prefetched into L1 at the tile's start.
  bool biasStaged = false;
  int64_t biasOff = 0;
  /// Makes room for the bias buffers (after the B-scale buffers: call it
  /// after bScaleBuffers) and sets biasStaged.
  void stageBias();
  /// 1x128 recipe: the consumers release a stage after the promotion (which
  /// reads the columns' B scales from it) instead of before (scales loaded
  /// into registers first: blockN/4 more registers while promoting).
  bool lateRelease = false;
  /// Two consumer warpgroups issue each K block's wgmmas in turn (warpgroup
  /// 0 first), handing over through named barriers 3 and 4.
  bool pingpong = false;
  /// 128x128 recipe: the B-scale rows the kernel copies per tile, one per
  /// 128-wide block its columns span (2 or 3).
  int64_t bScaleRows = 2;
  /// 128x128 recipe: bytes of one buffer of the tile's B-scale rows.
  int64_t sfbBufferBytes = 0;
  /// The consumers load the next tile's B scales before the K loop and
  /// store them after it into the other of two buffers at sfbOff, one pair
  /// per consumer warpgroup (dgemm-lower-to-kernel{b-scale-prefetch});
  /// bScalePrefetchOverride: turned off against auto.
  bool bScalePrefetch = false;
  bool bScalePrefetchOverride = false;
  /// dgemm-lower-to-kernel{b-scale-copy}: without the prefetch, each
  /// consumer warpgroup copies the tile's B scales into a buffer of its own
  /// (buffer w at sfbOff), met at its own named barrier 9 + w ('auto': the
  /// contiguous layout); bScaleCopyOverride: chosen against auto.
  bool bScaleCopyOwn = false;
  bool bScaleCopyOverride = false;
  /// Makes room for `count` B-scale buffers at sfbOff (moves the barriers
  /// and what follows them): 2 * consumers with b-scale-prefetch,
  /// consumers with bScaleCopyOwn.
  void bScaleBuffers(int64_t count);
  /// With pingpong: the turn passes when the warpgroup's wgmmas complete
  /// (consumer-order=handoff) instead of when they are issued.
  bool handoff = false;
  /// Contiguous layout (m_indices): each tile loads the next tile's
  /// groups and carries them to it (dgemm-lower-to-kernel{group-prefetch}).
  bool groupPrefetch = false;
  /// Contiguous layout given by offsets[G] (end row of each group) instead
  /// of m_indices; the kernel keeps a copy at countOff like masked_m.
  bool groupOffsets = false;
  /// k-grouped only: the static M (rows of every D[g]).
  int64_t m = 0;
  int64_t dOff, aOff, bOff, sfaOff, sfbOff, barOff, countOff, smemBytes;
  int64_t aStageBytes, bStageBytes, sfaStageBytes, sfbStageBytes, txBytes;

  /// `maxParts`: the most wgmma chains to split the tile's columns into
  /// (each a multiple of 8 columns, at least 32).
  /// `p` gives the kind, groups, N, K, output type and B-scale recipe;
  /// `accumulate`: f32 output added into D.
  static KernelLayout get(const ::dgemm::KernelConfig &c,
                          const ::dgemm::ProblemDesc &p, int64_t maxParts = 2,
                          bool accumulate = false);

  /// Consumer warpgroups with rows of their own: each reads every stage
  /// (its empty barrier counts their warps) and stores its rows (1 with the
  /// K split, where both warpgroups hold the same 64 rows).
  int64_t rowWarpgroups() const { return kSplit ? 1 : consumers; }
  /// Rows of D's TMA box: the tile's, or one warpgroup's share of a row
  /// wave (64).
  int64_t dBoxRows() const {
    return epilogueWarpgroup ? blockM / rowWarpgroups() / rowWaves : blockM;
  }
  /// producerRegs and consumerRegs (setmaxnreg) for the consumer count, row
  /// waves and epilogue staging (dSwizzle); get() calls it, and the
  /// lowering again after its options change those.
  void splitRegisters();
  bool grouped() const { return kind != ::dgemm::GemmKind::Normal; }
  bool masked() const { return kind == ::dgemm::GemmKind::GroupedMasked; }
  bool contiguous() const {
    return kind == ::dgemm::GemmKind::GroupedContiguous;
  }
  bool kGrouped() const { return kind == ::dgemm::GemmKind::KGrouped; }
  /// The group counts the kernel copies to shared memory (masked_m, or the
  /// contiguous layout's offsets).
  bool groupsInSmem() const { return masked() || groupOffsets; }
  int64_t outBytes() const { return f32Out ? 4 : 2; }
  /// k-grouped: bytes of the group table parameter (the template maps of
  /// A's and B's blocks, then per group two i32: K blocks and the first K
  /// block in the scales).
  int64_t groupTableBytes() const { return 256 + 8 * groups; }
  /// k-grouped: slots of the per-CTA ring of group maps in the workspace
  /// (each slot the maps of A_g and B_g, 256 bytes). A slot is rewritten
  /// stages + 1 non-empty tiles after its last use: by then the producer
  /// has waited for the consumers to release every stage that tile filled
  /// (GemmKernel.cpp), so no TMA load still reads it.
  int64_t groupMapSlots() const { return stages + 1; }
};

} // namespace mlir::dgemm

#endif // DGEMM_LIB_CONVERSION_GEMMTOKERNEL_KERNELLAYOUT_H
