// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=tile-order=m | FileCheck %s --check-prefix=M
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=AUTO
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=tile-order=k 2>&1 | FileCheck %s --check-prefix=BAD

// tile-order=m, contiguous with B multicast: the walk groups 8 units of
// two M blocks (16 M blocks, as swizzle_group says) and moves along M
// first; the name ends in _tm. Producer and consumers walk the same order.
// M-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr_tm(
// M-COUNT-2: dgemm.schedule_tile %{{.+}}, %{{.+}} {along_m, num_n_blocks = 22 : i32, swizzle_group = 8 : i32} : i32
// M-NOT: dgemm.schedule_tile %{{.+}}, %{{.+}} {num_n_blocks
// M: llvm.return
// auto (the default): groups of 16 N blocks, N first; no suffix.
// AUTO-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr(
// AUTO-NOT: along_m
// AUTO: dgemm.schedule_tile %{{.+}}, %{{.+}} {num_n_blocks = 22 : i32, swizzle_group = 16 : i32} : i32
// AUTO-NOT: along_m
// AUTO: llvm.return
// BAD: tile-order must be auto, n or m, got 'k'
func.func @contiguous_multicast_b(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mi: memref<?xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// A normal GEMM without a cluster: groups of 16 M blocks.
// M-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm256_bn128_s3_g16_c128_tm(
// M: dgemm.schedule_tile %{{.+}}, %{{.+}} {along_m, num_n_blocks = 56 : i32, swizzle_group = 16 : i32} : i32
// M: llvm.return
func.func @normal(%a: memref<4096x16384xf8E4M3FN>, %sa: memref<4096x128xf32, strided<[1, 4096]>>,
    %b: memref<7168x16384xf8E4M3FN>, %sb: memref<56x128xf32>, %d: memref<4096x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<4096x16384xf8E4M3FN>, memref<4096x128xf32, strided<[1, 4096]>>,
      memref<7168x16384xf8E4M3FN>, memref<56x128xf32>) outs(%d : memref<4096x7168xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

// -----

// A normal GEMM whose consumers load the next tile's B scales a tile ahead
// (b-scale-prefetch, auto at 128x192): that walk takes the same order as
// the tile loop's two (a fix: it kept the N-first order, and the kernel
// computed with the wrong scales).
// M-LABEL: llvm.func @dgemm_gemm_n2112_k7168_bm128_bn192_s4_g11_c118_tm(
// M-COUNT-3: dgemm.schedule_tile %{{.+}}, %{{.+}} {along_m, num_n_blocks = 11 : i32, swizzle_group = 11 : i32} : i32
// M-NOT: dgemm.schedule_tile
// M: llvm.return
func.func @normal_prefetch(%a: memref<4096x7168xf8E4M3FN>, %sa: memref<4096x56xf32, strided<[1, 4096]>>,
    %b: memref<2112x7168xf8E4M3FN>, %sb: memref<17x56xf32>, %d: memref<4096x2112xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<4096x7168xf8E4M3FN>, memref<4096x56xf32, strided<[1, 4096]>>,
      memref<2112x7168xf8E4M3FN>, memref<17x56xf32>) outs(%d : memref<4096x2112xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 11, num_sms = 118>}
  return
}

// -----

// The masked layout walks its groups; the option does not apply there.
// M-LABEL: llvm.func @dgemm_grouped_masked_g4_n4096_k7168_bm128_bn128_s4
// M-NOT: _tm(
// M-NOT: along_m
// M: llvm.return
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
                              math_warpgroups = 2, swizzle_group = 4,
                              num_sms = 132>}
  return
}
