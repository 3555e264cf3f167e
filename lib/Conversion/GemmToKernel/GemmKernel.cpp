//===- GemmKernel.cpp - build the kernel IR of an FP8 GEMM ----------------===//
//
// The kernel, for a config (BM, BN, S stages, NC consumer warpgroups):
//
//   thread 0: init full[s] (1 arrival), empty[s] (4*NC arrivals); fence
//   barrier over all threads
//   warpgroup NC (producer, setmaxnreg dec): one elected thread
//     for tile t = ctaid; t < tiles; t += nctas      (persistent)
//       (mb, nb) = schedule_tile(t)
//       for kb < K/128:   s = it % S, ph = (it / S) & 1, it++
//         wait empty[s] (parity ph ^ 1); arm full[s] with the stage's bytes
//         TMA A[m0.., kb] -> A[s], B[n0.., kb] -> B[s], SFA[kb][m0..] -> SFA[s]
//   warpgroups 0..NC-1 (consumers, setmaxnreg inc): same tile loop
//       (per-warpgroup epilogue or masked: all consumers meet at named barrier 1)
//       copy the tile's two (or three) rows of B scales (K/128 each) to shared memory
//       (b-scale-prefetch: each warpgroup has two buffers of its own; the
//        first tile copies, each tile meets at the warpgroup's barrier 9 + w,
//        loads the next tile's rows into registers, and after its K loop
//        stores them into the other buffer; b-scale-copy=warpgroup, auto's
//        choice for the contiguous layout: one buffer per warpgroup, copied
//        between two meetings of 9 + w)
//       total = 0
//       for kb:  wait full[s] (parity ph); read sa(r0), sa(r1), sb0, sb1
//                fence; for each column part p (P parts of BN/P columns):
//                  acc[p] = wgmma_tile(A[s] rows 64w.., B[s] rows of p); commit
//                for each p: wait until P-1-p groups are pending
//                  (after the last: lane 0 of each warp arrives on empty[s])
//                  total[p] = promote(total[p], acc[p], scales)
//                so promoting part p overlaps the tensor cores on part p+1
//       epilogue_store(total) -> D[m0.., n0..]   (the TMA store drains while
//                                                 the next tile runs)
//   Stage-unrolled (the default for kernels of one K block per iteration
//   with at least 8 K blocks): the consumers' K loop runs rounds r of S
//   copies of the K block, copy j on ring slot j with parity r & 1, each
//   skipped when its K block r*S + j - it lies outside the tile, so that
//   stage addresses and wgmma descriptors are constants; the warpgroup
//   index comes from lane 0 (shfl) so that ptxas keeps the loop on the
//   uniform datapath (docs/kernel.md, "Stage-unrolled K loop").
//   Block M 256 (two consumers, two row waves): per K block each consumer
//   runs the above for its rows 64w.. (wave 0), then for the rows 128
//   further down (wave 1), the second wave's fresh fragment reusing the
//   first's registers; the stage is released after the last wave's wgmmas.
//   Registers: one fresh fragment and two totals (3 * BN/2 f32).
//     thread 0 waits for its last store before the CTA exits
//
// With A multicast (cluster of 2 CTAs): the pair walks units of two
// neighbouring N blocks with one M block (CTA rank r takes N block 2u + r);
// each producer loads rows [r*BM/2, (r+1)*BM/2) of the A tile into both CTAs
// (multicast mask 0b11), so full[s] still expects the whole tile's bytes. B
// multicast (normal GEMM, contiguous layout) is the same along M: units of
// two neighbouring M blocks with one N block (rank r takes M block 2u + r,
// the last one past M when the M blocks are odd: TMA fills its A with zeros
// and drops its store), each producer loading rows [r*BN/2, (r+1)*BN/2) of
// B for both. The contiguous layout checks each pair's groups on the
// device: both CTAs read both blocks' groups; where they are one group B
// is shared as above, else each producer loads its own group's whole B
// tile (two half boxes, no mask: full[s] expects the same bytes); a block
// of -1 (or past M) computes with its peer's group and stores its tile
// past M's last block (TMA writes none of it); a pair of two -1 blocks is
// skipped by both CTAs, so the shared ring stays in step. A
// stage is free only when the consumers of both CTAs released it: empty[s]
// counts 2*4*NC arrivals, lanes 0 and 1 of each consumer warp arriving on
// CTA 0's and CTA 1's barrier. A cluster barrier after the ring's
// initialisation keeps a CTA from arriving on a peer's barrier before it is
// there, and one before exit from leaving while its peer may still touch
// it. With multicast-exit=drain the exit barrier is replaced: the elected
// producer thread waits on the empty barrier of each of the S ring slots
// after its last load (drainRing), so a CTA leaves only after both CTAs'
// consumers released everything it loaded: its peer no longer arrives on
// its barriers, and (each consumer waiting for every load into its own
// CTA) nothing is multicast into it.
//
// Grouped layouts (the same kernel, tile loop and ring):
//   contiguous: A [M_sum, K] and D [M_sum, N] as in the normal GEMM, B
//     [G, N, K] through a 3-D map (coordinates k0, n0, g); each M block
//     reads its group g = m_indices[m0] (groups are padded to 128 rows, so
//     a block of at most 128 rows has one group); g < 0 (padding) skips the
//     tile in both roles: no loads, no math, D untouched (with B multicast
//     a -1 block whose peer has a group is computed, not stored: above).
//   masked: A [G, M_max, K] through a 3-D map, so a tile never reads
//     another group's rows; the tiles of group g are the
//     ceil(min(masked_m[g], M_max) / BM) M blocks x N blocks, walked in
//     group order: a CTA keeps (g, first tile of g) and moves forward as its
//     tile index grows, reading masked_m (copied to shared memory at the
//     start: the walk reads it per tile) on the device (the launch does not
//     depend on it); a tile whose rows are all below masked_m[g] is stored
//     as in the normal kernel (TMA store through a 3-D map of D), one that
//     crosses it goes through the same staging tile and the consumer
//     threads copy its valid rows out in 16-byte pieces (dgemm.epilogue_store
//     with rows; with masked-partial-store=direct, or at block M 256 with
//     row-major staging, straight from registers: dgemm.epilogue_store_rows); the
//     consumers meet at a named barrier before the next tile's B scales
//     overwrite shared memory. Option (off by default): masked-walk=cost
//     walks the M blocks by their count of 64-row waves with valid rows,
//     fullest first, every other round in reverse.
//   masked with a second tile shape (config alt_block_m; buildGemmKernel's
//     `alt`): the entry block loads masked_m (thread 0 setting up the first
//     shape's ring meanwhile: RingInit), counts both shapes' tiles and
//     branches to the body of the shape whose ceil(tiles / CTAs) rounds cost
//     less (takesAltShape); each body is this kernel for its layout, on its
//     own CTA count, with its maps at kMapA.. or kAltMapA...
//
// Weight-gradient form (1x128 B scales, f32 D, optionally D += A * B^T):
// each stage also receives the tile's BN B scales of its K block by TMA (a
// box of BN floats of the [K/128, N] scales, coordinates (n0, kb)); after
// the K block's wgmmas complete, each consumer thread reads its columns'
// scale pairs from the stage, releases it, and promotes with
// dgemm.promote_cols (a scale per column). The epilogue stages f32 (32-column
// chunks, 128-byte swizzle) and stores the tile, or adds it into D with a
// TMA reduce-add (`accumulate`).
//
// Contiguous given by offsets: offsets[G] is copied to shared memory like
// masked_m, and each M block's group is the first g whose end row is past
// the block's first row (blocks in padding or past every end are skipped).
//
// k-grouped (dgemm.k_grouped_gemm, KGroupedKernelParam): tile t belongs to
// group t / (M blocks * N blocks); for the first tile of each group it
// meets, the producer writes the maps of A_g and B_g from the templates in
// the group table into the next slot of its CTA's ring in the workspace
// (TensorMapUpdate.h); it loads that tile and the group's later ones
// through them, and the scales at row (first K block of g) + kb; both
// roles run the group's K blocks and skip groups that have none;
// D[g] += the tile through a 3-D map.
//
// The ring counter `it` runs on across tiles, so producer and consumers agree
// on stage and parity without talking. Rows of a thread: r0 = 64w + 16*warp
// + lane/4 and r0 + 8 (the wgmma fragment layout, HOPPER-FACTS §2).
//
// This file holds the kernel function, the two-shape entry and the body's
// frame and ring set-up; GemmKernelBuilder.h lists where the builder's other
// members are (tile walks, producer, consumers).
//
//===----------------------------------------------------------------------===//
#include "GemmKernelBuilder.h"

