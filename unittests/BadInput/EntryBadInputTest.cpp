//===- EntryBadInputTest.cpp - The C API's non-GEMM entry points ----------===//
//
// The rows of docs/bad-inputs.md for dgemm_gemm_config, dgemm_gemm_prepare,
// dgemm_compile_to_ptx, dgemm_set_num_sms, dgemm_get_num_sms and
// dgemm_jit_settings (null buffers, buffers too small, bad sizes, bad IR),
// and the cache-folder rows (a folder that cannot be created, corrupt
// entries), which must never fail a call.
//
//===----------------------------------------------------------------------===//
#include "BadInputRow.h"
#include "TensorTestHelpers.h"

#include "gtest/gtest.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

using namespace dgemm::test;

namespace {

Call configOf(int64_t m, int64_t n, int64_t k) {
  return [=](std::string &) {
    char buf[256];
    return dgemm_gemm_config(m, n, k, buf, sizeof buf);
  };
}

Call ptxOf(std::string ir) {
  return [ir](std::string &) {
    char *ptx = nullptr;
    dgemm_status s = dgemm_compile_to_ptx(ir.c_str(), &ptx);
    dgemm_free(ptx);
    return s;
  };
}

/// A dgemm.gemm with the given A element type, K and A scale layout.
std::string gemmIR(const std::string &aType, int k, const std::string &saLayout) {
  std::string K = std::to_string(k), KB = std::to_string((k + 127) / 128);
  std::string a = "memref<128x" + K + "x" + aType + ">";
  std::string sa = "memref<128x" + KB + "xf32" + saLayout + ">";
  std::string b = "memref<256x" + K + "xf8E4M3FN>";
  std::string sb = "memref<2x" + KB + "xf32>";
  return "func.func @g(%a: " + a + ", %sa: " + sa + ", %b: " + b +
         ", %sb: " + sb + ", %d: memref<128x256xbf16>) {\n  dgemm.gemm ins(%a, "
         "%sa, %b, %sb : " + a + ", " + sa + ", " + b + ", " + sb +
         ") outs(%d : memref<128x256xbf16>)\n  return\n}\n";
}

TEST(EntryBadInput, Config) {
  expectRow("dgemm_gemm_config", "null", "buf is NULL",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "dgemm_gemm_config needs a buffer (buf_size >= 1), got buf_size 0",
            {}, [](std::string &) {
              return dgemm_gemm_config(256, 7168, 7168, nullptr, 0);
            });
  expectRow("dgemm_gemm_config", "buffer", "a 16-byte buffer",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "the config text needs ... bytes, buf_size is 16", {},
            [](std::string &) {
              char small[16];
              return dgemm_gemm_config(256, 7168, 7168, small, sizeof small);
            });
  expectRow("dgemm_gemm_config", "zero", "M = 0", DGEMM_ERROR_INVALID_ARGUMENT,
            "M must be in [1, 2147483647], got 0", {}, configOf(0, 7168, 7168));
  expectRow("dgemm_gemm_config", "overflow32", "M = 2^31",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "M must be in [1, 2147483647], got 2147483648", {},
            configOf(int64_t(1) << 31, 7168, 7168));
  expectRow("dgemm_gemm_config", "zero", "N = 0", DGEMM_ERROR_INVALID_ARGUMENT,
            "N must be a positive multiple of 8 for a BF16 output (16-byte rows), "
            "got 0",
            {}, configOf(256, 0, 7168));
  expectRow("dgemm_gemm_config", "k128", "K = 100",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "K must be a positive multiple of 128, got 100", {},
            configOf(256, 7168, 100));
  expectRow("dgemm_gemm_config", "shape", "negative K",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "K must be a positive multiple of 128, got -128", {},
            configOf(256, 7168, -128));
}

TEST(EntryBadInput, Prepare) {
  expectRow("dgemm_gemm_prepare", "buffer", "info given with info_size 0",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "info_size must be at least 1 when info is given, got 0", {},
            [](std::string &) {
              char info[8];
              return dgemm_gemm_prepare(256, 7168, 2048, nullptr, info, 0);
            });
  expectRow("dgemm_gemm_prepare", "k128", "K = 100",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "K must be a positive multiple of 128, got 100", {},
            [](std::string &) {
              return dgemm_gemm_prepare(256, 7168, 100, nullptr, nullptr, 0);
            });
}

TEST(EntryBadInput, CompileToPtx) {
  expectRow("dgemm_compile_to_ptx", "null", "dgemm_ir is NULL",
            DGEMM_ERROR_INVALID_ARGUMENT, "dgemm_ir is NULL", {},
            [](std::string &) {
              char *ptx = nullptr;
              return dgemm_compile_to_ptx(nullptr, &ptx);
            });
  expectRow("dgemm_compile_to_ptx", "null", "ptx (the out-parameter) is NULL",
            DGEMM_ERROR_INVALID_ARGUMENT, "ptx is NULL", {},
            [](std::string &) { return dgemm_compile_to_ptx("module {}", nullptr); });
  expectRow("dgemm_compile_to_ptx", "malformed-ir", "text that does not parse",
            DGEMM_ERROR_COMPILE, "...the module does not parse:\n...", {},
            ptxOf("func.func @f("));
  expectRow("dgemm_compile_to_ptx", "malformed-ir", "binary garbage",
            DGEMM_ERROR_COMPILE, "...the module does not parse:\n...", {},
            ptxOf("\x01\x02\xff\xfe garbage \x7f"));
  expectRow("dgemm_compile_to_ptx", "malformed-ir", "an empty module",
            DGEMM_ERROR_COMPILE,
            "cannot compile dgemm IR: pipeline 'dgemm-to-ptx' produced no "
            "gpu.binary holding PTX (gpu-module-to-binary{format=isa})",
            {}, ptxOf(""));
  expectRow("dgemm_compile_to_ptx", "dtype", "A of e5m2 in the IR (verifies; not lowered)",
            DGEMM_ERROR_COMPILE,
            "...error: 'dgemm.gemm' op cannot be lowered: only f8E4M3FN "
            "operands are lowered so far...",
            {},
            ptxOf(gemmIR("f8E5M2", 256, ", strided<[1, 128]>")));
  expectRow("dgemm_compile_to_ptx", "k128", "K = 200 in the IR",
            DGEMM_ERROR_COMPILE,
            "...K must be a positive multiple of 128 (the scale block), got "
            "200...",
            {}, ptxOf(gemmIR("f8E4M3FN", 200, ", strided<[1, 128]>")));
  expectRow("dgemm_compile_to_ptx", "scale-layout",
            "A scales row-major in the IR", DGEMM_ERROR_COMPILE,
            "...error: 'dgemm.gemm' op A scales must be MN-major (each K "
            "block's M scales contiguous, e.g. strided<[1, ?]>) (unit stride "
            "along dimension 0), got strides [2, 1]...",
            {},
            ptxOf(gemmIR("f8E4M3FN", 256, "")));
  expectRow("dgemm_compile_to_ptx", "nesting", "brackets nested 100000 deep",
            DGEMM_ERROR_COMPILE, "...brackets nest 100001 levels deep...", {},
            ptxOf("func.func private @f() attributes {r = " +
                  std::string(100000, '[') + "}"));
}

TEST(EntryBadInput, NumSmsAndSettings) {
  expectRow("dgemm_set_num_sms", "value", "n = -1",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "dgemm_set_num_sms needs n >= 0 (0: all SMs), got -1", {},
            [](std::string &) { return dgemm_set_num_sms(-1); });
  expectRow("dgemm_get_num_sms", "null", "n is NULL",
            DGEMM_ERROR_INVALID_ARGUMENT, "dgemm_get_num_sms needs n", {},
            [](std::string &) { return dgemm_get_num_sms(nullptr); });
  expectRow("dgemm_jit_settings", "null", "buf is NULL",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "dgemm_jit_settings needs a buffer (buf_size >= 1), got buf_size 0",
            {}, [](std::string &) { return dgemm_jit_settings(nullptr, 0); });
  expectRow("dgemm_jit_settings", "buffer", "a 4-byte buffer",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "the settings text needs ... bytes, buf_size is 4", {},
            [](std::string &) {
              char small[4];
              return dgemm_jit_settings(small, sizeof small);
            });
}

/// Valid normal-GEMM operands; the call.
dgemm_status gemm(std::string &) {
  dgemm_tensor a = matrix(0x100000, DGEMM_DTYPE_F8E4M3, 128, 256, 256);
  dgemm_tensor sa = matrix(0x200000, DGEMM_DTYPE_F32, 128, 2, 1, 128);
  dgemm_tensor b = matrix(0x300000, DGEMM_DTYPE_F8E4M3, 256, 256, 256);
  dgemm_tensor sb = matrix(0x400000, DGEMM_DTYPE_F32, 2, 2, 2);
  dgemm_tensor d = matrix(0x500000, DGEMM_DTYPE_BF16, 128, 256, 256);
  return dgemm_gemm_fp8_bf16_nt(&a, &sa, &b, &sb, &d, nullptr);
}

dgemm_status prepare(std::string &note) {
  char info[1024] = "";
  dgemm_status s = dgemm_gemm_prepare(128, 256, 256, nullptr, info, sizeof info);
  note = info;
  return s;
}

std::vector<std::string> filesIn(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.')
        names.push_back(dir + "/" + e->d_name);
    closedir(d);
  }
  return names;
}

