//===- GemmKernel.cpp - build the kernel IR of a normal FP8 GEMM -----------===//
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
//       copy the tile's two (or three) rows of B scales (K/128 each) to shared memory
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
// multicast (normal GEMM) is the same along M: units of two neighbouring M
// blocks with one N block (rank r takes M block 2u + r, the last one past M
// when the M blocks are odd: TMA fills its A with zeros and drops its
// store), each producer loading rows [r*BN/2, (r+1)*BN/2) of B for both. A
// stage is free only when the consumers of both CTAs released it: empty[s]
// counts 2*4*NC arrivals, lanes 0 and 1 of each consumer warp arriving on
// CTA 0's and CTA 1's barrier. Cluster barriers after the ring's
// initialisation and before exit keep a CTA from touching a peer that is not
// there.
//
// Grouped layouts (the same kernel, tile loop and ring):
//   contiguous: A [M_sum, K] and D [M_sum, N] as in the normal GEMM, B
//     [G, N, K] through a 3-D map (coordinates k0, n0, g); each M block
//     reads its group g = m_indices[m0] (groups are padded to 128 rows, so
//     a block of at most 128 rows has one group); g < 0 (padding) skips the
//     tile in both roles: no loads, no math, D untouched.
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
//===----------------------------------------------------------------------===//
#include "GemmKernel.h"

#include "KernelIR.h"
#include "TensorMapUpdate.h"

#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dgemm;

namespace {
/// Who initialises a kernel body's ring barriers: the body's thread 0
/// (here), the entry block before the body branched off (done: a two-shape
/// kernel's first shape, set up while masked_m is read), or the body's
/// thread 0 after invalidating the barriers the entry block set up for the
/// other shape (replacing: the second shape, whose buffers may cover them).
struct RingInit {
  bool doneBefore = false;
  const KernelLayout *replaced = nullptr;
  static RingInit here() { return {}; }
  static RingInit done() { return {true, nullptr}; }
  static RingInit replacing(const KernelLayout &old) { return {false, &old}; }
  bool isDone() const { return doneBefore; }
};

/// Builds the body of one GEMM kernel.
class GemmKernelBuilder {
public:
  /// `altShape`: this body is the second tile shape's (its maps are the
  /// kAltMap* parameters). `ownCtas`: the body walks its tiles over that
  /// many first CTAs (a kernel with two tile shapes, whose grid is the
  /// larger count; the other CTAs do not enter the body); null: the grid.
  /// `loadedCounts`: masked_m[0..G) as already loaded (a two-shape kernel
  /// with at most 8 groups), copied to shared memory instead of read again.
  /// `ring`: who initialises the ring's barriers (RingInit).
  GemmKernelBuilder(OpBuilder &b, Location loc, const KernelLayout &l,
                    LLVM::LLVMFuncOp fn, StringRef smemSymbol,
                    bool altShape = false, Value ownCtas = Value(),
                    ArrayRef<Value> loadedCounts = {},
                    RingInit ring = RingInit::here())
      : k(b, loc), b(b), loc(loc), l(l), fn(fn), smemSymbol(smemSymbol),
        altShape(altShape), ownCtas(ownCtas), loadedCounts(loadedCounts),
        ring(ring) {}

  /// Only thread 0's part of the ring set-up: the barriers initialised and
  /// the tensor maps prefetched, nobody waiting (the entry block of a
  /// two-shape kernel, before masked_m arrives; the body then gets
  /// RingInit::done()).
  void buildRingInit() {
    smem = LLVM::AddressOfOp::create(b, loc, k.ptr3, smemSymbol);
    tid = k.tid();
    initRing();
  }

  void build() {
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
    if (l.cluster > 1) {
      // No CTA leaves while its peer may still multicast into it or arrive
      // on its barriers.
      NVVM::ClusterArriveOp::create(b, loc, nullptr);
      NVVM::ClusterWaitOp::create(b, loc, nullptr);
    }
    LLVM::ReturnOp::create(b, loc, ValueRange());
  }

private:
  /// full[s] and empty[s] for a stage index known at run time.
  Value fullBarrier(Value s) {
    return k.byteAt(k.byteAt(smem, l.barOff), k.mul(s, k.c32(8)));
  }
  Value emptyBarrier(Value s) {
    return k.byteAt(k.byteAt(smem, l.barOff + 8 * l.stages),
                    k.mul(s, k.c32(8)));
  }
  Value stageBuffer(int64_t offset, int64_t stageBytes, Value s) {
    return k.byteAt(k.byteAt(smem, offset), k.mul(s, k.c32(stageBytes)));
  }
  void waitParity(Value barrier, Value parity) {
    // Suspend-time hint in ns for each try (the loop retries until done).
    NVVM::MBarrierTryWaitParityOp::create(b, loc, barrier, parity,
                                          k.c32(0x989680));
  }
  Value tensorMap(GemmKernelParam p) {
    return fn.getArgument(altShape ? kAltMapA + (p - kMapA) : p);
  }
  /// The map of B's scales (1x128 recipe).
  Value sfbMap() {
    return fn.getArgument(l.kGrouped() ? kKgMapSFB : kSFBPtr);
  }
  /// k-grouped: group g's entries in the group table (KGroupedKernelParam).
  Value groupInt(Value g, int64_t which) { // 0: K blocks, 1: first K block
    Value at = k.byteAt(fn.getArgument(kKgTable),
                        k.add(k.c32(256),
                              k.add(k.mul(g, k.c32(8)), k.c32(4 * which))));
    return LLVM::LoadOp::create(b, loc, k.i32, at, /*alignment=*/4);
  }

  /// k-grouped: this CTA's workspace slot `slot` (A_g's map, then B_g's).
  Value groupMapSlot(Value slot) {
    return k.byteAt(
        fn.getArgument(kKgWorkspace),
        k.mul(k.add(k.mul(k.ctaId(), k.c32(l.groupMapSlots())), slot),
              k.c32(256)));
  }

