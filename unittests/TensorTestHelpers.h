//===- TensorTestHelpers.h - Tensors for the unit tests ---------*- C++ -*-===//
//
// Builds the dgemm_tensor descriptors the tests pass to the runtime. Uses
// only the C API header (dgemm-c/Runtime.h) and inline code, so tests that
// link nothing but libdgemm.so's exported C API can include it too.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_UNITTESTS_TENSORTESTHELPERS_H
#define DGEMM_UNITTESTS_TENSORTESTHELPERS_H

#include "dgemm-c/Runtime.h"

#include <cstdint>
#include <vector>

namespace dgemm::test {

/// A rank-2 tensor at `address` (never dereferenced by the tests) of
/// `rows` x `cols` elements with the given strides in elements.
inline dgemm_tensor matrix(uintptr_t address, dgemm_dtype dtype, int64_t rows,
                           int64_t cols, int64_t rowStride,
                           int64_t colStride = 1) {
  dgemm_tensor t{};
  t.data = reinterpret_cast<void *>(address);
  t.dtype = dtype;
  t.rank = 2;
  t.shape[0] = rows;
  t.shape[1] = cols;
  t.strides[0] = rowStride;
  t.strides[1] = colStride;
  return t;
}

/// A dense row-major tensor of any rank (up to 4) at `address`.
inline dgemm_tensor dense(uintptr_t address, dgemm_dtype dtype,
                          std::vector<int64_t> shape) {
  dgemm_tensor t{};
  t.data = reinterpret_cast<void *>(address);
  t.dtype = dtype;
  t.rank = static_cast<int32_t>(shape.size());
  int64_t stride = 1;
  for (int i = t.rank - 1; i >= 0; --i) {
    t.shape[i] = shape[i];
    t.strides[i] = stride;
    stride *= shape[i];
  }
  return t;
}

} // namespace dgemm::test

#endif // DGEMM_UNITTESTS_TENSORTESTHELPERS_H
