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
//       copy the tile's two rows of B scales (K/128 each) to shared memory
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
//     thread 0 waits for its last store before the CTA exits
//
// With A multicast (cluster of 2 CTAs): the pair walks units of two
// neighbouring N blocks with one M block (CTA rank r takes N block 2u + r);
// each producer loads rows [r*BM/2, (r+1)*BM/2) of the A tile into both CTAs
// (multicast mask 0b11), so full[s] still expects the whole tile's bytes; a
// stage is free only when the consumers of both CTAs released it: empty[s]
// counts 2*4*NC arrivals, lanes 0 and 1 of each consumer warp arriving on
// CTA 0's and CTA 1's barrier. Cluster barriers after the ring's
// initialisation and before exit keep a CTA from touching a peer that is not
// there.
//
// The ring counter `it` runs on across tiles, so producer and consumers agree
// on stage and parity without talking. Rows of a thread: r0 = 64w + 16*warp
// + lane/4 and r0 + 8 (the wgmma fragment layout, HOPPER-FACTS §2).
//
//===----------------------------------------------------------------------===//
#include "GemmKernel.h"

#include "KernelIR.h"

#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dgemm;

namespace {
/// Builds the body of one GEMM kernel.
class GemmKernelBuilder {
public:
  GemmKernelBuilder(OpBuilder &b, Location loc, const KernelLayout &l,
                    LLVM::LLVMFuncOp fn, StringRef smemSymbol)
      : k(b, loc), b(b), loc(loc), l(l), fn(fn), smemSymbol(smemSymbol) {}

