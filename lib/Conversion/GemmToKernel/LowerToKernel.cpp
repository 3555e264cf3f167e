//===- LowerToKernel.cpp - the dgemm-lower-to-kernel pass ------------------===//
//
// Replaces every configured dgemm.gemm and dgemm.grouped_gemm by a kernel in
// gpu.module @dgemm_kernels (built by buildGemmKernel) and drops host
// functions that are left with nothing to do. One kernel per distinct
// (layout, groups, N, K, config).
//
//===----------------------------------------------------------------------===//
#include "GemmKernel.h"

#include "dgemm/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <optional>

namespace mlir::dgemm {
#define GEN_PASS_DEF_DGEMMLOWERTOKERNEL
#include "dgemm/Conversion/Passes.h.inc"
} // namespace mlir::dgemm

using namespace mlir;
using namespace mlir::dgemm;

static constexpr StringLiteral kKernelModule = "dgemm_kernels";
static constexpr StringLiteral kSmemSymbol = "dgemm_smem";

/// The config's parts the lowering does not build yet, or empty.
static std::string unsupportedConfig(const ::dgemm::KernelConfig &c) {
  if (c.blockM != 64 && c.blockM != 128 && c.blockM != 256)
    return "block_m " + std::to_string(c.blockM) +
           " is not lowered (64, 128 or 256)";
  return "";
}

static bool isE4M3(Value v) {
  return isa<Float8E4M3FNType>(cast<MemRefType>(v.getType()).getElementType());
}

/// Why the lowering cannot take this op yet, or empty.
static std::string unsupported(GemmOp op, const ::dgemm::KernelConfig &c) {
  auto d = cast<MemRefType>(op.getD().getType());
  if (!isE4M3(op.getA()) || !isE4M3(op.getB()))
    return "only f8E4M3FN operands are lowered so far";
  if (op.getC()) {
    if (!d.getElementType().isF32())
      return "an accumulate input C needs an f32 output D";
    // The kernel adds its tile into D (TMA reduce-add): D's old contents are
    // C only when C is D.
    if (op.getC() != op.getD())
      return "the accumulate input C must be D itself (acc(%d) outs(%d): "
             "the kernel adds into D in place); copy C into D first";
  }
  if (c.clusterSize > 1 &&
      (op.getRecipe().isPerRowB() || d.getElementType().isF32()))
    return "the weight-gradient forms (1x128 B scales, f32 output) are not "
           "lowered with clusters (multicast = none)";
  return unsupportedConfig(c);
}

static std::string unsupported(GroupedGemmOp op,
                               const ::dgemm::KernelConfig &c) {
  if (!isE4M3(op.getA()) || !isE4M3(op.getB()))
    return "only f8E4M3FN operands are lowered so far";
  auto b = cast<MemRefType>(op.getB().getType());
  if (b.isDynamicDim(0))
    return "the group count (B's first dimension) must be static";
  bool masked = op.getLayout().getLayout() == GroupedLayout::Masked;
  if (masked) {
    // D is addressed as a dense [G, M_max, N] by the kernel.
    auto d = cast<MemRefType>(op.getD().getType());
    if (!d.getLayout().isIdentity())
      return "the masked layout's D must be contiguous (identity layout)";
  }
  return unsupportedConfig(c);
}

/// The most groups of a k-grouped kernel: its group table (two template
/// maps and 8 bytes per group), three tensor maps and three addresses are
/// kernel parameters. CUDA documents 32764 bytes of them; the H200's driver
/// (580) loaded 32536 bytes (3984 groups) and refused 32664
/// (bench/probe_k_groups.py). The runtime's kMaxKGroups is the same.
static constexpr int64_t kMaxKGroups = 3984;

static std::string unsupported(KGroupedGemmOp op,
                               const ::dgemm::KernelConfig &c) {
  if (!isE4M3(op.getA()) || !isE4M3(op.getB()))
    return "only f8E4M3FN operands are lowered so far";
  int64_t groups = cast<MemRefType>(op.getD().getType()).getDimSize(0);
  if (groups > kMaxKGroups)
    return "at most " + std::to_string(kMaxKGroups) +
           " groups (the group table is a kernel parameter, 32 KB at most), "
           "got " +
           std::to_string(groups);
  if (c.clusterSize > 1)
    return "the k-grouped kernel is not lowered with clusters";
  return unsupportedConfig(c);
}

/// Kernel name suffix of an L2 hint: `tag` then f, l or n ("" for none).
static std::string hintSuffix(const char *tag, const std::string &hint) {
  if (hint.empty())
    return "";
  return tag + std::string(1, hint[std::string("evict_").size()]);
}

