//===- CudaDriver.cpp - The CUDA driver, loaded with dlopen ---------------===//
//
// Opens libcuda.so.1 with dlopen (RTLD_LOCAL: the driver's symbols stay out
// of the global namespace), resolves each entry point by its cuda.h name
// with dlsym, and runs cuInit. The process-wide instance is created once and
// kept for the life of the process, as is the reason it could not be.
// DGEMM_CUDA_DRIVER=<path> loads another library in its place (the tests'
// stand-in driver, unittests/StandInDriver/); unset or empty, libcuda.so.1.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/CudaDriver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

using namespace dgemm::runtime;
using namespace dgemm::cuda;

namespace {

struct ErrorInfo {
  CUresult code;
  const char *name;
  const char *description;
};

/// The codes a user is likely to meet, for when the driver cannot name them
/// (a stub library answers every call with CUDA_ERROR_STUB_LIBRARY).
constexpr ErrorInfo kErrors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "driver not initialized"},
    {4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {34, "CUDA_ERROR_STUB_LIBRARY",
     "the CUDA driver is a stub library, not a real driver"},
    {35, "CUDA_ERROR_INSUFFICIENT_DRIVER",
     "the installed NVIDIA driver is older than the CUDA driver library"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE",
     "CUDA-capable device busy or "
     "unavailable"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image for the device"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "PTX JIT compiler not found"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
     "the PTX was compiled with an unsupported toolchain"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was "
     "encountered"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested "
     "for launch"},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "context is destroyed"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
     "system has unsupported display driver / cuda driver combination"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
     "forward compatibility was attempted on non supported hardware"},
    {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE", "invalid cluster size"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

const ErrorInfo *findError(CUresult code) {
  for (const ErrorInfo &e : kErrors)
    if (e.code == code)
      return &e;
  return nullptr;
}

template <typename Fn> bool resolve(void *handle, const char *name, Fn &fn) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  return fn != nullptr;
}

} // namespace

const char *dgemm::runtime::cudaErrorName(CUresult result) {
  const ErrorInfo *e = findError(result);
  return e ? e->name : "CUDA_ERROR_UNKNOWN_CODE";
}

std::string CudaDriver::libraryPath() {
  const char *path = std::getenv("DGEMM_CUDA_DRIVER");
  return path && *path ? path : kDefaultLibrary;
}

CudaDriver::~CudaDriver() {
  if (handle_)
    dlclose(handle_);
}

std::unique_ptr<CudaDriver> CudaDriver::load(const std::string &library,
                                             Status &status) {
  // dlerror() text is per thread; clear a stale one first.
  dlerror();
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    status = Status::error(
        DGEMM_ERROR_NO_DRIVER,
        "cannot load the CUDA driver library " + library + " (" +
            (why ? why : "unknown dlopen error") +
            "): launching dgemm kernels needs the NVIDIA driver and a GPU; "
            "compiling to PTX works without them");
    return nullptr;
  }
  std::unique_ptr<CudaDriver> d(new CudaDriver());
  d->handle_ = handle;

  const char *missing = nullptr;
  auto need = [&](const char *name, auto &fn) {
    if (!missing && !resolve(handle, name, fn))
      missing = name;
  };
  need("cuInit", d->cuInit);
  need("cuDriverGetVersion", d->cuDriverGetVersion);
  need("cuGetErrorName", d->cuGetErrorName);
  need("cuGetErrorString", d->cuGetErrorString);
  need("cuDeviceGet", d->cuDeviceGet);
  need("cuDeviceGetCount", d->cuDeviceGetCount);
  need("cuDeviceGetAttribute", d->cuDeviceGetAttribute);
  need("cuCtxGetCurrent", d->cuCtxGetCurrent);
  need("cuCtxSetCurrent", d->cuCtxSetCurrent);
  need("cuCtxGetDevice", d->cuCtxGetDevice);
  need("cuDevicePrimaryCtxRetain", d->cuDevicePrimaryCtxRetain);
  need("cuModuleLoadDataEx", d->cuModuleLoadDataEx);
  need("cuModuleUnload", d->cuModuleUnload);
  need("cuModuleGetFunction", d->cuModuleGetFunction);
  need("cuFuncSetAttribute", d->cuFuncSetAttribute);
  need("cuFuncGetAttribute", d->cuFuncGetAttribute);
  need("cuLaunchKernelEx", d->cuLaunchKernelEx);
  need("cuOccupancyMaxActiveClusters", d->cuOccupancyMaxActiveClusters);
  need("cuTensorMapEncodeTiled", d->cuTensorMapEncodeTiled);
  need("cuMemAllocAsync", d->cuMemAllocAsync);
  need("cuMemFreeAsync", d->cuMemFreeAsync);
  (void)resolve(handle, "cuThreadExchangeStreamCaptureMode",
                d->cuThreadExchangeStreamCaptureMode);
  if (missing) {
    status = Status::error(DGEMM_ERROR_NO_DRIVER,
                           "the CUDA driver library " + library + " lacks " +
                               missing +
                               ": dgemm needs a driver for CUDA 12.0 or newer");
    return nullptr;
  }

  CUresult r = d->cuInit(0);
  if (r != CUDA_SUCCESS) {
    dgemm_status code = r == CUDA_ERROR_NO_DEVICE ? DGEMM_ERROR_NO_DEVICE
                                                  : DGEMM_ERROR_NO_DRIVER;
    status = Status::error(code, "cuInit failed with " + d->describe(r) +
                                     " (driver library " + library + ")");
    return nullptr;
  }
  int version = 0;
  if (d->cuDriverGetVersion(&version) == CUDA_SUCCESS)
    d->version_ = version;
  status = Status::success();
  return d;
}

const CudaDriver *CudaDriver::get(Status &status) {
  static std::once_flag once;
  static std::unique_ptr<CudaDriver> driver;
  static Status loadStatus;
  std::call_once(once, [] { driver = load(libraryPath(), loadStatus); });
  status = loadStatus;
  return driver.get();
}

std::string CudaDriver::describe(CUresult result) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName && cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (cuGetErrorString && cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = nullptr;
  const ErrorInfo *own = findError(result);
  if (!name)
    name = own ? own->name : "CUDA_ERROR_UNKNOWN_CODE";
  if (!text)
    text = own ? own->description : "no description";
  return std::string(name) + " (" + std::to_string(result) + "): " + text;
}

Status CudaDriver::check(CUresult result, const char *what) const {
  if (result == CUDA_SUCCESS)
    return Status::success();
  return Status::error(DGEMM_ERROR_CUDA,
                       std::string(what) + " failed: " + describe(result));
}
