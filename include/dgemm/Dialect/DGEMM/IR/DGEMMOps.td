//===- DGEMMOps.td - dgemm operations ----------------------*- tablegen -*-===//
//
// The problem-level ops: dgemm.gemm, dgemm.grouped_gemm (contiguous and
// masked MoE layouts) and dgemm.k_grouped_gemm (MoE weight gradients).
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_OPS_TD
#define DGEMM_OPS_TD

include "dgemm/Dialect/DGEMM/IR/DGEMMAttrs.td"
include "dgemm/Dialect/DGEMM/IR/DGEMMInterfaces.td"
include "dgemm/Dialect/DGEMM/IR/DGEMMKernelOps.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class DGEMM_Op<string mnemonic, list<Trait> traits = []>
    : Op<DGEMM_Dialect, mnemonic,
         !listconcat(traits, [DeclareOpInterfaceMethods<DGEMM_GemmOpInterface>])>;

def DGEMM_GemmOp : DGEMM_Op<"gemm", [AttrSizedOperandSegments]> {
  let summary = "FP8 block-scaled GEMM: D = A * B^T (+ C) (+ bias)";
  let description = [{
    D[M, N] = A[M, K] * B[N, K]^T, both operands K-major ("NT"), A and B
    `f8E4M3FN` (or `f8E5M2`), accumulated in f32 with promotion every 128
    K-values, written as `bf16`, or as `f32` optionally added to an
    accumulate input C (weight gradients: D = C + A * B^T; C may be D).

    Scales are f32:
    - A: one per row per 128 K-values, logical shape [M, ceil(K/128)],
      stored MN-major: strides [1, S] with S >= M and S a multiple of 4 so
      each K block's row of M scales is 16-byte aligned for TMA
      (`memref<?x56xf32, strided<[1, ?]>>`).
    - B (`#dgemm.recipe<a = 1x128, b = 128x128>`, the default): one per
      128x128 block, [ceil(N/128), ceil(K/128)], K blocks innermost.
    - B (`#dgemm.recipe<a = 1x128, b = 1x128>`): one per row per 128
      K-values, [N, ceil(K/128)], MN-major like A.

    Epilogue fusion: with a `bias` operand (f32 [N], contiguous; bf16 output
    only) the kernel adds bias[n] to every row's column n in f32 before the
    bf16 conversion: D = A * B^T + bias, one launch, no extra pass over D.

    K must be a multiple of 128 and N, K static; M may be dynamic, with an
    optional `m_hint` (rows the config is chosen for). Every row that TMA
    moves must be 16-byte aligned. The optional `config` is the kernel config
    (`dgemm-select-config` chooses it), `target` the GPU.

    On Hopper this becomes a warp-specialized kernel: a TMA producer
    warpgroup filling a ring of shared-memory stages, wgmma m64nNk32 consumer
    warpgroups, and a bf16 epilogue.

    ```mlir
    dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
                   memref<?x56xf32, strided<[1, ?]>>,
                   memref<2112x7168xf8E4M3FN>, memref<17x56xf32>)
               outs(%d : memref<?x2112xbf16>) {m_hint = 4096 : i64}
    ```
  }];
  let arguments = (ins
    Arg<AnyMemRef, "A [M, K]", [MemRead]>:$a,
    Arg<AnyMemRef, "A scales [M, ceil(K/128)], MN-major", [MemRead]>:$a_scale,
    Arg<AnyMemRef, "B [N, K]", [MemRead]>:$b,
    Arg<AnyMemRef, "B scales", [MemRead]>:$b_scale,
    Arg<Optional<AnyMemRef>, "accumulate input C [M, N] f32", [MemRead]>:$c,
    Arg<Optional<AnyMemRef>, "bias [N] f32, added before the bf16 conversion",
        [MemRead]>:$bias,
    Arg<AnyMemRef, "output D [M, N]", [MemWrite]>:$d,
    DefaultValuedAttr<DGEMM_RecipeAttr,
        "::mlir::dgemm::RecipeAttr::getBlockwise($_builder.getContext())">:$recipe,
    OptionalAttr<DGEMM_ConfigAttr>:$config,
    OptionalAttr<DGEMM_TargetAttr>:$target,
    OptionalAttr<I64Attr>:$m_hint);
  let assemblyFormat = [{
    `ins` `(` $a `,` $a_scale `,` $b `,` $b_scale `:` type($a) `,`
        type($a_scale) `,` type($b) `,` type($b_scale) `)`
    (`acc` `(` $c^ `:` type($c) `)`)?
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    `outs` `(` $d `:` type($d) `)` attr-dict
  }];
  let hasVerifier = 1;
}

