//===- KernelKey.h - What identifies a compiled kernel ----------*- C++ -*-===//
//
// A compiled kernel depends on the op, its static sizes (N, K), the kernel
// config, the target, the pipeline that lowered it and the versions of dgemm
// and LLVM; not on M (one kernel serves every M of its config). The key is
// that list written as one canonical line; its 64-bit FNV-1a hash names the
// cache entry, and the full line is stored with the entry and compared on
// load, so a hash collision can only cost a recompile.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_KERNELKEY_H
#define DGEMM_RUNTIME_KERNELKEY_H

#include "dgemm/Config/ConfigSelection.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace dgemm::runtime {

/// The pipelines the runtime runs (registered by dgemm's conversion passes).
constexpr const char *kGemmPipeline = "dgemm-to-ptx";
constexpr const char *kKernelIRPipeline = "dgemm-kernel-to-ptx";

/// An FP8 GEMM with a bf16 output and 1x128 / 128x128 scales: the normal
/// one, or m-grouped (contiguous or masked) over `groups` experts.
struct GemmKernelKey {
  GemmKind kind = GemmKind::Normal;
  /// Normal kind only: the weight-gradient form (1x128 B scales, f32 D,
  /// D += A * B^T).
  bool wgrad = false;
  /// Normal kind only: epilogue fusion of an f32 bias [N] (bf16 D = A * B^T
  /// + bias).
  bool bias = false;
  int64_t groups = 1;
  /// Contiguous only: groups given by offsets[G] rather than m_indices.
  bool groupOffsets = false;
  /// k-grouped only: M (the kernel's static rows of each D[g]).
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  KernelConfig config;
  std::string chip = "sm_90a";
  TargetDesc target;
  std::string pipeline = kGemmPipeline;
  /// dgemmBuildId() and the LLVM version string of the compiler.
  std::string dgemmVersion;
  std::string llvmVersion;

  /// One line, no newlines: every field above (the layout and groups only
  /// for grouped kernels, so normal keys are those of earlier versions).
  std::string text() const;
};

/// The key of a kernel-IR module compiled by `pipeline`: its text's hash and
/// length stand for the text.
std::string kernelIRKeyText(std::string_view kernelIR,
                            const std::string &pipeline,
                            const std::string &dgemmVersion,
                            const std::string &llvmVersion);

/// 64-bit FNV-1a.
uint64_t fnv1a64(std::string_view data);

/// 16 lower-case hex digits.
std::string hex64(uint64_t v);

/// `#dgemm.config<block_m = ..., ..., num_sms = ...>` as the dialect prints
/// it.
std::string formatConfigAttr(const KernelConfig &c);

/// dgemm's version plus an identifier of this build (size and modification
/// time of the binary holding the runtime), so that a rebuilt compiler never
/// reuses kernels cached by an older one.
std::string dgemmBuildId();

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_KERNELKEY_H