  void build() {
    smem = LLVM::AddressOfOp::create(b, loc, k.ptr3, smemSymbol);
    tid = k.tid();
    Value wg = k.divu(tid, k.c32(128));
    initBarriers();
    Value m = fn.getArgument(kM);
    numMBlocks = k.ceilDiv(m, l.blockM);
    // Units of work: tiles, or with a cluster, pairs of neighbouring tiles.
    tiles = k.mul(numMBlocks, k.c32(l.nBlocks / l.cluster));
    if (l.cluster > 1) {
      rank = NVVM::ClusterId::create(b, loc, k.i32);
      firstTile = NVVM::ClusterIdXOp::create(b, loc, k.i32);
      tileStep = NVVM::ClusterDimXOp::create(b, loc, k.i32);
    } else {
      firstTile = k.ctaId();
      tileStep = k.numCtas();
    }

    auto roles = scf::IfOp::create(b, loc, k.eq(wg, k.c32(l.consumers)),
                                   /*withElseRegion=*/true);
    b.setInsertionPointToStart(roles.thenBlock());
    buildProducer();
    b.setInsertionPointToStart(roles.elseBlock());
    buildConsumer(wg);
    b.setInsertionPointAfter(roles);
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
  Value tensorMap(GemmKernelParam p) { return fn.getArgument(p); }

  /// Thread 0 initialises the ring; everyone waits for it.
  void initBarriers() {
    auto first = scf::IfOp::create(b, loc, k.eq(tid, k.c32(0)),
                                   /*withElseRegion=*/false);
    b.setInsertionPointToStart(first.thenBlock());
    for (int64_t s = 0; s < l.stages; ++s) {
      NVVM::MBarrierInitOp::create(b, loc, k.byteAt(smem, l.barOff + 8 * s),
                                   k.c32(1), Value());
      NVVM::MBarrierInitOp::create(
          b, loc, k.byteAt(smem, l.barOff + 8 * (l.stages + s)),
          k.c32(4 * l.consumers * l.cluster), Value());
    }
    NVVM::FenceMbarrierInitOp::create(b, loc);
    for (GemmKernelParam p : {kMapA, kMapSFA, kMapB, kMapD})
      NVVM::PrefetchOp::create(b, loc, /*cacheLevel=*/nullptr,
                               /*evictPriority=*/nullptr, tensorMap(p),
                               /*predicate=*/Value(), b.getUnitAttr());
    b.setInsertionPointAfter(first);
    if (l.cluster > 1) {
      // The peer's barriers are initialised before anyone uses them.
      NVVM::ClusterArriveOp::create(b, loc, nullptr);
      NVVM::ClusterWaitOp::create(b, loc, nullptr);
    } else {
      NVVM::Barrier0Op::create(b, loc);
    }
  }

  /// The persistent tile loop; `body` builds one tile and returns the ring
  /// counter after it.
  void tileLoop(function_ref<Value(Value mBlock, Value nBlock, Value it)> body) {
    auto loop = scf::ForOp::create(b, loc, firstTile, tiles, tileStep,
                                   ValueRange{k.c32(0)});
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    auto sched = ScheduleTileOp::create(
        b, loc, k.i32, k.i32, t, numMBlocks,
        b.getI32IntegerAttr(l.nBlocks / l.cluster),
        b.getI32IntegerAttr(std::max<int64_t>(l.swizzleGroup / l.cluster, 1)));
    Value nBlock = sched.getNBlock();
    if (l.cluster > 1)
      nBlock = k.add(k.mul(nBlock, k.c32(l.cluster)), rank);
    Value next = body(sched.getMBlock(), nBlock, loop.getRegionIterArgs()[0]);
    scf::YieldOp::create(b, loc, next);
    b.setInsertionPointAfter(loop);
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

    tileLoop([&](Value mBlock, Value nBlock, Value it) {
      Value m0 = k.mul(mBlock, k.c32(l.blockM));
      Value n0 = k.mul(nBlock, k.c32(l.blockN));
      auto kLoop = scf::ForOp::create(b, loc, k.c32(0), k.c32(l.kBlocks),
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
      Value k0 = k.mul(kb, k.c32(128));
      Value aStage = stageBuffer(l.aOff, l.aStageBytes, s);
      if (l.cluster > 1) {
        // This CTA's half of A's rows, into the same place in both CTAs.
        Value rows = k.mul(rank, k.c32(l.blockM / l.cluster));
        loadTile(k.byteAt(aStage, k.mul(rows, k.c32(128))), kMapA,
                 {k0, k.add(m0, rows)}, full,
                 LLVM::ConstantOp::create(b, loc, b.getI16Type(),
                                          (1 << l.cluster) - 1));
      } else {
        loadTile(aStage, kMapA, {k0, m0}, full);
      }
      loadTile(stageBuffer(l.bOff, l.bStageBytes, s), kMapB, {k0, n0}, full);
      loadTile(stageBuffer(l.sfaOff, l.sfaStageBytes, s), kMapSFA, {m0, kb},
               full);
      scf::YieldOp::create(b, loc, ValueRange{k.add(i, k.c32(1))});
      b.setInsertionPointAfter(kLoop);
      return kLoop.getResult(0);
    });
    b.setInsertionPointAfter(warp0);
  }

  void loadTile(Value dst, GemmKernelParam map, ArrayRef<Value> coords,
                Value barrier, Value multicastMask = Value()) {
    Value dst7 = LLVM::AddrSpaceCastOp::create(b, loc, k.ptr7, dst);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, dst7, tensorMap(map), coords, barrier, ValueRange(),
        multicastMask, /*l2CacheHint=*/Value(),
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
    Value r0 = k.add(k.mul(wg, k.c32(64)),
                     k.add(k.mul(k.remu(warp, k.c32(4)), k.c32(16)),
                           k.divu(lane, k.c32(4))));
    Value r1 = k.add(r0, k.c32(8));
    const int64_t parts = l.nParts, partN = l.blockN / l.nParts;
    SmallVector<Type> fields(partN / 2, k.f32);
    auto fragment = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
    Value sfb = fn.getArgument(kSFBPtr);

    tileLoop([&](Value mBlock, Value nBlock, Value it) {
      Value m0 = k.mul(mBlock, k.c32(l.blockM));
      Value n0 = k.mul(nBlock, k.c32(l.blockN));
      // B-scale blocks of this tile: nb0 for the first `former` 8-column
      // groups, nb1 (clamped to the last block) for the rest.
      Value nb0 = k.divu(n0, k.c32(128));
      Value nb1 = k.minu(k.add(nb0, k.c32(1)), k.c32(l.nScaleBlocks - 1));
      Value former = k.divu(
          k.minu(k.c32(l.blockN), k.sub(k.c32(128), k.remu(n0, k.c32(128)))),
          k.c32(8));
      copyBScales(sfb, nb0, nb1);
      Value sfbRow0 = k.byteAt(smem, l.sfbOff);
      Value sfbRow1 = k.byteAt(smem, l.sfbOff + 4 * l.kBlocks);
      Value zero = LLVM::ZeroOp::create(b, loc, fragment);

      SmallVector<Value> inits = {it};
      inits.append(parts, zero);
      auto kLoop = scf::ForOp::create(b, loc, k.c32(0), k.c32(l.kBlocks),
                                      k.c32(1), inits);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(kLoop.getBody());
      Value kb = kLoop.getInductionVar();
      Value i = kLoop.getRegionIterArgs()[0];
      Value s = k.remu(i, k.c32(l.stages));
      Value phase = k.andi(k.divu(i, k.c32(l.stages)), k.c32(1));
      // Wait until the stage's TMA loads landed.
      waitParity(fullBarrier(s), phase);
      // Scales into registers before the wgmma fence.
      Value sfa = stageBuffer(l.sfaOff, l.sfaStageBytes, s);
      Value sa0 = k.loadF32(k.elementAt(sfa, r0, 4));
      Value sa1 = k.loadF32(k.elementAt(sfa, r1, 4));
      Value sb0 = k.loadF32(k.elementAt(sfbRow0, kb, 4));
      Value sb1 = k.loadF32(k.elementAt(sfbRow1, kb, 4));
      Value aTile = k.byteAt(stageBuffer(l.aOff, l.aStageBytes, s),
                             k.mul(wg, k.c32(64 * 128)));
      Value bTile = stageBuffer(l.bOff, l.bStageBytes, s);
      NVVM::WgmmaFenceAlignedOp::create(b, loc);
      SmallVector<Value> accs;
      for (int64_t p = 0; p < parts; ++p) {
        // Part p uses B rows p*partN.. (a multiple of 8 rows: 1024-aligned).
        accs.push_back(WgmmaTileOp::create(
            b, loc, fragment, aTile, k.byteAt(bTile, p * partN * 128),
            b.getI32IntegerAttr(partN)));
        NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
      }
      SmallVector<Value> results = {k.add(i, k.c32(1))};
      for (int64_t p = 0; p < parts; ++p) {
        NVVM::WgmmaWaitGroupSyncOp::create(
            b, loc, b.getI64IntegerAttr(parts - 1 - p));
        if (p == parts - 1) {
          // Every part has read the stage: release it, one arrival per
          // consumer warp.
          releaseStage(s, lane);
        }
        results.push_back(PromoteOp::create(
            b, loc, fragment, kLoop.getRegionIterArgs()[1 + p], accs[p], sa0,
            sa1, sb0, sb1, former,
            b.getI32IntegerAttr(p * partN / 8)));
      }
      scf::YieldOp::create(b, loc, results);
      b.setInsertionPointAfter(kLoop);
      EpilogueStoreOp::create(b, loc, kLoop.getResults().drop_front(),
                              k.byteAt(smem, l.dOff), tensorMap(kMapD), n0, m0,
                              tid, b.getI32IntegerAttr(l.blockM),
                              b.getI32IntegerAttr(l.blockN),
                              b.getI32IntegerAttr(l.consumers),
                              b.getI32IntegerAttr(l.dSwizzle));
      return kLoop.getResult(0);
    });
    // The last tile's TMA store must have read its staging tile before the
    // CTA's shared memory goes away.
    auto last = scf::IfOp::create(b, loc, k.eq(tid, k.c32(0)), false);
    b.setInsertionPointToStart(last.thenBlock());
    NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0),
                                         b.getUnitAttr());
    b.setInsertionPointAfter(last);
  }

