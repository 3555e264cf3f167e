//===- GemmKernelBuilder.h - the builder of a GEMM kernel body -*- C++ -*-===//
//
// GemmKernelBuilder writes one kernel body as kernel IR (GemmKernel.cpp
// draws the kernel). Its members are defined by concern:
//   GemmKernel.cpp          the body's frame (roles, exit), the stage ring's
//                           barriers and buffers, shared-memory set-up; the
//                           kernel function and the two-shape entry
//   GemmKernelTiles.cpp     the tile walks: normal and contiguous, the split
//                           tail, k-grouped, masked (group order and cost)
//   GemmKernelProducer.cpp  the producer warpgroup: TMA loads, L2 policies,
//                           the k-grouped GEMM's per-group tensor maps
//   GemmKernelConsumer.cpp  the consumer warpgroups: K loops, wgmma,
//                           promotion, stage release, epilogues
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_LIB_CONVERSION_GEMMTOKERNEL_GEMMKERNELBUILDER_H
#define DGEMM_LIB_CONVERSION_GEMMTOKERNEL_GEMMKERNELBUILDER_H

#include "GemmKernel.h"
#include "KernelIR.h"

#include <functional>

namespace mlir::dgemm::kernel_builder {

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
  void buildRingInit();

  void build();

private:
  /// full[s] and empty[s] for a stage index known at run time.
  Value fullBarrier(Value s);
  Value emptyBarrier(Value s);
  Value stageBuffer(int64_t offset, int64_t stageBytes, Value s);
  void waitParity(Value barrier, Value parity);
  /// Whether the barrier's phase of parity `parity` has completed, without
  /// blocking (mbarrier.test_wait.parity; acquire where true), or with
  /// earlyTryWait one mbarrier.try_wait.parity, whose answer comes when
  /// the phase completes or the try's time limit passes.
  Value testParity(Value barrier, Value parity);
  /// Ring counter i -> (its slot i % stages, the slot's phase parity
  /// (i / stages) & 1).
  std::pair<Value, Value> ringSlot(Value i);
  /// The producer's wait until the consumers released slot s for the use
  /// of phase `phase` (the empty barrier's previous phase completed).
  void waitSlotReleased(Value s, Value phase);
  Value tensorMap(GemmKernelParam p);
  /// The map of B's scales (1x128 recipe).
  Value sfbMap();
  /// k-grouped: group g's entries in the group table (KGroupedKernelParam).
  /// (`which`: 0 the group's K blocks, 1 its first K block.)
  Value groupInt(Value g, int64_t which);

  /// k-grouped: this CTA's workspace slot `slot` (A_g's map, then B_g's).
  Value groupMapSlot(Value slot);

  /// k-grouped, all threads before the first barrier: the templates into
  /// every slot of the CTA's ring, 16 bytes a thread (the tiles then
  /// rewrite only address, sizes and pitch).
  void copyMapTemplates();

  /// k-grouped: map `which` (0: A_g's, 1: B_g's) in a workspace slot.
  Value groupMap(Value slot, int which);

  /// k-grouped, producer: writes the maps of A_g [M, k_g] and B_g [N, k_g]
  /// into this tile's workspace slot (kgSlot, holding the templates).
  /// Groups start M * 128 (N * 128) bytes of A (B) per K block before them.
  void writeGroupMaps(Value group);
  /// k-grouped, producer: the maps in this tile's slot (kgSlot) as the TMA
  /// takes them (generic addresses, A's then B's).
  std::pair<Value, Value> groupMaps();
  /// K blocks of a tile: K/128, or (k-grouped) the group's.
  Value tileKBlocks(Value group);

  /// The first K block of the tile's share (0 but for a split tail tile).
  Value tileKStart();

  /// Thread 0 initialises the ring (unless the entry block did:
  /// RingInit::done()); everyone waits for it.
  void initBarriers();

  /// Thread 0: the ring's barriers (after invalidating those of the shape
  /// the entry block set up, RingInit::replacing()) and the maps' prefetch.
  void initRing();

  /// The group counts into shared memory, the maps' templates (k-grouped),
  /// then the CTA (or cluster) barrier that publishes the ring.
  void initShared();

  /// One tile: (M block, N block, group or null for the normal GEMM, ring
  /// counter before it) -> ring counter after it.
  using TileBody =
      function_ref<Value(Value mBlock, Value nBlock, Value group, Value it)>;

