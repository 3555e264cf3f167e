//===- LauncherTest.cpp - Grid size and kernel parameters -----------------===//
//
// The launcher's arithmetic without a GPU: the persistent grid of the
// contract for given M and N (tiles, max_ctas, cluster rounding), and the
// kernel parameters derived from the contract and the operands.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/Launcher.h"

#include "TestHelpers.h"

#include "gtest/gtest.h"

using namespace dgemm::runtime;
using namespace dgemm::cuda;
using namespace dgemm::test;

namespace {

LaunchContract gemmContract(int64_t blockM, int64_t blockN, int64_t maxCtas,
                            int64_t cluster = 1) {
  LaunchContract c;
  c.kernelName = "k";
  c.block = 384;
  c.cluster = cluster;
  c.dynamicSmem = 200000;
  c.maxCtas = maxCtas;
  c.blockM = blockM;
  c.blockN = blockN;
  c.params = {tensorMap(0, {1, 0}, {128, blockM}, 128, "u8"),
              tensorMap(1, {0, 1}, {blockM, 1}, 0, "f32"),
              tensorMap(2, {1, 0}, {128, blockN}, 128, "u8"),
              tensorMap(4, {1, 0}, {blockN, blockM}, 0, "bf16"),
              pointer(3),
              ContractParam()};
  return c;
}

LaunchGrid grid(const LaunchContract &c, int64_t m, int64_t n) {
  LaunchGrid g;
  Status s = computeGrid(c, m, n, g);
  EXPECT_TRUE(s.ok()) << s.message();
  return g;
}

TEST(Launcher, GridIsMinOfTilesAndMaxCtas) {
  // 2 x 2 tiles.
  LaunchGrid g = grid(gemmContract(128, 112, 128), 197, 224);
  EXPECT_EQ(g.tiles, 4u);
  EXPECT_EQ(g.gridX, 4u);
  EXPECT_EQ(g.cluster, 1u);
  // M = 256, N = 7168, 128 x 112: 2 x 64 = 128 tiles in one wave.
  g = grid(gemmContract(128, 112, 128), 256, 7168);
  EXPECT_EQ(g.tiles, 128u);
  EXPECT_EQ(g.gridX, 128u);
  // 32 x 56 = 1792 tiles: the persistent grid.
  g = grid(gemmContract(128, 128, 132), 4096, 7168);
  EXPECT_EQ(g.tiles, 1792u);
  EXPECT_EQ(g.gridX, 132u);
  // One row.
  g = grid(gemmContract(64, 16, 132), 1, 2112);
  EXPECT_EQ(g.tiles, 132u);
  EXPECT_EQ(g.gridX, 132u);
}

TEST(Launcher, GridRoundsUpToTheCluster) {
  LaunchGrid g = grid(gemmContract(128, 128, 132, 2), 128 * 3, 128);
  EXPECT_EQ(g.tiles, 3u);
  EXPECT_EQ(g.gridX, 4u);
  EXPECT_EQ(g.cluster, 2u);
  g = grid(gemmContract(128, 128, 131, 2), 4096, 4096);
  EXPECT_EQ(g.gridX, 132u);
}

TEST(Launcher, GridGivesSplitTilesTwoCtas) {
  // A tail-split kernel (tile_ctas 2): 33 tiles take 66 CTAs, one cluster
  // each; with more tiles than half the CTAs the grid is max_ctas.
  LaunchContract c = gemmContract(64, 64, 132, 2);
  c.tileCtas = 2;
  LaunchGrid g = grid(c, 64, 2112);
  EXPECT_EQ(g.tiles, 33u);
  EXPECT_EQ(g.gridX, 66u);
  EXPECT_EQ(g.cluster, 2u);
  g = grid(c, 64, 64 * 100);
  EXPECT_EQ(g.tiles, 100u);
  EXPECT_EQ(g.gridX, 132u);
}

TEST(Launcher, GridErrors) {
  LaunchGrid g;
  // A kernel whose A box holds 8 rows: M 8 launches, M 9 is refused.
  LaunchContract small = gemmContract(64, 32, 132);
  small.maxM = 8;
  EXPECT_TRUE(computeGrid(small, 8, 4096, g).ok());
  Status m9 = computeGrid(small, 9, 4096, g);
  EXPECT_EQ(m9.code(), DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(m9.message(), "kernel k serves M <= 8 (its A box holds that many "
                          "rows: a_box_rows); the call has M = 9");
  EXPECT_EQ(computeGrid(gemmContract(128, 128, 132), 0, 128, g).message(),
            "a launch needs M >= 1 and N >= 1, got M = 0, N = 128");
  LaunchContract bad = gemmContract(128, 128, 132);
  bad.maxCtas = 0;
  Status s = computeGrid(bad, 1, 128, g);
  EXPECT_EQ(s.code(), DGEMM_ERROR_INTERNAL);
  EXPECT_EQ(s.message(),
            "invalid launch contract: max_ctas = 0 is not in [1, 1048576]");
}

TEST(Launcher, KernelArgsFollowTheContract) {
  dgemm_tensor a = matrix(0x100000, DGEMM_DTYPE_F8E4M3, 197, 256, 256);
  dgemm_tensor sa = matrix(0x200000, DGEMM_DTYPE_F32, 197, 2, 1, 200);
  dgemm_tensor b = matrix(0x300000, DGEMM_DTYPE_F8E4M3, 224, 256, 256);
  dgemm_tensor sb = matrix(0x400000, DGEMM_DTYPE_F32, 2, 2, 2);
  dgemm_tensor d = matrix(0x500000, DGEMM_DTYPE_BF16, 197, 224, 224);
  std::vector<KernelArg> args;
  Status s = deriveKernelArgs(gemmContract(128, 112, 128),
                              {&a, &sa, &b, &sb, &d}, 197, args);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(args.size(), 6u);
  EXPECT_EQ(args[0].kind, ParamKind::TensorMap);
  EXPECT_EQ(args[0].map.globalAddress, a.data);
  EXPECT_EQ(args[0].map.globalDim[1], 197u);
  EXPECT_EQ(args[1].map.globalAddress, sa.data);
  EXPECT_EQ(args[1].map.globalStrides[0], 800u);
  EXPECT_EQ(args[2].map.globalAddress, b.data);
  EXPECT_EQ(args[2].map.boxDim[1], 112u);
  EXPECT_EQ(args[3].map.globalAddress, d.data);
  EXPECT_EQ(args[3].map.globalStrides[0], 448u);
  EXPECT_EQ(args[4].kind, ParamKind::Pointer);
  EXPECT_EQ(args[4].pointer, 0x400000u);
  EXPECT_EQ(args[5].kind, ParamKind::M);
  EXPECT_EQ(args[5].m, 197);
}

TEST(Launcher, KernelArgErrors) {
  dgemm_tensor a = matrix(0x100000, DGEMM_DTYPE_F8E4M3, 197, 256, 256);
  dgemm_tensor sa = matrix(0x200000, DGEMM_DTYPE_F32, 197, 2, 1, 200);
  std::vector<KernelArg> args;
  Status s =
      deriveKernelArgs(gemmContract(128, 112, 128), {&a, &sa}, 197, args);
  EXPECT_EQ(s.code(), DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "the kernel's parameter 2 reads operand 2, but the "
                         "call has 2 operands");
  s = deriveKernelArgs(gemmContract(128, 112, 128), {&a, &sa}, int64_t(1) << 31,
                       args);
  EXPECT_EQ(s.message(), "M = 2147483648 does not fit the kernel's i32 M");
  // A tensor the map cannot describe: the map's message.
  dgemm_tensor odd = a;
  odd.data = reinterpret_cast<void *>(0x100001);
  s = deriveKernelArgs(gemmContract(128, 112, 128), {&odd, &sa}, 197, args);
  EXPECT_EQ(s.message(), "operand 0 (tensor map): the data address is not "
                         "16-byte aligned");
}

TEST(Launcher, StaticSizes) {
  LaunchContract c = gemmContract(128, 112, 128);
  EXPECT_TRUE(checkStaticSizes(c, 224, 256).ok()); // Unstated: anything.
  c.n = 7168;
  c.k = 2048;
  EXPECT_TRUE(checkStaticSizes(c, 7168, 2048).ok());
  Status s = checkStaticSizes(c, 7168, 4096);
  EXPECT_EQ(s.code(), DGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "kernel k was compiled for N = 7168, K = 2048; the "
                         "operands have N = 7168, K = 4096");
}

TEST(Launcher, CudaStructLayouts) {
  // As cuda.h declares them (CUDA 13).
  EXPECT_EQ(sizeof(CUtensorMap), 128u);
  EXPECT_EQ(alignof(CUtensorMap), 128u);
  EXPECT_EQ(sizeof(CUlaunchAttributeValue), 64u);
  EXPECT_EQ(offsetof(CUlaunchAttribute, value), 8u);
  EXPECT_EQ(sizeof(CUlaunchAttribute), 72u);
  EXPECT_EQ(offsetof(CUlaunchConfig, hStream), 32u);
  EXPECT_EQ(offsetof(CUlaunchConfig, attrs), 40u);
  EXPECT_EQ(offsetof(CUlaunchConfig, numAttrs), 48u);
  EXPECT_EQ(sizeof(CUlaunchConfig), 56u);
}

} // namespace
