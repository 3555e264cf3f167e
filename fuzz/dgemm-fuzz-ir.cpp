//===- dgemm-fuzz-ir.cpp - libFuzzer target over dgemm IR ------*- C++ -*-===//
//
// Parses arbitrary bytes as MLIR with only the dialects dgemm's IR needs
// registered (dgemm, func, memref, arith; builtin is always there), verifies
// the result, and runs `dgemm-select-config` then `dgemm-config-report` over
// it. Every diagnostic goes to a handler that drops it, and the report's
// output (llvm::outs(), i.e. fd 1) is sent to /dev/null, so bad input must
// end in a failed parse, verify or pass, never in an abort: any crash, ASan
// or UBSan report is a bug. The executions reaching each stage (parsed,
// verified, holding a GEMM op, config selected) are printed at exit
// (FuzzStages.h). docs/fuzzing.md says how to run it.
//
//===----------------------------------------------------------------------===//

#include "FuzzStages.h"

#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"
#include "dgemm/Dialect/DGEMM/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <unistd.h>

using namespace mlir;
using ::dgemm::fuzz::FuzzStages;

namespace {
enum Stage { kExecuted, kParsed, kVerified, kHasGemm, kConfigSelected };
const char *const kStageNames[] = {"parsed", "verified", "gemm_op",
                                   "config_selected"};
} // namespace

/// The dialects are registered once; each input gets a fresh context (so
/// nothing an input interns or loads leaks into the next one).
static DialectRegistry &registry() {
  static DialectRegistry *r = [] {
    auto *reg = new DialectRegistry();
    reg->insert<mlir::dgemm::DGEMMDialect, func::FuncDialect,
                memref::MemRefDialect, arith::ArithDialect>();
    return reg;
  }();
  return *r;
}

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  // dgemm-config-report writes to llvm::outs() (fd 1): discard it. libFuzzer
  // reports on stderr. DGEMM_FUZZ_KEEP_STDOUT=1 keeps it (to read a report).
  if (!std::getenv("DGEMM_FUZZ_KEEP_STDOUT")) {
    int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
      ::dup2(devnull, STDOUT_FILENO);
      ::close(devnull);
    }
  }
  (void)registry();
  FuzzStages::init("dgemm-fuzz-ir", kStageNames, 4);
  return 0;
}

/// MLIR's parser recurses once per nesting level with no limit, so deeply
/// nested input overflows the stack inside upstream MLIR (docs/fuzzing.md
/// has the input). Inputs nested deeper than this (brackets counted crudely,
/// strings and comments included) are skipped so that the fuzzer looks for
/// bugs elsewhere; dgemm's IR nests a few levels at most.
static constexpr int kMaxNesting = 64;

static bool nestsTooDeep(const uint8_t *data, size_t size) {
  int depth = 0;
  for (size_t i = 0; i < size; ++i) {
    switch (data[i]) {
    case '(': case '[': case '{': case '<':
      if (++depth > kMaxNesting)
        return true;
      break;
    case ')': case ']': case '}': case '>':
      depth = depth > 0 ? depth - 1 : 0;
      break;
    default:
      break;
    }
  }
  return false;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzStages::reach(kExecuted);
  if (nestsTooDeep(data, size))
    return -1; // not added to the corpus
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  // Drop every diagnostic (the default handler would print errors to stderr).
  ScopedDiagnosticHandler drop(&context,
                               [](Diagnostic &) { return success(); });

  // MLIR's lexer reads its buffer up to a terminating NUL (it treats a NUL
  // at the end as end of file): libFuzzer's bytes have none, so parsing them
  // in place reads past the end (ASan: heap-buffer-overflow in
  // parseCustomOperationName). std::string supplies the NUL.
  std::string text(reinterpret_cast<const char *>(data), size);
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module)
    return 0;
  FuzzStages::reach(kParsed);
  if (failed(verify(*module)))
    return 0;
  FuzzStages::reach(kVerified);
  bool hasGemm = false;
  module->walk([&](mlir::dgemm::GemmOpInterface) { hasGemm = true; });
  if (hasGemm)
    FuzzStages::reach(kHasGemm);

  PassManager select(&context, ModuleOp::getOperationName());
  select.addPass(mlir::dgemm::createDGEMMSelectConfig());
  if (failed(select.run(*module)))
    return 0;
  if (hasGemm)
    FuzzStages::reach(kConfigSelected);
  PassManager report(&context, ModuleOp::getOperationName());
  report.addPass(mlir::dgemm::createDGEMMConfigReport());
  (void)report.run(*module);
  return 0;
}
