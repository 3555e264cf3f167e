//===- CAPI.cpp - The C API of include/dgemm-c/Runtime.h ------------------===//
//
// Each entry point checks its arguments, runs the runtime's C++ pieces and
// turns the resulting Status into a dgemm_status plus the thread's last-error
// message. A GEMM call: validate the tensors (M == 0 ends here), get the
// driver and a context, choose the config for the actual M on this device
// (with the lowering's capabilities, ConfigSelection.h), fetch or compile the
// kernel (KernelCache), load it into the context (LoadedKernels), derive and
// encode the parameters, launch on the caller's stream.
//
//===----------------------------------------------------------------------===//
#include "dgemm-c/Runtime.h"

#include "dgemm/Runtime/BoundCall.h"
#include "dgemm/Runtime/Compiler.h"
#include "dgemm/Runtime/CudaContext.h"
#include "dgemm/Runtime/JitEnv.h"
#include "dgemm/Runtime/KernelCache.h"
#include "dgemm/Runtime/LaunchWorkspace.h"
#include "dgemm/Runtime/Launcher.h"
#include "dgemm/Runtime/Validation.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <unordered_map>

using namespace dgemm;
using namespace dgemm::runtime;

/// The C API's handle of a BoundCall.
struct dgemm_bound_call {
  BoundCall call;
};

namespace {

thread_local std::string lastError;

dgemm_status finish(const Status &s) {
  if (s.ok())
    lastError.clear();
  else
    lastError = s.message();
  return s.code();
}

std::string str(int64_t v) { return std::to_string(v); }

/// The driver and a context with a checked sm_90 device.
struct DeviceSession {
  const CudaDriver *driver = nullptr;
  std::optional<ScopedContext> context;

