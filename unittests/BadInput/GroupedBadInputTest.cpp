//===- GroupedBadInputTest.cpp - Bad tensors for the m-grouped GEMMs ------===//
//
// The rows of docs/bad-inputs.md for
// dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous and _masked: the group tensor
// (m_indices, masked_m), expected_m, the layouts' own rules, and the
// categories the normal GEMM has (its rules are shared and tested per rule
// in unittests/Runtime/GroupedValidationTest.cpp; here through the C API,
// in a child process, with the stand-in driver).
//
//===----------------------------------------------------------------------===//
#include "BadInputRow.h"
#include "ValidOperands.h"
#include "TensorTestHelpers.h"

#include "gtest/gtest.h"

#include <vector>

using namespace dgemm::test;

namespace {


template <typename Edit> Call contiguous(Edit edit) {
  Contiguous c;
  edit(c);
  return [c](std::string &) {
    return dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous(
        &c.a, &c.sa, &c.b, &c.sb, &c.idx, &c.d, nullptr);
  };
}


template <typename Edit> Call masked(Edit edit) {
  Masked m;
  edit(m);
  return [m](std::string &) {
    return dgemm_m_grouped_gemm_fp8_bf16_nt_masked(
        &m.a, &m.sa, &m.b, &m.sb, &m.mm, m.expectedM, &m.d, nullptr);
  };
}

/// The offsets form on the valid contiguous operands with offsets [3]
/// (each group's end row), edited.
template <typename Edit> Call offsets(Edit edit) {
  Contiguous c;
  c.idx = dense(0x500000, DGEMM_DTYPE_I32, {3});
  edit(c.idx);
  return [c](std::string &) {
    return dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets(
        &c.a, &c.sa, &c.b, &c.sb, &c.idx, &c.d, nullptr);
  };
}

TEST(GroupedBadInput, Contiguous) {
  Outcome o = expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "none",
                        "valid operands (G=3, M_sum=384, N=200, K=256)",
                        DGEMM_OK, "", {}, contiguous([](Contiguous &) {}));
  EXPECT_EQ(o.launches, 1);
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "null",
            "m_indices is NULL", DGEMM_ERROR_INVALID_ARGUMENT,
            "m_indices is NULL", {}, [](std::string &) {
              Contiguous c;
              return dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous(
                  &c.a, &c.sa, &c.b, &c.sb, nullptr, &c.d, nullptr);
            });
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "dtype",
            "m_indices is f32", DGEMM_ERROR_INVALID_ARGUMENT,
            "m_indices must be i32 (DGEMM_DTYPE_I32), got f32 "
            "(DGEMM_DTYPE_F32)",
            {}, contiguous([](Contiguous &c) { c.idx.dtype = DGEMM_DTYPE_F32; }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "shape",
            "m_indices shorter than M_sum", DGEMM_ERROR_INVALID_ARGUMENT,
            "m_indices must be [M_sum] = [384], got [256]", {},
            contiguous([](Contiguous &c) { c.idx.shape[0] = 256; }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "shape",
            "M_sum = 200 (groups not padded to 128 rows)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a has M_sum = 200 rows: the contiguous layout pads every group to "
            "a multiple of 128 rows (get_m_alignment_for_contiguous_layout), "
            "so M_sum must be one",
            {}, contiguous([](Contiguous &c) {
              c.a.shape[0] = c.sa.shape[0] = c.idx.shape[0] = c.d.shape[0] =
                  200;
            }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "zero",
            "G = 0 (b is [0, N, K])", DGEMM_ERROR_INVALID_ARGUMENT,
            "b is [G, N, K] = [0, 200, 256]: there must be at least one group",
            {}, contiguous([](Contiguous &c) { c.b.shape[0] = 0; }));
  o = expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "zero",
                "M_sum = 0", DGEMM_OK, "", {}, contiguous([](Contiguous &c) {
                  c.a.shape[0] = c.sa.shape[0] = c.idx.shape[0] =
                      c.d.shape[0] = 0;
                }));
  EXPECT_EQ(o.launches, 0);
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "overflow32",
            "b's group stride 2^62 elements (bytes overflow int64)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "b has a stride of 2^40 bytes or more in dimension 0; TMA needs a "
            "multiple of 16 bytes below 2^40",
            {}, contiguous([](Contiguous &c) { c.b.strides[0] = int64_t(1) << 62; }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "misaligned",
            "m_indices' address 2 bytes off", DGEMM_ERROR_INVALID_ARGUMENT,
            "m_indices data address is not 4-byte aligned", {},
            contiguous([](Contiguous &c) {
              c.idx.data = reinterpret_cast<void *>(0x500002);
            }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "noncontig",
            "m_indices with stride 2", DGEMM_ERROR_INVALID_ARGUMENT,
            "m_indices must be contiguous (stride 1), got stride 2", {},
            contiguous([](Contiguous &c) { c.idx.strides[0] = 2; }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "k128", "K = 320",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "K must be a positive multiple of 128, got 320", {},
            contiguous([](Contiguous &c) { c.a.shape[1] = c.b.shape[2] = 320; }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "scale-layout",
            "a_scale K-major (strides (2, 1))", DGEMM_ERROR_INVALID_ARGUMENT,
            "a_scale must be MN-major: strides (1, S) with S >= M_sum and S % "
            "4 == 0, got strides (2, 1)",
            {}, contiguous([](Contiguous &c) {
              c.sa.strides[0] = 2;
              c.sa.strides[1] = 1;
            }));
}

TEST(GroupedBadInput, ContiguousOffsets) {
  Outcome o = expectRow(
      "dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets", "none",
      "valid operands (G=3, M_sum=384, N=200, K=256, offsets [3])", DGEMM_OK,
      "", {}, [](std::string &) {
        Contiguous c;
        c.idx = dense(0x500000, DGEMM_DTYPE_I32, {3});
        return dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets(
            &c.a, &c.sa, &c.b, &c.sb, &c.idx, &c.d, nullptr);
      });
  EXPECT_EQ(o.launches, 1);
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets", "shape",
            "offsets [M_sum] (m_indices' shape)", DGEMM_ERROR_INVALID_ARGUMENT,
            "offsets must be [G] = [3], got [384]", {}, [](std::string &) {
              Contiguous c;
              return dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets(
                  &c.a, &c.sa, &c.b, &c.sb, &c.idx, &c.d, nullptr);
            });
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets", "null",
            "offsets' data pointer is NULL", DGEMM_ERROR_INVALID_ARGUMENT,
            "offsets has a NULL data pointer", {},
            offsets([](dgemm_tensor &t) { t.data = nullptr; }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets", "dtype",
            "offsets is f32", DGEMM_ERROR_INVALID_ARGUMENT,
            "offsets must be i32 (DGEMM_DTYPE_I32), got f32 (DGEMM_DTYPE_F32)",
            {}, offsets([](dgemm_tensor &t) { t.dtype = DGEMM_DTYPE_F32; }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets", "noncontig",
            "offsets with stride 2", DGEMM_ERROR_INVALID_ARGUMENT,
            "offsets must be contiguous (stride 1), got stride 2", {},
            offsets([](dgemm_tensor &t) { t.strides[0] = 2; }));
}

TEST(GroupedBadInput, Masked) {
  Outcome o = expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "none",
                        "valid operands (G=2, M_max=70, N=136, K=384)",
                        DGEMM_OK, "", {}, masked([](Masked &) {}));
  EXPECT_EQ(o.launches, 1);
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "null",
            "masked_m is NULL", DGEMM_ERROR_INVALID_ARGUMENT,
            "masked_m is NULL", {}, [](std::string &) {
              Masked m;
              return dgemm_m_grouped_gemm_fp8_bf16_nt_masked(
                  &m.a, &m.sa, &m.b, &m.sb, nullptr, 64, &m.d, nullptr);
            });
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "dtype",
            "masked_m is bf16", DGEMM_ERROR_INVALID_ARGUMENT,
            "masked_m must be i32 (DGEMM_DTYPE_I32), got bf16 "
            "(DGEMM_DTYPE_BF16)",
            {}, masked([](Masked &m) { m.mm.dtype = DGEMM_DTYPE_BF16; }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "shape",
            "masked_m has 3 entries for 2 groups",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "masked_m must be [G] = [2], got [3]", {},
            masked([](Masked &m) { m.mm.shape[0] = 3; }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "shape",
            "a is 2-D (the contiguous layout's A)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a must have rank 3 ([G, M_max, K]), got rank 2", {},
            masked([](Masked &m) { m.a.rank = 2; }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "zero",
            "expected_m = 0", DGEMM_ERROR_INVALID_ARGUMENT,
            "expected_m must be at least 1 (the expected rows per group), got 0",
            {}, masked([](Masked &m) { m.expectedM = 0; }));
  o = expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "zero",
                "M_max = 0", DGEMM_OK, "", {}, masked([](Masked &m) {
                  m.a.shape[1] = m.sa.shape[1] = m.d.shape[1] = 0;
                }));
  EXPECT_EQ(o.launches, 0);
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "noncontig",
            "d with padded rows (the masked layout needs it dense)",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "d must be contiguous in the masked layout: strides (9520, 136, "
            "1), got strides (10240, 144, 1)",
            {}, masked([](Masked &m) {
              m.d.strides[0] = 10240;
              m.d.strides[1] = 144;
            }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "overflow32",
            "a_scale's row stride S = 2^62", DGEMM_ERROR_INVALID_ARGUMENT,
            "a_scale must be MN-major within each group: strides (S0, 1, S) "
            "with S >= M_max = 70, S % 4 == 0, S0 >= S * K/128 and S0 % 4 == 0 "
            "(16-byte rows for TMA), got strides (216, 1, 4611686018427387904)",
            {}, masked([](Masked &m) { m.sa.strides[2] = int64_t(1) << 62; }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "scale-layout",
            "a_scale K-major within each group (strides (210, 3, 1))",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "a_scale must be MN-major within each group: strides (S0, 1, S) "
            "with S >= M_max = 70, S % 4 == 0, S0 >= S * K/128 and S0 % 4 == 0 "
            "(16-byte rows for TMA), got strides (210, 3, 1)",
            {}, masked([](Masked &m) {
              m.sa.strides[0] = 210;
              m.sa.strides[1] = 3;
              m.sa.strides[2] = 1;
            }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "k128", "K = 100",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "K must be a positive multiple of 128, got 100", {},
            masked([](Masked &m) { m.a.shape[2] = m.b.shape[2] = 100; }));
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "misaligned",
            "b's address 8 bytes off", DGEMM_ERROR_INVALID_ARGUMENT,
            "b data address is not 16-byte aligned", {}, masked([](Masked &m) {
              m.b.data = reinterpret_cast<void *>(0x300008);
            }));
}


TEST(GroupedBadInput, KernelIR) {
  expectRow("dgemm_launch_grouped_kernel_ir", "null", "kernel_ir is NULL",
            DGEMM_ERROR_INVALID_ARGUMENT, "kernel_ir is NULL", {},
            [](std::string &) {
              Contiguous c;
              return dgemm_launch_grouped_kernel_ir(nullptr, &c.a, &c.sa, &c.b,
                                                    &c.sb, &c.idx, &c.d,
                                                    nullptr);
            });
  expectRow("dgemm_launch_grouped_kernel_ir", "malformed-ir",
            "text that does not parse", DGEMM_ERROR_COMPILE,
            "...does not parse...", {}, [](std::string &) {
              Contiguous c;
              return dgemm_launch_grouped_kernel_ir("func.func @f(", &c.a,
                                                    &c.sa, &c.b, &c.sb, &c.idx,
                                                    &c.d, nullptr);
            });
}

} // namespace