  /// k-grouped, all threads before the first barrier: the templates into
  /// every slot of the CTA's ring, 16 bytes a thread (the tiles then
  /// rewrite only address, sizes and pitch).
  void copyMapTemplates() {
    const int64_t chunks = 16 * l.groupMapSlots();
    auto mine = scf::IfOp::create(b, loc, k.ult(tid, k.c32(chunks)), false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(mine.thenBlock());
    Value chunk = k.remu(tid, k.c32(16)); // 0-7 A's map, 8-15 B's
    Value bytes = k.mul(chunk, k.c32(16));
    auto v4 = VectorType::get({4}, k.i32);
    Value word = LLVM::LoadOp::create(
        b, loc, v4, k.byteAt(fn.getArgument(kKgTable), bytes),
        /*alignment=*/16);
    LLVM::StoreOp::create(
        b, loc, word,
        k.byteAt(groupMapSlot(k.divu(tid, k.c32(16))), bytes),
        /*alignment=*/16);
  }

  /// k-grouped: map `which` (0: A_g's, 1: B_g's) in a workspace slot.
  Value groupMap(Value slot, int which) {
    return k.byteAt(slot, 128 * which);
  }

  /// k-grouped, producer: writes the maps of A_g [M, k_g] and B_g [N, k_g]
  /// into this tile's workspace slot (kgSlot, holding the templates).
  /// Groups start M * 128 (N * 128) bytes of A (B) per K block before them.
  void writeGroupMaps(Value group) {
    Value slot = groupMapSlot(kgSlot);
    Value kBlocks = groupInt(group, 0);
    Value first = arith::ExtUIOp::create(b, loc, k.i64, groupInt(group, 1));
    Value innerDim = k.mul(kBlocks, k.c32(128));
    Value pitch = arith::ExtUIOp::create(b, loc, k.i64, innerDim);
    Value maps[2];
    const int64_t rows[2] = {l.m, l.n};
    const KGroupedKernelParam base[2] = {kKgPtrA, kKgPtrB};
    for (int which = 0; which < 2; ++which) {
      maps[which] = groupMap(slot, which);
      Value start = arith::MulIOp::create(
          b, loc, first,
          arith::ConstantIntOp::create(b, loc, k.i64, rows[which] * 128));
      Value address = arith::AddIOp::create(
          b, loc,
          LLVM::PtrToIntOp::create(b, loc, k.i64, fn.getArgument(base[which])),
          start);
      replaceTensorMap2D(k, maps[which], address, innerDim,
                         k.c32(rows[which]), pitch);
    }
    publishTensorMaps(k, maps);
  }
  /// k-grouped, producer: the maps in this tile's slot (kgSlot) as the TMA
  /// takes them (generic addresses, A's then B's).
  std::pair<Value, Value> groupMaps() {
    Value slot = groupMapSlot(kgSlot);
    auto generic = [&](int which) -> Value {
      return LLVM::AddrSpaceCastOp::create(b, loc, k.ptr,
                                           groupMap(slot, which));
    };
    return {generic(0), generic(1)};
  }
  /// K blocks of a tile: K/128, or (k-grouped) the group's.
  Value tileKBlocks(Value group) {
    if (kCount) // a split tail tile: this CTA's share
      return kCount;
    return l.kGrouped() ? groupInt(group, 0) : k.c32(l.kBlocks);
  }

  /// The first K block of the tile's share (0 but for a split tail tile).
  Value tileKStart() { return kStart ? kStart : k.c32(0); }

  /// Thread 0 initialises the ring (unless the entry block did:
  /// RingInit::done()); everyone waits for it.
  void initBarriers() {
    if (!ring.isDone())
      initRing();
    // The replaced barriers are invalidated before any other thread may
    // write shared memory that covers them (the group counts).
    if (ring.replaced)
      NVVM::Barrier0Op::create(b, loc);
    initShared();
  }

  /// Thread 0: the ring's barriers (after invalidating those of the shape
  /// the entry block set up, RingInit::replacing()) and the maps' prefetch.
  void initRing() {
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

  /// The group counts into shared memory, the maps' templates (k-grouped),
  /// then the CTA (or cluster) barrier that publishes the ring.
  void initShared() {
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

  /// One tile: (M block, N block, group or null for the normal GEMM, ring
  /// counter before it) -> ring counter after it.
  using TileBody =
      function_ref<Value(Value mBlock, Value nBlock, Value group, Value it)>;

  /// The persistent tile loop over the launch's tiles (or, masked, over the
  /// tiles of every group in turn).
  void tileLoop(TileBody body) {
    if (l.masked())
      return maskedTileLoop(body);
    if (l.kGrouped())
      return kGroupedTileLoop(body);
    auto loop = scf::ForOp::create(b, loc, firstTile,
                                   l.tailSplit ? fullTiles : tiles, tileStep,
                                   ValueRange{k.c32(0)});
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    Value it = loop.getRegionIterArgs()[0];
    auto sched = ScheduleTileOp::create(
        b, loc, k.i32, k.i32, t, numMUnits,
        b.getI32IntegerAttr(l.nBlocks / l.mcastA()),
        b.getI32IntegerAttr(std::max<int64_t>(l.swizzleGroup / l.mcastA(), 1)));
    Value mBlock = sched.getMBlock(), nBlock = sched.getNBlock();
    // With a cluster, this CTA's tile of the pair.
    if (l.mcastA() > 1)
      nBlock = k.add(k.mul(nBlock, k.c32(l.mcastA())), rank);
    if (l.mcastB() > 1)
      mBlock = k.add(k.mul(mBlock, k.c32(l.mcastB())), rank);
    Value next;
    if (l.contiguous()) {
      // The M block's group; padding blocks (-1) are skipped.
      Value group = l.groupOffsets
                        ? groupOfRow(k.mul(mBlock, k.c32(l.blockM)))
                        : LLVM::LoadOp::create(
                              b, loc, k.i32,
                              k.elementAt(fn.getArgument(kGroups),
                                          k.mul(mBlock, k.c32(l.blockM)), 4))
                              .getResult();
      Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                          group, k.c32(0));
      auto guard = scf::IfOp::create(b, loc, TypeRange{k.i32}, valid,
                                     /*withElseRegion=*/true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(guard.thenBlock());
      scf::YieldOp::create(b, loc, body(mBlock, nBlock, group, it));
      b.setInsertionPointToStart(guard.elseBlock());
      scf::YieldOp::create(b, loc, it);
      next = guard.getResult(0);
    } else {
      next = body(mBlock, nBlock, Value(), it);
    }
    scf::YieldOp::create(b, loc, next);
    b.setInsertionPointAfter(loop);
    if (l.tailSplit)
      tailTile(body, loop.getResult(0));
  }

  /// With tailSplit: the tail tile of this CTA's cluster, rank r computing
  /// the r-th half of its K blocks (kStart, kCount, inTail set for the
  /// body).
  void tailTile(TileBody body, Value it) {
    auto tail = scf::IfOp::create(b, loc, hasTail, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(tail.thenBlock());
    Value t = k.add(fullTiles, k.divu(firstTile, k.c32(2)));
    auto sched = ScheduleTileOp::create(
        b, loc, k.i32, k.i32, t, numMBlocks, b.getI32IntegerAttr(l.nBlocks),
        b.getI32IntegerAttr(std::max<int64_t>(l.swizzleGroup, 1)));
    const int64_t half = l.kBlocks / 2;
    kStart = k.mul(rank, k.c32(half));
    kCount = arith::SelectOp::create(b, loc, k.eq(rank, k.c32(0)),
                                     k.c32(half), k.c32(l.kBlocks - half));
    inTail = true;
    body(sched.getMBlock(), sched.getNBlock(), Value(), it);
    inTail = false;
    kStart = kCount = Value();
  }

  /// k-grouped: tiles t = g * (M blocks * N blocks) + the tile of D[g] in the
  /// grouped tile order; groups with no K blocks are skipped (D[g] += 0).
  void kGroupedTileLoop(TileBody body) {
    const int64_t mBlocks = (l.m + l.blockM - 1) / l.blockM;
    const int64_t perGroup = mBlocks * l.nBlocks;
    // Iteration values: the ring counter, the producer's map writes so far
    // (whose count picks its workspace slot) and the group whose maps the
    // last write holds (-1: none yet). The consumers carry the same values
    // and use only the first. The CTA index and count read here, not the
    // kernel's first reads (KernelIR::ctaIdHere).
    auto loop = scf::ForOp::create(b, loc, k.ctaIdHere(), tiles,
                                   k.numCtasHere(),
                                   ValueRange{k.c32(0), k.c32(0), k.c32(-1)});
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    Value it = loop.getRegionIterArgs()[0];
    Value writes = loop.getRegionIterArgs()[1];
    Value mapGroup = loop.getRegionIterArgs()[2];
    Value group = k.divu(t, k.c32(perGroup));
    auto sched = ScheduleTileOp::create(
        b, loc, k.i32, k.i32, k.remu(t, k.c32(perGroup)), numMBlocks,
        b.getI32IntegerAttr(l.nBlocks),
        b.getI32IntegerAttr(std::max<int64_t>(l.swizzleGroup, 1)));
    Value some = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                       groupInt(group, 0), k.c32(0));
    auto guard = scf::IfOp::create(b, loc, TypeRange{k.i32, k.i32, k.i32},
                                   some, /*withElseRegion=*/true);
    b.setInsertionPointToStart(guard.thenBlock());
    // A new group's maps go into the next slot of the ring: a slot is
    // rewritten only stages + 1 writes later, each followed by a tile of at
    // least one K block, so the loads that read it have completed (their
    // stages were released before the producer could issue that many more).
    kgFresh = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, group,
                                    mapGroup);
    Value writesNow = k.add(
        writes, arith::ExtUIOp::create(b, loc, k.i32, kgFresh).getResult());
    kgSlot = k.remu(writesNow, k.c32(l.groupMapSlots()));
    Value next = body(sched.getMBlock(), sched.getNBlock(), group, it);
    kgSlot = kgFresh = Value();
    scf::YieldOp::create(b, loc, ValueRange{next, writesNow, group});
    b.setInsertionPointToStart(guard.elseBlock());
    scf::YieldOp::create(b, loc, ValueRange{it, writes, mapGroup});
    b.setInsertionPointAfter(guard);
    scf::YieldOp::create(b, loc, guard.getResults());
  }

  /// Contiguous layout given by offsets (end row of each group, groups
  /// starting at the next multiple of 128): the group of the M block at row
  /// m0, the first g with m0 < end[g], or -1 when m0 is past every group's
  /// end or in the padding before g's start (a 64-row block can start
  /// there): such blocks are skipped, as m_indices' -1 blocks are.
  Value groupOfRow(Value m0) {
    Value numGroups = k.c32(l.groups);
    auto scan = scf::WhileOp::create(b, loc, TypeRange{k.i32},
                                     ValueRange{k.c32(0)});
    {
      OpBuilder::InsertionGuard g(b);
      Block *check = b.createBlock(&scan.getBefore(), {}, {k.i32}, {loc});
      Value grp = check->getArgument(0);
      Value safe = k.minu(grp, k.c32(l.groups - 1));
      Value end = LLVM::LoadOp::create(
          b, loc, k.i32, k.elementAt(k.byteAt(smem, l.countOff), safe, 4));
      Value past = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                         end, m0);
      Value more = arith::AndIOp::create(b, loc, k.ult(grp, numGroups), past);
      scf::ConditionOp::create(b, loc, more, ValueRange{grp});
      Block *step = b.createBlock(&scan.getAfter(), {}, {k.i32}, {loc});
      scf::YieldOp::create(b, loc,
                           ValueRange{k.add(step->getArgument(0), k.c32(1))});
    }
    Value g = scan.getResult(0);
    // start_g = roundUp(end[g - 1], 128), 0 for g = 0.
    Value prev = k.minu(k.sub(g, k.c32(1)), k.c32(l.groups - 1));
    Value prevEnd = LLVM::LoadOp::create(
        b, loc, k.i32, k.elementAt(k.byteAt(smem, l.countOff), prev, 4));
    Value start = arith::SelectOp::create(
        b, loc, k.eq(g, k.c32(0)), k.c32(0),
        k.andi(k.add(prevEnd, k.c32(127)), k.c32(~127)));
    Value inGroup = arith::AndIOp::create(
        b, loc, k.ult(g, numGroups),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, m0, start));
    return arith::SelectOp::create(b, loc, inGroup, g, k.c32(-1));
  }

