//===- LaunchWorkspace.h - Device memory for one launch ---------*- C++ -*-===//
//
// A kernel's workspace parameter (docs/launch-contract.md): device memory
// allocated on the launch's stream before it (cuMemAllocAsync) and freed on
// that stream after it (cuMemFreeAsync). Stream order keeps it private to
// the launch: launches on other streams get their own, the next launch on
// the same stream may reuse it only once this one is done, and a CUDA graph
// capture records the pair as allocation and free nodes.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_LAUNCHWORKSPACE_H
#define DGEMM_RUNTIME_LAUNCHWORKSPACE_H

#include "dgemm/Runtime/CudaDriver.h"
#include "dgemm/Runtime/Status.h"

namespace dgemm::runtime {

class LaunchWorkspace {
public:
  LaunchWorkspace(const CudaDriver &driver, cuda::CUstream stream)
      : driver_(driver), stream_(stream) {}
  /// Frees the memory on the stream (after the launch queued before).
  ~LaunchWorkspace();
  LaunchWorkspace(const LaunchWorkspace &) = delete;
  LaunchWorkspace &operator=(const LaunchWorkspace &) = delete;

  /// Allocates `bytes` (> 0) on the stream; one allocation per workspace.
  Status allocate(uint64_t bytes, uint64_t &address);

private:
  const CudaDriver &driver_;
  cuda::CUstream stream_;
  cuda::CUdeviceptr address_ = 0;
};

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_LAUNCHWORKSPACE_H
