//===- ValidationTest.cpp - Checking the tensors of a GEMM call -----------===//
//
// One case per rule of validateGemmFp8Bf16Nt, each checking the status and
// the message a user would read; plus what is allowed (M = 0 with null
// pointers, padded row strides, arbitrary strides of size-1 dimensions).
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/Validation.h"

#include "TestHelpers.h"

#include "gtest/gtest.h"

using namespace dgemm::runtime;
using namespace dgemm::test;

namespace {

/// Valid operands of M = 197, N = 224, K = 256 at 16-byte aligned addresses.
struct Gemm {
  int64_t m = 197, n = 224, k = 256;
  dgemm_tensor a = matrix(0x100000, DGEMM_DTYPE_F8E4M3, m, k, k);
  // MN-major: [M, K/128] with strides (1, align(M, 4)).
  dgemm_tensor sa = matrix(0x200000, DGEMM_DTYPE_F32, m, k / 128, 1, 200);
  dgemm_tensor b = matrix(0x300000, DGEMM_DTYPE_F8E4M3, n, k, k);
  dgemm_tensor sb = matrix(0x400000, DGEMM_DTYPE_F32, 2, 2, 2);
  dgemm_tensor d = matrix(0x500000, DGEMM_DTYPE_BF16, m, n, n);

