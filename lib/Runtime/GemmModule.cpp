//===- GemmModule.cpp - The dgemm IR the runtime compiles -----------------===//
//
// Normal:
//   func.func @dgemm_gemm_n<N>_k<K>(%a: memref<?xKxf8E4M3FN>,
//       %sa: memref<?x(K/128)xf32, strided<[1, ?]>>,
//       %b: memref<NxKxf8E4M3FN>, %sb: memref<ceil(N/128)x(K/128)xf32>,
//       %d: memref<?xNxbf16>) {
//     dgemm.gemm ins(...) outs(%d ...) {config = ..., target = ...}
//     return
//   }
// Contiguous (M_sum dynamic): A, its scales and D as above, B
// memref<GxNxK>, B scales memref<Gxceil(N/128)x(K/128)>, m_indices
// memref<?xi32>. Masked (M_max dynamic): A memref<Gx?xK>, its scales
// memref<Gx?x(K/128), strided<[?, 1, ?]>>, masked_m memref<Gxi32>, D
// memref<Gx?xN>. Weight gradient (wgrad): B scales memref<Nx(K/128)xf32,
// strided<[1, ?]>>, D memref<?xNxf32> also the accumulate input (acc(%d)),
// recipe 1x128 x 1x128. With a bias (epilogue fusion): %bias memref<Nxf32>
// before %d, and bias(%bias) on the op. The config is explicit, so no m_hint
// is needed.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/GemmModule.h"

using namespace dgemm::runtime;