  /// The persistent tile loop over the launch's tiles (or, masked, over the
  /// tiles of every group in turn). Returns the ring counter after the last
  /// tile (null with tailSplit, whose tail tile's counter is not kept).
  Value tileLoop(TileBody body);

  /// The normal and contiguous layouts' walk: the (M unit, N unit) of tile
  /// t (units of the cluster's pair) of `numMUnits` M units in the layout's
  /// order, groups of swizzleGroup N blocks, or M blocks with tileOrderM.
  /// Every walk of those layouts (the tile loop, the split tail, the next
  /// tile's B-scale prefetch) takes its tiles from here, so that all agree.
  std::pair<Value, Value> scheduleTile(Value t, Value numMUnits);

  /// With tailSplit: the tail tile of this CTA's cluster, rank r computing
  /// the r-th half of its K blocks (kStart, kCount, inTail set for the
  /// body).
  void tailTile(TileBody body, Value it);

  /// k-grouped: tiles t = g * (M blocks * N blocks) + the tile of D[g] in the
  /// grouped tile order; groups with no K blocks are skipped (D[g] += 0).
  Value kGroupedTileLoop(TileBody body);

  /// Contiguous layout given by offsets (end row of each group, groups
  /// starting at the next multiple of 128): the group of the M block at row
  /// m0, the first g with m0 < end[g], or -1 when m0 is past every group's
  /// end or in the padding before g's start (a 64-row block can start
  /// there): such blocks are skipped, as m_indices' -1 blocks are.
  Value groupOfRow(Value m0);

  /// Rows of group g that count: min(max(masked_m[g], 0), M_max).
  Value maskedRows(Value g);
  /// The masked walks' group count G. One group: with G = 1 a constant,
  /// LLVM proves every tile's group is 0 and specialises the kernel on it;
  /// at block M 256 ptxas then spilled 28-36 bytes (any M_max, N, K), which
  /// two groups' kernels do not. An opaque count keeps the one-group
  /// kernel the general one.
  Value maskedGroupCount();

  /// Units of work of group g: tiles, or with a cluster, pairs of
  /// neighbouring tiles along N.
  Value maskedTiles(Value g);

  /// scf.while over t = firstTile, firstTile + step, ...: before each tile
  /// the group moves forward while t is past the group's tiles; the loop
  /// ends when it runs out of groups.
  Value maskedTileLoop(TileBody body);

  /// Masked walks: unit u of group g's `mBlocks` M blocks from `firstBlock`
  /// (null: 0) x N blocks in the grouped tile order (a unit is a tile, or
  /// with a cluster a pair of tiles along N, this CTA's); runs the body and
  /// returns the ring counter after it.
  Value maskedTile(TileBody body, Value u, Value firstBlock, Value mBlocks,
                   Value g, Value it);

  /// Cost walk: the M blocks of group g in class c (their count of 64-row
  /// waves with valid rows, 1 .. BM/64): (first M block, M blocks). Class
  /// BM/64 holds the group's full blocks (from block 0), and its crossing
  /// block where that has more than BM - 64 rows; a lower class at most the
  /// crossing block.
  std::pair<Value, Value> classBlocks(Value g, Value c);

  /// The CTA's (or cluster's) i-th unit of work when every other round
  /// is walked backwards: i * P + c, or i * P + P - 1 - c for odd i.
  Value reversingTile(Value i);

  /// masked-walk=cost: the launch's tiles in classes of falling cost (see
  /// classBlocks), each class over the groups in order, each (class,
  /// group) over its M blocks x N blocks in the grouped tile order. A CTA's
  /// i-th tile is t = i * P + c, or i * P + P - 1 - c for odd i (P the
  /// grid), so that the CTAs that took the dearest tiles of one round take
  /// the cheapest of the next. A cursor (class, group, the first unit of
  /// that class and group) only moves forward; the loop ends when it runs
  /// out of classes.
  Value maskedCostTileLoop(TileBody body);

  void buildProducer();

  /// multicast-exit=drain: the producer's last waits, on the empty barrier
  /// of each of the `stages` ring slots after its last load (ring counter
  /// `it`), so that the CTA leaves only once the consumers of both CTAs
  /// released every stage it filled: no peer arrives on its barriers, and
  /// it multicasts into no peer, after that (the consumers wait for every
  /// load into their own CTA). This replaces the cluster barrier before
  /// exit.
  void drainRing(Value it);