  GemmOperands ops() const { return {&a, &sa, &b, &sb, &d}; }
};

Status validate(const Gemm &g) {
  GemmShape shape;
  return validateGemmFp8Bf16Nt(g.ops(), shape);
}

std::string error(const Gemm &g) {
  Status s = validate(g);
  EXPECT_EQ(s.code(), DGEMM_ERROR_INVALID_ARGUMENT) << s.message();
  return s.message();
}

TEST(Validation, AcceptsValidOperands) {
  Gemm g;
  GemmShape shape;
  Status s = validateGemmFp8Bf16Nt(g.ops(), shape);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(shape.m, 197);
  EXPECT_EQ(shape.n, 224);
  EXPECT_EQ(shape.k, 256);
}

TEST(Validation, AcceptsPaddedRowsAndSizeOneStrides) {
  Gemm g;
  g.a.strides[0] = 272;  // Padded rows, still 16-byte multiples.
  g.d.strides[0] = 232;  // 464 bytes.
  g.sa.strides[1] = 256; // S > M.
  EXPECT_TRUE(validate(g).ok()) << validate(g).message();

  // M = 1, K = 128: every size-1 dimension's stride is free.
  Gemm one;
  one.m = 1;
  one.k = 128;
  one.a = matrix(0x100000, DGEMM_DTYPE_F8E4M3, 1, 128, 7);
  one.sa = matrix(0x200000, DGEMM_DTYPE_F32, 1, 1, 5, 3);
  one.b = matrix(0x300000, DGEMM_DTYPE_F8E4M3, 224, 128, 128);
  one.sb = matrix(0x400000, DGEMM_DTYPE_F32, 2, 1, 1, 9);
  one.d = matrix(0x500000, DGEMM_DTYPE_BF16, 1, 224, 3);
  EXPECT_TRUE(validate(one).ok()) << validate(one).message();
}

TEST(Validation, MZeroIsValidWithNullPointers) {
  Gemm g;
  g.a = matrix(0, DGEMM_DTYPE_F8E4M3, 0, 256, 256);
  g.sa = matrix(0, DGEMM_DTYPE_F32, 0, 2, 1, 0);
  g.d = matrix(0, DGEMM_DTYPE_BF16, 0, 224, 224);
  GemmShape shape;
  Status s = validateGemmFp8Bf16Nt(g.ops(), shape);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(shape.m, 0);
  // Empty tensors' strides do not matter (torch.empty(2, 0).t() has (1, 1)).
  g.sa = matrix(0, DGEMM_DTYPE_F32, 0, 2, 1, 1);
  g.a = matrix(0, DGEMM_DTYPE_F8E4M3, 0, 256, 3, 5);
  s = validateGemmFp8Bf16Nt(g.ops(), shape);
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(Validation, MissingTensors) {
  Gemm g;
  GemmOperands ops = g.ops();
  ops.bScale = nullptr;
  GemmShape shape;
  EXPECT_EQ(validateGemmFp8Bf16Nt(ops, shape).message(), "b_scale is NULL");
  ops = GemmOperands();
  EXPECT_EQ(validateGemmFp8Bf16Nt(ops, shape).message(), "a is NULL");
}

TEST(Validation, RankAndDtype) {
  Gemm g;
  g.a.rank = 3;
  EXPECT_EQ(error(g), "a must have rank 2 ([M, K]), got rank 3");
  g = Gemm();
  g.a.rank = -7;
  EXPECT_EQ(error(g), "a must have rank 2 ([M, K]), got rank -7");
  g = Gemm();
  g.a.dtype = DGEMM_DTYPE_BF16;
  EXPECT_EQ(error(g), "a must be e4m3 (DGEMM_DTYPE_F8E4M3), got bf16 "
                      "(DGEMM_DTYPE_BF16)");
  g = Gemm();
  g.b.dtype = static_cast<dgemm_dtype>(42);
  EXPECT_EQ(error(g), "b must be e4m3 (DGEMM_DTYPE_F8E4M3), got an unknown "
                      "dtype");
  g = Gemm();
  g.sa.dtype = DGEMM_DTYPE_BF16;
  EXPECT_EQ(error(g), "a_scale must be f32 (DGEMM_DTYPE_F32), got bf16 "
                      "(DGEMM_DTYPE_BF16)");
  g = Gemm();
  g.d.dtype = DGEMM_DTYPE_F32;
  EXPECT_EQ(error(g), "d must be bf16 (DGEMM_DTYPE_BF16), got f32 "
                      "(DGEMM_DTYPE_F32)");
}

TEST(Validation, Sizes) {
  Gemm g;
  g.a.shape[0] = -1;
  EXPECT_EQ(error(g), "a has shape [-1, 256]: sizes must be in [0, "
                      "2147483647]");
  g = Gemm();
  g.b.shape[0] = int64_t(1) << 31;
  EXPECT_EQ(error(g), "b has shape [2147483648, 256]: sizes must be in [0, "
                      "2147483647]");
  g = Gemm();
  g.d.strides[0] = -224;
  EXPECT_EQ(error(g), "d has strides (-224, 1): strides must be "
                      "non-negative");
}

TEST(Validation, ShapesAgree) {
  Gemm g;
  g.b.shape[1] = 384;
  EXPECT_EQ(error(g), "b is [N, K] = [224, 384] but a is [M, K] = [197, 256]: "
                      "K differs");
  g = Gemm();
  g.d.shape[0] = 196;
  EXPECT_EQ(error(g), "d must be [M, N] = [197, 224], got [196, 224]");
  g = Gemm();
  g.sa.shape[1] = 3;
  EXPECT_EQ(error(g), "a_scale must be [M, K/128] = [197, 2] (one f32 per row "
                      "per 128 K-values), got [197, 3]");
  g = Gemm();
  g.sb.shape[0] = 1;
  EXPECT_EQ(error(g), "b_scale must be [ceil(N/128), K/128] = [2, 2] (one f32 "
                      "per 128x128 block), got [1, 2]");
}

TEST(Validation, ProblemRules) {
  Gemm g;
  g.k = 200;
  g.a = matrix(0x100000, DGEMM_DTYPE_F8E4M3, g.m, 200, 208);
  g.b = matrix(0x300000, DGEMM_DTYPE_F8E4M3, g.n, 200, 208);
  EXPECT_EQ(error(g), "K must be a positive multiple of 128, got 200");
  g = Gemm();
  g.n = 100;
  g.b.shape[0] = 100;
  g.d.shape[1] = 100;
  EXPECT_EQ(error(g), "N must be a positive multiple of 8 for a BF16 output "
                      "(16-byte rows), got 100");
}

TEST(Validation, RowMajorOperands) {
  Gemm g;
  g.a.strides[1] = 2;
  EXPECT_EQ(error(g),
            "a must have unit inner stride (row-major), got strides (256, 2)");
  g = Gemm();
  g.b.strides[0] = 200;
  EXPECT_EQ(error(g), "b has row stride 200, less than its row length 256");
  g = Gemm();
  g.a.strides[0] = 264;
  EXPECT_EQ(error(g), "a has a row stride of 264 bytes; TMA needs a multiple "
                      "of 16 bytes");
  g = Gemm();
  g.d.strides[0] = 228;
  EXPECT_EQ(error(g), "d has a row stride of 456 bytes; TMA needs a multiple "
                      "of 16 bytes");
  g = Gemm();
  g.a.strides[0] = int64_t(1) << 40;
  EXPECT_EQ(error(g), "a has a row stride of 2^40 bytes or more");
}

TEST(Validation, ScaleLayouts) {
  Gemm g;
  g.sa.strides[0] = 2;
  g.sa.strides[1] = 1; // K-major: not what TMA loads per K block.
  EXPECT_EQ(error(g), "a_scale must be MN-major: strides (1, S) with S >= M "
                      "and S % 4 == 0, got strides (2, 1)");
  g = Gemm();
  g.sa.strides[1] = 196;
  EXPECT_EQ(error(g), "a_scale must be MN-major: strides (1, S) with S >= M = "
                      "197 and S % 4 == 0 (16-byte rows for TMA), got strides "
                      "(1, 196)");
  g.sa.strides[1] = 198;
  EXPECT_EQ(error(g), "a_scale must be MN-major: strides (1, S) with S >= M = "
                      "197 and S % 4 == 0 (16-byte rows for TMA), got strides "
                      "(1, 198)");
  g = Gemm();
  g.sb.strides[0] = 1;
  g.sb.strides[1] = 2; // Transposed.
  EXPECT_EQ(error(g), "b_scale must be contiguous: strides (2, 1), got strides "
                      "(1, 2)");
}

TEST(Validation, Addresses) {
  Gemm g;
  g.b.data = reinterpret_cast<void *>(0x300008);
  EXPECT_EQ(error(g), "b data address is not 16-byte aligned");
  g = Gemm();
  g.sb.data = reinterpret_cast<void *>(0x400004);
  EXPECT_EQ(error(g), "b_scale data address is not 16-byte aligned");
  g = Gemm();
  g.d.data = nullptr;
  EXPECT_EQ(error(g), "d has a NULL data pointer");
}

TEST(Validation, DtypeNamesAndSizes) {
  EXPECT_EQ(dtypeBytes(DGEMM_DTYPE_F8E4M3), 1);
  EXPECT_EQ(dtypeBytes(DGEMM_DTYPE_F8E5M2), 1);
  EXPECT_EQ(dtypeBytes(DGEMM_DTYPE_BF16), 2);
  EXPECT_EQ(dtypeBytes(DGEMM_DTYPE_F32), 4);
  EXPECT_EQ(dtypeBytes(DGEMM_DTYPE_I32), 4);
  EXPECT_EQ(dtypeBytes(99), 0);
  EXPECT_STREQ(dtypeName(DGEMM_DTYPE_I32), "i32 (DGEMM_DTYPE_I32)");
}

TEST(Validation, OperandIndices) {
  Gemm g;
  GemmOperands ops = g.ops();
  EXPECT_EQ(ops.operand(0), &g.a);
  EXPECT_EQ(ops.operand(1), &g.sa);
  EXPECT_EQ(ops.operand(2), &g.b);
  EXPECT_EQ(ops.operand(3), &g.sb);
  EXPECT_EQ(ops.operand(4), &g.d);
  EXPECT_EQ(ops.operand(5), nullptr);
  EXPECT_EQ(ops.operand(-1), nullptr);
}

} // namespace
