// RUN: dgemm-opt %s --dgemm-lower-to-kernel --canonicalize --cse | FileCheck %s
// RUN: dgemm-opt %s --dgemm-lower-to-kernel=stage-unroll=off | FileCheck %s --check-prefix=OFF
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=AUTO
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=stage-unroll=on | FileCheck %s --check-prefix=FORCED
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=stage-unroll=sometimes 2>&1 | FileCheck %s --check-prefix=BAD

// The consumers' K loop in rounds of `stages` (3) K blocks: the rounds
// run from ring index / 3 to (ring index + K blocks + 2) / 3, each with
// three copies of the K block, copy j on ring slot j (its full barrier at
// a constant offset from slot 0's), parity round & 1, each copy skipped
// when its K block (round * 3 + j - ring index) is not below the tile's 128.
// The default ('auto') for kernels of one K block per iteration with at
// least 8 K blocks; the kernel name says where the option overrides it.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm256_bn128_s3_g16_c128(
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: %[[FIRST:[^ ]+]] = arith.divui %{{[^ ]+}}, %c3_i32 : i32
// CHECK: %[[END:[^ ]+]] = arith.divui %{{.+}}, %c3_i32 : i32
// CHECK: scf.for %[[R:[^ ]+]] = %[[FIRST]] to %[[END]] step
// CHECK: %[[PH:[^ ]+]] = arith.andi %[[R]], %{{.+}} : i32
// CHECK: %[[IN0:.+]] = arith.cmpi ult, %{{.+}}, %c128_i32 : i32
// CHECK: scf.if %[[IN0]]
// (With early-full-wait, the default: each copy waits only where the
// copy before it did not see its slot full, and tests the next slot's full
// barrier after its wgmmas; lower-to-kernel-early-full-wait.mlir.)
// CHECK: %[[FULL0:[^ ]+]] = llvm.getelementptr %{{.+}}[217088]
// CHECK-NEXT: nvvm.mbarrier.try_wait.parity %[[FULL0]], %[[PH]]
// CHECK-COUNT-2: dgemm.wgmma_tile
// CHECK: %[[BASE1:[^ ]+]] = llvm.getelementptr %{{.+}}[217088]
// CHECK-NEXT: %[[NEXT1:[^ ]+]] = llvm.getelementptr %[[BASE1]][8]
// CHECK-NEXT: nvvm.mbarrier.test.wait %[[NEXT1]], %[[PH]]
// CHECK: %[[IN1:.+]] = arith.cmpi ult, %{{.+}}, %c128_i32 : i32
// CHECK: scf.if %[[IN1]]
// CHECK: %[[BASE2:[^ ]+]] = llvm.getelementptr %{{.+}}[217088]
// CHECK-NEXT: %[[FULL1:[^ ]+]] = llvm.getelementptr %[[BASE2]][8]
// CHECK-NEXT: nvvm.mbarrier.try_wait.parity %[[FULL1]], %[[PH]]
// CHECK-COUNT-2: dgemm.wgmma_tile
// CHECK: %[[NEXT2:[^ ]+]] = llvm.getelementptr %{{.+}}[16]
// CHECK-NEXT: nvvm.mbarrier.test.wait %[[NEXT2]], %[[PH]]
// CHECK: %[[IN2:.+]] = arith.cmpi ult, %{{.+}}, %c128_i32 : i32
// CHECK: scf.if %[[IN2]]
// CHECK: %[[FULL2:[^ ]+]] = llvm.getelementptr %{{.+}}[16]
// CHECK-NEXT: nvvm.mbarrier.try_wait.parity %[[FULL2]], %[[PH]]
// CHECK-COUNT-2: dgemm.wgmma_tile
// CHECK: %[[NEXT0:[^ ]+]] = llvm.getelementptr %{{.+}}[217088]
// CHECK-NEXT: %[[OTHER:[^ ]+]] = arith.xori %[[PH]], %c1_i32
// CHECK-NEXT: nvvm.mbarrier.test.wait %[[NEXT0]], %[[OTHER]]
// CHECK-NOT: dgemm.wgmma_tile
// CHECK: scf.yield
// CHECK: dgemm.epilogue_store
// OFF-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm256_bn128_s3_g16_c128_nsu(
// OFF: nvvm.setmaxregister  increase 232
// OFF-COUNT-2: dgemm.wgmma_tile
// OFF-NOT: dgemm.wgmma_tile
// OFF: dgemm.epilogue_store
// BAD: stage-unroll must be auto, on or off, got 'sometimes'
func.func @gemm(%a: memref<?x16384xf8E4M3FN>, %sa: memref<?x128xf32, strided<[1, ?]>>,
    %b: memref<7168x16384xf8E4M3FN>, %sb: memref<56x128xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x16384xf8E4M3FN>, memref<?x128xf32, strided<[1, ?]>>,
      memref<7168x16384xf8E4M3FN>, memref<56x128xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>, m_hint = 4096 : i64}
  return
}