  Status open() {
    Status s;
    driver = CudaDriver::get(s);
    if (!driver)
      return s;
    context.emplace(*driver);
    return context->status();
  }
  TargetDesc target() const {
    TargetDesc t;
    t.numSMs = context->device().numSMs;
    t.smemPerBlock = context->device().smemPerBlockOptin;
    return t;
  }
};

ProblemDesc normalProblem(int64_t m, int64_t n, int64_t k) {
  ProblemDesc p;
  p.kind = GemmKind::Normal;
  p.m = m;
  p.n = n;
  p.k = k;
  return p;
}

/// dgemm_set_num_sms's limit on the persistent grid (0: none).
std::atomic<int64_t> numSmsLimit{0};

/// The config the runtime uses for problem `p` on `device`, within the SM
/// limit.
Status chooseConfig(const ProblemDesc &p, const TargetDesc &device,
                    KernelConfig &out) {
  int64_t m = p.m, n = p.n, k = p.k;
  TargetDesc target = device;
  if (int64_t limit = numSmsLimit.load(); limit > 0)
    target.numSMs = std::min(target.numSMs, limit);
  std::string why = checkProblem(p);
  if (!why.empty())
    return Status::invalidArgument(why);
  KernelConfig c = selectConfig(p, target, kernelCapabilities());
  why = checkConfig(c, p, target);
  if (!why.empty())
    return Status::internal(
        "no kernel config fits M = " + str(m) + ", N = " + str(n) +
        ", K = " + str(k) + " on " + str(target.numSMs) + " SMs with " +
        str(target.smemPerBlock) + " bytes of shared memory: " + why);
  out = c;
  return Status::success();
}

Status chooseConfig(int64_t m, int64_t n, int64_t k, const TargetDesc &device,
                    KernelConfig &out) {
  return chooseConfig(normalProblem(m, n, k), device, out);
}

/// The device's target when a driver and an sm_90 device are usable, else
/// the default one; `session` stays open in the first case.
TargetDesc targetOrDefault(DeviceSession &session, bool &haveDevice) {
  haveDevice = session.open().ok();
  return haveDevice ? session.target() : TargetDesc();
}

/// DGEMM_PRINT_CONFIGS: one line when a kernel is first compiled or loaded
/// from disk in this process (a memory hit means it was printed already).
void printConfig(const std::string &shape, const std::string &config,
                 const CompiledKernel &kernel, CacheSource source,
                 double compileMs) {
  if (!JitSettings::get().printConfigs || source == CacheSource::Memory)
    return;
  jitMessage("kernel " + kernel.contract.kernelName + " for " + shape + ": " +
             config + " (" +
             (source == CacheSource::Disk ? std::string("from the disk cache")
                                          : "compiled in " +
                                                formatMs(compileMs)) +
             ")");
}

/// The kernel of `key`, from the cache or compiled; `shape` describes the
/// call for DGEMM_PRINT_CONFIGS.
Status kernelFor(const GemmKernelKey &key, const std::string &shape,
                 std::shared_ptr<const CompiledKernel> &out, double *compileMs,
                 CacheSource *source) {
  double ms = 0;
  CacheSource from = CacheSource::Memory;
  Status s = KernelCache::global().getOrCompile(
      key.text(),
      [&](CompiledKernel &compiled) {
        auto start = std::chrono::steady_clock::now();
        Status c = compileGemm(key, compiled);
        ms = std::chrono::duration<double, std::milli>(
                 std::chrono::steady_clock::now() - start)
                 .count();
        return c;
      },
      out, &from);
  if (source)
    *source = from;
  if (compileMs)
    *compileMs = ms;
  if (s.ok())
    printConfig(shape + " on " + key.chip + " (" + str(key.target.numSMs) +
                    " SMs, " + str(key.target.smemPerBlock) +
                    " B shared memory)",
                formatConfigAttr(key.config), *out, from, ms);
  return s;
}

/// The normal GEMM kernel for (n, k, config, target); `m` is the shape's M,
/// for DGEMM_PRINT_CONFIGS.
Status gemmKernel(int64_t m, int64_t n, int64_t k, const KernelConfig &config,
                  const TargetDesc &target,
                  std::shared_ptr<const CompiledKernel> &out, double *compileMs,
                  CacheSource *source, bool bias = false) {
  GemmKernelKey key = makeGemmKernelKey(n, k, config, target);
  key.bias = bias;
  return kernelFor(key,
                   std::string(bias ? "bias " : "") + "M=" + str(m) +
                       " N=" + str(n) + " K=" + str(k),
                   out, compileMs, source);
}

/// What a launch needs besides the kernel: the operands in op order, the
/// rows that size the grid, the kernel's M parameter, the static sizes and
/// the layout the kernel must have been compiled for.
struct LaunchRequest {
  std::vector<const dgemm_tensor *> operands;
  int64_t gridM = 0, paramM = 0, n = 0, k = 0;
  int64_t layout = kLayoutNormal, groups = 1;
  /// k-grouped: the K of each group (the kernel's group table).
  std::vector<int64_t> ks;
};

/// Loads `kernel` into the session's context (unless `loadedIO` already
/// holds it: a launch plan) and launches it.
Status launch(DeviceSession &session,
              std::shared_ptr<const CompiledKernel> kernel,
              const LaunchRequest &r, void *stream,
              std::shared_ptr<const LoadedKernel> *loadedIO = nullptr) {
  const CudaDriver &driver = *session.driver;
  const LaunchContract &c = kernel->contract;
  if (c.layout != r.layout || c.groups != r.groups)
    return Status::invalidArgument(
        "kernel " + c.kernelName + " computes layout " + str(c.layout) +
        " with " + str(c.groups) + " groups; the call needs layout " +
        str(r.layout) + " with " + str(r.groups) +
        " (0 normal, 1 contiguous, 2 masked)");
  std::shared_ptr<const LoadedKernel> loaded =
      loadedIO ? *loadedIO : nullptr;
  Status s;
  if (!loaded) {
    s = LoadedKernels::global().get(driver, session.context->context(),
                                    session.context->device(), kernel,
                                    loaded);
    if (!s.ok())
      return s;
    if (loadedIO)
      *loadedIO = loaded;
  }
  if (!(s = checkStaticSizes(c, r.n, r.k)).ok())
    return s;
  LaunchGrid grid;
  if (!(s = computeGrid(c, r.gridM, r.n, grid)).ok())
    return s;
  std::vector<KernelArg> args;
  if (!(s = deriveKernelArgs(c, r.operands, r.paramM, args,
                             r.ks.empty() ? nullptr : &r.ks))
           .ok())
    return s;
  // A workspace lives for this launch only: freed on the stream after it.
  LaunchWorkspace workspace(driver, static_cast<cuda::CUstream>(stream));
  for (KernelArg &a : args) {
    if (a.kind != ParamKind::Workspace)
      continue;
    if (BoundCallCapture::active())
      return Status::invalidArgument(
          "kernel " + c.kernelName +
          " takes a workspace per launch and cannot be bound");
    if (!(s = workspace.allocate(static_cast<uint64_t>(a.workspaceBytes) *
                                     grid.gridX,
                                 a.pointer))
             .ok())
      return s;
  }
  KernelParams params;
  if (!(s = params.build(driver, args)).ok())
    return s;
  if (BoundCallCapture *capture = BoundCallCapture::active()) // dgemm_bind_*
    return capture->record(driver, session.context->context(),
                           numSmsLimit.load(), std::move(loaded), grid,
                           std::move(params));
  return launchKernel(driver, *loaded, grid, params.pointers(),
                      static_cast<cuda::CUstream>(stream));
}

/// Launch plans: what a call with given sizes launches, remembered per
/// thread so that a repeated call skips the config selection, the kernel
/// key, the cache lookups and the module lookup (the warm call's host
/// overhead). Keyed by everything those depend on: layout, sizes, the
/// expected rows of a masked call, the SM limit and the context.
struct PlanKey {
  int64_t layout = 0, m = 0, n = 0, k = 0, groups = 1, expectedM = 0;
  int64_t smLimit = 0;
  cuda::CUcontext context = nullptr;
  bool operator==(const PlanKey &o) const {
    return layout == o.layout && m == o.m && n == o.n && k == o.k &&
           groups == o.groups && expectedM == o.expectedM &&
           smLimit == o.smLimit && context == o.context;
  }
};

struct PlanKeyHash {
  size_t operator()(const PlanKey &p) const {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int64_t v :
         {p.layout, p.m, p.n, p.k, p.groups, p.expectedM, p.smLimit,
          static_cast<int64_t>(reinterpret_cast<uintptr_t>(p.context))})
      h = (h ^ static_cast<uint64_t>(v)) * 0x100000001b3ull;
    return static_cast<size_t>(h);
  }
};

