// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=masked-walk=cost | FileCheck %s --check-prefix=COST

// The masked layout with one group: the tile loops of both roles take the
// group count through an opaque PTX move, so LLVM cannot prove every tile's
// group to be 0 and specialise the loop on it (at block M 256 ptxas spilled
// that specialised kernel; Target/ptxas-shapes.test assembles the one-group
// reference kernels and requires no spills).
// CHECK-LABEL: llvm.func @dgemm_grouped_masked_g1_n7168_k2048_bm256_bn128_s3_g16_c112(
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK: %[[G:.+]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r" %[[ONE]] : (i32) -> i32
// CHECK: arith.subi %[[G]], %{{.+}} : i32
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: llvm.inline_asm "mov.b32 $0, $1;", "=r,r"
// The cost walk's wrap over the groups takes the same opaque count (its
// one-group kernel spilled 32 bytes with a constant one).
// COST-LABEL: llvm.func @dgemm_grouped_masked_g1_n7168_k2048_bm256_bn128_s3_g16_c112_wc(
// COST: %[[G:.+]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r"
// COST: scf.while
// COST: arith.cmpi eq, %{{.+}}, %[[G]] : i32
// COST-LABEL: llvm.func @dgemm_grouped_masked_g2_n7168_k2048_bm256_bn128_s3_g16_c112_wc(
// COST-NOT: llvm.inline_asm "mov.b32 $0, $1;"
func.func @masked_one_group(%a: memref<1x1024x2048xf8E4M3FN>, %sa: memref<1x1024x16xf32, strided<[16384, 1, 1024]>>,
    %b: memref<1x7168x2048xf8E4M3FN>, %sb: memref<1x56x16xf32>, %g: memref<1xi32>, %d: memref<1x1024x7168xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<1x1024x2048xf8E4M3FN>, memref<1x1024x16xf32, strided<[16384, 1, 1024]>>, memref<1x7168x2048xf8E4M3FN>, memref<1x56x16xf32>)
      groups(%g : memref<1xi32>) outs(%d : memref<1x1024x7168xbf16>) {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 112>, m_hint = 1024 : i64}
  return
}

// -----

// Two groups: the count stays a constant.
// CHECK-LABEL: llvm.func @dgemm_grouped_masked_g2_n7168_k2048_bm256_bn128_s3_g16_c112(
// CHECK-NOT: llvm.inline_asm "mov.b32 $0, $1;"
// CHECK: llvm.return
func.func @masked_two_groups(%a: memref<2x512x2048xf8E4M3FN>, %sa: memref<2x512x16xf32, strided<[8192, 1, 512]>>,
    %b: memref<2x7168x2048xf8E4M3FN>, %sb: memref<2x56x16xf32>, %g: memref<2xi32>, %d: memref<2x512x7168xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<2x512x2048xf8E4M3FN>, memref<2x512x16xf32, strided<[8192, 1, 512]>>, memref<2x7168x2048xf8E4M3FN>, memref<2x56x16xf32>)
      groups(%g : memref<2xi32>) outs(%d : memref<2x512x7168xbf16>) {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 112>, m_hint = 512 : i64}
  return
}
