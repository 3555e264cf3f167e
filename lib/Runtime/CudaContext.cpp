//===- CudaContext.cpp - The context and device a call runs on ------------===//
//
// The scoped context guard and the per-device attribute cache. Primary
// contexts are retained once per device and kept for the process: retaining
// and releasing them around every call would tear the context down whenever
// the caller holds no other reference.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/CudaContext.h"

#include <map>
#include <mutex>

using namespace dgemm::runtime;
using namespace dgemm::cuda;

namespace {

std::mutex &deviceMutex() {
  static std::mutex m;
  return m;
}

/// `device`'s primary context, retained on first use and kept.
Status primaryContext(const CudaDriver &driver, CUdevice device,
                      CUcontext &out) {
  static std::map<CUdevice, CUcontext> retained;
  std::lock_guard<std::mutex> lock(deviceMutex());
  auto it = retained.find(device);
  if (it != retained.end()) {
    out = it->second;
    return Status::success();
  }
  CUcontext ctx = nullptr;
  Status s = driver.check(driver.cuDevicePrimaryCtxRetain(&ctx, device),
                          "cuDevicePrimaryCtxRetain");
  if (!s.ok())
    return s;
  retained[device] = ctx;
  out = ctx;
  return Status::success();
}

} // namespace

std::string dgemm::runtime::checkComputeCapability(int major, int minor) {
  if (major == 9 && minor == 0)
    return "";
  return "the device has compute capability " + std::to_string(major) + "." +
         std::to_string(minor) + " (sm_" + std::to_string(major) +
         std::to_string(minor) +
         "); dgemm kernels need an sm_90 GPU (H100, H200, H800)";
}

Status dgemm::runtime::queryDevice(const CudaDriver &driver, CUdevice device,
                                   DeviceInfo &info) {
  static std::map<CUdevice, DeviceInfo> cache;
  {
    std::lock_guard<std::mutex> lock(deviceMutex());
    auto it = cache.find(device);
    if (it != cache.end()) {
      info = it->second;
      std::string why = checkComputeCapability(info.ccMajor, info.ccMinor);
      if (!why.empty())
        return Status::error(DGEMM_ERROR_NO_DEVICE, why);
      return Status::success();
    }
  }
  DeviceInfo d;
  d.device = device;
  struct {
    CUdevice_attribute attr;
    int *value;
    const char *name;
  } queries[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &d.ccMajor,
       "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)"},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &d.ccMinor,
       "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)"},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &d.numSMs,
       "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)"},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       &d.smemPerBlockOptin,
       "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)"},
  };
  for (auto &q : queries) {
    Status s = driver.check(
        driver.cuDeviceGetAttribute(q.value, q.attr, device), q.name);
    if (!s.ok())
      return s;
  }
  {
    std::lock_guard<std::mutex> lock(deviceMutex());
    cache[device] = d;
  }
  info = d;
  std::string why = checkComputeCapability(d.ccMajor, d.ccMinor);
  if (!why.empty())
    return Status::error(DGEMM_ERROR_NO_DEVICE, why);
  return Status::success();
}

ScopedContext::ScopedContext(const CudaDriver &driver) : driver_(driver) {
  CUcontext current = nullptr;
  status_ = driver.check(driver.cuCtxGetCurrent(&current), "cuCtxGetCurrent");
  if (!status_.ok())
    return;
  if (!current) {
    int count = 0;
    status_ = driver.check(driver.cuDeviceGetCount(&count), "cuDeviceGetCount");
    if (!status_.ok())
      return;
    if (count < 1) {
      status_ = Status::error(DGEMM_ERROR_NO_DEVICE,
                              "no CUDA device is visible (check "
                              "CUDA_VISIBLE_DEVICES)");
      return;
    }
    CUdevice device0 = 0;
    status_ = driver.check(driver.cuDeviceGet(&device0, 0), "cuDeviceGet(0)");
    if (!status_.ok())
      return;
    status_ = primaryContext(driver, device0, current);
    if (!status_.ok())
      return;
    status_ = driver.check(driver.cuCtxSetCurrent(current), "cuCtxSetCurrent");
    if (!status_.ok())
      return;
    restoreNull_ = true;
  }
  context_ = current;
  CUdevice device = 0;
  status_ = driver.check(driver.cuCtxGetDevice(&device), "cuCtxGetDevice");
  if (!status_.ok())
    return;
  status_ = queryDevice(driver, device, device_);
}

ScopedContext::~ScopedContext() {
  // The thread had no context before: leave it as it was.
  if (restoreNull_)
    (void)driver_.cuCtxSetCurrent(nullptr);
}
