//===- GemmKernel.h - build the kernel IR of a normal FP8 GEMM --*- C++ -*-===//
//
// buildGemmKernel writes one warp-specialized, persistent Hopper kernel for
// dgemm.gemm (also its weight-gradient form: 1x128 B scales, f32 output
// added into D) or dgemm.grouped_gemm (contiguous or masked) as an llvm.func
// whose body is kernel IR (scf/arith, NVVM barriers and TMA, dgemm kernel
// ops).
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_LIB_CONVERSION_GEMMTOKERNEL_GEMMKERNEL_H
#define DGEMM_LIB_CONVERSION_GEMMTOKERNEL_GEMMKERNEL_H

#include "KernelLayout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include <algorithm>

namespace mlir::dgemm {

/// Kernel parameters, in order. kMapD is D's tensor map (masked: 3-D);
/// kSFBPtr is the address of B's 128x128 scales or, 1x128 recipe, the
/// tensor map of B's per-row scales;
/// kM is M (normal), M_sum (contiguous) or M_max (masked); kGroups, grouped
/// layouts only, is the address of m_indices (contiguous) or masked_m;
/// kDPtr, masked only, is D's address (partial tiles are stored by row).
/// A masked kernel with a second tile shape (KernelConfig::altBlockM) takes
/// that shape's maps of A, A's scales, B and D after them (kAltMapA..).
/// A normal kernel with a bias (KernelLayout::bias) takes its address
/// seventh (kBiasPtr, where the grouped kernels have kGroups).
enum GemmKernelParam {
  kMapA = 0,
  kMapSFA,
  kMapB,
  kMapD,
  kSFBPtr,
  kM,
  kGroups,
  kDPtr,
  kAltMapA,
  kAltMapSFA,
  kAltMapB,
  kAltMapD,
  kBiasPtr = kGroups
};

/// Parameters of the k-grouped kernel (dgemm.k_grouped_gemm), in order:
/// the group table (by value: the template maps of A's and B's blocks, then
/// G x {i32 K blocks of g, i32 first K block of g}), the maps of A's and
/// B's scales [sum K/128, M|N], D's 3-D map [G, M, N], the addresses of A
/// and B (flat: A_g [M, k_g] and B_g [N, k_g] one after another), and a
/// global workspace of kKgSlots x 256 bytes per CTA where the producer
/// writes each tile's maps of A_g and B_g (TensorMapUpdate.h).
enum KGroupedKernelParam {
  kKgTable = 0,
  kKgMapSFA,
  kKgMapSFB,
  kKgMapD,
  kKgPtrA,
  kKgPtrB,
  kKgWorkspace
};

/// Builds the kernel at the builder's insertion point (inside a gpu.module
/// that holds the dynamic shared memory global `smemSymbol`). With `alt`
/// (masked layout: a second tile shape, same threads and cluster 1) the
/// entry block counts both shapes' tiles from masked_m and branches to the
/// body of the one whose rounds cost less (ceil(tiles / CTAs) times
/// `::dgemm::tileRoundCost`); each body is the kernel of its layout.
LLVM::LLVMFuncOp buildGemmKernel(OpBuilder &b, Location loc, StringRef name,
                                 const KernelLayout &l, StringRef smemSymbol,
                                 const KernelLayout *alt = nullptr);

/// Dynamic shared memory of the kernel: its layout's, or with a second tile
/// shape the larger of the two (the bodies never run together).
inline int64_t kernelSmemBytes(const KernelLayout &l, const KernelLayout *alt) {
  return alt ? std::max(l.smemBytes, alt->smemBytes) : l.smemBytes;
}

/// The launch contract (docs/launch-contract.md) of that kernel.
DictionaryAttr buildGemmLaunchContract(MLIRContext *ctx, const KernelLayout &l,
                                       const KernelLayout *alt = nullptr);

} // namespace mlir::dgemm

#endif // DGEMM_LIB_CONVERSION_GEMMTOKERNEL_GEMMKERNEL_H
