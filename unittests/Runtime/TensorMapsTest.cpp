//===- TensorMapsTest.cpp - TMA descriptors from the launch contract ------===//
//
// The encode arguments derived from the lowering's contract entries for the
// four maps of a GEMM (HOPPER-FACTS.md section 3), without a driver; and
// the errors for tensors a map cannot describe.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/TensorMaps.h"

#include "TestHelpers.h"

#include "gtest/gtest.h"

using namespace dgemm::runtime;
using namespace dgemm::cuda;
using namespace dgemm::test;

namespace {

TensorMapArgs derive(const ContractParam &p, const dgemm_tensor &t) {
  TensorMapArgs args;
  Status s = deriveTensorMapArgs(p, t, args);
  EXPECT_TRUE(s.ok()) << s.message();
  return args;
}

std::string error(const ContractParam &p, const dgemm_tensor &t) {
  TensorMapArgs args;
  Status s = deriveTensorMapArgs(p, t, args);
  EXPECT_FALSE(s.ok());
  return s.message();
}

void expectCommon(const TensorMapArgs &a) {
  EXPECT_EQ(a.elementStrides[0], 1u);
  EXPECT_EQ(a.elementStrides[1], 1u);
  EXPECT_EQ(a.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
  EXPECT_EQ(a.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  EXPECT_EQ(a.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

TEST(TensorMaps, OperandA) {
  // A [M = 197, K = 256] e4m3: dims {K, M}, stride {K}, box {128, BM}.
  dgemm_tensor a = matrix(0x10000, DGEMM_DTYPE_F8E4M3, 197, 256, 256);
  TensorMapArgs m = derive(tensorMap(0, {1, 0}, {128, 128}, 128, "u8"), a);
  EXPECT_EQ(m.dataType, CU_TENSOR_MAP_DATA_TYPE_UINT8);
  EXPECT_EQ(m.rank, 2u);
  EXPECT_EQ(m.globalAddress, a.data);
  EXPECT_EQ(m.globalDim[0], 256u);
  EXPECT_EQ(m.globalDim[1], 197u);
  EXPECT_EQ(m.globalStrides[0], 256u);
  EXPECT_EQ(m.boxDim[0], 128u);
  EXPECT_EQ(m.boxDim[1], 128u);
  EXPECT_EQ(m.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  expectCommon(m);
}

TEST(TensorMaps, OperandAScales) {
  // A scales [M = 197, K/128 = 2], strides (1, 200): dims {M, K/128},
  // stride {4 * 200}, box {BM, 1}.
  dgemm_tensor sa = matrix(0x20000, DGEMM_DTYPE_F32, 197, 2, 1, 200);
  TensorMapArgs m = derive(tensorMap(1, {0, 1}, {128, 1}, 0, "f32"), sa);
  EXPECT_EQ(m.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  EXPECT_EQ(m.globalDim[0], 197u);
  EXPECT_EQ(m.globalDim[1], 2u);
  EXPECT_EQ(m.globalStrides[0], 800u);
  EXPECT_EQ(m.boxDim[0], 128u);
  EXPECT_EQ(m.boxDim[1], 1u);
  EXPECT_EQ(m.swizzle, CU_TENSOR_MAP_SWIZZLE_NONE);
  expectCommon(m);
}

TEST(TensorMaps, OperandBAndD) {
  dgemm_tensor b = matrix(0x30000, DGEMM_DTYPE_F8E4M3, 1000, 1536, 1536);
  TensorMapArgs mb = derive(tensorMap(2, {1, 0}, {128, 112}, 128, "u8"), b);
  EXPECT_EQ(mb.globalDim[0], 1536u);
  EXPECT_EQ(mb.globalDim[1], 1000u);
  EXPECT_EQ(mb.globalStrides[0], 1536u);
  EXPECT_EQ(mb.boxDim[1], 112u);

  // D [509, 1000] bf16 with padded rows of 1008.
  dgemm_tensor d = matrix(0x40000, DGEMM_DTYPE_BF16, 509, 1000, 1008);
  TensorMapArgs md = derive(tensorMap(4, {1, 0}, {112, 128}, 0, "bf16"), d);
  EXPECT_EQ(md.dataType, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(md.globalDim[0], 1000u);
  EXPECT_EQ(md.globalDim[1], 509u);
  EXPECT_EQ(md.globalStrides[0], 2016u);
  EXPECT_EQ(md.boxDim[0], 112u);
  EXPECT_EQ(md.boxDim[1], 128u);
}

TEST(TensorMaps, SizeOneDimensionsGetADenseStride) {
  // M = 1 with a meaningless row stride of 7 bytes.
  dgemm_tensor a = matrix(0x10000, DGEMM_DTYPE_F8E4M3, 1, 128, 7);
  TensorMapArgs m = derive(tensorMap(0, {1, 0}, {128, 64}, 128, "u8"), a);
  EXPECT_EQ(m.globalDim[1], 1u);
  EXPECT_EQ(m.globalStrides[0], 128u);
  // K/128 = 1 A scales with an arbitrary second stride: 4 * 5 rounded to 16.
  dgemm_tensor sa = matrix(0x20000, DGEMM_DTYPE_F32, 5, 1, 1, 3);
  TensorMapArgs ms = derive(tensorMap(1, {0, 1}, {64, 1}, 0, "f32"), sa);
  EXPECT_EQ(ms.globalStrides[0], 32u);
}

TEST(TensorMaps, ThreeDimensionalMap) {
  dgemm_tensor t{};
  t.data = reinterpret_cast<void *>(0x10000);
  t.dtype = DGEMM_DTYPE_BF16;
  t.rank = 3;
  t.shape[0] = 4;
  t.shape[1] = 256;
  t.shape[2] = 4096;
  t.strides[0] = 256 * 4096;
  t.strides[1] = 4096;
  t.strides[2] = 1;
  TensorMapArgs m =
      derive(tensorMap(4, {2, 1, 0}, {64, 128, 1}, 128, "bf16"), t);
  EXPECT_EQ(m.rank, 3u);
  EXPECT_EQ(m.globalDim[0], 4096u);
  EXPECT_EQ(m.globalDim[1], 256u);
  EXPECT_EQ(m.globalDim[2], 4u);
  EXPECT_EQ(m.globalStrides[0], 8192u);
  EXPECT_EQ(m.globalStrides[1], 8192u * 256u);
  EXPECT_EQ(m.boxDim[2], 1u);
}

TEST(TensorMaps, Errors) {
  ContractParam mapA = tensorMap(0, {1, 0}, {128, 128}, 128, "u8");
  dgemm_tensor a = matrix(0x10000, DGEMM_DTYPE_F8E4M3, 197, 256, 256);

  dgemm_tensor t = a;
  t.dtype = DGEMM_DTYPE_BF16;
  EXPECT_EQ(error(mapA, t),
            "operand 0 (tensor map) is bf16 (DGEMM_DTYPE_BF16), "
            "but the kernel reads it as u8");
  t = a;
  t.strides[1] = 2;
  EXPECT_EQ(error(mapA, t), "operand 0 (tensor map): the innermost mapped "
                            "dimension 1 must be contiguous (stride 1), got "
                            "stride 2");
  t = a;
  t.strides[0] = 260;
  EXPECT_EQ(error(mapA, t), "operand 0 (tensor map): dimension 0 has a stride "
                            "of 260 bytes; TMA needs a multiple of 16 bytes");
  t = a;
  t.strides[0] = int64_t(1) << 40;
  EXPECT_EQ(error(mapA, t), "operand 0 (tensor map): dimension 0 has a stride "
                            "of 2^40 bytes or more");
  t = a;
  t.data = reinterpret_cast<void *>(0x10008);
  EXPECT_EQ(error(mapA, t), "operand 0 (tensor map): the data address is not "
                            "16-byte aligned");
  t = a;
  t.data = nullptr;
  EXPECT_EQ(error(mapA, t), "operand 0 (tensor map) has a NULL data pointer");
  t = a;
  t.shape[0] = 0;
  EXPECT_EQ(error(mapA, t), "operand 0 (tensor map): dimension 0 has size 0, "
                            "not in [1, 2^32]");
  t = a;
  t.rank = 1;
  EXPECT_EQ(error(mapA, t), "operand 0 (tensor map): the kernel maps "
                            "dimension 1 of a rank-1 tensor");
  t = a;
  t.rank = 5;
  EXPECT_EQ(error(mapA, t), "operand 0 (tensor map) has rank 5, not in [1, 4]");

  ContractParam bad = mapA;
  bad.swizzle = 64;
  TensorMapArgs args;
  Status s = deriveTensorMapArgs(bad, a, args);
  EXPECT_EQ(s.code(), DGEMM_ERROR_INTERNAL);
  EXPECT_EQ(s.message(), "operand 0 (tensor map): bad contract entry "
                         "(tensor_map): the inner box extent of 128 bytes "
                         "exceeds the 64-byte swizzle span");
}

} // namespace