/// A lowering option of 'on', 'off' or 'auto' that applies only where
/// `applies`: `flag` is set where it applies and the option is 'on', or
/// 'auto' and `autoRule` holds; `override` where `flag` differs from what
/// 'auto' would give (the kernel name then says so).
static void setOnOffAuto(const std::string &option, bool applies,
                         bool autoRule, bool &flag, bool &override) {
  bool byAuto = applies && autoRule;
  flag = applies && (option == "on" || (option == "auto" && autoRule));
  override = flag != byAuto;
}

static std::string kernelName(const KernelLayout &l) {
  std::string kind = l.groupOffsets ? "dgemm_grouped_contiguous_offsets_g"
                     : l.contiguous() ? "dgemm_grouped_contiguous_g"
                     : l.masked()   ? "dgemm_grouped_masked_g"
                     : l.kGrouped() ? "dgemm_k_grouped_m" +
                                          std::to_string(l.m) + "_g"
                                    : "";
  if (!kind.empty())
    kind += std::to_string(l.groups) + "_";
  return (kind.empty() ? "dgemm_gemm_n" : kind + "n") + std::to_string(l.n) +
         (l.kGrouped() ? "" : "_k" + std::to_string(l.k)) +
         "_bm" + std::to_string(l.blockM) + "_bn" + std::to_string(l.blockN) +
         "_s" + std::to_string(l.stages) + "_g" +
         std::to_string(l.swizzleGroup) + "_c" + std::to_string(l.maxCtas) +
         (l.mcast > 1 ? (l.multicastB ? "_mcb" : "_mca") : "") +
         (l.nParts > 1 ? "_p" + std::to_string(l.nParts) : "") +
         (l.perRowB ? "_sb1x128" : "") + (l.f32Out ? "_f32" : "") +
         (l.accumulate ? "_acc" : "") + (l.bias ? "_bias" : "") +
         (l.lateRelease ? "_lr" : "") +
         (l.pingpong ? (l.handoff ? "_ho" : "_pp") : "") +
         (l.tailSplit ? "_ts" : "") + (l.kSplit ? "_ks" : "") +
         (l.drainExit ? "_dr" : "") +
         hintSuffix("_ha", l.l2HintA) +
         hintSuffix("_hb", l.l2HintB) + hintSuffix("_hd", l.l2HintD) +
         (l.aBoxRows ? "_ar" + std::to_string(l.aBoxRows) : "") +
         (l.maskedStoreOverride ? (l.maskedStaged ? "_ps" : "_pd") : "") +
         (l.costWalk ? "_wc" : "") + (l.uniformWarpgroupOverride ? (l.uniformWarpgroup ? "_uw" : "_nuw") : "") +
         (l.stageUnrollOverride ? (l.stageUnrolled ? "_su" : "_nsu") : "") +
         (l.epilogueSyncOverride ? (l.epilogueWarpgroup ? "_ew" : "_et") : "") +
         (l.bScalePrefetchOverride ? (l.bScalePrefetch ? "_bp" : "_nbp") : "") +
         (l.bScaleCopyOverride ? (l.bScaleCopyOwn ? "_bw" : "_bs") : "") +
         (l.groupPrefetch ? "_gp" : "") +
         (l.earlyFullWaitOverride ? (l.earlyFullWait ? "_fw" : "_nfw") : "") +
         (l.earlyTryWait ? "_tw" : "") +
         (l.fullRoundsOverride ? (l.fullRounds ? "_fr" : "_nfr") : "") +
         (l.tileOrderM ? "_tm" : "") +
         (l.promoteVersionsOverride ? (l.promoteVersions ? "_pv" : "_npv")
                                    : "") +
         (l.earlyBScalesOverride ? (l.earlyBScales ? "_eb" : "_neb") : "") +
         (l.stagingStoreOverride ? (l.stagingStmatrix ? "_sx" : "_sst") : "") +
         (l.pinOverride ? (l.pinDescriptorsB  ? "_pin"
                           : l.pinDescriptors ? "_pina"
                                              : "_npin")
                       : "") +
         (l.consumerRegs != ::dgemm::consumerRegisterBudget(l.consumers)
              ? "_r" + std::to_string(l.consumerRegs)
              : "");
}

/// The module's kernel container, created on first use with the sm_90a
/// target and the dynamic shared memory symbol.
static gpu::GPUModuleOp getKernelModule(ModuleOp module) {
  if (auto existing = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModule))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  MLIRContext *ctx = module.getContext();
  // PTX 8.6: older PTX features make the NVPTX backend abort on sm_90a.
  auto target = NVVM::NVVMTargetAttr::get(ctx, /*optLevel=*/3,
                                          "nvptx64-nvidia-cuda", "sm_90a",
                                          "+ptx86");
  auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), kKernelModule,
                                            b.getArrayAttr({target}));
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  b.getUnitAttr());
  b.setInsertionPointToStart(gpuModule.getBody());
  LLVM::GlobalOp::create(b, module.getLoc(),
                         LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                         /*isConstant=*/false, LLVM::Linkage::External,
                         kSmemSymbol, Attribute(), /*alignment=*/1024,
                         /*addrSpace=*/3);
  return gpuModule;
}

