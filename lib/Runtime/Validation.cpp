//===- Validation.cpp - Checking the tensors of a GEMM call ---------------===//
//
// One check per rule, in the order a user would fix them: the tensor is
// there, has the right rank and dtype, sane sizes, shapes that agree, the
// problem's divisibility rules, strides, then addresses. The stride of a
// dimension of size 1 addresses nothing and is never checked (PyTorch
// leaves such strides arbitrary in some views), nor are the strides of an
// empty tensor.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/Validation.h"

#include <cstring>

#include <limits>
#include <string>

using namespace dgemm::runtime;

namespace {

constexpr int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();
/// cuTensorMapEncodeTiled: global strides below 2^40 bytes.
constexpr int64_t kMaxStrideBytes = int64_t(1) << 40;

/// True when `stride` elements of `bytes` bytes are 2^40 bytes or more
/// (TMA's limit), computed without overflowing int64.
bool strideTooLarge(int64_t stride, int64_t bytes) {
  return bytes > 0 && stride >= kMaxStrideBytes / bytes;
}

std::string str(int64_t v) { return std::to_string(v); }

std::string shapeText(const dgemm_tensor &t) {
  std::string s = "[";
  for (int32_t i = 0; i < t.rank && i < 4; ++i)
    s += (i ? ", " : "") + str(t.shape[i]);
  return s + "]";
}

std::string stridesText(const dgemm_tensor &t) {
  std::string s = "(";
  for (int32_t i = 0; i < t.rank && i < 4; ++i)
    s += (i ? ", " : "") + str(t.strides[i]);
  return s + ")";
}

Status checkTensor(const char *name, const dgemm_tensor *t, int32_t rank,
                   dgemm_dtype want, const char *layout);

/// A rank-2 operand: presence, rank, dtype and non-negative sizes and
/// strides.
Status checkBasics(const char *name, const dgemm_tensor *t, dgemm_dtype want,
                   const char *layout) {
  return checkTensor(name, t, 2, want, layout);
}

bool isEmpty(const dgemm_tensor &t) {
  return t.shape[0] == 0 || t.shape[1] == 0;
}

/// Any size 0, for a tensor of any rank (isEmpty reads two sizes: rank 2).
bool anyEmpty(const dgemm_tensor &t) {
  for (int i = 0; i < t.rank && i < 4; ++i)
    if (t.shape[i] == 0)
      return true;
  return false;
}

/// A row-major matrix with unit inner stride and a row stride of at least
/// the row length and a multiple of 16 bytes.
Status checkRowMajor(const char *name, const dgemm_tensor &t) {
  if (isEmpty(t))
    return Status::success();
  int64_t bytes = dtypeBytes(rawDtype(t));
  if (t.shape[1] > 1 && t.strides[1] != 1)
    return Status::invalidArgument(
        std::string(name) +
        " must have unit inner stride (row-major), got "
        "strides " +
        stridesText(t));
  if (t.shape[0] > 1) {
    if (t.strides[0] < t.shape[1])
      return Status::invalidArgument(
          std::string(name) + " has row stride " + str(t.strides[0]) +
          ", less than its row length " + str(t.shape[1]));
    if (strideTooLarge(t.strides[0], bytes))
      return Status::invalidArgument(std::string(name) + " has a row stride "
                                                         "of 2^40 bytes or "
                                                         "more");
    if ((t.strides[0] * bytes) % 16 != 0)
      return Status::invalidArgument(
          std::string(name) + " has a row stride of " +
          str(t.strides[0] * bytes) +
          " bytes; TMA needs a multiple of 16 bytes");
    if (t.strides[0] * bytes >= kMaxStrideBytes)
      return Status::invalidArgument(std::string(name) + " has a row stride "
                                                         "of 2^40 bytes or "
                                                         "more");
  }
  return Status::success();
}

/// A data pointer that is set and aligned, unless the tensor is empty (then
/// nothing is read or written through it). Any rank: the k-grouped GEMM's
/// flat A and B are rank 1 (an isEmpty here once read their unset second
/// size as 0 and let a NULL or misaligned pointer through).
Status checkAddress(const char *name, const dgemm_tensor &t,
                    int64_t alignment = 16) {
  if (anyEmpty(t))
    return Status::success();
  if (!t.data)
    return Status::invalidArgument(std::string(name) +
                                   " has a NULL data pointer");
  if (reinterpret_cast<uintptr_t>(t.data) % alignment != 0)
    return Status::invalidArgument(std::string(name) + " data address is not " +
                                   str(alignment) + "-byte aligned");
  return Status::success();
}

/// The GEMM operands' addresses in order (a, a_scale, b, b_scale, the
/// grouped GEMMs' group table, read as i32, then d): the first refused.
Status checkOperandAddresses(const dgemm_tensor &a, const dgemm_tensor &sa,
                             const dgemm_tensor &b, const dgemm_tensor &sb,
                             const dgemm_tensor &d,
                             const char *groupsName = nullptr,
                             const dgemm_tensor *groups = nullptr) {
  Status s;
  if ((s = checkAddress("a", a)).ok() &&
      (s = checkAddress("a_scale", sa)).ok() &&
      (s = checkAddress("b", b)).ok() &&
      (s = checkAddress("b_scale", sb)).ok() &&
      (!groups || (s = checkAddress(groupsName, *groups, 4)).ok()))
    s = checkAddress("d", d);
  return s;
}

} // namespace