struct LaunchPlan {
  std::shared_ptr<const CompiledKernel> kernel;
  std::shared_ptr<const LoadedKernel> loaded;
};

/// The thread's plans; cleared when it holds 256 (a workload with many
/// distinct M then pays the full path again).
std::unordered_map<PlanKey, LaunchPlan, PlanKeyHash> &launchPlans() {
  thread_local std::unordered_map<PlanKey, LaunchPlan, PlanKeyHash> plans;
  if (plans.size() >= 256)
    plans.clear();
  return plans;
}

/// DGEMM_LOG=2: one line per call that reuses a launch plan.
void logPlanHit(const CompiledKernel &kernel, int64_t m) {
  if (jitLogEnabled(2))
    jitLog(2, "plan hit: " + kernel.contract.kernelName + " (M=" + str(m) +
                  ")");
}

PlanKey planKey(const DeviceSession &session, int64_t layout, int64_t m,
                int64_t n, int64_t k, int64_t groups, int64_t expectedM) {
  PlanKey key;
  key.layout = layout;
  key.m = m;
  key.n = n;
  key.k = k;
  key.groups = groups;
  key.expectedM = expectedM;
  key.smLimit = numSmsLimit.load(std::memory_order_relaxed);
  key.context = session.context->context();
  return key;
}

/// Launches through the thread's launch plan for `key`, or makes the plan:
/// `makeKernel(kernel)` chooses the config and compiles or fetches the
/// kernel; the plan is remembered once its kernel is loaded. `request(c)`
/// builds the launch from the kernel's contract.
template <typename Request, typename MakeKernel>
Status plannedLaunch(DeviceSession &session, const PlanKey &key, int64_t m,
                     Request request, MakeKernel makeKernel, void *stream) {
  auto &plans = launchPlans();
  if (auto it = plans.find(key); it != plans.end()) {
    logPlanHit(*it->second.kernel, m);
    return launch(session, it->second.kernel,
                  request(it->second.kernel->contract), stream,
                  &it->second.loaded);
  }
  LaunchPlan plan;
  Status s = makeKernel(plan.kernel);
  if (!s.ok())
    return s;
  s = launch(session, plan.kernel, request(plan.kernel->contract), stream,
             &plan.loaded);
  if (plan.loaded)
    plans[key] = std::move(plan);
  return s;
}

/// The launch of a normal GEMM (with `ops.bias`: its epilogue adds the
/// bias, operands A, A scales, B, B scales, bias, D).
LaunchRequest normalRequest(const GemmOperands &ops, const GemmShape &shape) {
  LaunchRequest r;
  r.operands = {ops.a, ops.aScale, ops.b, ops.bScale, ops.d};
  if (ops.bias) {
    r.operands = {ops.a, ops.aScale, ops.b, ops.bScale, ops.bias, ops.d};
    r.layout = kLayoutBias;
  }
  r.gridM = r.paramM = shape.m;
  r.n = shape.n;
  r.k = shape.k;
  return r;
}

/// The launch of a weight-gradient GEMM (`wgrad`: operands A, A scales, B,
/// B scales, C = D, D), else of a normal one.
LaunchRequest wgradRequest(const GemmOperands &ops, const GemmShape &shape,
                           bool wgrad) {
  LaunchRequest r = normalRequest(ops, shape);
  if (wgrad) {
    r.operands = {ops.a, ops.aScale, ops.b, ops.bScale, ops.d, ops.d};
    r.layout = kLayoutWgrad;
  }
  return r;
}

/// Validates the operands (and, `withBias`, the bias) into `shape` and,
/// unless M = 0 (nothing to launch: success with `session` left closed),
/// opens `session`.
Status validateAndOpen(const GemmOperands &ops, GemmShape &shape,
                       DeviceSession &session, bool withBias = false) {
  Status s = validateGemmFp8Bf16Nt(ops, shape);
  if (s.ok() && withBias)
    s = validateGemmBias(ops.bias, shape.n);
  if (!s.ok() || shape.m == 0)
    return s;
  return session.open();
}

