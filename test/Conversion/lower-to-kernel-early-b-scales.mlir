// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=early-b-scales=on | FileCheck %s --check-prefix=ON
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=AUTO
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=early-b-scales=maybe 2>&1 | FileCheck %s --check-prefix=BAD

// early-b-scales=on in the stage-unrolled loop (block N 192: two B scales a
// K block): the first K block's B scales are loaded before the round loop
// and ride in it after the sums (then the early full-wait answer); each of
// the 4 copies promotes with the two it was handed and yields the next K
// block's two, loaded after its stage's release at min(kb + 1, nk - 1);
// a skipped copy passes them on. The name ends in _eb.
// ON-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr_eb(
// ON: %[[B0:.+]] = llvm.load %{{.+}} : !llvm.ptr<3> -> f32
// ON: %[[B1:.+]] = llvm.load %{{.+}} : !llvm.ptr<3> -> f32
// ON: scf.for %{{.+}} iter_args(%[[SUM:[a-z0-9_]+]] = %{{.+}}, %[[C0:[a-z0-9_]+]] = %[[B0]], %[[C1:[a-z0-9_]+]] = %[[B1]], %{{.+}} = %false) -> ({{.+}}, f32, f32, i1)
// ON: dgemm.promote %[[SUM]], %{{.+}} scales(%{{.+}}, %{{.+}}, %[[C0]], %[[C1]])
// ON: scf.yield %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : {{.+}}, f32, f32, i1
// ON: scf.yield %[[SUM]], %[[C0]], %[[C1]], %false
// ON-COUNT-3: dgemm.promote %{{.+}} scales(%{{.+}}, %{{.+}}, %{{.+}}#1, %{{.+}}#2)
// ON-NOT: dgemm.promote
// ON: llvm.return
// auto (the default): each copy loads its own after its full-barrier wait.
// AUTO-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr(
// AUTO: scf.for %{{.+}} -> ({{.+}}, i1)
// AUTO-COUNT-4: dgemm.promote %{{.+}} scales(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}})
// AUTO-NOT: dgemm.promote
// AUTO: llvm.return
// BAD: early-b-scales must be auto, on or off, got 'maybe'
func.func @contiguous_multicast_b(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mi: memref<?xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// Block N 128 at 256 rows (one B scale a K block, two row waves): one
// value rides; the weight gradient's per-row B (not block-scaled) never
// takes the option.
// ON-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm256_bn128_s3_g16_c128_eb(
// ON: scf.for %{{.+}} -> ({{.+}}, f32, i1)
// ON: llvm.return
func.func @normal_bn128(%a: memref<4096x7168xf8E4M3FN>, %sa: memref<4096x56xf32, strided<[1, 4096]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<4096x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<4096x7168xf8E4M3FN>, memref<4096x56xf32, strided<[1, 4096]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<4096x4096xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}
