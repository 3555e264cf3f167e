//===- DGEMMKernelOps.td - kernel-level dgemm operations ---*- tablegen -*-===//
//
// Ops of the kernel IR that `dgemm-lower-to-kernel` writes: the pieces of a
// Hopper GEMM kernel that upstream ops do not express — the tile scheduler,
// a wgmma tile of one 128-wide K block (no implicit fence or wait), the
// promotion of a block's partial sums into the f32 total, the epilogue's
// bias (fusion) and the epilogue store. Everything else in the kernel IR is upstream (scf, arith, llvm,
// nvvm: mbarriers, TMA copies, fences, setmaxnreg). `convert-dgemm-to-nvvm`
// lowers each of these ops with one pattern.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_KERNEL_OPS_TD
#define DGEMM_KERNEL_OPS_TD

include "dgemm/Dialect/DGEMM/IR/DGEMMDialect.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def DGEMM_SharedPtr : LLVM_PointerInAddressSpace<3>;

class DGEMM_KernelOp<string mnemonic, list<Trait> traits = []>
    : Op<DGEMM_Dialect, mnemonic, traits>;

def DGEMM_ScheduleTileOp : DGEMM_KernelOp<"schedule_tile", [Pure]> {
  let summary = "output tile of a linear tile index (grouped tile order)";
  let description = [{
    Maps tile index `t` of a persistent loop to its (M block, N block). Tiles
    are walked in groups of `swizzle_group` N blocks; inside a group, N moves
    fastest, so the CTAs running at one time share A rows and a few B
    blocks in L2:

    ```
    per_group = num_m_blocks * G             G = swizzle_group
    first_n   = (t / per_group) * G
    width     = min(G, num_n_blocks - first_n)
    r         = t % per_group
    m_block   = r / width,  n_block = first_n + r % width
    ```

    With `along_m`, the groups are of `swizzle_group` M blocks instead and
    M moves fastest inside one (the CTAs running at one time share B
    columns and a few A blocks):

    ```
    per_group = num_n_blocks * G
    first_m   = (t / per_group) * G
    width     = min(G, num_m_blocks - first_m)
    r         = t % per_group
    m_block   = first_m + r % width,  n_block = r / width
    ```

    ```mlir
    %mb, %nb = dgemm.schedule_tile %t, %num_m_blocks
        {num_n_blocks = 56 : i32, swizzle_group = 16 : i32} : i32
    ```
  }];
  let arguments = (ins I32:$tile, I32:$num_m_blocks,
                       I32Attr:$num_n_blocks, I32Attr:$swizzle_group,
                       UnitAttr:$along_m);
  let results = (outs I32:$m_block, I32:$n_block);
  let assemblyFormat = "$tile `,` $num_m_blocks attr-dict `:` type($tile)";
  let hasVerifier = 1;
}

def DGEMM_WgmmaTileOp : DGEMM_KernelOp<"wgmma_tile"> {
  let summary = "one warpgroup's m64nNk128 FP8 product of a stage, fresh accumulator";
  let description = [{
    Four `wgmma.mma_async m64nNk32` E4M3 steps over a 128-byte K slice of
    the 128B-swizzled tiles at `a_tile` (64 rows) and `b_tile` (N rows) in
    shared memory. The first step zeroes the accumulator through its scale-d
    input (no register moves), so the result holds this K block alone: the
    caller promotes it with its scales. Descriptors:
    `((addr & 0x3FFFF) >> 4) | 1<<62 | 64<<32 | 1<<16`, K step = +32 bytes.
    No fence, commit or wait is implied: the kernel IR places
    `nvvm.wgmma.fence.aligned` before and commit/wait after.
  }];
  let arguments = (ins DGEMM_SharedPtr:$a_tile, DGEMM_SharedPtr:$b_tile,
                       I32Attr:$n);
  let results = (outs LLVM_AnyStruct:$acc);
  let assemblyFormat = [{
    $a_tile `,` $b_tile attr-dict `:` type($acc)
  }];
  let hasVerifier = 1;
}