const dgemm_tensor *GemmOperands::operand(int64_t i) const {
  switch (i) {
  case 0:
    return a;
  case 1:
    return aScale;
  case 2:
    return b;
  case 3:
    return bScale;
  case 4:
    return d;
  default:
    return nullptr;
  }
}

int dgemm::runtime::rawDtype(const dgemm_tensor &t) {
  static_assert(sizeof(t.dtype) == sizeof(int), "dgemm_dtype is an int");
  int raw;
  std::memcpy(&raw, &t.dtype, sizeof raw);
  return raw;
}

const char *dgemm::runtime::dtypeName(int dtype) {
  switch (dtype) {
  case DGEMM_DTYPE_F8E4M3:
    return "e4m3 (DGEMM_DTYPE_F8E4M3)";
  case DGEMM_DTYPE_F8E5M2:
    return "e5m2 (DGEMM_DTYPE_F8E5M2)";
  case DGEMM_DTYPE_BF16:
    return "bf16 (DGEMM_DTYPE_BF16)";
  case DGEMM_DTYPE_F32:
    return "f32 (DGEMM_DTYPE_F32)";
  case DGEMM_DTYPE_I32:
    return "i32 (DGEMM_DTYPE_I32)";
  default:
    return "an unknown dtype";
  }
}

int64_t dgemm::runtime::dtypeBytes(int dtype) {
  switch (dtype) {
  case DGEMM_DTYPE_F8E4M3:
  case DGEMM_DTYPE_F8E5M2:
    return 1;
  case DGEMM_DTYPE_BF16:
    return 2;
  case DGEMM_DTYPE_F32:
  case DGEMM_DTYPE_I32:
    return 4;
  default:
    return 0;
  }
}

