// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=early-full-wait=on | FileCheck %s --check-prefixes=CHECK,ON
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefixes=CHECK,AUTO
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=early-full-wait=off | FileCheck %s --check-prefix=OFF
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=early-full-wait=yes 2>&1 | FileCheck %s --check-prefix=BAD

// early-full-wait (on, and auto: the default; stage-unrolled K loop with
// 128x128 B scales): the round loop carries an i1
// (false at the tile's start). Each copy of the body waits for its slot's
// full barrier only where that i1 is false; once it has released its slot
// (the empty-barrier arrivals) it tests the next slot's full barrier
// without blocking, before the promotion, and yields the answer to the
// next copy. The last copy tests slot 0 with the other parity (the next
// round); a copy outside the tile yields false.
// CHECK-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr(
// CHECK: nvvm.setmaxregister increase 232
// CHECK: %[[FALSE:.+]] = arith.constant false
// CHECK: scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}, %[[READY:.+]] = %[[FALSE]]) -> (!llvm.struct<{{.+}}>, i1)
// CHECK: %[[PHASE:.+]] = arith.andi %[[R]], %{{.+}} : i32
// Copy 0.
// CHECK: scf.if %{{.+}} -> (!llvm.struct<{{.+}}>, i1) {
// CHECK: %[[NOTYET:.+]] = arith.cmpi eq, %[[READY]], %{{.+}} : i1
// CHECK: scf.if %[[NOTYET]] {
// CHECK: nvvm.mbarrier.try_wait.parity %{{.+}}, %[[PHASE]], %{{.+}} : !llvm.ptr<3>, i32, i32
// CHECK: }
// CHECK: dgemm.wgmma_tile
// CHECK: nvvm.mbarrier.arrive
// CHECK: %[[T0:.+]] = nvvm.mbarrier.test.wait %{{.+}}, %[[PHASE]] : !llvm.ptr<3>, i32 -> i1
// CHECK-NEXT: %[[P0:.+]] = dgemm.promote
// CHECK-NEXT: scf.yield %[[P0]], %[[T0]]
// CHECK: } else {
// CHECK: %[[F0:.+]] = arith.constant false
// CHECK-NEXT: scf.yield %{{.+}}, %[[F0]]
// Copy 3: slot 0 of the next round.
// CHECK: scf.if %{{.+}} -> (!llvm.struct<{{.+}}>, i1) {
// CHECK: scf.if %{{.+}} -> (!llvm.struct<{{.+}}>, i1) {
// CHECK: scf.if %{{.+}} -> (!llvm.struct<{{.+}}>, i1) {
// CHECK: %[[NEXTPHASE:.+]] = arith.xori %[[PHASE]], %{{.+}} : i32
// CHECK-NEXT: %[[T3:.+]] = nvvm.mbarrier.test.wait %{{.+}}, %[[NEXTPHASE]] : !llvm.ptr<3>, i32 -> i1
// CHECK-NEXT: %[[P3:.+]] = dgemm.promote
// CHECK-NEXT: scf.yield %[[P3]], %[[T3]]
// off: each copy waits before its wgmmas; the name says so.
// OFF-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr_nfw(
// OFF-NOT: nvvm.mbarrier.test.wait
// OFF: scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (!llvm.struct<{{.+}}>)
// OFF-NOT: nvvm.mbarrier.test.wait
// OFF: llvm.return
// BAD: early-full-wait must be auto, on or off, got 'yes'
func.func @contiguous_multicast_b(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mi: memref<?xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// A normal GEMM whose K loop is not stage-unrolled (block N 128, K blocks
// in pairs, then a loop of one K block per iteration for an odd last
// one). Auto and off: no test, the name unchanged. 'on' takes the test into
// that one-block loop (its slot computed from the ring counter; not the
// pairs): the loop carries the i1, waits only where it is false, and tests
// ring entry i + 1 after the release (kernel name _fw).
// AUTO-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm128_bn128_s3_g16_c132(
// AUTO-NOT: nvvm.mbarrier.test.wait
// AUTO: llvm.return
// OFF-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm128_bn128_s3_g16_c132(
// OFF-NOT: nvvm.mbarrier.test.wait
// OFF: llvm.return
// ON-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm128_bn128_s3_g16_c132_fw(
// ON: scf.for %{{.+}} step %c2_i32{{.*}} iter_args(%{{.+}}, %{{.+}}) -> (i32, !llvm.struct<{{.+}}>)
// ON-NOT: nvvm.mbarrier.test.wait
// ON: %[[FALSE:.+]] = arith.constant false
// ON: scf.for %{{.+}} step %c1_i32{{.*}} iter_args(%[[I:[^ ]+]] = %{{.+}}, %{{.+}} = %{{.+}}, %[[READY:[^ ]+]] = %[[FALSE]]) -> (i32, !llvm.struct<{{.+}}>, i1)
// ON: %[[NOTYET:.+]] = arith.cmpi eq, %[[READY]], %{{.+}} : i1
// ON-NEXT: scf.if %[[NOTYET]] {
// ON: nvvm.mbarrier.try_wait.parity
// ON: dgemm.wgmma_tile
// ON: nvvm.mbarrier.arrive
// ON: %[[NEXT:.+]] = arith.addi %[[I]], %c1_i32{{.*}} : i32
// ON: nvvm.mbarrier.test.wait %{{.+}}, %{{.+}} : !llvm.ptr<3>, i32 -> i1
// ON-NEXT: dgemm.promote
func.func @normal_pairs(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<?x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}
