// RUN: dgemm-opt %s --dgemm-lower-to-kernel | FileCheck %s
// RUN: dgemm-opt %s --dgemm-lower-to-kernel=uniform-warpgroup=off | FileCheck %s --check-prefix=OFF
// RUN: dgemm-opt %s --dgemm-lower-to-kernel=stage-unroll=off | FileCheck %s --check-prefix=NOSU
// RUN: dgemm-opt %s "--dgemm-lower-to-kernel=stage-unroll=off uniform-warpgroup=on" | FileCheck %s --check-prefix=ON
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=uniform-warpgroup=maybe 2>&1 | FileCheck %s --check-prefix=BAD

// The warpgroup index through lane 0: every thread divides its thread index
// by 128 and takes lane 0's quotient (shfl.sync.idx over all lanes), which
// ptxas knows to be the same in every lane; the roles' branch and the A
// tile's rows (64 * wg) use that value. 'auto' (the default) takes it with
// the stage-unrolled K loop; the kernel name says where the option
// overrides that.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm256_bn128_s3_g16_c128(
// CHECK: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[Q:.+]] = arith.divui %[[TID]], %{{.+}} : i32
// CHECK: %[[WG:.+]] = nvvm.shfl.sync idx %{{.+}}, %[[Q]], %{{.+}}, %{{.+}} : i32 -> i32
// CHECK: arith.cmpi eq, %[[WG]], %{{.+}} : i32
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: arith.muli %[[WG]], %{{.+}} : i32
// OFF-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm256_bn128_s3_g16_c128_nuw(
// OFF-NOT: nvvm.shfl.sync
// NOSU-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm256_bn128_s3_g16_c128_nsu(
// NOSU-NOT: nvvm.shfl.sync
// ON-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm256_bn128_s3_g16_c128_uw_nsu(
// ON: nvvm.shfl.sync idx
// BAD: uniform-warpgroup must be auto, on or off, got 'maybe'
func.func @gemm(%a: memref<?x16384xf8E4M3FN>, %sa: memref<?x128xf32, strided<[1, ?]>>,
    %b: memref<7168x16384xf8E4M3FN>, %sb: memref<56x128xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x16384xf8E4M3FN>, memref<?x128xf32, strided<[1, ?]>>,
      memref<7168x16384xf8E4M3FN>, memref<56x128xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>, m_hint = 4096 : i64}
  return
}
