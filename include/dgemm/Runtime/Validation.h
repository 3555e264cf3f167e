//===- Validation.h - Checking the tensors of a GEMM call -------*- C++ -*-===//
//
// The C API checks every tensor before it compiles or launches anything:
// dtype, rank, shapes that agree, K % 128, N % 8, the A-scale layout
// (MN-major, strides (1, S), S >= M, S % 4 == 0), the B-scale shape, 16-byte
// aligned base addresses and row strides. Each broken rule gives an
// INVALID_ARGUMENT whose message names the tensor and the rule.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_VALIDATION_H
#define DGEMM_RUNTIME_VALIDATION_H

#include "dgemm/Runtime/Status.h"

#include <cstdint>
#include <vector>

namespace dgemm::runtime {

/// The operands of a normal GEMM, in op order (the launch contract's operand
/// indices: A = 0, A scales = 1, B = 2, B scales = 3, D = 4).
struct GemmOperands {
  const dgemm_tensor *a = nullptr;
  const dgemm_tensor *aScale = nullptr;
  const dgemm_tensor *b = nullptr;
  const dgemm_tensor *bScale = nullptr;
  const dgemm_tensor *d = nullptr;
  /// dgemm_gemm_fp8_bf16_nt_bias only: the f32 bias [N] (the launch
  /// contract's operand 4, D then 5; not one of operand()'s five).
  const dgemm_tensor *bias = nullptr;

  static constexpr int kCount = 5;
  const dgemm_tensor *operand(int64_t i) const;
};

struct GemmShape {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
};

/// Checks the operands of dgemm_gemm_fp8_bf16_nt and returns M, N, K.
Status validateGemmFp8Bf16Nt(const GemmOperands &ops, GemmShape &shape);

/// Checks the bias of dgemm_gemm_fp8_bf16_nt_bias for a GEMM of `n` output
/// columns: f32, rank 1, [N], unit stride, 8-byte aligned (the kernel loads
/// column pairs).
Status validateGemmBias(const dgemm_tensor *bias, int64_t n);

/// Checks the operands of dgemm_wgrad_gemm_fp8_fp32_nt (D f32 [M, N], B
/// scales [N, K/128] MN-major like A's; K may be 0) and returns M, N, K.
Status validateWgradFp8Fp32Nt(const GemmOperands &ops, GemmShape &shape);

/// The operands of an m-grouped GEMM, in op order (the launch contract's
/// operand indices: A = 0, A scales = 1, B = 2, B scales = 3, groups = 4
/// (m_indices or masked_m), D = 5).
struct GroupedOperands {
  const dgemm_tensor *a = nullptr;
  const dgemm_tensor *aScale = nullptr;
  const dgemm_tensor *b = nullptr;
  const dgemm_tensor *bScale = nullptr;
  const dgemm_tensor *groups = nullptr;
  const dgemm_tensor *d = nullptr;
};

struct GroupedShape {
  /// Contiguous: M_sum; masked: M_max (rows per group).
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t groups = 0;
};

/// Checks the operands of the contiguous (`masked` false) or masked
/// m-grouped GEMM (docs/runtime.md states the rules) and returns the sizes.
/// `offsets`: the contiguous layout with offsets[G] (each group's end row)
/// as the groups tensor instead of m_indices[M_sum].
Status validateGroupedFp8Bf16Nt(const GroupedOperands &ops, bool masked,
                                GroupedShape &shape, bool offsets = false);

/// Sizes of a k-grouped GEMM call.
struct KGroupedShape {
  int64_t m = 0, n = 0, groups = 0;
  /// sum(k_g), and the k_g.
  int64_t sumK = 0;
  std::vector<int64_t> ks;
};

/// The most groups of the k-grouped GEMM: the kernel's group table (two
/// template maps and 8 bytes per group) is a kernel parameter; at 3984
/// groups the parameters take 32536 bytes, the most the H200's driver was
/// seen to load (the lowering's limit is the same; LowerToKernel.cpp).
constexpr int64_t kMaxKGroups = 3984;

/// Checks the operands of dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt (A, A
/// scales, B, B scales, D of `ops`; `groups` unused) and the host array `ks`
/// of `numGroups` K sizes (docs/runtime.md states the rules).
Status validateKGroupedFp8Fp32Nt(const GroupedOperands &ops, const int64_t *ks,
                                 int64_t numGroups, KGroupedShape &shape);

/// Name of a dtype ("e4m3", "bf16", ...) or "dtype <n>" for unknown values.
const char *dtypeName(int dtype);

/// A tensor's dtype field as the integer the caller stored: C and ctypes
/// callers may store any int there, and loading a C++ enum outside its
/// values is undefined, so the field is read as raw bytes.
int rawDtype(const dgemm_tensor &t);

/// Bytes of one element; 0 for an unknown dtype.
int64_t dtypeBytes(int dtype);

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_VALIDATION_H
