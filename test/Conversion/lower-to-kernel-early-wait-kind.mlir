// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=early-wait-kind=try | FileCheck %s --check-prefix=TRY
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=AUTO
// RUN: dgemm-opt %s -split-input-file "--dgemm-lower-to-kernel=early-full-wait=off early-wait-kind=try" | FileCheck %s --check-prefix=OFF
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=early-wait-kind=spin 2>&1 | FileCheck %s --check-prefix=BAD

// early-wait-kind=try: each copy's early test of the next slot's full
// barrier is one mbarrier.try_wait.parity in inline PTX (no loop: the NVVM
// op would loop until the phase completes), its predicate turned into an
// i32 and compared with 0; the copy yields that answer as it yields the
// test_wait's by default. The name ends in _tw.
// TRY-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr_tw(
// TRY-NOT: nvvm.mbarrier.test.wait
// TRY: %[[TRIED:.+]] = llvm.inline_asm has_side_effects "{\0A\09.reg .pred p;\0A\09mbarrier.try_wait.parity.shared.b64 p, [$1], $2;\0A\09selp.b32 $0, 1, 0, p;\0A\09}", "=r,r,r" %{{.+}}, %{{.+}} : (!llvm.ptr<3>, i32) -> i32
// TRY-NEXT: %[[ZERO:.+]] = arith.constant 0 : i32
// TRY-NEXT: %[[READY:.+]] = arith.cmpi ne, %[[TRIED]], %[[ZERO]] : i32
// TRY-NEXT: %[[P:.+]] = dgemm.promote
// TRY-NEXT: scf.yield %[[P]], %[[READY]]
// TRY-NOT: nvvm.mbarrier.test.wait
// TRY: llvm.return
// auto (the default): test_wait, no suffix.
// AUTO-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr(
// AUTO-NOT: mbarrier.try_wait.parity.shared.b64 p
// AUTO: nvvm.mbarrier.test.wait
// AUTO-NOT: mbarrier.try_wait.parity.shared.b64 p
// AUTO: llvm.return
// Without the early test there is nothing to issue as a try_wait: the
// kind changes nothing and the name has no _tw.
// OFF-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr_nfw(
// OFF-NOT: mbarrier.try_wait.parity.shared.b64 p
// OFF-NOT: nvvm.mbarrier.test.wait
// OFF: llvm.return
// BAD: early-wait-kind must be auto, test or try, got 'spin'
func.func @contiguous_multicast_b(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mi: memref<?xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}
