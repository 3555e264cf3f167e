// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=OFF
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=masked-walk=cost | FileCheck %s --check-prefix=WALK
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=empty-row-waves=skip | FileCheck %s --check-prefix=SKIP
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=masked-walk=sorted 2>&1 | FileCheck %s --check-prefix=BADWALK
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=empty-row-waves=maybe 2>&1 | FileCheck %s --check-prefix=BADSKIP

// The masked layout's tile walks and row-wave skipping (off by default).

// OFF-LABEL: llvm.func @dgemm_grouped_masked_g4_n7168_k2048_bm256_bn128_s3_g16_c112(
// OFF-SAME: {box = [128, 256, 1], dims = [2, 1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64
// OFF-NOT: _wc
// OFF-NOT: _sk

// masked-walk=cost: the walk starts at class 4 (block M 256: four 64-row
// waves) and the CTA's odd rounds count from the far end: t = i * P +
// (odd ? P - 1 - c : c).
// WALK-LABEL: llvm.func @dgemm_grouped_masked_g4_n7168_k2048_bm256_bn128_s3_g16_c112_wc(
// WALK: nvvm.setmaxregister decrease 40
// WALK: scf.while (%[[I:[a-z0-9_]+]] = %c0_i32{{.*}}, %{{.+}} = %c4_i32{{.*}}, %{{.+}} = %c0_i32{{.*}}, %{{.+}} = %c0_i32{{.*}}, %{{.+}} = %c0_i32{{.*}}) : (i32, i32, i32, i32, i32)
// WALK: %[[BIT:[a-z0-9_]+]] = arith.andi %[[I]], %c1_i32
// WALK: %[[ODD:[a-z0-9_]+]] = arith.cmpi eq, %[[BIT]]
// WALK: %[[LAST:[a-z0-9_]+]] = arith.subi %[[P:[a-z0-9_]+]], %c1_i32
// WALK: %[[BACK:[a-z0-9_]+]] = arith.subi %[[LAST]], %[[C:[a-z0-9_]+]] : i32
// WALK: %[[ROUND:[a-z0-9_]+]] = arith.muli %[[I]], %[[P]] : i32
// WALK: %[[START:[a-z0-9_]+]] = arith.select %[[ODD]], %[[BACK]], %[[C]] : i32
// WALK: arith.addi %[[ROUND]], %[[START]] : i32
// The consumers walk the same way.
// WALK: nvvm.setmaxregister increase 232
// WALK: scf.while (%{{.+}} = %c0_i32{{.*}}, %{{.+}} = %c4_i32{{.*}},

