// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=OFF
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=masked-walk=cost | FileCheck %s --check-prefix=WALK
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=masked-walk=sorted 2>&1 | FileCheck %s --check-prefix=BADWALK

// The masked layout's tile walks (masked-walk=cost is off by default).

// OFF-LABEL: llvm.func @dgemm_grouped_masked_g4_n7168_k2048_bm256_bn128_s3_g16_c112(
// OFF-SAME: {box = [128, 256, 1], dims = [2, 1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64
// OFF-NOT: _wc

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

// BADWALK: masked-walk must be groups or cost, got 'sorted'
func.func @masked_bm256(%a: memref<4x384x2048xf8E4M3FN>, %sa: memref<4x384x16xf32, strided<[6144, 1, 384]>>,
    %b: memref<4x7168x2048xf8E4M3FN>, %sb: memref<4x56x16xf32>, %g: memref<4xi32>, %d: memref<4x384x7168xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked> ins(%a, %sa, %b, %sb : memref<4x384x2048xf8E4M3FN>,
      memref<4x384x16xf32, strided<[6144, 1, 384]>>, memref<4x7168x2048xf8E4M3FN>, memref<4x56x16xf32>)
      groups(%g : memref<4xi32>) outs(%d : memref<4x384x7168xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 112>}
  return
}

// -----

// Block M 128 takes two K blocks per iteration by default (k-unroll=2),
// with either walk.
// OFF-LABEL: llvm.func @dgemm_grouped_masked_g4_n7168_k2048_bm128_bn128_s5_g16_c132(
// OFF: nvvm.setmaxregister increase 232
// OFF: scf.for {{.+}} step %c2_i32
// WALK-LABEL: llvm.func @dgemm_grouped_masked_g4_n7168_k2048_bm128_bn128_s5_g16_c132_wc(
// WALK: nvvm.setmaxregister increase 232
// WALK: scf.for {{.+}} step %c2_i32
func.func @masked_bm128(%a: memref<4x384x2048xf8E4M3FN>, %sa: memref<4x384x16xf32, strided<[6144, 1, 384]>>,
    %b: memref<4x7168x2048xf8E4M3FN>, %sb: memref<4x56x16xf32>, %g: memref<4xi32>, %d: memref<4x384x7168xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked> ins(%a, %sa, %b, %sb : memref<4x384x2048xf8E4M3FN>,
      memref<4x384x16xf32, strided<[6144, 1, 384]>>, memref<4x7168x2048xf8E4M3FN>, memref<4x56x16xf32>)
      groups(%g : memref<4xi32>) outs(%d : memref<4x384x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 5, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}