#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dgemm;

namespace mlir::dgemm::kernel_builder {

void GemmKernelBuilder::buildRingInit() {
  smem = LLVM::AddressOfOp::create(b, loc, k.ptr3, smemSymbol);
  tid = k.tid();
  initRing();
}

void GemmKernelBuilder::build() {
  smem = LLVM::AddressOfOp::create(b, loc, k.ptr3, smemSymbol);
  tid = k.tid();
  Value wg = k.divu(tid, k.c32(128));
  // Through lane 0: ptxas then knows the warpgroup index to be uniform
  // across the warp, and the A tile's wgmma descriptors (rows 64 * wg..)
  // can stay in uniform registers.
  if (l.uniformWarpgroup)
    wg = k.laneZero(wg);
  initBarriers();
  if (l.kGrouped()) {
    // Static sizes: every group has M x N outputs.
    numMBlocks = k.c32((l.m + l.blockM - 1) / l.blockM);
    tiles = k.c32(l.groups * ((l.m + l.blockM - 1) / l.blockM) * l.nBlocks);
  } else {
    Value m = fn.getArgument(kM);
    numMBlocks = k.ceilDiv(m, l.blockM); // unused when masked
    // Units of work: tiles, or with a cluster, pairs of neighbouring tiles
    // (along N with A multicast, along M with B multicast: an odd last M
    // block pairs with one past M, whose loads of A fill zeros and whose
    // store writes nothing, while its CTA still loads its half of B).
    numMUnits = l.mcastB() > 1 ? k.ceilDiv(numMBlocks, l.mcastB())
                               : numMBlocks;
    tiles = k.mul(numMUnits, k.c32(l.nBlocks / l.mcastA()));
  }
  if (l.mcast > 1) {
    rank = NVVM::ClusterId::create(b, loc, k.i32);
    firstTile = NVVM::ClusterIdXOp::create(b, loc, k.i32);
    tileStep = NVVM::ClusterDimXOp::create(b, loc, k.i32);
  } else {
    firstTile = k.ctaId();
    tileStep = ownCtas ? ownCtas : k.numCtas();
  }
  if (l.tailSplit) {
    // The last wave's tiles (tiles % CTAs of them) are split when they
    // fill at most half of the grid: the pair of cluster c takes tail
    // tile c, rank r the r-th half of its K blocks.
    rank = NVVM::ClusterId::create(b, loc, k.i32);
    tailTiles = k.remu(tiles, tileStep);
    Value split = arith::AndIOp::create(
        b, loc, k.ult(k.c32(0), tailTiles),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                              k.mul(tailTiles, k.c32(2)), tileStep));
    fullTiles = arith::SelectOp::create(b, loc, split,
                                        k.sub(tiles, tailTiles), tiles);
    hasTail = arith::AndIOp::create(
        b, loc, split, k.ult(k.divu(firstTile, k.c32(2)), tailTiles));
  }

