//===- GemmBadInputTest.cpp - Bad tensors for dgemm_gemm_fp8_bf16_nt ------===//
//
// The rows of docs/bad-inputs.md for the normal GEMM's tensors (and the
// kernel IR path, which checks the same tensors): each bad input gets
// DGEMM_ERROR_INVALID_ARGUMENT with the message below and launches nothing;
// the valid baseline launches one kernel on the stand-in driver.
//
//===----------------------------------------------------------------------===//
#include "BadInputRow.h"
#include "ValidOperands.h"
#include "TensorTestHelpers.h"

#include "gtest/gtest.h"

#include <cstdint>

using namespace dgemm::test;

namespace {


template <typename Edit> Call edited(Edit edit) {
  Gemm g;
  edit(g);
  return [g](std::string &) { return g.run(); };
}

TEST(GemmBadInput, ValidOperandsLaunchOnce) {
  Outcome o = expectRow("dgemm_gemm_fp8_bf16_nt", "none",
                        "valid operands (M=197, N=224, K=256)", DGEMM_OK, "",
                        {}, [](std::string &) { return Gemm().run(); });
  EXPECT_EQ(o.launches, 1);
}

TEST(GemmBadInput, NullPointers) {
  expectRow("dgemm_gemm_fp8_bf16_nt", "null", "a is NULL",
            DGEMM_ERROR_INVALID_ARGUMENT, "a is NULL", {}, [](std::string &) {
              Gemm g;
              return dgemm_gemm_fp8_bf16_nt(nullptr, &g.sa, &g.b, &g.sb, &g.d,
                                            nullptr);
            });
  expectRow("dgemm_gemm_fp8_bf16_nt", "null", "d is NULL",
            DGEMM_ERROR_INVALID_ARGUMENT, "d is NULL", {}, [](std::string &) {
              Gemm g;
              return dgemm_gemm_fp8_bf16_nt(&g.a, &g.sa, &g.b, &g.sb, nullptr,
                                            nullptr);
            });
  expectRow("dgemm_gemm_fp8_bf16_nt", "null", "b's data pointer NULL (M > 0)",
            DGEMM_ERROR_INVALID_ARGUMENT, "b has a NULL data pointer", {},
            edited([](Gemm &g) { g.b.data = nullptr; }));
}

TEST(GemmBadInput, WrongDtype) {
  expectRow("dgemm_gemm_fp8_bf16_nt", "dtype", "a is e5m2",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a must be e4m3 (DGEMM_DTYPE_F8E4M3), got e5m2 (DGEMM_DTYPE_F8E5M2)",
            {}, edited([](Gemm &g) { g.a.dtype = DGEMM_DTYPE_F8E5M2; }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "dtype", "d is f32",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "d must be bf16 (DGEMM_DTYPE_BF16), got f32 (DGEMM_DTYPE_F32)", {},
            edited([](Gemm &g) { g.d.dtype = DGEMM_DTYPE_F32; }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "dtype",
            "a_scale's dtype an out-of-range enum value (77)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a_scale must be f32 (DGEMM_DTYPE_F32), got an unknown dtype", {},
            edited([](Gemm &g) { g.sa.dtype = static_cast<dgemm_dtype>(77); }));
}

TEST(GemmBadInput, ShapeMismatch) {
  expectRow("dgemm_gemm_fp8_bf16_nt", "shape", "a of rank 3",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a must have rank 2 ([M, K]), got rank 3", {},
            edited([](Gemm &g) { g.a.rank = 3; }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "shape", "B's K (384) differs from A's",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "b is [N, K] = [224, 384] but a is [M, K] = [197, 256]: K differs",
            {}, edited([](Gemm &g) { g.b.shape[1] = 384; }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "shape", "d is [197, 232]",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "d must be [M, N] = [197, 224], got [197, 232]", {},
            edited([](Gemm &g) { g.d.shape[1] = 232; }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "shape", "a_scale is [197, 3]",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a_scale must be [M, K/128] = [197, 2] (one f32 per row per 128 "
            "K-values), got [197, 3]",
            {}, edited([](Gemm &g) { g.sa.shape[1] = 3; }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "shape",
            "b_scale is [224, 2] (per row, not per 128x128 block)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "b_scale must be [ceil(N/128), K/128] = [2, 2] (one f32 per "
            "128x128 block), got [224, 2]",
            {}, edited([](Gemm &g) { g.sb.shape[0] = 224; }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "shape", "N = 100 (not a multiple of 8)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "N must be a positive multiple of 8 for a BF16 output (16-byte "
            "rows), got 100",
            {}, edited([](Gemm &g) {
              g.b.shape[0] = g.d.shape[1] = 100;
              g.sb.shape[0] = 1;
            }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "shape", "a has a negative size",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a has shape [-1, 256]: sizes must be in [0, 2147483647]", {},
            edited([](Gemm &g) { g.a.shape[0] = -1; }));
}

TEST(GemmBadInput, ZeroSizeDims) {
  Outcome o = expectRow(
      "dgemm_gemm_fp8_bf16_nt", "zero", "M = 0 (null data pointers)", DGEMM_OK,
      "", {}, edited([](Gemm &g) {
        g.a = matrix(0, DGEMM_DTYPE_F8E4M3, 0, 256, 256);
        g.sa = matrix(0, DGEMM_DTYPE_F32, 0, 2, 1, 0);
        g.d = matrix(0, DGEMM_DTYPE_BF16, 0, 224, 224);
      }));
  EXPECT_EQ(o.launches, 0) << "M = 0 launches nothing";
  expectRow("dgemm_gemm_fp8_bf16_nt", "zero", "N = 0",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "N must be a positive multiple of 8 for a BF16 output (16-byte "
            "rows), got 0",
            {}, edited([](Gemm &g) {
              g.b.shape[0] = g.d.shape[1] = 0;
              g.sb.shape[0] = 0;
            }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "zero", "K = 0",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "K must be a positive multiple of 128, got 0", {},
            edited([](Gemm &g) {
              g.a.shape[1] = g.b.shape[1] = 0;
              g.sa.shape[1] = g.sb.shape[1] = 0;
            }));
}

TEST(GemmBadInput, Overflow32) {
  expectRow("dgemm_gemm_fp8_bf16_nt", "overflow32", "M = 2^31",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a has shape [2147483648, 256]: sizes must be in [0, 2147483647]",
            {}, edited([](Gemm &g) {
              g.a.shape[0] = g.sa.shape[0] = g.d.shape[0] = int64_t(1) << 31;
            }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "overflow32",
            "d's row stride 2^39 elements (2^40 bytes)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "d has a row stride of 2^40 bytes or more", {},
            edited([](Gemm &g) { g.d.strides[0] = int64_t(1) << 39; }));
  // 2^62 bf16 elements are 2^63 bytes: the byte count must not wrap.
  expectRow("dgemm_gemm_fp8_bf16_nt", "overflow32",
            "d's row stride 2^62 elements (bytes overflow int64)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "d has a row stride of 2^40 bytes or more", {},
            edited([](Gemm &g) { g.d.strides[0] = int64_t(1) << 62; }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "overflow32",
            "a_scale's stride S = 2^62 (bytes overflow int64)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a_scale must be MN-major: strides (1, S) with S >= M = 197 and S "
            "% 4 == 0 (16-byte rows for TMA), got strides (1, "
            "4611686018427387904)",
            {}, edited([](Gemm &g) { g.sa.strides[1] = int64_t(1) << 62; }));
  Outcome o = expectRow(
      "dgemm_gemm_fp8_bf16_nt", "overflow32",
      "M = 2^31 - 1 rows (the largest M; i32 row index)", DGEMM_OK, "", {},
      edited([](Gemm &g) {
        int64_t m = (int64_t(1) << 31) - 1;
        g.a.shape[0] = g.sa.shape[0] = g.d.shape[0] = m;
        g.sa.strides[1] = m + 1;
      }));
  EXPECT_EQ(o.launches, 1);
}

TEST(GemmBadInput, Misaligned) {
  expectRow("dgemm_gemm_fp8_bf16_nt", "misaligned", "d's address 2 bytes off",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "d data address is not 16-byte aligned", {}, edited([](Gemm &g) {
              g.d.data = reinterpret_cast<void *>(0x500002);
            }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "misaligned",
            "a_scale's address 4 bytes off", DGEMM_ERROR_INVALID_ARGUMENT,
            "a_scale data address is not 16-byte aligned", {},
            edited([](Gemm &g) {
              g.sa.data = reinterpret_cast<void *>(0x200004);
            }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "misaligned",
            "a's row stride 264 bytes (not a multiple of 16)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a has a row stride of 264 bytes; TMA needs a multiple of 16 bytes",
            {}, edited([](Gemm &g) { g.a.strides[0] = 264; }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "misaligned",
            "d's row stride 228 elements (456 bytes)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "d has a row stride of 456 bytes; TMA needs a multiple of 16 bytes",
            {}, edited([](Gemm &g) { g.d.strides[0] = 228; }));
}

TEST(GemmBadInput, NonContiguous) {
  expectRow("dgemm_gemm_fp8_bf16_nt", "noncontig",
            "a transposed (column-major, strides (1, 197))",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a must have unit inner stride (row-major), got strides (1, 197)",
            {}, edited([](Gemm &g) {
              g.a.strides[0] = 1;
              g.a.strides[1] = 197;
            }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "noncontig",
            "b's rows overlap (row stride 128 < K = 256)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "b has row stride 128, less than its row length 256", {},
            edited([](Gemm &g) { g.b.strides[0] = 128; }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "noncontig",
            "d's row stride negative (-224)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "d has strides (-224, 1): strides must be non-negative", {},
            edited([](Gemm &g) { g.d.strides[0] = -224; }));
  Outcome o = expectRow(
      "dgemm_gemm_fp8_bf16_nt", "noncontig",
      "padded rows (a's row stride 384, d's 256)", DGEMM_OK, "", {},
      edited([](Gemm &g) {
        g.a.strides[0] = 384;
        g.d.strides[0] = 256;
      }));
  EXPECT_EQ(o.launches, 1);
}

TEST(GemmBadInput, KNotAMultipleOf128) {
  expectRow("dgemm_gemm_fp8_bf16_nt", "k128", "K = 200",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "K must be a positive multiple of 128, got 200", {},
            edited([](Gemm &g) { g.a.shape[1] = g.b.shape[1] = 200; }));
}

TEST(GemmBadInput, ScalesInTheWrongLayout) {
  expectRow("dgemm_gemm_fp8_bf16_nt", "scale-layout",
            "a_scale K-major (row-major, strides (2, 1))",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a_scale must be MN-major: strides (1, S) with S >= M and S % 4 "
            "== 0, got strides (2, 1)",
            {}, edited([](Gemm &g) {
              g.sa.strides[0] = 2;
              g.sa.strides[1] = 1;
            }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "scale-layout",
            "a_scale MN-major but S = 198 (not a multiple of 4)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a_scale must be MN-major: strides (1, S) with S >= M = 197 and S "
            "% 4 == 0 (16-byte rows for TMA), got strides (1, 198)",
            {}, edited([](Gemm &g) { g.sa.strides[1] = 198; }));
  expectRow("dgemm_gemm_fp8_bf16_nt", "scale-layout",
            "b_scale transposed (strides (1, 2))", DGEMM_ERROR_INVALID_ARGUMENT,
            "b_scale must be contiguous: strides (2, 1), got strides (1, 2)",
            {}, edited([](Gemm &g) {
              g.sb.strides[0] = 1;
              g.sb.strides[1] = 2;
            }));
}

TEST(KernelIRBadInput, Rows) {
  expectRow("dgemm_launch_kernel_ir", "null", "kernel_ir is NULL",
            DGEMM_ERROR_INVALID_ARGUMENT, "kernel_ir is NULL", {},
            [](std::string &) {
              Gemm g;
              return dgemm_launch_kernel_ir(nullptr, &g.a, &g.sa, &g.b, &g.sb,
                                            &g.d, nullptr);
            });
  expectRow("dgemm_launch_kernel_ir", "dtype",
            "a is e5m2 (the operands are checked as for the GEMM)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a must be e4m3 (DGEMM_DTYPE_F8E4M3), got e5m2 (DGEMM_DTYPE_F8E5M2)",
            {}, [](std::string &) {
              Gemm g;
              g.a.dtype = DGEMM_DTYPE_F8E5M2;
              return dgemm_launch_kernel_ir("module {}", &g.a, &g.sa, &g.b,
                                            &g.sb, &g.d, nullptr);
            });
  expectRow("dgemm_launch_kernel_ir", "malformed-ir", "text that does not parse",
            DGEMM_ERROR_COMPILE, "...does not parse...", {}, [](std::string &) {
              Gemm g;
              return dgemm_launch_kernel_ir("func.func @f(", &g.a, &g.sa, &g.b,
                                            &g.sb, &g.d, nullptr);
            });
  expectRow("dgemm_launch_kernel_ir", "malformed-ir",
            "a module without a kernel", DGEMM_ERROR_COMPILE,
            "cannot compile kernel IR (9 bytes, fnv1a64 ...): pipeline "
            "'dgemm-kernel-to-ptx' produced no gpu.binary holding PTX "
            "(gpu-module-to-binary{format=isa})",
            {},
            [](std::string &) {
              Gemm g;
              return dgemm_launch_kernel_ir("module {}", &g.a, &g.sa, &g.b,
                                            &g.sb, &g.d, nullptr);
            });
  expectRow("dgemm_launch_kernel_ir", "nesting",
            "brackets nested 100000 deep", DGEMM_ERROR_COMPILE,
            "...brackets nest 100001 levels deep...", {}, [](std::string &) {
              Gemm g;
              std::string text = "func.func private @f() attributes {r = " +
                                 std::string(100000, '[') + "}";
              return dgemm_launch_kernel_ir(text.c_str(), &g.a, &g.sa, &g.b,
                                            &g.sb, &g.d, nullptr);
            });
}

} // namespace
