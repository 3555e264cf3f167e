//===- DGEMMKernelOps.cpp - verifiers of the kernel-level dgemm ops --------===//
//
// dgemm.schedule_tile, dgemm.wgmma_tile, dgemm.promote, dgemm.add_bias,
// dgemm.epilogue_store and dgemm.epilogue_store_rows: their attributes and
// fragment types agree.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"

using namespace mlir;
using namespace mlir::dgemm;

/// A wgmma f32 fragment: an LLVM struct of `fields` f32 values.
static bool isF32Fragment(Type t, int64_t fields) {
  auto s = dyn_cast<LLVM::LLVMStructType>(t);
  if (!s || (int64_t)s.getBody().size() != fields)
    return false;
  return llvm::all_of(s.getBody(), [](Type e) { return e.isF32(); });
}

LogicalResult ScheduleTileOp::verify() {
  if (getNumNBlocks() < 1 || getSwizzleGroup() < 1)
    return emitOpError() << "num_n_blocks and swizzle_group must be positive, "
                            "got "
                         << getNumNBlocks() << " and " << getSwizzleGroup();
  return success();
}

LogicalResult WgmmaTileOp::verify() {
  int64_t n = getN();
  if (n < 8 || n > 256 || n % 8 != 0)
    return emitOpError() << "n must be a multiple of 8 in [8, 256], got " << n;
  if (!isF32Fragment(getAcc().getType(), n / 2))
    return emitOpError() << "result must be the m64n" << n
                         << " f32 fragment, a struct of " << n / 2
                         << " f32, got " << getAcc().getType();
  return success();
}

/// The promotions' total: an f32 wgmma fragment of a multiple of 4 fields;
/// their number in `fields`.
template <typename Op>
static LogicalResult verifyTotal(Op op, int64_t &fields) {
  Type t = op.getTotal().getType();
  fields = cast<LLVM::LLVMStructType>(t).getBody().size();
  if (fields % 4 != 0 || !isF32Fragment(t, fields))
    return op.emitOpError() << "total must be an f32 wgmma fragment (a "
                               "multiple of 4 f32), got "
                            << t;
  return success();
}

LogicalResult PromoteOp::verify() {
  int64_t fields;
  return verifyTotal(*this, fields);
}

/// The rules epilogue_store and epilogue_store_rows share: block sizes per
/// consumer warpgroup and totals that split the tile's columns evenly.
template <typename Op>
static LogicalResult verifyEpilogueTile(Op op, int64_t bm, int64_t bn,
                                        int64_t c, ValueRange totals) {
  // Row waves: 64 rows per consumer warpgroup, once or (block M 256) twice.
  if (c < 1 || c > 2 || (bm != 64 * c && bm != 128 * c))
    return op.emitOpError() << "block_m must be 64 or 128 per consumer "
                               "warpgroup, got block_m = "
                            << bm << " with " << c << " consumers";
  if (bn < 8 || bn > 256 || bn % 8 != 0)
    return op.emitOpError()
           << "block_n must be a multiple of 8 in [8, 256], got " << bn;
  int64_t waves = bm / (64 * c);
  if (totals.size() % waves != 0)
    return op.emitOpError() << "block_m = " << bm << " with " << c
                            << " consumers needs the totals of " << waves
                            << " row waves (a multiple of " << waves
                            << " fragments), got " << totals.size();
  int64_t parts = totals.size() / waves;
  if (parts < 1 || bn % (8 * parts) != 0)
    return op.emitOpError() << "block_n = " << bn << " must split into "
                            << parts << " fragments of whole 8-column groups";
  for (Value total : totals)
    if (!isF32Fragment(total.getType(), bn / 2 / parts))
      return op.emitOpError() << "each of the " << totals.size()
                              << " totals must be a struct of "
                              << bn / 2 / parts << " f32, got "
                              << total.getType();
  return success();
}

LogicalResult EpilogueStoreRowsOp::verify() {
  // Columns at or past `cols` are not stored, so a tile wider than the
  // matrix (block_n > N = ld) is fine: fuzz/gen_gemm_ops.py found the
  // masked lowering tripping over an `ld >= block_n` rule here.
  if (getLd() < 2 || getLd() % 2 != 0)
    return emitOpError() << "ld must be even and at least 2 (bf16 pairs), "
                            "got "
                         << getLd();
  return verifyEpilogueTile(*this, getBlockM(), getBlockN(), getConsumers(),
                            getTotals());
}

LogicalResult AddBiasOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferred) {
  // Operands: the totals, then bias, n0 and tid.
  if (operands.size() < 3)
    return failure();
  llvm::append_range(inferred, operands.drop_back(3).getTypes());
  return success();
}

LogicalResult AddBiasOp::verify() {
  // Each thread loads whole pairs (n even); the last pair stands in for
  // columns past n.
  if (getN() < 2 || getN() % 2 != 0)
    return emitOpError() << "n must be even and at least 2 (f32 pairs), got "
                         << getN();
  return verifyEpilogueTile(*this, getBlockM(), getBlockN(), getConsumers(),
                            getTotals());
}

LogicalResult EpilogueStoreOp::verify() {
  int64_t bn = getBlockN();
  if (failed(verifyEpilogueTile(*this, getBlockM(), bn, getConsumers(),
                                getTotals())))
    return failure();
  // A swizzled chunk is 128 bytes of a row: 64 bf16 or 32 f32 columns.
  const int64_t chunk = getF32() ? 32 : 64;
  if (getSwizzle() != 0 && (getSwizzle() != 128 || bn % chunk != 0))
    return emitOpError() << "swizzle must be 0, or 128 with block_n a "
                            "multiple of "
                         << chunk << ", got swizzle = " << getSwizzle()
                         << " with block_n = " << bn;
  if (getReduceAdd() && !getF32())
    return emitOpError() << "reduce_add needs an f32 output (f32)";
  if (getStmatrix() && getF32())
    return emitOpError() << "stmatrix stores 16-bit elements: it needs a "
                            "bf16 output (not f32)";
  if (getDPolicy() && getReduceAdd())
    return emitOpError() << "d_policy is for TMA stores, not reduce_add";
  if (getPerWarpgroup() && getRows())
    return emitOpError() << "per_warpgroup stores whole tiles by TMA: it "
                            "cannot go with rows";
  if (static_cast<bool>(getRows()) != static_cast<bool>(getD()) ||
      static_cast<bool>(getRows()) != static_cast<bool>(getMMax()))
    return emitOpError() << "rows, d and m_max go together (a tile with "
                            "fewer rows is copied to d)";
  if (getRows()) {
    if (!getGroup())
      return emitOpError() << "rows needs a group (D is [G, m_max, ld])";
    if (getF32() || getReduceAdd())
      return emitOpError() << "rows is for bf16 stores (not f32, not "
                              "reduce_add)";
    // The copy writes 16-byte pieces at (row * ld + 8 * piece) * 2.
    if (getLd() < 8 || getLd() % 8 != 0)
      return emitOpError() << "with rows, ld must be a positive multiple of "
                              "8 (rows of 16-byte pieces), got "
                           << getLd();
  }
  return success();
}

LogicalResult PromoteColsOp::verify() {
  int64_t fields;
  if (failed(verifyTotal(*this, fields)))
    return failure();
  if (static_cast<int64_t>(getSb().size()) != fields / 4)
    return emitOpError() << "needs one B-scale pair per 8-column group: "
                         << fields / 4 << " for " << getTotal().getType()
                         << ", got " << getSb().size();
  return success();
}