  /// The L2 cache policy of `hint` ("evict_first", ...: createpolicy, an
  /// inline PTX statement since NVVM has no op for it), or null for "".
  Value l2Policy(const std::string &hint);

  void loadTile(Value dst, Value map, ArrayRef<Value> coords, Value barrier,
                Value multicastMask = Value(), Value l2Hint = Value());

  void buildConsumer(Value wg);

  /// Masked layout: the address of the tile's element (0, 0) in D
  /// [G, M_max, N] (contiguous): element ((g * M_max + m0) * N + n0).
  Value maskedTileAddress(Value m0, Value n0, Value group);

  /// Masked layout, a tile crossing masked_m (masked-partial-store=direct):
  /// its first `rows` rows straight from registers.
  void storeMaskedTile(ValueRange totals, Value rows, Value m0, Value n0,
                       Value group);

  /// 1x128 recipe: the thread's B-scale pairs of stage s for the `cols`
  /// columns from `first`, one per 8-column group j: columns first + 8j + 2q
  /// and first + 8j + 2q + 1 (q = lane % 4).
  SmallVector<Value> loadColumnScales(Value s, Value lane, int64_t first,
                                      int64_t cols);

  /// 1x128 recipe: `acc` (columns first.. first+cols of the tile) promoted
  /// into `total` with its columns' B scales from stage s; with `release`
  /// (the stage's last reader) the stage is released after the scales are
  /// read (early) or after the promotion (lateRelease).
  Value promoteCols(Type fragment, Value total, Value acc, Value sa0,
                    Value sa1, Value s, Value lane, int64_t first,
                    int64_t cols, bool release);

  /// K split: warpgroup 1 hands its sums to warpgroup 0 through the
  /// staging tile, half of each thread's registers at a time (a half is
  /// BN/4 floats x 128 threads = the staging tile's 2 * 64 * BN bytes),
  /// slot (e * 128 + thread) for register e; warpgroup 0 adds them to its
  /// own. The previous tile's TMA store must have read the staging tile
  /// first (thread 0 issued it). Named barrier 5, both warpgroups. Returns
  /// warpgroup 0's sums (warpgroup 1's own in warpgroup 1).
  SmallVector<Value> joinSplitTotals(ArrayRef<Value> totals, Type fragment,
                                     int64_t fields, Value wg);

  /// The tail tile's reduction over the cluster (both CTAs' consumers; the
  /// producers meet the same two cluster barriers after their loop): when
  /// rank 0's consumers are done with their K share (cluster barrier 1), its
  /// stages are free and rank 1's consumer threads write their totals there
  /// through distributed shared memory (thread t's `fields` floats per part
  /// at t * BN/2 floats); after cluster barrier 2 (release / acquire) rank
  /// 0's threads add them to theirs. Returns the totals (rank 1's
  /// unchanged).
  SmallVector<Value> reduceTailTile(ArrayRef<Value> totals, Type fragment,
                                    int64_t fields);

  /// A K block's stage as the consumers see it: the ring slot, its A-scale
  /// buffer, the thread's first row wave's A scales, the K block's B scales
  /// (128x128 recipe) and the warpgroup's A and B tiles.
  struct KBlockStage {
    Value s, sfa, sa0, sa1, sb0, sb1, sb2, aTile, bTile;
  };

  /// Waits until ring slot i % stages holds K block kb (full barrier, parity
  /// (i / stages) & 1) and loads its scales; `ready` as for waitStage.
  KBlockStage waitKBlock(Value i, Value kb, Value wg, Value r0, Value r1,
                         ArrayRef<Value> sfbRows, bool oneBlock,
                         bool threeBlocks, Value ready = Value());

  /// The same for ring slot s (a constant in the stage-unrolled K loop:
  /// its addresses fold to constants) and parity `phase`; with `ready` (an
  /// i1: the slot's phase already seen complete by an earlier test), the
  /// wait runs only where it is false.
  /// `bScales` (early-b-scales: the ones bScalesAt loaded for kb ahead of
  /// time) replaces the stage's own B-scale loads.
  KBlockStage waitStage(Value s, Value phase, Value kb, Value wg, Value r0,
                        Value r1, ArrayRef<Value> sfbRows, bool oneBlock,
                        bool threeBlocks, Value ready = Value(),
                        ArrayRef<Value> bScales = {});

