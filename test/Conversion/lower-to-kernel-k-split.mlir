// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=consumer-k-split=on | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=AUTO
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=consumer-k-split=off | FileCheck %s --check-prefix=OFF
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=consumer-k-split=yes 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: consumer-k-split must be auto, on or off, got 'yes'

// consumer-k-split: a 64-row tile (one consumer warpgroup in the config)
// runs on two consumer warpgroups (384 threads, setmaxnreg 40 / 232) that
// take every other ring entry: each loop starts at the K block whose entry
// (ring counter + kb) has the warpgroup's parity and steps by 2, so each of
// the 8 ring slots has one consumer warpgroup (empty barriers expect its 4
// warps). After the loop, thread 0 waits until the previous TMA store has
// read the staging tile, and warpgroup 1's sums go to warpgroup 0 through
// it in two halves (named barrier 5, 256 threads); warpgroup 0 adds them
// and stores the tile (the epilogue of one warpgroup).
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm64_bn64_s8_g1_c112_ks(
// CHECK-SAME: dgemm.launch = {block = 384 : i64, block_m = 64 : i64
// CHECK-SAME: nvvm.maxntid = array<i32: 384, 1, 1>
// CHECK-COUNT-8: nvvm.mbarrier.init %{{.+}}, %c4_i32
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: nvvm.setmaxregister increase 232
// CHECK: nvvm.barrier id = %c2_i32{{.*}} number_of_threads = %c256_i32
// CHECK: %[[SUM:.+]] = arith.addi %[[IT:arg[0-9]+]], %[[WG:[0-9]+]] : i32
// CHECK: %[[FIRST:.+]] = arith.andi %[[SUM]], %c1_i32{{.*}} : i32
// CHECK: %[[START:.+]] = arith.addi %[[IT]], %[[FIRST]] : i32
// CHECK: scf.for %{{.+}} = %[[FIRST]] to %c16_i32{{.*}} step %c2_i32{{.*}} iter_args(%{{.+}} = %[[START]], %{{.+}} = %{{.+}})
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: dgemm.wgmma_tile
// CHECK: nvvm.mbarrier.arrive
// CHECK: dgemm.promote
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: nvvm.barrier id = %c5_i32 number_of_threads = %c256_i32
// CHECK-COUNT-16: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier id = %c5_i32{{.*}} number_of_threads = %c256_i32
// CHECK-COUNT-16: arith.addf
// CHECK: nvvm.barrier id = %c5_i32{{.*}} number_of_threads = %c256_i32
// CHECK-COUNT-16: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier id = %c5_i32{{.*}} number_of_threads = %c256_i32
// CHECK-COUNT-16: arith.addf
// CHECK: %[[WG0:.+]] = arith.cmpi eq, %[[WG]], %c0_i32
// CHECK-NEXT: scf.if %[[WG0]] {
// CHECK-NEXT: dgemm.epilogue_store
// CHECK-SAME: consumers = 1 : i32
// Warpgroup 1 meets barrier 6 twice, as warpgroup 0 meets the epilogue's.
// CHECK: } else {
// CHECK-COUNT-2: nvvm.barrier id = %c6_i32{{.*}} number_of_threads = %c128_i32
// CHECK-NEXT: }
// Auto (the default) leaves block N 64 with 16 K blocks alone; off: one
// consumer warpgroup.
// AUTO-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm64_bn64_s8_g1_c112(
// AUTO-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
// AUTO-NOT: id = %c5_i32
// AUTO: dgemm.epilogue_store
// OFF-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm64_bn64_s8_g1_c112(
// OFF-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
// OFF-NOT: id = %c5_i32
// OFF: dgemm.epilogue_store
func.func @gemm_64x64(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 64, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 112>}
  return
}

// -----

// Not with an odd number of stages (a slot would alternate between the
// warpgroups), nor with 128-row tiles (two warpgroups already).
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm64_bn64_s7_g1_c112(
// CHECK-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn64_s6_g1_c112(
// CHECK-NOT: id = %c5_i32
func.func @gemm_odd_stages(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 64, stages = 7, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 112>}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 64, stages = 6, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 1, num_sms = 112>}
  return
}

// -----

// Auto: block N <= 56 with at least 56 K blocks (64x16 at K = 7168) splits;
// block N 64 at the same K does not; neither does block N 16 with 55 K
// blocks. Off: none.
// CHECK-LABEL: llvm.func @dgemm_gemm_n2112_k7168_bm64_bn16_s8_g1_c132_ks(
// AUTO-LABEL: llvm.func @dgemm_gemm_n2112_k7168_bm64_bn16_s8_g1_c132_ks(
// AUTO-SAME: nvvm.maxntid = array<i32: 384, 1, 1>
// AUTO-LABEL: llvm.func @dgemm_gemm_n2112_k7168_bm64_bn64_s8_g1_c33(
// AUTO-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
// AUTO-LABEL: llvm.func @dgemm_gemm_n2112_k7040_bm64_bn16_s8_g1_c132(
// AUTO-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
// OFF-LABEL: llvm.func @dgemm_gemm_n2112_k7168_bm64_bn16_s8_g1_c132(
// OFF-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
func.func @gemm_auto(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<2112x7168xf8E4M3FN>, %sb: memref<17x56xf32>, %d: memref<?x2112xbf16>,
    %a2: memref<?x7040xf8E4M3FN>, %sa2: memref<?x55xf32, strided<[1, ?]>>,
    %b2: memref<2112x7040xf8E4M3FN>, %sb2: memref<17x55xf32>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<2112x7168xf8E4M3FN>, memref<17x56xf32>) outs(%d : memref<?x2112xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 16, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 132>}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<2112x7168xf8E4M3FN>, memref<17x56xf32>) outs(%d : memref<?x2112xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 64, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 33>}
  dgemm.gemm ins(%a2, %sa2, %b2, %sb2 : memref<?x7040xf8E4M3FN>, memref<?x55xf32, strided<[1, ?]>>,
      memref<2112x7040xf8E4M3FN>, memref<17x55xf32>) outs(%d : memref<?x2112xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 16, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 132>}
  return
}
