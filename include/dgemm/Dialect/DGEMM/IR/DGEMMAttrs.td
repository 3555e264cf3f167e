//===- DGEMMAttrs.td - dgemm attributes --------------------*- tablegen -*-===//
//
// #dgemm.recipe (scale granularity), #dgemm.grouped (MoE layout),
// #dgemm.target (the GPU) and #dgemm.config (the kernel config).
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_ATTRS_TD
#define DGEMM_ATTRS_TD

include "dgemm/Dialect/DGEMM/IR/DGEMMDialect.td"
include "dgemm/Dialect/DGEMM/IR/DGEMMEnums.td"
include "mlir/IR/AttrTypeBase.td"

class DGEMM_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<DGEMM_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def DGEMM_RecipeAttr : DGEMM_Attr<"Recipe", "recipe"> {
  let summary = "scale granularity of A and B";
  let description = [{
    How the FP8 operands are scaled, as `rows x cols` of the block one f32
    scale covers. A is always scaled per row per 128 K-values (`1x128`). B is
    scaled per `128x128` block (inference and the forward pass), or per row
    per 128 K-values (`1x128`, the weight-gradient recipe).

    ```mlir
    #dgemm.recipe<a = 1x128, b = 128x128>
    #dgemm.recipe<a = 1x128, b = 1x128>
    ```
  }];
  let parameters = (ins "int64_t":$aRows, "int64_t":$aCols,
                        "int64_t":$bRows, "int64_t":$bCols);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  // Lets ops default the attribute to a C++ expression (DefaultValuedAttr).
  let constBuilderCall = "$0";
  let extraClassDeclaration = [{
    /// True for the weight-gradient recipe (B scaled per row).
    bool isPerRowB() const { return getBRows() == 1; }
    static RecipeAttr getBlockwise(::mlir::MLIRContext *ctx) {
      return get(ctx, 1, 128, 128, 128);
    }
  }];
}

def DGEMM_GroupedAttr : DGEMM_Attr<"Grouped", "grouped"> {
  let summary = "layout of an m-grouped GEMM";
  let description = [{
    `contiguous`: the groups' rows stacked in one A [M_sum, K], each group's
    rows aligned to 128, an i32 `m_indices[M_sum]` naming each row's group
    (-1 for padding). `contiguous_offsets`: the same A, with an i32
    `offsets[G]` instead, each group's end row (exclusive, cumulative); group
    g starts at the first multiple of 128 at or after group g-1's end (row 0
    for g = 0), its rows up to that start are padding. `masked`: A is [G,
    M_max, K] and an i32 `masked_m[G]`, read on the device, gives each
    group's valid rows.

    ```mlir
    #dgemm.grouped<contiguous>
    #dgemm.grouped<contiguous_offsets>
    #dgemm.grouped<masked>
    ```
  }];
  let parameters = (ins EnumParameter<DGEMM_GroupedLayout>:$layout);
  let assemblyFormat = "`<` $layout `>`";
}

def DGEMM_TargetAttr : DGEMM_Attr<"Target", "target"> {
  let summary = "the GPU a kernel is built for";
  let description = [{
    The chip, its number of SMs and the dynamic shared memory one block may
    use. Defaults are H100/H200 (sm_90a, 132 SMs, 232448 bytes).

    ```mlir
    #dgemm.target<"sm_90a", sms = 132, smem = 232448>
    ```
  }];
  let parameters = (ins StringRefParameter<"chip">:$chip,
                        "int64_t":$sms, "int64_t":$smem);
  let assemblyFormat = "`<` $chip `,` `sms` `=` $sms `,` `smem` `=` $smem `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    static TargetAttr getDefault(::mlir::MLIRContext *ctx) {
      return get(ctx, "sm_90a", 132, 232448);
    }
  }];
}

def DGEMM_ConfigAttr : DGEMM_Attr<"Config", "config"> {
  let summary = "kernel config of a GEMM";
  let description = [{
    How the kernel computes the GEMM: output tile `block_m` x `block_n`
    (block K is always 128), `stages` of the shared-memory ring, CTAs per
    `cluster` (1 or 2) and the operand they `multicast`, consumer
    `math_warpgroups`, the tile-order `swizzle_group` (tiles are walked in
    groups of that many N blocks) and the `num_sms` CTAs of the persistent grid.
    `stream_b` (default false, printed only when true) says B is read once:
    each B tile serves a single M block, so its TMA loads are marked
    evict_first in L2 and stream through it instead of evicting what the GPU
    wrote before (on the H200 3% faster on the masked layout's 4 x 256 rows,
    8-11% on M <= 128 at K = 16384, 1-2% slower where M blocks share B:
    bench/results/2026-12-01-4a4db6a-ab-l2-hints-*.log).
    `alt_block_m`, `alt_block_n`, `alt_stages`, `alt_num_sms` (default 0,
    printed only when set; masked layout only) give a second tile shape built
    into the same kernel, with its own CTA count: the kernel counts both
    shapes' tiles from masked_m on the device and runs the one whose rounds
    of tiles cost less, so that groups with more rows than expected do not
    each add a nearly empty 256-row block.
    `a_box_rows` (default 0, printed only when set; normal GEMM, no
    multicast) cuts A's TMA box to that many rows (a multiple of 8 below
    `block_m`): for an M of one block, each stage receives M's rows rounded
    up to 8 instead of `block_m` rows zero-filled past M; the kernel then
    serves M <= `a_box_rows` only.
    Chosen by `dgemm-select-config`, or written by a user or a tuning record.

    ```mlir
    #dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 1,
                  multicast = none, math_warpgroups = 2, swizzle_group = 16,
                  num_sms = 128>
    ```
  }];
  let parameters = (ins "int64_t":$block_m, "int64_t":$block_n,
                        "int64_t":$stages, "int64_t":$cluster,
                        EnumParameter<DGEMM_MulticastOperand>:$multicast,
                        "int64_t":$math_warpgroups, "int64_t":$swizzle_group,
                        "int64_t":$num_sms,
                        DefaultValuedParameter<"bool", "false">:$stream_b,
                        DefaultValuedParameter<"int64_t", "0">:$alt_block_m,
                        DefaultValuedParameter<"int64_t", "0">:$alt_block_n,
                        DefaultValuedParameter<"int64_t", "0">:$alt_stages,
                        DefaultValuedParameter<"int64_t", "0">:$alt_num_sms,
                        DefaultValuedParameter<"int64_t", "0">:$a_box_rows);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // DGEMM_ATTRS_TD