/// The normal GEMM; `withBias`: with the bias of `ops` added in its
/// epilogue (dgemm_gemm_fp8_bf16_nt_bias).
Status gemm(const GemmOperands &ops, void *stream, bool withBias = false) {
  GemmShape shape;
  DeviceSession session;
  Status s = validateAndOpen(ops, shape, session, withBias);
  if (!s.ok() || shape.m == 0)
    return s;
  LaunchRequest r = normalRequest(ops, shape);
  PlanKey key = planKey(session, withBias ? kLayoutBias : kLayoutNormal,
                        shape.m, shape.n, shape.k, 1, 0);
  return plannedLaunch(
      session, key, shape.m, [&](const LaunchContract &) { return r; },
      [&](std::shared_ptr<const CompiledKernel> &kernel) {
        TargetDesc target = session.target();
        KernelConfig config;
        Status c = chooseConfig(shape.m, shape.n, shape.k, target, config);
        if (!c.ok())
          return c;
        return gemmKernel(shape.m, shape.n, shape.k, config, target, kernel,
                          nullptr, nullptr, withBias);
      },
      stream);
}

/// The weight-gradient GEMM: D += A * B^T, f32 D, 1x128 scales for both.
Status wgradGemm(const GemmOperands &ops, void *stream) {
  GemmShape shape;
  Status s = validateWgradFp8Fp32Nt(ops, shape);
  if (!s.ok() || shape.m == 0 || shape.k == 0) // nothing to add
    return s;
  DeviceSession session;
  if (!(s = session.open()).ok())
    return s;
  LaunchRequest r = wgradRequest(ops, shape, true);
  PlanKey key = planKey(session, kLayoutWgrad, shape.m, shape.n, shape.k, 1,
                        0);
  return plannedLaunch(
      session, key, shape.m, [&](const LaunchContract &) { return r; },
      [&](std::shared_ptr<const CompiledKernel> &kernel) {
        TargetDesc target = session.target();
        ProblemDesc p = normalProblem(shape.m, shape.n, shape.k);
        p.out = OutType::F32;
        p.bScale = BScaleGranularity::Row1x128;
        KernelConfig config;
        Status c = chooseConfig(p, target, config);
        if (!c.ok())
          return c;
        GemmKernelKey kernelKey =
            makeGemmKernelKey(shape.n, shape.k, config, target);
        kernelKey.wgrad = true;
        return kernelFor(kernelKey,
                         "wgrad M=" + str(shape.m) + " N=" + str(shape.n) +
                             " K=" + str(shape.k),
                         kernel, nullptr, nullptr);
      },
      stream);
}

/// Kernel IR of a normal GEMM, or (`wgrad`) of the weight-gradient one: the
/// operands are checked as the C API function of that GEMM checks them, and
/// the kernel's contract must say it computes that GEMM.
Status launchKernelIR(const char *kernelIR, const GemmOperands &ops,
                      bool wgrad, void *stream) {
  if (!kernelIR)
    return Status::invalidArgument("kernel_ir is NULL");
  GemmShape shape;
  DeviceSession session;
  Status s = wgrad ? validateWgradFp8Fp32Nt(ops, shape)
                   : validateGemmFp8Bf16Nt(ops, shape);
  if (!s.ok() || shape.m == 0 || shape.k == 0)
    return s;
  if (!(s = session.open()).ok())
    return s;
  std::string_view text(kernelIR);
  std::string key =
      kernelIRKeyText(text, kKernelIRPipeline, dgemmBuildId(), llvmVersion());
  std::shared_ptr<const CompiledKernel> kernel;
  CacheSource from = CacheSource::Memory;
  auto start = std::chrono::steady_clock::now();
  s = KernelCache::global().getOrCompile(
      key, [&](CompiledKernel &out) { return compileKernelIR(text, out); },
      kernel, &from);
  if (!s.ok())
    return s;
  printConfig("kernel IR of " + str(text.size()) + " bytes, M=" +
                  str(shape.m) + " N=" + str(shape.n) + " K=" + str(shape.k),
              "block_m = " + str(kernel->contract.blockM) +
                  ", block_n = " + str(kernel->contract.blockN) +
                  ", cluster = " + str(kernel->contract.cluster),
              *kernel, from,
              std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count());
  return launch(session, kernel, wgradRequest(ops, shape, wgrad), stream);
}

/// The launch of an m-grouped kernel with block M `blockM`. Masked: the
/// grid is sized for every group full (the launch must not depend on
/// masked_m); the kernel reads M_max.
LaunchRequest groupedRequest(const GroupedOperands &ops,
                             const GroupedShape &shape, int64_t layout,
                             int64_t blockM) {
  const bool masked = layout == kLayoutMasked;
  LaunchRequest r;
  r.operands = {ops.a, ops.aScale, ops.b, ops.bScale, ops.groups, ops.d};
  r.gridM = masked ? shape.groups * ((shape.m + blockM - 1) / blockM) * blockM
                   : shape.m;
  r.paramM = shape.m;
  r.n = shape.n;
  r.k = shape.k;
  r.layout = layout;
  r.groups = shape.groups;
  return r;
}