  auto roles = scf::IfOp::create(b, loc, k.eq(wg, k.c32(l.consumers)),
                                 /*withElseRegion=*/true);
  b.setInsertionPointToStart(roles.thenBlock());
  buildProducer();
  b.setInsertionPointToStart(roles.elseBlock());
  buildConsumer(wg);
  b.setInsertionPointAfter(roles);
  if (l.tailSplit) {
    // The producer warpgroup's side of the tail tile's two cluster
    // barriers (the consumers meet them before their epilogue).
    auto tail = scf::IfOp::create(
        b, loc,
        arith::AndIOp::create(b, loc, hasTail,
                              k.eq(wg, k.c32(l.consumers))),
        false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(tail.thenBlock());
    for (int i = 0; i < 2; ++i) {
      NVVM::ClusterArriveOp::create(b, loc, nullptr);
      NVVM::ClusterWaitOp::create(b, loc, nullptr);
    }
  }
  if (l.cluster > 1 && !l.drainExit) {
    // No CTA leaves while its peer may still multicast into it, arrive on
    // its barriers or read its partial sums. (With multicast-exit=drain
    // the producer drains the ring instead, drainRing: this barrier keeps
    // the producer warpgroup's idle warps waiting for the whole kernel and
    // puts a GPU-scope fence, MEMBAR.ALL.GPU, before each thread's arrive;
    // DeepGEMM's multicast kernels have none.)
    NVVM::ClusterArriveOp::create(b, loc, nullptr);
    NVVM::ClusterWaitOp::create(b, loc, nullptr);
  }
  LLVM::ReturnOp::create(b, loc, ValueRange());
}

Value GemmKernelBuilder::fullBarrier(Value s) {
  return k.byteAt(k.byteAt(smem, l.barOff), k.mul(s, k.c32(8)));
}

Value GemmKernelBuilder::emptyBarrier(Value s) {
  return k.byteAt(k.byteAt(smem, l.barOff + 8 * l.stages),
                  k.mul(s, k.c32(8)));
}

Value GemmKernelBuilder::stageBuffer(int64_t offset, int64_t stageBytes, Value s) {
  return k.byteAt(k.byteAt(smem, offset), k.mul(s, k.c32(stageBytes)));
}

void GemmKernelBuilder::waitParity(Value barrier, Value parity) {
  // Suspend-time hint in ns for each try (the loop retries until done).
  NVVM::MBarrierTryWaitParityOp::create(b, loc, barrier, parity,
                                        k.c32(0x989680));
}

Value GemmKernelBuilder::testParity(Value barrier, Value parity) {
  if (!l.earlyTryWait)
    return NVVM::MBarrierTestWaitOp::create(b, loc, k.i1, barrier, parity);
  // One try_wait, no loop (the NVVM op loops until the phase completes):
  // its predicate is written when the phase completes or the try's time
  // limit passes, and the instructions after it issue meanwhile.
  Value ready = k.inlinePtxI32(
      "{\n\t.reg .pred p;\n\t"
      "mbarrier.try_wait.parity.shared.b64 p, [$1], $2;\n\t"
      "selp.b32 $0, 1, 0, p;\n\t}",
      "=r,r,r", {barrier, parity}, /*sideEffects=*/true);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, ready,
                               k.c32(0));
}

