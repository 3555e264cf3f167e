// RUN: dgemm-opt %s --dgemm-lower-to-kernel=round-pairs=on | FileCheck %s --check-prefix=ON
// RUN: dgemm-opt %s "--dgemm-lower-to-kernel=round-pairs=on full-rounds=on" | FileCheck %s --check-prefix=FR
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=round-pairs=2 2>&1 | FileCheck %s --check-prefix=BAD

// round-pairs=on (stage-unrolled, 4 stages): the round loop starts at the
// even round at or before the tile's first (rFirst & -2) and steps by 2;
// its body holds 8 copies, each guarded by its K block's test; the first
// four wait with parity 0 and the last four with parity 1, constants.
// ON-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr_rp(
// ON: %[[EVEN:.+]] = arith.andi %{{.+}}, %c-2_i32{{(_[0-9]+)?}} : i32
// ON: scf.for %{{.+}} = %[[EVEN]] to %{{.+}} step %c2_i32{{(_[0-9]+)?}} iter_args(
// ON-COUNT-8: dgemm.promote
// ON-NOT: dgemm.promote
// ON: llvm.return
// full-rounds leaves no partial round: round-pairs does not apply.
// FR-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr_fr(
// FR-COUNT-4: dgemm.promote
// FR-NOT: dgemm.promote
// BAD: round-pairs must be auto, on or off, got '2'
func.func @contiguous_multicast_b(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mi: memref<?xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}