def DGEMM_GroupedGemmOp : DGEMM_Op<"grouped_gemm"> {
  let summary = "m-grouped FP8 GEMM for Mixture-of-Experts (contiguous or masked)";
  let description = [{
    One GEMM per group (expert) g with its own B[g] [N, K], sharing N and K;
    output bf16; recipe `1x128` for A and `128x128` for B.

    `#dgemm.grouped<contiguous>` (prefill, training forward): A [M_sum, K],
    D [M_sum, N], A scales [M_sum, ceil(K/128)] MN-major, B [G, N, K], B
    scales [G, ceil(N/128), ceil(K/128)], and `groups` is an i32
    `m_indices[M_sum]` giving each row's group. Each group's rows are padded
    to a multiple of 128; padding rows carry -1 and are skipped.

    `#dgemm.grouped<masked>` (decode under CUDA graphs): A [G, M_max, K],
    D [G, M_max, N], A scales [G, M_max, ceil(K/128)] MN-major within each
    group, B and its scales as above, and `groups` is an i32 `masked_m[G]`,
    read on the device, giving each group's valid rows. `m_hint` is the
    expected rows per group the config is chosen for.

    ```mlir
    dgemm.grouped_gemm #dgemm.grouped<masked>
        ins(%a, %sa, %b, %sb : memref<4x256x7168xf8E4M3FN>,
            memref<4x256x56xf32, strided<[14336, 1, 256]>>,
            memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
        groups(%masked_m : memref<4xi32>)
        outs(%d : memref<4x256x4096xbf16>)
    ```
  }];
  let arguments = (ins
    DGEMM_GroupedAttr:$layout,
    Arg<AnyMemRef, "A", [MemRead]>:$a,
    Arg<AnyMemRef, "A scales", [MemRead]>:$a_scale,
    Arg<AnyMemRef, "B [G, N, K]", [MemRead]>:$b,
    Arg<AnyMemRef, "B scales [G, ceil(N/128), ceil(K/128)]", [MemRead]>:$b_scale,
    Arg<AnyMemRef, "m_indices (contiguous) or masked_m (masked)", [MemRead]>:$groups,
    Arg<AnyMemRef, "output D", [MemWrite]>:$d,
    DefaultValuedAttr<DGEMM_RecipeAttr,
        "::mlir::dgemm::RecipeAttr::getBlockwise($_builder.getContext())">:$recipe,
    OptionalAttr<DGEMM_ConfigAttr>:$config,
    OptionalAttr<DGEMM_TargetAttr>:$target,
    OptionalAttr<I64Attr>:$m_hint);
  let assemblyFormat = [{
    $layout
    `ins` `(` $a `,` $a_scale `,` $b `,` $b_scale `:` type($a) `,`
        type($a_scale) `,` type($b) `,` type($b_scale) `)`
    `groups` `(` $groups `:` type($groups) `)`
    `outs` `(` $d `:` type($d) `)` attr-dict
  }];
  let hasVerifier = 1;
}

def DGEMM_KGroupedGemmOp : DGEMM_Op<"k_grouped_gemm"> {
  let summary = "k-grouped FP8 GEMM for MoE weight gradients: D[g] += A_g * B_g^T";
  let description = [{
    For each expert g: D[g] (f32 [M, N]) += A_g * B_g^T, where A_g [M, k_g]
    and B_g [N, k_g] are K-major blocks stored one after another in the flat
    buffers A and B, every k_g a multiple of 128 and given by the i32 `ks[G]`.
    Scales are 1x128 for both operands (`#dgemm.recipe<a = 1x128, b = 1x128>`,
    required), MN-major: A scales [sum(k_g)/128, M], B scales
    [sum(k_g)/128, N]. D is read and written in place.

    ```mlir
    dgemm.k_grouped_gemm
        ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>, memref<?x4096xf32>,
            memref<?xf8E4M3FN>, memref<?x7168xf32>)
        ks(%ks : memref<4xi32>)
        outs(%d : memref<4x4096x7168xf32>)
        {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
    ```
  }];
  let arguments = (ins
    Arg<AnyMemRef, "A, the A_g [M, k_g] one after another", [MemRead]>:$a,
    Arg<AnyMemRef, "A scales [sum(k_g)/128, M]", [MemRead]>:$a_scale,
    Arg<AnyMemRef, "B, the B_g [N, k_g] one after another", [MemRead]>:$b,
    Arg<AnyMemRef, "B scales [sum(k_g)/128, N]", [MemRead]>:$b_scale,
    Arg<AnyMemRef, "ks[G], the K of each group", [MemRead]>:$ks,
    Arg<AnyMemRef, "D [G, M, N] f32, accumulated in place", [MemRead, MemWrite]>:$d,
    DGEMM_RecipeAttr:$recipe,
    OptionalAttr<DGEMM_ConfigAttr>:$config,
    OptionalAttr<DGEMM_TargetAttr>:$target);
  let assemblyFormat = [{
    `ins` `(` $a `,` $a_scale `,` $b `,` $b_scale `:` type($a) `,`
        type($a_scale) `,` type($b) `,` type($b_scale) `)`
    `ks` `(` $ks `:` type($ks) `)`
    `outs` `(` $d `:` type($d) `)` attr-dict
  }];
  let hasVerifier = 1;
}

#endif // DGEMM_OPS_TD
