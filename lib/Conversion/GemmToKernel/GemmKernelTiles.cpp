//===- GemmKernelTiles.cpp - the tile walks of a GEMM kernel --------------===//
//
// GemmKernelBuilder's tile walks (both roles run the same one, so producer
// and consumers agree on every tile without talking): the persistent loop
// over the normal and contiguous layouts' tiles (dgemm.schedule_tile; with
// a cluster, units of two tiles), the split tail, the k-grouped GEMM's
// groups, and the masked layout's walks over masked_m (group order, and the
// cost walk), with each tile's K range.
//
//===----------------------------------------------------------------------===//
#include "GemmKernelBuilder.h"

#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dgemm;

namespace mlir::dgemm::kernel_builder {

Value GemmKernelBuilder::tileKBlocks(Value group) {
  if (kCount) // a split tail tile: this CTA's share
    return kCount;
  return l.kGrouped() ? groupInt(group, 0) : k.c32(l.kBlocks);
}

Value GemmKernelBuilder::tileKStart() {
  return kStart ? kStart : k.c32(0);
}

std::pair<Value, Value> GemmKernelBuilder::scheduleTile(Value t,
                                                        Value numMUnits) {
  // Groups of swizzleGroup blocks along N, or with tile-order=m along M,
  // counted in units of the cluster's pair along that dimension.
  const int64_t group = std::max<int64_t>(
      l.swizzleGroup / (l.tileOrderM ? l.mcastB() : l.mcastA()), 1);
  auto sched = ScheduleTileOp::create(
      b, loc, k.i32, k.i32, t, numMUnits,
      b.getI32IntegerAttr(l.nBlocks / l.mcastA()), b.getI32IntegerAttr(group),
      l.tileOrderM ? b.getUnitAttr() : UnitAttr());
  return {sched.getMBlock(), sched.getNBlock()};
}

Value GemmKernelBuilder::tileLoop(TileBody body) {
  if (l.masked())
    return maskedTileLoop(body);
  if (l.kGrouped())
    return kGroupedTileLoop(body);
  // Tile t's M and N blocks (with a cluster, this CTA's tile of the pair).
  auto blocksOf = [&](Value t) -> std::pair<Value, Value> {
    auto [mBlock, nBlock] = scheduleTile(t, numMUnits);
    if (l.mcastA() > 1)
      nBlock = k.add(k.mul(nBlock, k.c32(l.mcastA())), rank);
    if (l.mcastB() > 1)
      mBlock = k.add(k.mul(mBlock, k.c32(l.mcastB())), rank);
    return {mBlock, nBlock};
  };
  // The contiguous layout's m_indices entries of an M block: its group, or
  // with B multicast those of both blocks of its pair (2u, 2u + 1).
  // `guard`: rows past M read as -1 (a prefetch may look past the last
  // tile).
  auto groupsOf = [&](Value mBlock, bool guard) -> SmallVector<Value> {
    if (l.mcastB() <= 1)
      return {contiguousGroup(mBlock, guard)};
    Value first = k.sub(mBlock, rank);
    return {contiguousGroup(first, guard),
            contiguousGroup(k.add(first, k.c32(1)), /*guardM=*/true)};
  };
  // group-prefetch: the loop carries the groups of the CTA's next tile
  // (t + step), loaded one tile ahead; with b-scale-prefetch also whether
  // the tile before this one (t - step) ran (else no tile prefetched this
  // one's B scales).
  const bool scalesAhead = l.groupPrefetch && l.bScalePrefetch;
  const int64_t perTile = l.mcastB() > 1 ? 2 : 1;
  SmallVector<Value> inits = {k.c32(0)};
  if (l.groupPrefetch)
    llvm::append_range(inits, groupsOf(blocksOf(firstTile).first, true));
  if (scalesAhead)
    inits.push_back(arith::ConstantIntOp::create(b, loc, k.i1, 0));
  auto loop = scf::ForOp::create(b, loc, firstTile,
                                 l.tailSplit ? fullTiles : tiles, tileStep,
                                 inits);
  b.setInsertionPointToStart(loop.getBody());
  Value t = loop.getInductionVar();
  Value it = loop.getRegionIterArgs()[0];
  auto [mBlock, nBlock] = blocksOf(t);
  SmallVector<Value> carried;
  Value next;
  // The group a tile computes with: its own block's, or with B multicast
  // its peer's where its own is padding or past M (and the own one).
  auto tileGroup = [&](ArrayRef<Value> groups) -> std::pair<Value, Value> {
    if (l.mcastB() <= 1)
      return {groups[0], groups[0]};
    Value rank0 = k.eq(rank, k.c32(0));
    Value own = arith::SelectOp::create(b, loc, rank0, groups[0], groups[1]);
    Value peer = arith::SelectOp::create(b, loc, rank0, groups[1], groups[0]);
    Value ownValid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                           own, k.c32(0));
    return {arith::SelectOp::create(b, loc, ownValid, own, peer), own};
  };
  if (l.contiguous()) {
    // The M block's group; padding blocks (-1) are skipped. With B
    // multicast, a pair of M blocks 2u, 2u + 1 (this CTA's is 2u + rank):
    // both CTAs read both groups, so that they agree on what to do. Both
    // padding (or past M): the pair skips the unit. Otherwise both run the
    // K loop, so the shared ring stays in step: one group, B's tile shared;
    // two, each CTA loads a whole tile of its own group's B (a CTA whose
    // block is padding or past M takes its peer's group and stores
    // nothing).
    SmallVector<Value> groups;
    if (l.groupPrefetch) {
      auto args = loop.getRegionIterArgs();
      groups.assign(args.begin() + 1, args.begin() + 1 + perTile);
      // The next tile's, issued now: they arrive during this tile.
      carried = groupsOf(blocksOf(k.add(t, tileStep)).first, true);
      if (scalesAhead) {
        prevTileRan = args.back();
        // The next tile's N block and group (0 where it has none: it is
        // skipped, and the scales loaded for it are never read), built
        // where the consumers ask (after the K loop, where few registers
        // are live).
        nextTile = [this, t, tileGroup, blocksOf,
                    nextGroups = carried]() -> std::pair<Value, Value> {
          // (t + step through an opaque 0: LLVM would reuse the tile
          // order's values computed at the tile's start, live through the
          // K loop, where ptxas spilled.)
          Value n =
              blocksOf(k.add(t, k.add(tileStep, k.opaqueZeroHere()))).second;
          Value g = arith::MaxSIOp::create(
              b, loc, tileGroup(nextGroups).first, k.c32(0));
          return {n, g};
        };
      }
    } else {
      groups = groupsOf(mBlock, false);
    }
    Value g0 = groups[0];
    auto [group, own] = tileGroup(groups);
    Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                        group, k.c32(0));
    auto guard = scf::IfOp::create(b, loc, TypeRange{k.i32}, valid,
                                   /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(guard.thenBlock());
    if (l.mcastB() > 1) {
      pairSharesB = k.eq(g0, groups[1]);
      dropStore = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                        own, k.c32(0));
    }
    scf::YieldOp::create(b, loc, body(mBlock, nBlock, group, it));
    pairSharesB = dropStore = prevTileRan = Value();
    nextTile = nullptr;
    b.setInsertionPointToStart(guard.elseBlock());
    scf::YieldOp::create(b, loc, it);
    next = guard.getResult(0);
    if (scalesAhead)
      carried.push_back(valid);
  } else {
    next = body(mBlock, nBlock, Value(), it);
  }
  SmallVector<Value> yields = {next};
  llvm::append_range(yields, carried);
  scf::YieldOp::create(b, loc, yields);
  b.setInsertionPointAfter(loop);
  if (!l.tailSplit)
    return loop.getResult(0);
  tailTile(body, loop.getResult(0));
  return Value();
}

