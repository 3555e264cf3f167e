//===- ValidOperands.h - Valid operands of each C API GEMM -----*- C++ -*-===//
//
// The baseline operands the bad-input rows edit (one field at a time), the
// bound-call rows bind and the C API tests call with: valid for their entry
// point, with addresses that nothing dereferences (the stand-in driver, or
// no driver at all).
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_UNITTESTS_VALIDOPERANDS_H
#define DGEMM_UNITTESTS_VALIDOPERANDS_H

#include "TensorTestHelpers.h"

#include "dgemm-c/Runtime.h"

namespace dgemm::test {

/// dgemm_gemm_fp8_bf16_nt: M = 197, N = 224, K = 256.
struct Gemm {
  dgemm_tensor a = matrix(0x100000, DGEMM_DTYPE_F8E4M3, 197, 256, 256);
  dgemm_tensor sa = matrix(0x200000, DGEMM_DTYPE_F32, 197, 2, 1, 200);
  dgemm_tensor b = matrix(0x300000, DGEMM_DTYPE_F8E4M3, 224, 256, 256);
  dgemm_tensor sb = matrix(0x400000, DGEMM_DTYPE_F32, 2, 2, 2);
  dgemm_tensor d = matrix(0x500000, DGEMM_DTYPE_BF16, 197, 224, 224);

  /// The plain call on these operands (default stream).
  dgemm_status run() const {
    return dgemm_gemm_fp8_bf16_nt(&a, &sa, &b, &sb, &d, nullptr);
  }
};

/// The contiguous layout: G = 3, M_sum = 384, N = 200, K = 256.
struct Contiguous {
  dgemm_tensor a = dense(0x100000, DGEMM_DTYPE_F8E4M3, {384, 256});
  dgemm_tensor sa = matrix(0x200000, DGEMM_DTYPE_F32, 384, 2, 1, 384);
  dgemm_tensor b = dense(0x300000, DGEMM_DTYPE_F8E4M3, {3, 200, 256});
  dgemm_tensor sb = dense(0x400000, DGEMM_DTYPE_F32, {3, 2, 2});
  dgemm_tensor idx = dense(0x500000, DGEMM_DTYPE_I32, {384});
  dgemm_tensor d = dense(0x600000, DGEMM_DTYPE_BF16, {384, 200});
};

/// The masked layout: G = 2, M_max = 70, N = 136, K = 384.
struct Masked {
  dgemm_tensor a = dense(0x100000, DGEMM_DTYPE_F8E4M3, {2, 70, 384});
  dgemm_tensor sa = [] {
    dgemm_tensor t = dense(0x200000, DGEMM_DTYPE_F32, {2, 70, 3});
    t.strides[0] = 72 * 3;
    t.strides[1] = 1;
    t.strides[2] = 72;
    return t;
  }();
  dgemm_tensor b = dense(0x300000, DGEMM_DTYPE_F8E4M3, {2, 136, 384});
  dgemm_tensor sb = dense(0x400000, DGEMM_DTYPE_F32, {2, 2, 3});
  dgemm_tensor mm = dense(0x500000, DGEMM_DTYPE_I32, {2});
  dgemm_tensor d = dense(0x600000, DGEMM_DTYPE_BF16, {2, 70, 136});
  int64_t expectedM = 64;
};

/// The weight-gradient GEMM: M = 197, N = 224, K = 256.
struct Wgrad {
  dgemm_tensor a = dense(0x100000, DGEMM_DTYPE_F8E4M3, {197, 256});
  dgemm_tensor sa = matrix(0x200000, DGEMM_DTYPE_F32, 197, 2, 1, 200);
  dgemm_tensor b = dense(0x300000, DGEMM_DTYPE_F8E4M3, {224, 256});
  dgemm_tensor sb = matrix(0x400000, DGEMM_DTYPE_F32, 224, 2, 1, 224);
  dgemm_tensor d = dense(0x500000, DGEMM_DTYPE_F32, {197, 224});
};

} // namespace dgemm::test

#endif // DGEMM_UNITTESTS_VALIDOPERANDS_H
