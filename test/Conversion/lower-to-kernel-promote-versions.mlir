// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=promote-versions=on | FileCheck %s --check-prefix=ON
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=AUTO
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=promote-versions=yes 2>&1 | FileCheck %s --check-prefix=BAD

// promote-versions=on at block N 192 (stage-unrolled, 128x128 B scales):
// the tile's `former` (the 8-column groups that take the first scale
// block's B scale) is 16 where the tile starts at a scale-block boundary
// and 8 where it starts 64 columns into one; an scf.if on former == 16
// holds one round loop for each, whose promotions take the constant; the
// name ends in _pv.
// ON-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr_pv(
// ON: %[[AT:.+]] = arith.cmpi eq, %{{.+}}, %c16_i32{{(_[0-9]+)?}} : i32
// ON-NEXT: %{{.+}}:2 = scf.if %[[AT]] -> (!llvm.struct<{{.+}}>, i1) {
// ON: scf.for
// ON-COUNT-4: dgemm.promote %{{.+}} former %c16_i32
// ON: } else {
// ON: scf.for
// ON-COUNT-4: dgemm.promote %{{.+}} former %c8_i32
// ON-NOT: dgemm.promote
// ON: llvm.return
// auto (the default): one round loop, former computed at run time.
// AUTO-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr(
// AUTO-COUNT-4: dgemm.promote %{{.+}} former %{{[0-9]+}} :
// AUTO-NOT: dgemm.promote
// AUTO: llvm.return
// BAD: promote-versions must be auto, on or off, got 'yes'
func.func @contiguous_multicast_b(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mi: memref<?xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// Block N 128: every tile lies in one scale block, nothing to version.
// ON-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm256_bn128_s3_g16_c128(
// ON-NOT: _pv
// ON: llvm.return
func.func @normal_bn128(%a: memref<4096x7168xf8E4M3FN>, %sa: memref<4096x56xf32, strided<[1, 4096]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<4096x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<4096x7168xf8E4M3FN>, memref<4096x56xf32, strided<[1, 4096]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<4096x4096xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}
