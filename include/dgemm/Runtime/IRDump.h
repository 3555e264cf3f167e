//===- IRDump.h - Every stage's IR of a compile job, to files ---*- C++ -*-===//
//
// DGEMM_DUMP_IR=<dir> (JitEnv.h): the compiler records the text of each
// stage of a job and writes them, when the job ends, as
//
//   <dir>/<kernel>-<hash>.0-input.mlir                  what was compiled
//   <dir>/<kernel>-<hash>.1-dgemm-select-config.mlir    configured dgemm IR
//   <dir>/<kernel>-<hash>.2-dgemm-lower-to-kernel.mlir  kernel IR
//   <dir>/<kernel>-<hash>.3-convert-dgemm-to-nvvm.mlir  NVVM dialect
//   <dir>/<kernel>-<hash>.4-llvm.mlir                   LLVM dialect, as
//                                                       translated to PTX
//   <dir>/<kernel>-<hash>.5-ptx.ptx                     the PTX
//
// <kernel> is the kernel's name from its launch contract and <hash> the
// FNV-1a of the job's name (for a GEMM, its kernel key: the same 16 hex
// digits as the disk cache entry). Stages a pipeline does not have are
// absent (kernel IR jobs start at 3); a module without a launch contract
// (dgemm_compile_to_ptx) is named `module`. A job that fails writes the stages it
// reached plus `failed-<hash>.error.txt` (files named `failed-<hash>.*`).
// A folder that cannot be created or written is a warning on stderr (once
// per process), never a failed compile.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_IRDUMP_H
#define DGEMM_RUNTIME_IRDUMP_H

#include "dgemm/Runtime/Status.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class PassInstrumentation;
} // namespace mlir

namespace dgemm::runtime {

class IRDump {
public:
  /// A dump into `directory`; an empty directory disables it.
  explicit IRDump(std::string directory);

  bool enabled() const { return !directory_.empty(); }

  /// Records `text` as stage `stage` ("0-input.mlir", ...).
  void add(std::string stage, std::string text);

  /// An instrumentation recording stages 1-4 of a PassManager run.
  std::unique_ptr<mlir::PassInstrumentation> instrumentation();

  /// Writes the recorded stages for the job `what` whose kernel is
  /// `kernelName` (empty: "module"; a failed `status`: "failed", plus the
  /// error text). Returns the paths written; on a failure to write, warns and
  /// returns what was written before it.
  std::vector<std::string> write(const std::string &what,
                                 const std::string &kernelName,
                                 const Status &status) const;

  const std::vector<std::pair<std::string, std::string>> &stages() const {
    return stages_;
  }

private:
  std::string directory_;
  std::vector<std::pair<std::string, std::string>> stages_;
};

/// `name` with every character but [A-Za-z0-9_.-] replaced by '_' (at most
/// 128 characters; never empty, "." or "..").
std::string safeFileName(const std::string &name);

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_IRDUMP_H
