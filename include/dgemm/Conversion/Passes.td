//===- Passes.td - dgemm conversion passes -----------------*- tablegen -*-===//
//
// From dgemm ops to kernel IR, from kernel IR to NVVM, and PTX extraction.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_CONVERSION_PASSES_TD
#define DGEMM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def DGEMMLowerToKernel : Pass<"dgemm-lower-to-kernel", "::mlir::ModuleOp"> {
  let summary = "Lower each configured dgemm.gemm to a Hopper kernel written as kernel IR";
  let description = [{
    For every `dgemm.gemm` carrying a `#dgemm.config`, adds to the module's
    `gpu.module @dgemm_kernels` (target sm_90a, PTX 8.6) one `llvm.func`
    kernel whose structure is written out as IR a person can follow and edit:

    - the kernel takes the tensor maps of A, A scales, B and D by value
      (`llvm.byval`, `nvvm.grid_constant`), the B-scale pointer and M (i32);
    - thread 0 initialises the stage ring's full/empty mbarriers;
    - the last warpgroup is the producer (`nvvm.setmaxregister decrease`):
      one elected thread walks the persistent tile loop (`dgemm.schedule_tile`)
      and for each 128-wide K block waits for an empty stage, arms the full
      barrier with the stage's bytes and issues the TMA loads
      (`nvvm.cp.async.bulk.tensor`) of A, B and the A scales;
    - the other warpgroups are consumers (`setmaxregister increase`): per K
      block they wait for a full stage, read their scales, run
      `dgemm.wgmma_tile` between a wgmma fence and commit/wait, release the
      stage and `dgemm.promote` the block into the f32 total; per tile,
      `dgemm.epilogue_store` writes bf16 through shared memory and a TMA store.

    The kernel carries the launch contract `dgemm.launch`
    (docs/launch-contract.md). Host functions left empty are removed.
    Supported: E4M3 operands; dgemm.gemm with either recipe and a bf16 or
    f32 D (an accumulate input only when it is D itself: D += A * B^T by TMA
    reduce-add); dgemm.grouped_gemm; dgemm.k_grouped_gemm (at most 3984
    groups: its group table is a kernel parameter); block M 64, 128 or 256;
    2-CTA clusters for the bf16 1x128 x 128x128 forms only, multicasting A,
    or B (the normal GEMM and the contiguous layout, whose kernel checks
    each pair of M blocks' groups on the device); other ops get an error.

    `wgmma-parts` splits each consumer's tile columns into that many wgmma
    chains (of at least 32 columns, whole 8-column groups), each committed on
    its own, so that the promotion of one part overlaps the tensor cores'
    work on the next. The default is one chain: one-process A/B on the H200
    over the 18 normal shapes (bench/ab_kernel_ir.py --parts-only --normal,
    bench/results/2026-11-30-c284206-ab-parts.log) measured one part up to
    7.5% faster (4096x7168x2048, 4096x24576x1536, 4096x32768x512,
    128x4096x7168) and at most 1.7% slower elsewhere. Software-pipelining two
    parts across K blocks measured 10-35% slower (docs/kernel.md). At block
    N 192 two parts spill (192 bytes stored, ptxas 13.0) and ran 40%
    slower (H100, the contiguous layout, docs/kernel.md).
  }];
  let options = [
    Option<"wgmmaParts", "wgmma-parts", "int64_t", /*default=*/"1",
           "Most wgmma chains to split a tile's columns into">,
    Option<"columnScaleRelease", "column-scale-release", "std::string",
           /*default=*/"\"auto\"",
           "1x128 recipe: when a consumer releases a stage, 'early' (its "
           "columns' B scales loaded into registers first) or 'late' (after "
           "the promotion, which reads them); 'auto': early when the "
           "registers allow">,
    Option<"consumerOrder", "consumer-order", "std::string",
           /*default=*/"\"none\"",
           "Two consumer warpgroups: 'pingpong' makes them issue each K "
           "block's wgmmas in turn (named barriers 3 and 4), so that one "
           "promotes while the tensor cores run the other's; 'handoff' "
           "passes the turn when a warpgroup's wgmmas complete instead of "
           "when they are issued; 'none': no ordering">,
    Option<"tailSplit", "tail-split", "std::string", /*default=*/"\"off\"",
           "Normal GEMM with a bf16 D and no multicast: 'on' launches 2-CTA "
           "clusters and, when the last wave's tiles fill at most half of "
           "the grid, computes each of them on a cluster, half of the K "
           "blocks per CTA, reduced through distributed shared memory; "
           "'off': every tile on one CTA">,
    Option<"multicastExit", "multicast-exit", "std::string",
           /*default=*/"\"drain\"",
           "Multicast kernels (2-CTA clusters): 'drain' has the producer "
           "wait on each ring slot's empty barrier once more after its last "
           "load (so that both CTAs' consumers released everything it "
           "loaded) and lets the other warps leave, as DeepGEMM's kernels "
           "do; 'barrier' ends them with a cluster barrier that no CTA "
           "passes before its peer arrives (3-5% slower on the H100)">,
    Option<"consumerRegisters", "consumer-registers", "int64_t",
           /*default=*/"0",
           "Two consumer warpgroups: setmaxnreg of the consumers (a multiple "
           "of 8 in [128, 240]); the producer gets the rest of the 384 "
           "threads' pool (504 - 2 * this). 0: the default">,
    Option<"epilogueSwizzle", "epilogue-swizzle", "std::string",
           /*default=*/"\"auto\"",
           "bf16 output: stage the epilogue in 128-byte swizzled 64-column "
           "chunks ('on', block N a multiple of 64) or row-major ('off'); "
           "'auto': swizzled when block N is a multiple of 64 "
           "(KernelLayout::dSwizzle)">,
    Option<"consumerKSplit", "consumer-k-split", "std::string",
           /*default=*/"\"auto\"",
           "Normal GEMM with a bf16 D, block M 64 (one consumer warpgroup in "
           "the config), an even number of stages, block N <= 184: 'on' runs "
           "two consumer warpgroups that take every other K block of the "
           "tile each, warpgroup 1's sums added to warpgroup 0's through the "
           "staging tile before warpgroup 0 stores it (two K-block chains "
           "per SM; the kernel name ends in _ks); 'auto' (the default): on "
           "for block N <= 56 with at least 56 K blocks, where it measured "
           "0-5% faster on the H200; 'off': one consumer warpgroup">,
    Option<"kUnroll", "k-unroll", "int64_t", /*default=*/"2",
           "K blocks per consumer loop iteration: 1, or 2 (both blocks' "
           "wgmmas issued before the first is promoted, so the tensor cores "
           "run one while the other is promoted; needs one row wave, one "
           "wgmma part, 128x128 B scales, no consumer ordering, no tail "
           "split and registers for two fresh fragments: kernels that do "
           "not qualify keep 1). 2 measured 0-6% faster on the 11 "
           "qualifying normal shapes of M <= 128 and slower on none "
           "(bench/results/2026-12-01-*-ab-kunroll.log)">,
    Option<"l2HintA", "l2-hint-a", "std::string", /*default=*/"\"none\"",
           "L2 eviction priority of A's TMA loads: 'evict-first', "
           "'evict-last' or 'evict-normal' (a createpolicy cache policy "
           "passed with each load); 'none': no hint">,
    Option<"l2HintD", "l2-hint-d", "std::string", /*default=*/"\"none\"",
           "L2 eviction priority of D's TMA stores (bf16 output tiles), as "
           "l2-hint-a: 'evict-first' lets the output tiles replace each "
           "other in L2 rather than what was there before the kernel">,
    Option<"l2HintB", "l2-hint-b", "std::string", /*default=*/"\"auto\"",
           "L2 eviction priority of B's TMA loads, as l2-hint-a; 'auto' (the "
           "default): evict-first when the config says stream_b, else none">,
    Option<"maskedPartialStore", "masked-partial-store", "std::string",
           /*default=*/"\"auto\"",
           "Masked layout, a tile that crosses masked_m: 'staged' writes it "
           "to the staging tile and copies its valid rows out in 16-byte "
           "pieces (N a multiple of 8); 'direct' stores each thread's bf16 "
           "pairs straight from registers; 'auto' (the default): staged, "
           "except at block M 256 with row-major staging (block N not a "
           "multiple of 64), where "
           "ptxas spills with it">,
    Option<"bScaleCopy", "b-scale-copy", "std::string",
           /*default=*/"\"auto\"",
           "In kernels without b-scale-prefetch (128x128 recipe): 'shared': "
           "all consumer threads copy the tile's B scales into one buffer "
           "and meet at named barrier 2 (and at 1 before it where no "
           "epilogue barrier over all consumers ends the last tile); "
           "'warpgroup': each consumer warpgroup copies them into a buffer "
           "of its own between two meetings of its own named barrier 9 + w, "
           "so that no warpgroup waits for another there (where the buffers "
           "do not fit, shared); 'auto' (the default): warpgroup for the "
           "contiguous layout, shared otherwise (as measured)">,
    Option<"groupPrefetch", "group-prefetch", "std::string",
           /*default=*/"\"auto\"",
           "Contiguous layout given by m_indices: 'on' loads the next "
           "tile's m_indices entries (its group, and its pair's with B "
           "multicast) at the start of each tile and carries them to the "
           "next, so that no tile waits for that global load before its "
           "B scales and K loop; 'off': each tile loads its own at its "
           "start; 'auto' (the default): off (the kernel name ends in _gp "
           "where on)">,
    Option<"bScalePrefetch", "b-scale-prefetch", "std::string",
           /*default=*/"\"auto\"",
           "'on': where the normal layout's tiles have one row wave, no "
           "cluster, no split tail and no ping-pong, the consumers load the "
           "next tile's B scales into registers before the K loop and store "
           "them after it into the other of two buffers of their "
           "warpgroup's own, so that no tile waits for its scales' global "
           "load and each warpgroup meets only its own barrier once per "
           "tile (where the buffers fit the target's shared memory); also "
           "for the contiguous layout with group-prefetch, whose consumers "
           "copy the next tile's scales with cp.async after the K loop; "
           "'off': "
           "each tile copies its own scales at its start, all consumers "
           "meeting twice; 'auto' (the default): on for two consumer "
           "warpgroups">,
    Option<"epilogueSync", "epilogue-sync", "std::string",
           /*default=*/"\"auto\"",
           "'warpgroup': each consumer warpgroup stages its own rows of the "
           "output tile and its first thread stores them (boxes of 64 rows), "
           "meeting only its own named barrier, so that the "
           "two consumers need not wait for each other at the epilogue; "
           "'tile': both meet at one barrier and thread 0 stores the tile; "
           "'auto' (the default): warpgroup for bf16 outputs, tile for f32. "
           "Only where each warpgroup holds whole rows of the tile (no K "
           "split, no split tail, no ping-pong, not masked); at block M 256 "
           "(two row waves) 'auto' is tile (warpgroup measured 0.98-0.99 of "
           "it there)">,
    Option<"uniformWarpgroup", "uniform-warpgroup", "std::string",
           /*default=*/"\"auto\"",
           "'on' takes the warpgroup index (thread index / 128) from lane 0 "
           "of each warp (shfl.sync.idx), which ptxas knows to be "
           "warp-uniform, so that the A tile's wgmma descriptors can be "
           "computed in uniform registers; 'off': the plain division; "
           "'auto' (the default): on where the K loop is stage-unrolled">,
    Option<"stageUnroll", "stage-unroll", "std::string",
           /*default=*/"\"auto\"",
           "'on' runs the consumers' K loop in rounds of `stages` K blocks, "
           "ring slot j in the j-th copy of the body (a copy outside the "
           "tile's K blocks skipped), so that stage addresses and wgmma "
           "descriptors are constants; for kernels that take one K block "
           "per iteration without a K split. 'off': one K block per "
           "iteration, the slot computed from the ring counter. 'auto' (the "
           "default): on for such kernels with at least 8 K blocks, a bf16 "
           "D and 128x128 B scales">,
    Option<"earlyFullWait", "early-full-wait", "std::string",
           /*default=*/"\"auto\"",
           "Stage-unrolled K loop with 128x128 B scales: 'on' has each "
           "consumer, once it released a stage, test the next stage's full "
           "barrier (mbarrier.test_wait, which does not block) and wait "
           "for it before the next wgmmas only where that test failed, so "
           "that the test's latency runs beside the promotion's FMAs; "
           "'off': each K block waits (a try_wait loop) right before its "
           "wgmmas (the kernel name ends in _nfw where the rule would take "
           "it); 'auto' (the default): early in the stage-unrolled loop; "
           "'on': also in the K loop that takes one K block per iteration "
           "with its slot computed at run time (within 0.6% of the default "
           "on the 18 normal shapes; kernel name _fw there)">,
    Option<"earlyWaitKind", "early-wait-kind", "std::string",
           /*default=*/"\"auto\"",
           "Where the early full-barrier test runs (early-full-wait): 'try' "
           "issues it as one mbarrier.try_wait.parity (no loop), whose "
           "answer arrives when the stage is full (or the hardware's time "
           "limit passes) while the promotion's FMAs go on, so that a stage "
           "filled during the promotion needs no second wait (kernel name "
           "_tw; on an H100 no faster on the contiguous kernels, 2-5% "
           "slower on the 256x128 normal ones); 'test' and 'auto' (the "
           "default): mbarrier.test_wait, the state when the test issues">,
    Option<"fullRounds", "full-rounds", "std::string",
           /*default=*/"\"auto\"",
           "Stage-unrolled K loop of a normal or contiguous kernel whose K "
           "blocks are a multiple of its stages: 'on' runs each tile in "
           "whole rounds (every tile then starts at ring slot 0, so no copy "
           "of the body can fall outside the tile's K blocks), without the "
           "per-copy test and branch (kernel name _fr); 'off' and 'auto' "
           "(the default; 'on' measured within 0.6% of it on an H100): "
           "each copy tests its K block">,
    Option<"tileOrder", "tile-order", "std::string",
           /*default=*/"\"auto\"",
           "Persistent tile walk of the normal and contiguous layouts: 'm' "
           "walks groups of swizzle_group M blocks (M pairs with B "
           "multicast), M fastest inside a group, so the CTAs running at "
           "one time share B columns (kernel name _tm; on an H100 7% fewer "
           "DRAM bytes and 1% faster on the contiguous kernel at K 7168, "
           "0.3% slower at K 2048, 3-5% slower on the normal 256x128 "
           "ones); 'n' and 'auto' (the default): groups of swizzle_group N "
           "blocks, N fastest">,
    Option<"promoteVersions", "promote-versions", "std::string",
           /*default=*/"\"auto\"",
           "Stage-unrolled K loop at block N 192 with 128x128 B scales: 'on' "
           "builds the round loop twice, for a tile that starts at a B-scale "
           "block boundary and for one that starts 64 columns into a block, "
           "so that each promotion's B scale is chosen at compile time "
           "(4 scale products a K block instead of 6 and a select; kernel "
           "name _pv); 'off' and 'auto' (the default; 'on' measured 7-13% "
           "slower on an H100): one loop, the choice made at run time">,
    Option<"earlyBScales", "early-b-scales", "std::string",
           /*default=*/"\"auto\"",
           "Stage-unrolled K loop with 128x128 B scales: 'on' has each copy "
           "of the body load the next K block's B scales (the tile's scale "
           "buffer in shared memory, no barrier needed) once it released its "
           "stage, before its promotion, and hand them to the next copy, so "
           "that their latency runs beside the promotion instead of between "
           "the next K block's wgmmas (kernel name _eb); 'off' and 'auto' "
           "(the default; 'on' measured 0.2-3.4% slower on an H100): each "
           "copy loads its own after its full-barrier wait">,
    Option<"pinDescriptors", "pin-descriptors", "std::string",
           /*default=*/"\"auto\"",
           "Stage-unrolled K loop: 'a' adds an opaque 0 (inline PTX) to each "
           "copy's A tile pointer, 'on' to its A and B tile pointers, so that "
           "LLVM computes those wgmma descriptors in the copy instead of "
           "hoisting those of every slot out of the loop; 'off': hoisted; "
           "'auto' (the default): 'a' for the masked layout, else 'off'">,
    Option<"stagingStore", "staging-store", "std::string",
           /*default=*/"\"auto\"",
           "bf16 output: how the consumers write the output tile into the "
           "staging tile before its TMA store: 'stmatrix' (stmatrix.x4, 16 "
           "rows x 16 columns per warp instruction; the kernel name ends in "
           "_sx; .x2 per 8-column group at block M 256, where ptxas spilled "
           "with .x4), 'shared' (one 4-byte st.shared per register pair); "
           "'auto' (the default): shared (stmatrix measured 0.99-1.01 of it "
           "on an H100, docs/kernel.md)">,
    Option<"maskedWalk", "masked-walk", "std::string", /*default=*/"\"groups\"",
           "Masked layout, the order in which the CTAs take the tiles: "
           "'groups' (the default) walks each group's M blocks in turn; "
           "'cost' walks the M blocks by how many 64-row waves of valid rows "
           "they hold, the fullest first (every group's full blocks, then "
           "the crossing blocks), and hands a CTA's every other tile out in "
           "reverse order (tile i * CTAs + CTAs - 1 - c for odd i), so that "
           "a CTA that took an expensive tile in one round takes a cheap one "
           "in the next (the kernel name ends in _wc)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvertDGEMMToNVVM : Pass<"convert-dgemm-to-nvvm"> {
  let summary = "Lower the kernel-level dgemm ops to NVVM and LLVM ops";
  let description = [{
    One pattern per op: `dgemm.schedule_tile` to i32 arithmetic,
    `dgemm.wgmma_tile` to four `nvvm.wgmma.mma_async` with computed shared
    memory descriptors, `dgemm.promote` to f32 FMAs, `dgemm.epilogue_store`
    to bf16 packing, shared stores, an async-proxy fence, named barriers and
    a TMA store.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def DGEMMDumpPTX : Pass<"dgemm-dump-ptx", "::mlir::ModuleOp"> {
  let summary = "Write the PTX of every gpu.binary to a directory";
  let description = [{
    After `gpu-module-to-binary{format=isa}`, writes the assembly held by each
    `gpu.binary` object to `<dir>/<binary name>.ptx` (for ptxas checks).
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"\".\"",
           "Directory the .ptx files go to">,
  ];
}

#endif // DGEMM_CONVERSION_PASSES_TD
