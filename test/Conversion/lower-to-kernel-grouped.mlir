// RUN: dgemm-opt %s -split-input-file "--dgemm-lower-to-kernel=wgmma-parts=2 stage-unroll=off multicast-exit=barrier" | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=stage-unroll=off | FileCheck %s --check-prefix=OFF
// RUN: dgemm-opt %s -split-input-file "--dgemm-lower-to-kernel=wgmma-parts=2 masked-partial-store=direct stage-unroll=off" | FileCheck %s --check-prefix=DIRECT

// Contiguous grouped GEMM: the normal kernel with B [G, N, K] through a 3-D
// tensor map (coordinates k0, n0, group), the group of each M block read
// from m_indices, padding blocks (-1) skipped in both roles, and the B
// scales of the block's group.
// CHECK-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c131_p2{{(_nsu)?}}(
// Tensor maps of A, A scales, B and D; the B-scale pointer, M_sum, m_indices.
// CHECK-SAME: %{{.+}}: !llvm.ptr<1>, %[[M:.+]]: i32, %[[IDX:.+]]: !llvm.ptr<1>)
// CHECK-SAME: dgemm.launch = {block = 384 : i64, block_m = 128 : i64, block_n = 192 : i64, cluster = 1 : i64, dynamic_smem = 216000 : i64, groups = 4 : i64, k = 7168 : i64, layout = 1 : i64, max_ctas = 131 : i64, n = 4096 : i64
// CHECK-SAME: {box = [128, 128], dims = [1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64, swizzle = 128 : i64}
// CHECK-SAME: {box = [128, 1], dims = [0, 1], dtype = "f32", kind = "tensor_map", operand = 1 : i64, swizzle = 0 : i64}
// CHECK-SAME: {box = [128, 192, 1], dims = [2, 1, 0], dtype = "u8", kind = "tensor_map", operand = 2 : i64, swizzle = 128 : i64}
// D's boxes are one consumer warpgroup's 64 rows (epilogue-sync=auto:
// each warpgroup stores its own rows).
// CHECK-SAME: {box = [64, 64], dims = [1, 0], dtype = "bf16", kind = "tensor_map", operand = 5 : i64, swizzle = 128 : i64}
// CHECK-SAME: {kind = "ptr", operand = 3 : i64}, {kind = "m"}, {kind = "ptr", operand = 4 : i64}]}
// Producer: group of the M block, skip when negative, B loaded at (k0, n0, g).
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: %[[MB:.+]], %{{.+}} = dgemm.schedule_tile
// CHECK: %[[ROW:.+]] = arith.muli %[[MB]], %c128_i32
// CHECK: %[[AT:.+]] = arith.muli %[[ROW]], %c4_i32
// CHECK: %[[P:.+]] = llvm.getelementptr %[[IDX]][%[[AT]]]
// CHECK: %[[G:.+]] = llvm.load %[[P]] : !llvm.ptr<1> -> i32
// CHECK: %[[OK:.+]] = arith.cmpi sge, %[[G]], %c0_i32
// CHECK: scf.if %[[OK]] -> (i32)
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg0, %{{.+}}, box[%{{.+}}, %{{.+}}]
// CHECK-NEXT: llvm.getelementptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg2, %{{.+}}, box[%{{.+}}, %{{.+}}, %[[G]]]
// CHECK: } else {
// CHECK-NEXT: scf.yield %{{.+}} : i32
// Consumers: the same skip; the group's B scales start G * 32 * 56 floats in,
// copied by each warpgroup into a buffer of its own between two meetings of
// its own barrier 9 + w (b-scale-copy=auto on the contiguous layout).
// CHECK: nvvm.setmaxregister increase 232
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> i32
// CHECK: scf.if %{{.+}} -> (i32)
// CHECK: arith.muli %{{.+}}, %c7168_i32
// CHECK-NOT: nvvm.barrier id = %c{{[12]}}_i32
// CHECK: %[[OWN:.+]] = arith.addi %{{.+}}, %c9_i32
// CHECK: nvvm.barrier id = %[[OWN]] number_of_threads = %{{.+}}
// CHECK: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier id = %[[OWN]] number_of_threads =
// CHECK-NOT: nvvm.barrier id = %c{{[12]}}_i32
// CHECK: dgemm.epilogue_store(
func.func @contiguous(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mi: memref<?xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}

