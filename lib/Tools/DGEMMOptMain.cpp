//===- DGEMMOptMain.cpp - the body of dgemm-opt ----------------------------===//
//
// dgemm-opt's main lives in the dgemm library so that the tool is a thin
// executable over libdgemm (the bundle ships one library and small tools).
// Bad input prints diagnostics and returns 1; LLVM fatal errors are turned
// into a message and exit code 1 rather than an abort.
//
//===----------------------------------------------------------------------===//
#include "dgemm-c/Tools.h"

#include "dgemm/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
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
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "dgemm optimizer: FP8 block-scaled GEMMs for Hopper\n",
      registry));
}