namespace {
/// An MN-major scale tensor [R, K/128]: strides (1, S) with S >= R and
/// S % 4 == 0 (16-byte rows for TMA).
Status checkMNMajorScales(const char *name, const char *rows,
                          const dgemm_tensor &t, int64_t r, int64_t kBlocks) {
  if (r > 1 && t.strides[0] != 1)
    return Status::invalidArgument(
        std::string(name) + " must be MN-major: strides (1, S) with S >= " +
        rows + " and S % 4 == 0, got strides " + stridesText(t));
  if (kBlocks > 1 && r > 0) {
    int64_t stride = t.strides[1];
    if (stride < r || stride % 4 != 0 || strideTooLarge(stride, 4))
      return Status::invalidArgument(
          std::string(name) + " must be MN-major: strides (1, S) with S >= " +
          rows + " = " + str(r) +
          " and S % 4 == 0 (16-byte rows for TMA), got strides " +
          stridesText(t));
  }
  return Status::success();
}

/// The normal GEMM (`wgrad` false: bf16 D, 128x128 B scales) or the
/// weight-gradient one (f32 D, 1x128 B scales [N, K/128] MN-major; K = 0
/// allowed: nothing to add).
Status validateGemm(const GemmOperands &ops, bool wgrad, GemmShape &shape) {
  Status s = checkBasics("a", ops.a, DGEMM_DTYPE_F8E4M3, "[M, K]");
  if (s.ok())
    s = checkBasics("a_scale", ops.aScale, DGEMM_DTYPE_F32, "[M, K/128]");
  if (s.ok())
    s = checkBasics("b", ops.b, DGEMM_DTYPE_F8E4M3, "[N, K]");
  if (s.ok())
    s = checkBasics("b_scale", ops.bScale, DGEMM_DTYPE_F32,
                    wgrad ? "[N, K/128]" : "[ceil(N/128), K/128]");
  if (s.ok())
    s = checkBasics("d", ops.d, wgrad ? DGEMM_DTYPE_F32 : DGEMM_DTYPE_BF16,
                    "[M, N]");
  if (!s.ok())
    return s;
  const dgemm_tensor &a = *ops.a, &sa = *ops.aScale, &b = *ops.b,
                     &sb = *ops.bScale, &d = *ops.d;

  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[0];
  if (b.shape[1] != k)
    return Status::invalidArgument("b is [N, K] = " + shapeText(b) +
                                   " but a is [M, K] = " + shapeText(a) +
                                   ": K differs");
  if (d.shape[0] != m || d.shape[1] != n)
    return Status::invalidArgument("d must be [M, N] = [" + str(m) + ", " +
                                   str(n) + "], got " + shapeText(d));
  if ((wgrad && k == 0) ? false : (k < 128 || k % 128 != 0))
    return Status::invalidArgument(
        std::string("K must be a ") + (wgrad ? "" : "positive ") +
        "multiple of 128, got " + str(k));
  if (n < 8 || n % 8 != 0)
    return Status::invalidArgument(
        std::string("N must be a positive multiple of 8 ") +
        (wgrad ? "(the kernel's column groups)"
               : "for a BF16 output (16-byte rows)") +
        ", got " + str(n));
  int64_t kBlocks = k / 128;
  int64_t nBlocks = (n + 127) / 128;
  if (sa.shape[0] != m || sa.shape[1] != kBlocks)
    return Status::invalidArgument(
        "a_scale must be [M, K/128] = [" + str(m) + ", " + str(kBlocks) +
        "] (one f32 per row per 128 K-values), got " + shapeText(sa));
  if (wgrad && (sb.shape[0] != n || sb.shape[1] != kBlocks))
    return Status::invalidArgument(
        "b_scale must be [N, K/128] = [" + str(n) + ", " + str(kBlocks) +
        "] (one f32 per row of b per 128 K-values), got " + shapeText(sb));
  if (!wgrad && (sb.shape[0] != nBlocks || sb.shape[1] != kBlocks))
    return Status::invalidArgument(
        "b_scale must be [ceil(N/128), K/128] = [" + str(nBlocks) + ", " +
        str(kBlocks) + "] (one f32 per 128x128 block), got " + shapeText(sb));

  // Strides.
  if ((s = checkRowMajor("a", a)).ok() && (s = checkRowMajor("b", b)).ok())
    s = checkRowMajor("d", d);
  if (!s.ok())
    return s;
  if (!(s = checkMNMajorScales("a_scale", "M", sa, m, kBlocks)).ok())
    return s;
  if (wgrad) {
    if (!(s = checkMNMajorScales("b_scale", "N", sb, n, kBlocks)).ok())
      return s;
  } else if ((kBlocks > 1 && sb.strides[1] != 1) ||
             (nBlocks > 1 && sb.strides[0] != kBlocks))
    return Status::invalidArgument("b_scale must be contiguous: strides (" +
                                   str(kBlocks) + ", 1), got strides " +
                                   stridesText(sb));

  if (!(s = checkOperandAddresses(a, sa, b, sb, d)).ok())
    return s;

  shape.m = m;
  shape.n = n;
  shape.k = k;
  return Status::success();
}
} // namespace

Status dgemm::runtime::validateGemmFp8Bf16Nt(const GemmOperands &ops,
                                             GemmShape &shape) {
  return validateGemm(ops, /*wgrad=*/false, shape);
}

Status dgemm::runtime::validateWgradFp8Fp32Nt(const GemmOperands &ops,
                                              GemmShape &shape) {
  return validateGemm(ops, /*wgrad=*/true, shape);
}