def DGEMM_PromoteOp : DGEMM_KernelOp<"promote",
    [Pure, AllTypesMatch<["total", "acc", "result"]>]> {
  let summary = "total += acc * scale_a[row] * scale_b[column block]";
  let description = [{
    Two-level accumulation: adds one K block's partial sums `acc` (an
    m64nN f32 wgmma fragment) to the f32 `total`, scaled by the thread's two
    A scales (`sa0` for its row r0, `sa1` for r0 + 8) and by the B scale of
    each 8-column group j: `sb0` for j < `former`, `sb1` after (a tile may
    span two 128-wide B-scale blocks), and with `sb2` (a tile whose block N
    is not a multiple of 64 may span three) `sb1` for j < `former` + 16,
    `sb2` after. When the tile's columns are split over several fragments,
    `first_group` is the tile-wide index of this fragment's first 8-column
    group.
  }];
  let arguments = (ins LLVM_AnyStruct:$total, LLVM_AnyStruct:$acc, F32:$sa0,
                       F32:$sa1, F32:$sb0, F32:$sb1, Optional<F32>:$sb2,
                       I32:$former,
                       DefaultValuedAttr<I32Attr, "0">:$first_group);
  let results = (outs LLVM_AnyStruct:$result);
  let assemblyFormat = [{
    $total `,` $acc `scales` `(` $sa0 `,` $sa1 `,` $sb0 `,` $sb1
    (`,` $sb2^)? `)` `former` $former attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def DGEMM_PromoteColsOp : DGEMM_KernelOp<"promote_cols",
    [Pure, AllTypesMatch<["total", "acc", "result"]>]> {
  let summary = "total += acc * scale_a[row] * scale_b[column] (1x128 B scales)";
  let description = [{
    Two-level accumulation for the weight-gradient recipe, where B has one
    scale per row of B (per output column) per 128 K-values: adds the K
    block's partial sums `acc` (an m64nN f32 wgmma fragment) to `total`,
    register (row, column) scaled by `sa0` (row r0) or `sa1` (row r0 + 8)
    times the column's B scale. `sb` holds the thread's B-scale pairs, one
    `vector<2xf32>` per 8-column group j: the scales of columns 8j + 2q and
    8j + 2q + 1, q = lane % 4 (the fragment's columns, HOPPER-FACTS §2); the
    kernel loads them from the stage before releasing it.
  }];
  let arguments = (ins LLVM_AnyStruct:$total, LLVM_AnyStruct:$acc, F32:$sa0,
                       F32:$sa1, Variadic<VectorOfLengthAndType<[2], [F32]>>:$sb);
  let results = (outs LLVM_AnyStruct:$result);
  let assemblyFormat = [{
    $total `,` $acc `scales` `(` $sa0 `,` $sa1 `)` `columns` `(` $sb `:`
    type($sb) `)` attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def DGEMM_AddBiasOp : DGEMM_KernelOp<"add_bias",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "epilogue fusion: totals + bias[column] (f32 bias of N)";
  let description = [{
    Adds to each of the thread's tile totals the bias of its column: the
    register pair (8j + 2 * (lane % 4), + 1) of 8-column group j, both rows
    of the pair and every row wave, gets bias[n0 + column] and bias[n0 +
    column + 1], loaded as one `vector<2xf32>` per group from the f32
    vector at `bias` (8-byte aligned; N = `n` elements). Columns at or past
    `n` (a tile wider than the matrix's last columns) read the last pair
    instead, whose sums the store clips. Totals as for
    `dgemm.epilogue_store`: fragments of equal width covering the tile's
    columns left to right, one set per row wave; `tid` is the thread index
    (0 .. 128 * consumers - 1). The result holds the new totals in the same
    order.
  }];
  let arguments = (ins Variadic<LLVM_AnyStruct>:$totals,
                       Arg<LLVM_AnyPointer, "bias [n] f32", [MemRead]>:$bias,
                       I32:$n0, I32:$tid, I32Attr:$n, I32Attr:$block_m,
                       I32Attr:$block_n, I32Attr:$consumers);
  let results = (outs Variadic<LLVM_AnyStruct>:$results);
  let assemblyFormat = [{
    `(` $totals `)` `,` $bias `[` $n0 `]` `tid` $tid attr-dict
    `:` `(` type($totals) `)` `,` type($bias)
  }];
  let hasVerifier = 1;
}

def DGEMM_EpilogueStoreOp : DGEMM_KernelOp<"epilogue_store",
    [AttrSizedOperandSegments]> {
  let summary = "output tile: registers -> shared memory -> TMA store (or reduce-add)";
  let description = [{
    The consumer warpgroups wait (thread 0, then named barrier 1) until the
    previous tile's store has read the `block_m` x `block_n` staging tile at
    `staging`, convert their f32 `totals` (fragments of equal width that
    cover the tile's columns left to right) to bf16, write them
    row-major into it, fence the writes for the async proxy, meet at named
    barrier 1, and thread 0 stores the tile to D at (`n0`, `m0`) through the
    tensor map `d_map` (the store clips rows >= M and columns >= N). The
    store is committed but not waited for: it drains while the next tile's
    main loop runs; the kernel waits for the last one before it exits. The
    `tid` is the thread index (0 .. 128 * consumers - 1). With a `group`
    operand the map is 3-D (D [G, M, N]) and the tile goes to coordinates
    (`n0`, `m0`, `group`).

    Row waves: `block_m` is 64 * `consumers` (one m64 fragment row per
    consumer warpgroup) or twice that (block M 256 with two consumers); in
    the second case the first half of `totals` holds rows 0 .. 64*consumers-1
    of the tile (warpgroup w: rows 64w ..) and the second half the same rows
    64 * consumers further down.

    With `swizzle = 128` (block N a multiple of 64) the staging tile is laid
    out as block_n/64 chunks of block_m rows x 128 bytes, the 16-byte pieces
    of row r in chunk order c ^ (r % 8), and stored as block_n/64 boxes of 64
    columns through a map with 128-byte swizzle: the eight rows a warp writes
    at once fall in eight different bank groups (row-major rows of 256 or 384
    bytes would put them all in the same one).

    With `rows` (the masked layout, bf16: the tile's valid rows, known on
    the device), `d` (the base of D, row-major [G, `m_max`, `ld`], `ld` a
    multiple of 8) and a `group`: a tile with
    `rows` >= `block_m` is stored as above; one with fewer is copied out of
    the staging tile by the consumer threads in 16-byte pieces (8 columns),
    consecutive threads taking consecutive pieces of a row so that every
    warp store writes whole 32-byte sectors, to D[group, m0 + row, n0 +
    column], each piece stored when its row < `rows` and its first column
    < `ld` - `n0`. The copy's addresses are computed after the barrier (an
    asm statement keeps them there: none is live during the staging). The
    copy is not async: the next tile's staging waits at named barrier 1.

    With `per_warpgroup` (no `rows`): each consumer warpgroup w stages its
    own rows (rows 64w .. of every chunk, and with two row waves rows
    64 * consumers further down too) and meets only its own named barrier
    (7 + w, 128 threads); its first thread (tid 128w) waits for its
    previous stores and stores its rows at (`n0`, `m0` + 64w) (and `m0` +
    64w + 64 * consumers) through a map whose box is 64 rows high. The two
    warpgroups do not wait for each other.

    With `d_policy` (an L2 cache policy made by `createpolicy`) the TMA
    stores (not reduce-add, not the copy of a tile's valid rows) carry it
    as their `.L2::cache_hint`.

    With `stmatrix` (bf16 only) each warp writes its rows of the staging
    tile with `stmatrix.sync.aligned.m8n8.x4` (16 rows x 16 columns, its
    registers of two 8-column groups, per instruction; `.x2`, one group,
    for a last odd group and for every group of a tile of two row waves)
    instead of one 4-byte shared store per register pair: the same bytes
    at the same places, a quarter (a half with `.x2`) of the store
    instructions.
  }];
  let arguments = (ins Variadic<LLVM_AnyStruct>:$totals, DGEMM_SharedPtr:$staging,
                       LLVM_AnyPointer:$d_map, I32:$n0, I32:$m0,
                       Optional<I32>:$group, I32:$tid,
                       Optional<I32>:$rows, Optional<LLVM_AnyPointer>:$d,
                       Optional<I32>:$m_max, Optional<I64>:$d_policy,
                       I32Attr:$block_m, I32Attr:$block_n,
                       I32Attr:$consumers,
                       DefaultValuedAttr<I32Attr, "0">:$swizzle,
                       DefaultValuedAttr<I32Attr, "0">:$ld,
                       UnitAttr:$f32, UnitAttr:$reduce_add,
                       UnitAttr:$per_warpgroup, UnitAttr:$stmatrix);
  let assemblyFormat = [{
    `(` $totals `)` `,` $staging `,` $d_map `[` $n0 `,` $m0 (`,` $group^)? `]` `tid` $tid
    (`rows` $rows^ `at` $d `[` $m_max `]` `:` type($d))?
    (`policy` $d_policy^)? attr-dict
    `:` `(` type($totals) `)` `,` type($d_map)
  }];
  let hasVerifier = 1;
}

def DGEMM_EpilogueStoreRowsOp : DGEMM_KernelOp<"epilogue_store_rows"> {
  let summary = "bf16 output tile: registers -> global memory, rows and columns predicated";
  let description = [{
    For outputs whose valid rows are known only on the device (the masked
    grouped layout: rows at or past `masked_m[g]` must not be written, and a
    tensor map cannot clip at a run-time row count). Each consumer thread
    converts its f32 `totals` (fragments of equal width that cover the
    tile's columns left to right) to bf16 pairs and stores each pair
    (4 bytes) straight to global memory at `d` + (row * `ld` + column) * 2,
    `d` being the address of the tile's element (0, 0), when row < `rows`
    and column < `cols`. No shared memory, no barrier, nothing left in
    flight. `tid` is the thread index (0 .. 128 * consumers - 1); rows of a
    thread: 16 * warp + lane / 4 and 8 more; columns 8j + 2 * (lane % 4).
    Row waves as for `dgemm.epilogue_store`: with `block_m` = 128 *
    `consumers` the second half of `totals` holds the rows 64 * `consumers`
    further down.
  }];
  let arguments = (ins Variadic<LLVM_AnyStruct>:$totals, LLVM_AnyPointer:$d,
                       I32:$rows, I32:$cols, I32:$tid,
                       I32Attr:$ld, I32Attr:$block_m, I32Attr:$block_n,
                       I32Attr:$consumers);
  let assemblyFormat = [{
    `(` $totals `)` `,` $d `rows` $rows `cols` $cols `tid` $tid attr-dict
    `:` `(` type($totals) `)` `,` type($d)
  }];
  let hasVerifier = 1;
}

#endif // DGEMM_KERNEL_OPS_TD
