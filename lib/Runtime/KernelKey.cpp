//===- KernelKey.cpp - What identifies a compiled kernel ------------------===//
//
// The canonical key line, FNV-1a, the config attribute text and the build
// identifier (found through dladdr on this very code, so it names
// libdgemm.so in the product and the test binary in unit tests).
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/KernelKey.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdio>

#ifndef DGEMM_VERSION_STRING
#define DGEMM_VERSION_STRING "unknown"
#endif

using namespace dgemm::runtime;

namespace {
std::string str(int64_t v) { return std::to_string(v); }
} // namespace

uint64_t dgemm::runtime::fnv1a64(std::string_view data) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string dgemm::runtime::hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx",
                static_cast<unsigned long long>(v));
  return buf;
}

std::string dgemm::runtime::formatConfigAttr(const KernelConfig &c) {
  return "#dgemm.config<block_m = " + str(c.blockM) +
         ", block_n = " + str(c.blockN) + ", stages = " + str(c.stages) +
         ", cluster = " + str(c.clusterSize) +
         ", multicast = " + toString(c.multicast) +
         ", math_warpgroups = " + str(c.mathWarpgroups) +
         ", swizzle_group = " + str(c.swizzleGroup) +
         ", num_sms = " + str(c.numSMs) +
         (c.streamB ? ", stream_b = true" : "") +
         (c.hasAlt() ? ", alt_block_m = " + str(c.altBlockM) +
                           ", alt_block_n = " + str(c.altBlockN) +
                           ", alt_stages = " + str(c.altStages) +
                           ", alt_num_sms = " + str(c.altNumSMs)
                     : "") +
         (c.aBoxRows ? ", a_box_rows = " + str(c.aBoxRows) : "") + ">";
}

std::string GemmKernelKey::text() const {
  std::string op = wgrad  ? "wgrad_fp8_f32_nt"
                   : bias ? "gemm_fp8_bf16_nt_bias"
                          : "gemm_fp8_bf16_nt";
  if (kind == GemmKind::GroupedContiguous)
    op = std::string(groupOffsets ? "m_grouped_contiguous_offsets_fp8_bf16_nt"
                                  : "m_grouped_contiguous_fp8_bf16_nt") +
         " groups=" + str(groups);
  else if (kind == GemmKind::GroupedMasked)
    op = "m_grouped_masked_fp8_bf16_nt groups=" + str(groups);
  else if (kind == GemmKind::KGrouped)
    op = "k_grouped_fp8_f32_nt groups=" + str(groups) + " m=" + str(m);
  return op + " n=" + str(n) + " k=" + str(k) +
         " config=" + formatConfigAttr(config) + " target=" + chip + "," +
         str(target.numSMs) + "," + str(target.smemPerBlock) +
         " pipeline=" + pipeline + " dgemm=" + dgemmVersion +
         " llvm=" + llvmVersion;
}

std::string dgemm::runtime::kernelIRKeyText(std::string_view kernelIR,
                                            const std::string &pipeline,
                                            const std::string &dgemmVersion,
                                            const std::string &llvmVersion) {
  return "kernel_ir fnv1a64=" + hex64(fnv1a64(kernelIR)) +
         " bytes=" + std::to_string(kernelIR.size()) + " pipeline=" + pipeline +
         " dgemm=" + dgemmVersion + " llvm=" + llvmVersion;
}

std::string dgemm::runtime::dgemmBuildId() {
  static const std::string id = [] {
    std::string s = DGEMM_VERSION_STRING;
    Dl_info info;
    struct stat st;
    if (dladdr(reinterpret_cast<void *>(&dgemmBuildId), &info) &&
        info.dli_fname && stat(info.dli_fname, &st) == 0)
      s += "+b" + str(static_cast<int64_t>(st.st_size)) + "." +
           str(static_cast<int64_t>(st.st_mtim.tv_sec)) + "." +
           str(static_cast<int64_t>(st.st_mtim.tv_nsec));
    return s;
  }();
  return id;
}
