//===- BiasBadInputTest.cpp - Bad biases for dgemm_gemm_fp8_bf16_nt_bias --===//
//
// The rows of docs/bad-inputs.md for the normal GEMM with a fused bias: the
// bias's own rules (f32, [N], unit stride, 8-byte aligned; the other
// tensors are checked as by dgemm_gemm_fp8_bf16_nt, whose rows cover them),
// through the C API, in a child process, with the stand-in driver. The
// valid call compiles the bias kernel and launches it once.
//
//===----------------------------------------------------------------------===//
#include "BadInputRow.h"
#include "TensorTestHelpers.h"
#include "ValidOperands.h"

#include "gtest/gtest.h"

using namespace dgemm::test;

namespace {

/// Valid operands (ValidOperands.h's Gemm, N = 224) and an f32 bias [224].
struct GemmBias {
  Gemm g;
  dgemm_tensor bias = dense(0x600000, DGEMM_DTYPE_F32, {224});
};

template <typename Edit> Call withBias(Edit edit) {
  GemmBias c;
  edit(c);
  return [c](std::string &) {
    return dgemm_gemm_fp8_bf16_nt_bias(&c.g.a, &c.g.sa, &c.g.b, &c.g.sb,
                                       &c.bias, &c.g.d, nullptr);
  };
}

TEST(BiasBadInput, ValidOperandsLaunchOnce) {
  Outcome o = expectRow("dgemm_gemm_fp8_bf16_nt_bias", "none",
                        "valid operands and bias (M=197, N=224, K=256)",
                        DGEMM_OK, "", {}, withBias([](GemmBias &) {}));
  EXPECT_EQ(o.launches, 1);
}

TEST(BiasBadInput, Null) {
  expectRow("dgemm_gemm_fp8_bf16_nt_bias", "null", "bias is NULL",
            DGEMM_ERROR_INVALID_ARGUMENT, "bias is NULL", {},
            [](std::string &) {
              Gemm g;
              return dgemm_gemm_fp8_bf16_nt_bias(&g.a, &g.sa, &g.b, &g.sb,
                                                 nullptr, &g.d, nullptr);
            });
  expectRow("dgemm_gemm_fp8_bf16_nt_bias", "null",
            "bias's data pointer NULL (N > 0)", DGEMM_ERROR_INVALID_ARGUMENT,
            "bias has a NULL data pointer", {},
            withBias([](GemmBias &c) { c.bias.data = nullptr; }));
}

TEST(BiasBadInput, Dtype) {
  expectRow("dgemm_gemm_fp8_bf16_nt_bias", "dtype", "bias is bf16",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "bias must be f32 (DGEMM_DTYPE_F32), got bf16 (DGEMM_DTYPE_BF16)",
            {}, withBias([](GemmBias &c) { c.bias.dtype = DGEMM_DTYPE_BF16; }));
}

TEST(BiasBadInput, Shape) {
  expectRow("dgemm_gemm_fp8_bf16_nt_bias", "shape", "bias of rank 2",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "bias must have rank 1 ([N]), got rank 2", {},
            withBias([](GemmBias &c) {
              c.bias = dense(0x600000, DGEMM_DTYPE_F32, {1, 224});
            }));
  expectRow("dgemm_gemm_fp8_bf16_nt_bias", "shape", "bias [232] for N = 224",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "bias must be [N] = [224] (one f32 per output column), got [232]",
            {}, withBias([](GemmBias &c) { c.bias.shape[0] = 232; }));
}

TEST(BiasBadInput, NonContiguous) {
  expectRow("dgemm_gemm_fp8_bf16_nt_bias", "noncontig", "bias with stride 2",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "bias must be contiguous (unit stride), got strides (2)", {},
            withBias([](GemmBias &c) { c.bias.strides[0] = 2; }));
}

TEST(BiasBadInput, Misaligned) {
  expectRow("dgemm_gemm_fp8_bf16_nt_bias", "misaligned",
            "bias's address 4 bytes off", DGEMM_ERROR_INVALID_ARGUMENT,
            "bias data address is not 8-byte aligned", {},
            withBias([](GemmBias &c) {
              c.bias.data = reinterpret_cast<void *>(0x600004);
            }));
}

TEST(BiasBadInput, ZeroRows) {
  Outcome o = expectRow("dgemm_gemm_fp8_bf16_nt_bias", "zero",
                        "M = 0 with a bias (null data pointers)", DGEMM_OK, "",
                        {}, withBias([](GemmBias &c) {
                          c.g.a = matrix(0, DGEMM_DTYPE_F8E4M3, 0, 256, 256);
                          c.g.sa = matrix(0, DGEMM_DTYPE_F32, 0, 2, 1, 0);
                          c.g.d = matrix(0, DGEMM_DTYPE_BF16, 0, 224, 224);
                        }));
  EXPECT_EQ(o.launches, 0) << "M = 0 launches nothing";
}

} // namespace