std::pair<Value, Value> GemmKernelBuilder::ringSlot(Value i) {
  Value s = k.remu(i, k.c32(l.stages));
  return {s, k.andi(k.divu(i, k.c32(l.stages)), k.c32(1))};
}

void GemmKernelBuilder::waitSlotReleased(Value s, Value phase) {
  waitParity(emptyBarrier(s), k.xori(phase, k.c32(1)));
}

Value GemmKernelBuilder::tensorMap(GemmKernelParam p) {
  return fn.getArgument(altShape ? kAltMapA + (p - kMapA) : p);
}

Value GemmKernelBuilder::sfbMap() {
  return fn.getArgument(l.kGrouped() ? kKgMapSFB : kSFBPtr);
}

void GemmKernelBuilder::initBarriers() {
  if (!ring.isDone())
    initRing();
  // The replaced barriers are invalidated before any other thread may
  // write shared memory that covers them (the group counts).
  if (ring.replaced)
    NVVM::Barrier0Op::create(b, loc);
  initShared();
}

void GemmKernelBuilder::initRing() {
  auto first = scf::IfOp::create(b, loc, k.eq(tid, k.c32(0)),
                                 /*withElseRegion=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(first.thenBlock());
  if (const KernelLayout *old = ring.replaced)
    for (int64_t s = 0; s < 2 * old->stages; ++s)
      NVVM::MBarrierInvalOp::create(b, loc,
                                    k.byteAt(smem, old->barOff + 8 * s));
  for (int64_t s = 0; s < l.stages; ++s) {
    NVVM::MBarrierInitOp::create(b, loc, k.byteAt(smem, l.barOff + 8 * s),
                                 k.c32(1), Value());
    NVVM::MBarrierInitOp::create(
        b, loc, k.byteAt(smem, l.barOff + 8 * (l.stages + s)),
        k.c32(4 * l.rowWarpgroups() * l.mcast), Value());
  }
  NVVM::FenceMbarrierInitOp::create(b, loc);
  SmallVector<Value, 5> maps;
  if (l.kGrouped()) {
    maps = {fn.getArgument(kKgMapSFA), fn.getArgument(kKgMapSFB),
            fn.getArgument(kKgMapD)};
  } else {
    for (GemmKernelParam p : {kMapA, kMapSFA, kMapB, kMapD})
      maps.push_back(tensorMap(p));
    if (l.perRowB)
      maps.push_back(sfbMap());
  }
  for (Value map : maps)
    NVVM::PrefetchOp::create(b, loc, /*cacheLevel=*/nullptr,
                             /*evictPriority=*/nullptr, map,
                             /*predicate=*/Value(), b.getUnitAttr());
}