  /// One arrival per consumer warp on empty[s] of each CTA of the cluster:
  /// lane c arrives on CTA c's barrier (through its cluster address).
  void releaseStage(Value s, Value lane) {
    auto release =
        scf::IfOp::create(b, loc, k.ult(lane, k.c32(l.cluster)), false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(release.thenBlock());
    if (l.cluster == 1) {
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

  /// The consumers copy B-scale rows nb0 and nb1 (K/128 floats each) of the
  /// tile from global to shared memory, then meet at named barrier 2. The
  /// previous tile's promotions are over: its epilogue ended with a barrier.
  void copyBScales(Value sfb, Value nb0, Value nb1) {
    int64_t threads = 128 * l.consumers;
    auto copy = scf::ForOp::create(b, loc, tid, k.c32(2 * l.kBlocks),
                                   k.c32(threads));
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(copy.getBody());
      Value i = copy.getInductionVar();
      Value row = k.divu(i, k.c32(l.kBlocks));
      Value kb = k.remu(i, k.c32(l.kBlocks));
      Value nb = arith::SelectOp::create(b, loc, k.eq(row, k.c32(0)), nb0, nb1);
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
  Value smem, tid, numMBlocks, tiles, firstTile, tileStep;
  Value rank; // CTA rank in the cluster (cluster > 1 only)
};
} // namespace

LLVM::LLVMFuncOp mlir::dgemm::buildGemmKernel(OpBuilder &b, Location loc,
                                              StringRef name,
                                              const KernelLayout &l,
                                              StringRef smemSymbol) {
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto ptr1 = LLVM::LLVMPointerType::get(ctx, 1);
  SmallVector<Type> params = {ptr, ptr, ptr, ptr, ptr1, b.getI32Type()};
  auto fnType =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), params);
  auto fn = LLVM::LLVMFuncOp::create(b, loc, name, fnType);
  // Tensor maps by value: 128 bytes, 128-aligned, in the param space.
  auto mapType = LLVM::LLVMArrayType::get(b.getI8Type(), 128);
  for (GemmKernelParam p : {kMapA, kMapSFA, kMapB, kMapD}) {
    fn.setArgAttr(p, "llvm.byval", TypeAttr::get(mapType));
    fn.setArgAttr(p, "llvm.align", b.getI64IntegerAttr(128));
    fn.setArgAttr(p, "nvvm.grid_constant", b.getUnitAttr());
  }
  fn->setAttr("nvvm.kernel", b.getUnitAttr());
  fn->setAttr("nvvm.maxntid",
              b.getDenseI32ArrayAttr({(int32_t)l.threads, 1, 1}));
  // With maxntid, minctasm = 1 makes ptxas honour setmaxnreg.
  fn->setAttr("nvvm.minctasm", b.getI32IntegerAttr(1));
  fn->setAttr("dgemm.launch", buildGemmLaunchContract(ctx, l));

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(fn.addEntryBlock(b));
  GemmKernelBuilder(b, loc, l, fn, smemSymbol).build();
  return fn;
}
