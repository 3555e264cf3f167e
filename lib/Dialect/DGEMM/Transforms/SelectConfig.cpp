//===- SelectConfig.cpp - the dgemm-select-config pass ---------------------===//
//
// Attaches a #dgemm.config to every dgemm GEMM op without one, using the pure
// function ::dgemm::selectConfig (ConfigSelection.h) that the runtime also
// calls. Configs already on an op are kept.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Dialect/DGEMM/Transforms/Passes.h"

namespace mlir::dgemm {
#define GEN_PASS_DEF_DGEMMSELECTCONFIG
#include "dgemm/Dialect/DGEMM/Transforms/Passes.h.inc"
} // namespace mlir::dgemm

using namespace mlir;
using namespace mlir::dgemm;

namespace {
struct SelectConfigPass
    : public mlir::dgemm::impl::DGEMMSelectConfigBase<SelectConfigPass> {
  using Base::Base;

  void runOnOperation() override {
    if (defaultMHint < 1) {
      getOperation()->emitError()
          << "default-m-hint must be positive, got "
          << static_cast<int64_t>(defaultMHint);
      return signalPassFailure();
    }
    // Block M is 64, 128 or 256: a bound below 64 leaves no tile at all,
    // which is the option's mistake, not the target's shared memory.
    if (maxBlockM < 64) {
      getOperation()->emitError()
          << "max-block-m must be at least 64 (the smallest block M), got "
          << static_cast<int64_t>(maxBlockM);
      return signalPassFailure();
    }
    WalkResult result = getOperation()->walk([&](GemmOpInterface op) {
      if (op.getKernelConfig()) {
        ++numKept;
        return WalkResult::advance();
      }
      ::dgemm::ProblemDesc problem = op.getProblem(defaultMHint);
      std::string why = ::dgemm::checkProblem(problem);
      if (!why.empty()) {
        op->emitOpError() << "no config can be chosen: " << why;
        return WalkResult::interrupt();
      }
      ::dgemm::SelectOptions options;
      options.allowMulticast = multicast;
      options.allowMulticastB = multicastB;
      options.maxBlockM = maxBlockM;
      options.multicastMinRows = multicastMinRows;
      options.multicastMinK = multicastMinK;
      // An M hint (or the default) is no row count: A's box stays whole.
      auto normal = dyn_cast<GemmOp>(op.getOperation());
      options.exactM = normal && !cast<MemRefType>(normal.getA().getType())
                                      .isDynamicDim(0);
      ::dgemm::TargetDesc target = toTargetDesc(op.getEffectiveTarget());
      ::dgemm::KernelConfig config =
          ::dgemm::selectConfig(problem, target, options);
      // No candidate fits (a target with too little shared memory for three
      // stages of the smallest tile): selectConfig returns the all-zero
      // config, which must not become an attribute (#dgemm.config rejects
      // it). Found by fuzz/gen_gemm_ops.py.
      if (!::dgemm::checkConfig(config, problem, target).empty()) {
        op->emitOpError() << "no config fits: no tile of block M <= "
                          << options.maxBlockM
                          << " has room for 3 pipeline stages in the "
                          << target.smemPerBlock
                          << " bytes of shared memory per block of the target";
        return WalkResult::interrupt();
      }
      op.setKernelConfig(toConfigAttr(op->getContext(), config));
      ++numChosen;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
