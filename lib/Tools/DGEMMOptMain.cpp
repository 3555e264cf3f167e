//===- DGEMMOptMain.cpp - the body of dgemm-opt ----------------------------===//
//
// dgemm-opt's main lives in the dgemm library so that the tool is a thin
// executable over libdgemm (the bundle ships one library and small tools).
// Bad input prints diagnostics and returns 1; LLVM fatal errors are turned
// into a message and exit code 1 rather than an abort. MLIR's parser
// recurses once per nesting level of brackets, so a deep enough input
// overflows the stack (docs/fuzzing.md): inputs nesting deeper than
// kMaxNesting are rejected with a message before they are parsed.
//
//===----------------------------------------------------------------------===//
#include "dgemm-c/Tools.h"

#include "dgemm/InitAll.h"
#include "dgemm/Support/NestingDepth.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

static void fatalErrorHandler(void *, const char *reason, bool) {
  llvm::errs() << "dgemm-opt: error: " << reason << "\n";
  llvm::errs().flush();
  std::_Exit(1);
}

extern "C" int dgemm_opt_main(int argc, char **argv) {
  llvm::install_fatal_error_handler(fatalErrorHandler, nullptr);
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  mlir::DialectRegistry registry;
  dgemm::registerAllDialects(registry);
  dgemm::registerAllPasses();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "dgemm optimizer: FP8 block-scaled GEMMs for Hopper\n",
      registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, input, output, registry));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      mlir::openInputFile(input, &error);
  if (!buffer) {
    llvm::errs() << "dgemm-opt: error: " << error << "\n";
    return 1;
  }
  if (int depth = dgemm::maxNesting(buffer->getBuffer());
      depth > dgemm::kMaxNesting) {
    llvm::errs() << (input == "-" ? "<stdin>" : input)
                 << ": error: brackets nest " << depth
                 << " levels deep, more than the " << dgemm::kMaxNesting
                 << " dgemm-opt accepts\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> out =
      mlir::openOutputFile(output, &error);
  if (!out) {
    llvm::errs() << "dgemm-opt: error: " << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(out->os(), std::move(buffer), registry,
                                     config)))
    return 1;
  out->keep();
  return 0;
}