void GemmKernelBuilder::initShared() {
  if (l.groupsInSmem() && !loadedCounts.empty()) {
    // masked_m as the entry block of a two-shape kernel loaded it (every
    // group, in every thread): thread g stores group g's.
    auto copy = scf::IfOp::create(b, loc, k.ult(tid, k.c32(l.groups)),
                                  false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(copy.thenBlock());
    Value v = loadedCounts.back();
    for (int64_t gi = l.groups - 2; gi >= 0; --gi)
      v = arith::SelectOp::create(b, loc, k.eq(tid, k.c32(gi)),
                                  loadedCounts[gi], v);
    LLVM::StoreOp::create(b, loc, v,
                          k.elementAt(k.byteAt(smem, l.countOff), tid, 4));
  } else if (l.groupsInSmem()) {
    // masked_m (or the contiguous layout's offsets) into shared memory:
    // the tile walks read it per tile.
    auto copy = scf::ForOp::create(b, loc, tid, k.c32(l.groups),
                                   k.c32(l.threads));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(copy.getBody());
    Value gi = copy.getInductionVar();
    Value v = LLVM::LoadOp::create(
        b, loc, k.i32, k.elementAt(fn.getArgument(kGroups), gi, 4));
    LLVM::StoreOp::create(b, loc, v,
                          k.elementAt(k.byteAt(smem, l.countOff), gi, 4));
  }
  if (l.kGrouped())
    copyMapTemplates();
  if (l.cluster > 1) {
    // The peer's barriers are initialised before anyone uses them.
    NVVM::ClusterArriveOp::create(b, loc, nullptr);
    NVVM::ClusterWaitOp::create(b, loc, nullptr);
  } else {
    NVVM::Barrier0Op::create(b, loc);
  }
}

} // namespace mlir::dgemm::kernel_builder

using kernel_builder::GemmKernelBuilder;
using kernel_builder::RingInit;

