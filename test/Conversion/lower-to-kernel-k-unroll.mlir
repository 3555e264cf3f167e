// RUN: dgemm-opt %s --dgemm-lower-to-kernel | FileCheck %s
// RUN: dgemm-opt %s "--dgemm-lower-to-kernel=k-unroll=1 stage-unroll=off" | FileCheck %s --check-prefix=ONE
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=k-unroll=3 2>&1 | FileCheck %s --check-prefix=BAD

// K blocks in pairs (the default, k-unroll=2, for tiles with room for two
// fresh fragments): the consumers' loop runs to K/128 rounded down to even
// in steps of 2; each iteration waits for both stages, issues both blocks'
// wgmma chains (each fenced and committed), then waits until one group is
// pending, releases the first stage and promotes it, waits for none,
// releases the second and promotes it; a loop of single blocks takes the
// odd last one, continuing the ring counter and the total.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm64_bn64_s8_g1_c112{{(_nsu)?}}(
// CHECK: %[[END:.+]] = arith.andi %{{.+}}, %c-2_i32 : i32
// CHECK: %[[PAIRS:.+]]:2 = scf.for %{{.+}} = %{{.+}} to %[[END]] step %c2_i32{{.*}} iter_args(%[[IT:.+]] = %{{.+}}, %[[T:.+]] = %{{.+}})
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[A0:.+]] = dgemm.wgmma_tile
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[A1:.+]] = dgemm.wgmma_tile
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive
// CHECK: %[[P0:.+]] = dgemm.promote %[[T]], %[[A0]]
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive
// CHECK: %[[P1:.+]] = dgemm.promote %[[P0]], %[[A1]]
// CHECK: scf.yield %{{.+}}, %[[P1]]
// CHECK: scf.for %{{.+}} = %[[END]] to %{{.+}} step %c1_i32{{.*}} iter_args(%{{.+}} = %[[PAIRS]]#0, %{{.+}} = %[[PAIRS]]#1)
// CHECK: dgemm.wgmma_tile
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: dgemm.wgmma_tile
// CHECK: dgemm.epilogue_store
// One block per iteration with k-unroll=1.
// ONE-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm64_bn64_s8_g1_c112{{(_nsu)?}}(
// ONE-NOT: step %c2_i32
// ONE-COUNT-1: dgemm.wgmma_tile
// ONE-NOT: dgemm.wgmma_tile
// BAD: k-unroll must be 1 or 2, got 3
func.func @gemm_64x64(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 64, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 112>}
  return
}
