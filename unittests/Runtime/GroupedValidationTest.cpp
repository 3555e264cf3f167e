//===- GroupedValidationTest.cpp - Checking an m-grouped GEMM call --------===//
//
// One case per rule of validateGroupedFp8Bf16Nt for the contiguous and the
// masked layout, each checking the message a user would read; plus what is
// allowed (M_sum = 0, padded rows and scale strides).
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/Validation.h"

#include "TestHelpers.h"

#include "gtest/gtest.h"

using namespace dgemm::runtime;
using namespace dgemm::test;

namespace {

/// Valid contiguous operands: G = 3, M_sum = 384, N = 200, K = 256.
struct Contiguous {
  int64_t g = 3, m = 384, n = 200, k = 256;
  dgemm_tensor a = dense(0x100000, DGEMM_DTYPE_F8E4M3, {m, k});
  dgemm_tensor sa = matrix(0x200000, DGEMM_DTYPE_F32, m, k / 128, 1, m);
  dgemm_tensor b = dense(0x300000, DGEMM_DTYPE_F8E4M3, {g, n, k});
  dgemm_tensor sb = dense(0x400000, DGEMM_DTYPE_F32, {g, 2, 2});
  dgemm_tensor idx = dense(0x500000, DGEMM_DTYPE_I32, {m});
  dgemm_tensor d = dense(0x600000, DGEMM_DTYPE_BF16, {m, n});
  GroupedOperands ops() const { return {&a, &sa, &b, &sb, &idx, &d}; }
};

/// Valid masked operands: G = 2, M_max = 70, N = 136, K = 384.
struct Masked {
  int64_t g = 2, m = 70, n = 136, k = 384;
  dgemm_tensor a = dense(0x100000, DGEMM_DTYPE_F8E4M3, {g, m, k});
  dgemm_tensor sa = [this] {
    // [G, M_max, K/128] with strides (72 * 3, 1, 72): MN-major per group.
    dgemm_tensor t = dense(0x200000, DGEMM_DTYPE_F32, {g, m, k / 128});
    t.strides[0] = 72 * 3;
    t.strides[1] = 1;
    t.strides[2] = 72;
    return t;
  }();
  dgemm_tensor b = dense(0x300000, DGEMM_DTYPE_F8E4M3, {g, n, k});
  dgemm_tensor sb = dense(0x400000, DGEMM_DTYPE_F32, {g, 2, 3});
  dgemm_tensor mm = dense(0x500000, DGEMM_DTYPE_I32, {g});
  dgemm_tensor d = dense(0x600000, DGEMM_DTYPE_BF16, {g, m, n});
  GroupedOperands ops() const { return {&a, &sa, &b, &sb, &mm, &d}; }
};

template <typename T> std::string error(const T &t, bool masked) {
  GroupedShape shape;
  Status s = validateGroupedFp8Bf16Nt(t.ops(), masked, shape);
  EXPECT_EQ(s.code(), DGEMM_ERROR_INVALID_ARGUMENT) << s.message();
  return s.message();
}

TEST(GroupedValidation, AcceptsContiguous) {
  Contiguous c;
  GroupedShape shape;
  Status s = validateGroupedFp8Bf16Nt(c.ops(), false, shape);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(shape.m, 384);
  EXPECT_EQ(shape.n, 200);
  EXPECT_EQ(shape.k, 256);
  EXPECT_EQ(shape.groups, 3);
  // Padded rows of A and B, a larger scale stride.
  c.a.strides[0] = 272;
  c.b.strides[1] = 272;
  c.b.strides[0] = 272 * 200;
  c.sa.strides[1] = 400;
  EXPECT_TRUE(validateGroupedFp8Bf16Nt(c.ops(), false, shape).ok());
}

TEST(GroupedValidation, AcceptsMasked) {
  Masked m;
  GroupedShape shape;
  Status s = validateGroupedFp8Bf16Nt(m.ops(), true, shape);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(shape.m, 70);
  EXPECT_EQ(shape.groups, 2);
}

TEST(GroupedValidation, ContiguousRules) {
  Contiguous c;
  c.a = dense(0x100000, DGEMM_DTYPE_F8E4M3, {300, 256});
  EXPECT_EQ(error(c, false),
            "a has M_sum = 300 rows: the contiguous layout pads every group "
            "to a multiple of 128 rows (get_m_alignment_for_contiguous_"
            "layout), so M_sum must be one");
  c = Contiguous();
  c.idx = dense(0x500000, DGEMM_DTYPE_I32, {256});
  EXPECT_EQ(error(c, false), "m_indices must be [M_sum] = [384], got [256]");
  c = Contiguous();
  c.idx.dtype = DGEMM_DTYPE_F32;
  EXPECT_EQ(error(c, false),
            "m_indices must be i32 (DGEMM_DTYPE_I32), got f32 "
            "(DGEMM_DTYPE_F32)");
  c = Contiguous();
  c.idx.strides[0] = 2;
  EXPECT_EQ(error(c, false),
            "m_indices must be contiguous (stride 1), got stride 2");
  c = Contiguous();
  c.b = dense(0x300000, DGEMM_DTYPE_F8E4M3, {200, 256});
  EXPECT_EQ(error(c, false),
            "b must have rank 3 ([G, N, K]), got rank 2");
  c = Contiguous();
  c.b.strides[0] = 256 * 100; // groups overlap
  EXPECT_EQ(error(c, false),
            "b has group stride 25600, less than rows x row stride = 51200 "
            "(groups would overlap)");
  c = Contiguous();
  c.sb = dense(0x400000, DGEMM_DTYPE_F32, {3, 1, 2});
  EXPECT_EQ(error(c, false),
            "b_scale must be [G, ceil(N/128), K/128] = [3, 2, 2] (one f32 per "
            "128x128 block), got [3, 1, 2]");
  c = Contiguous();
  c.d = dense(0x600000, DGEMM_DTYPE_BF16, {384, 208});
  EXPECT_EQ(error(c, false), "d must be [M_sum, N] = [384, 200], got [384, 208]");
  c = Contiguous();
  c.sa.strides[1] = 386;
  EXPECT_EQ(error(c, false),
            "a_scale must be MN-major: strides (1, S) with S >= M_sum = 384 "
            "and S % 4 == 0 (16-byte rows for TMA), got strides (1, 386)");
  c = Contiguous();
  c.idx.data = reinterpret_cast<void *>(0x500002);
  EXPECT_EQ(error(c, false), "m_indices data address is not 4-byte aligned");
  c = Contiguous();
  c.b = dense(0x300000, DGEMM_DTYPE_F8E4M3, {0, 200, 256});
  c.sb = dense(0x400000, DGEMM_DTYPE_F32, {0, 2, 2});
  EXPECT_EQ(error(c, false),
            "b is [G, N, K] = [0, 200, 256]: there must be at least one group");
}

TEST(GroupedValidation, ContiguousEmptyIsValid) {
  Contiguous c;
  c.a = dense(0, DGEMM_DTYPE_F8E4M3, {0, 256});
  c.sa = dense(0, DGEMM_DTYPE_F32, {0, 2});
  c.idx = dense(0, DGEMM_DTYPE_I32, {0});
  c.d = dense(0, DGEMM_DTYPE_BF16, {0, 200});
  GroupedShape shape;
  Status s = validateGroupedFp8Bf16Nt(c.ops(), false, shape);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(shape.m, 0);
}

TEST(GroupedValidation, MaskedRules) {
  Masked m;
  m.mm = dense(0x500000, DGEMM_DTYPE_I32, {3});
  EXPECT_EQ(error(m, true), "masked_m must be [G] = [2], got [3]");
  m = Masked();
  m.a = dense(0x100000, DGEMM_DTYPE_F8E4M3, {3, 70, 384});
  EXPECT_EQ(error(m, true),
            "a must be [G, M_max, K] with G = 2 (the groups of b), got "
            "[3, 70, 384]");
  m = Masked();
  m.d.strides[1] = 144;
  m.d.strides[0] = 144 * 70;
  EXPECT_EQ(error(m, true),
            "d must be contiguous in the masked layout: strides (9520, 136, "
            "1), got strides (10080, 144, 1)");
  m = Masked();
  m.sa.strides[2] = 70; // not a multiple of 4
  EXPECT_EQ(error(m, true),
            "a_scale must be MN-major within each group: strides (S0, 1, S) "
            "with S >= M_max = 70, S % 4 == 0, S0 >= S * K/128 and S0 % 4 "
            "== 0 (16-byte rows for TMA), got strides (216, 1, 70)");
  m = Masked();
  m.sa = dense(0x200000, DGEMM_DTYPE_F32, {2, 70, 3}); // K-major scales
  EXPECT_EQ(error(m, true),
            "a_scale must be MN-major within each group: strides (S0, 1, S) "
            "with S >= M_max = 70, S % 4 == 0, S0 >= S * K/128 and S0 % 4 "
            "== 0 (16-byte rows for TMA), got strides (210, 3, 1)");
  m = Masked();
  m.a.strides[1] = 392; // 392 bytes: not a multiple of 16
  m.a.strides[0] = 392 * 70;
  EXPECT_EQ(error(m, true),
            "a has a stride of 392 bytes in dimension 1; TMA needs a "
            "multiple of 16 bytes below 2^40");
  m = Masked();
  m.a = dense(0x100000, DGEMM_DTYPE_F8E4M3, {2, 70});
  EXPECT_EQ(error(m, true), "a must have rank 3 ([G, M_max, K]), got rank 2");
}

} // namespace
