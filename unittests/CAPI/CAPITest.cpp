//===- CAPITest.cpp - The C API through libdgemm.so -----------------------===//
//
// What Python (ctypes) and C callers see: bad tensors give
// DGEMM_ERROR_INVALID_ARGUMENT with a message, M = 0 succeeds, valid tensors
// on a machine without a driver give DGEMM_ERROR_NO_DRIVER (NO_DEVICE where
// a driver but no sm_90 GPU exists), configs need no GPU, and compiling
// (dgemm_gemm_prepare, dgemm_compile_to_ptx) works without one and fills the
// disk cache. The cache goes to a fresh directory (DGEMM_CACHE_DIR, set in
// main before the first call).
//
//===----------------------------------------------------------------------===//
#include "dgemm-c/Runtime.h"

#include "TensorTestHelpers.h"

#include "ValidOperands.h"

#include "gtest/gtest.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdlib.h>

#include <cstdlib>
#include <string>
#include <vector>

using dgemm::test::Gemm;
using dgemm::test::matrix;

namespace {

std::string cacheDir;

bool realDriverPresent() {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h)
    dlclose(h);
  return h != nullptr;
}

TEST(CAPI, LastErrorIsNeverNull) { ASSERT_NE(dgemm_last_error(), nullptr); }

TEST(CAPI, BadTensors) {
  EXPECT_EQ(dgemm_gemm_fp8_bf16_nt(nullptr, nullptr, nullptr, nullptr, nullptr,
                                   nullptr),
            DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(dgemm_last_error(), "a is NULL");

  Gemm g;
  g.a.dtype = DGEMM_DTYPE_F8E5M2;
  EXPECT_EQ(g.run(), DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(dgemm_last_error(), "a must be e4m3 (DGEMM_DTYPE_F8E4M3), got "
                                   "e5m2 (DGEMM_DTYPE_F8E5M2)");
  g = Gemm();
  g.a.shape[1] = g.b.shape[1] = 200;
  EXPECT_EQ(g.run(), DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(dgemm_last_error(),
               "K must be a positive multiple of 128, got 200");
  g = Gemm();
  g.sa.strides[1] = 198;
  EXPECT_EQ(g.run(), DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dgemm_last_error()).find("a_scale must be MN-major"),
            std::string::npos);
  g = Gemm();
  g.d.data = reinterpret_cast<void *>(0x500002);
  EXPECT_EQ(g.run(), DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(dgemm_last_error(), "d data address is not 16-byte aligned");
}

TEST(CAPI, EmptyMIsANoOp) {
  Gemm g;
  g.a = matrix(0, DGEMM_DTYPE_F8E4M3, 0, 256, 256);
  g.sa = matrix(0, DGEMM_DTYPE_F32, 0, 2, 1, 0);
  g.d = matrix(0, DGEMM_DTYPE_BF16, 0, 224, 224);
  EXPECT_EQ(g.run(), DGEMM_OK);
  EXPECT_STREQ(dgemm_last_error(), "");
}

TEST(CAPI, ValidTensorsWithoutAGpu) {
  Gemm g;
  dgemm_status s = g.run();
  if (realDriverPresent()) {
    // A driver without an sm_90 device; with one this would launch on
    // fake addresses, so stop here.
    GTEST_SKIP() << "a CUDA driver is present (status " << s << ": "
                 << dgemm_last_error() << ")";
  }
  EXPECT_EQ(s, DGEMM_ERROR_NO_DRIVER);
  EXPECT_NE(std::string(dgemm_last_error()).find("libcuda.so.1"),
            std::string::npos)
      << dgemm_last_error();
  EXPECT_EQ(dgemm_launch_kernel_ir("module {}", &g.a, &g.sa, &g.b, &g.sb, &g.d,
                                   nullptr),
            DGEMM_ERROR_NO_DRIVER);
  EXPECT_EQ(
      dgemm_launch_kernel_ir(nullptr, &g.a, &g.sa, &g.b, &g.sb, &g.d, nullptr),
      DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(dgemm_last_error(), "kernel_ir is NULL");
}

TEST(CAPI, Config) {
  char buf[256];
  ASSERT_EQ(dgemm_gemm_config(256, 7168, 7168, buf, sizeof(buf)), DGEMM_OK)
      << dgemm_last_error();
  std::string text = buf;
  EXPECT_EQ(text.rfind("#dgemm.config<block_m = 128, block_n = 112, ", 0), 0u)
      << text;
  // The lowering's capabilities: no cluster, block M <= 128, even for M where
  // the unrestricted heuristic picks both.
  ASSERT_EQ(dgemm_gemm_config(4096, 2112, 7168, buf, sizeof(buf)), DGEMM_OK);
  text = buf;
  EXPECT_NE(text.find("cluster = 1, multicast = none"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("block_m = 256"), std::string::npos) << text;

  char small[16];
  EXPECT_EQ(dgemm_gemm_config(256, 7168, 7168, small, sizeof(small)),
            DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dgemm_last_error()).find("the config text needs "),
            std::string::npos);
  EXPECT_STREQ(small, "");
  EXPECT_EQ(dgemm_gemm_config(256, 7168, 7168, nullptr, 0),
            DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dgemm_gemm_config(0, 7168, 7168, buf, sizeof(buf)),
            DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(dgemm_last_error(), "M must be in [1, 2147483647], got 0");
  EXPECT_EQ(dgemm_gemm_config(256, 7168, 100, buf, sizeof(buf)),
            DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(dgemm_last_error(),
               "K must be a positive multiple of 128, got 100");
}

std::vector<std::string> cacheFiles() {
  std::vector<std::string> names;
  if (DIR *d = opendir(cacheDir.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..")
        names.push_back(n);
    }
    closedir(d);
  }
  return names;
}

TEST(CAPI, PrepareCompilesAndCaches) {
  double ms = -1;
  char info[1024];
  dgemm_status s = dgemm_gemm_prepare(256, 7168, 2048, &ms, info, sizeof(info));
  if (s == DGEMM_ERROR_COMPILE &&
      std::string(dgemm_last_error()).find("is not available") !=
          std::string::npos)
    GTEST_SKIP() << "no dgemm-to-ptx pipeline: " << dgemm_last_error();
  ASSERT_EQ(s, DGEMM_OK) << dgemm_last_error();
  std::string text = info;
  EXPECT_GT(ms, 0.0);
  EXPECT_NE(text.find("cache=compiled"), std::string::npos) << text;
  // K <= 4096 with a bf16 output: block N a multiple of 64 (swizzled
  // epilogue staging).
  EXPECT_NE(text.find("config=#dgemm.config<block_m = 128, block_n = 128"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("; kernel=dgemm_gemm_n7168_k2048_"), std::string::npos)
      << text;
  if (!realDriverPresent())
    EXPECT_NE(text.find("; device=none"), std::string::npos) << text;
  EXPECT_EQ(cacheFiles().size(), 2u);

  // Again: from memory, no compile time.
  ASSERT_EQ(dgemm_gemm_prepare(256, 7168, 2048, &ms, info, sizeof(info)),
            DGEMM_OK);
  EXPECT_EQ(ms, 0.0);
  EXPECT_NE(std::string(info).find("cache=memory"), std::string::npos) << info;
  // Another M of the same config shares the kernel; NULL outputs are fine.
  ASSERT_EQ(dgemm_gemm_prepare(250, 7168, 2048, nullptr, nullptr, 0), DGEMM_OK);
  EXPECT_EQ(cacheFiles().size(), 2u);
  // Truncated info.
  char tiny[8];
  ASSERT_EQ(dgemm_gemm_prepare(256, 7168, 2048, nullptr, tiny, sizeof(tiny)),
            DGEMM_OK);
  EXPECT_STREQ(tiny, "config=");
  EXPECT_EQ(dgemm_gemm_prepare(256, 7168, 2048, nullptr, tiny, 0),
            DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dgemm_gemm_prepare(256, 7168, 100, nullptr, nullptr, 0),
            DGEMM_ERROR_INVALID_ARGUMENT);
}

TEST(CAPI, CompileToPtx) {
  const char *ir =
      "func.func @g(%a: memref<?x512xf8E4M3FN>, %sa: memref<?x4xf32, "
      "strided<[1, ?]>>, %b: memref<256x512xf8E4M3FN>, %sb: "
      "memref<2x4xf32>, %d: memref<?x256xbf16>) {\n"
      "  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x512xf8E4M3FN>, "
      "memref<?x4xf32, strided<[1, ?]>>, memref<256x512xf8E4M3FN>, "
      "memref<2x4xf32>) outs(%d : memref<?x256xbf16>) {m_hint = 128 : i64}\n"
      "  return\n"
      "}\n";
  char *ptx = nullptr;
  dgemm_status s = dgemm_compile_to_ptx(ir, &ptx);
  if (s == DGEMM_ERROR_COMPILE &&
      std::string(dgemm_last_error()).find("is not available") !=
          std::string::npos)
    GTEST_SKIP() << "no dgemm-to-ptx pipeline: " << dgemm_last_error();
  ASSERT_EQ(s, DGEMM_OK) << dgemm_last_error();
  ASSERT_NE(ptx, nullptr);
  std::string text = ptx;
  dgemm_free(ptx);
  EXPECT_NE(text.find(".target sm_90a"), std::string::npos);
  EXPECT_NE(text.find(".entry dgemm_gemm_n256_k512_"), std::string::npos);

  EXPECT_EQ(dgemm_compile_to_ptx("func.func @f(", &ptx), DGEMM_ERROR_COMPILE);
  EXPECT_EQ(ptx, nullptr);
  EXPECT_NE(std::string(dgemm_last_error()).find("does not parse"),
            std::string::npos)
      << dgemm_last_error();
  EXPECT_EQ(dgemm_compile_to_ptx(nullptr, &ptx), DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dgemm_compile_to_ptx(ir, nullptr), DGEMM_ERROR_INVALID_ARGUMENT);
  dgemm_free(nullptr);
}

} // namespace

int main(int argc, char **argv) {
  char pattern[] = "/tmp/dgemm-capi-test-XXXXXX";
  const char *dir = mkdtemp(pattern);
  if (!dir)
    return 1;
  cacheDir = std::string(dir) + "/cache";
  setenv("DGEMM_CACHE_DIR", cacheDir.c_str(), 1);
  ::testing::InitGoogleTest(&argc, argv);
  int result = RUN_ALL_TESTS();
  std::string cmd = "rm -rf '" + std::string(dir) + "'";
  (void)std::system(cmd.c_str());
  return result;
}