//===----------------------------------------------------------------------===//
// m-grouped GEMMs
//===----------------------------------------------------------------------===//

namespace {

/// Presence, rank, dtype, sizes in [0, 2^31) and non-negative strides, for
/// any rank up to 4.
Status checkTensor(const char *name, const dgemm_tensor *t, int32_t rank,
                   dgemm_dtype want, const char *layout) {
  if (!t)
    return Status::invalidArgument(std::string(name) + " is NULL");
  if (t->rank != rank)
    return Status::invalidArgument(std::string(name) + " must have rank " +
                                   str(rank) + " (" + layout + "), got rank " +
                                   str(t->rank));
  if (int dtype = rawDtype(*t); dtype != static_cast<int>(want))
    return Status::invalidArgument(std::string(name) + " must be " +
                                   dtypeName(want) + ", got " +
                                   dtypeName(dtype));
  for (int i = 0; i < rank; ++i) {
    if (t->shape[i] < 0 || t->shape[i] > kMaxInt32)
      return Status::invalidArgument(std::string(name) + " has shape " +
                                     shapeText(*t) +
                                     ": sizes must be in [0, 2147483647]");
    if (t->strides[i] < 0)
      return Status::invalidArgument(std::string(name) + " has strides " +
                                     stridesText(*t) +
                                     ": strides must be non-negative");
  }
  return Status::success();
}

/// Strides that are exactly the dense row-major ones (dimensions of size 1
/// may have any stride).
bool isDense(const dgemm_tensor &t) {
  if (anyEmpty(t))
    return true; // nothing is addressed
  __int128 want = 1; // sizes < 2^31: the product of 4 fits
  for (int i = t.rank - 1; i >= 0; --i) {
    if (t.shape[i] > 1 && t.strides[i] != want)
      return false;
    want *= t.shape[i];
  }
  return true;
}

/// A [G, R, C] tensor read through a 3-D tensor map: unit inner stride, a
/// row stride >= C and a group stride >= R * row stride, both multiples of
/// 16 bytes.
Status checkGroupedRows(const char *name, const dgemm_tensor &t) {
  if (anyEmpty(t))
    return Status::success();
  int64_t bytes = dtypeBytes(rawDtype(t));
  if (t.shape[2] > 1 && t.strides[2] != 1)
    return Status::invalidArgument(std::string(name) +
                                   " must have unit inner stride, got strides " +
                                   stridesText(t));
  int64_t row = t.shape[1] > 1 ? t.strides[1] : t.shape[2];
  if (t.shape[1] > 1 && t.strides[1] < t.shape[2])
    return Status::invalidArgument(std::string(name) + " has row stride " +
                                   str(t.strides[1]) +
                                   ", less than its row length " +
                                   str(t.shape[2]));
  for (int i : {0, 1})
    if (t.shape[i] > 1 && strideTooLarge(t.strides[i], bytes))
      return Status::invalidArgument(
          std::string(name) + " has a stride of 2^40 bytes or more in "
          "dimension " + str(i) + "; TMA needs a multiple of 16 bytes below "
          "2^40");
  if (t.shape[0] > 1 &&
      t.strides[0] < static_cast<__int128>(t.shape[1]) * row)
    return Status::invalidArgument(
        std::string(name) + " has group stride " + str(t.strides[0]) +
        ", less than rows x row stride = " + str(t.shape[1] * row) +
        " (groups would overlap)");
  for (int i : {0, 1})
    if (t.shape[i] > 1 && ((t.strides[i] * bytes) % 16 != 0 ||
                           t.strides[i] * bytes >= kMaxStrideBytes))
      return Status::invalidArgument(
          std::string(name) + " has a stride of " +
          str(t.strides[i] * bytes) + " bytes in dimension " + str(i) +
          "; TMA needs a multiple of 16 bytes below 2^40");
  return Status::success();
}

} // namespace