/// Kernel IR of an m-grouped kernel: compiled (cached by the text's hash)
/// first, since its contract says which layout the operands must have.
Status launchGroupedKernelIR(const char *kernelIR, const GroupedOperands &ops,
                             void *stream) {
  if (!kernelIR)
    return Status::invalidArgument("kernel_ir is NULL");
  std::string_view text(kernelIR);
  std::string key =
      kernelIRKeyText(text, kKernelIRPipeline, dgemmBuildId(), llvmVersion());
  std::shared_ptr<const CompiledKernel> kernel;
  Status s = KernelCache::global().getOrCompile(
      key, [&](CompiledKernel &out) { return compileKernelIR(text, out); },
      kernel);
  if (!s.ok())
    return s;
  const LaunchContract &c = kernel->contract;
  if (c.layout != kLayoutContiguous && c.layout != kLayoutMasked &&
      c.layout != kLayoutContiguousOffsets)
    return Status::invalidArgument(
        "kernel " + c.kernelName +
        " is not an m-grouped kernel (its contract's layout is " +
        str(c.layout) + "); use dgemm_launch_kernel_ir");
  GroupedShape shape;
  if (!(s = validateGroupedFp8Bf16Nt(ops, c.layout == kLayoutMasked, shape,
                                     c.layout == kLayoutContiguousOffsets))
           .ok() ||
      shape.m == 0)
    return s;
  DeviceSession session;
  if (!(s = session.open()).ok())
    return s;
  return launch(session, kernel,
                groupedRequest(ops, shape, c.layout, c.blockM), stream);
}

/// An m-grouped GEMM (`layout`: kLayoutContiguous, kLayoutMasked or
/// kLayoutContiguousOffsets): validate, choose the config (contiguous: for
/// M_sum rows; masked: for expected_m rows per group), compile or fetch,
/// launch.
Status groupedGemm(const GroupedOperands &ops, int64_t layout,
                   int64_t expectedM, void *stream) {
  const bool masked = layout == kLayoutMasked;
  const bool offsets = layout == kLayoutContiguousOffsets;
  if (masked && expectedM < 1)
    return Status::invalidArgument(
        "expected_m must be at least 1 (the expected rows per group), got " +
        str(expectedM));
  GroupedShape shape;
  Status s = validateGroupedFp8Bf16Nt(ops, masked, shape, offsets);
  if (!s.ok() || shape.m == 0)
    return s;
  DeviceSession session;
  if (!(s = session.open()).ok())
    return s;
  PlanKey key = planKey(session, layout, shape.m, shape.n, shape.k,
                        shape.groups, masked ? expectedM : 0);
  return plannedLaunch(
      session, key, shape.m,
      [&](const LaunchContract &c) {
        return groupedRequest(ops, shape, layout, c.blockM);
      },
      [&](std::shared_ptr<const CompiledKernel> &kernel) {
        TargetDesc target = session.target();
        ProblemDesc p;
        p.kind =
            masked ? GemmKind::GroupedMasked : GemmKind::GroupedContiguous;
        p.m = masked ? std::min(expectedM, shape.m) : shape.m;
        p.n = shape.n;
        p.k = shape.k;
        p.groups = shape.groups;
        p.groupOffsets = offsets;
        KernelConfig config;
        Status c = chooseConfig(p, target, config);
        if (!c.ok())
          return c;
        GemmKernelKey kernelKey =
            makeGemmKernelKey(shape.n, shape.k, config, target);
        kernelKey.kind = p.kind;
        kernelKey.groups = shape.groups;
        kernelKey.groupOffsets = offsets;
        std::string what = std::string(masked    ? "masked"
                                       : offsets ? "contiguous (offsets)"
                                                 : "contiguous") +
                           " G=" + str(shape.groups) +
                           (masked ? " M_max=" : " M_sum=") + str(shape.m) +
                           (masked ? " expected_m=" + str(p.m) : "") +
                           " N=" + str(shape.n) + " K=" + str(shape.k);
        return kernelFor(kernelKey, what, kernel, nullptr, nullptr);
      },
      stream);
}