// empty-row-waves=skip: A arrives in 64-row slices (box 64 rows), the
// first always, slice j only where the tile has more than 64 j rows below
// masked_m, and the stage expects those bytes.
// SKIP-LABEL: llvm.func @dgemm_grouped_masked_g4_n7168_k2048_bm256_bn128_s3_g16_c112_sk(
// SKIP-SAME: {box = [128, 64, 1], dims = [2, 1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64
// SKIP: nvvm.setmaxregister decrease 40
// SKIP: %[[SLICES:[a-z0-9_]+]] = arith.minui %{{.+}}, %c4_i32
// SKIP: %[[MISSING:[a-z0-9_]+]] = arith.subi %c4_i32{{.*}}, %[[SLICES]]
// SKIP: %[[LESS:[a-z0-9_]+]] = arith.muli %[[MISSING]], %c8192_i32
// SKIP: %[[TX:[a-z0-9_]+]] = arith.subi %c{{[0-9]+}}_i32{{.*}}, %[[LESS]]
// SKIP: nvvm.mbarrier.arrive.expect_tx %{{.+}}, %[[TX]]
// SKIP: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg0,
// SKIP: %[[HAS1:[a-z0-9_]+]] = arith.cmpi ult, %c1_i32{{.*}}, %[[SLICES]]
// SKIP-NEXT: scf.if %[[HAS1]] {
// SKIP-NEXT: llvm.getelementptr %{{.+}}[8192]
// SKIP: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg0,
// SKIP: arith.cmpi ult, %c2_i32{{.*}}, %[[SLICES]]
// SKIP: arith.cmpi ult, %c3_i32{{.*}}, %[[SLICES]]
// Consumers: one K loop per count of the warpgroup's waves with rows (2, 1,
// 0), chosen per tile: wave 1 of warpgroup w has rows past 64 w + 128.
// SKIP: nvvm.setmaxregister increase 232
// SKIP: %[[W1:[a-z0-9_]+]] = arith.muli %{{.+}}, %c64_i32_{{[0-9]+}} : i32
// SKIP-NEXT: %c128_i32_{{[0-9]+}} = arith.constant 128 : i32
// SKIP-NEXT: %[[FROM1:[a-z0-9_]+]] = arith.addi %[[W1]], %c128_i32_{{[0-9]+}} : i32
// SKIP-NEXT: %[[TWO:[a-z0-9_]+]] = arith.cmpi sgt, %[[ROWS:[a-z0-9_]+]], %[[FROM1]] : i32
// SKIP-NEXT: scf.if %[[TWO]] -> (i32, !llvm.struct
// SKIP: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (i32, !llvm.struct
// SKIP: } else {
// SKIP-NEXT: %c64_i32_{{[0-9]+}} = arith.constant 64 : i32
// SKIP-NEXT: %[[W0:[a-z0-9_]+]] = arith.muli %{{.+}}, %c64_i32_{{[0-9]+}} : i32
// SKIP-NEXT: %c0_i32_{{[0-9]+}} = arith.constant 0 : i32
// SKIP-NEXT: %[[FROM0:[a-z0-9_]+]] = arith.addi %[[W0]], %c0_i32_{{[0-9]+}} : i32
// SKIP-NEXT: %[[ONE:[a-z0-9_]+]] = arith.cmpi sgt, %[[ROWS]], %[[FROM0]] : i32
// SKIP-NEXT: scf.if %[[ONE]] -> (i32, !llvm.struct
// SKIP: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (i32, !llvm.struct
// SKIP: } else {
// Without waves: wait for each stage and release it.
// SKIP: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}) -> (i32)
// SKIP: nvvm.mbarrier.try_wait.parity
// SKIP-NOT: dgemm.wgmma_tile
// SKIP: nvvm.mbarrier.arrive %{{.+}} : !llvm.ptr<3>

// BADWALK: masked-walk must be groups or cost, got 'sorted'
// BADSKIP: empty-row-waves must be compute or skip, got 'maybe'
func.func @masked_bm256(%a: memref<4x384x2048xf8E4M3FN>, %sa: memref<4x384x16xf32, strided<[6144, 1, 384]>>,
    %b: memref<4x7168x2048xf8E4M3FN>, %sb: memref<4x56x16xf32>, %g: memref<4xi32>, %d: memref<4x384x7168xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked> ins(%a, %sa, %b, %sb : memref<4x384x2048xf8E4M3FN>,
      memref<4x384x16xf32, strided<[6144, 1, 384]>>, memref<4x7168x2048xf8E4M3FN>, memref<4x56x16xf32>)
      groups(%g : memref<4xi32>) outs(%d : memref<4x384x7168xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 112>}
  return
}

// -----

// Block M 128 takes two K blocks per iteration by default (k-unroll=2);
// skipping row waves takes one (with two the kernel hung on the H200).
// OFF-LABEL: llvm.func @dgemm_grouped_masked_g4_n7168_k2048_bm128_bn128_s5_g16_c132(
// OFF: nvvm.setmaxregister increase 232
// OFF: scf.for {{.+}} step %c2_i32
// SKIP-LABEL: llvm.func @dgemm_grouped_masked_g4_n7168_k2048_bm128_bn128_s5_g16_c132_sk(
// SKIP: nvvm.setmaxregister increase 232
// SKIP-NOT: step %c2_i32
// SKIP: llvm.return
func.func @masked_bm128(%a: memref<4x384x2048xf8E4M3FN>, %sa: memref<4x384x16xf32, strided<[6144, 1, 384]>>,
    %b: memref<4x7168x2048xf8E4M3FN>, %sb: memref<4x56x16xf32>, %g: memref<4xi32>, %d: memref<4x384x7168xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked> ins(%a, %sa, %b, %sb : memref<4x384x2048xf8E4M3FN>,
      memref<4x384x16xf32, strided<[6144, 1, 384]>>, memref<4x7168x2048xf8E4M3FN>, memref<4x56x16xf32>)
      groups(%g : memref<4xi32>) outs(%d : memref<4x384x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 5, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}
