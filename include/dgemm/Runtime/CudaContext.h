//===- CudaContext.h - The context and device a call runs on ----*- C++ -*-===//
//
// A call runs in the caller's current CUDA context; a thread that has none
// gets device 0's primary context (retained once per process, never
// released) for the duration of the call. The device behind the context must
// be an sm_90 GPU (H100/H200/H800); its SM count and opt-in shared memory are
// the target the kernel config is chosen for.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_CUDACONTEXT_H
#define DGEMM_RUNTIME_CUDACONTEXT_H

#include "dgemm/Runtime/CudaDriver.h"

namespace dgemm::runtime {

/// What the runtime needs to know about a device.
struct DeviceInfo {
  cuda::CUdevice device = 0;
  int ccMajor = 0;
  int ccMinor = 0;
  int numSMs = 0;
  /// Dynamic shared memory one block may opt in to.
  int smemPerBlockOptin = 0;
};

/// Makes the caller's current context, or device 0's primary one, current
/// for its lifetime, and checks the device. Check status() before use.
class ScopedContext {
public:
  explicit ScopedContext(const CudaDriver &driver);
  ~ScopedContext();
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

  /// OK, or why there is no usable context (NO_DEVICE for a missing or
  /// non-sm_90 device, CUDA for a failed driver call).
  const Status &status() const { return status_; }
  cuda::CUcontext context() const { return context_; }
  const DeviceInfo &device() const { return device_; }

private:
  const CudaDriver &driver_;
  Status status_;
  cuda::CUcontext context_ = nullptr;
  bool restoreNull_ = false;
  DeviceInfo device_;
};

/// Reads `device`'s attributes (cached per device) and checks that it is an
/// sm_90 device: NO_DEVICE otherwise, with its compute capability.
Status queryDevice(const CudaDriver &driver, cuda::CUdevice device,
                   DeviceInfo &info);

/// The rule queryDevice applies, without a driver: empty when a device of
/// compute capability major.minor runs dgemm kernels, else why not.
std::string checkComputeCapability(int major, int minor);

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_CUDACONTEXT_H
