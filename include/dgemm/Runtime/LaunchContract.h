//===- LaunchContract.h - What a kernel launch needs ------------*- C++ -*-===//
//
// The launch contract (docs/launch-contract.md) as a plain struct: threads,
// cluster, dynamic shared memory, the persistent grid bound, block sizes and
// how to build each kernel parameter from the op's operands. The compiler
// fills it from the kernel's `dgemm.launch` attribute (LaunchContractAttr.h);
// the disk cache stores it as text (printContract / parseContract). Both
// paths end in checkContract, so the launcher only sees sane values.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_LAUNCHCONTRACT_H
#define DGEMM_RUNTIME_LAUNCHCONTRACT_H

#include "dgemm/Runtime/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dgemm::runtime {

enum class ParamKind {
  /// A CUtensorMap of an operand, passed by value.
  TensorMap,
  /// An operand's device address (u64).
  Pointer,
  /// M, the rows of A (i32).
  M,
  /// The k-grouped kernel's group table, by value: template tensor maps of
  /// the K-major blocks A_g [M, k_g] and B_g [N, k_g] of the flat operands
  /// `operand` and `operandB` (boxes of 128 K x box[0] rows and 128 K x
  /// box[1] rows, 128-byte swizzle; the kernel writes each group's address
  /// and sizes into copies), then for each group two i32: k_g / 128 and the
  /// group's first K block (sum of the earlier k_h / 128). Built from the
  /// k_g the caller gives on the host.
  GroupTable,
  /// Device memory of `bytes` per CTA for the kernel's own use (u64
  /// address), allocated for the launch on its stream and freed after it.
  Workspace,
};

struct ContractParam {
  ParamKind kind = ParamKind::M;
  /// Operand index in op order (A, A scales, B, B scales, [C,] D);
  /// -1 for M.
  int64_t operand = -1;
  /// GroupTable only: B's operand index (`operand` is A's).
  int64_t operandB = -1;
  /// Workspace only: bytes per CTA, in [1, kMaxWorkspacePerCta].
  int64_t bytes = 0;
  /// TensorMap only: the operand's logical dimensions innermost first
  /// (indices into its shape, outermost first), the box, the swizzle in
  /// bytes (0, 32, 64, 128) and the element type ("u8", "bf16", "f32").
  std::vector<int64_t> dims;
  std::vector<int64_t> box;
  int64_t swizzle = 0;
  std::string dtype;
  /// Set by contractFromAttr / parseContract once checkContract passed, so
  /// the launcher does not check it again on every launch (not compared).
  bool checked = false;

  bool operator==(const ContractParam &o) const;
};

struct LaunchContract {
  /// The kernel's symbol in the PTX.
  std::string kernelName;
  int64_t block = 0;
  int64_t cluster = 1;
  int64_t dynamicSmem = 0;
  int64_t maxCtas = 0;
  int64_t blockM = 0;
  int64_t blockN = 0;
  /// The static N and K the kernel was compiled for; 0 when the contract
  /// does not state them (optional `n` / `k` entries). The launcher checks
  /// the operands against them.
  int64_t n = 0;
  int64_t k = 0;
  /// Which GEMM the kernel computes (kLayoutNormal, kLayoutContiguous,
  /// kLayoutMasked) and, grouped, for how many groups; the launcher checks
  /// the call against them. Optional in the attribute (normal, 1).
  int64_t layout = 0;
  int64_t groups = 1;
  /// CTAs that may share one tile: 2 for a kernel that splits a tile's K
  /// blocks over the two CTAs of a cluster (tail-split), so the grid is
  /// min(max_ctas, tiles * tile_ctas); else 1. Optional in the attribute.
  int64_t tileCtas = 1;
  /// The most rows of A a launch may have (a kernel whose A box holds only
  /// the rows of a small M: #dgemm.config's a_box_rows); 0: any. Optional
  /// in the attribute.
  int64_t maxM = 0;
  std::vector<ContractParam> params;
  /// Set with the params' `checked` once checkContract passed (not
  /// compared).
  bool checked = false;

  bool operator==(const LaunchContract &o) const;

  /// Marks the contract and its params checked (call after checkContract
  /// returned empty).
  void markChecked() {
    checked = true;
    for (ContractParam &p : params)
      p.checked = true;
  }
};

/// Values of LaunchContract::layout.
constexpr int64_t kLayoutNormal = 0;
constexpr int64_t kLayoutContiguous = 1;
constexpr int64_t kLayoutMasked = 2;
/// The weight-gradient GEMM: 1x128 B scales, f32 D += A * B^T in place
/// (operands A, A scales, B, B scales, C = D, D).
constexpr int64_t kLayoutWgrad = 3;
/// The k-grouped weight-gradient GEMM (dgemm.k_grouped_gemm): operands A,
/// A scales, B, B scales, ks, D; a group_table parameter.
constexpr int64_t kLayoutKGrouped = 4;
/// A kernel the runtime's C API does not launch (e.g. an f32 output stored
/// rather than accumulated): compiled by dgemm-opt, refused at launch.
constexpr int64_t kLayoutOther = 5;
/// The contiguous m-grouped GEMM with its groups given by offsets[G] (each
/// group's end row) instead of m_indices.
constexpr int64_t kLayoutContiguousOffsets = 6;
/// The normal bf16 GEMM with an f32 bias [N] fused into its epilogue
/// (operands A, A scales, B, B scales, bias, D).
constexpr int64_t kLayoutBias = 7;
/// The largest layout value.
constexpr int64_t kLayoutMax = 7;

/// Limits checkContract enforces.
constexpr int64_t kMaxOperands = 8;
constexpr int64_t kMaxParams = 64;
constexpr int64_t kMaxTensorMapRank = 5;
constexpr int64_t kMaxClusterSize = 8;
constexpr int64_t kMaxDynamicSmem = 232448;
constexpr int64_t kMaxWorkspacePerCta = 1 << 20;

/// Empty when the contract is one the launcher can use, else which field is
/// wrong (block in [1, 1024], cluster in [1, 8], ..., a valid kernel name,
/// tensor maps of rank 1..5 with distinct dims, boxes in [1, 256], ...).
std::string checkContract(const LaunchContract &c);

/// Empty when one params entry is valid (the per-entry part of
/// checkContract), else "<kind>): <what is wrong>".
std::string checkContractParam(const ContractParam &p);

/// Bytes of one element of a contract dtype ("u8" 1, "bf16" 2, "f32" 4);
/// 0 for an unknown name.
int64_t contractDtypeBytes(std::string_view dtype);

/// The line format of the disk cache:
///   dgemm-launch-contract 5
///   kernel <name>
///   block <n> / cluster <n> / dynamic_smem <n> / max_ctas <n> /
///   block_m <n> / block_n <n> / n <n> / k <n> / layout <n> / groups <n> /
///   tile_ctas <n> / max_m <n>           (one per line, in this order)
///   params <count>
///   param tensor_map operand=<i> dtype=<s> swizzle=<n> dims=<i,..> box=<n,..>
///   param ptr operand=<i>
///   param m
///   param group_table operand=<i> operand_b=<i> swizzle=<n> box=<n,n>
///   param workspace bytes=<n>
///   end
std::string printContract(const LaunchContract &c);

/// Parses printContract's format strictly (every line, in order, numbers in
/// range, `end` present) and checks the result. INVALID_ARGUMENT naming the
/// line for anything else; never crashes on arbitrary bytes.
Status parseContract(std::string_view text, LaunchContract &out);

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_LAUNCHCONTRACT_H