Value GemmKernelBuilder::contiguousGroup(Value mBlock, bool guardM) {
  Value m0 = k.mul(mBlock, k.c32(l.blockM));
  // The offsets' walk finds no group for a row past every end.
  if (l.groupOffsets)
    return groupOfRow(m0);
  auto load = [&](Value row) -> Value {
    return LLVM::LoadOp::create(
        b, loc, k.i32, k.elementAt(fn.getArgument(kGroups), row, 4));
  };
  if (!guardM)
    return load(m0);
  Value inside = k.ult(m0, fn.getArgument(kM));
  Value group =
      load(arith::SelectOp::create(b, loc, inside, m0, k.c32(0)));
  return arith::SelectOp::create(b, loc, inside, group, k.c32(-1));
}

void GemmKernelBuilder::tailTile(TileBody body, Value it) {
  auto tail = scf::IfOp::create(b, loc, hasTail, false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(tail.thenBlock());
  Value t = k.add(fullTiles, k.divu(firstTile, k.c32(2)));
  // (No cluster pairs here: the split tail's two CTAs share one tile.)
  auto sched = scheduleTile(t, numMBlocks);
  const int64_t half = l.kBlocks / 2;
  kStart = k.mul(rank, k.c32(half));
  kCount = arith::SelectOp::create(b, loc, k.eq(rank, k.c32(0)),
                                   k.c32(half), k.c32(l.kBlocks - half));
  inTail = true;
  body(sched.first, sched.second, Value(), it);
  inTail = false;
  kStart = kCount = Value();
}

Value GemmKernelBuilder::kGroupedTileLoop(TileBody body) {
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
  return loop.getResult(0);
}

Value GemmKernelBuilder::groupOfRow(Value m0) {
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

Value GemmKernelBuilder::maskedRows(Value g) {
  Value rows = LLVM::LoadOp::create(
      b, loc, k.i32, k.elementAt(k.byteAt(smem, l.countOff), g, 4));
  rows = arith::MaxSIOp::create(b, loc, rows, k.c32(0));
  return arith::MinSIOp::create(b, loc, rows, fn.getArgument(kM));
}

Value GemmKernelBuilder::maskedGroupCount() {
  Value count = k.c32(l.groups);
  return l.groups == 1 ? k.opaque(count) : count;
}

Value GemmKernelBuilder::maskedTiles(Value g) {
  return k.mul(k.ceilDiv(maskedRows(g), l.blockM),
               k.c32(l.nBlocks / l.mcastA()));
}

Value GemmKernelBuilder::maskedTileLoop(TileBody body) {
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
  return loop.getResult(3);
}

Value GemmKernelBuilder::maskedTile(TileBody body, Value u, Value firstBlock, Value mBlocks,
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

std::pair<Value, Value> GemmKernelBuilder::classBlocks(Value g, Value c) {
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

Value GemmKernelBuilder::reversingTile(Value i) {
  Value odd = k.eq(k.andi(i, k.c32(1)), k.c32(1));
  Value back = k.sub(k.sub(tileStep, k.c32(1)), firstTile);
  return k.add(k.mul(i, tileStep),
               arith::SelectOp::create(b, loc, odd, back, firstTile));
}

Value GemmKernelBuilder::maskedCostTileLoop(TileBody body) {
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
  return loop.getResult(4);
}

} // namespace mlir::dgemm::kernel_builder
