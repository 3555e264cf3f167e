//===- GemmModule.cpp - The dgemm IR the runtime compiles -----------------===//
//
//   func.func @dgemm_gemm_n<N>_k<K>(%a: memref<?xKxf8E4M3FN>,
//       %sa: memref<?x(K/128)xf32, strided<[1, ?]>>,
//       %b: memref<NxKxf8E4M3FN>, %sb: memref<ceil(N/128)x(K/128)xf32>,
//       %d: memref<?xNxbf16>) {
//     dgemm.gemm ins(...) outs(%d ...) {config = ..., target = ...}
//     return
//   }
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/GemmModule.h"

using namespace dgemm::runtime;

std::string dgemm::runtime::gemmModuleText(const GemmKernelKey &key) {
  auto str = [](int64_t v) { return std::to_string(v); };
  std::string n = str(key.n), k = str(key.k);
  std::string kb = str(key.k / 128), nb = str((key.n + 127) / 128);
  std::string aType = "memref<?x" + k + "xf8E4M3FN>";
  std::string saType = "memref<?x" + kb + "xf32, strided<[1, ?]>>";
  std::string bType = "memref<" + n + "x" + k + "xf8E4M3FN>";
  std::string sbType = "memref<" + nb + "x" + kb + "xf32>";
  std::string dType = "memref<?x" + n + "xbf16>";
  std::string target = "#dgemm.target<\"" + key.chip +
                       "\", sms = " + str(key.target.numSMs) +
                       ", smem = " + str(key.target.smemPerBlock) + ">";
  return "module {\n"
         "  func.func @dgemm_gemm_n" +
         n + "_k" + k + "(%a: " + aType + ", %sa: " + saType +
         ", %b: " + bType + ", %sb: " + sbType + ", %d: " + dType +
         ") {\n"
         "    dgemm.gemm ins(%a, %sa, %b, %sb : " +
         aType + ", " + saType + ", " + bType + ", " + sbType +
         ") outs(%d : " + dType +
         ") {config = " + formatConfigAttr(key.config) +
         ", target = " + target +
         "}\n"
         "    return\n"
         "  }\n"
         "}\n";
}
