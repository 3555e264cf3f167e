//===- CudaDriver.h - The CUDA driver, loaded with dlopen -------*- C++ -*-===//
//
// dgemm never links libcuda: CudaDriver opens libcuda.so.1 at run time,
// resolves the entry points the runtime calls and runs cuInit. A machine
// without a driver gets DGEMM_ERROR_NO_DRIVER with a message saying so (and
// everything that does not launch kernels keeps working). `check` is the one
// helper that turns a CUresult into a Status naming the failed call.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_CUDADRIVER_H
#define DGEMM_RUNTIME_CUDADRIVER_H

#include "dgemm/Runtime/CudaTypes.h"
#include "dgemm/Runtime/Status.h"

#include <memory>
#include <string>

namespace dgemm::runtime {

class CudaDriver {
public:
  /// The library the process-wide driver is loaded from.
  static constexpr const char *kDefaultLibrary = "libcuda.so.1";

  /// The library get() loads: $DGEMM_CUDA_DRIVER when set and not empty (a
  /// stand-in driver for tests), else kDefaultLibrary.
  static std::string libraryPath();

  /// The process-wide driver, loaded and initialized (cuInit) on first use.
  /// On failure returns null and sets `status` (NO_DRIVER, or NO_DEVICE when
  /// cuInit finds no device); the outcome is remembered for the process.
  static const CudaDriver *get(Status &status);

  /// Loads a driver from `library` and runs cuInit(0). Used by get() and by
  /// tests (a missing or stub library). Null with `status` set on failure.
  static std::unique_ptr<CudaDriver> load(const std::string &library,
                                          Status &status);

  ~CudaDriver();
  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;

  /// OK for CUDA_SUCCESS; otherwise DGEMM_ERROR_CUDA with
  /// "<what> failed: CUDA_ERROR_<NAME> (<code>): <description>".
  Status check(cuda::CUresult result, const char *what) const;

  /// "CUDA_ERROR_<NAME> (<code>): <description>", from the driver when it
  /// knows the code, else from dgemm's own table.
  std::string describe(cuda::CUresult result) const;

  /// The driver's CUDA version (e.g. 13000), 0 when unknown.
  int version() const { return version_; }

  // Entry points (signatures as in cuda.h).
  cuda::CUresult (*cuInit)(unsigned int) = nullptr;
  cuda::CUresult (*cuDriverGetVersion)(int *) = nullptr;
  cuda::CUresult (*cuGetErrorName)(cuda::CUresult, const char **) = nullptr;
  cuda::CUresult (*cuGetErrorString)(cuda::CUresult, const char **) = nullptr;
  cuda::CUresult (*cuDeviceGet)(cuda::CUdevice *, int) = nullptr;
  cuda::CUresult (*cuDeviceGetCount)(int *) = nullptr;
  cuda::CUresult (*cuDeviceGetAttribute)(int *, cuda::CUdevice_attribute,
                                         cuda::CUdevice) = nullptr;
  cuda::CUresult (*cuCtxGetCurrent)(cuda::CUcontext *) = nullptr;
  cuda::CUresult (*cuCtxSetCurrent)(cuda::CUcontext) = nullptr;
  cuda::CUresult (*cuCtxGetDevice)(cuda::CUdevice *) = nullptr;
  cuda::CUresult (*cuDevicePrimaryCtxRetain)(cuda::CUcontext *,
                                             cuda::CUdevice) = nullptr;
  cuda::CUresult (*cuModuleLoadDataEx)(cuda::CUmodule *, const void *,
                                       unsigned int, cuda::CUjit_option *,
                                       void **) = nullptr;
  cuda::CUresult (*cuModuleUnload)(cuda::CUmodule) = nullptr;
  cuda::CUresult (*cuModuleGetFunction)(cuda::CUfunction *, cuda::CUmodule,
                                        const char *) = nullptr;
  cuda::CUresult (*cuFuncSetAttribute)(cuda::CUfunction,
                                       cuda::CUfunction_attribute,
                                       int) = nullptr;
  cuda::CUresult (*cuFuncGetAttribute)(int *, cuda::CUfunction_attribute,
                                       cuda::CUfunction) = nullptr;
  cuda::CUresult (*cuLaunchKernelEx)(const cuda::CUlaunchConfig *,
                                     cuda::CUfunction, void **,
                                     void **) = nullptr;
  cuda::CUresult (*cuOccupancyMaxActiveClusters)(
      int *, cuda::CUfunction, const cuda::CUlaunchConfig *) = nullptr;
  cuda::CUresult (*cuTensorMapEncodeTiled)(
      cuda::CUtensorMap *, cuda::CUtensorMapDataType, uint32_t, void *,
      const uint64_t *, const uint64_t *, const uint32_t *, const uint32_t *,
      cuda::CUtensorMapInterleave, cuda::CUtensorMapSwizzle,
      cuda::CUtensorMapL2promotion, cuda::CUtensorMapFloatOOBfill) = nullptr;
  /// Stream-ordered device memory (a launch's workspace).
  cuda::CUresult (*cuMemAllocAsync)(cuda::CUdeviceptr *, size_t,
                                    cuda::CUstream) = nullptr;
  cuda::CUresult (*cuMemFreeAsync)(cuda::CUdeviceptr, cuda::CUstream) = nullptr;
  /// Optional (null when the driver lacks it): lets a module be loaded
  /// while the thread's stream is being captured into a CUDA graph.
  cuda::CUresult (*cuThreadExchangeStreamCaptureMode)(
      cuda::CUstreamCaptureMode *) = nullptr;

private:
  CudaDriver() = default;
  void *handle_ = nullptr;
  int version_ = 0;
};

/// dgemm's own name and description of a CUresult (for codes the driver
/// cannot describe, e.g. from a stub library); "CUDA_ERROR_UNKNOWN_CODE"
/// for codes it does not know.
const char *cudaErrorName(cuda::CUresult result);

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_CUDADRIVER_H