/// The k-grouped weight-gradient GEMM: D[g] += A_g * B_g^T for each group,
/// one launch. The config is chosen for the mean K per group (rounded to
/// 128); the launch plan is keyed by it, the k_g go into the kernel's group
/// table on every call.
Status kGroupedGemm(const GroupedOperands &ops, const int64_t *ks,
                    int64_t numGroups, void *stream) {
  KGroupedShape shape;
  Status s = validateKGroupedFp8Fp32Nt(ops, ks, numGroups, shape);
  if (!s.ok() || shape.m == 0 || shape.sumK == 0) // nothing to add
    return s;
  DeviceSession session;
  if (!(s = session.open()).ok())
    return s;
  const int64_t meanK = std::max<int64_t>(
      128, (shape.sumK / shape.groups + 64) / 128 * 128);
  PlanKey key = planKey(session, kLayoutKGrouped, shape.m, shape.n, meanK,
                        shape.groups, 0);
  auto request = [&](const LaunchContract &c) {
    LaunchRequest r;
    r.operands = {ops.a, ops.aScale, ops.b, ops.bScale, nullptr, ops.d};
    r.gridM = shape.groups * ((shape.m + c.blockM - 1) / c.blockM) * c.blockM;
    r.paramM = shape.m;
    r.n = shape.n;
    r.k = 0;
    r.layout = kLayoutKGrouped;
    r.groups = shape.groups;
    r.ks = shape.ks;
    return r;
  };
  return plannedLaunch(
      session, key, shape.m, request,
      [&](std::shared_ptr<const CompiledKernel> &kernel) {
        TargetDesc target = session.target();
        ProblemDesc p;
        p.kind = GemmKind::KGrouped;
        p.m = shape.m;
        p.n = shape.n;
        p.k = meanK;
        p.groups = shape.groups;
        p.out = OutType::F32;
        p.bScale = BScaleGranularity::Row1x128;
        KernelConfig config;
        Status c = chooseConfig(p, target, config);
        if (!c.ok())
          return c;
        GemmKernelKey kernelKey = makeGemmKernelKey(shape.n, 0, config, target);
        kernelKey.kind = GemmKind::KGrouped;
        kernelKey.groups = shape.groups;
        kernelKey.m = shape.m;
        return kernelFor(kernelKey,
                         "k-grouped G=" + str(shape.groups) +
                             " M=" + str(shape.m) + " N=" + str(shape.n) +
                             " sum(k_g)=" + str(shape.sumK),
                         kernel, nullptr, nullptr);
      },
      stream);
}

/// Copies `text` into a caller buffer, NUL-terminated, truncating.
void copyTruncated(const std::string &text, char *buf, int64_t size) {
  if (!buf || size < 1)
    return;
  size_t n = std::min<size_t>(text.size(), static_cast<size_t>(size - 1));
  std::memcpy(buf, text.data(), n);
  buf[n] = '\0';
}

Status prepare(int64_t m, int64_t n, int64_t k, double *compileMs, char *info,
               int64_t infoSize) {
  if (info && infoSize < 1)
    return Status::invalidArgument("info_size must be at least 1 when info is "
                                   "given, got " +
                                   str(infoSize));
  DeviceSession session;
  bool haveDevice = false;
  TargetDesc target = targetOrDefault(session, haveDevice);
  KernelConfig config;
  Status s = chooseConfig(m, n, k, target, config);
  if (!s.ok())
    return s;
  std::shared_ptr<const CompiledKernel> kernel;
  CacheSource source = CacheSource::Compiled;
  double ms = 0;
  if (!(s = gemmKernel(m, n, k, config, target, kernel, &ms, &source)).ok())
    return s;
  if (compileMs)
    *compileMs = source == CacheSource::Compiled ? ms : 0.0;
  const LaunchContract &c = kernel->contract;
  std::string text =
      "config=" + formatConfigAttr(config) + "; kernel=" + c.kernelName +
      "; cache=" + toString(source) + "; block=" + str(c.block) +
      "; cluster=" + str(c.cluster) + "; dynamic_smem=" + str(c.dynamicSmem) +
      "; max_ctas=" + str(c.maxCtas) + "; ptx_bytes=" + str(kernel->ptx.size());
  if (haveDevice) {
    std::shared_ptr<const LoadedKernel> loaded;
    bool loadedNow = false;
    s = LoadedKernels::global().get(*session.driver, session.context->context(),
                                    session.context->device(), kernel, loaded,
                                    &loadedNow);
    if (!s.ok())
      return s;
    char loadMs[32];
    std::snprintf(loadMs, sizeof(loadMs), "%.3f",
                  loadedNow ? loaded->loadMs : 0.0);
    text += std::string("; load_ms=") + loadMs +
            "; registers=" + str(loaded->numRegs) +
            "; local_bytes=" + str(loaded->localBytes) +
            "; max_active_clusters=" + str(loaded->maxActiveClusters);
  } else {
    text += "; device=none";
  }
  copyTruncated(text, info, infoSize);
  return Status::success();
}

/// Runs `call` (an entry point's C++ function) under a capture: its launch
/// is recorded into a new bound call, handed out in *out.
template <typename Call>
Status bindCall(dgemm_bound_call **out, Call call) {
  if (!out)
    return Status::invalidArgument("out (the bound call's handle) is NULL");
  *out = nullptr;
  auto bound = std::make_unique<dgemm_bound_call>();
  Status s;
  {
    BoundCallCapture capture(bound->call);
    s = call();
  }
  if (s.ok())
    *out = bound.release();
  return s;
}

} // namespace

