// RUN: dgemm-opt %s --dgemm-lower-to-kernel | FileCheck %s
// RUN: dgemm-opt %s --dgemm-lower-to-kernel=l2-hint-b=none | FileCheck %s --check-prefix=NONE

// A config with stream_b (B read once, or in one wave): by default
// (l2-hint-b=auto) B's TMA loads carry an evict_first policy, A's and the
// scales' none; l2-hint-b=none overrides the config. (64x56 at 128 K
// blocks takes the K split by default: _ks.)
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm64_bn56_s8_g1_c128_ks_hbf(
// CHECK: %[[HB:.+]] = llvm.inline_asm "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l"  : () -> i64
// CHECK-NOT: createpolicy
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %{{.+}}, %{{.+}}, box[%{{.+}}, %{{.+}}] :
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %{{.+}}, %{{.+}}, box[%{{.+}}, %{{.+}}] l2_cache_hint = %[[HB]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %{{.+}}, %{{.+}}, box[%{{.+}}, %{{.+}}] :
// NONE-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm64_bn56_s8_g1_c128_ks(
// NONE-NOT: createpolicy
// NONE-NOT: l2_cache_hint
func.func @gemm_m64(%a: memref<?x16384xf8E4M3FN>, %sa: memref<?x128xf32, strided<[1, ?]>>,
    %b: memref<7168x16384xf8E4M3FN>, %sb: memref<56x128xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x16384xf8E4M3FN>, memref<?x128xf32, strided<[1, ?]>>,
      memref<7168x16384xf8E4M3FN>, memref<56x128xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 56, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 128, stream_b = true>}
  return
}
