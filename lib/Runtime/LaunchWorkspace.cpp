//===- LaunchWorkspace.cpp - Device memory for one launch -----------------===//
//
// Stream-ordered allocation from the device's default memory pool; see
// LaunchWorkspace.h for why stream order makes it safe.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/LaunchWorkspace.h"

using namespace dgemm::runtime;

LaunchWorkspace::~LaunchWorkspace() {
  if (address_)
    (void)driver_.cuMemFreeAsync(address_, stream_);
}

Status LaunchWorkspace::allocate(uint64_t bytes, uint64_t &address) {
  if (address_ || bytes == 0)
    return Status::internal("a launch workspace is allocated once, with at "
                            "least one byte");
  Status s = driver_.check(driver_.cuMemAllocAsync(&address_, bytes, stream_),
                           "cuMemAllocAsync");
  if (!s.ok()) {
    address_ = 0;
    return s.withContext("the kernel's workspace of " + std::to_string(bytes) +
                         " bytes");
  }
  address = address_;
  return Status::success();
}