extern "C" {

const char *dgemm_last_error(void) { return lastError.c_str(); }

dgemm_status dgemm_gemm_fp8_bf16_nt(const dgemm_tensor *a,
                                    const dgemm_tensor *a_scale,
                                    const dgemm_tensor *b,
                                    const dgemm_tensor *b_scale,
                                    const dgemm_tensor *d, void *stream) {
  GemmOperands ops{a, a_scale, b, b_scale, d};
  return finish(gemm(ops, stream));
}

dgemm_status dgemm_gemm_fp8_bf16_nt_bias(const dgemm_tensor *a,
                                         const dgemm_tensor *a_scale,
                                         const dgemm_tensor *b,
                                         const dgemm_tensor *b_scale,
                                         const dgemm_tensor *bias,
                                         const dgemm_tensor *d, void *stream) {
  GemmOperands ops{a, a_scale, b, b_scale, d};
  ops.bias = bias;
  return finish(gemm(ops, stream, /*withBias=*/true));
}

dgemm_status dgemm_wgrad_gemm_fp8_fp32_nt(const dgemm_tensor *a,
                                          const dgemm_tensor *a_scale,
                                          const dgemm_tensor *b,
                                          const dgemm_tensor *b_scale,
                                          const dgemm_tensor *d, void *stream) {
  GemmOperands ops{a, a_scale, b, b_scale, d};
  return finish(wgradGemm(ops, stream));
}

dgemm_status dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *d, const int64_t *ks,
    int64_t num_groups, void *stream) {
  GroupedOperands ops{a, a_scale, b, b_scale, nullptr, d};
  return finish(kGroupedGemm(ops, ks, num_groups, stream));
}

dgemm_status dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *m_indices,
    const dgemm_tensor *d, void *stream) {
  GroupedOperands ops{a, a_scale, b, b_scale, m_indices, d};
  return finish(groupedGemm(ops, kLayoutContiguous, 0, stream));
}

dgemm_status dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *offsets,
    const dgemm_tensor *d, void *stream) {
  GroupedOperands ops{a, a_scale, b, b_scale, offsets, d};
  return finish(groupedGemm(ops, kLayoutContiguousOffsets, 0, stream));
}

dgemm_status dgemm_m_grouped_gemm_fp8_bf16_nt_masked(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *masked_m,
    int64_t expected_m, const dgemm_tensor *d, void *stream) {
  GroupedOperands ops{a, a_scale, b, b_scale, masked_m, d};
  return finish(groupedGemm(ops, kLayoutMasked, expected_m, stream));
}

dgemm_status dgemm_bind_gemm_fp8_bf16_nt(const dgemm_tensor *a,
                                         const dgemm_tensor *a_scale,
                                         const dgemm_tensor *b,
                                         const dgemm_tensor *b_scale,
                                         const dgemm_tensor *d,
                                         dgemm_bound_call **out) {
  GemmOperands ops{a, a_scale, b, b_scale, d};
  return finish(bindCall(out, [&] { return gemm(ops, nullptr); }));
}

dgemm_status dgemm_bind_gemm_fp8_bf16_nt_bias(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *bias,
    const dgemm_tensor *d, dgemm_bound_call **out) {
  GemmOperands ops{a, a_scale, b, b_scale, d};
  ops.bias = bias;
  return finish(
      bindCall(out, [&] { return gemm(ops, nullptr, /*withBias=*/true); }));
}

dgemm_status dgemm_bind_wgrad_gemm_fp8_fp32_nt(const dgemm_tensor *a,
                                               const dgemm_tensor *a_scale,
                                               const dgemm_tensor *b,
                                               const dgemm_tensor *b_scale,
                                               const dgemm_tensor *d,
                                               dgemm_bound_call **out) {
  GemmOperands ops{a, a_scale, b, b_scale, d};
  return finish(bindCall(out, [&] { return wgradGemm(ops, nullptr); }));
}

dgemm_status dgemm_bind_m_grouped_gemm_fp8_bf16_nt_contiguous(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *m_indices,
    const dgemm_tensor *d, dgemm_bound_call **out) {
  GroupedOperands ops{a, a_scale, b, b_scale, m_indices, d};
  return finish(bindCall(
      out, [&] { return groupedGemm(ops, kLayoutContiguous, 0, nullptr); }));
}

dgemm_status dgemm_bind_m_grouped_gemm_fp8_bf16_nt_masked(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *masked_m,
    int64_t expected_m, const dgemm_tensor *d, dgemm_bound_call **out) {
  GroupedOperands ops{a, a_scale, b, b_scale, masked_m, d};
  return finish(bindCall(out, [&] {
    return groupedGemm(ops, kLayoutMasked, expected_m, nullptr);
  }));
}

dgemm_status dgemm_bound_call_launch(dgemm_bound_call *call, void *stream) {
  if (!call)
    return finish(Status::invalidArgument("call (the bound call) is NULL"));
  Status s = call->call.launch(stream, numSmsLimit.load());
  if (s.ok()) // the warm path builds no message
    return DGEMM_OK;
  return finish(s);
}

void dgemm_bound_call_free(dgemm_bound_call *call) { delete call; }

