// Block N 176 (not a multiple of 64): a tile's columns can span three
// 128-wide B-scale blocks, so the consumers copy three rows of B scales per
// tile (3 x K/128 floats) and the promotion takes three B scales; block N
// 160 spans at most two. (With the per-tile copy, b-scale-prefetch=off; the
// prefetch copies the same rows: lower-to-kernel-b-scale-prefetch.mlir.)
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=b-scale-prefetch=off | FileCheck %s

// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn176_s4_g16_c131_nbp(
// CHECK: scf.for %{{.+}} = %{{.+}} to %c48_i32{{(_[0-9]+)?}} step %c256_i32
// CHECK: dgemm.promote %{{.+}}, %{{.+}} scales(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,)]+}}) former
func.func @bn176(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 176, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}

// -----

// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn160_s5_g16_c131_nbp(
// CHECK: scf.for %{{.+}} = %{{.+}} to %c32_i32{{(_[0-9]+)?}} step %c256_i32
// CHECK: dgemm.promote %{{.+}}, %{{.+}} scales(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,)]+}}) former
func.func @bn160(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 160, stages = 5, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}
