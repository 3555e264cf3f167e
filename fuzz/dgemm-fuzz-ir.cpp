//===- dgemm-fuzz-ir.cpp - libFuzzer target over dgemm IR ------*- C++ -*-===//
//
// Parses arbitrary bytes as MLIR with only the dialects dgemm's IR needs
// registered (dgemm, func, memref, arith; builtin is always there), verifies
// the result, and runs `dgemm-select-config` then `dgemm-config-report` over
// it. Every diagnostic goes to a handler that drops it, and the report's
// output (llvm::outs(), i.e. fd 1) is sent to /dev/null, so bad input must
// end in a failed parse, verify or pass, never in an abort: any crash, ASan
// or UBSan report is a bug. docs/fuzzing.md says how to run it.
//
//===----------------------------------------------------------------------===//

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
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

using namespace mlir;

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
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  // Drop every diagnostic (the default handler would print errors to stderr).
  ScopedDiagnosticHandler drop(&context,
                               [](Diagnostic &) { return success(); });

  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module)
    return 0;
  if (failed(verify(*module)))
    return 0;

  PassManager pm(&context, ModuleOp::getOperationName());
  pm.addPass(mlir::dgemm::createDGEMMSelectConfig());
  pm.addPass(mlir::dgemm::createDGEMMConfigReport());
  (void)pm.run(*module);
  return 0;
}