Status dgemm::runtime::validateGroupedFp8Bf16Nt(const GroupedOperands &ops,
                                                bool masked,
                                                GroupedShape &shape,
                                                bool offsets) {
  const char *groupsName =
      masked ? "masked_m" : offsets ? "offsets" : "m_indices";
  Status s = checkTensor("a", ops.a, masked ? 3 : 2, DGEMM_DTYPE_F8E4M3,
                         masked ? "[G, M_max, K]" : "[M_sum, K]");
  if (s.ok())
    s = checkTensor("a_scale", ops.aScale, masked ? 3 : 2, DGEMM_DTYPE_F32,
                    masked ? "[G, M_max, K/128]" : "[M_sum, K/128]");
  if (s.ok())
    s = checkTensor("b", ops.b, 3, DGEMM_DTYPE_F8E4M3, "[G, N, K]");
  if (s.ok())
    s = checkTensor("b_scale", ops.bScale, 3, DGEMM_DTYPE_F32,
                    "[G, ceil(N/128), K/128]");
  if (s.ok())
    s = checkTensor(groupsName, ops.groups, 1, DGEMM_DTYPE_I32,
                    masked || offsets ? "[G]" : "[M_sum]");
  if (s.ok())
    s = checkTensor("d", ops.d, masked ? 3 : 2, DGEMM_DTYPE_BF16,
                    masked ? "[G, M_max, N]" : "[M_sum, N]");
  if (!s.ok())
    return s;
  const dgemm_tensor &a = *ops.a, &sa = *ops.aScale, &b = *ops.b,
                     &sb = *ops.bScale, &groups = *ops.groups, &d = *ops.d;

  int64_t g = b.shape[0], n = b.shape[1], k = b.shape[2];
  int64_t m = masked ? a.shape[1] : a.shape[0];
  int64_t aK = masked ? a.shape[2] : a.shape[1];
  if (g < 1)
    return Status::invalidArgument("b is [G, N, K] = " + shapeText(b) +
                                   ": there must be at least one group");
  if (aK != k)
    return Status::invalidArgument("b is [G, N, K] = " + shapeText(b) +
                                   " but a is " + shapeText(a) +
                                   ": K differs");
  if (masked && a.shape[0] != g)
    return Status::invalidArgument("a must be [G, M_max, K] with G = " +
                                   str(g) + " (the groups of b), got " +
                                   shapeText(a));
  if (k < 128 || k % 128 != 0)
    return Status::invalidArgument(
        "K must be a positive multiple of 128, got " + str(k));
  if (n < 8 || n % 8 != 0)
    return Status::invalidArgument("N must be a positive multiple of 8 for a "
                                   "BF16 output (16-byte rows), got " +
                                   str(n));
  if (!masked && m % 128 != 0)
    return Status::invalidArgument(
        "a has M_sum = " + str(m) +
        " rows: the contiguous layout pads every group to a multiple of 128 "
        "rows (get_m_alignment_for_contiguous_layout), so M_sum must be one");
  int64_t kBlocks = k / 128, nBlocks = (n + 127) / 128;
  bool dShape = masked ? (d.shape[0] == g && d.shape[1] == m && d.shape[2] == n)
                       : (d.shape[0] == m && d.shape[1] == n);
  if (!dShape)
    return Status::invalidArgument(
        std::string("d must be ") +
        (masked ? "[G, M_max, N] = [" + str(g) + ", " : "[M_sum, N] = [") +
        str(m) + ", " + str(n) + "], got " + shapeText(d));
  bool saShape = masked ? (sa.shape[0] == g && sa.shape[1] == m &&
                           sa.shape[2] == kBlocks)
                        : (sa.shape[0] == m && sa.shape[1] == kBlocks);
  if (!saShape)
    return Status::invalidArgument(
        std::string("a_scale must be ") +
        (masked ? "[G, M_max, K/128] = [" + str(g) + ", "
                : "[M_sum, K/128] = [") +
        str(m) + ", " + str(kBlocks) +
        "] (one f32 per row per 128 K-values), got " + shapeText(sa));
  if (sb.shape[0] != g || sb.shape[1] != nBlocks || sb.shape[2] != kBlocks)
    return Status::invalidArgument(
        "b_scale must be [G, ceil(N/128), K/128] = [" + str(g) + ", " +
        str(nBlocks) + ", " + str(kBlocks) +
        "] (one f32 per 128x128 block), got " + shapeText(sb));
  int64_t groupsLen = masked || offsets ? g : m;
  if (groups.shape[0] != groupsLen)
    return Status::invalidArgument(
        std::string(groupsName) + " must be " +
        (masked || offsets ? "[G] = [" : "[M_sum] = [") + str(groupsLen) +
        "], got " + shapeText(groups));
  if (groupsLen > 1 && groups.strides[0] != 1)
    return Status::invalidArgument(std::string(groupsName) +
                                   " must be contiguous (stride 1), got "
                                   "stride " +
                                   str(groups.strides[0]));

  // Strides of the operands read by tensor maps.
  if ((s = checkGroupedRows("b", b)).ok())
    s = masked ? checkGroupedRows("a", a) : checkRowMajor("a", a);
  if (!s.ok())
    return s;
  if (!isDense(sb))
    return Status::invalidArgument(
        "b_scale must be contiguous: strides (" + str(nBlocks * kBlocks) +
        ", " + str(kBlocks) + ", 1), got strides " + stridesText(sb));
  if (masked) {
    // The kernel writes rows below masked_m[g] to the dense [G, M_max, N].
    if (!isDense(d))
      return Status::invalidArgument(
          "d must be contiguous in the masked layout: strides (" +
          str(m * n) + ", " + str(n) + ", 1), got strides " + stridesText(d));
    // Scales MN-major within each group: strides (S0, 1, S), S >= M_max,
    // S % 4 == 0, S0 >= S * K/128, S0 % 4 == 0.
    int64_t rowStride = sa.strides[2];
    bool ok = (m <= 1 || sa.strides[1] == 1) &&
              (kBlocks <= 1 || (rowStride >= m && rowStride % 4 == 0 &&
                                !strideTooLarge(rowStride, 4))) &&
              (g <= 1 ||
               (sa.strides[0] >= static_cast<__int128>(
                                     kBlocks > 1 ? rowStride : m) *
                                     kBlocks &&
                sa.strides[0] % 4 == 0 && !strideTooLarge(sa.strides[0], 4)));
    if (!ok && !anyEmpty(sa))
      return Status::invalidArgument(
          "a_scale must be MN-major within each group: strides (S0, 1, S) "
          "with S >= M_max = " +
          str(m) +
          ", S % 4 == 0, S0 >= S * K/128 and S0 % 4 == 0 (16-byte rows for "
          "TMA), got strides " +
          stridesText(sa));
  } else {
    if ((s = checkRowMajor("d", d)).ok() && m > 1 && sa.strides[0] != 1)
      s = Status::invalidArgument(
          "a_scale must be MN-major: strides (1, S) with S >= M_sum and "
          "S % 4 == 0, got strides " +
          stridesText(sa));
    if (!s.ok())
      return s;
    if (kBlocks > 1 && m > 0) {
      int64_t stride = sa.strides[1];
      if (stride < m || stride % 4 != 0 || strideTooLarge(stride, 4))
        return Status::invalidArgument(
            "a_scale must be MN-major: strides (1, S) with S >= M_sum = " +
            str(m) + " and S % 4 == 0 (16-byte rows for TMA), got strides " +
            stridesText(sa));
    }
  }

  if (!(s = checkOperandAddresses(a, sa, b, sb, d, groupsName, &groups)).ok())
    return s;

  shape.m = m;
  shape.n = n;
  shape.k = k;
  shape.groups = g;
  return Status::success();
}

