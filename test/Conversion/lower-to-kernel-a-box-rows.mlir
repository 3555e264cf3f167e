// RUN: dgemm-opt %s --dgemm-lower-to-kernel | FileCheck %s --check-prefix=FULL
// RUN: dgemm-opt %s --dgemm-lower-to-kernel=a-box-rows=8 | FileCheck %s
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=a-box-rows=12 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=a-box-rows=64 2>&1 | FileCheck %s --check-prefix=WHOLE

// a-box-rows: A's TMA box covers only the first rows of the tile's 64, so
// a stage receives (and its barrier expects) 8 rows of A (1024 bytes) with
// 32 rows of B (4096) and 64 A scales (256): 5376 bytes, not 12544. The
// contract's map of A says the same box, and the name says the kernel
// serves M <= 8 only.
// CHECK-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm64_bn32_s8_g1_c128_ks_ar8(
// CHECK-SAME: dgemm.launch = {{.*}}{box = [128, 8], dims = [1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64, swizzle = 128 : i64}
// CHECK: %[[TX:.+]] = arith.constant 5376 : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.+}}, %[[TX]]
// FULL-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm64_bn32_s8_g1_c128_ks(
// FULL-SAME: dgemm.launch = {{.*}}{box = [128, 64], dims = [1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64, swizzle = 128 : i64}
// FULL: %[[TX:.+]] = arith.constant 12544 : i32
// FULL: nvvm.mbarrier.arrive.expect_tx %{{.+}}, %[[TX]]
// ODD: error: 'dgemm.gemm' op cannot be lowered: a-box-rows = 12 needs a multiple of 8 in [8, block M = 64)
// WHOLE: error: 'dgemm.gemm' op cannot be lowered: a-box-rows = 64 needs a multiple of 8 in [8, block M = 64)
func.func @small_m(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<?x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 32, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 128>}
  return
}
