//===- Launcher.h - Loading and launching compiled kernels ------*- C++ -*-===//
//
// From a compiled kernel (PTX + launch contract) to a running grid: load the
// PTX into the current context with cuModuleLoadDataEx (its info/error logs
// go into the error message), raise the function's dynamic shared memory
// limit, build the kernel parameters in contract order (tensor maps by value
// from 128-byte aligned CUtensorMap copies, operand addresses, M as i32),
// and launch with cuLaunchKernelEx on the caller's stream, with the cluster
// attribute when the contract's cluster is above 1. Loaded modules belong to
// a context, so they are kept per (context, kernel key).
//
// The arithmetic (grid size, parameter derivation) is separate from the
// driver calls and testable without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_LAUNCHER_H
#define DGEMM_RUNTIME_LAUNCHER_H

#include "dgemm/Runtime/CudaContext.h"
#include "dgemm/Runtime/KernelCache.h"
#include "dgemm/Runtime/TensorMaps.h"

#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace dgemm::runtime {

struct LaunchGrid {
  /// Output tiles: ceil(M/block_m) * ceil(N/block_n).
  uint64_t tiles = 0;
  /// CTAs: min(max_ctas, tiles) rounded up to a multiple of the cluster.
  uint32_t gridX = 0;
  uint32_t cluster = 1;
};

/// The grid of a launch of `c` with M rows and N columns (both >= 1).
Status computeGrid(const LaunchContract &c, int64_t m, int64_t n,
                   LaunchGrid &out);

/// INVALID_ARGUMENT when the contract states the static N and K the kernel
/// was compiled for and the operands' differ (a kernel IR launch with the
/// wrong tensors).
Status checkStaticSizes(const LaunchContract &c, int64_t n, int64_t k);

/// One kernel parameter, before any driver call.
struct KernelArg {
  ParamKind kind = ParamKind::M;
  TensorMapArgs map;    // TensorMap
  uint64_t pointer = 0; // Pointer
  int32_t m = 0;        // M
  /// GroupTable: the template maps of A's and B's blocks (the kernel writes
  /// each group's address and sizes into copies) and each group's (k_g /
  /// 128, first K block).
  std::vector<TensorMapArgs> groupMaps;
  std::vector<int32_t> groupInts;
  /// Workspace: bytes per CTA; `pointer` is set by the launch that
  /// allocates it (LaunchWorkspace).
  int64_t workspaceBytes = 0;
};

/// The parameters of `c` for these operands (indexed as the contract's
/// `operand`) and M; `groupKs`, for a group_table parameter, the K of each
/// group (host values).
Status deriveKernelArgs(const LaunchContract &c,
                        const std::vector<const dgemm_tensor *> &operands,
                        int64_t m, std::vector<KernelArg> &out,
                        const std::vector<int64_t> *groupKs = nullptr);

/// The group table's template maps and integers (KernelArg) for flat
/// operands A [M * sum(k_g)] and B [N * sum(k_g)] (contiguous e4m3 bytes)
/// holding the K-major A_g [M, k_g] and B_g [N, k_g] one after another.
Status deriveGroupTableArgs(const ContractParam &p, const dgemm_tensor &a,
                            const dgemm_tensor &b, int64_t m, int64_t n,
                            const std::vector<int64_t> &ks, KernelArg &out);

/// Storage for the parameters of one launch and the kernelParams array
/// pointing into it.
class KernelParams {
public:
  /// Encodes the tensor maps with the driver and lays out the values.
  Status build(const CudaDriver &driver, const std::vector<KernelArg> &args);
  void **pointers() { return pointers_.data(); }
  size_t size() const { return pointers_.size(); }

private:
  std::vector<cuda::CUtensorMap> maps_;
  /// Group tables, each starting at a CUtensorMap boundary (128-aligned).
  std::vector<cuda::CUtensorMap> tables_;
  std::vector<uint64_t> words_;
  std::vector<int32_t> ints_;
  std::vector<void *> pointers_;
};

/// A kernel loaded into one context.
struct LoadedKernel {
  cuda::CUmodule module = nullptr;
  cuda::CUfunction function = nullptr;
  std::shared_ptr<const CompiledKernel> kernel;
  int numRegs = -1;
  int localBytes = -1;
  int maxThreadsPerBlock = -1;
  /// Clusters of the contract's size that can be resident at once (0 for
  /// kernels without clusters): a persistent grid larger than this would run
  /// its last clusters as a second wave, so launches are capped to it.
  int maxActiveClusters = 0;
  /// Time cuModuleLoadDataEx took (the driver's JIT, or its compute cache).
  double loadMs = 0;
  /// The driver JIT's info log.
  std::string infoLog;
};

/// Loads `kernel` into the current context (which is on `device`).
Status loadKernel(const CudaDriver &driver, const DeviceInfo &device,
                  std::shared_ptr<const CompiledKernel> kernel,
                  LoadedKernel &out);

/// Launches a loaded kernel.
Status launchKernel(const CudaDriver &driver, const LoadedKernel &kernel,
                    const LaunchGrid &grid, void **params,
                    cuda::CUstream stream);

/// The kernels loaded per (context, key), for the process.
class LoadedKernels {
public:
  static LoadedKernels &global();

  /// `kernel` loaded in `context` (the current one), loading it on first use.
  /// `loadedNow` tells whether this call loaded it.
  Status get(const CudaDriver &driver, cuda::CUcontext context,
             const DeviceInfo &device,
             std::shared_ptr<const CompiledKernel> kernel,
             std::shared_ptr<const LoadedKernel> &out,
             bool *loadedNow = nullptr);

private:
  std::mutex mutex_;
  std::map<std::pair<cuda::CUcontext, std::string>,
           std::shared_ptr<const LoadedKernel>>
      loaded_;
};

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_LAUNCHER_H
