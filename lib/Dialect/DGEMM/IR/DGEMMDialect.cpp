//===- DGEMMDialect.cpp - dgemm dialect and attributes ---------------------===//
//
// Registers the dgemm dialect; parses, prints and verifies its attributes;
// converts #dgemm.config / #dgemm.target to the plain structs of
// ConfigSelection.h so that the pass and the runtime share one config logic.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dgemm;

#include "dgemm/Dialect/DGEMM/IR/DGEMMDialect.cpp.inc"
#include "dgemm/Dialect/DGEMM/IR/DGEMMEnums.cpp.inc"
#include "dgemm/Dialect/DGEMM/IR/DGEMMInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dgemm/Dialect/DGEMM/IR/DGEMMAttrs.cpp.inc"

void DGEMMDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dgemm/Dialect/DGEMM/IR/DGEMMAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dgemm/Dialect/DGEMM/IR/DGEMMOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #dgemm.recipe<a = RxC, b = RxC>
//===----------------------------------------------------------------------===//

static ParseResult parseGranularity(AsmParser &p, StringRef operand,
                                    int64_t &rows, int64_t &cols) {
  SmallVector<int64_t, 2> dims;
  SMLoc loc = p.getCurrentLocation();
  if (p.parseKeyword(operand) || p.parseEqual() ||
      p.parseDimensionList(dims, /*allowDynamic=*/false,
                           /*withTrailingX=*/false))
    return failure();
  if (dims.size() != 2)
    return p.emitError(loc, "expected the scale granularity of ")
           << operand << " as ROWSxCOLS, such as 1x128";
  rows = dims[0];
  cols = dims[1];
  return success();
}

Attribute RecipeAttr::parse(AsmParser &p, Type) {
  SMLoc loc = p.getCurrentLocation();
  int64_t aRows, aCols, bRows, bCols;
  if (p.parseLess() || parseGranularity(p, "a", aRows, aCols) ||
      p.parseComma() || parseGranularity(p, "b", bRows, bCols) ||
      p.parseGreater())
    return {};
  return RecipeAttr::getChecked([&] { return p.emitError(loc); },
                                p.getContext(), aRows, aCols, bRows, bCols);
}

void RecipeAttr::print(AsmPrinter &p) const {
  p << "<a = " << getARows() << "x" << getACols() << ", b = " << getBRows()
    << "x" << getBCols() << ">";
}

LogicalResult
RecipeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                   int64_t aRows, int64_t aCols, int64_t bRows, int64_t bCols) {
  if (aRows != 1 || aCols != 128)
    return emitError() << "A must be scaled 1x128 (one scale per row per 128 "
                          "K-values), got "
                       << aRows << "x" << aCols;
  if (bCols != 128 || (bRows != 128 && bRows != 1))
    return emitError() << "B must be scaled 128x128 (per block) or 1x128 (per "
                          "row, weight-gradient recipe), got "
                       << bRows << "x" << bCols;
  return success();
}

//===----------------------------------------------------------------------===//
// #dgemm.target
//===----------------------------------------------------------------------===//

LogicalResult
TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                   StringRef chip, int64_t sms, int64_t smem) {
  if (chip != "sm_90a")
    return emitError() << "unsupported chip '" << chip
                       << "': dgemm targets Hopper, \"sm_90a\"";
  if (sms < 1 || sms > 1024)
    return emitError() << "sms must be in [1, 1024], got " << sms;
  if (smem < 1024 || smem > 232448)
    return emitError() << "smem must be in [1024, 232448] bytes (the sm_90a "
                          "limit per block), got "
                       << smem;
  return success();
}

::dgemm::TargetDesc mlir::dgemm::toTargetDesc(TargetAttr attr) {
  ::dgemm::TargetDesc t;
  t.numSMs = attr.getSms();
  t.smemPerBlock = attr.getSmem();
  return t;
}

//===----------------------------------------------------------------------===//
// #dgemm.config
//===----------------------------------------------------------------------===//

