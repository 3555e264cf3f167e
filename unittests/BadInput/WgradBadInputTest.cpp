//===- WgradBadInputTest.cpp - Bad tensors for the weight-gradient GEMMs --===//
//
// The rows of docs/bad-inputs.md for dgemm_wgrad_gemm_fp8_fp32_nt and
// dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt: their own rules (f32 D, 1x128 B
// scales, the k_g on the host, the flat operands), the empty calls that
// add nothing, through the C API, in a child process, with the stand-in
// driver.
//
//===----------------------------------------------------------------------===//
#include "BadInputRow.h"
#include "ValidOperands.h"
#include "TensorTestHelpers.h"

#include "gtest/gtest.h"

#include <dlfcn.h>

#include <cstdio>

#include <vector>

using namespace dgemm::test;

namespace {


template <typename Edit> Call wgrad(Edit edit) {
  Wgrad w;
  edit(w);
  return [w](std::string &) {
    return dgemm_wgrad_gemm_fp8_fp32_nt(&w.a, &w.sa, &w.b, &w.sb, &w.d,
                                        nullptr);
  };
}

/// Valid k-grouped operands: G = 3 (k_g = 256, 0, 384), M = 200, N = 136.
struct KGrouped {
  std::vector<int64_t> ks = {256, 0, 384};
  dgemm_tensor a = dense(0x100000, DGEMM_DTYPE_F8E4M3, {200 * 640});
  dgemm_tensor sa = dense(0x200000, DGEMM_DTYPE_F32, {5, 200});
  dgemm_tensor b = dense(0x300000, DGEMM_DTYPE_F8E4M3, {136 * 640});
  dgemm_tensor sb = dense(0x400000, DGEMM_DTYPE_F32, {5, 136});
  dgemm_tensor d = dense(0x500000, DGEMM_DTYPE_F32, {3, 200, 136});
  int64_t groups = 3;
};

/// The stand-in driver's workspace counters and last grid, as
/// "allocated=<n> live=<n> bytes=<n> grid=<n>" (empty when this process did
/// not load it).
std::string standInWorkspaces() {
  void *h = dlopen(standInDriver().c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (!h)
    return "";
  auto count = [&](const char *name) {
    auto fn = reinterpret_cast<int (*)()>(dlsym(h, name));
    return fn ? fn() : -1;
  };
  auto bytes = reinterpret_cast<unsigned long long (*)()>(
      dlsym(h, "dgemm_standin_last_workspace_bytes"));
  std::string s =
      "allocated=" +
      std::to_string(count("dgemm_standin_workspaces_allocated")) +
      " live=" + std::to_string(count("dgemm_standin_workspaces_live")) +
      " bytes=" + std::to_string(bytes ? bytes() : 0);
  auto grid =
      reinterpret_cast<unsigned (*)()>(dlsym(h, "dgemm_standin_last_grid_x"));
  s += " grid=" + std::to_string(grid ? grid() : 0);
  dlclose(h);
  return s;
}

template <typename Edit> Call kGrouped(Edit edit) {
  KGrouped k;
  edit(k);
  return [k](std::string &note) {
    dgemm_status s = dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt(
        &k.a, &k.sa, &k.b, &k.sb, &k.d, k.ks.data(), k.groups, nullptr);
    note = standInWorkspaces();
    return s;
  };
}

TEST(WgradBadInput, Wgrad) {
  Outcome o = expectRow("dgemm_wgrad_gemm_fp8_fp32_nt", "none", "valid operands (M=197, N=224, K=256)",
                        DGEMM_OK, "", {}, wgrad([](Wgrad &) {}));
  EXPECT_EQ(o.launches, 1);
  o = expectRow("dgemm_wgrad_gemm_fp8_fp32_nt", "zero", "K = 0 (nothing to add)", DGEMM_OK, "", {},
                wgrad([](Wgrad &w) {
                  w.a.shape[1] = w.b.shape[1] = 0;
                  w.sa.shape[1] = w.sb.shape[1] = 0;
                }));
  EXPECT_EQ(o.launches, 0);
  expectRow("dgemm_wgrad_gemm_fp8_fp32_nt", "dtype", "d is bf16", DGEMM_ERROR_INVALID_ARGUMENT,
            "d must be f32 (DGEMM_DTYPE_F32), got bf16 (DGEMM_DTYPE_BF16)", {},
            wgrad([](Wgrad &w) { w.d.dtype = DGEMM_DTYPE_BF16; }));
  expectRow("dgemm_wgrad_gemm_fp8_fp32_nt", "shape", "b_scale [ceil(N/128), K/128] (the 128x128 recipe's)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "b_scale must be [N, K/128] = [224, 2] (one f32 per row of b per "
            "128 K-values), got [2, 2]",
            {}, wgrad([](Wgrad &w) { w.sb = dense(0x400000, DGEMM_DTYPE_F32, {2, 2}); }));
  expectRow("dgemm_wgrad_gemm_fp8_fp32_nt", "scale-layout", "b_scale K-major (strides (2, 1))",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "b_scale must be MN-major: strides (1, S) with S >= N and S % 4 "
            "== 0, got strides (2, 1)",
            {}, wgrad([](Wgrad &w) {
              w.sb.strides[0] = 2;
              w.sb.strides[1] = 1;
            }));
  expectRow("dgemm_wgrad_gemm_fp8_fp32_nt", "misaligned", "d row stride 226 (not 16-byte rows)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "d has a row stride of 904 bytes; TMA needs a multiple of 16 bytes",
            {}, wgrad([](Wgrad &w) { w.d.strides[0] = 226; }));
  expectRow("dgemm_wgrad_gemm_fp8_fp32_nt", "shape", "N = 220", DGEMM_ERROR_INVALID_ARGUMENT,
            "N must be a positive multiple of 8 (the kernel's column groups), "
            "got 220",
            {}, wgrad([](Wgrad &w) {
              w.b.shape[0] = w.sb.shape[0] = w.d.shape[1] = 220;
              w.d.strides[0] = 220;
            }));
}

TEST(WgradBadInput, KGrouped) {
  Outcome o = expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "none",
                        "valid operands (G=3, k_g = 256, 0, 384, M=200, N=136)",
                        DGEMM_OK, "", {}, kGrouped([](KGrouped &) {}));
  EXPECT_EQ(o.launches, 1);
  // The kernel writes the groups' maps into a workspace allocated on the
  // stream for the launch and freed after it: a ring of stages + 1 slots of
  // 256 bytes for each CTA of the grid.
  unsigned long long bytes = 0;
  unsigned grid = 0;
  ASSERT_EQ(std::sscanf(o.note.c_str(), "allocated=1 live=0 bytes=%llu grid=%u",
                        &bytes, &grid),
            2)
      << o.note;
  ASSERT_GT(grid, 0u);
  EXPECT_EQ(bytes % (256ull * grid), 0u) << o.note;
  EXPECT_GE(bytes / (256ull * grid), 3u) << o.note;
  EXPECT_LE(bytes / (256ull * grid), 17u) << o.note;
  o = expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "none",
                "M = 198 with scale rows padded to 200 floats", DGEMM_OK, "", {},
                kGrouped([](KGrouped &k) {
                  k.d = dense(0x500000, DGEMM_DTYPE_F32, {3, 198, 136});
                  k.a.shape[0] = 198 * 640;
                  k.sa = matrix(0x200000, DGEMM_DTYPE_F32, 5, 198, 200, 1);
                }));
  EXPECT_EQ(o.launches, 1);
  o = expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "zero", "every k_g = 0 (nothing to add)", DGEMM_OK, "", {},
                kGrouped([](KGrouped &k) {
                  k.ks = {0, 0, 0};
                  k.a.shape[0] = k.b.shape[0] = 0;
                  k.sa.shape[0] = k.sb.shape[0] = 0;
                }));
  EXPECT_EQ(o.launches, 0);
  expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "null", "ks is NULL", DGEMM_ERROR_INVALID_ARGUMENT,
            "ks is NULL (the K of each group, on the host)", {},
            [](std::string &) {
              KGrouped k;
              return dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt(
                  &k.a, &k.sa, &k.b, &k.sb, &k.d, nullptr, 3, nullptr);
            });
  expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "shape", "num_groups = 2 for d [3, M, N]",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "num_groups = 2 but d is [G, M, N] = [3, 200, 136]", {},
            kGrouped([](KGrouped &k) { k.groups = 2; }));
  expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "k128", "k_1 = 64", DGEMM_ERROR_INVALID_ARGUMENT,
            "ks[1] = 64 must be a non-negative multiple of 128", {},
            kGrouped([](KGrouped &k) { k.ks[1] = 64; }));
  expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "overflow32", "3985 groups", DGEMM_ERROR_INVALID_ARGUMENT,
            "the k-grouped GEMM takes 1 to 3984 groups (the group table is a "
            "kernel parameter), got 3985",
            {}, kGrouped([](KGrouped &k) {
              k.ks.assign(3985, 0);
              k.groups = 3985;
              k.d.shape[0] = 3985;
            }));
  o = expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "none",
                "3984 groups (k_g = 128 for every tenth, else 0)", DGEMM_OK,
                "", {}, kGrouped([](KGrouped &k) {
                  k.ks.assign(3984, 0);
                  for (size_t g = 0; g < k.ks.size(); g += 10)
                    k.ks[g] = 128;
                  k.groups = 3984;
                  k.d.shape[0] = 3984;
                  k.a.shape[0] = 200 * 399 * 128;
                  k.b.shape[0] = 136 * 399 * 128;
                  k.sa.shape[0] = k.sb.shape[0] = 399;
                }));
  EXPECT_EQ(o.launches, 1);
  expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "driver-fault",
            "the workspace allocation fails", DGEMM_ERROR_CUDA,
            "...cuMemAllocAsync failed: CUDA_ERROR_OUT_OF_MEMORY (2): "
            "(stand-in driver)",
            {{"DGEMM_STANDIN_FAULTS", "alloc-fails"}},
            kGrouped([](KGrouped &) {}));
  expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "null",
            "a's data pointer is NULL", DGEMM_ERROR_INVALID_ARGUMENT,
            "a has a NULL data pointer", {},
            kGrouped([](KGrouped &k) { k.a.data = nullptr; }));
  expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "misaligned",
            "b at an address 8 bytes past 16-byte alignment",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "b data address is not 16-byte aligned", {},
            kGrouped([](KGrouped &k) {
              k.b.data = reinterpret_cast<void *>(0x300008);
            }));
  expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "shape", "a holds M * 512 values for sum(k_g) = 640",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a must hold M * sum(k_g) = 128000 values, got [102400]", {},
            kGrouped([](KGrouped &k) { k.a.shape[0] = 200 * 512; }));
  expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "shape", "b_scale [5, 128] for N = 136",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "b_scale must be [sum(k_g)/128, N] = [5, 136], got [5, 128]", {},
            kGrouped([](KGrouped &k) { k.sb.shape[1] = 128; }));
  expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "noncontig", "d with padded rows (strides (200*144, 144, 1))",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "d [G, M, N] must be contiguous, got strides (28800, 144, 1)", {},
            kGrouped([](KGrouped &k) {
              k.d.strides[1] = 144;
              k.d.strides[0] = 200 * 144;
            }));
  expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "shape", "a_scale [5, 200] for M = 198",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a_scale must be [sum(k_g)/128, M] = [5, 198], got [5, 200]", {},
            kGrouped([](KGrouped &k) {
              k.d = dense(0x500000, DGEMM_DTYPE_F32, {3, 198, 136});
              k.a.shape[0] = 198 * 640;
            }));
  expectRow("dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt", "misaligned", "a_scale rows of M = 198 floats (not 16-byte rows)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a_scale has a row stride of 792 bytes; TMA needs a multiple of 16 "
            "bytes",
            {}, kGrouped([](KGrouped &k) {
              k.d = dense(0x500000, DGEMM_DTYPE_F32, {3, 198, 136});
              k.a.shape[0] = 198 * 640;
              k.sa = dense(0x200000, DGEMM_DTYPE_F32, {5, 198});
            }));
}

} // namespace