// -----

// Masked grouped GEMM: A, its scales and D through 3-D maps (group
// outermost), D's address too; each role walks the groups' tiles with a
// while loop that moves to the next group once its tile index passes the
// group's ceil(min(masked_m[g], M_max) / 128) * 32 tiles; a tile wholly
// below masked_m[g] is stored by TMA at (n0, m0, g), one that crosses it
// straight from registers for its rows below masked_m[g].
// CHECK-LABEL: llvm.func @dgemm_grouped_masked_g4_n4096_k7168_bm128_bn128_s5_g16_c128_p2{{(_nsu)?}}(
// CHECK-SAME: %[[MMAX:arg5]]: i32, %[[MM:arg6]]: !llvm.ptr<1>, %[[DPTR:arg7]]: !llvm.ptr<1>)
// CHECK-SAME: groups = 4 : i64, k = 7168 : i64, layout = 2 : i64
// CHECK-SAME: {box = [128, 128, 1], dims = [2, 1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64, swizzle = 128 : i64}
// CHECK-SAME: {box = [128, 1, 1], dims = [1, 2, 0], dtype = "f32", kind = "tensor_map", operand = 1 : i64, swizzle = 0 : i64}
// CHECK-SAME: {box = [128, 128, 1], dims = [2, 1, 0], dtype = "u8", kind = "tensor_map", operand = 2 : i64, swizzle = 128 : i64}
// D is staged swizzled (64-column boxes) at any K in the masked layout.
// CHECK-SAME: {box = [64, 128, 1], dims = [2, 1, 0], dtype = "bf16", kind = "tensor_map", operand = 5 : i64, swizzle = 128 : i64}
// CHECK-SAME: {kind = "ptr", operand = 3 : i64}, {kind = "m"}, {kind = "ptr", operand = 4 : i64}, {kind = "ptr", operand = 5 : i64}]}
// CHECK-COUNT-4: nvvm.prefetch tensormap
// CHECK-NOT: nvvm.prefetch
// masked_m is copied to shared memory (after the 16 * 5 barrier bytes)
// before the CTA's first barrier; the walks read it there.
// CHECK: scf.for %[[GI:.+]] = %{{.+}} to %c4_i32 step %c384_i32
// CHECK: %[[SRC:.+]] = llvm.getelementptr %[[MM]][%{{.+}}]
// CHECK: %[[V:.+]] = llvm.load %[[SRC]] : !llvm.ptr<1> -> i32
// CHECK: llvm.store %[[V]], %{{.+}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: scf.while (%[[T:.+]] = %{{.+}}, %[[GRP:.+]] = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}})
// CHECK: scf.while
// CHECK: llvm.load %{{.+}} : !llvm.ptr<3> -> i32
// CHECK: arith.maxsi %{{.+}}, %c0_i32
// CHECK: arith.minsi %{{.+}}, %[[MMAX]]
// CHECK: arith.muli %{{.+}}, %c32_i32
// CHECK: arith.cmpi uge, %[[T]]
// CHECK: scf.condition
// CHECK: scf.condition
// CHECK: dgemm.schedule_tile %{{.+}}, %{{.+}} {num_n_blocks = 32 : i32, swizzle_group = 16 : i32}
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg0, %{{.+}}, box[%{{.+}}, %{{.+}}, %[[G:.+]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg2, %{{.+}}, box[%{{.+}}, %{{.+}}, %[[G]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg1, %{{.+}}, box[%{{.+}}, %{{.+}}, %[[G]]]
// Consumers: a barrier before the tile's B scales overwrite the last ones.
// CHECK: nvvm.setmaxregister increase 232
// CHECK: scf.while
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: nvvm.barrier id = %c2_i32
// The tile goes through the staging tile; one with fewer rows than block M
// is copied out by the threads (masked-partial-store=auto: staged here).
// CHECK: %[[ROWS:.+]] = arith.subi %{{.+}}, %{{.+}} : i32
// CHECK: dgemm.epilogue_store(%{{.+}}#1, %{{.+}}#2), %{{.+}}, %arg3[%{{.+}}, %{{.+}}, %{{.+}}] tid %{{.+}} rows %[[ROWS]] at %[[DPTR]][%arg5] : !llvm.ptr<1> {block_m = 128 : i32, block_n = 128 : i32, consumers = 2 : i32, ld = 4096 : i32, swizzle = 128 : i32}
// With masked-partial-store=direct: TMA store when whole, else from registers.
// DIRECT-LABEL: llvm.func @dgemm_grouped_masked_g4_n4096_k7168_bm128_bn128_s5_g16_c128_mca_p2_dr_pd{{(_nsu)?}}(
// DIRECT: nvvm.setmaxregister increase 232
// DIRECT: nvvm.barrier id = %c2_i32
// DIRECT: %[[ROWS:.+]] = arith.subi %{{.+}}, %{{.+}} : i32
// DIRECT: %[[WHOLE:.+]] = arith.cmpi sge, %[[ROWS]], %c128_i32
// DIRECT: scf.if %[[WHOLE]] {
// DIRECT-NEXT: dgemm.epilogue_store(%{{.+}}#1, %{{.+}}#2), %{{.+}}, %arg3[%{{.+}}, %{{.+}}, %[[GC:.+]]] tid
// DIRECT: } else {
// DIRECT: dgemm.epilogue_store_rows(%{{.+}}#1, %{{.+}}#2), %{{.+}} rows %[[ROWS]] cols %{{.+}} tid %{{.+}} {block_m = 128 : i32, block_n = 128 : i32, consumers = 2 : i32, ld = 4096 : i32}
func.func @masked(%a: memref<4x256x7168xf8E4M3FN>, %sa: memref<4x256x56xf32, strided<[14336, 1, 256]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mm: memref<4xi32>, %d: memref<4x256x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked> ins(%a, %sa, %b, %sb : memref<4x256x7168xf8E4M3FN>,
      memref<4x256x56xf32, strided<[14336, 1, 256]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mm : memref<4xi32>) outs(%d : memref<4x256x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 5, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

// -----

// Masked with multicast A (2-CTA clusters, N neighbours): the walk counts
// pairs of tiles (16 per M block), each CTA takes the pair's tile rank + 2
// * n and loads half of A's rows (a 64-row box, at m0 + 64 * rank) with
// the group coordinate into both CTAs.
// CHECK-LABEL: llvm.func @dgemm_grouped_masked_g4_n4096_k7168_bm128_bn128_s5_g16_c128_mca_p2{{(_nsu)?}}(
// CHECK-SAME: {box = [128, 64, 1], dims = [2, 1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64, swizzle = 128 : i64}
// CHECK: nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: arith.muli %{{.+}}, %c16_i32
// CHECK: dgemm.schedule_tile %{{.+}}, %{{.+}} {num_n_blocks = 16 : i32, swizzle_group = 8 : i32}
// CHECK: %[[N2:.+]] = arith.muli %{{.+}}, %c2_i32
// CHECK: arith.addi %[[N2]], %{{.+}}
// CHECK: %[[HALF:.+]] = arith.muli %{{.+}}, %c64_i32
// CHECK: %[[ROW:.+]] = arith.addi %{{.+}}, %[[HALF]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg0, %{{.+}}, box[%{{.+}}, %[[ROW]], %{{.+}}] multicast_mask = %{{.+}}
func.func @masked_multicast(%a: memref<4x256x7168xf8E4M3FN>, %sa: memref<4x256x56xf32, strided<[14336, 1, 256]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mm: memref<4xi32>, %d: memref<4x256x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked> ins(%a, %sa, %b, %sb : memref<4x256x7168xf8E4M3FN>,
      memref<4x256x56xf32, strided<[14336, 1, 256]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mm : memref<4xi32>) outs(%d : memref<4x256x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 5, cluster = 2, multicast = a, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

// -----

// A masked tile wider than the matrix (block_n 104 > N 96): the row store
// predicates columns, so it lowers (fuzz/gen_gemm_ops.py found the lowering
// failing inside the store op's verifier, which required ld >= block_n).
// CHECK-LABEL: llvm.func @dgemm_grouped_masked_g8_n96_k896_bm128_bn104_s2_g2_c64{{(_nsu)?}}(
// CHECK: dgemm.epilogue_store({{.*}} rows {{.*}} {block_m = 128 : i32, block_n = 104 : i32, consumers = 2 : i32, ld = 96 : i32}
func.func @masked_block_n_over_n(%a: memref<8x7x896xf8E4M3FN>, %sa: memref<8x7x7xf32, strided<[56, 1, 8]>>,
    %b: memref<8x96x896xf8E4M3FN>, %sb: memref<8x1x7xf32>, %g: memref<8xi32>, %d: memref<8x7x96xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked> ins(%a, %sa, %b, %sb : memref<8x7x896xf8E4M3FN>,
      memref<8x7x7xf32, strided<[56, 1, 8]>>, memref<8x96x896xf8E4M3FN>, memref<8x1x7xf32>)
      groups(%g : memref<8xi32>) outs(%d : memref<8x7x96xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 104, stages = 2, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 2, num_sms = 64>}
  return
}

// -----

// The contiguous layout given by offsets: the kernel copies offsets[G] to
// shared memory and finds each M block's group by scanning the end rows
// (layout 6 in the contract).
// OFF-LABEL: llvm.func @dgemm_grouped_contiguous_offsets_g4_n7168_k2048_bm128_bn192_s4_g16_c128{{(_nsu)?}}(
// OFF-SAME: groups = 4 : i64, k = 2048 : i64, layout = 6 : i64
// OFF: llvm.store %{{.+}}, %{{.+}} : i32, !llvm.ptr<3>
// OFF: scf.while
// OFF: arith.cmpi sle
// OFF: arith.cmpi sge
func.func @grouped_contiguous_offsets(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<4x7168x2048xf8E4M3FN>, %sb: memref<4x56x16xf32>, %off: memref<4xi32>, %d: memref<?x7168xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous_offsets> ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>,
      memref<?x16xf32, strided<[1, ?]>>, memref<4x7168x2048xf8E4M3FN>, memref<4x56x16xf32>)
      groups(%off : memref<4xi32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

// -----

// Contiguous grouped GEMM with B multicast: clusters of 2 CTAs on pairs of
// M blocks (2u + rank), B's box half of its tile. Each CTA reads both
// blocks' groups (the second's only below M, else -1); the pair skips a
// unit only when neither block has a group. Within a unit B's tile is
// shared (mask 0b11, each CTA its half) where both blocks are of one
// group, else each CTA loads its whole tile as two boxes into itself; the
// group loaded is the CTA's own, or its peer's when its own block is
// padding or past M, and that CTA's store starts past M's last block
// (TMA writes none of it).
// CHECK-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_p2{{(_nsu)?}}(
// CHECK-SAME: %[[M:[a-z0-9]+]]: i32, %[[IDX:[a-z0-9]+]]: !llvm.ptr<1>)
// CHECK-SAME: cluster = 2 : i64
// CHECK-SAME: {box = [128, 96, 1], dims = [2, 1, 0], dtype = "u8", kind = "tensor_map", operand = 2 : i64, swizzle = 128 : i64}
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: %[[MB:.+]], %{{.+}} = dgemm.schedule_tile
// CHECK: %[[MINE:.+]] = arith.addi %{{.+}}, %[[RANK:[0-9]+]] : i32
// CHECK: %[[FIRST:.+]] = arith.subi %[[MINE]], %[[RANK]] : i32
// CHECK: %[[G0:.+]] = llvm.load %{{.+}} : !llvm.ptr<1> -> i32
// CHECK: %[[SECOND:.+]] = arith.addi %[[FIRST]], %c1_i32
// CHECK: %[[ROW1:.+]] = arith.muli %[[SECOND]], %c128_i32
// CHECK: %[[IN:.+]] = arith.cmpi ult, %[[ROW1]], %[[M]] : i32
// CHECK: %[[SAFE:.+]] = arith.select %[[IN]], %[[ROW1]], %c0_i32
// CHECK: %[[RAW1:.+]] = llvm.load %{{.+}} : !llvm.ptr<1> -> i32
// CHECK: %[[G1:.+]] = arith.select %[[IN]], %[[RAW1]], %c-1_i32 : i32
// CHECK: %[[OWN:.+]] = arith.select %{{.+}}, %[[G0]], %[[G1]] : i32
// CHECK: %[[PEER:.+]] = arith.select %{{.+}}, %[[G1]], %[[G0]] : i32
// CHECK: %[[OWNOK:.+]] = arith.cmpi sge, %[[OWN]], %c0_i32
// CHECK: %[[G:.+]] = arith.select %[[OWNOK]], %[[OWN]], %[[PEER]] : i32
// CHECK: %[[ANY:.+]] = arith.cmpi sge, %[[G]], %c0_i32
// CHECK: scf.if %[[ANY]] -> (i32) {
// CHECK: %[[SAME:.+]] = arith.cmpi eq, %[[G0]], %[[G1]] : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg0, %{{.+}}, box[%{{.+}}, %{{.+}}] :
// CHECK: scf.if %[[SAME]] {
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg2, %{{.+}}, box[%{{.+}}, %{{.+}}, %[[G]]] multicast_mask = %{{.+}} :
// CHECK-NEXT: } else {
// CHECK-NOT: multicast_mask
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg2, %{{.+}}, box[%{{.+}}, %{{.+}}, %[[G]]] :
// CHECK: llvm.getelementptr %{{.+}}[12288]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg2, %{{.+}}, box[%{{.+}}, %{{.+}}, %[[G]]] :
// CHECK-NEXT: }
// Consumers: the same pair check; a padding block's store moves past M.
// CHECK: nvvm.setmaxregister increase 232
// CHECK: scf.if %{{.+}} -> (i32) {
// CHECK: %[[DROP:.+]] = arith.cmpi slt, %{{.+}}, %c0_i32
// CHECK: %[[AT:.+]] = arith.select %[[DROP]], %{{.+}}, %{{.+}} : i32
// CHECK: dgemm.epilogue_store(%{{.+}}), %{{.+}}, %arg3[%{{.+}}, %[[AT]]]
func.func @contiguous_multicast_b(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mi: memref<?xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// The offsets form with B multicast: each CTA walks the offsets for both
// blocks of its pair (the walk gives -1 past every end), then the same
// pair check as with m_indices.
// OFF-LABEL: llvm.func @dgemm_grouped_contiguous_offsets_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr{{(_nsu)?}}(
// OFF: nvvm.setmaxregister decrease 40
// OFF: dgemm.schedule_tile
// OFF: %[[W0:.+]] = scf.while
// OFF: %[[G0:.+]] = arith.select %{{.+}}, %[[W0]], %c-1_i32
// OFF: %[[W1:.+]] = scf.while
// OFF: %[[G1:.+]] = arith.select %{{.+}}, %[[W1]], %c-1_i32
// OFF: scf.if %{{.+}} -> (i32) {
// OFF: %[[SAME:.+]] = arith.cmpi eq, %[[G0]], %[[G1]] : i32
// OFF: scf.if %[[SAME]] {
// OFF: multicast_mask
func.func @contiguous_offsets_multicast_b(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %off: memref<4xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous_offsets> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%off : memref<4xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}
