//===- ConfigReport.cpp - the dgemm-config-report pass ---------------------===//
//
// Prints one line per dgemm GEMM op: where it is, its problem, its config and
// the tiles, waves, shared memory and registers that follow. Read-only.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Dialect/DGEMM/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::dgemm {
#define GEN_PASS_DEF_DGEMMCONFIGREPORT
#include "dgemm/Dialect/DGEMM/Transforms/Passes.h.inc"
} // namespace mlir::dgemm

using namespace mlir;
using namespace mlir::dgemm;

static const char *layoutName(::dgemm::GemmKind kind) {
  switch (kind) {
  case ::dgemm::GemmKind::Normal:
    return "normal";
  case ::dgemm::GemmKind::GroupedContiguous:
    return "contiguous";
  case ::dgemm::GemmKind::GroupedMasked:
    return "masked";
  case ::dgemm::GemmKind::KGrouped:
    return "k-grouped";
  }
  return "?";
}

namespace {
struct ConfigReportPass
    : public mlir::dgemm::impl::DGEMMConfigReportBase<ConfigReportPass> {
  void runOnOperation() override {
    llvm::raw_ostream &os = llvm::outs();
    getOperation()->walk([&](GemmOpInterface op) {
      std::string where = "?";
      if (auto fn = op->getParentOfType<FunctionOpInterface>())
        where = ("@" + fn.getName()).str();
      ::dgemm::ProblemDesc p = op.getProblem(/*defaultM=*/4096);
      os << llvm::left_justify(where, 32) << " "
         << llvm::left_justify(layoutName(p.kind), 10) << " G=" << p.groups
         << " M=" << p.m << " N=" << p.n << " K=" << p.k << " : ";
      ConfigAttr attr = op.getKernelConfig();
      if (!attr) {
        os << "no config\n";
        return;
      }
      ::dgemm::KernelConfig c = toKernelConfig(attr);
      ::dgemm::TargetDesc t = toTargetDesc(op.getEffectiveTarget());
      int64_t tiles = ::dgemm::countTiles(c, p);
      int64_t waves = (tiles + c.numSMs - 1) / c.numSMs;
      os << c.blockM << "x" << c.blockN << " stages=" << c.stages
         << " cluster=" << c.clusterSize
         << " multicast=" << ::dgemm::toString(c.multicast)
         << " wg=" << c.mathWarpgroups << " swizzle=" << c.swizzleGroup
         << " sms=" << c.numSMs << (c.streamB ? " stream_b" : "");
      if (c.hasAlt())
        os << " alt=" << c.altBlockM << "x" << c.altBlockN
           << " alt_stages=" << c.altStages << " alt_sms=" << c.altNumSMs;
      os << " | tiles=" << tiles << " waves=" << waves
         << " smem=" << ::dgemm::smemBytes(c, p) << "/" << t.smemPerBlock
         << " regs="
         << ::dgemm::consumerRegistersNeeded(c.blockM, c.blockN,
                                             c.mathWarpgroups, p.bScale)
         << "/" << ::dgemm::consumerRegisterBudget(c.mathWarpgroups) << "\n";
    });
    markAllAnalysesPreserved();
  }
};
} // namespace