//===----------------------------------------------------------------------===//
// k-grouped weight-gradient GEMM
//===----------------------------------------------------------------------===//

Status dgemm::runtime::validateKGroupedFp8Fp32Nt(const GroupedOperands &ops,
                                                 const int64_t *ks,
                                                 int64_t numGroups,
                                                 KGroupedShape &shape) {
  Status s = checkTensor("a", ops.a, 1, DGEMM_DTYPE_F8E4M3,
                         "[M * sum(k_g)]: the A_g [M, k_g] one after another");
  if (s.ok())
    s = checkTensor("a_scale", ops.aScale, 2, DGEMM_DTYPE_F32,
                    "[sum(k_g)/128, M]");
  if (s.ok())
    s = checkTensor("b", ops.b, 1, DGEMM_DTYPE_F8E4M3,
                    "[N * sum(k_g)]: the B_g [N, k_g] one after another");
  if (s.ok())
    s = checkTensor("b_scale", ops.bScale, 2, DGEMM_DTYPE_F32,
                    "[sum(k_g)/128, N]");
  if (s.ok())
    s = checkTensor("d", ops.d, 3, DGEMM_DTYPE_F32, "[G, M, N]");
  if (!s.ok())
    return s;
  const dgemm_tensor &a = *ops.a, &sa = *ops.aScale, &b = *ops.b,
                     &sb = *ops.bScale, &d = *ops.d;
  if (!ks)
    return Status::invalidArgument("ks is NULL (the K of each group, on the "
                                   "host)");
  int64_t g = d.shape[0], m = d.shape[1], n = d.shape[2];
  if (numGroups != g)
    return Status::invalidArgument("num_groups = " + str(numGroups) +
                                   " but d is [G, M, N] = " + shapeText(d));
  if (g < 1 || g > kMaxKGroups)
    return Status::invalidArgument(
        "the k-grouped GEMM takes 1 to " + str(kMaxKGroups) +
        " groups (the group table is a kernel parameter), got " + str(g));
  int64_t sumK = 0;
  for (int64_t i = 0; i < g; ++i) {
    if (ks[i] < 0 || ks[i] % 128 != 0)
      return Status::invalidArgument("ks[" + str(i) + "] = " + str(ks[i]) +
                                     " must be a non-negative multiple of 128");
    if (ks[i] > kMaxInt32 - sumK)
      return Status::invalidArgument("sum(k_g) does not fit in 2^31");
    sumK += ks[i];
  }
  if (n < 8 || n % 8 != 0)
    return Status::invalidArgument("N must be a positive multiple of 8, got " +
                                   str(n));
  const int64_t kBlocks = sumK / 128;
  if (sa.shape[0] != kBlocks || sa.shape[1] != m)
    return Status::invalidArgument(
        "a_scale must be [sum(k_g)/128, M] = [" + str(kBlocks) + ", " +
        str(m) + "], got " + shapeText(sa));
  if (sb.shape[0] != kBlocks || sb.shape[1] != n)
    return Status::invalidArgument(
        "b_scale must be [sum(k_g)/128, N] = [" + str(kBlocks) + ", " +
        str(n) + "], got " + shapeText(sb));
  if (a.shape[0] != m * sumK)
    return Status::invalidArgument("a must hold M * sum(k_g) = " +
                                   str(m * sumK) + " values, got " +
                                   shapeText(a));
  if (b.shape[0] != n * sumK)
    return Status::invalidArgument("b must hold N * sum(k_g) = " +
                                   str(n * sumK) + " values, got " +
                                   shapeText(b));
  if ((a.shape[0] > 1 && a.strides[0] != 1) ||
      (b.shape[0] > 1 && b.strides[0] != 1))
    return Status::invalidArgument("a and b must be contiguous (stride 1)");
  if (!isDense(d))
    return Status::invalidArgument("d [G, M, N] must be contiguous, got "
                                   "strides " +
                                   stridesText(d));
  if ((s = checkRowMajor("a_scale", sa)).ok())
    s = checkRowMajor("b_scale", sb);
  if (!s.ok())
    return s;
  if (!(s = checkOperandAddresses(a, sa, b, sb, d)).ok())
    return s;
  shape.m = m;
  shape.n = n;
  shape.groups = g;
  shape.sumK = sumK;
  shape.ks.assign(ks, ks + g);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Epilogue fusion: the bias of a normal GEMM
//===----------------------------------------------------------------------===//

Status dgemm::runtime::validateGemmBias(const dgemm_tensor *bias, int64_t n) {
  Status s = checkTensor("bias", bias, 1, DGEMM_DTYPE_F32, "[N]");
  if (!s.ok())
    return s;
  if (bias->shape[0] != n)
    return Status::invalidArgument("bias must be [N] = [" + str(n) +
                                   "] (one f32 per output column), got " +
                                   shapeText(*bias));
  if (n > 1 && bias->strides[0] != 1)
    return Status::invalidArgument(
        "bias must be contiguous (unit stride), got strides " +
        stridesText(*bias));
  // The kernel reads the bias as pairs of columns (8 bytes).
  return checkAddress("bias", *bias, 8);
}
