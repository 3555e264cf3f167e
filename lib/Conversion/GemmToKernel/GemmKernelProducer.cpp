//===- GemmKernelProducer.cpp - the producer warpgroup of a GEMM kernel ---===//
//
// GemmKernelBuilder's producer: one elected thread fills the stage ring
// with TMA loads of A, B and their scales (multicast over a 2-CTA cluster,
// L2 eviction policies), and for the k-grouped GEMM writes each group's
// tensor maps of A_g and B_g into the CTA's workspace slots.
//
//===----------------------------------------------------------------------===//
#include "GemmKernelBuilder.h"

#include "TensorMapUpdate.h"

#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dgemm;

namespace mlir::dgemm::kernel_builder {

Value GemmKernelBuilder::groupInt(Value g, int64_t which) {
  Value at = k.byteAt(fn.getArgument(kKgTable),
                      k.add(k.c32(256),
                            k.add(k.mul(g, k.c32(8)), k.c32(4 * which))));
  return LLVM::LoadOp::create(b, loc, k.i32, at, /*alignment=*/4);
}

Value GemmKernelBuilder::groupMapSlot(Value slot) {
  return k.byteAt(
      fn.getArgument(kKgWorkspace),
      k.mul(k.add(k.mul(k.ctaId(), k.c32(l.groupMapSlots())), slot),
            k.c32(256)));
}

void GemmKernelBuilder::copyMapTemplates() {
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

Value GemmKernelBuilder::groupMap(Value slot, int which) {
  return k.byteAt(slot, 128 * which);
}

void GemmKernelBuilder::writeGroupMaps(Value group) {
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

std::pair<Value, Value> GemmKernelBuilder::groupMaps() {
  Value slot = groupMapSlot(kgSlot);
  auto generic = [&](int which) -> Value {
    return LLVM::AddrSpaceCastOp::create(b, loc, k.ptr,
                                         groupMap(slot, which));
  };
  return {generic(0), generic(1)};
}

void GemmKernelBuilder::buildProducer() {
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

  Value last = tileLoop([&](Value mBlock, Value nBlock, Value group, Value it) {
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
    auto [s, phase] = ringSlot(i);
    Value full = fullBarrier(s);
    // Wait until the consumers released the stage.
    waitSlotReleased(s, phase);
    NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), full,
                                           k.c32(l.txBytes), nullptr,
                                           nullptr, Value());
    Value kAbs = k.add(kb, tileKStart());
    Value k0 = k.mul(kAbs, k.c32(128));
    Value aStage = stageBuffer(l.aOff, l.aStageBytes, s);
    // An operand's tile of `rows` rows from row0 on: whole, or shared by
    // multicast among `sharing` CTAs, this CTA's part of its rows into the
    // same place in all of them.
    auto loadOperand = [&](Value stage, Value map, Value row0, int64_t rows,
                           int64_t sharing, bool threeD, Value hint) {
      if (sharing == 1) {
        loadTile(stage, map, at(k0, row0, threeD), full, Value(), hint);
        return;
      }
      Value mine = k.mul(rank, k.c32(rows / sharing));
      loadTile(k.byteAt(stage, k.mul(mine, k.c32(128))), map,
               at(k0, k.add(row0, mine), threeD), full,
               LLVM::ConstantOp::create(b, loc, b.getI16Type(),
                                        (1 << sharing) - 1),
               hint);
    };
    loadOperand(aStage, mapA, m0, l.blockM, l.mcastA(), l.masked(), hintA);
    Value bStage = stageBuffer(l.bOff, l.bStageBytes, s);
    bool bThreeD = l.grouped() && !l.kGrouped();
    if (pairSharesB) {
      // Contiguous pair: B's tile shared where both M blocks are of one
      // group; else this CTA's whole tile, box by box, into itself only.
      auto share = scf::IfOp::create(b, loc, pairSharesB,
                                     /*withElseRegion=*/true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(share.thenBlock());
      loadOperand(bStage, mapB, n0, l.blockN, l.mcastB(), bThreeD, hintB);
      b.setInsertionPointToStart(share.elseBlock());
      const int64_t boxRows = l.blockN / l.mcastB();
      for (int64_t r = 0; r < l.blockN; r += boxRows)
        loadTile(k.byteAt(bStage, 128 * r), mapB,
                 at(k0, k.add(n0, k.c32(r)), bThreeD), full, Value(), hintB);
    } else {
      loadOperand(bStage, mapB, n0, l.blockN, l.mcastB(), bThreeD, hintB);
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
  if (l.drainExit)
    drainRing(last);
  b.setInsertionPointAfter(warp0);
}

void GemmKernelBuilder::drainRing(Value it) {
  for (int64_t j = 0; j < l.stages; ++j) {
    auto [s, phase] = ringSlot(k.add(it, k.c32(j)));
    waitSlotReleased(s, phase);
  }
}

Value GemmKernelBuilder::l2Policy(const std::string &hint) {
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

void GemmKernelBuilder::loadTile(Value dst, Value map, ArrayRef<Value> coords, Value barrier,
                                 Value multicastMask, Value l2Hint) {
  Value dst7 = LLVM::AddrSpaceCastOp::create(b, loc, k.ptr7, dst);
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, dst7, map, coords, barrier, ValueRange(),
      multicastMask, l2Hint,
      NVVM::TMALoadModeAttr::get(b.getContext(), NVVM::TMALoadMode::TILE),
      b.getBoolAttr(false), /*group=*/nullptr, /*predicate=*/Value());
}

} // namespace mlir::dgemm::kernel_builder