/// Masked kernel with two tile shapes: whether the second one (`alt`) runs,
/// the same answer in every thread of the grid. Each shape's tiles are
/// sum_g ceil(rows_g / block M) * N blocks with rows_g = min(max(masked_m[g],
/// 0), M_max); its cost is ceil(tiles / CTAs) rounds of its tile
/// (::dgemm::tileRoundCost) over its CTAs, min(grid, its maxCtas), which
/// `ctasL` and `ctasAlt` get; the second shape runs when it costs less.
/// With at most 8 groups (one chunk, straight-line code) `loaded` gets
/// masked_m[0..G) as loaded, for the bodies' copy to shared memory.
/// `whileLoading` builds what runs between the first chunk's loads and
/// their first use.
static Value takesAltShape(KernelIR &k, OpBuilder &b, Location loc,
                           LLVM::LLVMFuncOp fn, const KernelLayout &l,
                           const KernelLayout &alt, Value &ctasL,
                           Value &ctasAlt, SmallVectorImpl<Value> &loaded,
                           function_ref<void()> whileLoading) {
  ::dgemm::ProblemDesc p;
  p.kind = l.kind;
  p.n = l.n;
  p.k = l.k;
  p.groups = l.groups;
  int64_t costL = ::dgemm::tileRoundCost(l.blockM, l.blockN, p);
  int64_t costAlt = ::dgemm::tileRoundCost(alt.blockM, alt.blockN, p);
  Value mMax = fn.getArgument(kM);
  // Groups in chunks of 8 whose loads are all issued before the first is
  // used, so each chunk costs one load latency (one chunk for up to 8
  // groups, whose loads `whileLoading` overlaps; with more it runs before
  // the loop). Past G the index is
  // clamped and the rows count as 0.
  constexpr int64_t chunk = 8;
  auto countChunk = [&](Value g0, Value blocksL, Value blocksAlt,
                        SmallVectorImpl<Value> &rows) {
    for (int64_t j = 0; j < std::min(chunk, l.groups); ++j) {
      Value gj = k.add(g0, k.c32(j));
      Value at = arith::MinUIOp::create(b, loc, gj, k.c32(l.groups - 1));
      rows.push_back(LLVM::LoadOp::create(
          b, loc, k.i32, k.elementAt(fn.getArgument(kGroups), at, 4)));
    }
    if (whileLoading && l.groups <= chunk)
      whileLoading();
    for (int64_t j = 0; j < static_cast<int64_t>(rows.size()); ++j) {
      Value r = arith::MaxSIOp::create(b, loc, rows[j], k.c32(0));
      r = arith::MinSIOp::create(b, loc, r, mMax);
      if (l.groups % chunk != 0)
        r = arith::SelectOp::create(
            b, loc, k.ult(k.add(g0, k.c32(j)), k.c32(l.groups)), r,
            k.c32(0));
      blocksL = k.add(blocksL, k.ceilDiv(r, l.blockM));
      blocksAlt = k.add(blocksAlt, k.ceilDiv(r, alt.blockM));
    }
    return std::pair(blocksL, blocksAlt);
  };
  Value mBlocksL, mBlocksAlt;
  if (l.groups <= chunk) {
    std::tie(mBlocksL, mBlocksAlt) =
        countChunk(k.c32(0), k.c32(0), k.c32(0), loaded);
  } else {
    if (whileLoading)
      whileLoading();
    auto loop = scf::ForOp::create(b, loc, k.c32(0), k.c32(l.groups),
                                   k.c32(chunk),
                                   ValueRange{k.c32(0), k.c32(0)});
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> rows;
    auto [sumL, sumAlt] =
        countChunk(loop.getInductionVar(), loop.getRegionIterArgs()[0],
                   loop.getRegionIterArgs()[1], rows);
    scf::YieldOp::create(b, loc, ValueRange{sumL, sumAlt});
    b.setInsertionPointAfter(loop);
    mBlocksL = loop.getResult(0);
    mBlocksAlt = loop.getResult(1);
  }
  // In 64 bits: blocks * N blocks * cost may pass 2^31.
  Value grid = k.numCtas();
  auto cost = [&](Value mBlocks, int64_t nBlocks, int64_t tileCost,
                  int64_t maxCtas, Value &shapeCtas) {
    shapeCtas = arith::MinUIOp::create(b, loc, grid, k.c32(maxCtas));
    Value ctas = arith::ExtUIOp::create(b, loc, k.i64, shapeCtas);
    Value tiles = arith::MulIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, k.i64, mBlocks),
        arith::ConstantIntOp::create(b, loc, k.i64, nBlocks));
    Value rounds = arith::DivUIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, tiles,
            arith::SubIOp::create(
                b, loc, ctas, arith::ConstantIntOp::create(b, loc, k.i64, 1))),
        ctas);
    return arith::MulIOp::create(
        b, loc, rounds, arith::ConstantIntOp::create(b, loc, k.i64, tileCost));
  };
  Value c0 = cost(mBlocksL, l.nBlocks, costL, l.maxCtas, ctasL);
  Value c1 = cost(mBlocksAlt, alt.nBlocks, costAlt, alt.maxCtas, ctasAlt);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c1, c0);
}

