// RUN: dgemm-opt %s --dgemm-lower-to-kernel | FileCheck %s --check-prefix=NONE
// RUN: dgemm-opt %s "--dgemm-lower-to-kernel=l2-hint-a=evict-last l2-hint-b=evict-first" | FileCheck %s
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=l2-hint-b=evict-sometimes 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: dgemm-opt %s --dgemm-lower-to-kernel=l2-hint-d=evict-first | FileCheck %s --check-prefix=D
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=l2-hint-d=auto 2>&1 | FileCheck %s --check-prefix=BAD-D

// L2 cache hints on the TMA loads (an experiment for the masked layout,
// whose B is read once): the producer makes each policy once with
// createpolicy and passes it with every load of that operand; the scales'
// loads take none. The kernel name says which hints it carries.
// CHECK-LABEL: llvm.func @dgemm_grouped_masked_g4_n4096_k7168_bm128_bn128_s5_g16_c128_hal_hbf(
// CHECK-DAG: %[[HA:.+]] = llvm.inline_asm "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l"  : () -> i64
// CHECK-DAG: %[[HB:.+]] = llvm.inline_asm "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l"  : () -> i64
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %{{.+}}, %{{.+}}, box[%{{.+}}, %{{.+}}, %{{.+}}] l2_cache_hint = %[[HA]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %{{.+}}, %{{.+}}, box[%{{.+}}, %{{.+}}, %{{.+}}] l2_cache_hint = %[[HB]]
// CHECK-NOT: l2_cache_hint
// CHECK: nvvm.wgmma
// No hints by default.
// NONE-LABEL: llvm.func @dgemm_grouped_masked_g4_n4096_k7168_bm128_bn128_s5_g16_c128(
// NONE-NOT: createpolicy
// NONE-NOT: l2_cache_hint
// BAD: l2-hint-b must be auto, none, evict-first, evict-last or evict-normal, got 'evict-sometimes'
// A policy on D's TMA stores (l2-hint-d): made once by each consumer
// thread, given to the epilogue's store; the loads keep none.
// D-LABEL: llvm.func @dgemm_grouped_masked_g4_n4096_k7168_bm128_bn128_s5_g16_c128_hdf(
// D-NOT: l2_cache_hint
// D: %[[HD:.+]] = llvm.inline_asm "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l"  : () -> i64
// D-NOT: l2_cache_hint
// D: dgemm.epilogue_store{{.*}} policy %[[HD]]
// BAD-D: l2-hint-d must be none, evict-first, evict-last or evict-normal, got 'auto'
func.func @masked(%a: memref<4x256x7168xf8E4M3FN>, %sa: memref<4x256x56xf32, strided<[14336, 1, 256]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mm: memref<4xi32>, %d: memref<4x256x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked> ins(%a, %sa, %b, %sb : memref<4x256x7168xf8E4M3FN>,
      memref<4x256x56xf32, strided<[14336, 1, 256]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mm : memref<4xi32>) outs(%d : memref<4x256x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 5, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}
