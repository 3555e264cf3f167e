//===- KernelKeyTest.cpp - Kernel keys and the dgemm IR to compile --------===//
//
// FNV-1a test vectors, the config attribute text, key lines that differ in
// every field, and the dgemm IR module written for a key.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/KernelKey.h"
#include "dgemm/Runtime/GemmModule.h"

#include "gtest/gtest.h"

using namespace dgemm;
using namespace dgemm::runtime;

namespace {

KernelConfig config() {
  KernelConfig c;
  c.blockM = 128;
  c.blockN = 112;
  c.stages = 6;
  c.clusterSize = 1;
  c.multicast = Multicast::None;
  c.mathWarpgroups = 2;
  c.swizzleGroup = 16;
  c.numSMs = 128;
  return c;
}

GemmKernelKey key() {
  GemmKernelKey k;
  k.n = 7168;
  k.k = 2048;
  k.config = config();
  k.dgemmVersion = "0.1.0+test";
  k.llvmVersion = "22.1.8";
  return k;
}

TEST(KernelKey, Fnv1a64) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
  EXPECT_EQ(hex64(0xaf63dc4c8601ec8cull), "af63dc4c8601ec8c");
  EXPECT_EQ(hex64(1), "0000000000000001");
}

TEST(KernelKey, ConfigAttr) {
  EXPECT_EQ(formatConfigAttr(config()),
            "#dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = "
            "1, multicast = none, math_warpgroups = 2, swizzle_group = 16, "
            "num_sms = 128>");
  dgemm::KernelConfig streamed = config();
  streamed.streamB = true;
  EXPECT_EQ(formatConfigAttr(streamed),
            "#dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = "
            "1, multicast = none, math_warpgroups = 2, swizzle_group = 16, "
            "num_sms = 128, stream_b = true>");
}

TEST(KernelKey, Text) {
  EXPECT_EQ(key().text(), "gemm_fp8_bf16_nt n=7168 k=2048 config=" +
                              formatConfigAttr(config()) +
                              " target=sm_90a,132,232448 pipeline=dgemm-to-ptx "
                              "dgemm=0.1.0+test llvm=22.1.8");
  // Every field changes the key.
  std::vector<GemmKernelKey> keys(11, key());
  keys[1].n = 7160;
  keys[2].k = 2176;
  keys[3].config.stages = 5;
  keys[4].config.numSMs = 132;
  keys[5].target.numSMs = 114;
  keys[6].target.smemPerBlock = 200000;
  keys[7].pipeline = "other";
  keys[8].dgemmVersion = "0.2.0";
  keys[9].llvmVersion = "23.0.0";
  keys[10].config.streamB = true;
  for (size_t i = 0; i < keys.size(); ++i)
    for (size_t j = i + 1; j < keys.size(); ++j)
      EXPECT_NE(fnv1a64(keys[i].text()), fnv1a64(keys[j].text())) << i << j;
  EXPECT_EQ(key().text().find('\n'), std::string::npos);
}

TEST(KernelKey, WeightGradientKeysDiffer) {
  // The weight-gradient form, and k-grouped kernels of other M or groups,
  // never share a cache entry with each other or the normal GEMM.
  std::vector<GemmKernelKey> keys(6, key());
  keys[1].wgrad = true;
  keys[5].bias = true; // epilogue fusion
  keys[2].kind = dgemm::GemmKind::KGrouped;
  keys[2].groups = 4;
  keys[2].m = 4096;
  keys[3] = keys[2];
  keys[3].m = 2048;
  keys[4] = keys[2];
  keys[4].groups = 8;
  for (size_t i = 0; i < keys.size(); ++i)
    for (size_t j = i + 1; j < keys.size(); ++j)
      EXPECT_NE(keys[i].text(), keys[j].text()) << i << j;
}

TEST(KernelKey, KernelIRKey) {
  std::string a = kernelIRKeyText("module {}", "dgemm-kernel-to-ptx", "v", "l");
  EXPECT_EQ(a, "kernel_ir fnv1a64=" + hex64(fnv1a64("module {}")) +
                   " bytes=9 pipeline=dgemm-kernel-to-ptx dgemm=v llvm=l");
  EXPECT_NE(a, kernelIRKeyText("module { }", "dgemm-kernel-to-ptx", "v", "l"));
}

TEST(KernelKey, BuildIdStartsWithTheVersion) {
  std::string id = dgemmBuildId();
  EXPECT_EQ(id.rfind(DGEMM_TEST_VERSION, 0), 0u) << id;
  EXPECT_NE(id.find("+b"), std::string::npos) << id;
  EXPECT_EQ(id, dgemmBuildId());
}

TEST(GemmModule, Text) {
  EXPECT_EQ(
      gemmModuleText(key()),
      "module {\n"
      "  func.func @dgemm_gemm_n7168_k2048(%a: memref<?x2048xf8E4M3FN>, %sa: "
      "memref<?x16xf32, strided<[1, ?]>>, %b: memref<7168x2048xf8E4M3FN>, "
      "%sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {\n"
      "    dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, "
      "memref<?x16xf32, strided<[1, ?]>>, memref<7168x2048xf8E4M3FN>, "
      "memref<56x16xf32>) outs(%d : memref<?x7168xbf16>) {config = "
      "#dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 1, "
      "multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = "
      "128>, target = #dgemm.target<\"sm_90a\", sms = 132, smem = 232448>}\n"
      "    return\n"
      "  }\n"
      "}\n");
}

TEST(GemmModule, BiasText) {
  // Epilogue fusion: the bias [N] before D, and bias(%bias) on the op.
  GemmKernelKey b = key();
  b.bias = true;
  std::string text = gemmModuleText(b);
  EXPECT_NE(text.find("func.func @dgemm_gemm_bias_n7168_k2048("),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("%sb: memref<56x16xf32>, %bias: memref<7168xf32>, %d: "
                      "memref<?x7168xbf16>) {"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("memref<56x16xf32>) bias(%bias : memref<7168xf32>) "
                      "outs(%d : memref<?x7168xbf16>) {config = "),
            std::string::npos)
      << text;
  EXPECT_EQ(b.text().rfind("gemm_fp8_bf16_nt_bias n=7168 k=2048 ", 0), 0u)
      << b.text();
}

TEST(GemmModule, WeightGradientTexts) {
  GemmKernelKey w = key();
  w.wgrad = true;
  std::string text = gemmModuleText(w);
  EXPECT_NE(text.find("%sb: memref<7168x16xf32, strided<[1, ?]>>, %d: "
                      "memref<?x7168xf32>"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("acc(%d : memref<?x7168xf32>) outs(%d : "
                      "memref<?x7168xf32>) {recipe = #dgemm.recipe<a = 1x128, "
                      "b = 1x128>, config = "),
            std::string::npos)
      << text;
  GemmKernelKey kg = key();
  kg.kind = dgemm::GemmKind::KGrouped;
  kg.groups = 4;
  kg.m = 4096;
  text = gemmModuleText(kg);
  EXPECT_NE(text.find("dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : "
                      "memref<?xf8E4M3FN>, memref<?x4096xf32, strided<[?, "
                      "1]>>, memref<?xf8E4M3FN>, memref<?x7168xf32, "
                      "strided<[?, 1]>>) ks(%ks : "
                      "memref<4xi32>) outs(%d : memref<4x4096x7168xf32>)"),
            std::string::npos)
      << text;
}

} // namespace