namespace {
std::string str(int64_t v) { return std::to_string(v); }

std::string targetAttr(const GemmKernelKey &key) {
  return "#dgemm.target<\"" + key.chip + "\", sms = " +
         str(key.target.numSMs) + ", smem = " + str(key.target.smemPerBlock) +
         ">";
}

std::string attrs(const GemmKernelKey &key) {
  return "{config = " + formatConfigAttr(key.config) +
         ", target = " + targetAttr(key) + "}";
}

/// The normal GEMM, or (key.wgrad) its weight-gradient form: B scales
/// [N, K/128] MN-major, D f32 [M, N] accumulated in place (acc(%d)
/// outs(%d)), the 1x128 x 1x128 recipe.
std::string normalModule(const GemmKernelKey &key) {
  const bool wgrad = key.wgrad;
  std::string n = str(key.n), k = str(key.k);
  std::string kb = str(key.k / 128), nb = str((key.n + 127) / 128);
  std::string aType = "memref<?x" + k + "xf8E4M3FN>";
  std::string saType = "memref<?x" + kb + "xf32, strided<[1, ?]>>";
  std::string bType = "memref<" + n + "x" + k + "xf8E4M3FN>";
  std::string sbType = wgrad ? "memref<" + n + "x" + kb + "xf32, strided<[1, ?]>>"
                             : "memref<" + nb + "x" + kb + "xf32>";
  std::string dType = "memref<?x" + n + (wgrad ? "xf32>" : "xbf16>");
  std::string acc = wgrad ? "acc(%d : " + dType + ") " : "";
  const bool bias = key.bias && !wgrad;
  std::string biasType = "memref<" + n + "xf32>";
  std::string biasArg = bias ? ", %bias: " + biasType : "";
  std::string fused = bias ? "bias(%bias : " + biasType + ") " : "";
  std::string attributes =
      wgrad ? "{recipe = #dgemm.recipe<a = 1x128, b = 1x128>, " +
                  attrs(key).substr(1)
            : attrs(key);
  return "module {\n"
         "  func.func @dgemm_" +
         std::string(wgrad  ? "wgrad"
                     : bias ? "gemm_bias"
                            : "gemm") +
         "_n" + n + "_k" + k + "(%a: " + aType + ", %sa: " + saType +
         ", %b: " + bType + ", %sb: " + sbType + biasArg + ", %d: " + dType +
         ") {\n"
         "    dgemm.gemm ins(%a, %sa, %b, %sb : " +
         aType + ", " + saType + ", " + bType + ", " + sbType + ") " + acc +
         fused + "outs(%d : " + dType + ") " + attributes +
         "\n"
         "    return\n"
         "  }\n"
         "}\n";
}

/// k-grouped: flat A and B, scales [sum(k_g)/128, M|N] (rows and row
/// stride dynamic), ks
/// memref<Gxi32>, D memref<GxMxNxf32>.
std::string kGroupedModule(const GemmKernelKey &key) {
  std::string g = str(key.groups), m = str(key.m), n = str(key.n);
  std::string flat = "memref<?xf8E4M3FN>";
  // Rows of scales at any 16-byte aligned stride (M or N padded to 4).
  std::string saType = "memref<?x" + m + "xf32, strided<[?, 1]>>";
  std::string sbType = "memref<?x" + n + "xf32, strided<[?, 1]>>";
  std::string ksType = "memref<" + g + "xi32>";
  std::string dType = "memref<" + g + "x" + m + "x" + n + "xf32>";
  return "module {\n"
         "  func.func @dgemm_k_grouped_g" +
         g + "_m" + m + "_n" + n + "(%a: " + flat + ", %sa: " + saType +
         ", %b: " + flat + ", %sb: " + sbType + ", %ks: " + ksType +
         ", %d: " + dType +
         ") {\n"
         "    dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : " +
         flat + ", " + saType + ", " + flat + ", " + sbType + ") ks(%ks : " +
         ksType + ") outs(%d : " + dType + ") " +
         "{recipe = #dgemm.recipe<a = 1x128, b = 1x128>, " +
         attrs(key).substr(1) +
         "\n"
         "    return\n"
         "  }\n"
         "}\n";
}

std::string groupedModule(const GemmKernelKey &key) {
  const bool masked = key.kind == dgemm::GemmKind::GroupedMasked;
  std::string g = str(key.groups), n = str(key.n), k = str(key.k);
  std::string kb = str(key.k / 128), nb = str((key.n + 127) / 128);
  std::string aType, saType, groupsType, dType;
  if (masked) {
    aType = "memref<" + g + "x?x" + k + "xf8E4M3FN>";
    saType = "memref<" + g + "x?x" + kb + "xf32, strided<[?, 1, ?]>>";
    groupsType = "memref<" + g + "xi32>";
    dType = "memref<" + g + "x?x" + n + "xbf16>";
  } else {
    aType = "memref<?x" + k + "xf8E4M3FN>";
    saType = "memref<?x" + kb + "xf32, strided<[1, ?]>>";
    groupsType = key.groupOffsets ? "memref<" + g + "xi32>" : "memref<?xi32>";
    dType = "memref<?x" + n + "xbf16>";
  }
  std::string bType = "memref<" + g + "x" + n + "x" + k + "xf8E4M3FN>";
  std::string sbType = "memref<" + g + "x" + nb + "x" + kb + "xf32>";
  std::string layout = masked             ? "masked"
                       : key.groupOffsets ? "contiguous_offsets"
                                          : "contiguous";
  return "module {\n"
         "  func.func @dgemm_grouped_" +
         layout + "_g" + g + "_n" + n + "_k" + k + "(%a: " + aType +
         ", %sa: " + saType + ", %b: " + bType + ", %sb: " + sbType +
         ", %groups: " + groupsType + ", %d: " + dType +
         ") {\n"
         "    dgemm.grouped_gemm #dgemm.grouped<" +
         layout + "> ins(%a, %sa, %b, %sb : " + aType + ", " + saType + ", " +
         bType + ", " + sbType + ") groups(%groups : " + groupsType +
         ") outs(%d : " + dType + ") " + attrs(key) +
         "\n"
         "    return\n"
         "  }\n"
         "}\n";
}
} // namespace

std::string dgemm::runtime::gemmModuleText(const GemmKernelKey &key) {
  if (key.kind == dgemm::GemmKind::GroupedContiguous ||
      key.kind == dgemm::GemmKind::GroupedMasked)
    return groupedModule(key);
  if (key.kind == dgemm::GemmKind::KGrouped)
    return kGroupedModule(key);
  return normalModule(key);
}
