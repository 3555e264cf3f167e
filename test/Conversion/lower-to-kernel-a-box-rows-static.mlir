// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=a-box-rows=16 2>&1 | FileCheck %s
// RUN: dgemm-opt %s --dgemm-lower-to-kernel=a-box-rows=24 | FileCheck %s --check-prefix=FITS

// a-box-rows with a static M: refused where M has more rows than the box.
// CHECK: error: 'dgemm.gemm' op cannot be lowered: a-box-rows = 16 needs at least M = 20
// FITS: llvm.func @dgemm_gemm_n4096_k7168_bm64_bn32_s8_g1_c128_ks_ar24(
func.func @static_m(%a: memref<20x7168xf8E4M3FN>, %sa: memref<20x56xf32, strided<[1, 20]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<20x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<20x7168xf8E4M3FN>, memref<20x56xf32, strided<[1, 20]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<20x4096xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 32, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 128>}
  return
}
