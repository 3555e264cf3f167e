//===- Passes.td - dgemm transformation passes -------------*- tablegen -*-===//
//
// Passes on dgemm ops.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_PASSES_TD
#define DGEMM_PASSES_TD

include "mlir/Pass/PassBase.td"

def DGEMMSelectConfig : Pass<"dgemm-select-config"> {
  let summary = "Choose the kernel config of every dgemm op";
  let description = [{
    Attaches a `#dgemm.config` to every dgemm GEMM op that has none, chosen by
    `::dgemm::selectConfig` (ConfigSelection.h) from the op's problem and its
    target (the op's `target`, else the enclosing module's `dgemm.target`,
    else sm_90a with 132 SMs and 232448 bytes of shared memory). A config
    already on the op (written by a user or a tuning record) is kept. The
    runtime calls the same function per call with the actual M.

    The choice, deterministic:
    1. Candidates: block M in {64, 128, 256} (no 256 for the contiguous
       layout, whose groups are aligned to 128 rows), block N a multiple of 8
       up to 256; one math warpgroup for block M 64, two otherwise.
    2. A candidate must fit: the consumer thread's accumulators (fresh tile +
       promoted total, 2 x rows/64 x block N/2 floats, plus a reserve) within
       the setmaxnreg budget (240 for one math warpgroup, 232 for two); every
       tile at a multiple of block N spans at most two 128-wide B-scale blocks
       (block N <= 128 + gcd(block N, 128)); at least 3 stages in shared memory.
    3. Among those, the least modelled time: waves x per-tile cost, where waves
       = ceil(tiles / SMs); ties go to the larger tile. This is how block N 112
       wins at M=256, N=7168 (128 tiles in one wave) over 128 (112 tiles).
    4. Stages: as many as fit shared memory, at most 8.
    5. 2-CTA multicast for M >= `multicast-min-rows` (at least 512), K >=
       `multicast-min-k` and more than one wave, never for the
       weight-gradient forms: B (the normal GEMM) where the M blocks pair up
       and block N exceeds block M or the N blocks do not pair, else A where
       they do; with `multicast=true` (and `multicast-b=true` for B). By
       default the pass allows what the runtime and `dgemm-to-ptx`
       allow (`::dgemm::kernelCapabilities()`: M >= 8192 and K >= 2048,
       where multicast measured faster), so the config it prints is the one
       the runtime would run.
    6. SMs: the fewest that keep the number of waves (a multiple of the cluster).
    7. Tile order: groups of 16 N blocks (1 for a single wave).

    M is the op's static M, else its `m_hint`, else `default-m-hint`.
    docs/config-selection.md gives the arithmetic and the chosen configs.

    Before:
    ```mlir
    dgemm.gemm ins(...) outs(%d : memref<256x7168xbf16>)
    ```
    After:
    ```mlir
    dgemm.gemm ins(...) outs(%d : memref<256x7168xbf16>)
        {config = #dgemm.config<block_m = 128, block_n = 112, stages = ...>}
    ```
  }];
  let options = [
    Option<"defaultMHint", "default-m-hint", "int64_t", /*default=*/"4096",
           "M assumed for ops whose M is dynamic and that have no m_hint">,
    Option<"multicast", "multicast", "bool",
           /*default=*/"::dgemm::kernelCapabilities().allowMulticast",
           "Allow 2-CTA clusters with TMA multicast (default: as the runtime)">,
    Option<"multicastB", "multicast-b", "bool",
           /*default=*/"::dgemm::kernelCapabilities().allowMulticastB",
           "Allow multicasting B, clusters along M (default: as the runtime)">,
    Option<"multicastMinRows", "multicast-min-rows", "int64_t",
           /*default=*/"::dgemm::kernelCapabilities().multicastMinRows",
           "Multicast only with at least this many rows (contiguous: all "
           "rows; masked: expected rows per group; at least 512 whatever "
           "this says; default: as the runtime)">,
    Option<"multicastMinK", "multicast-min-k", "int64_t",
           /*default=*/"::dgemm::kernelCapabilities().multicastMinK",
           "Multicast only with K at least this (default: as the runtime)">,
    Option<"maxBlockM", "max-block-m", "int64_t",
           /*default=*/"::dgemm::kernelCapabilities().maxBlockM",
           "Largest block M to choose (default: the lowering's capability)">,
  ];
  let statistics = [
    Statistic<"numChosen", "configs-chosen", "Configs chosen by the heuristic">,
    Statistic<"numKept", "configs-kept", "Configs already on the op, kept">,
  ];
}

def DGEMMConfigReport : Pass<"dgemm-config-report"> {
  let summary = "Print the kernel config of every dgemm op, one line each";
  let description = [{
    For each dgemm GEMM op with a `#dgemm.config`, prints to standard output
    the enclosing function, the problem (layout, groups, M, N, K) and the
    config with what follows from it: output tiles, waves over the launched
    SMs, shared memory and consumer registers. The IR is unchanged. Ops
    without a config are reported as such. Run after `dgemm-select-config`:

    ```
    dgemm-opt --dgemm-select-config --dgemm-config-report in.mlir -o /dev/null
    ```
  }];
}

#endif // DGEMM_PASSES_TD
