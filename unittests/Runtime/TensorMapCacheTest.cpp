//===- TensorMapCacheTest.cpp - the per-thread tensor map memo ------------===//
//
// encodeTensorMapCached against the stand-in driver, which counts its
// cuTensorMapEncodeTiled calls: equal arguments are encoded once; any
// change of an argument (address, size, stride, box) or of the driver is
// encoded again.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/CudaDriver.h"
#include "dgemm/Runtime/TensorMaps.h"

#include "gtest/gtest.h"

#include <dlfcn.h>

using namespace dgemm::runtime;

namespace {

#ifdef DGEMM_STANDIN_DRIVER
TensorMapArgs sampleArgs() {
  TensorMapArgs a;
  a.dataType = dgemm::cuda::CU_TENSOR_MAP_DATA_TYPE_UINT8;
  a.rank = 2;
  a.globalAddress = reinterpret_cast<void *>(0x7f0000000000);
  a.globalDim[0] = 2048;
  a.globalDim[1] = 4096;
  a.globalStrides[0] = 2048;
  a.boxDim[0] = 128;
  a.boxDim[1] = 128;
  a.elementStrides[0] = a.elementStrides[1] = 1;
  return a;
}

TEST(TensorMapCache, EncodesEachDistinctMapOnce) {
  Status s;
  std::unique_ptr<CudaDriver> driver = CudaDriver::load(DGEMM_STANDIN_DRIVER, s);
  ASSERT_TRUE(driver) << s.message();
  std::unique_ptr<CudaDriver> other = CudaDriver::load(DGEMM_STANDIN_DRIVER, s);
  ASSERT_TRUE(other) << s.message();
  void *lib = dlopen(DGEMM_STANDIN_DRIVER, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(lib, nullptr);
  auto encoded = reinterpret_cast<int (*)()>(
      dlsym(lib, "dgemm_standin_tensor_maps_encoded"));
  ASSERT_NE(encoded, nullptr);

  dgemm::cuda::CUtensorMap map;
  TensorMapArgs a = sampleArgs();
  int before = encoded();
  ASSERT_TRUE(encodeTensorMapCached(*driver, a, map).ok());
  ASSERT_TRUE(encodeTensorMapCached(*driver, a, map).ok());
  EXPECT_EQ(encoded(), before + 1);

  TensorMapArgs moved = a;
  moved.globalAddress = reinterpret_cast<void *>(0x7f0000100000);
  TensorMapArgs taller = a;
  taller.globalDim[1] = 4224;
  TensorMapArgs padded = a;
  padded.globalStrides[0] = 2064;
  TensorMapArgs box = a;
  box.boxDim[1] = 64;
  for (const TensorMapArgs &changed : {moved, taller, padded, box}) {
    int n = encoded();
    ASSERT_TRUE(encodeTensorMapCached(*driver, changed, map).ok());
    EXPECT_EQ(encoded(), n + 1);
  }
  // Another driver instance does not reuse this one's maps.
  int n = encoded();
  ASSERT_TRUE(encodeTensorMapCached(*other, a, map).ok());
  EXPECT_EQ(encoded(), n + 1);
  // Still cached for the first.
  n = encoded();
  ASSERT_TRUE(encodeTensorMapCached(*driver, a, map).ok());
  EXPECT_EQ(encoded(), n);
  dlclose(lib);
}
#endif

TEST(TensorMapCache, EqualityCoversEveryArgument) {
  TensorMapArgs a;
  a.rank = 3;
  a.globalDim[0] = 128;
  a.globalDim[1] = 64;
  a.globalDim[2] = 4;
  a.globalStrides[0] = 128;
  a.globalStrides[1] = 8192;
  TensorMapArgs b = a;
  EXPECT_TRUE(a == b);
  b.globalStrides[1] = 8208;
  EXPECT_FALSE(a == b);
  b = a;
  b.swizzle = dgemm::cuda::CU_TENSOR_MAP_SWIZZLE_128B;
  EXPECT_FALSE(a == b);
  b = a;
  b.dataType = dgemm::cuda::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  EXPECT_FALSE(a == b);
  // Entries past the rank are not part of the map.
  b = a;
  b.globalDim[4] = 7;
  EXPECT_TRUE(a == b);
}

} // namespace
