// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=full-rounds=on | FileCheck %s --check-prefix=ON
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=AUTO
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=full-rounds=yes 2>&1 | FileCheck %s --check-prefix=BAD

// full-rounds=on, stage-unrolled K loop with K blocks a multiple of the
// stages (56 = 14 rounds of 4): the round loop runs exactly kBlocks /
// stages rounds from the tile's first (base / 4 to base / 4 + 14), and
// each copy of the body is guarded by an opaque true (an inline PTX move
// of 0 with side effects, compared with 0), not by a test of its K block
// against the tile's; the name ends in _fr.
// ON-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr_fr(
// ON: %[[ROUNDS:.+]] = arith.constant 14 : i32
// ON-NEXT: %[[END:.+]] = arith.addi %[[FIRST:.+]], %[[ROUNDS]] : i32
// ON: scf.for %{{.+}} = %[[FIRST]] to %[[END]] step
// ON-COUNT-4: llvm.inline_asm has_side_effects "mov.b32 $0, 0;", "=r"
// ON-NOT: llvm.inline_asm has_side_effects "mov.b32 $0, 0;"
// ON: llvm.return
// auto (the default): each copy tests its K block; no suffix.
// AUTO-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr(
// AUTO-NOT: llvm.inline_asm has_side_effects "mov.b32 $0, 0;"
// AUTO: arith.cmpi ult
// AUTO: llvm.return
// BAD: full-rounds must be auto, on or off, got 'yes'
func.func @contiguous_multicast_b(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mi: memref<?xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// K blocks not a multiple of the stages (56 K blocks, 3 stages): 'on' does
// not apply, the copies keep their test and the name has no suffix.
// ON-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm256_bn128_s3_g16_c128(
// ON-NOT: llvm.inline_asm has_side_effects "mov.b32 $0, 0;"
// ON: arith.cmpi ult
// ON: llvm.return
func.func @normal_three_stages(%a: memref<4096x7168xf8E4M3FN>, %sa: memref<4096x56xf32, strided<[1, 4096]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<4096x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<4096x7168xf8E4M3FN>, memref<4096x56xf32, strided<[1, 4096]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<4096x4096xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

// -----

// The masked layout keeps its test whatever K (its ring is not known to
// start each tile at slot 0).
// ON-LABEL: llvm.func @dgemm_grouped_masked_g4_n4096_k7168_bm128_bn128_s4
// ON-NOT: _fr(
// ON-NOT: llvm.inline_asm has_side_effects "mov.b32 $0, 0;"
// ON: llvm.return
func.func @masked(%a: memref<4x256x7168xf8E4M3FN>,
    %sa: memref<4x256x56xf32, strided<[14336, 1, 256]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %g: memref<4xi32>,
    %d: memref<4x256x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x256x7168xf8E4M3FN>,
          memref<4x256x56xf32, strided<[14336, 1, 256]>>,
          memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x256x4096xbf16>)
      {m_hint = 256 : i64,
       config = #dgemm.config<block_m = 128, block_n = 128, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 132>}
  return
}