  /// K block kb's B scales from the tile's scale rows: one value (the
  /// tile lies in one scale block), two, or three (threeBlocks).
  SmallVector<Value, 3> bScalesAt(ArrayRef<Value> sfbRows, Value kb,
                                  bool oneBlock, bool threeBlocks);

  /// The K loop in pairs of K blocks (dgemm-lower-to-kernel{k-unroll=2};
  /// one row wave, one part, 128x128 B scales): blocks [0, end) two at a
  /// time; `inits` is (ring counter, total) and so is the result.
  SmallVector<Value> kBlockPairs(Value end, ValueRange inits, Value wg,
                                 Value r0, Value r1, Value lane, Type fragment,
                                 ArrayRef<Value> sfbRows, bool oneBlock,
                                 bool threeBlocks, Value former);

  /// One arrival per consumer warp on empty[s] of each CTA of the cluster:
  /// lane c arrives on CTA c's barrier (through its cluster address).
  void releaseStage(Value s, Value lane);

  /// The consumers copy the tile's B-scale rows nbs[0..bScaleRows) (K/128
  /// floats each) from global to shared memory, then meet at named barrier 2. The
  /// previous tile's promotions are over: its epilogue ended with a barrier.
  void copyBScales(Value sfb, ArrayRef<Value> nbs);
  /// b-scale-prefetch: a warpgroup thread's elements of the B-scale rows
  /// nbs[0..bScaleRows) (elements thread, thread + 128, ...; `thread` its
  /// index in the warpgroup), loaded into registers; storeBScales writes
  /// them into a buffer at dst (each warpgroup fills a whole buffer).
  SmallVector<Value> loadBScales(Value sfb, ArrayRef<Value> nbs, Value thread);
  void storeBScales(ArrayRef<Value> values, Value dst, Value thread);
  /// The same rows copied into the buffer at dst by cp.async (4 bytes an
  /// element, one commit group), to be waited for (cp.async.wait_group 0)
  /// before a barrier shows them to the warpgroup.
  void copyBScalesAsync(Value sfb, ArrayRef<Value> nbs, Value dst,
                        Value thread);
  /// The global address of element i of the B-scale rows nbs (row
  /// i / kBlocks, K block i % kBlocks).
  Value bScaleElement(Value sfb, ArrayRef<Value> nbs, Value i);
  /// The B-scale blocks (3, each clamped to the last) of a tile at N block
  /// `nBlock`.
  SmallVector<Value> scaleBlocksOf(Value nBlock);
  /// A fused bias: at the tile's start the first consumer threads prefetch
  /// its bias columns [n0, n0 + blockN) into L1, one 128-byte line each,
  /// so that dgemm.add_bias's loads after the K loop hit L1 instead of
  /// waiting for L2 with the tensor cores idle.
  void prefetchBias(Value n0);
  /// A staged bias (KernelLayout::biasStaged): at the tile's start each
  /// consumer thread loads one pair of the tile's bias columns (a
  /// vector<2xf32>); after the K loop storeBiasPair stores warpgroup wg's
  /// pairs into its buffer, meets the warpgroup's other threads and returns
  /// the buffer (columns n0.. of the tile from element 0).
  Value loadBiasPair(Value n0);
  Value storeBiasPair(Value pair, Value wg);

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
  // Contiguous layout with B multicast, while a pair's body is built:
  // whether both M blocks are of one group (the producers share B's tile),
  // and whether this CTA's own block is padding or past M (it computes
  // with its peer's group and stores nothing).
  Value pairSharesB, dropStore;
  // Contiguous layout with group-prefetch and b-scale-prefetch, while a
  // tile's body is built: whether the CTA's previous tile (t - step) ran
  // (i1; else this tile's scales were not prefetched), and a builder of
  // the next tile's N block and group (0 where it has none) at the
  // insertion point.
  Value prevTileRan;
  std::function<std::pair<Value, Value>()> nextTile;
  /// Contiguous layout: the group of M block `mBlock` (m_indices at its
  /// first row, or the offsets' group of that row); -1 for padding and,
  /// with `guardM`, for a block past M (m_indices not read there).
  Value contiguousGroup(Value mBlock, bool guardM);
};

} // namespace mlir::dgemm::kernel_builder

#endif // DGEMM_LIB_CONVERSION_GEMMTOKERNEL_GEMMKERNELBUILDER_H