LLVM::LLVMFuncOp mlir::dgemm::buildGemmKernel(OpBuilder &b, Location loc,
                                              StringRef name,
                                              const KernelLayout &l,
                                              StringRef smemSymbol,
                                              const KernelLayout *alt) {
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto ptr1 = LLVM::LLVMPointerType::get(ctx, 1);
  SmallVector<Type> params;
  // (parameter index, bytes) of the by-value parameters.
  SmallVector<std::pair<unsigned, int64_t>, 5> byValue;
  if (l.kGrouped()) {
    // KGroupedKernelParam: the group table, three tensor maps, the
    // addresses of A and B, the workspace.
    params = {ptr, ptr, ptr, ptr, ptr1, ptr1, ptr1};
    byValue = {{kKgTable, l.groupTableBytes()},
               {kKgMapSFA, 128},
               {kKgMapSFB, 128},
               {kKgMapD, 128}};
  } else {
    // B scales: a tensor map (1x128 recipe, loaded per stage) or an address.
    params = {ptr, ptr, ptr, ptr, l.perRowB ? ptr : ptr1, b.getI32Type()};
    if (l.grouped())
      params.push_back(ptr1); // m_indices or masked_m
    if (l.bias)
      params.push_back(ptr1); // the bias (kBiasPtr)
    if (l.masked())
      params.push_back(ptr1); // D's address
    for (GemmKernelParam p : {kMapA, kMapSFA, kMapB, kMapD})
      byValue.push_back({p, 128});
    if (alt)
      for (GemmKernelParam p : {kAltMapA, kAltMapSFA, kAltMapB, kAltMapD}) {
        params.push_back(ptr);
        byValue.push_back({p, 128});
      }
    if (l.perRowB)
      byValue.push_back({kSFBPtr, 128});
  }
  auto fnType =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), params);
  auto fn = LLVM::LLVMFuncOp::create(b, loc, name, fnType);
  // Tensor maps (and the group table) by value, 128-aligned, in the param
  // space, read where they are (grid constants).
  for (auto [p, bytes] : byValue) {
    fn.setArgAttr(p, "llvm.byval",
                  TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), bytes)));
    fn.setArgAttr(p, "llvm.align", b.getI64IntegerAttr(128));
    fn.setArgAttr(p, "nvvm.grid_constant", b.getUnitAttr());
  }
  fn->setAttr("nvvm.kernel", b.getUnitAttr());
  fn->setAttr("nvvm.maxntid",
              b.getDenseI32ArrayAttr({(int32_t)l.threads, 1, 1}));
  // With maxntid, minctasm = 1 makes ptxas honour setmaxnreg.
  fn->setAttr("nvvm.minctasm", b.getI32IntegerAttr(1));
  fn->setAttr("dgemm.launch", buildGemmLaunchContract(ctx, l, alt));

  OpBuilder::InsertionGuard guard(b);
  Block *entry = fn.addEntryBlock(b);
  if (!alt) {
    b.setInsertionPointToStart(entry);
    GemmKernelBuilder(b, loc, l, fn, smemSymbol).build();
    return fn;
  }
  // Two tile shapes: the entry block picks one; a CTA past that shape's
  // count returns; each body block is the whole kernel of its shape (ring,
  // roles, epilogue, return).
  Region &body = fn.getBody();
  Block *mainCheck = b.createBlock(&body, body.end());
  Block *altCheck = b.createBlock(&body, body.end());
  Block *mainBody = b.createBlock(&body, body.end());
  Block *altBody = b.createBlock(&body, body.end());
  Block *idle = b.createBlock(&body, body.end());
  b.setInsertionPointToStart(entry);
  KernelIR k(b, loc);
  Value ctasL, ctasAlt; // each shape's CTAs
  SmallVector<Value> loaded;
  // masked_m's loads are issued first; while they are in flight thread 0
  // sets up the first shape's ring, as a one-shape kernel does (the second
  // shape's body replaces it).
  Value useAlt = takesAltShape(k, b, loc, fn, l, *alt, ctasL, ctasAlt, loaded,
                               [&] {
                                 GemmKernelBuilder(b, loc, l, fn, smemSymbol)
                                     .buildRingInit();
                               });
  LLVM::CondBrOp::create(b, loc, useAlt, altCheck, mainCheck);
  for (auto [check, run, ctas] : {std::tuple(mainCheck, mainBody, ctasL),
                                  std::tuple(altCheck, altBody, ctasAlt)}) {
    b.setInsertionPointToStart(check);
    LLVM::CondBrOp::create(b, loc, k.ult(k.ctaId(), ctas), run, idle);
  }
  b.setInsertionPointToStart(idle);
  LLVM::ReturnOp::create(b, loc, ValueRange());
  b.setInsertionPointToStart(mainBody);
  GemmKernelBuilder(b, loc, l, fn, smemSymbol, /*altShape=*/false, ctasL,
                    loaded, RingInit::done())
      .build();
  b.setInsertionPointToStart(altBody);
  GemmKernelBuilder(b, loc, *alt, fn, smemSymbol, /*altShape=*/true, ctasAlt,
                    loaded, RingInit::replacing(l))
      .build();
  return fn;
}
