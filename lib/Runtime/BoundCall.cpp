//===- BoundCall.cpp - A GEMM call bound to its operands ------------------===//
//
// See BoundCall.h: the recorded launch of a dgemm_bind_* call, and its
// launch with the context and SM-limit checks that keep it honest.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/BoundCall.h"

#include "dgemm-c/Runtime.h"

using namespace dgemm;
using namespace dgemm::runtime;

namespace {
thread_local BoundCallCapture *activeCapture = nullptr;
} // namespace

BoundCallCapture::BoundCallCapture(BoundCall &call)
    : call_(call), outer_(activeCapture) {
  activeCapture = this;
}

BoundCallCapture::~BoundCallCapture() { activeCapture = outer_; }

BoundCallCapture *BoundCallCapture::active() { return activeCapture; }

Status BoundCallCapture::record(const CudaDriver &driver,
                                cuda::CUcontext context, int64_t smLimit,
                                std::shared_ptr<const LoadedKernel> loaded,
                                const LaunchGrid &grid,
                                KernelParams &&params) {
  if (recorded_)
    return Status::error(DGEMM_ERROR_INTERNAL,
                         "a bound call records one launch, this call made two");
  recorded_ = true;
  call_.driver = &driver;
  call_.context = context;
  call_.smLimit = smLimit;
  call_.loaded = std::move(loaded);
  call_.grid = grid;
  // The parameter pointers point into the vectors' buffers, which a move
  // keeps.
  call_.params = std::move(params);
  return Status::success();
}

Status BoundCall::launch(void *stream, int64_t smLimitNow) {
  if (!loaded)
    return Status::success();
  if (smLimitNow != smLimit)
    return Status::error(DGEMM_ERROR_STALE_BINDING,
                         "dgemm_set_num_sms changed the SM limit since the "
                         "call was bound (" +
                             std::to_string(smLimit) + ", now " +
                             std::to_string(smLimitNow) + "): bind it again");
  cuda::CUcontext current = nullptr;
  Status s = driver->check(driver->cuCtxGetCurrent(&current), "cuCtxGetCurrent");
  if (!s.ok())
    return s;
  if (current == context)
    return launchKernel(*driver, *loaded, grid, params.pointers(),
                        static_cast<cuda::CUstream>(stream));
  if (current)
    return Status::error(DGEMM_ERROR_STALE_BINDING,
                         "the call was bound in another CUDA context than the "
                         "thread's current one");
  // No current context: the one of the binding, for this launch only (as the
  // plain call makes device 0's primary context current and restores none).
  if (!(s = driver->check(driver->cuCtxSetCurrent(context), "cuCtxSetCurrent"))
           .ok())
    return s;
  s = launchKernel(*driver, *loaded, grid, params.pointers(),
                   static_cast<cuda::CUstream>(stream));
  (void)driver->cuCtxSetCurrent(nullptr);
  return s;
}
