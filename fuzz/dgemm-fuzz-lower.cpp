//===- dgemm-fuzz-lower.cpp - libFuzzer target over the lowering -*- C++ -*-===//
//
// Parses arbitrary bytes as MLIR, verifies them and, when the module holds
// dgemm GEMM ops and nothing but problem-level IR (modules, func.func,
// func.return and the dgemm GEMM ops), runs the dgemm-to-ptx pipeline on it
// as the runtime does (buildDGEMMToPTXPipeline: dgemm-select-config with the
// lowering's capabilities, dgemm-lower-to-kernel, convert-dgemm-to-nvvm and
// the upstream passes to LLVM, gpu-module-to-binary{format=isa}), in a fresh
// single-threaded context with the runtime's dialect registry.
//
// Bad input must end in a failed parse, verify or pass. A crash, an ASan or
// UBSan report, an LLVM fatal error (LLVM exits: libFuzzer reports "fuzz
// target exited"), a pipeline that succeeds without PTX for every kernel, is
// a bug. Upstream dialects' ops are rejected before the pipeline: fuzzing
// them would fuzz upstream MLIR's conversions, not dgemm. The executions
// reaching each stage are printed at exit (FuzzStages.h). docs/fuzzing.md.
//
//===----------------------------------------------------------------------===//

#include "FuzzStages.h"

#include "dgemm/Conversion/Passes.h"
#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"
#include "dgemm/InitAll.h"
#include "dgemm/Support/NestingDepth.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/TargetSelect.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace mlir;
using ::dgemm::fuzz::FuzzStages;

namespace {

enum Stage {
  kExecuted,
  kParsed,
  kVerified,
  kHasGemm,
  kProblemLevel,
  kConfigSelected,
  kLowered,
  kPTX
};
const char *const kStageNames[] = {"parsed",        "verified",
                                   "gemm_op",       "problem_level",
                                   "config_selected", "lowered",
                                   "ptx"};

/// The runtime's registry (dgemm::registerAllDialects), built once.
const DialectRegistry &registry() {
  static DialectRegistry *r = [] {
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    auto *reg = new DialectRegistry();
    ::dgemm::registerAllDialects(*reg);
    return reg;
  }();
  return *r;
}

/// Inputs nested deeper than this are skipped: MLIR's recursive parser
/// overflows the stack on deep nesting (docs/fuzzing.md, finding 2), and
/// dgemm's IR nests a few levels at most.
constexpr int kFuzzMaxNesting = 64;

/// True when every op is problem-level IR the pipeline is meant for.
bool onlyProblemLevelOps(ModuleOp module) {
  static const llvm::StringSet<> allowed = {
      "builtin.module", "func.func", "func.return", "dgemm.gemm",
      "dgemm.grouped_gemm", "dgemm.k_grouped_gemm"};
  WalkResult r = module->walk([&](Operation *op) {
    return allowed.contains(op->getName().getStringRef())
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  return !r.wasInterrupted();
}

/// Records which of the pipeline's dgemm passes completed.
class StageRecorder : public PassInstrumentation {
public:
  void runAfterPass(Pass *pass, Operation *) override {
    llvm::StringRef arg = pass->getArgument();
    if (arg == "dgemm-select-config")
      selected = true;
    else if (arg == "dgemm-lower-to-kernel")
      lowered = true;
  }
  bool selected = false;
  bool lowered = false;
};

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  (void)registry();
  FuzzStages::init("dgemm-fuzz-lower", kStageNames, 7);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzStages::reach(kExecuted);
  // The parser reads up to a terminating NUL: std::string supplies it.
  std::string text(reinterpret_cast<const char *>(data), size);
  if (::dgemm::maxNesting(text) > kFuzzMaxNesting)
    return -1; // not added to the corpus
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler drop(&context,
                               [](Diagnostic &) { return success(); });
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module)
    return 0;
  FuzzStages::reach(kParsed);
  if (failed(verify(*module)))
    return 0;
  FuzzStages::reach(kVerified);
  int gemms = 0;
  module->walk([&](mlir::dgemm::GemmOpInterface) { ++gemms; });
  if (gemms == 0)
    return 0;
  FuzzStages::reach(kHasGemm);
  if (!onlyProblemLevelOps(*module))
    return 0;
  FuzzStages::reach(kProblemLevel);

  PassManager pm(&context, ModuleOp::getOperationName());
  mlir::dgemm::buildDGEMMToPTXPipeline(pm);
  auto recorder = std::make_unique<StageRecorder>();
  StageRecorder *seen = recorder.get();
  pm.addInstrumentation(std::move(recorder));
  LogicalResult ran = pm.run(*module);
  if (seen->selected)
    FuzzStages::reach(kConfigSelected);
  if (seen->lowered)
    FuzzStages::reach(kLowered);
  if (failed(ran))
    return 0;

  // Success means every GEMM op became a kernel whose PTX is in a gpu.binary.
  std::string ptx;
  module->walk([&](gpu::BinaryOp binary) {
    for (Attribute a : binary.getObjects())
      if (auto object = dyn_cast<gpu::ObjectAttr>(a))
        ptx += object.getObject().getValue().str();
  });
  if (ptx.find(".entry ") == std::string::npos)
    __builtin_trap(); // the pipeline succeeded without producing a kernel
  FuzzStages::reach(kPTX);
  return 0;
}
