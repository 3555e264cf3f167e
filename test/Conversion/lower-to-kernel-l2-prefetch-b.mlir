// dgemm-lower-to-kernel{l2-prefetch-b=P} (off by default): at every P-th K
// block of a tile the producer issues TMA L2 prefetches of B's boxes for the
// P K blocks past the ring's reach (kb + stages .. kb + stages + P - 1),
// each only where it is still inside the tile's K range; bad values are
// errors, and the k-grouped GEMM takes none.
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=l2-prefetch-b=4 | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=OFF
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=l2-prefetch-b=33 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: l2-prefetch-b must be in [0, 32], got 33

// CHECK-LABEL: llvm.func @dgemm_gemm_n2112_k7168_bm64_bn16_s8_g1_c132_ks_hbf_pf4(
// CHECK: nvvm.setmaxregister decrease
// The B load of K block kb, then the burst when kb % 4 == 0.
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg2,
// CHECK: %[[REM:[a-z0-9_]+]] = arith.remui %[[KB:[a-z0-9_]+]], %c4_i32
// CHECK: %[[AT:[a-z0-9_]+]] = arith.cmpi eq, %[[REM]], %c0_i32
// CHECK: scf.if %[[AT]] {
// First box: K block kb + 8 (8 stages), if below the tile's 56.
// CHECK: %[[A0:[a-z0-9_]+]] = arith.addi %[[KB]], %c8_i32
// CHECK: %[[IN0:[a-z0-9_]+]] = arith.cmpi ult, %[[A0]], %c56_i32
// CHECK: scf.if %[[IN0]] {
// CHECK: nvvm.cp.async.bulk.tensor.prefetch %arg2, box[
// CHECK: arith.addi %[[KB]], %c11_i32
// CHECK: nvvm.cp.async.bulk.tensor.prefetch %arg2, box[
// CHECK-NOT: nvvm.cp.async.bulk.tensor.prefetch
// CHECK: nvvm.setmaxregister increase
// OFF-LABEL: llvm.func @dgemm_gemm_n2112_k7168_bm64_bn16_s8_g1_c132_ks_hbf(
// OFF-NOT: nvvm.cp.async.bulk.tensor.prefetch
func.func @small_m(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<2112x7168xf8E4M3FN>, %sb: memref<17x56xf32>, %d: memref<?x2112xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<2112x7168xf8E4M3FN>, memref<17x56xf32>) outs(%d : memref<?x2112xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 16, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 132, stream_b = true>}
  return
}