/// "`name` must be a, b or c, got 'value'" when `value` is none of
/// `choices`, else empty.
static std::string notOneOf(StringRef name, StringRef value,
                            ArrayRef<StringRef> choices) {
  if (llvm::is_contained(choices, value))
    return "";
  std::string list;
  for (size_t i = 0; i < choices.size(); ++i)
    list += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") +
            choices[i].str();
  return (name + " must be " + list + ", got '" + value + "'").str();
}

namespace {
struct LowerToKernelPass
    : public mlir::dgemm::impl::DGEMMLowerToKernelBase<LowerToKernelPass> {
  using Base::Base;
  /// The layout of a kernel for `config` (`secondShape`: a masked kernel's
  /// second tile shape): KernelLayout::get, then what the pass's options
  /// (and their 'auto' rules) decide.
  KernelLayout layoutFor(const ::dgemm::KernelConfig &config, bool secondShape,
                         const ::dgemm::ProblemDesc &p, bool accumulate) {
    KernelLayout layout = KernelLayout::get(config, p, wgmmaParts, accumulate);
    // Two consumer warpgroups splitting the K blocks of a 64-row tile
    // (registers: a fresh fragment and a total each, as with one, within
    // 232 with 8 to spare: at block N 192 ptxas spilled 12 bytes in one
    // of 276 configs tried, block M 64 with block N 16-192). Auto: narrow
    // tiles (block N <= 56) with at least 56 K blocks, where one wgmma
    // chain is latency-bound and the join is paid once per long tile:
    // H200 A/B (bench/results/2026-12-02-3f11165-ab-k-split.log) +4.8% at
    // 64x2112x7168 (64x16), +2.3% at 128x2112x7168 (64x32), +1.5% at
    // 64x7168x16384 (64x56), -0.4% at 64x4096x7168 (64x32); with fewer K
    // blocks or wider tiles 0-5% slower (64x32768x512 at 64x128: -4.7%).
    bool kSplitWanted =
        consumerKSplit == "on" ||
        (consumerKSplit == "auto" && layout.blockN <= 56 &&
         layout.kBlocks >= 56);
    if (kSplitWanted && layout.kind == ::dgemm::GemmKind::Normal &&
        !layout.f32Out && !layout.perRowB && layout.blockM == 64 &&
        layout.consumers == 1 && layout.cluster == 1 &&
        layout.stages % 2 == 0 && // each slot one warpgroup's
        layout.blockN + 48 <= ::dgemm::consumerRegisterBudget(2)) {
      layout.kSplit = true;
      layout.consumers = 2;
      layout.threads = 384;
      layout.splitRegisters(); // (40, 232)
    }
    if (layout.perRowB && columnScaleRelease != "auto")
      layout.lateRelease = columnScaleRelease == "late";
    // (Turns are per K block: one row wave per consumer only.)
    layout.pingpong = consumerOrder != "none" && layout.consumers == 2 &&
                      layout.rowWaves == 1 && !layout.kSplit;
    layout.handoff = layout.pingpong && consumerOrder == "handoff";
    if (!layout.f32Out && epilogueSwizzle != "auto") {
      layout.dSwizzle =
          epilogueSwizzle == "on" && layout.blockN % 64 == 0 ? 128 : 0;
      layout.splitRegisters();
    }
    // Tail split: normal GEMM, bf16 D, one CTA per tile otherwise, at
    // least two K blocks; the launch becomes 2-CTA clusters. (With
    // tiles <= CTAs / 2 every tile is split.) Its register pair comes
    // from splitRegisters.
    if (tailSplit == "on" && !layout.grouped() && !layout.kSplit &&
        !layout.f32Out && !layout.perRowB && layout.cluster == 1 &&
        layout.rowWaves == 1 &&
        layout.kBlocks >= 2 && layout.maxCtas % 2 == 0 &&
        // rank 1's partial sums fit in rank 0's A and B stages
        128 * layout.consumers * layout.blockN * 2 <=
            layout.sfaOff - layout.aOff) {
      layout.tailSplit = true;
      layout.cluster = 2;
      layout.splitRegisters();
    }
    layout.drainExit = multicastExit == "drain" && layout.mcast > 1;
    if (consumerRegisters && layout.consumers == 2) {
      layout.consumerRegs = consumerRegisters;
      layout.producerRegs = 504 - 2 * consumerRegisters;
    }
    layout.costWalk = layout.masked() && maskedWalk == "cost";
    // Two K blocks per iteration: one row wave, one part, no turns
    // between the consumers, no split tail, and what the problem allows
    // (takesKBlockPairs: room for two fresh fragments and the total; the
    // k-grouped GEMM's pairs at 128x128 ran 0.98-1.05x its 128x192
    // kernels once its tile loop read the CTA index in place,
    // GemmKernel.cpp). With 1x128 B scales each block's column scales are
    // read at its promotion: the weight-gradient GEMM at 128x128 ran
    // 12-24% faster than one block at a time
    // (bench/results/2026-12-02-c900c1d+kunroll-ab-wgrad-kunroll.log).
    if (kUnroll == 2 && !layout.kSplit && layout.rowWaves == 1 &&
        layout.nParts == 1 && !layout.pingpong && !layout.tailSplit &&
        ::dgemm::takesKBlockPairs(layout.blockN, layout.consumerRegs))
      layout.kUnroll = 2;
    // Stage-unrolled K loop: one K block per iteration, no K split, no
    // split tail (its share of K starts mid-tile). Auto: with at least 8
    // K blocks, bf16 output and block-scaled B (the weight gradients'
    // 128x192 kernels measured 2-7% slower with it, 0.6-5% with the
    // uniform index alone: bench/results/2026-12-02-8b638f6-ab-lower-
    // wgrad-stage-unroll.log), together with the warpgroup
    // index through lane 0. Measured on the H200 (bench/results/
    // 2026-12-02-d99f440-ab-lower-*-stage-unroll.log, each variant
    // checked): 4096x7168x16384 1354 -> 1441 TFLOPS, 4096x4096x7168 1293
    // -> 1377, 4096x7168x2048 1163 -> 1219, 128x192 tiles +0-1.5%,
    // masked 256x128 -2..+3%, contiguous +0.5-1%; with 4 K blocks
    // (4096x32768x512) 3% slower; stage-unrolled without the uniform
    // warpgroup index 1-10% slower.
    // Tiles of 192 columns or more keep the ring loop below 16 K blocks:
    // their unrolled loops took ptxas 3-4x as long (287 against 91 ms at
    // 64x24576x1536, 391 against 103 at 128x24576x1536; 639 and 518 ms
    // cold on the H200, past the 500 ms goal) and ran within 0.3-0.7% of
    // the ring loop there (bench/results/2026-12-03-2943ef7-ab-lower-
    // 192col-stage-unroll-off.log; 4096x24576x1536 1219 against 1217).
    // So does a masked kernel's second tile shape of 192 columns or more,
    // whatever K: beside the first shape's body its unrolled loop doubled
    // ptxas's time (128x192 at K 2048: 427 against 221 ms for the kernel).
    bool unrollable = layout.kUnroll == 1 && !layout.kSplit &&
                      !layout.tailSplit;
    bool wideShortK = layout.blockN >= 192 &&
                      (layout.kBlocks < 16 || secondShape);
    bool autoUnroll = unrollable && layout.kBlocks >= 8 && !wideShortK &&
                      !layout.perRowB && !layout.f32Out &&
                      !layout.kGrouped();
    setOnOffAuto(stageUnroll, unrollable, autoUnroll, layout.stageUnrolled,
                 layout.stageUnrollOverride);
    // Auto wherever it applies. Measured on an H100 (adeabea, 2026-12-07;
    // bench/results/2026-12-07-adeabea-h100-*): the M = 4096 normal
    // kernels 1.2-4.0% faster (4096x2112x7168 1236 -> 1285 TFLOPS), the
    // masked ones -0.4..+2.4%, the contiguous ones about 1% under the
    // power cap (docs/kernel.md, "Next").
    // 'on' also takes it into the K loops that are not stage-unrolled
    // (one K block per iteration, the slot computed at run time; kernel
    // name _fw): within 0.6% of the default on the 18 normal shapes (H100,
    // 6bbfff3; bench/results/2026-12-07-6bbfff3-h100-ab-fw-on-normal.log),
    // so not in 'auto'.
    setOnOffAuto(earlyFullWait, !layout.perRowB, layout.stageUnrolled,
                 layout.earlyFullWait, layout.earlyFullWaitOverride);
    // Not in 'auto': on the same H100 run no faster on the contiguous
    // kernels and 2-5% slower on the M = 4096 normal ones.
    layout.earlyTryWait = layout.earlyFullWait && earlyWaitKind == "try";
    // Whole rounds: the ring counter starts at 0 and every tile advances
    // it by kBlocks (no K split, no split tail, one tile shape, K the same
    // for every group), so with kBlocks a multiple of the stages each
    // tile's first K block is in slot 0 and its last in the last slot.
    // Not in 'auto': on an H100 (a015dde, 2026-12-07; bench/results/
    // 2026-12-07-a015dde-h100-*-fr-*) the contiguous and 4096x2112x7168
    // kernels ran within 0.6% of the default either way.
    bool wholeRounds = layout.stageUnrolled && !layout.kGrouped() &&
                       !layout.masked() && layout.kBlocks % layout.stages == 0;
    setOnOffAuto(fullRounds, wholeRounds, /*autoRule=*/false,
                 layout.fullRounds, layout.fullRoundsOverride);
    // Tile order along M (DeepGEMM's order where it shares B): only the
    // persistent walk of the normal and contiguous layouts has a choice.
    // Not in 'auto': on an H100 (8824571, 2026-12-07; bench/results/
    // 2026-12-07-8824571-h100-ow-*) 1% faster on the contiguous kernel at
    // K 7168 (DRAM reads 1.36 -> 1.26 GB), 0.3% slower at K 2048, 3-5%
    // slower on the M = 4096 normal kernels.
    layout.tileOrderM = tileOrder == "m" && !layout.masked() &&
                        !layout.kGrouped() && layout.swizzleGroup > 1;
    // Promote versions: block N 192 is the one tile width whose tiles
    // start at two offsets in a 128-column scale block (0 and 64).
    // Not in 'auto': 7% slower on the same run (the two round loops'
    // descriptors leave the uniform registers; docs/kernel.md, "Next").
    bool versionable = layout.stageUnrolled && !layout.perRowB &&
                       layout.blockN == 192;
    setOnOffAuto(promoteVersions, versionable, /*autoRule=*/false,
                 layout.promoteVersions, layout.promoteVersionsOverride);
    // Early B scales: wherever the stage-unrolled loop promotes with
    // 128x128 B scales. Not in 'auto': on an H100 (17e651d, 2026-12-07;
    // bench/results/2026-12-07-17e651d-h100-*eb*) the contiguous kernels
    // ran 0.2-0.4% slower sustained, the M = 4096 normal ones 0.5-3.4%
    // slower (ptxas moved the scale products behind the wgmma wait).
    setOnOffAuto(earlyBScales, layout.stageUnrolled && !layout.perRowB,
                 /*autoRule=*/false, layout.earlyBScales,
                 layout.earlyBScalesOverride);
    layout.uniformWarpgroup =
        uniformWarpgroup == "on" ||
        (uniformWarpgroup == "auto" && layout.stageUnrolled);
    // Pinned descriptors: auto pins the A tile for the masked layout,
    // whose stage-unrolled 256x128 kernels otherwise spilled inside the
    // K loop (the hoisted descriptors of all slots did not fit the
    // uniform registers beside the walk's state). Pinning both tiles
    // ran 2-4% faster than none there on the H200 (bench/results/
    // 2026-12-02-d99f440+auto-ab-lower-masked-pin.log) but kept 48
    // R2UR per round; with A alone the round loop has none and 14% fewer
    // instructions (SASS), and it ran 1-3% faster than both pinned, 2-7%
    // faster than none (2026-12-02-8b638f6-ab-lower-masked-pina.log:
    // G1 m1024 K2048 950 / 924 / 891 TFLOPS, G4 m256 K2048 875 / 859 /
    // 845, G4 m256 K7168 1146 / 1126 / 1112).
    // The normal kernels ran 2-3% slower with both pinned: hoisted.
    bool autoPin = layout.masked();
    layout.pinDescriptors =
        layout.stageUnrolled &&
        (pinDescriptors == "on" || pinDescriptors == "a" ||
         (pinDescriptors == "auto" && autoPin));
    layout.pinDescriptorsB =
        layout.pinDescriptors && pinDescriptors == "on";
    layout.pinOverride =
        layout.stageUnrolled &&
        (layout.pinDescriptors != autoPin || layout.pinDescriptorsB);
    // Per-warpgroup epilogue: where each consumer warpgroup holds whole
    // rows of the tile and no other path joins or orders the two at the
    // epilogue. Auto: bf16 outputs. Measured on the H200 (a5c700e, one
    // process, 3 rounds: bench/results/2026-12-03-a5c700e-ab-lower-
    // epilogue-sync.log): 4096x24576x1536 1198 -> 1222 TFLOPS,
    // 4096x32768x512 912 -> 924, the other four M = 4096 shapes within
    // 0.2%; the weight-gradient GEMM's reduce-adds 0.94-1.01x (median
    // 0.99) and the k-grouped 0.99-1.05x in a two-bundle run
    // (2026-12-03-a5c700e-ab-bundle-epilogue-sync.jsonl), and for the
    // k-grouped alone 0.96-1.01x over 5 rounds on 4dca804
    // (-4dca804-ab-bundle-kgrouped-epilogue-sync.jsonl): not there.
    // (rowWarpgroups() > 1: two consumers, not K split.) Block M 256 (two
    // row waves, each warpgroup storing two 64-row boxes per chunk): 0.98-
    // 0.99 of the tile-wide epilogue on the three 256x128 shapes on an H100
    // (bench/results/2026-12-05-a92ab4a-epilogue-1-h100.log): auto leaves
    // it.
    bool warpgroupRows = layout.rowWarpgroups() > 1 && !layout.tailSplit &&
                         !layout.pingpong && !layout.masked();
    bool autoEpilogueWarpgroup =
        warpgroupRows && !layout.f32Out && layout.rowWaves == 1;
    layout.epilogueWarpgroup =
        warpgroupRows &&
        (epilogueSync == "warpgroup" ||
         (epilogueSync == "auto" && autoEpilogueWarpgroup));
    layout.epilogueSyncOverride =
        layout.epilogueWarpgroup != autoEpilogueWarpgroup;
    // stmatrix for the bf16 staging stores (.x2 at block M 256, where
    // ptxas spilled with .x4: DGEMMToNVVM's writeStagingStmatrix). On an
    // H100 the same bits, 0.989-1.011 on the 18 normal shapes (geomean
    // 1.001) and within the spread on the grouped ones
    // (bench/results/2026-12-05-a92ab4a-epilogue-*-h100.log): 'auto' keeps
    // the 4-byte shared stores.
    const bool stmatrixFits = !layout.f32Out;
    const bool autoStmatrix = false;
    layout.stagingStmatrix =
        stmatrixFits && (stagingStore == "stmatrix" ||
                         (stagingStore == "auto" && autoStmatrix));
    layout.stagingStoreOverride =
        stmatrixFits && layout.stagingStmatrix != autoStmatrix;
    // The kernel name says where an option overrode auto.
    layout.uniformWarpgroupOverride =
        layout.uniformWarpgroup != layout.stageUnrolled;
    // "evict-first" -> "evict_first" (PTX's spelling); "none" -> "".
    auto hint = [](StringRef option) {
      return option == "none" ? std::string()
                              : option.str().replace(5, 1, "_");
    };
    layout.l2HintA = hint(l2HintA);
    layout.l2HintD = hint(l2HintD);
    // Staged partial-tile stores write 16-byte pieces of D's rows. Auto:
    // not at block M 256 with row-major staging (block N not a multiple
    // of 64: KernelLayout::dSwizzle), where ptxas
    // spilled 4-20 bytes at the 232-register budget with it.
    bool autoStaged = layout.rowWaves == 1 || layout.dSwizzle != 0;
    layout.maskedStaged =
        layout.masked() && layout.n % 8 == 0 &&
        (maskedPartialStore == "staged" ||
         (maskedPartialStore == "auto" && autoStaged));
    // The kernel name says so where the option overrode auto.
    layout.maskedStoreOverride =
        layout.masked() && layout.n % 8 == 0 &&
        layout.maskedStaged != autoStaged;
    // The next tile's B scales loaded before the K loop (the copy's global
    // load off the tile's path; each consumer warpgroup with buffers of its
    // own and one barrier of its own per tile, so the warpgroups no longer
    // wait for each other): where the tile walk is the plain persistent
    // loop (the next tile is t + step) and the tile has one row wave (the
    // 232-register 256-row kernels keep the copy). Auto: two consumer
    // warpgroups, each with its own rows (a K split, whose two warpgroups
    // share rows, only at most 4 K blocks, as measured before: its kernels
    // at more K blocks were not measured with it). Measured (H100, one
    // process, 5 rounds, against off:
    // bench/results/2026-12-05-56b8761-b-scale-private-h100.log):
    // 4096x32768x512 907 -> 982 TFLOPS (+8.3%), 4096x2112x7168 +1.8%,
    // 2048x2112x1024 +0.8%, 4096x24576x1536 +0.9%, 128x24576x1536 and
    // 128x32768x512 within the rounds' spread (-1.0..+0.4%). (Shared
    // buffers met at one barrier over both warpgroups gained 3.1% at
    // 4096x32768x512 and -1.0..+0.7% elsewhere:
    // bench/results/2026-12-05-91160c5+b-scale-prefetch-h100.log.) Whether
    // the buffers fit is decided by the caller.
    // The next tile's m_indices entries loaded a tile ahead (opt-in until
    // measured: docs/kernel.md, "Next").
    layout.groupPrefetch = layout.contiguous() && !layout.groupOffsets &&
                           groupPrefetch == "on";
    // The contiguous layout, only with group-prefetch (its walk gives the
    // next tile's group two tiles ahead), with or without a cluster.
    bool prefetchable = !layout.perRowB && layout.rowWaves == 1 &&
                        !layout.tailSplit && !layout.pingpong &&
                        ((!layout.grouped() && layout.mcast == 1) ||
                         (layout.groupPrefetch && !layout.kSplit));
    bool autoPrefetch = prefetchable && !layout.grouped() &&
                        layout.consumers == 2 &&
                        (!layout.kSplit || layout.kBlocks <= 4);
    setOnOffAuto(bScalePrefetch, prefetchable, autoPrefetch,
                 layout.bScalePrefetch, layout.bScalePrefetchOverride);
    layout.l2HintB = l2HintB == "auto"
                         ? std::string(config.streamB ? "evict_first" : "")
                         : hint(l2HintB);
    return layout;
  }

  void runOnOperation() override {
    const StringRef l2Hints[] = {"none", "evict-first", "evict-last",
                                 "evict-normal"};
    for (std::string why :
         {notOneOf("column-scale-release", columnScaleRelease,
                   {"auto", "early", "late"}),
          notOneOf("consumer-order", consumerOrder,
                   {"none", "pingpong", "handoff"}),
          notOneOf("epilogue-swizzle", epilogueSwizzle, {"auto", "on", "off"}),
          notOneOf("tail-split", tailSplit, {"on", "off"}),
          notOneOf("multicast-exit", multicastExit, {"barrier", "drain"}),
          notOneOf("consumer-k-split", consumerKSplit, {"auto", "on", "off"}),
          notOneOf("l2-hint-a", l2HintA, l2Hints),
          notOneOf("l2-hint-d", l2HintD, l2Hints),
          notOneOf("l2-hint-b", l2HintB,
                   {"auto", "none", "evict-first", "evict-last",
                    "evict-normal"}),
          notOneOf("masked-partial-store", maskedPartialStore,
                   {"auto", "staged", "direct"}),
          notOneOf("masked-walk", maskedWalk, {"groups", "cost"}),
          notOneOf("b-scale-prefetch", bScalePrefetch, {"auto", "on", "off"}),
          notOneOf("b-scale-copy", bScaleCopy, {"auto", "shared", "warpgroup"}),
          notOneOf("group-prefetch", groupPrefetch, {"auto", "on", "off"}),
          notOneOf("staging-store", stagingStore, {"auto", "stmatrix", "shared"}),
          notOneOf("epilogue-sync", epilogueSync,
                   {"auto", "tile", "warpgroup"}),
          notOneOf("uniform-warpgroup", uniformWarpgroup,
                   {"auto", "on", "off"}),
          notOneOf("stage-unroll", stageUnroll, {"auto", "on", "off"}),
          notOneOf("early-full-wait", earlyFullWait, {"auto", "on", "off"}),
          notOneOf("early-wait-kind", earlyWaitKind, {"auto", "test", "try"}),
          notOneOf("full-rounds", fullRounds, {"auto", "on", "off"}),
          notOneOf("tile-order", tileOrder, {"auto", "n", "m"}),
          notOneOf("promote-versions", promoteVersions, {"auto", "on", "off"}),
          notOneOf("early-b-scales", earlyBScales, {"auto", "on", "off"}),
          notOneOf("pin-descriptors", pinDescriptors, {"auto", "a", "on", "off"})}) {
      if (!why.empty()) {
        getOperation().emitError() << why;
        return signalPassFailure();
      }
    }
    if (consumerRegisters != 0 &&
        (consumerRegisters < 128 || consumerRegisters > 240 ||
         consumerRegisters % 8 != 0)) {
      getOperation().emitError()
          << "consumer-registers must be 0 or a multiple of 8 in [128, 240], "
             "got "
          << static_cast<int64_t>(consumerRegisters);
      return signalPassFailure();
    }
    if (kUnroll != 1 && kUnroll != 2) {
      getOperation().emitError()
          << "k-unroll must be 1 or 2, got " << static_cast<int64_t>(kUnroll);
      return signalPassFailure();
    }
    if (wgmmaParts < 1 || wgmmaParts > 8) {
      getOperation().emitError()
          << "wgmma-parts must be in [1, 8], got "
          << static_cast<int64_t>(wgmmaParts);
      return signalPassFailure();
    }
    ModuleOp module = getOperation();
    SmallVector<Operation *> gemms;
    module.walk([&](Operation *op) {
      if (isa<GemmOp, GroupedGemmOp, KGroupedGemmOp>(op))
        gemms.push_back(op);
    });
    bool failedAny = false;
    for (Operation *op : gemms) {
      auto gemm = cast<GemmOpInterface>(op);
      ConfigAttr attr = gemm.getKernelConfig();
      if (!attr) {
        op->emitOpError() << "has no #dgemm.config: run dgemm-select-config "
                             "before dgemm-lower-to-kernel";
        failedAny = true;
        continue;
      }
      ::dgemm::KernelConfig config = toKernelConfig(attr);
      std::string why =
          isa<GemmOp>(op)        ? unsupported(cast<GemmOp>(op), config)
          : isa<GroupedGemmOp>(op) ? unsupported(cast<GroupedGemmOp>(op), config)
                                   : unsupported(cast<KGroupedGemmOp>(op), config);
      if (!why.empty()) {
        op->emitOpError() << "cannot be lowered: " << why;
        failedAny = true;
        continue;
      }
      ::dgemm::ProblemDesc p = gemm.getProblem(/*defaultM=*/1);
      auto normal = dyn_cast<GemmOp>(op);
      bool accumulate =
          (normal && normal.getC()) || isa<KGroupedGemmOp>(op);
      KernelLayout layout = layoutFor(config, /*secondShape=*/false, p,
                                      accumulate);
      layout.bias = normal && normal.getBias();
      // The masked layout's second tile shape, built into the same kernel.
      std::optional<KernelLayout> alt;
      if (config.hasAlt())
        alt = layoutFor(config.alt(), /*secondShape=*/true, p, accumulate);
      int64_t smemLimit = gemm.getEffectiveTarget().getSmem();
      if (layout.bScalePrefetch) {
        // The buffers (two per consumer warpgroup), where they fit.
        KernelLayout doubled = layout;
        doubled.bScaleBuffers(2 * layout.consumers);
        if (kernelSmemBytes(doubled, nullptr) <= smemLimit) {
          layout = doubled;
        } else {
          // Auto would not take it either: the kernel (and its name) is
          // auto's.
          layout.bScalePrefetch = false;
          layout.bScalePrefetchOverride = false;
        }
      }
      // b-scale-copy: a buffer per consumer warpgroup in each tile shape
      // without the prefetch, where it fits. 'auto' takes it for the
      // contiguous layout only: +0.4-2.0% on its four shapes, against
      // -0.5-1% on the 256-row normal kernels and +-1% on the masked ones
      // (docs/kernel.md, "B scales with the stages").
      for (KernelLayout *shape : {&layout, alt ? &*alt : nullptr}) {
        if (!shape || shape->perRowB || shape->bScalePrefetch)
          continue;
        bool autoOwn = shape->contiguous();
        bool own = bScaleCopy == "auto" ? autoOwn : bScaleCopy == "warpgroup";
        shape->bScaleCopyOverride = own != autoOwn;
        if (!own)
          continue;
        KernelLayout withOwn = *shape;
        withOwn.bScaleBuffers(withOwn.consumers);
        withOwn.bScaleCopyOwn = true;
        if (withOwn.smemBytes <= smemLimit)
          *shape = withOwn;
        else
          shape->bScaleCopyOverride = false; // shared, as auto would be
      }
      if (layout.bias) {
        // The bias through shared memory, where its buffers fit.
        KernelLayout staged = layout;
        staged.stageBias();
        if (kernelSmemBytes(staged, nullptr) <= smemLimit)
          layout = staged;
      }
      int64_t smemBytes = kernelSmemBytes(layout, alt ? &*alt : nullptr);
      if (smemBytes > smemLimit) {
        op->emitOpError() << "cannot be lowered: the kernel needs "
                          << smemBytes
                          << " bytes of shared memory, the target has "
                          << smemLimit << " (fewer stages or groups)";
        failedAny = true;
        continue;
      }
      gpu::GPUModuleOp kernels = getKernelModule(module);
      std::string name = kernelName(layout);
      if (alt)
        name += "_alt" + std::to_string(alt->blockM) + "x" +
                std::to_string(alt->blockN) + "s" +
                std::to_string(alt->stages) + "c" +
                std::to_string(alt->maxCtas);
      if (!kernels.lookupSymbol(name)) {
        OpBuilder b = OpBuilder::atBlockEnd(kernels.getBody());
        buildGemmKernel(b, op->getLoc(), name, layout, kSmemSymbol,
                        alt ? &*alt : nullptr);
      }
      func::FuncOp host = op->getParentOfType<func::FuncOp>();
      op->erase();
      // A host function left with only its return has nothing to launch
      // from IR: the runtime launches the kernel by its contract.
      if (host && host.getBody().hasOneBlock() &&
          llvm::hasSingleElement(host.getBody().front()))
        host.erase();
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
