//===- BoundCall.h - A GEMM call bound to its operands ----------*- C++ -*-===//
//
// The C API's dgemm_bind_* functions do everything a call does (validation,
// config, compile or cache hit, module load, tensor map encoding) except the
// launch, and keep the result: the loaded kernel, its grid and its encoded
// parameters. Launching a bound call is then one cuCtxGetCurrent and one
// cuLaunchKernelEx: the smallest host overhead a repeated GEMM on the same
// tensors can have (serving loops, the Python warm path).
//
// A bound call is made by running the normal entry point under a
// BoundCallCapture: the runtime's launch step records into the capture's
// call instead of launching (one recorded launch per call).
//
// A bound call stays valid while its tensors do (it holds their addresses)
// and launches only in the context it was bound in (or, on a thread with no
// current context, makes that one current for the launch) and under the SM
// limit it was bound with; otherwise its launch fails with
// DGEMM_ERROR_STALE_BINDING and the plain call is the way.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_BOUNDCALL_H
#define DGEMM_RUNTIME_BOUNDCALL_H

#include "dgemm/Runtime/Launcher.h"

#include <memory>

namespace dgemm::runtime {

struct BoundCall {
  const CudaDriver *driver = nullptr;
  cuda::CUcontext context = nullptr;
  /// dgemm_set_num_sms's limit when bound.
  int64_t smLimit = 0;
  /// Null when the call launches nothing (M = 0, K = 0 of a weight gradient).
  std::shared_ptr<const LoadedKernel> loaded;
  LaunchGrid grid;
  KernelParams params;

  /// Launches on `stream`; `smLimitNow` is the current SM limit.
  Status launch(void *stream, int64_t smLimitNow);
};

/// While one lives on a thread, launches there are recorded into `call`.
class BoundCallCapture {
public:
  explicit BoundCallCapture(BoundCall &call);
  ~BoundCallCapture();
  BoundCallCapture(const BoundCallCapture &) = delete;
  BoundCallCapture &operator=(const BoundCallCapture &) = delete;

  /// The thread's capture, or null.
  static BoundCallCapture *active();
  /// Records a launch (INTERNAL if one was recorded already).
  Status record(const CudaDriver &driver, cuda::CUcontext context,
                int64_t smLimit, std::shared_ptr<const LoadedKernel> loaded,
                const LaunchGrid &grid, KernelParams &&params);

private:
  BoundCall &call_;
  BoundCallCapture *outer_;
  bool recorded_ = false;
};

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_BOUNDCALL_H
