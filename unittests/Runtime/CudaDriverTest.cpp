//===- CudaDriverTest.cpp - The driver without a driver -------------------===//
//
// On machines without an NVIDIA driver (CI, this one): a missing library is
// DGEMM_ERROR_NO_DRIVER with a message naming it; the CUDA toolkit's stub
// libcuda (every call answers CUDA_ERROR_STUB_LIBRARY) is NO_DRIVER too;
// error names come from dgemm's own table; the compute capability rule.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/CudaDriver.h"
#include "dgemm/Runtime/CudaContext.h"

#include "gtest/gtest.h"

#include <dlfcn.h>
#include <unistd.h>

using namespace dgemm::runtime;
using namespace dgemm::cuda;

namespace {

bool realDriverPresent() {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h)
    dlclose(h);
  return h != nullptr;
}

TEST(CudaDriver, MissingLibraryIsNoDriver) {
  Status s;
  std::unique_ptr<CudaDriver> d = CudaDriver::load("libdgemm-no-such.so.1", s);
  EXPECT_EQ(d, nullptr);
  EXPECT_EQ(s.code(), DGEMM_ERROR_NO_DRIVER);
  EXPECT_NE(s.message().find("cannot load the CUDA driver library "
                             "libdgemm-no-such.so.1 ("),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("launching dgemm kernels needs the NVIDIA driver "
                             "and a GPU; compiling to PTX works without them"),
            std::string::npos)
      << s.message();
}

TEST(CudaDriver, ProcessDriverOnThisMachine) {
  if (realDriverPresent())
    GTEST_SKIP() << "libcuda.so.1 is present";
  Status s;
  EXPECT_EQ(CudaDriver::get(s), nullptr);
  EXPECT_EQ(s.code(), DGEMM_ERROR_NO_DRIVER);
  EXPECT_NE(s.message().find("libcuda.so.1"), std::string::npos);
  // The outcome is remembered.
  Status again;
  EXPECT_EQ(CudaDriver::get(again), nullptr);
  EXPECT_EQ(again.message(), s.message());
}

TEST(CudaDriver, StubLibraryIsNoDriver) {
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (access(stub, R_OK) != 0)
    GTEST_SKIP() << stub << " is not installed";
  if (realDriverPresent())
    GTEST_SKIP() << "a real driver is present";
  Status s;
  std::unique_ptr<CudaDriver> d = CudaDriver::load(stub, s);
  EXPECT_EQ(d, nullptr);
  EXPECT_EQ(s.code(), DGEMM_ERROR_NO_DRIVER);
  EXPECT_NE(s.message().find("cuInit failed with CUDA_ERROR_STUB_LIBRARY (34)"),
            std::string::npos)
      << s.message();
}

TEST(CudaDriver, ErrorNames) {
  EXPECT_STREQ(cudaErrorName(0), "CUDA_SUCCESS");
  EXPECT_STREQ(cudaErrorName(100), "CUDA_ERROR_NO_DEVICE");
  EXPECT_STREQ(cudaErrorName(218), "CUDA_ERROR_INVALID_PTX");
  EXPECT_STREQ(cudaErrorName(12345), "CUDA_ERROR_UNKNOWN_CODE");
}

TEST(CudaDriver, ComputeCapability) {
  EXPECT_EQ(checkComputeCapability(9, 0), "");
  EXPECT_EQ(checkComputeCapability(8, 0),
            "the device has compute capability 8.0 (sm_80); dgemm kernels "
            "need an sm_90 GPU (H100, H200, H800)");
  EXPECT_NE(checkComputeCapability(10, 0), "");
}

TEST(Status, NamesAndContext) {
  EXPECT_STREQ(statusName(DGEMM_ERROR_NO_DRIVER), "DGEMM_ERROR_NO_DRIVER");
  Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_TRUE(ok.withContext("x").ok());
  Status e = Status::error(DGEMM_ERROR_CUDA, "boom").withContext("kernel k");
  EXPECT_EQ(e.code(), DGEMM_ERROR_CUDA);
  EXPECT_EQ(e.message(), "kernel k: boom");
  // An "error" with code OK is still an error.
  EXPECT_EQ(Status::error(DGEMM_OK, "x").code(), DGEMM_ERROR_INTERNAL);
}

} // namespace
