//===- IRDump.cpp - Every stage's IR of a compile job, to files -----------===//
//
// A pass instrumentation prints the operation a pass ran on after the
// passes that end a stage (dgemm-select-config, dgemm-lower-to-kernel,
// convert-dgemm-to-nvvm) and before gpu-module-to-binary (the LLVM dialect
// that becomes PTX); the texts are kept in memory and written when the job
// ends, under the kernel's name, which is known only then.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/IRDump.h"

#include "dgemm/Runtime/JitEnv.h"
#include "dgemm/Runtime/KernelKey.h"

#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstring>

using namespace dgemm::runtime;

namespace {

std::string printOp(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  os << "\n";
  return text;
}

class StageRecorder : public mlir::PassInstrumentation {
public:
  explicit StageRecorder(IRDump &dump) : dump_(dump) {}

  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    llvm::StringRef arg = pass->getArgument();
    if (arg == "dgemm-select-config")
      dump_.add("1-dgemm-select-config.mlir", printOp(op));
    else if (arg == "dgemm-lower-to-kernel")
      dump_.add("2-dgemm-lower-to-kernel.mlir", printOp(op));
    else if (arg == "convert-dgemm-to-nvvm")
      dump_.add("3-convert-dgemm-to-nvvm.mlir", printOp(op));
  }
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override {
    if (pass->getArgument() == "gpu-module-to-binary")
      dump_.add("4-llvm.mlir", printOp(op));
  }

private:
  IRDump &dump_;
};

/// Warns once per process that dumps cannot be written.
void warnOnce(const std::string &text) {
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true))
    jitMessage("warning: DGEMM_DUMP_IR: " + text +
               "; IR is not dumped (compiling goes on)");
}

} // namespace

std::string dgemm::runtime::safeFileName(const std::string &name) {
  std::string out;
  for (char c : name.substr(0, 128)) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    out += ok ? c : '_';
  }
  if (out.empty() || out == "." || out == "..")
    out = "_" + out;
  return out;
}

IRDump::IRDump(std::string directory) : directory_(std::move(directory)) {}

void IRDump::add(std::string stage, std::string text) {
  if (enabled())
    stages_.emplace_back(std::move(stage), std::move(text));
}

std::unique_ptr<mlir::PassInstrumentation> IRDump::instrumentation() {
  return std::make_unique<StageRecorder>(*this);
}

std::vector<std::string> IRDump::write(const std::string &what,
                                       const std::string &kernelName,
                                       const Status &status) const {
  std::vector<std::string> written;
  if (!enabled())
    return written;
  std::string hash = hex64(fnv1a64(what));
  bool failed = !status.ok();
  std::string name =
      failed ? "failed" : (kernelName.empty() ? "module" : kernelName);
  std::string base = directory_ + "/" + safeFileName(name + "-" + hash);
  if (std::error_code ec = llvm::sys::fs::create_directories(directory_)) {
    warnOnce("cannot create " + directory_ + ": " + ec.message());
    return written;
  }
  std::vector<std::pair<std::string, std::string>> files = stages_;
  if (failed)
    files.emplace_back("error.txt", what + "\n" + status.message() + "\n");
  for (const auto &[stage, text] : files) {
    std::string path = base + "." + stage;
    std::error_code ec;
    {
      llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
      if (!ec) {
        os << text;
        os.close();
        ec = os.error();
      }
      // An error left on the stream would be a fatal error in its destructor.
      os.clear_error();
    }
    if (ec) {
      warnOnce("cannot write " + path + ": " + ec.message());
      return written;
    }
    written.push_back(path);
  }
  jitLog(1, "dump: " + std::to_string(written.size()) + " files " + base +
                ".*");
  return written;
}