// Rules that hold whatever the problem; the problem-dependent ones (register
// budget, shared memory, scale blocks) are checked by the op verifiers with
// ::dgemm::checkConfig.
LogicalResult ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t blockM, int64_t blockN,
                                 int64_t stages, int64_t cluster,
                                 MulticastOperand multicast,
                                 int64_t mathWarpgroups, int64_t swizzleGroup,
                                 int64_t numSms, bool /*streamB*/,
                                 int64_t altBlockM, int64_t altBlockN,
                                 int64_t altStages, int64_t altNumSms,
                                 int64_t aBoxRows) {
  if (blockM != 64 && blockM != 128 && blockM != 256)
    return emitError() << "block_m must be 64, 128 or 256, got " << blockM;
  if (blockN < 8 || blockN > 256 || blockN % 8 != 0)
    return emitError() << "block_n must be a multiple of 8 in [8, 256] (wgmma "
                          "N), got "
                       << blockN;
  if (stages < 1 || stages > 32)
    return emitError() << "stages must be in [1, 32], got " << stages;
  if (cluster != 1 && cluster != 2)
    return emitError() << "cluster must be 1 or 2, got " << cluster;
  if ((cluster == 2) != (multicast != MulticastOperand::None))
    return emitError() << "a 2-CTA cluster multicasts A or B and a single CTA "
                          "multicasts nothing, got cluster = "
                       << cluster << " with multicast = "
                       << stringifyMulticastOperand(multicast);
  if (mathWarpgroups != 1 && mathWarpgroups != 2)
    return emitError() << "math_warpgroups must be 1 or 2, got "
                       << mathWarpgroups;
  if (swizzleGroup < 1)
    return emitError() << "swizzle_group must be >= 1, got " << swizzleGroup;
  if (numSms < 1 || numSms % cluster != 0)
    return emitError() << "num_sms must be a positive multiple of the cluster "
                          "size "
                       << cluster << ", got " << numSms;
  if (altBlockM != 0 || altBlockN != 0 || altStages != 0 || altNumSms != 0) {
    if (altBlockM != 64 && altBlockM != 128)
      return emitError() << "alt_block_m must be 64 or 128 (below block_m), "
                            "got "
                         << altBlockM;
    if (altBlockN < 8 || altBlockN > 256 || altBlockN % 8 != 0)
      return emitError() << "alt_block_n must be a multiple of 8 in [8, 256] "
                            "(wgmma N), got "
                         << altBlockN;
    if (altStages < 1 || altStages > 32)
      return emitError() << "alt_stages must be in [1, 32], got "
                         << altStages;
    if (altNumSms < 1)
      return emitError() << "alt_num_sms must be positive, got " << altNumSms;
  }
  if (aBoxRows != 0 && (aBoxRows < 8 || aBoxRows % 8 != 0 || aBoxRows >= blockM))
    return emitError() << "a_box_rows must be 0 or a multiple of 8 below "
                          "block_m = "
                       << blockM << ", got " << aBoxRows;
  return success();
}

static ::dgemm::Multicast toMulticast(MulticastOperand m) {
  switch (m) {
  case MulticastOperand::A:
    return ::dgemm::Multicast::A;
  case MulticastOperand::B:
    return ::dgemm::Multicast::B;
  case MulticastOperand::None:
    break;
  }
  return ::dgemm::Multicast::None;
}

static MulticastOperand fromMulticast(::dgemm::Multicast m) {
  switch (m) {
  case ::dgemm::Multicast::A:
    return MulticastOperand::A;
  case ::dgemm::Multicast::B:
    return MulticastOperand::B;
  case ::dgemm::Multicast::None:
    break;
  }
  return MulticastOperand::None;
}

::dgemm::KernelConfig mlir::dgemm::toKernelConfig(ConfigAttr attr) {
  ::dgemm::KernelConfig c;
  c.blockM = attr.getBlockM();
  c.blockN = attr.getBlockN();
  c.stages = attr.getStages();
  c.clusterSize = attr.getCluster();
  c.multicast = toMulticast(attr.getMulticast());
  c.mathWarpgroups = attr.getMathWarpgroups();
  c.swizzleGroup = attr.getSwizzleGroup();
  c.numSMs = attr.getNumSms();
  c.streamB = attr.getStreamB();
  c.altBlockM = attr.getAltBlockM();
  c.altBlockN = attr.getAltBlockN();
  c.altStages = attr.getAltStages();
  c.altNumSMs = attr.getAltNumSms();
  c.aBoxRows = attr.getABoxRows();
  return c;
}

ConfigAttr mlir::dgemm::toConfigAttr(MLIRContext *ctx,
                                     const ::dgemm::KernelConfig &c) {
  return ConfigAttr::get(ctx, c.blockM, c.blockN, c.stages, c.clusterSize,
                         fromMulticast(c.multicast), c.mathWarpgroups,
                         c.swizzleGroup, c.numSMs, c.streamB, c.altBlockM,
                         c.altBlockN, c.altStages, c.altNumSMs, c.aBoxRows);
}