TEST(EntryBadInput, CacheFolder) {
  // A folder below a regular file can never be created (also as root).
  std::string file = testDir() + "/not-a-folder";
  std::ofstream(file) << "x";
  Env unusable = {{"DGEMM_CACHE_DIR", file + "/cache"}};
  Outcome o = expectRow("dgemm_gemm_fp8_bf16_nt", "cache",
                        "DGEMM_CACHE_DIR cannot be created (below a file): "
                        "memory-only caching",
                        DGEMM_OK, "", unusable, gemm);
  EXPECT_EQ(o.launches, 1);
  o = expectRow("dgemm_gemm_prepare", "cache",
                "DGEMM_CACHE_DIR cannot be created: compiled, kept in memory",
                DGEMM_OK, "", unusable, prepare);
  EXPECT_NE(o.note.find("cache=compiled"), std::string::npos) << o.note;

  // Fill a cache folder, then corrupt every entry: each is recompiled.
  std::string dir = testDir() + "/corrupt-cache";
  Env corrupt = {{"DGEMM_CACHE_DIR", dir}};
  Outcome first = runIsolated(corrupt, prepare);
  ASSERT_TRUE(first.answered) << first.how;
  ASSERT_EQ(first.status, DGEMM_OK) << first.message;
  std::vector<std::string> files = filesIn(dir);
  ASSERT_EQ(files.size(), 2u);
  for (const std::string &f : files)
    std::ofstream(f, std::ios::trunc) << "dgemm-cache-entry 1\ngarbage\n";
  o = expectRow("dgemm_gemm_prepare", "cache",
                "corrupt cache entries (truncated, garbage): recompiled",
                DGEMM_OK, "", corrupt, prepare);
  EXPECT_NE(o.note.find("cache=compiled"), std::string::npos) << o.note;
  for (const std::string &f : filesIn(dir))
    truncate(f.c_str(), 0);
  o = expectRow("dgemm_gemm_fp8_bf16_nt", "cache",
                "empty (zero-byte) cache entries: recompiled", DGEMM_OK, "",
                corrupt, gemm);
  EXPECT_EQ(o.launches, 1);
  o = expectRow("dgemm_gemm_prepare", "cache",
                "DGEMM_DUMP_IR folder cannot be created: a warning, the "
                "compile goes on",
                DGEMM_OK, "",
                {{"DGEMM_DUMP_IR", file + "/dump"},
                 {"DGEMM_DISABLE_CACHE", "1"}},
                prepare);
  EXPECT_NE(o.note.find("cache=compiled"), std::string::npos) << o.note;
}

} // namespace