  /// Rows of group g that count: min(max(masked_m[g], 0), M_max).
  Value maskedRows(Value g) {
    Value rows = LLVM::LoadOp::create(
        b, loc, k.i32, k.elementAt(k.byteAt(smem, l.countOff), g, 4));
    rows = arith::MaxSIOp::create(b, loc, rows, k.c32(0));
    return arith::MinSIOp::create(b, loc, rows, fn.getArgument(kM));
  }
  /// The masked walks' group count G. One group: with G = 1 a constant,
  /// LLVM proves every tile's group is 0 and specialises the kernel on it;
  /// at block M 256 ptxas then spilled 28-36 bytes (any M_max, N, K), which
  /// two groups' kernels do not. An opaque count keeps the one-group
  /// kernel the general one.
  Value maskedGroupCount() {
    Value count = k.c32(l.groups);
    return l.groups == 1 ? k.opaque(count) : count;
  }

  /// Units of work of group g: tiles, or with a cluster, pairs of
  /// neighbouring tiles along N.
  Value maskedTiles(Value g) {
    return k.mul(k.ceilDiv(maskedRows(g), l.blockM),
                 k.c32(l.nBlocks / l.mcastA()));
  }

  /// scf.while over t = firstTile, firstTile + step, ...: before each tile
  /// the group moves forward while t is past the group's tiles; the loop
  /// ends when it runs out of groups.
  void maskedTileLoop(TileBody body) {
    if (l.costWalk)
      return maskedCostTileLoop(body);
    Type i32 = k.i32;
    SmallVector<Type> types(4, i32);
    SmallVector<Location> locs(4, loc);
    Value c0 = k.c32(0);
    Value numGroups = maskedGroupCount();
    Value lastGroup = l.groups == 1 ? k.sub(numGroups, k.c32(1))
                                    : k.c32(l.groups - 1);
    auto loop = scf::WhileOp::create(b, loc, types,
                                     ValueRange{firstTile, c0, c0, c0});
    {
      OpBuilder::InsertionGuard g(b);
      Block *before = b.createBlock(&loop.getBefore(), {}, types, locs);
      Value t = before->getArgument(0);
      auto advance = scf::WhileOp::create(
          b, loc, TypeRange{i32, i32},
          ValueRange{before->getArgument(1), before->getArgument(2)});
      {
        OpBuilder::InsertionGuard g2(b);
        Block *check = b.createBlock(&advance.getBefore(), {}, {i32, i32},
                                     {loc, loc});
        Value grp = check->getArgument(0), base = check->getArgument(1);
        // Read a group in range even when g == G (the result is unused).
        Value safe = k.minu(grp, lastGroup);
        Value end = k.add(base, maskedTiles(safe));
        Value more = arith::AndIOp::create(
            b, loc, k.ult(grp, numGroups),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, t, end));
        scf::ConditionOp::create(b, loc, more, check->getArguments());
        Block *step = b.createBlock(&advance.getAfter(), {}, {i32, i32},
                                    {loc, loc});
        Value sg = step->getArgument(0);
        scf::YieldOp::create(
            b, loc,
            ValueRange{k.add(sg, k.c32(1)),
                       k.add(step->getArgument(1), maskedTiles(sg))});
      }
      b.setInsertionPointAfter(advance);
      Value inRange = k.ult(advance.getResult(0), numGroups);
      scf::ConditionOp::create(
          b, loc, inRange,
          ValueRange{t, advance.getResult(0), advance.getResult(1),
                     before->getArgument(3)});
    }
    OpBuilder::InsertionGuard g(b);
    Block *after = b.createBlock(&loop.getAfter(), {}, types, locs);
    Value t = after->getArgument(0), grp = after->getArgument(1),
          base = after->getArgument(2);
    Value mBlocks = k.ceilDiv(maskedRows(grp), l.blockM);
    Value next = maskedTile(body, k.sub(t, base), Value(), mBlocks, grp,
                            after->getArgument(3));
    scf::YieldOp::create(b, loc,
                         ValueRange{k.add(t, tileStep), grp, base, next});
  }

  /// Masked walks: unit u of group g's `mBlocks` M blocks from `firstBlock`
  /// (null: 0) x N blocks in the grouped tile order (a unit is a tile, or
  /// with a cluster a pair of tiles along N, this CTA's); runs the body and
  /// returns the ring counter after it.
  Value maskedTile(TileBody body, Value u, Value firstBlock, Value mBlocks,
                   Value g, Value it) {
    auto sched = ScheduleTileOp::create(
        b, loc, k.i32, k.i32, u, mBlocks,
        b.getI32IntegerAttr(l.nBlocks / l.mcastA()),
        b.getI32IntegerAttr(std::max<int64_t>(l.swizzleGroup / l.mcastA(), 1)));
    Value mBlock = sched.getMBlock(), nBlock = sched.getNBlock();
    if (firstBlock)
      mBlock = k.add(firstBlock, mBlock);
    if (l.mcastA() > 1) // the pair's tile of this CTA (no B multicast here)
      nBlock = k.add(k.mul(nBlock, k.c32(l.mcastA())), rank);
    return body(mBlock, nBlock, g, it);
  }

  /// Cost walk: the M blocks of group g in class c (their count of 64-row
  /// waves with valid rows, 1 .. BM/64): (first M block, M blocks). Class
  /// BM/64 holds the group's full blocks (from block 0), and its crossing
  /// block where that has more than BM - 64 rows; a lower class at most the
  /// crossing block.
  std::pair<Value, Value> classBlocks(Value g, Value c) {
    Value rows = maskedRows(g);
    Value full = k.divu(rows, k.c32(l.blockM));
    Value rem = k.sub(rows, k.mul(full, k.c32(l.blockM)));
    Value top = k.eq(c, k.c32(l.blockM / 64));
    Value first = arith::SelectOp::create(b, loc, top, k.c32(0), full);
    Value crossing = arith::ExtUIOp::create(
        b, loc, k.i32, k.eq(k.ceilDiv(rem, 64), c));
    Value count = k.add(
        arith::SelectOp::create(b, loc, top, full, k.c32(0)), crossing);
    return {first, count};
  }

  /// The CTA's (or cluster's) i-th unit of work when every other round
  /// is walked backwards: i * P + c, or i * P + P - 1 - c for odd i.
  Value reversingTile(Value i) {
    Value odd = k.eq(k.andi(i, k.c32(1)), k.c32(1));
    Value back = k.sub(k.sub(tileStep, k.c32(1)), firstTile);
    return k.add(k.mul(i, tileStep),
                 arith::SelectOp::create(b, loc, odd, back, firstTile));
  }

