//===- Launcher.cpp - Loading and launching compiled kernels --------------===//
//
// Parameter layout: kernelParams[i] points at the value of parameter i. A
// tensor map parameter is passed by value (the kernel's byval, grid-constant
// argument), so its entry points at a CUtensorMap copy, 128-byte aligned as
// CUDA 13 declares the type; an operand address or a workspace at a u64; M
// at an i32; the group table as CUtensorMaps (its templates, then its
// integers). All storage is sized before the pointers are taken.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/Launcher.h"

#include "dgemm/Runtime/JitEnv.h"
#include "dgemm/Runtime/Validation.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>

using namespace dgemm::runtime;
using namespace dgemm::cuda;

namespace {

std::string str(int64_t v) { return std::to_string(v); }

/// A JIT log buffer as text (NUL-terminated within its size).
std::string logText(const std::vector<char> &buf) {
  size_t n = 0;
  while (n < buf.size() && buf[n] != '\0')
    ++n;
  std::string s(buf.data(), n);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

/// Relaxes this thread's stream capture mode while alive. A kernel first
/// used inside a CUDA graph capture (global or thread-local mode) is loaded
/// then; module loading and function attributes are not stream work, but
/// the driver refuses "unsafe" calls during such a capture. Relaxed mode is
/// what the CUDA documentation prescribes for exactly this.
class RelaxedCaptureMode {
public:
  explicit RelaxedCaptureMode(const CudaDriver &driver) : driver_(driver) {
    if (driver_.cuThreadExchangeStreamCaptureMode &&
        driver_.cuThreadExchangeStreamCaptureMode(&mode_) == CUDA_SUCCESS)
      active_ = true;
  }
  ~RelaxedCaptureMode() {
    if (active_)
      (void)driver_.cuThreadExchangeStreamCaptureMode(&mode_);
  }

private:
  const CudaDriver &driver_;
  CUstreamCaptureMode mode_ = CU_STREAM_CAPTURE_MODE_RELAXED;
  bool active_ = false;
};

} // namespace

Status dgemm::runtime::computeGrid(const LaunchContract &c, int64_t m,
                                   int64_t n, LaunchGrid &out) {
  // Contracts read by contractFromAttr / parseContract were checked there.
  if (!c.checked) {
    std::string why = checkContract(c);
    if (!why.empty())
      return Status::internal("invalid launch contract: " + why);
  }
  if (m < 1 || n < 1)
    return Status::internal("a launch needs M >= 1 and N >= 1, got M = " +
                            str(m) + ", N = " + str(n));
  if (c.maxM != 0 && m > c.maxM)
    return Status::invalidArgument(
        "kernel " + c.kernelName + " serves M <= " + str(c.maxM) +
        " (its A box holds that many rows: a_box_rows); the call has M = " +
        str(m));
  uint64_t tiles = static_cast<uint64_t>((m + c.blockM - 1) / c.blockM) *
                   static_cast<uint64_t>((n + c.blockN - 1) / c.blockN);
  // A tile may take tile_ctas CTAs (a K split over a cluster).
  uint64_t ctas = std::min<uint64_t>(static_cast<uint64_t>(c.maxCtas),
                                     tiles * static_cast<uint64_t>(c.tileCtas));
  uint64_t cluster = static_cast<uint64_t>(c.cluster);
  ctas = (ctas + cluster - 1) / cluster * cluster;
  out.tiles = tiles;
  out.gridX = static_cast<uint32_t>(ctas);
  out.cluster = static_cast<uint32_t>(cluster);
  return Status::success();
}

Status dgemm::runtime::checkStaticSizes(const LaunchContract &c, int64_t n,
                                        int64_t k) {
  if ((c.n != 0 && c.n != n) || (c.k != 0 && c.k != k))
    return Status::invalidArgument(
        "kernel " + c.kernelName + " was compiled for N = " + str(c.n) +
        ", K = " + str(c.k) + "; the operands have N = " + str(n) +
        ", K = " + str(k));
  return Status::success();
}

Status dgemm::runtime::deriveGroupTableArgs(
    const ContractParam &p, const dgemm_tensor &a, const dgemm_tensor &b,
    int64_t m, int64_t n, const std::vector<int64_t> &ks, KernelArg &out) {
  out.kind = ParamKind::GroupTable;
  out.groupMaps.clear();
  out.groupInts.clear();
  // The templates: one K block of the first rows of A and of B. The kernel
  // copies them and writes each group's address, K, rows and row pitch.
  const dgemm_tensor *ops[2] = {&a, &b};
  const int64_t rows[2] = {m, n};
  for (int which = 0; which < 2; ++which) {
    TensorMapArgs t;
    t.dataType = cuda::CU_TENSOR_MAP_DATA_TYPE_UINT8;
    t.rank = 2;
    t.globalAddress = ops[which]->data;
    t.globalDim[0] = 128;
    t.globalDim[1] = static_cast<uint64_t>(rows[which]);
    t.globalStrides[0] = 128;
    t.boxDim[0] = 128;
    t.boxDim[1] = static_cast<uint32_t>(p.box[which]);
    t.elementStrides[0] = t.elementStrides[1] = 1;
    t.swizzle = cuda::CU_TENSOR_MAP_SWIZZLE_128B;
    out.groupMaps.push_back(t);
  }
  int64_t kOffset = 0;
  for (size_t g = 0; g < ks.size(); ++g) {
    int64_t kg = ks[g];
    if (kg < 0 || kg % 128 != 0)
      return Status::invalidArgument("ks[" + str(static_cast<int64_t>(g)) +
                                     "] = " + str(kg) +
                                     " is not a multiple of 128");
    out.groupInts.push_back(static_cast<int32_t>(kg / 128));
    out.groupInts.push_back(static_cast<int32_t>(kOffset / 128));
    kOffset += kg;
  }
  return Status::success();
}

Status dgemm::runtime::deriveKernelArgs(
    const LaunchContract &c, const std::vector<const dgemm_tensor *> &operands,
    int64_t m, std::vector<KernelArg> &out,
    const std::vector<int64_t> *groupKs) {
  if (m < 0 || m > std::numeric_limits<int32_t>::max())
    return Status::invalidArgument("M = " + str(m) +
                                   " does not fit the kernel's i32 M");
  std::vector<KernelArg> args;
  args.reserve(c.params.size());
  for (size_t i = 0; i < c.params.size(); ++i) {
    const ContractParam &p = c.params[i];
    KernelArg arg;
    arg.kind = p.kind;
    if (p.kind == ParamKind::M) {
      arg.m = static_cast<int32_t>(m);
      args.push_back(arg);
      continue;
    }
    if (p.kind == ParamKind::Workspace) {
      arg.workspaceBytes = p.bytes;
      args.push_back(arg);
      continue;
    }
    if (p.operand < 0 || static_cast<size_t>(p.operand) >= operands.size() ||
        !operands[p.operand])
      return Status::invalidArgument(
          "the kernel's parameter " + str(static_cast<int64_t>(i)) +
          " reads operand " + str(p.operand) + ", but the call has " +
          str(static_cast<int64_t>(operands.size())) + " operands");
    const dgemm_tensor &t = *operands[p.operand];
    if (p.kind == ParamKind::GroupTable) {
      if (!groupKs || static_cast<int64_t>(groupKs->size()) != c.groups)
        return Status::invalidArgument(
            "the kernel's group table needs the K of each of its " +
            str(c.groups) + " groups");
      if (p.operandB < 0 ||
          static_cast<size_t>(p.operandB) >= operands.size() ||
          !operands[p.operandB])
        return Status::invalidArgument("the group table reads operand " +
                                       str(p.operandB) +
                                       ", which the call does not have");
      Status s = deriveGroupTableArgs(p, t, *operands[p.operandB], m, c.n,
                                      *groupKs, arg);
      if (!s.ok())
        return s;
      args.push_back(std::move(arg));
      continue;
    }
    if (p.kind == ParamKind::Pointer) {
      arg.pointer = reinterpret_cast<uint64_t>(t.data);
    } else {
      Status s = deriveTensorMapArgs(p, t, arg.map);
      if (!s.ok())
        return s;
    }
    args.push_back(arg);
  }
  out = std::move(args);
  return Status::success();
}

Status KernelParams::build(const CudaDriver &driver,
                           const std::vector<KernelArg> &args) {
  size_t numMaps = 0, numWords = 0, numInts = 0;
  for (const KernelArg &a : args) {
    numMaps += a.kind == ParamKind::TensorMap;
    numWords +=
        a.kind == ParamKind::Pointer || a.kind == ParamKind::Workspace;
    numInts += a.kind == ParamKind::M;
  }
  size_t tableMaps = 0;
  for (const KernelArg &a : args)
    if (a.kind == ParamKind::GroupTable)
      tableMaps += a.groupMaps.size() +
                   (a.groupInts.size() * 4 + sizeof(CUtensorMap) - 1) /
                       sizeof(CUtensorMap);
  tables_.assign(tableMaps, CUtensorMap());
  size_t iTable = 0;
  maps_.assign(numMaps, CUtensorMap());
  words_.assign(numWords, 0);
  ints_.assign(numInts, 0);
  pointers_.clear();
  size_t iMap = 0, iWord = 0, iInt = 0;
  for (const KernelArg &a : args) {
    switch (a.kind) {
    case ParamKind::TensorMap: {
      CUtensorMap &map = maps_[iMap++];
      Status s = encodeTensorMapCached(driver, a.map, map);
      if (!s.ok())
        return s;
      pointers_.push_back(&map);
      break;
    }
    case ParamKind::Workspace:
      if (!a.pointer)
        return Status::internal("a workspace parameter without its memory "
                                "(LaunchWorkspace allocates it)");
      [[fallthrough]];
    case ParamKind::Pointer:
      words_[iWord] = a.pointer;
      pointers_.push_back(&words_[iWord++]);
      break;
    case ParamKind::M:
      ints_[iInt] = a.m;
      pointers_.push_back(&ints_[iInt++]);
      break;
    case ParamKind::GroupTable: {
      CUtensorMap *table = tables_.data() + iTable;
      for (size_t i = 0; i < a.groupMaps.size(); ++i) {
        Status s = encodeTensorMap(driver, a.groupMaps[i], table[i]);
        if (!s.ok())
          return s.withContext(std::string("the template map of ") +
                               (i % 2 ? "B" : "A"));
      }
      std::memcpy(table + a.groupMaps.size(), a.groupInts.data(),
                  a.groupInts.size() * sizeof(int32_t));
      iTable += a.groupMaps.size() +
                (a.groupInts.size() * 4 + sizeof(CUtensorMap) - 1) /
                    sizeof(CUtensorMap);
      pointers_.push_back(table);
      break;
    }
    }
  }
  return Status::success();
}

Status dgemm::runtime::loadKernel(const CudaDriver &driver,
                                  const DeviceInfo &device,
                                  std::shared_ptr<const CompiledKernel> kernel,
                                  LoadedKernel &out) {
  const LaunchContract &c = kernel->contract;
  std::string who = "kernel " + c.kernelName;
  if (c.dynamicSmem > device.smemPerBlockOptin)
    return Status::error(DGEMM_ERROR_CUDA,
                         who + " needs " + str(c.dynamicSmem) +
                             " bytes of dynamic shared memory; the device "
                             "allows " +
                             str(device.smemPerBlockOptin));

  constexpr size_t kLogBytes = 16384;
  std::vector<char> infoLog(kLogBytes, '\0'), errorLog(kLogBytes, '\0');
  CUjit_option options[] = {
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *values[] = {
      infoLog.data(), reinterpret_cast<void *>(uintptr_t(kLogBytes - 1)),
      errorLog.data(), reinterpret_cast<void *>(uintptr_t(kLogBytes - 1)),
      reinterpret_cast<void *>(uintptr_t(1))};
  LoadedKernel k;
  k.kernel = kernel;
  auto start = std::chrono::steady_clock::now();
  CUresult r = driver.cuModuleLoadDataEx(&k.module, kernel->ptx.c_str(),
                                         std::size(options), options, values);
  k.loadMs = std::chrono::duration<double, std::milli>(
                 std::chrono::steady_clock::now() - start)
                 .count();
  k.infoLog = logText(infoLog);
  if (r != CUDA_SUCCESS) {
    std::string log = logText(errorLog);
    Status s = driver.check(r, "cuModuleLoadDataEx");
    return Status::error(s.code(), who + ": " + s.message() +
                                       (log.empty() ? "" : "\n" + log));
  }
  auto fail = [&](Status s) {
    (void)driver.cuModuleUnload(k.module);
    return s.withContext(who);
  };
  Status s = driver.check(
      driver.cuModuleGetFunction(&k.function, k.module, c.kernelName.c_str()),
      "cuModuleGetFunction");
  if (!s.ok())
    return fail(s);
  s = driver.check(
      driver.cuFuncSetAttribute(k.function,
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                static_cast<int>(c.dynamicSmem)),
      "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
  if (!s.ok())
    return fail(s);
  struct {
    CUfunction_attribute attr;
    int *value;
  } queries[] = {
      {CU_FUNC_ATTRIBUTE_NUM_REGS, &k.numRegs},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &k.localBytes},
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &k.maxThreadsPerBlock}};
  for (auto &q : queries) {
    s = driver.check(driver.cuFuncGetAttribute(q.value, q.attr, k.function),
                     "cuFuncGetAttribute");
    if (!s.ok())
      return fail(s);
  }
  if (c.cluster > 1) {
    // Not every SM can join a cluster (GPCs have odd SM counts): ask the
    // driver how many clusters fit at once.
    CUlaunchAttribute attr{};
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = static_cast<unsigned>(c.cluster);
    attr.value.clusterDim.y = 1;
    attr.value.clusterDim.z = 1;
    CUlaunchConfig config{};
    config.gridDimX = static_cast<unsigned>(c.cluster);
    config.gridDimY = 1;
    config.gridDimZ = 1;
    config.blockDimX = static_cast<unsigned>(c.block);
    config.blockDimY = 1;
    config.blockDimZ = 1;
    config.sharedMemBytes = static_cast<unsigned>(c.dynamicSmem);
    config.attrs = &attr;
    config.numAttrs = 1;
    s = driver.check(driver.cuOccupancyMaxActiveClusters(
                         &k.maxActiveClusters, k.function, &config),
                     "cuOccupancyMaxActiveClusters");
    if (!s.ok())
      return fail(s);
    if (k.maxActiveClusters < 1)
      return fail(Status::error(
          DGEMM_ERROR_CUDA, "no cluster of " + str(c.cluster) +
                                " CTAs with " + str(c.dynamicSmem) +
                                " bytes of shared memory each fits the GPU"));
  }
  if (k.maxThreadsPerBlock < c.block)
    return fail(Status::error(
        DGEMM_ERROR_CUDA,
        "the loaded function runs at most " + str(k.maxThreadsPerBlock) +
            " threads per block (" + str(k.numRegs) +
            " registers each), the contract needs " + str(c.block)));
  out = std::move(k);
  return Status::success();
}

Status dgemm::runtime::launchKernel(const CudaDriver &driver,
                                    const LoadedKernel &k,
                                    const LaunchGrid &grid, void **params,
                                    CUstream stream) {
  const LaunchContract &c = k.kernel->contract;
  CUlaunchAttribute attr{};
  attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attr.value.clusterDim.x = grid.cluster;
  attr.value.clusterDim.y = 1;
  attr.value.clusterDim.z = 1;
  CUlaunchConfig config{};
  // A persistent kernel takes any grid: never more clusters than fit at once.
  config.gridDimX = grid.gridX;
  if (grid.cluster > 1 && k.maxActiveClusters > 0)
    config.gridDimX = std::min<unsigned>(
        grid.gridX, static_cast<unsigned>(k.maxActiveClusters) * grid.cluster);
  config.gridDimY = 1;
  config.gridDimZ = 1;
  config.blockDimX = static_cast<unsigned>(c.block);
  config.blockDimY = 1;
  config.blockDimZ = 1;
  config.sharedMemBytes = static_cast<unsigned>(c.dynamicSmem);
  config.hStream = stream;
  config.attrs = grid.cluster > 1 ? &attr : nullptr;
  config.numAttrs = grid.cluster > 1 ? 1 : 0;
  cuda::CUresult r = driver.cuLaunchKernelEx(&config, k.function, params,
                                             nullptr);
  if (r == cuda::CUDA_SUCCESS) // no message built on the warm path
    return Status::success();
  return driver.check(r, "cuLaunchKernelEx").withContext("kernel " +
                                                         c.kernelName);
}

LoadedKernels &LoadedKernels::global() {
  // Never destroyed: modules live as long as their contexts.
  static LoadedKernels *loaded = new LoadedKernels();
  return *loaded;
}

Status LoadedKernels::get(const CudaDriver &driver, CUcontext context,
                          const DeviceInfo &device,
                          std::shared_ptr<const CompiledKernel> kernel,
                          std::shared_ptr<const LoadedKernel> &out,
                          bool *loadedNow) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = std::make_pair(context, kernel->keyText);
  auto it = loaded_.find(key);
  if (it != loaded_.end()) {
    out = it->second;
    if (loadedNow)
      *loadedNow = false;
    return Status::success();
  }
  auto k = std::make_shared<LoadedKernel>();
  Status s;
  {
    RelaxedCaptureMode relaxed(driver);
    s = loadKernel(driver, device, kernel, *k);
  }
  if (!s.ok()) {
    jitLog(1, "load: " + kernel->contract.kernelName + " failed: " +
                  s.message());
    return s;
  }
  if (jitLogEnabled(1))
    jitLog(1, "load: " + kernel->contract.kernelName + " in " +
                  formatMs(k->loadMs) + " (registers " + str(k->numRegs) +
                  ", local bytes " + str(k->localBytes) + ")");
  loaded_[key] = k;
  out = k;
  if (loadedNow)
    *loadedNow = true;
  return Status::success();
}
