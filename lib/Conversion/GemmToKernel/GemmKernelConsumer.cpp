//===- GemmKernelConsumer.cpp - the consumer warpgroups of a GEMM kernel --===//
//
// GemmKernelBuilder's consumers: per tile the B scales, the K loop (one K
// block at a time, stage-unrolled, or in pairs) of wgmma chains and
// two-level promotion into the f32 totals, the stage releases, the K split
// and split-tail joins, and the epilogues (TMA store, masked partial rows,
// f32 reduce-add; a fused bias, staged in shared memory during the K loop
// or, without room, prefetched into L1 at the tile's start).
//
//===----------------------------------------------------------------------===//
#include "GemmKernelBuilder.h"

#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dgemm;

namespace mlir::dgemm::kernel_builder {

void GemmKernelBuilder::buildConsumer(Value wg) {
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
  // D's stores' L2 policy (l2-hint-d), made once.
  Value dPolicy = l.f32Out ? Value() : l2Policy(l.l2HintD);

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
    // A fused bias: staged (this warpgroup's pair of its columns, loaded
    // now, has the K loop to arrive), else prefetched into L1.
    Value biasPair;
    if (l.bias && l.biasStaged)
      biasPair = loadBiasPair(n0);
    else if (l.bias)
      prefetchBias(n0);
    // The group's B scales: [G, ceil(N/128), K/128].
    Value sfbGroup =
        l.grouped() && !l.perRowB
            ? k.elementAt(sfb, group, 4 * l.nScaleBlocks * l.kBlocks)
            : sfb;
    if (!l.bScalePrefetch && !l.bScaleCopyOwn &&
        (l.masked() || (l.epilogueWarpgroup && !l.perRowB))) {
      // No epilogue barrier over all consumers (the masked register
      // store, or each warpgroup's own barrier 7 + w): meet here, so that
      // every warpgroup is done with the previous tile's B scales before
      // any overwrites them. Without it, at block M 128 a warpgroup that
      // finished its tile first copied the next tile's scales over those
      // the other was still reading (compute-sanitizer memcheck's timing
      // showed it as outputs that changed between launches; racecheck
      // reports it with two tiles per CTA:
      // bench/results/2026-12-05-*-repeat-check.log).
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
    // The tile's B-scale rows in shared memory (K/128 floats each).
    Value sfbTile = k.byteAt(smem, l.sfbOff);
    // b-scale-prefetch: the next tile's scales, loaded now, stored after
    // the K loop into the other buffer.
    SmallVector<Value> nextScales;
    Value nextSfb;
    // b-scale-prefetch and b-scale-copy=warpgroup: each warpgroup has
    // buffers of its own and its 128 threads copy every scale of the tile
    // into them (element i at thread i % 128), so the warpgroups never
    // wait for each other here.
    Value wgThread;
    if (l.bScalePrefetch || l.bScaleCopyOwn)
      wgThread = k.remu(tid, k.c32(128));
    if (l.bScalePrefetch) {
      // The CTA's i-th tile (every tile has kBlocks K blocks here) uses
      // buffer i % 2 of its warpgroup's pair.
      Value iter = k.divu(it, k.c32(l.kBlocks));
      Value odd = k.andi(iter, k.c32(1));
      Value buffers = k.byteAt(
          k.byteAt(smem, l.sfbOff), k.mul(wg, k.c32(2 * l.sfbBufferBytes)));
      sfbTile = k.byteAt(buffers, k.mul(odd, k.c32(l.sfbBufferBytes)));
      nextSfb = k.byteAt(
          buffers, k.mul(k.xori(odd, k.c32(1)), k.c32(l.sfbBufferBytes)));
      // Contiguous: the copies the last tile issued into this buffer
      // (cp.async) have landed; the barrier below shows them to the
      // warpgroup.
      if (l.contiguous())
        NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
      // The first tile copies its own; in the contiguous layout so does a
      // tile whose CTA skipped the tile before it (t - step), for which the
      // last tile that ran prefetched.
      Value copyOwn =
          l.contiguous()
              ? arith::XOrIOp::create(
                    b, loc, prevTileRan,
                    arith::ConstantIntOp::create(b, loc, k.i1, 1))
                    .getResult()
              : k.eq(iter, k.c32(0));
      auto first = scf::IfOp::create(b, loc, copyOwn, false);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(first.thenBlock());
        storeBScales(loadBScales(sfbGroup, {nb0, nb1, nb2}, wgThread),
                     sfbTile, wgThread);
      }
      // One meeting per tile, of this warpgroup's 128 threads only (named
      // barrier 9 + w): this tile's scales are in its buffer (stored by
      // the warpgroup after the last tile's K loop, or just above), and
      // every thread of it is done with the other buffer (the last
      // tile's), which the stores after this tile's K loop overwrite.
      NVVM::BarrierOp::create(b, loc, Type(), k.add(wg, k.c32(9)),
                              k.c32(128), nullptr, Value());
      // The next tile's B-scale blocks (past the last tile: clamped, loaded
      // and never read). Contiguous: after the K loop (copyBScalesAsync).
      if (!l.contiguous()) {
        Value tNext =
            k.add(firstTile, k.mul(k.add(iter, k.c32(1)), tileStep));
        nextScales = loadBScales(
            sfb,
            scaleBlocksOf(scheduleTile(tNext, numMUnits).second),
            wgThread);
      }
    } else if (l.bScaleCopyOwn) {
      // b-scale-copy=warpgroup: this warpgroup's own buffer, between two
      // meetings of its own 128 threads (named barrier 9 + w): all of them
      // done with the last tile's scales, then all of this tile's stored.
      sfbTile = k.byteAt(k.byteAt(smem, l.sfbOff),
                         k.mul(wg, k.c32(l.sfbBufferBytes)));
      Value own = k.add(wg, k.c32(9));
      NVVM::BarrierOp::create(b, loc, Type(), own, k.c32(128), nullptr,
                              Value());
      storeBScales(loadBScales(sfbGroup, {nb0, nb1, nb2}, wgThread), sfbTile,
                   wgThread);
      NVVM::BarrierOp::create(b, loc, Type(), own, k.c32(128), nullptr,
                              Value());
    } else if (!l.perRowB) {
      copyBScales(sfbGroup, {nb0, nb1, nb2});
    }
    SmallVector<Value, 3> sfbRows = {sfbTile,
                                     k.byteAt(sfbTile, 4 * l.kBlocks),
                                     k.byteAt(sfbTile, 8 * l.kBlocks)};
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
    // `afterIssue` runs once the first wave's wgmmas are issued,
    // `afterRelease` once the stage is released (before the last part's
    // promotion).
    auto kBlock = [&](const KBlockStage &st, ValueRange in,
                      llvm::function_ref<void()> afterIssue = {},
                      llvm::function_ref<void()> afterRelease = {}) {
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
            if (afterRelease)
              afterRelease();
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
      // Early full wait: each copy, once it released its slot, tests the
      // next slot's full barrier (non-blocking) and carries the answer
      // (the last value of `cur`) to the next copy, which waits only where
      // it was false; a skipped copy carries false. So the test's latency
      // runs beside the promotion instead of before the next wgmmas.
      // Full rounds: every tile starts at slot 0 and ends at the last
      // slot (KernelLayout::fullRounds), so no copy is guarded.
      // Early B scales: the values after the sums carry the next K
      // block's B scales (loaded for K block 0 before the loop, then by
      // each copy for the next once it released its slot; the last K
      // block loads its own again rather than read past the tile's row).
      const bool early = l.earlyFullWait;
      const bool earlyB = l.earlyBScales;
      const size_t nSums = inits.size() - 1;
      Value nk = tileKBlocks(group);
      Value base = inits[0];
      Value stages = k.c32(l.stages);
      Value rFirst = k.divu(base, stages);
      Value rEnd =
          l.fullRounds
              ? k.add(rFirst, k.c32(l.kBlocks / l.stages))
              : k.divu(k.add(k.add(base, nk), k.c32(l.stages - 1)), stages);
      SmallVector<Value> roundInits(ValueRange(inits).drop_front());
      if (earlyB)
        llvm::append_range(roundInits, bScalesAt(sfbRows, k.c32(0), oneBlock,
                                                 threeBlocks));
      const size_t nB = roundInits.size() - nSums;
      if (early)
        roundInits.push_back(k.c1(false));
      // The round loop, its promotions taking `former` as it is when it is
      // built.
      auto buildRounds = [&]() -> SmallVector<Value> {
        auto rounds = scf::ForOp::create(b, loc, rFirst, rEnd, k.c32(1),
                                         roundInits);
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(rounds.getBody());
          Value r = rounds.getInductionVar();
          Value phase = k.andi(r, k.c32(1));
          SmallVector<Value> cur(rounds.getRegionIterArgs());
          for (int64_t j = 0; j < l.stages; ++j) {
            Value kb = k.sub(k.add(k.mul(r, stages), k.c32(j)), base);
            // Copy j's K block from its slot: the new sums (and the early
            // test's answer).
            ValueRange in = ValueRange(cur).take_front(nSums);
            ValueRange carriedB = ValueRange(cur).slice(nSums, nB);
            auto copy = [&]() {
              KBlockStage st = waitStage(
                  k.c32(j), phase, kb, rowWg, r0, r1, sfbRows, oneBlock,
                  threeBlocks, early ? cur.back() : Value(),
                  SmallVector<Value>(carriedB));
              if (l.pinDescriptors) {
                Value zero = k.opaqueZeroHere();
                st.aTile = k.byteAt(st.aTile, zero);
                if (l.pinDescriptorsB)
                  st.bTile = k.byteAt(st.bTile, zero);
              }
              Value nextReady;
              SmallVector<Value, 3> nextB;
              SmallVector<Value> out = kBlock(st, in, {}, [&] {
                if (earlyB)
                  nextB = bScalesAt(sfbRows,
                                    k.minu(k.add(kb, k.c32(1)),
                                           k.sub(nk, k.c32(1))),
                                    oneBlock, threeBlocks);
                if (!early)
                  return;
                // The next ring entry: slot j + 1 of this round, or slot 0 of
                // the next (the other parity).
                const bool wraps = j + 1 == l.stages;
                nextReady = testParity(
                    fullBarrier(k.c32(wraps ? 0 : j + 1)),
                    wraps ? k.xori(phase, k.c32(1)) : phase);
              });
              llvm::append_range(out, nextB);
              if (early)
                out.push_back(nextReady);
              return out;
            };
            // Full rounds: the copy is always in the tile, but still in a
            // block of its own (on an opaque true that ptxas folds), so that
            // LLVM does not sink its promotion past the next copy's wgmmas
            // (without: 1.2 KB of spills at 128x192).
            auto inTile = scf::IfOp::create(
                b, loc, ValueRange(cur).getTypes(),
                l.fullRounds ? k.opaqueTrueHere() : k.ult(kb, nk),
                /*withElseRegion=*/true);
            OpBuilder::InsertionGuard g2(b);
            b.setInsertionPointToStart(inTile.thenBlock());
            scf::YieldOp::create(b, loc, copy());
            b.setInsertionPointToStart(inTile.elseBlock());
            SmallVector<Value> skipped(ValueRange(cur).take_front(nSums + nB));
            if (early)
              skipped.push_back(k.c1(false));
            scf::YieldOp::create(b, loc, skipped);
            cur.assign(inTile.getResults().begin(), inTile.getResults().end());
          }
          scf::YieldOp::create(b, loc, cur);
        }
        return SmallVector<Value>(rounds.getResults());
      };
      SmallVector<Value> roundResults;
      if (l.promoteVersions) {
        // Promote versions (128x192): a tile starts at a scale-block
        // boundary (n0 % 128 == 0: the first 16 groups take nb0's scale)
        // or half way into one (the first 8); one round loop for each, so
        // that `former` is a constant in both and the promotions pick
        // their B scales without selects.
        Value formerAtRun = former;
        auto versions = scf::IfOp::create(
            b, loc, ValueRange(roundInits).getTypes(),
            k.eq(formerAtRun, k.c32(16)), /*withElseRegion=*/true);
        for (int64_t v = 0; v < 2; ++v) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(v == 0 ? versions.thenBlock()
                                            : versions.elseBlock());
          former = k.c32(v == 0 ? 16 : 8);
          scf::YieldOp::create(b, loc, buildRounds());
        }
        former = formerAtRun;
        roundResults.assign(versions.getResults().begin(),
                            versions.getResults().end());
      } else {
        roundResults = buildRounds();
      }
      ValueRange sums = ValueRange(roundResults).take_front(nSums);
      totals.assign(sums.begin(), sums.end());
      ringNext = k.add(base, nk);
    } else {
      // Early full wait (opt-in here): as in the stage-unrolled loop, the
      // answer of the test of the next ring entry (i + kStep) rides as
      // the last value of the loop.
      const bool early = l.earlyFullWait;
      SmallVector<Value> loopInits(inits);
      if (early)
        loopInits.push_back(k.c1(false));
      auto kLoop = scf::ForOp::create(b, loc, kFirst, tileKBlocks(group),
                                      k.c32(kStep), loopInits);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(kLoop.getBody());
        Value kb = kLoop.getInductionVar();
        ValueRange args = kLoop.getRegionIterArgs();
        Value i = args[0];
        // Scales into registers before the wgmma fence (a row wave's just
        // before its own fence: fewer registers live across the first
        // wave).
        KBlockStage st =
            waitKBlock(i, kb, rowWg, r0, r1, sfbRows, oneBlock, threeBlocks,
                       early ? args.back() : Value());
        SmallVector<Value> results = {Value()};
        Value nextReady;
        llvm::append_range(
            results,
            kBlock(st, args.drop_front().drop_back(early ? 1 : 0),
                   [&] { results[0] = k.add(i, k.c32(kStep)); },
                   [&] {
                     if (!early)
                       return;
                     auto [s, phase] = ringSlot(k.add(i, k.c32(kStep)));
                     nextReady = testParity(fullBarrier(s), phase);
                   }));
        if (early)
          results.push_back(nextReady);
        scf::YieldOp::create(b, loc, results);
      }
      ValueRange sums =
          kLoop.getResults().drop_front().drop_back(early ? 1 : 0);
      totals.assign(sums.begin(), sums.end());
      ringNext = kLoop.getResult(0);
    }
    // Contiguous: the next tile's group was read at this tile's start (the
    // tile walk's group-prefetch), so its scales are copied now, straight
    // into the other buffer (cp.async: no registers held through the
    // epilogue, which runs while they arrive; waited for at the next
    // tile's start).
    if (l.bScalePrefetch && l.contiguous()) {
      auto [nextN, nextGroup] = nextTile();
      // The other buffer of the warpgroup's pair, its address computed here
      // rather than held through the K loop.
      Value odd = k.andi(
          k.divu(k.add(it, k.opaqueZeroHere()), k.c32(l.kBlocks)), k.c32(1));
      Value other = k.byteAt(
          k.byteAt(smem, l.sfbOff),
          k.mul(k.add(k.mul(wg, k.c32(2)), k.xori(odd, k.c32(1))),
                k.c32(l.sfbBufferBytes)));
      // (Each through an opaque 0, so that LLVM computes the values here
      // instead of reusing or hoisting those computed before the K loop,
      // live through it: ptxas spilled 172-196 bytes that way.)
      copyBScalesAsync(
          k.elementAt(sfb, nextGroup, 4 * l.nScaleBlocks * l.kBlocks),
          scaleBlocksOf(nextN), other,
          k.add(k.remu(tid, k.c32(128)), k.opaqueZeroHere()));
    } else if (l.bScalePrefetch) {
      storeBScales(nextScales, nextSfb, wgThread);
    }
    Value biasBuffer = biasPair ? storeBiasPair(biasPair, wg) : Value();
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
      // Epilogue fusion: the bias joins the final sums right before the
      // store, by the threads that store them.
      if (l.bias) {
        // From the warpgroup's buffer (its columns from 0) or from the
        // bias vector itself.
        auto biased = AddBiasOp::create(
            b, loc, totals, biasBuffer ? biasBuffer : fn.getArgument(kBiasPtr),
            biasBuffer ? k.c32(0) : n0, tid,
            b.getI32IntegerAttr(biasBuffer ? l.blockN : l.n),
            b.getI32IntegerAttr(l.blockM),
            b.getI32IntegerAttr(l.blockN),
            b.getI32IntegerAttr(l.rowWarpgroups()));
        totals.assign(biased.getResults().begin(), biased.getResults().end());
      }
      // A contiguous pair's padding block (dropStore): the box starts past
      // M's last block, so TMA writes none of it (as for the block past M).
      Value storeM0 =
          dropStore ? arith::SelectOp::create(
                          b, loc, dropStore,
                          k.mul(numMBlocks, k.c32(l.blockM)), m0)
                          .getResult()
                    : m0;
      auto store = EpilogueStoreOp::create(
          b, loc, totals, k.byteAt(smem, l.dOff), tensorMap(kMapD), n0,
          storeM0,
          groupCoord, tid, rows, rows ? fn.getArgument(kDPtr) : Value(),
          rows ? fn.getArgument(kM) : Value(), dPolicy,
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
      if (l.stagingStmatrix)
        store.setStmatrix(true);
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
  // Contiguous b-scale-prefetch: the last tile's copies (for a tile that
  // does not come) land before the thread exits.
  if (l.bScalePrefetch && l.contiguous())
    NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
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

Value GemmKernelBuilder::maskedTileAddress(Value m0, Value n0, Value group) {
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

void GemmKernelBuilder::storeMaskedTile(ValueRange totals, Value rows, Value m0, Value n0,
                                        Value group) {
  EpilogueStoreRowsOp::create(
      b, loc, totals, maskedTileAddress(m0, n0, group), rows,
      k.sub(k.c32(l.n), n0), tid, b.getI32IntegerAttr(l.n),
      b.getI32IntegerAttr(l.blockM), b.getI32IntegerAttr(l.blockN),
      b.getI32IntegerAttr(l.consumers));
}

SmallVector<Value> GemmKernelBuilder::loadColumnScales(Value s, Value lane, int64_t first,
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

Value GemmKernelBuilder::promoteCols(Type fragment, Value total, Value acc, Value sa0,
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

SmallVector<Value> GemmKernelBuilder::joinSplitTotals(ArrayRef<Value> totals, Type fragment,
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

SmallVector<Value> GemmKernelBuilder::reduceTailTile(ArrayRef<Value> totals, Type fragment,
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

GemmKernelBuilder::KBlockStage GemmKernelBuilder::waitKBlock(Value i, Value kb, Value wg, Value r0, Value r1,
                                                             ArrayRef<Value> sfbRows, bool oneBlock,
                                                             bool threeBlocks, Value ready) {
  auto [s, phase] = ringSlot(i);
  return waitStage(s, phase, kb, wg, r0, r1, sfbRows, oneBlock, threeBlocks,
                   ready);
}

SmallVector<Value, 3> GemmKernelBuilder::bScalesAt(ArrayRef<Value> sfbRows,
                                                   Value kb, bool oneBlock,
                                                   bool threeBlocks) {
  Value kAbs = k.add(kb, tileKStart());
  SmallVector<Value, 3> sb = {k.loadF32(k.elementAt(sfbRows[0], kAbs, 4))};
  if (!oneBlock)
    sb.push_back(k.loadF32(k.elementAt(sfbRows[1], kAbs, 4)));
  if (threeBlocks)
    sb.push_back(k.loadF32(k.elementAt(sfbRows[2], kAbs, 4)));
  return sb;
}

GemmKernelBuilder::KBlockStage GemmKernelBuilder::waitStage(Value s, Value phase, Value kb, Value wg, Value r0,
                                                            Value r1, ArrayRef<Value> sfbRows, bool oneBlock,
                                                            bool threeBlocks, Value ready,
                                                            ArrayRef<Value> bScales) {
  KBlockStage st;
  st.s = s;
  // Wait until the stage's TMA loads landed (early-full-wait: unless an
  // earlier test saw them land).
  if (ready) {
    auto notYet = scf::IfOp::create(b, loc, k.eq(ready, k.c1(false)),
                                    /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(notYet.thenBlock());
    waitParity(fullBarrier(st.s), phase);
  } else {
    waitParity(fullBarrier(st.s), phase);
  }
  st.sfa = stageBuffer(l.sfaOff, l.sfaStageBytes, st.s);
  st.sa0 = k.loadF32(k.elementAt(st.sfa, r0, 4));
  st.sa1 = k.loadF32(k.elementAt(st.sfa, r1, 4));
  if (!l.perRowB) {
    SmallVector<Value, 3> sb(bScales.begin(), bScales.end());
    if (sb.empty())
      sb = bScalesAt(sfbRows, kb, oneBlock, threeBlocks);
    st.sb0 = sb[0];
    st.sb1 = oneBlock ? sb[0] : sb[1];
    if (threeBlocks)
      st.sb2 = sb[2];
  }
  st.aTile = k.byteAt(stageBuffer(l.aOff, l.aStageBytes, st.s),
                      k.mul(wg, k.c32(64 * 128)));
  st.bTile = stageBuffer(l.bOff, l.bStageBytes, st.s);
  return st;
}

SmallVector<Value> GemmKernelBuilder::kBlockPairs(Value end, ValueRange inits, Value wg,
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

void GemmKernelBuilder::releaseStage(Value s, Value lane) {
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

SmallVector<Value> GemmKernelBuilder::scaleBlocksOf(Value nBlock) {
  Value nb = k.minu(k.divu(k.mul(nBlock, k.c32(l.blockN)), k.c32(128)),
                    k.c32(l.nScaleBlocks - 1));
  return {nb, k.minu(k.add(nb, k.c32(1)), k.c32(l.nScaleBlocks - 1)),
          k.minu(k.add(nb, k.c32(2)), k.c32(l.nScaleBlocks - 1))};
}

Value GemmKernelBuilder::bScaleElement(Value sfb, ArrayRef<Value> nbs,
                                       Value i) {
  // Element i of the rows: row i / kBlocks, K block i % kBlocks.
  Value row = k.divu(i, k.c32(l.kBlocks));
  Value kb = k.remu(i, k.c32(l.kBlocks));
  Value nb = nbs[l.bScaleRows - 1];
  for (int64_t r = l.bScaleRows - 2; r >= 0; --r)
    nb = arith::SelectOp::create(b, loc, k.eq(row, k.c32(r)), nbs[r], nb);
  return k.elementAt(sfb, k.add(k.mul(nb, k.c32(l.kBlocks)), kb), 4);
}

void GemmKernelBuilder::copyBScalesAsync(Value sfb, ArrayRef<Value> nbs,
                                         Value dst, Value thread) {
  const int64_t threads = 128;
  const int64_t count = l.bScaleRows * l.kBlocks;
  for (int64_t j = 0; j * threads < count; ++j) {
    Value i = k.add(thread, k.c32(j * threads));
    auto inside = scf::IfOp::create(b, loc, k.ult(i, k.c32(count)), false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(inside.thenBlock());
    NVVM::CpAsyncOp::create(
        b, loc, k.elementAt(dst, i, 4), bScaleElement(sfb, nbs, i),
        b.getI32IntegerAttr(4),
        NVVM::LoadCacheModifierKindAttr::get(
            b.getContext(), NVVM::LoadCacheModifierKind::CA),
        Value());
  }
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
}

SmallVector<Value> GemmKernelBuilder::loadBScales(Value sfb, ArrayRef<Value> nbs,
                                                 Value thread) {
  const int64_t threads = 128;
  const int64_t count = l.bScaleRows * l.kBlocks;
  SmallVector<Value> values;
  for (int64_t j = 0; j * threads < count; ++j) {
    // A thread past the end loads the last element and stores nothing.
    Value i = k.minu(k.add(thread, k.c32(j * threads)), k.c32(count - 1));
    values.push_back(k.loadF32(bScaleElement(sfb, nbs, i)));
  }
  return values;
}

void GemmKernelBuilder::storeBScales(ArrayRef<Value> values, Value dst,
                                     Value thread) {
  const int64_t threads = 128;
  const int64_t count = l.bScaleRows * l.kBlocks;
  for (auto [j, v] : llvm::enumerate(values)) {
    Value i = k.add(thread, k.c32(static_cast<int64_t>(j) * threads));
    auto inside = scf::IfOp::create(b, loc, k.ult(i, k.c32(count)), false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(inside.thenBlock());
    LLVM::StoreOp::create(b, loc, v, k.elementAt(dst, i, 4));
  }
}

Value GemmKernelBuilder::loadBiasPair(Value n0) {
  // Warpgroup thread i loads columns n0 + 2i and + 1 (i clamped to the
  // tile's last pair, the column to the matrix's last pair).
  Value pair = k.minu(k.remu(tid, k.c32(128)), k.c32(l.blockN / 2 - 1));
  Value col = k.minu(k.add(n0, k.mul(pair, k.c32(2))), k.c32(l.n - 2));
  return LLVM::LoadOp::create(b, loc, VectorType::get({2}, k.f32),
                              k.elementAt(fn.getArgument(kBiasPtr), col, 4),
                              /*alignment=*/8);
}

Value GemmKernelBuilder::storeBiasPair(Value pair, Value wg) {
  // The warpgroup's buffer; its first blockN / 2 threads store their pairs.
  // No thread of the warpgroup still reads the last tile's: each read it
  // before the last tile's epilogue barrier, which the warpgroup's threads
  // passed before coming here.
  Value wgThread = k.remu(tid, k.c32(128));
  Value buffer = k.byteAt(k.byteAt(smem, l.biasOff),
                          k.mul(wg, k.c32(4 * l.blockN)));
  auto mine =
      scf::IfOp::create(b, loc, k.ult(wgThread, k.c32(l.blockN / 2)), false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(mine.thenBlock());
    LLVM::StoreOp::create(b, loc, pair, k.elementAt(buffer, wgThread, 8),
                          /*alignment=*/8);
  }
  // The warpgroup's own meeting (named barrier 11 + w): every pair stored.
  NVVM::BarrierOp::create(b, loc, Type(), k.add(wg, k.c32(11)), k.c32(128),
                          nullptr, Value());
  return buffer;
}

void GemmKernelBuilder::prefetchBias(Value n0) {
  // The tile's columns start anywhere 8-byte aligned, so they touch at most
  // blockN / 32 + 1 lines of 32 floats; thread i prefetches the line of
  // column n0 + 32 i, clamped to the last column.
  const int64_t lines = l.blockN / 32 + 1;
  auto mine = scf::IfOp::create(b, loc, k.ult(tid, k.c32(lines)), false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(mine.thenBlock());
  Value col = k.minu(k.add(n0, k.mul(tid, k.c32(32))), k.c32(l.n - 1));
  NVVM::PrefetchOp::create(b, loc,
                           NVVM::PrefetchCacheLevelAttr::get(
                               b.getContext(), NVVM::PrefetchCacheLevel::L1),
                           /*evictPriority=*/nullptr,
                           k.elementAt(fn.getArgument(kBiasPtr), col, 4),
                           /*predicate=*/Value());
}

void GemmKernelBuilder::copyBScales(Value sfb, ArrayRef<Value> nbs) {
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

} // namespace mlir::dgemm::kernel_builder