  /// masked-walk=cost: the launch's tiles in classes of falling cost (see
  /// classBlocks), each class over the groups in order, each (class,
  /// group) over its M blocks x N blocks in the grouped tile order. A CTA's
  /// i-th tile is t = i * P + c, or i * P + P - 1 - c for odd i (P the
  /// grid), so that the CTAs that took the dearest tiles of one round take
  /// the cheapest of the next. A cursor (class, group, the first unit of
  /// that class and group) only moves forward; the loop ends when it runs
  /// out of classes.
  void maskedCostTileLoop(TileBody body) {
    Type i32 = k.i32;
    SmallVector<Type> types(5, i32); // i, class, group, base, ring
    SmallVector<Location> locs(5, loc);
    Value c0 = k.c32(0);
    const int64_t top = l.blockM / 64;
    Value numGroups = maskedGroupCount();
    auto unitsOf = [&](Value g, Value c) {
      return k.mul(classBlocks(g, c).second, k.c32(l.nBlocks / l.mcastA()));
    };
    auto loop = scf::WhileOp::create(b, loc, types,
                                     ValueRange{c0, k.c32(top), c0, c0, c0});
    {
      OpBuilder::InsertionGuard g(b);
      Block *before = b.createBlock(&loop.getBefore(), {}, types, locs);
      Value i = before->getArgument(0);
      Value t = reversingTile(i);
      auto advance = scf::WhileOp::create(
          b, loc, TypeRange{i32, i32, i32},
          ValueRange{before->getArgument(1), before->getArgument(2),
                     before->getArgument(3)});
      {
        OpBuilder::InsertionGuard g2(b);
        Block *check = b.createBlock(&advance.getBefore(), {},
                                     {i32, i32, i32}, {loc, loc, loc});
        Value cls = check->getArgument(0), grp = check->getArgument(1),
              base = check->getArgument(2);
        Value end = k.add(base, unitsOf(grp, cls));
        Value more = arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, cls,
                                  c0),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, t, end));
        scf::ConditionOp::create(b, loc, more, check->getArguments());
        Block *step = b.createBlock(&advance.getAfter(), {}, {i32, i32, i32},
                                    {loc, loc, loc});
        Value sc = step->getArgument(0), sg = step->getArgument(1);
        Value nextBase = k.add(step->getArgument(2), unitsOf(sg, sc));
        Value nextGroup = k.add(sg, k.c32(1));
        Value wrap = k.eq(nextGroup, numGroups);
        scf::YieldOp::create(
            b, loc,
            ValueRange{arith::SelectOp::create(b, loc, wrap,
                                               k.sub(sc, k.c32(1)), sc),
                       arith::SelectOp::create(b, loc, wrap, c0, nextGroup),
                       nextBase});
      }
      b.setInsertionPointAfter(advance);
      Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                            advance.getResult(0), c0);
      scf::ConditionOp::create(
          b, loc, inRange,
          ValueRange{i, advance.getResult(0), advance.getResult(1),
                     advance.getResult(2), before->getArgument(4)});
    }
    OpBuilder::InsertionGuard g(b);
    Block *after = b.createBlock(&loop.getAfter(), {}, types, locs);
    Value i = after->getArgument(0), cls = after->getArgument(1),
          grp = after->getArgument(2), base = after->getArgument(3);
    Value t = reversingTile(i);
    auto [firstBlock, mBlocks] = classBlocks(grp, cls);
    Value next = maskedTile(body, k.sub(t, base), firstBlock, mBlocks, grp,
                            after->getArgument(4));
    scf::YieldOp::create(
        b, loc, ValueRange{k.add(i, k.c32(1)), cls, grp, base, next});
  }

  void buildProducer() {
    NVVM::SetMaxRegisterOp::create(
        b, loc, b.getI32IntegerAttr(l.producerRegs),
        NVVM::SetMaxRegisterActionAttr::get(
            b.getContext(), NVVM::SetMaxRegisterAction::decrease));
    Value warpInGroup = k.remu(k.divu(tid, k.c32(32)), k.c32(4));
    auto warp0 = scf::IfOp::create(b, loc, k.eq(warpInGroup, k.c32(0)), false);
    b.setInsertionPointToStart(warp0.thenBlock());
    Value elected = NVVM::ElectSyncOp::create(b, loc, k.i1, Value());
    auto leader = scf::IfOp::create(b, loc, elected, false);
    b.setInsertionPointToStart(leader.thenBlock());
    Value hintA = l2Policy(l.l2HintA), hintB = l2Policy(l.l2HintB);

    tileLoop([&](Value mBlock, Value nBlock, Value group, Value it) {
      Value m0 = k.mul(mBlock, k.c32(l.blockM));
      Value n0 = k.mul(nBlock, k.c32(l.blockN));
      // Coordinates, innermost first, with the group's where the map has it.
      auto at = [&](Value x, Value y, bool hasGroup) {
        SmallVector<Value, 3> c = {x, y};
        if (hasGroup)
          c.push_back(group);
        return c;
      };
      // k-grouped: the group's maps of A_g and B_g, written for this tile,
      // and its first K block in the scales.
      Value mapA, mapB, kBase = k.c32(0);
      if (l.kGrouped()) {
        // Written only when the CTA's group changed (kgFresh): the tiles of
        // one group share its maps, so the later ones skip the
        // tensormap.replace writes and the proxy fences.
        auto fresh = scf::IfOp::create(b, loc, kgFresh, false);
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(fresh.thenBlock());
          writeGroupMaps(group);
        }
        std::tie(mapA, mapB) = groupMaps();
        kBase = groupInt(group, 1);
      } else {
        mapA = tensorMap(kMapA);
        mapB = tensorMap(kMapB);
      }
      auto kLoop = scf::ForOp::create(b, loc, k.c32(0), tileKBlocks(group),
                                      k.c32(1), ValueRange{it});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(kLoop.getBody());
      Value kb = kLoop.getInductionVar();
      Value i = kLoop.getRegionIterArgs()[0];
      Value s = k.remu(i, k.c32(l.stages));
      Value phase = k.andi(k.divu(i, k.c32(l.stages)), k.c32(1));
      Value full = fullBarrier(s);
      // Wait until the consumers released the stage.
      waitParity(emptyBarrier(s), k.xori(phase, k.c32(1)));
      NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), full,
                                             k.c32(l.txBytes), nullptr,
                                             nullptr, Value());
      Value kAbs = k.add(kb, tileKStart());
      Value k0 = k.mul(kAbs, k.c32(128));
      Value aStage = stageBuffer(l.aOff, l.aStageBytes, s);
      if (l.mcastA() > 1) {
        // This CTA's half of A's rows, into the same place in both CTAs.
        Value rows = k.mul(rank, k.c32(l.blockM / l.mcastA()));
        loadTile(k.byteAt(aStage, k.mul(rows, k.c32(128))), mapA,
                 at(k0, k.add(m0, rows), l.masked()), full,
                 LLVM::ConstantOp::create(b, loc, b.getI16Type(),
                                          (1 << l.mcastA()) - 1),
                 hintA);
      } else {
        loadTile(aStage, mapA, at(k0, m0, l.masked()), full, Value(), hintA);
      }
      Value bStage = stageBuffer(l.bOff, l.bStageBytes, s);
      if (l.mcastB() > 1) {
        // This CTA's half of B's rows, into the same place in both CTAs
        // (normal GEMM only).
        Value rows = k.mul(rank, k.c32(l.blockN / l.mcastB()));
        loadTile(k.byteAt(bStage, k.mul(rows, k.c32(128))), mapB,
                 {k0, k.add(n0, rows)}, full,
                 LLVM::ConstantOp::create(b, loc, b.getI16Type(),
                                          (1 << l.mcastB()) - 1),
                 hintB);
      } else {
        loadTile(bStage, mapB, at(k0, n0, l.grouped() && !l.kGrouped()), full,
                 Value(), hintB);
      }
      Value kbScales = k.add(kBase, kAbs);
      loadTile(stageBuffer(l.sfaOff, l.sfaStageBytes, s), tensorMap(kMapSFA),
               at(m0, kbScales, l.masked()), full);
      if (l.perRowB) // 1x128 recipe: the tile's B scales of this K block
        loadTile(stageBuffer(l.sfbOff, l.sfbStageBytes, s), sfbMap(),
                 {n0, kbScales}, full);
      scf::YieldOp::create(b, loc, ValueRange{k.add(i, k.c32(1))});
      b.setInsertionPointAfter(kLoop);
      return kLoop.getResult(0);
    });
    b.setInsertionPointAfter(warp0);
  }

  /// The L2 cache policy of `hint` ("evict_first", ...: createpolicy, an
  /// inline PTX statement since NVVM has no op for it), or null for "".
  Value l2Policy(const std::string &hint) {
    if (hint.empty())
      return Value();
    return LLVM::InlineAsmOp::create(
               b, loc, k.i64, ValueRange(),
               "createpolicy.fractional.L2::" + hint + ".b64 $0, 1.0;", "=l",
               /*has_side_effects=*/false, /*is_align_stack=*/false,
               LLVM::tailcallkind::TailCallKind::None,
               /*asm_dialect=*/LLVM::AsmDialectAttr(),
               /*operand_attrs=*/ArrayAttr())
        .getResult(0);
  }

  void loadTile(Value dst, Value map, ArrayRef<Value> coords, Value barrier,
                Value multicastMask = Value(), Value l2Hint = Value()) {
    Value dst7 = LLVM::AddrSpaceCastOp::create(b, loc, k.ptr7, dst);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, dst7, map, coords, barrier, ValueRange(),
        multicastMask, l2Hint,
        NVVM::TMALoadModeAttr::get(b.getContext(), NVVM::TMALoadMode::TILE),
        b.getBoolAttr(false), /*group=*/nullptr, /*predicate=*/Value());
  }

  void buildConsumer(Value wg) {
    NVVM::SetMaxRegisterOp::create(
        b, loc, b.getI32IntegerAttr(l.consumerRegs),
        NVVM::SetMaxRegisterActionAttr::get(
            b.getContext(), NVVM::SetMaxRegisterAction::increase));
    Value warp = k.divu(tid, k.c32(32));
    Value lane = k.remu(tid, k.c32(32));
    // K split: both warpgroups hold all 64 rows of the tile.
    Value rowWg = l.kSplit ? k.c32(0) : wg;
    Value r0 = k.add(k.mul(rowWg, k.c32(64)),
                     k.add(k.mul(k.remu(warp, k.c32(4)), k.c32(16)),
                           k.divu(lane, k.c32(4))));
    Value r1 = k.add(r0, k.c32(8));
    const int64_t parts = l.nParts, partN = l.blockN / l.nParts;
    const int64_t waves = l.rowWaves, waveRows = 64 * l.consumers;
    SmallVector<Type> fields(partN / 2, k.f32);
    auto fragment = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
    Value sfb = l.kGrouped() ? Value() : fn.getArgument(kSFBPtr);

    // Ping-pong: warpgroup w issues its K block's wgmmas after the other
    // one issued the previous (with hand-off: after the other's previous
    // wgmmas completed) (named barrier 3 + w: "w may issue", 128
    // arrivals of the other warpgroup + 128 waiters). Warpgroup 1 lets
    // warpgroup 0 go first; warpgroup 0 takes that extra turn after its
    // last tile so that every arrival is consumed.
    Value myTurn, otherTurn, isWG0;
    if (l.pingpong) {
      isWG0 = k.eq(wg, k.c32(0));
      myTurn = k.add(k.c32(3), wg);
      otherTurn = k.sub(k.c32(4), wg);
      auto first = scf::IfOp::create(b, loc, k.eq(wg, k.c32(1)), false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(first.thenBlock());
      NVVM::BarrierArriveOp::create(b, loc, k.c32(3), k.c32(256));
    }
    tileLoop([&](Value mBlock, Value nBlock, Value group, Value it) {
      Value m0 = k.mul(mBlock, k.c32(l.blockM));
      Value n0 = k.mul(nBlock, k.c32(l.blockN));
      // The group's B scales: [G, ceil(N/128), K/128].
      Value sfbGroup =
          l.grouped() && !l.perRowB
              ? k.elementAt(sfb, group, 4 * l.nScaleBlocks * l.kBlocks)
              : sfb;
      if (l.masked()) {
        // No epilogue barrier: everyone is done with the previous tile's
        // B scales before they are overwritten.
        NVVM::BarrierOp::create(b, loc, Type(), k.c32(1),
                                k.c32(128 * l.consumers), nullptr, Value());
      }
      // B-scale blocks of this tile: nb0 for the first `former` 8-column
      // groups, nb1 (clamped to the last block) for the rest.
      // (Unused with the 1x128 recipe.)
      // nb2 for the groups 16 past `former` when a tile can span three.
      Value nb0 = k.divu(n0, k.c32(128));
      Value nb1 = k.minu(k.add(nb0, k.c32(1)), k.c32(l.nScaleBlocks - 1));
      Value nb2 = k.minu(k.add(nb0, k.c32(2)), k.c32(l.nScaleBlocks - 1));
      // Block N dividing 128: every tile lies in one scale block, so all of
      // its groups take nb0's scale (a constant `former` lets the
      // promotion's selects fold away).
      const bool oneBlock = 128 % l.blockN == 0;
      Value former =
          oneBlock ? k.c32(l.blockN / 8)
                   : k.divu(k.minu(k.c32(l.blockN),
                                   k.sub(k.c32(128), k.remu(n0, k.c32(128)))),
                            k.c32(8));
      bool threeBlocks = !l.perRowB && l.bScaleRows == 3;
      if (!l.perRowB)
        copyBScales(sfbGroup, {nb0, nb1, nb2});
      // The tile's B-scale rows in shared memory (K/128 floats each).
      SmallVector<Value, 3> sfbRows = {
          k.byteAt(smem, l.sfbOff), k.byteAt(smem, l.sfbOff + 4 * l.kBlocks),
          k.byteAt(smem, l.sfbOff + 8 * l.kBlocks)};
      Value zero = LLVM::ZeroOp::create(b, loc, fragment);

      // K split: K block kb is ring entry it + kb; warpgroup w takes the
      // entries of parity w (every other K block), so that each ring slot
      // (an even number of them) has one consumer, which waits for its
      // fills in order (a parity wait cannot tell a fill from the one two
      // phases later).
      Value kFirst =
          l.kSplit ? k.andi(k.add(it, wg), k.c32(1)) : k.c32(0);
      SmallVector<Value> inits = {l.kSplit ? k.add(it, kFirst) : it};
      inits.append(parts * waves, zero);
      const int64_t kStep = l.kSplit ? 2 : 1;
      if (l.kUnroll == 2) {
        // K blocks in pairs: both blocks' wgmmas are issued (two fresh
        // fragments) before the first is promoted, so the tensor cores run
        // the second chain while the first is waited for and promoted. An
        // odd last block goes through the single-block loop below.
        Value pairsEnd = k.andi(tileKBlocks(group), k.c32(-2));
        inits = kBlockPairs(pairsEnd, inits, wg, r0, r1, lane, fragment,
                            sfbRows, oneBlock, threeBlocks, former);
        kFirst = pairsEnd;
      }
      // One K block from its stage: the waves' wgmmas, each promoted into
      // its totals (`in`: waves * parts of them); returns the new totals.
      // `afterIssue` runs once the first wave's wgmmas are issued.
      auto kBlock = [&](const KBlockStage &st, ValueRange in,
                        llvm::function_ref<void()> afterIssue = {}) {
        Value s = st.s, sfa = st.sfa, aTile0 = st.aTile, bTile = st.bTile;
        auto rowScale = [&](Value row, int64_t w) {
          return k.loadF32(
              k.elementAt(sfa, k.add(row, k.c32(w * waveRows)), 4));
        };
        Value sa0 = st.sa0, sa1 = st.sa1;
        Value sb0 = st.sb0, sb1 = st.sb1, sb2 = st.sb2;
        if (l.pingpong)
          NVVM::BarrierOp::create(b, loc, Type(), myTurn, k.c32(256), nullptr,
                                  Value());
        SmallVector<Value> results;
        // Row wave w (block M 256: two) computes the rows waveRows * w
        // further down, after wave w-1 has been promoted: its fresh fragment
        // takes the registers of the previous one.
        for (int64_t w = 0; w < waves; ++w) {
          const bool lastWave = w == waves - 1;
          Value aTile = k.byteAt(aTile0, w * waveRows * 128);
          if (w > 0) {
            sa0 = rowScale(r0, w);
            sa1 = rowScale(r1, w);
          }
          NVVM::WgmmaFenceAlignedOp::create(b, loc);
          SmallVector<Value> accs;
          for (int64_t p = 0; p < parts; ++p) {
            // Part p uses B rows p*partN.. (a multiple of 8 rows:
            // 1024-aligned).
            accs.push_back(WgmmaTileOp::create(
                b, loc, fragment, aTile, k.byteAt(bTile, p * partN * 128),
                b.getI32IntegerAttr(partN)));
            NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
          }
          if (l.pingpong && !l.handoff)
            NVVM::BarrierArriveOp::create(b, loc, otherTurn, k.c32(256));
          if (w == 0 && afterIssue)
            afterIssue();
          for (int64_t p = 0; p < parts; ++p) {
            Value total = in[w * parts + p];
            const bool lastPart = lastWave && p == parts - 1;
            NVVM::WgmmaWaitGroupSyncOp::create(
                b, loc, b.getI64IntegerAttr(parts - 1 - p));
            // Hand-off: the other warpgroup issues once this one's wgmmas
            // are done, so each runs alone on the tensor cores while the
            // other promotes.
            if (l.pingpong && l.handoff && p == parts - 1)
              NVVM::BarrierArriveOp::create(b, loc, otherTurn, k.c32(256));
            if (l.perRowB) {
              results.push_back(promoteCols(fragment, total, accs[p], sa0, sa1,
                                            s, lane, p * partN, partN,
                                            lastPart));
              continue;
            }
            if (lastPart) {
              // Every part of every wave has read the stage: release it,
              // one arrival per consumer warp.
              releaseStage(s, lane);
            }
            results.push_back(PromoteOp::create(
                b, loc, fragment, total, accs[p], sa0, sa1, sb0, sb1, sb2,
                former, b.getI32IntegerAttr(p * partN / 8)));
          }
        }
        return results;
      };
      SmallVector<Value> totals;
      Value ringNext;
      if (l.stageUnrolled && kStep == 1 && l.kUnroll == 1) {
        // Stage-unrolled: rounds of `stages` ring slots, slot j's K block
        // in the j-th copy of the body, so that every stage address (and
        // the wgmma descriptors made from it) is a constant; a copy whose
        // ring index falls outside the tile's K blocks is skipped (the
        // first and last round of a tile are partial). Round r fills each
        // slot for the r-th time: parity r & 1.
        Value nk = tileKBlocks(group);
        Value base = inits[0];
        Value stages = k.c32(l.stages);
        Value rFirst = k.divu(base, stages);
        Value rEnd =
            k.divu(k.add(k.add(base, nk), k.c32(l.stages - 1)), stages);
        auto rounds = scf::ForOp::create(b, loc, rFirst, rEnd, k.c32(1),
                                         ValueRange(inits).drop_front());
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(rounds.getBody());
          Value r = rounds.getInductionVar();
          Value phase = k.andi(r, k.c32(1));
          SmallVector<Value> cur(rounds.getRegionIterArgs());
          for (int64_t j = 0; j < l.stages; ++j) {
            Value kb = k.sub(k.add(k.mul(r, stages), k.c32(j)), base);
            auto inTile = scf::IfOp::create(b, loc, ValueRange(cur).getTypes(),
                                            k.ult(kb, nk),
                                            /*withElseRegion=*/true);
            OpBuilder::InsertionGuard g2(b);
            b.setInsertionPointToStart(inTile.thenBlock());
            KBlockStage st = waitStage(k.c32(j), phase, kb, rowWg, r0, r1,
                                       sfbRows, oneBlock, threeBlocks);
            if (l.pinDescriptors) {
              Value zero = k.opaqueZeroHere();
              st.aTile = k.byteAt(st.aTile, zero);
              if (l.pinDescriptorsB)
                st.bTile = k.byteAt(st.bTile, zero);
            }
            scf::YieldOp::create(b, loc, kBlock(st, cur));
            b.setInsertionPointToStart(inTile.elseBlock());
            scf::YieldOp::create(b, loc, cur);
            cur.assign(inTile.getResults().begin(), inTile.getResults().end());
          }
          scf::YieldOp::create(b, loc, cur);
        }
        totals.assign(rounds.getResults().begin(), rounds.getResults().end());
        ringNext = k.add(base, nk);
      } else {
        auto kLoop = scf::ForOp::create(b, loc, kFirst, tileKBlocks(group),
                                        k.c32(kStep), inits);
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(kLoop.getBody());
          Value kb = kLoop.getInductionVar();
          Value i = kLoop.getRegionIterArgs()[0];
          // Scales into registers before the wgmma fence (a row wave's just
          // before its own fence: fewer registers live across the first
          // wave).
          KBlockStage st = waitKBlock(i, kb, rowWg, r0, r1, sfbRows,
                                      oneBlock, threeBlocks);
          SmallVector<Value> results = {Value()};
          llvm::append_range(
              results, kBlock(st, kLoop.getRegionIterArgs().drop_front(),
                              [&] { results[0] = k.add(i, k.c32(kStep)); }));
          scf::YieldOp::create(b, loc, results);
        }
        totals.assign(kLoop.getResults().begin() + 1, kLoop.getResults().end());
        ringNext = kLoop.getResult(0);
      }
      std::optional<OpBuilder::InsertionGuard> storeGuard;
      if (l.kSplit) {
        // Warpgroup 1's sums join warpgroup 0's, which stores the tile.
        ringNext = k.add(it, tileKBlocks(group));
        totals = joinSplitTotals(totals, fragment, partN / 2, wg);
        auto owner = scf::IfOp::create(b, loc, k.eq(wg, k.c32(0)),
                                       /*withElseRegion=*/true);
        {
          // Warpgroup 1 meets a barrier of its own (id 6) as often as
          // warpgroup 0 meets the epilogue's (id 1, twice: before and after
          // writing the staging tile, DGEMMToNVVM's EpilogueStoreLowering;
          // keep the two counts equal), so that both
          // pass as many barriers per tile. It orders nothing; without it
          // compute-sanitizer's racecheck reported hazards on the join
          // from the second tile of a CTA on (the two warpgroups' barrier
          // counts drifting apart), though barrier 5 orders those accesses.
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(owner.elseBlock());
          for (int i = 0; i < 2; ++i)
            NVVM::BarrierOp::create(b, loc, Type(), k.c32(6), k.c32(128),
                                    nullptr, Value());
        }
        storeGuard.emplace(b);
        b.setInsertionPointToStart(owner.thenBlock());
      }
      // With `rows` (masked, staged): a tile with fewer rows is copied out
      // of the staging tile by the threads.
      auto tmaStore = [&](Value groupCoord, Value rows = Value()) {
        auto store = EpilogueStoreOp::create(
            b, loc, totals, k.byteAt(smem, l.dOff), tensorMap(kMapD), n0, m0,
            groupCoord, tid, rows, rows ? fn.getArgument(kDPtr) : Value(),
            rows ? fn.getArgument(kM) : Value(),
            b.getI32IntegerAttr(l.blockM),
            b.getI32IntegerAttr(l.blockN),
            b.getI32IntegerAttr(l.rowWarpgroups()),
            b.getI32IntegerAttr(l.dSwizzle),
            rows ? b.getI32IntegerAttr(l.n) : IntegerAttr());
        if (l.f32Out)
          store.setF32(true);
        if (l.accumulate)
          store.setReduceAdd(true);
        if (l.epilogueWarpgroup)
          store.setPerWarpgroup(true);
      };
      if (inTail) {
        // A split tail tile: rank 1's partial sums join rank 0's, which
        // stores the tile.
        totals = reduceTailTile(totals, fragment, partN / 2);
        auto owner = scf::IfOp::create(b, loc, k.eq(rank, k.c32(0)), false);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(owner.thenBlock());
        tmaStore(Value());
        return ringNext;
      }
      if (l.maskedStaged) {
        // Through the staging tile: TMA store when the whole tile is below
        // masked_m[g], else the threads copy its valid rows out.
        tmaStore(group, k.sub(maskedRows(group), m0));
      } else if (l.masked()) {
        // Whole tile below masked_m[g]: TMA store; else by row.
        Value rows = k.sub(maskedRows(group), m0);
        Value whole = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sge, rows, k.c32(l.blockM));
        auto which = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(which.thenBlock());
        tmaStore(group);
        b.setInsertionPointToStart(which.elseBlock());
        storeMaskedTile(totals, rows, m0, n0, group);
      } else {
        tmaStore(l.kGrouped() ? group : Value());
      }
      return ringNext;
    });
    if (l.pingpong) {
      auto last = scf::IfOp::create(b, loc, isWG0, false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(last.thenBlock());
      NVVM::BarrierOp::create(b, loc, Type(), k.c32(3), k.c32(256), nullptr,
                              Value());
    }
    // The last tile's TMA store must have read its staging tile before the
    // CTA's shared memory goes away (per-warpgroup epilogue: each
    // warpgroup's first thread waits for its own stores).
    Value storer = l.epilogueWarpgroup
                       ? k.eq(k.remu(tid, k.c32(128)), k.c32(0))
                       : k.eq(tid, k.c32(0));
    auto last = scf::IfOp::create(b, loc, storer, false);
    b.setInsertionPointToStart(last.thenBlock());
    NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0),
                                         b.getUnitAttr());
    b.setInsertionPointAfter(last);
  }

  /// Masked layout: the address of the tile's element (0, 0) in D
  /// [G, M_max, N] (contiguous): element ((g * M_max + m0) * N + n0).
  Value maskedTileAddress(Value m0, Value n0, Value group) {
    Type i64 = k.i64;
    auto wide = [&](Value v) -> Value {
      return arith::ExtUIOp::create(b, loc, i64, v);
    };
    Value row = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, wide(group), wide(fn.getArgument(kM))),
        wide(m0));
    Value element = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, row,
                              arith::ConstantIntOp::create(b, loc, i64, l.n)),
        wide(n0));
    Value bytes = arith::MulIOp::create(
        b, loc, element, arith::ConstantIntOp::create(b, loc, i64, 2));
    return LLVM::GEPOp::create(b, loc, k.ptr1, k.i8, fn.getArgument(kDPtr),
                               ArrayRef<LLVM::GEPArg>{bytes});
  }

  /// Masked layout, a tile crossing masked_m (masked-partial-store=direct):
  /// its first `rows` rows straight from registers.
  void storeMaskedTile(ValueRange totals, Value rows, Value m0, Value n0,
                       Value group) {
    EpilogueStoreRowsOp::create(
        b, loc, totals, maskedTileAddress(m0, n0, group), rows,
        k.sub(k.c32(l.n), n0), tid, b.getI32IntegerAttr(l.n),
        b.getI32IntegerAttr(l.blockM), b.getI32IntegerAttr(l.blockN),
        b.getI32IntegerAttr(l.consumers));
  }

  /// 1x128 recipe: the thread's B-scale pairs of stage s for the `cols`
  /// columns from `first`, one per 8-column group j: columns first + 8j + 2q
  /// and first + 8j + 2q + 1 (q = lane % 4).
  SmallVector<Value> loadColumnScales(Value s, Value lane, int64_t first,
                                      int64_t cols) {
    auto v2f32 = VectorType::get({2}, k.f32);
    Value base = k.elementAt(
        stageBuffer(l.sfbOff + 4 * first, l.sfbStageBytes, s),
        k.mul(k.remu(lane, k.c32(4)), k.c32(2)), 4);
    SmallVector<Value> pairs;
    for (int64_t j = 0; j < cols / 8; ++j)
      pairs.push_back(LLVM::LoadOp::create(b, loc, v2f32,
                                           k.byteAt(base, 32 * j),
                                           /*alignment=*/8));
    return pairs;
  }

  /// 1x128 recipe: `acc` (columns first.. first+cols of the tile) promoted
  /// into `total` with its columns' B scales from stage s; with `release`
  /// (the stage's last reader) the stage is released after the scales are
  /// read (early) or after the promotion (lateRelease).
  Value promoteCols(Type fragment, Value total, Value acc, Value sa0,
                    Value sa1, Value s, Value lane, int64_t first,
                    int64_t cols, bool release) {
    SmallVector<Value> pairs = loadColumnScales(s, lane, first, cols);
    if (release && !l.lateRelease)
      releaseStage(s, lane);
    Value next =
        PromoteColsOp::create(b, loc, fragment, total, acc, sa0, sa1, pairs);
    if (release && l.lateRelease)
      releaseStage(s, lane);
    return next;
  }

  /// K split: warpgroup 1 hands its sums to warpgroup 0 through the
  /// staging tile, half of each thread's registers at a time (a half is
  /// BN/4 floats x 128 threads = the staging tile's 2 * 64 * BN bytes),
  /// slot (e * 128 + thread) for register e; warpgroup 0 adds them to its
  /// own. The previous tile's TMA store must have read the staging tile
  /// first (thread 0 issued it). Named barrier 5, both warpgroups. Returns
  /// warpgroup 0's sums (warpgroup 1's own in warpgroup 1).
  SmallVector<Value> joinSplitTotals(ArrayRef<Value> totals, Type fragment,
                                     int64_t fields, Value wg) {
    auto meet = [&] {
      NVVM::BarrierOp::create(b, loc, Type(), k.c32(5), k.c32(256), nullptr,
                              Value());
    };
    {
      auto drained = scf::IfOp::create(b, loc, k.eq(tid, k.c32(0)), false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(drained.thenBlock());
      NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0),
                                           b.getUnitAttr());
    }
    meet();
    const int64_t perThread = fields * static_cast<int64_t>(totals.size());
    const int64_t half = (perThread + 1) / 2;
    Value slot0 = k.byteAt(k.byteAt(smem, l.dOff),
                           k.mul(k.remu(tid, k.c32(128)), k.c32(4)));
    auto at = [&](int64_t e) {
      return k.byteAt(slot0, (e % half) * 128 * 4);
    };
    SmallVector<Value> sums(totals.begin(), totals.end());
    SmallVector<Type> types(totals.size(), fragment);
    for (int64_t h = 0; h < 2; ++h) {
      const int64_t first = h * half, last = std::min(perThread, first + half);
      {
        auto send = scf::IfOp::create(b, loc, k.eq(wg, k.c32(1)), false);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(send.thenBlock());
        for (int64_t e = first; e < last; ++e) {
          Value v = LLVM::ExtractValueOp::create(b, loc, sums[e / fields],
                                                 e % fields);
          LLVM::StoreOp::create(b, loc, v, at(e));
        }
      }
      meet();
      auto add = scf::IfOp::create(b, loc, types, k.eq(wg, k.c32(0)),
                                   /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(add.thenBlock());
        SmallVector<Value> mine(sums);
        for (int64_t e = first; e < last; ++e) {
          Value other = k.loadF32(at(e));
          Value v = LLVM::ExtractValueOp::create(b, loc, mine[e / fields],
                                                 e % fields);
          Value sum = arith::AddFOp::create(b, loc, v, other);
          mine[e / fields] = LLVM::InsertValueOp::create(
              b, loc, mine[e / fields], sum, e % fields);
        }
        scf::YieldOp::create(b, loc, mine);
        b.setInsertionPointToStart(add.elseBlock());
        scf::YieldOp::create(b, loc, sums);
      }
      sums.assign(add.getResults().begin(), add.getResults().end());
      if (h == 0)
        meet(); // warpgroup 0 has read the first half
    }
    return sums;
  }

  /// The tail tile's reduction over the cluster (both CTAs' consumers; the
  /// producers meet the same two cluster barriers after their loop): when
  /// rank 0's consumers are done with their K share (cluster barrier 1), its
  /// stages are free and rank 1's consumer threads write their totals there
  /// through distributed shared memory (thread t's `fields` floats per part
  /// at t * BN/2 floats); after cluster barrier 2 (release / acquire) rank
  /// 0's threads add them to theirs. Returns the totals (rank 1's
  /// unchanged).
  SmallVector<Value> reduceTailTile(ArrayRef<Value> totals, Type fragment,
                                    int64_t fields) {
    const int64_t perThread = fields * static_cast<int64_t>(totals.size());
    Value mine = k.byteAt(k.byteAt(smem, l.aOff),
                          k.mul(tid, k.c32(4 * perThread)));
    NVVM::ClusterArriveOp::create(b, loc, nullptr);
    NVVM::ClusterWaitOp::create(b, loc, nullptr);
    {
      auto send = scf::IfOp::create(b, loc, k.eq(rank, k.c32(1)), false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(send.thenBlock());
      Value peer = NVVM::MapaOp::create(b, loc, k.ptr7, mine, k.c32(0));
      for (size_t p = 0; p < totals.size(); ++p)
        for (int64_t i = 0; i < fields; ++i) {
          Value v = LLVM::ExtractValueOp::create(b, loc, totals[p], i);
          LLVM::StoreOp::create(b, loc, v,
                                k.byteAt(peer, 4 * (p * fields + i)));
        }
    }
    NVVM::ClusterArriveOp::create(b, loc, nullptr);
    NVVM::ClusterWaitOp::create(b, loc, nullptr);
    SmallVector<Type> types(totals.size(), fragment);
    auto add = scf::IfOp::create(b, loc, types, k.eq(rank, k.c32(0)),
                                 /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(add.thenBlock());
    SmallVector<Value> sums;
    for (size_t p = 0; p < totals.size(); ++p) {
      Value sum = totals[p];
      for (int64_t i = 0; i < fields; ++i) {
        Value other = k.loadF32(k.byteAt(mine, 4 * (p * fields + i)));
        Value v = LLVM::ExtractValueOp::create(b, loc, totals[p], i);
        sum = LLVM::InsertValueOp::create(
            b, loc, sum, LLVM::FAddOp::create(b, loc, v, other), i);
      }
      sums.push_back(sum);
    }
    scf::YieldOp::create(b, loc, sums);
    b.setInsertionPointToStart(add.elseBlock());
    scf::YieldOp::create(b, loc, totals);
    return SmallVector<Value>(add.getResults());
  }

  /// One arrival per consumer warp on empty[s] of each CTA of the cluster:
  /// lane c arrives on CTA c's barrier (through its cluster address).
  /// A K block's stage as the consumers see it: the ring slot, its A-scale
  /// buffer, the thread's first row wave's A scales, the K block's B scales
  /// (128x128 recipe) and the warpgroup's A and B tiles.
  struct KBlockStage {
    Value s, sfa, sa0, sa1, sb0, sb1, sb2, aTile, bTile;
  };

  /// Waits until ring slot i % stages holds K block kb (full barrier, parity
  /// (i / stages) & 1) and loads its scales.
  KBlockStage waitKBlock(Value i, Value kb, Value wg, Value r0, Value r1,
                         ArrayRef<Value> sfbRows, bool oneBlock,
                         bool threeBlocks) {
    return waitStage(k.remu(i, k.c32(l.stages)),
                     k.andi(k.divu(i, k.c32(l.stages)), k.c32(1)), kb, wg, r0,
                     r1, sfbRows, oneBlock, threeBlocks);
  }

  /// The same for ring slot s (a constant in the stage-unrolled K loop:
  /// its addresses fold to constants) and parity `phase`.
  KBlockStage waitStage(Value s, Value phase, Value kb, Value wg, Value r0,
                        Value r1, ArrayRef<Value> sfbRows, bool oneBlock,
                        bool threeBlocks) {
    KBlockStage st;
    st.s = s;
    // Wait until the stage's TMA loads landed.
    waitParity(fullBarrier(st.s), phase);
    st.sfa = stageBuffer(l.sfaOff, l.sfaStageBytes, st.s);
    st.sa0 = k.loadF32(k.elementAt(st.sfa, r0, 4));
    st.sa1 = k.loadF32(k.elementAt(st.sfa, r1, 4));
    if (!l.perRowB) {
      Value kAbs = k.add(kb, tileKStart());
      st.sb0 = k.loadF32(k.elementAt(sfbRows[0], kAbs, 4));
      st.sb1 =
          oneBlock ? st.sb0 : k.loadF32(k.elementAt(sfbRows[1], kAbs, 4));
      if (threeBlocks)
        st.sb2 = k.loadF32(k.elementAt(sfbRows[2], kAbs, 4));
    }
    st.aTile = k.byteAt(stageBuffer(l.aOff, l.aStageBytes, st.s),
                        k.mul(wg, k.c32(64 * 128)));
    st.bTile = stageBuffer(l.bOff, l.bStageBytes, st.s);
    return st;
  }

  /// The K loop in pairs of K blocks (dgemm-lower-to-kernel{k-unroll=2};
  /// one row wave, one part, 128x128 B scales): blocks [0, end) two at a
  /// time; `inits` is (ring counter, total) and so is the result.
  SmallVector<Value> kBlockPairs(Value end, ValueRange inits, Value wg,
                                 Value r0, Value r1, Value lane, Type fragment,
                                 ArrayRef<Value> sfbRows, bool oneBlock,
                                 bool threeBlocks, Value former) {
    auto loop = scf::ForOp::create(b, loc, k.c32(0), end, k.c32(2), inits);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kb0 = loop.getInductionVar();
    Value i0 = loop.getRegionIterArgs()[0];
    struct Issued {
      KBlockStage st;
      Value acc;
    };
    auto issue = [&](Value i, Value kb) {
      Issued x;
      x.st = waitKBlock(i, kb, wg, r0, r1, sfbRows, oneBlock, threeBlocks);
      NVVM::WgmmaFenceAlignedOp::create(b, loc);
      x.acc = WgmmaTileOp::create(b, loc, fragment, x.st.aTile, x.st.bTile,
                                  b.getI32IntegerAttr(l.blockN));
      NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
      return x;
    };
    auto finish = [&](const Issued &x, Value total, int64_t pending) {
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc,
                                         b.getI64IntegerAttr(pending));
      if (l.perRowB)
        return promoteCols(fragment, total, x.acc, x.st.sa0, x.st.sa1, x.st.s,
                           lane, 0, l.blockN, /*release=*/true);
      releaseStage(x.st.s, lane);
      return PromoteOp::create(b, loc, fragment, total, x.acc, x.st.sa0,
                               x.st.sa1, x.st.sb0, x.st.sb1, x.st.sb2, former,
                               b.getI32IntegerAttr(0))
          .getResult();
    };
    Issued first = issue(i0, kb0);
    Issued second = issue(k.add(i0, k.c32(1)), k.add(kb0, k.c32(1)));
    Value total = finish(first, loop.getRegionIterArgs()[1], 1);
    total = finish(second, total, 0);
    scf::YieldOp::create(b, loc, ValueRange{k.add(i0, k.c32(2)), total});
    return SmallVector<Value>(loop.getResults());
  }

  void releaseStage(Value s, Value lane) {
    auto release =
        scf::IfOp::create(b, loc, k.ult(lane, k.c32(l.mcast)), false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(release.thenBlock());
    if (l.mcast == 1) {
      NVVM::MBarrierArriveOp::create(b, loc, Type(), emptyBarrier(s), Value(),
                                     nullptr);
      return;
    }
    // A CTA-scope release is enough: the stage was only read (by wgmma,
    // which has completed); a cluster-scope release would flush this
    // thread's writes cluster-wide on every K block.
    Value remote = NVVM::MapaOp::create(b, loc, k.ptr7, emptyBarrier(s), lane);
    NVVM::MBarrierArriveOp::create(b, loc, Type(), remote, Value(), nullptr);
  }

  /// The consumers copy the tile's B-scale rows nbs[0..bScaleRows) (K/128
  /// floats each) from global to shared memory, then meet at named barrier 2. The
  /// previous tile's promotions are over: its epilogue ended with a barrier.
  void copyBScales(Value sfb, ArrayRef<Value> nbs) {
    int64_t threads = 128 * l.consumers;
    auto copy = scf::ForOp::create(b, loc, tid, k.c32(l.bScaleRows * l.kBlocks),
                                   k.c32(threads));
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(copy.getBody());
      Value i = copy.getInductionVar();
      Value row = k.divu(i, k.c32(l.kBlocks));
      Value kb = k.remu(i, k.c32(l.kBlocks));
      // Row r holds the scales of block nbs[r].
      Value nb = nbs[l.bScaleRows - 1];
      for (int64_t r = l.bScaleRows - 2; r >= 0; --r)
        nb = arith::SelectOp::create(b, loc, k.eq(row, k.c32(r)), nbs[r], nb);
      Value v = k.loadF32(k.elementAt(
          sfb, k.add(k.mul(nb, k.c32(l.kBlocks)), kb), 4));
      LLVM::StoreOp::create(b, loc, v,
                            k.elementAt(k.byteAt(smem, l.sfbOff), i, 4));
    }
    NVVM::BarrierOp::create(b, loc, Type(), k.c32(2), k.c32(threads), nullptr,
                            Value());
  }

  KernelIR k;
  OpBuilder &b;
  Location loc;
  const KernelLayout &l;
  LLVM::LLVMFuncOp fn;
  StringRef smemSymbol;
  bool altShape;
  Value ownCtas;
  ArrayRef<Value> loadedCounts;
  RingInit ring;
  Value smem, tid, numMBlocks, tiles, firstTile, tileStep;
  // The tile order's M units: M blocks, or with B multicast pairs of them.
  Value numMUnits;
  Value rank; // CTA rank in the cluster (cluster > 1 only)
  // Tail split: tiles outside the last wave, tail tiles, whether this CTA's
  // cluster has one; while its body is built, the CTA's K share.
  Value fullTiles, tailTiles, hasTail, kStart, kCount;
  bool inTail = false;
  // k-grouped, while a tile's body is built: its workspace slot, and
  // whether the producer writes the group's maps there (the group changed).
  Value kgSlot, kgFresh;
};
} // namespace

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
