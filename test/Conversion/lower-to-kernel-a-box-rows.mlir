// RUN: dgemm-opt %s --dgemm-lower-to-kernel | FileCheck %s

// #dgemm.config's a_box_rows: A's TMA box covers only the first rows of the
// tile's 64, so a stage receives (and its barrier expects) 8 rows of A
// (1024 bytes) with 32 rows of B (4096) and 64 A scales (256): 5376 bytes,
// where the whole box takes 12544. The contract's map of A has the same
// box and its max_m says the kernel serves M <= 8 only; the name says so.
// CHECK-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm64_bn32_s8_g1_c128_ks_ar8(
// CHECK-SAME: dgemm.launch = {{.*}}max_m = 8 : i64
// CHECK-SAME: {box = [128, 8], dims = [1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64, swizzle = 128 : i64}
// CHECK: %[[TX:.+]] = arith.constant 5376 : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.+}}, %[[TX]]
// CHECK-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm64_bn32_s8_g1_c128_ks(
// CHECK-NOT: max_m
// CHECK-SAME: dgemm.launch = {{.*}}{box = [128, 64], dims = [1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64, swizzle = 128 : i64}
// CHECK: %[[TX:.+]] = arith.constant 12544 : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.+}}, %[[TX]]
func.func @small_m(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<?x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 32, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 128, a_box_rows = 8>}
  return
}
func.func @whole_box(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<?x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 32, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 128>}
  return
}
