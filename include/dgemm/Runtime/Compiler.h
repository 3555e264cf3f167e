//===- Compiler.h - In-process compilation of dgemm kernels -----*- C++ -*-===//
//
// Runs dgemm's pass pipelines in this process (an MLIR PassManager, never a
// subprocess) and returns the PTX and the launch contract:
//   - compileGemm: the dgemm IR module of a kernel key through `dgemm-to-ptx`;
//   - compileKernelIR: user kernel IR through `dgemm-kernel-to-ptx`;
//   - compileToPtx: any dgemm IR module through `dgemm-to-ptx`, PTX only.
// The contract is read from the kernel's `dgemm.launch` attribute just
// before `gpu-module-to-binary` runs (a pass instrumentation), since the
// kernel function is gone once the module has become a gpu.binary.
//
// Failures are DGEMM_ERROR_COMPILE carrying what was compiled (the kernel
// key) and the pipeline's diagnostics. An LLVM fatal error inside the
// pipeline (e.g. the NVPTX backend refusing a PTX version) does not end the
// process: compilation runs inside an llvm::CrashRecoveryContext and a fatal
// error handler turns the error into a COMPILE status with LLVM's reason.
// NVVM targets of the input are checked before lowering: an explicit PTX
// feature below +ptx80 on an sm_90a target is refused with a clear message.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_COMPILER_H
#define DGEMM_RUNTIME_COMPILER_H

#include "dgemm/Runtime/KernelCache.h"
#include "dgemm/Runtime/KernelKey.h"

#include <optional>
#include <string>
#include <string_view>

namespace dgemm::runtime {

/// The LLVM version the compiler is built with ("22.1.8").
std::string llvmVersion();

/// A GemmKernelKey for (n, k, config, target) with this build's versions
/// and the dgemm-to-ptx pipeline.
GemmKernelKey makeGemmKernelKey(int64_t n, int64_t k,
                                const KernelConfig &config,
                                const TargetDesc &target);

/// Compiles the GEMM kernel of `key` (gemmModuleText + key.pipeline).
Status compileGemm(const GemmKernelKey &key, CompiledKernel &out);

/// Compiles kernel IR text with dgemm-kernel-to-ptx.
Status compileKernelIR(std::string_view kernelIR, CompiledKernel &out);

/// Compiles dgemm IR text with dgemm-to-ptx; the PTX of every gpu.binary.
Status compileToPtx(std::string_view dgemmIR, std::string &ptx);

struct CompileOptions {
  /// Require a gpu.binary with PTX in the result.
  bool needPtx = true;
  /// Require exactly one kernel with a `dgemm.launch` contract.
  bool needContract = true;
  /// Check the NVVM targets of the input before running the pipeline.
  bool checkTargets = true;
  /// When set, receives the module as printed after the pipeline (e.g. the
  /// kernel IR after `dgemm-to-kernel`).
  std::string *outputIR = nullptr;
  /// Where to write every stage's IR and the PTX (IRDump.h); unset: the
  /// DGEMM_DUMP_IR environment variable (JitEnv.h); empty: no dump.
  std::optional<std::string> dumpIRDir;
};

/// The general form: parses `moduleText`, runs `pipeline` (textual pass
/// pipeline, e.g. "dgemm-to-ptx"), and collects the PTX (all gpu.binary
/// assembly objects, concatenated) and the contract. `what` names the job in
/// error messages (the kernel key).
Status compileModule(std::string_view moduleText, const std::string &pipeline,
                     const std::string &what, const CompileOptions &options,
                     CompiledKernel &out);

/// True when `name` is a registered pass pipeline (after the compiler's
/// one-time registration).
bool isPipelineRegistered(const std::string &name);

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_COMPILER_H