dgemm_status dgemm_gemm_config(int64_t m, int64_t n, int64_t k, char *buf,
                               int64_t buf_size) {
  if (!buf || buf_size < 1)
    return finish(Status::invalidArgument(
        "dgemm_gemm_config needs a buffer (buf_size >= 1), got buf_size " +
        str(buf_size)));
  DeviceSession session;
  bool haveDevice = false;
  TargetDesc target = targetOrDefault(session, haveDevice);
  KernelConfig config;
  Status s = chooseConfig(m, n, k, target, config);
  if (!s.ok())
    return finish(s);
  std::string text = formatConfigAttr(config);
  if (static_cast<int64_t>(text.size()) >= buf_size) {
    buf[0] = '\0';
    return finish(Status::invalidArgument(
        "the config text needs " + str(text.size() + 1) +
        " bytes, buf_size is " + str(buf_size)));
  }
  copyTruncated(text, buf, buf_size);
  return finish(Status::success());
}

dgemm_status dgemm_set_num_sms(int64_t n) {
  if (n < 0)
    return finish(Status::invalidArgument(
        "dgemm_set_num_sms needs n >= 0 (0: all SMs), got " + str(n)));
  numSmsLimit.store(n);
  return finish(Status::success());
}

dgemm_status dgemm_get_num_sms(int64_t *n) {
  if (!n)
    return finish(Status::invalidArgument("dgemm_get_num_sms needs n"));
  if (int64_t limit = numSmsLimit.load(); limit > 0) {
    *n = limit;
    return finish(Status::success());
  }
  DeviceSession session;
  bool haveDevice = false;
  *n = targetOrDefault(session, haveDevice).numSMs;
  return finish(Status::success());
}

dgemm_status dgemm_gemm_prepare(int64_t m, int64_t n, int64_t k,
                                double *compile_ms, char *info,
                                int64_t info_size) {
  if (compile_ms)
    *compile_ms = 0;
  return finish(prepare(m, n, k, compile_ms, info, info_size));
}

dgemm_status dgemm_launch_kernel_ir(const char *kernel_ir,
                                    const dgemm_tensor *a,
                                    const dgemm_tensor *a_scale,
                                    const dgemm_tensor *b,
                                    const dgemm_tensor *b_scale,
                                    const dgemm_tensor *d, void *stream) {
  GemmOperands ops{a, a_scale, b, b_scale, d};
  return finish(launchKernelIR(kernel_ir, ops, /*wgrad=*/false, stream));
}

dgemm_status dgemm_launch_wgrad_kernel_ir(
    const char *kernel_ir, const dgemm_tensor *a, const dgemm_tensor *a_scale,
    const dgemm_tensor *b, const dgemm_tensor *b_scale, const dgemm_tensor *d,
    void *stream) {
  GemmOperands ops{a, a_scale, b, b_scale, d};
  return finish(launchKernelIR(kernel_ir, ops, /*wgrad=*/true, stream));
}

dgemm_status dgemm_launch_grouped_kernel_ir(
    const char *kernel_ir, const dgemm_tensor *a, const dgemm_tensor *a_scale,
    const dgemm_tensor *b, const dgemm_tensor *b_scale,
    const dgemm_tensor *groups, const dgemm_tensor *d, void *stream) {
  GroupedOperands ops{a, a_scale, b, b_scale, groups, d};
  return finish(launchGroupedKernelIR(kernel_ir, ops, stream));
}

dgemm_status dgemm_compile_to_ptx(const char *dgemm_ir, char **ptx) {
  if (!dgemm_ir || !ptx)
    return finish(Status::invalidArgument(
        std::string(!dgemm_ir ? "dgemm_ir" : "ptx") + " is NULL"));
  *ptx = nullptr;
  std::string text;
  Status s = compileToPtx(dgemm_ir, text);
  if (!s.ok())
    return finish(s);
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (!copy)
    return finish(Status::internal("out of memory for " + str(text.size() + 1) +
                                   " bytes of PTX"));
  std::memcpy(copy, text.c_str(), text.size() + 1);
  *ptx = copy;
  return finish(Status::success());
}

void dgemm_free(void *p) { std::free(p); }

dgemm_status dgemm_jit_settings(char *buf, int64_t buf_size) {
  if (!buf || buf_size < 1)
    return finish(Status::invalidArgument(
        "dgemm_jit_settings needs a buffer (buf_size >= 1), got buf_size " +
        str(buf_size)));
  std::string text = "cache_dir=" + KernelCache::global().directory() +
                     "; " + JitSettings::get().describe();
  if (static_cast<int64_t>(text.size()) >= buf_size) {
    buf[0] = '\0';
    return finish(Status::invalidArgument(
        "the settings text needs " + str(text.size() + 1) +
        " bytes, buf_size is " + str(buf_size)));
  }
  copyTruncated(text, buf, buf_size);
  return finish(Status::success());
}

} // extern "C"
