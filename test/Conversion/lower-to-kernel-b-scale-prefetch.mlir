// b-scale-prefetch (auto: two consumer warpgroups, at most 4 K blocks):
// each consumer warpgroup has two buffers of its own (its 128 threads copy
// every scale of the tile); its first tile copies its own B-scale rows,
// every tile meets once at the warpgroup's named barrier 9 + w (128
// threads; no barrier 1 or 2 over both warpgroups), loads the next tile's
// scales (tile t + step, through the same schedule_tile) before the K loop
// and stores them into the other buffer after it, before the epilogue.
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=b-scale-prefetch=off | FileCheck %s --check-prefix=OFF
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=b-scale-prefetch=on | FileCheck %s --check-prefix=ON
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=b-scale-prefetch=yes 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: b-scale-prefetch must be auto, on or off, got 'yes'

// Four buffers (two per warpgroup) of 2 x 4 floats: 96 bytes more shared
// memory than the one buffer without the prefetch.
// CHECK-LABEL: llvm.func @dgemm_gemm_n32768_k512_bm128_bn192_s4_g16_c128(
// CHECK-SAME: dynamic_smem = 215232 : i64
// CHECK: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[WG:.+]] = arith.divui %[[TID]], %c128_i32
// CHECK: nvvm.setmaxregister increase 232
// CHECK: %[[T:.+]] = scf.for %[[TILE:.+]] = %[[FIRST:.+]] to %{{.+}} step %[[STEP:[^ ]+]] iter_args(%[[IT:.+]] = %{{.+}})
// CHECK: dgemm.schedule_tile %[[TILE]]
// CHECK-NOT: nvvm.barrier id
// CHECK: %[[WGTHREAD:.+]] = arith.remui %[[TID]], %c128_i32
// CHECK: %[[ITER:.+]] = arith.divui %[[IT]], %c4_i32
// CHECK: %[[ODD:.+]] = arith.andi %[[ITER]], %c1_i32
// CHECK: %[[BASE:.+]] = llvm.getelementptr %{{.+}}[215040]
// CHECK: %[[PAIR:.+]] = arith.muli %[[WG]], %c64_i32
// CHECK: llvm.getelementptr %[[BASE]][%[[PAIR]]]
// CHECK: %[[ISFIRST:.+]] = arith.cmpi eq, %[[ITER]], %c0_i32
// CHECK: scf.if %[[ISFIRST]] {
// CHECK: arith.addi %[[WGTHREAD]], %c0_i32
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK: arith.cmpi ult, %{{.+}}, %c8_i32
// CHECK: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr<3>
// CHECK: %[[BAR:.+]] = arith.addi %[[WG]], %c9_i32
// CHECK: nvvm.barrier id = %[[BAR]] number_of_threads = %c128_i32
// CHECK: %[[NEXT1:.+]] = arith.addi %[[ITER]], %c1_i32
// CHECK: %[[NEXTSTEP:.+]] = arith.muli %[[NEXT1]], %[[STEP]]
// CHECK: %[[NEXT:.+]] = arith.addi %[[FIRST]], %[[NEXTSTEP]]
// CHECK: dgemm.schedule_tile %[[NEXT]]
// CHECK: %[[V:.+]] = llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK-NOT: nvvm.barrier id
// CHECK: scf.for
// CHECK: dgemm.wgmma_tile
// CHECK: scf.if
// CHECK: llvm.store %[[V]], %{{.+}} : f32, !llvm.ptr<3>
// CHECK: dgemm.epilogue_store
// OFF-LABEL: llvm.func @dgemm_gemm_n32768_k512_bm128_bn192_s4_g16_c128_nbp(
// OFF-SAME: dynamic_smem = 215136 : i64
// OFF: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// OFF: nvvm.barrier id = %c2_i32
func.func @gemm_k512(%a: memref<?x512xf8E4M3FN>, %sa: memref<?x4xf32, strided<[1, ?]>>,
    %b: memref<32768x512xf8E4M3FN>, %sb: memref<256x4xf32>, %d: memref<?x32768xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x512xf8E4M3FN>, memref<?x4xf32, strided<[1, ?]>>,
      memref<32768x512xf8E4M3FN>, memref<256x4xf32>) outs(%d : memref<?x32768xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

// -----

// More K blocks: auto takes the prefetch too (two warpgroups, each with its
// own rows); 'off' keeps the per-tile copy, met at barriers 1 and 2 over
// both warpgroups.
// CHECK-LABEL: llvm.func @dgemm_gemm_n2112_k1024_bm128_bn192_s4_g16_c22(
// CHECK: nvvm.setmaxregister increase 232
// CHECK-NOT: nvvm.barrier id = %c1_i32
// CHECK: dgemm.schedule_tile
// CHECK-NOT: nvvm.barrier id = %c2_i32
// CHECK: %[[BAR:.+]] = arith.addi %{{.+}}, %c9_i32
// CHECK: nvvm.barrier id = %[[BAR]] number_of_threads = %c128_i32
// CHECK-NOT: nvvm.barrier id = %c2_i32
// ON-LABEL: llvm.func @dgemm_gemm_n2112_k1024_bm128_bn192_s4_g16_c22(
// OFF-LABEL: llvm.func @dgemm_gemm_n2112_k1024_bm128_bn192_s4_g16_c22_nbp(
// OFF: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// OFF: nvvm.barrier id = %c2_i32
func.func @gemm_k1024(%a: memref<?x1024xf8E4M3FN>, %sa: memref<?x8xf32, strided<[1, ?]>>,
    %b: memref<2112x1024xf8E4M3FN>, %sb: memref<17x8xf32>, %d: memref<?x2112xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x1024xf8E4M3FN>, memref<?x8xf32, strided<[1, ?]>>,
      memref<2112x1024xf8E4M3FN>, memref<17x8xf32>) outs(%d : memref<?x2112xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 22>}
  return
}

// -----

// A K split (two warpgroups on the same 64 rows, 56 K blocks): auto keeps
// the per-tile copy (met at barrier 2 over both); 'on' takes the prefetch.
// CHECK-LABEL: llvm.func @dgemm_gemm_n2112_k7168_bm64_bn16_s8_g1_c132_ks(
// CHECK: nvvm.setmaxregister increase 232
// CHECK: nvvm.barrier id = %c2_i32{{.*}} number_of_threads = %c256_i32
// CHECK-NOT: %c9_i32
// CHECK: dgemm.epilogue_store
// ON-LABEL: llvm.func @dgemm_gemm_n2112_k7168_bm64_bn16_s8_g1_c132_ks_bp(
// ON: nvvm.setmaxregister increase 232
// ON-NOT: nvvm.barrier id = %c2_i32
// ON: %[[BAR:.+]] = arith.addi %{{.+}}, %c9_i32
// ON: nvvm.barrier id = %[[BAR]] number_of_threads = %c128_i32
func.func @gemm_k_split(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<2112x7168xf8E4M3FN>, %sb: memref<17x56xf32>, %d: memref<?x2112xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<2112x7168xf8E4M3FN>, memref<17x56xf32>) outs(%d : memref<?x2112xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 16, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 132>}
  return
}