// -----

// 4 K blocks: not by default (measured 3% slower at 4096x32768x512).
// AUTO-LABEL: llvm.func @dgemm_gemm_n32768_k512_bm128_bn192_s4_g16_c128(
// AUTO-NOT: nvvm.shfl.sync
// FORCED-LABEL: llvm.func @dgemm_gemm_n32768_k512_bm128_bn192_s4_g16_c128_su(
// FORCED: nvvm.shfl.sync
func.func @short_k(%a: memref<?x512xf8E4M3FN>, %sa: memref<?x4xf32, strided<[1, ?]>>,
    %b: memref<32768x512xf8E4M3FN>, %sb: memref<256x4xf32>, %d: memref<?x32768xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x512xf8E4M3FN>, memref<?x4xf32, strided<[1, ?]>>,
      memref<32768x512xf8E4M3FN>, memref<256x4xf32>) outs(%d : memref<?x32768xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>, m_hint = 4096 : i64}
  return
}

// -----

// 192 columns and 12 K blocks: the ring loop by default (ptxas took 3-4x
// as long on the unrolled loop, which ran within 0.7% of the ring loop).
// AUTO-LABEL: llvm.func @dgemm_gemm_n24576_k1536_bm128_bn192_s4_g1_c128(
// AUTO-NOT: nvvm.shfl.sync
// FORCED-LABEL: llvm.func @dgemm_gemm_n24576_k1536_bm128_bn192_s4_g1_c128_su(
// FORCED: nvvm.shfl.sync
func.func @wide_k12(%a: memref<?x1536xf8E4M3FN>, %sa: memref<?x12xf32, strided<[1, ?]>>,
    %b: memref<24576x1536xf8E4M3FN>, %sb: memref<192x12xf32>, %d: memref<?x24576xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x1536xf8E4M3FN>, memref<?x12xf32, strided<[1, ?]>>,
      memref<24576x1536xf8E4M3FN>, memref<192x12xf32>) outs(%d : memref<?x24576xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 1, num_sms = 128>, m_hint = 128 : i64}
  return
}

// -----

// 192 columns and 16 K blocks: unrolled by default.
// AUTO-LABEL: llvm.func @dgemm_gemm_n24576_k2048_bm128_bn192_s4_g1_c128(
// AUTO: nvvm.shfl.sync
// FORCED-LABEL: llvm.func @dgemm_gemm_n24576_k2048_bm128_bn192_s4_g1_c128(
// FORCED: nvvm.shfl.sync
func.func @wide_k16(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<24576x2048xf8E4M3FN>, %sb: memref<192x16xf32>, %d: memref<?x24576xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<24576x2048xf8E4M3FN>, memref<192x16xf32>) outs(%d : memref<?x24576xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 1, num_sms = 128>, m_hint = 128 : i64}
  return
}
