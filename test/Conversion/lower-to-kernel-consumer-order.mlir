// The order of the two consumer warpgroups' wgmmas (dgemm-lower-to-kernel's
// consumer-order): none, pingpong (the turn passes when a warpgroup has
// issued its K block's wgmmas) and handoff (when they have completed).
// RUN: dgemm-opt %s --dgemm-lower-to-kernel | FileCheck %s --check-prefix=NONE
// RUN: dgemm-opt %s --dgemm-lower-to-kernel=consumer-order=pingpong | FileCheck %s --check-prefix=PP
// RUN: dgemm-opt %s --dgemm-lower-to-kernel=consumer-order=handoff | FileCheck %s --check-prefix=HO
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=consumer-order=zigzag 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: consumer-order must be none, pingpong or handoff, got 'zigzag'

// NONE-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn160_s5_g16_c131(
// NONE-NOT: nvvm.barrier.arrive
// NONE: nvvm.wgmma.fence.aligned
// NONE-NEXT: dgemm.wgmma_tile
// NONE-NEXT: nvvm.wgmma.commit.group.sync.aligned
// NONE-NOT: nvvm.barrier
// NONE: nvvm.wgmma.wait.group.sync.aligned 0

// Warpgroup 1 lets warpgroup 0 go first (barrier 3), each waits for its
// turn before the fence and passes it right after issuing.
// PP-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn160_s5_g16_c131_pp(
// PP: nvvm.barrier.arrive id = %{{.+}} number_of_threads = %{{.+}}
// PP: nvvm.barrier id = %{{[0-9]+}} number_of_threads = %{{.+}}
// PP-NEXT: nvvm.wgmma.fence.aligned
// PP-NEXT: dgemm.wgmma_tile
// PP-NEXT: nvvm.wgmma.commit.group.sync.aligned
// PP-NOT: nvvm.wgmma.wait.group
// PP: nvvm.barrier.arrive id = %{{.+}} number_of_threads = %{{.+}}
// PP: nvvm.wgmma.wait.group.sync.aligned 0

// With hand-off the turn passes after the wait for completion.
// HO-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn160_s5_g16_c131_ho(
// HO: nvvm.barrier.arrive id = %{{.+}} number_of_threads = %{{.+}}
// HO: nvvm.barrier id = %{{[0-9]+}} number_of_threads = %{{.+}}
// HO-NEXT: nvvm.wgmma.fence.aligned
// HO-NEXT: dgemm.wgmma_tile
// HO-NEXT: nvvm.wgmma.commit.group.sync.aligned
// HO-NOT: nvvm.barrier.arrive
// HO: nvvm.wgmma.wait.group.sync.aligned 0
// HO-NOT: dgemm.promote
// HO: nvvm.barrier.arrive id = %{{.+}} number_of_threads = %{{.+}}
// HO: dgemm.promote

func.func @gemm_m4096_n7168_k2048_e4m3(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 160, stages = 5, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}
