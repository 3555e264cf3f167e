// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=epilogue-sync=warpgroup | FileCheck %s --check-prefix=WG
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=epilogue-sync=never 2>&1 | FileCheck %s --check-prefix=BAD

// The weight-gradient GEMM: 1x128 B scales, f32 D += A * B^T in place.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn128_s4_g16_c131_sb1x128_f32_acc(
// Five tensor maps by value (the B scales' map is parameter 4), then M.
// CHECK-SAME: %arg4: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %arg5: i32)
// The contract: layout 3, D is operand 5 (C = operand 4 is D itself), an
// f32 map with 32-column swizzled boxes of the tile's 128 rows
// (epilogue-sync=auto: thread 0 adds the whole tile); B scales [N, K/128]
// MN-major.
// CHECK-SAME: layout = 3 : i64
// CHECK-SAME: {box = [32, 128], dims = [1, 0], dtype = "f32", kind = "tensor_map", operand = 5 : i64, swizzle = 128 : i64}
// CHECK-SAME: {box = [128, 1], dims = [0, 1], dtype = "f32", kind = "tensor_map", operand = 3 : i64, swizzle = 0 : i64}, {kind = "m"}]
// Producer: A, B, A scales and B scales per stage (16384 + 16384 + 512 + 512 bytes).
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.+}}, %c33792_i32
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg4, %{{.+}}, box[%{{.+}}, %{{.+}}]
// Consumer: no per-tile copy of B scales; after the wgmma wait, the thread's
// 16 column-scale pairs come out of the stage, then the stage is released,
// then the promotion with a scale per column.
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-16: llvm.load %{{.+}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
// CHECK: nvvm.mbarrier.arrive
// CHECK: dgemm.promote_cols
// CHECK: dgemm.epilogue_store
// CHECK-SAME: consumers = 2 : i32, f32, reduce_add, swizzle = 128 : i32}
// Thread 0 waits for its last stores.
// CHECK: %[[T0:.+]] = arith.cmpi eq, %1, %c0_i32{{.*}} : i32
// CHECK: scf.if %[[T0]] {
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// With epilogue-sync=warpgroup: boxes of one warpgroup's 64 rows, each
// warpgroup adds its own rows and its first thread waits for them.
// WG-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn128_s4_g16_c131_sb1x128_f32_acc_ew(
// WG-SAME: {box = [32, 64], dims = [1, 0], dtype = "f32", kind = "tensor_map", operand = 5 : i64, swizzle = 128 : i64}
// WG: dgemm.epilogue_store
// WG-SAME: f32, per_warpgroup, reduce_add, swizzle = 128 : i32
// WG: %[[WT:.+]] = arith.remui %1, %c128_i32{{.*}} : i32
// WG: %[[FIRST:.+]] = arith.cmpi eq, %[[WT]], %c0_i32{{.*}} : i32
// WG: scf.if %[[FIRST]] {
// WG-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// BAD: epilogue-sync must be auto, tile or warpgroup, got 'never'
func.func @wgrad(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<7168x16xf32, strided<[1, ?]>>, %d: memref<?x7168xf32>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<7168x16xf32, strided<[1, ?]>>) acc(%d : memref<?x7168xf32>) outs(%d : memref<?x7168xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>,
       config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}

// -----

// An f32 output without an accumulate input is stored, not added; the
// runtime does not launch this variant (layout 5). Block N 120 is not a
// multiple of 32: row-major staging, one box per tile.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn120_s4_g16_c131_f32(
// CHECK-SAME: layout = 5 : i64
// CHECK-SAME: {box = [120, 128], dims = [1, 0], dtype = "f32", kind = "tensor_map", operand = 4 : i64, swizzle = 0 : i64}
// CHECK-SAME: {kind = "ptr", operand = 3 : i64}
// CHECK: dgemm.promote %
// CHECK: dgemm.epilogue_store
// CHECK-SAME: consumers = 2 : i32, f32}
func.func @f32_store(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xf32>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xf32>)
      {config = #dgemm.config<block_m = 128, block_n = 120, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}

// -----

// The k-grouped GEMM: the group table by value (two template maps, then 8
// bytes per group: 256 + 24), the scales' maps, D's 3-D map, the addresses
// of A and B and the workspace (5 slots of 256 bytes per CTA: stages + 1);
// no M parameter (M is static).
// CHECK-LABEL: llvm.func @dgemm_k_grouped_m512_g3_n1024_bm128_bn128_s4_g4_c132_sb1x128_f32_acc(
// CHECK-SAME: %arg0: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<280 x i8>, nvvm.grid_constant}
// CHECK-SAME: %arg3: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}
// CHECK-SAME: %arg4: !llvm.ptr<1>, %arg5: !llvm.ptr<1>, %arg6: !llvm.ptr<1>)
// CHECK-SAME: groups = 3 : i64, k = 0 : i64, layout = 4 : i64
// CHECK-SAME: {box = [128, 128], kind = "group_table", operand = 0 : i64, operand_b = 2 : i64, swizzle = 128 : i64}
// CHECK-SAME: {box = [128, 1], dims = [1, 0], dtype = "f32", kind = "tensor_map", operand = 1 : i64, swizzle = 0 : i64}
// CHECK-SAME: {box = [128, 1], dims = [1, 0], dtype = "f32", kind = "tensor_map", operand = 3 : i64, swizzle = 0 : i64}
// CHECK-SAME: {box = [32, 128, 1], dims = [2, 1, 0], dtype = "f32", kind = "tensor_map", operand = 5 : i64, swizzle = 128 : i64}
// CHECK-SAME: {kind = "ptr", operand = 0 : i64}, {kind = "ptr", operand = 2 : i64}, {bytes = 1280 : i64, kind = "workspace"}
// Before the first barrier, threads 0-79 copy the template maps (16 bytes
// each) into the CTA's 5 slots.
// CHECK: arith.constant 80 : i32
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xi32>
// CHECK: llvm.store %{{.+}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK: nvvm.barrier0
// Producer: tile t of group t / 32 (4 M blocks x 8 N blocks); groups
// without K blocks are skipped. The loop carries the map writes so far and
// the group whose maps the last one wrote (-1: none); a tile of another
// group counts one more write, and the count mod 5 picks the CTA's
// workspace slot.
// CHECK: scf.for %{{.+}} = %{{.+}} to %c96_i32 step %{{.+}} iter_args(%{{.+}} = %{{.+}}, %[[WRITES:.+]] = %{{.+}}, %[[LAST:.+]] = %c-1_i32) -> (i32, i32, i32)
// CHECK: %[[G:.+]] = arith.divui %{{.+}}, %c32_i32
// CHECK: dgemm.schedule_tile %{{.+}}, %c4_i32 {num_n_blocks = 8 : i32, swizzle_group = 4 : i32}
// CHECK: %[[KB:.+]] = llvm.load %{{.+}} {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: arith.cmpi sgt, %[[KB]], %c0
// CHECK: %[[FRESH:.+]] = arith.cmpi ne, %[[G]], %[[LAST]] : i32
// CHECK: %[[ONE:.+]] = arith.extui %[[FRESH]] : i1 to i32
// CHECK: %[[NOW:.+]] = arith.addi %[[WRITES]], %[[ONE]] : i32
// CHECK: arith.remui %[[NOW]], %c5_i32
// Only then the maps: the group's address (A + 512 * 128 bytes per earlier
// K block), K, rows and row pitch written into the slot's copies; B's with
// N = 1024 rows; then the proxy fences. Later tiles of the group load
// through the slot as it is.
// CHECK: scf.if %[[FRESH]] {
// CHECK: arith.constant 65536 : i64
// CHECK: llvm.inline_asm has_side_effects
// CHECK-SAME: tensormap.replace.tile.global_address.global.b1024.b64 [$0], $1;
// CHECK-SAME: tensormap.replace.tile.global_dim.global.b1024.b32 [$0], 0, $2;
// CHECK-SAME: tensormap.replace.tile.global_dim.global.b1024.b32 [$0], 1, $3;
// CHECK-SAME: tensormap.replace.tile.global_stride.global.b1024.b64 [$0], 0, $4;
// CHECK-SAME: "l,l,r,r,l,~{memory}" %{{.+}}, %{{.+}}, %{{.+}}, %c512_i32, %{{.+}}
// CHECK: arith.constant 131072 : i64
// CHECK: llvm.inline_asm has_side_effects
// CHECK-SAME: %c1024_i32
// CHECK: nvvm.fence.proxy.release <gpu>
// CHECK: nvvm.fence.proxy.acquire <gpu> %{{.+}}, %c128_i32
// CHECK: nvvm.fence.proxy.acquire <gpu> %{{.+}}, %c128_i32
// CHECK-NEXT: }
// The K loop runs over the group's K blocks, A_g and B_g through the
// slot's maps.
// CHECK: scf.for
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.+}}, %c33792_i32
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global
// The producer's tile yields the writes and the group it wrote.
// CHECK: scf.yield %{{.+}}, %[[NOW]], %[[G]] : i32, i32, i32
// Consumer: the same walk; D[g] += the tile through the 3-D map.
// CHECK: dgemm.promote_cols
// CHECK: dgemm.epilogue_store(%{{.+}}), %{{.+}}, %arg3[%{{.+}}, %{{.+}}, %{{.+}}] tid
// CHECK-SAME: f32, reduce_add
func.func @k_grouped(%a: memref<?xf8E4M3FN>, %sa: memref<?x512xf32>, %b: memref<?xf8E4M3FN>,
    %sb: memref<?x1024xf32>, %ks: memref<3xi32>, %d: memref<3x512x1024xf32>) {
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>, memref<?x512xf32>,
      memref<?xf8E4M3FN>, memref<?x1024xf32>) ks(%ks : memref<3xi32>) outs(%d : memref<3x512x1024xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>,
       config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 4, num_sms = 132>}
  return
}
