// dgemm-lower-to-kernel{tail-split=on}: a normal bf16 GEMM becomes a 2-CTA
// cluster kernel (no multicast: A's box keeps all block M rows) whose last
// wave's tiles, when they fill at most half of the grid, are split along K
// between the two CTAs of a cluster: two cluster barriers around rank 1's
// stores of its partial sums into rank 0's shared memory (mapa to rank 0).
// Odd SM counts (num_sms 131) keep the kernel as it is.
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=tail-split=on | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=OFF
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=tail-split=maybe 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: tail-split must be on or off, got 'maybe'

// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn192_s4_g16_c132_ts(
// CHECK-SAME: cluster = 2 : i64
// CHECK-SAME: {box = [128, 128], dims = [1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64
// The tail tile's partial sums: barrier, rank 1 stores through mapa, barrier.
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: nvvm.mapa %{{.+}}, %{{.+}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr<7>
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: llvm.fadd
// CHECK: dgemm.epilogue_store
// OFF-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn192_s4_g16_c132(
// OFF-SAME: cluster = 1 : i64
// OFF-NOT: nvvm.mapa
func.func @gemm(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn192_s4_g16_c131(
// CHECK-SAME: cluster = 1 : i64
// CHECK-NOT: nvvm.mapa
func.func @odd_sms(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}

// -----

// Block M 64 (one consumer warpgroup): the split too, with the register
// pair (40, 232) instead of (24, 240), whose 24 producer registers spill
// with the cluster barriers (kernel name _r232). With 33 tiles on 66 CTAs
// every tile is a tail tile: each cluster takes one, half of K per CTA.
// CHECK-LABEL: llvm.func @dgemm_gemm_n2112_k7168_bm64_bn64_s8_g1_c66_ts_r232(
// CHECK-SAME: cluster = 2 : i64
// CHECK-SAME: tile_ctas = 2 : i64
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: nvvm.setmaxregister increase 232
// CHECK: nvvm.mapa
// CHECK: dgemm.epilogue_store
// OFF-LABEL: llvm.func @dgemm_gemm_n2112_k7168_bm64_bn64_s8_g1_c66(
// OFF-SAME: cluster = 1 : i64
// OFF-NOT: tile_ctas
// OFF: nvvm.setmaxregister decrease 24
// OFF: nvvm.setmaxregister increase 240
func.func @bm64(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<2112x7168xf8E4M3FN>, %sb: memref<17x56xf32>, %d: memref<?x2112xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<2112x7168xf8E4M3FN>, memref<17x56xf32>) outs(%d : memref<?x2112xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 64, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 66>}
  return
}
