// staging-store: 'stmatrix' has the bf16 epilogue write the staging tile
// with stmatrix (the epilogue op's `stmatrix`; the kernel name ends in _sx);
// f32 outputs keep their stores. 'auto' (the default) and 'shared' keep the
// 4-byte shared stores.
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=staging-store=stmatrix | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=AUTO
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=staging-store=shared | FileCheck %s --check-prefix=AUTO
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=staging-store=stmatrix --convert-dgemm-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=staging-store=ldmatrix 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: staging-store must be auto, stmatrix or shared, got 'ldmatrix'

// 128x192, two consumers (swizzled staging, per-warpgroup epilogue): 12
// stmatrix.x4 per thread per tile.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn192_s4_g16_c132_sx(
// CHECK: dgemm.epilogue_store
// CHECK-SAME: per_warpgroup, stmatrix, swizzle = 128 : i32
// AUTO-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn192_s4_g16_c132(
// AUTO: dgemm.epilogue_store
// AUTO-NOT: stmatrix
// AUTO: llvm.return
// NVVM-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn192_s4_g16_c132_sx(
// NVVM-COUNT-12: nvvm.stmatrix {{.+}} : !llvm.ptr<3>, i32, i32, i32, i32
// NVVM-NOT: nvvm.stmatrix
// NVVM: llvm.return
func.func @bm128(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// Block M 256 (two row waves) takes it too (.x2 stores: dgemm-to-nvvm.mlir):
// 2 waves x 16 groups per thread per tile.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128_sx(
// CHECK: dgemm.epilogue_store
// CHECK-SAME: consumers = 2 : i32, stmatrix, swizzle = 128 : i32}
// CHECK: llvm.return
// AUTO-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128(
// NVVM-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128_sx(
// NVVM-COUNT-32: nvvm.stmatrix {{.+}} : !llvm.ptr<3>, i32, i32
// NVVM-NOT: nvvm.stmatrix
// NVVM: llvm.return
func.func @bm256(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

// -----

// An f32 output (the weight-gradient GEMM): stmatrix stores 16-bit elements,
// so the option leaves it as it is.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn128_s4_g16_c131_sb1x128_f32_acc(
// CHECK: dgemm.epilogue_store
// CHECK-SAME: consumers = 2 : i32, f32, reduce_add, swizzle = 128 : i32}
// CHECK: llvm.return
// AUTO-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn128_s4_g16_c131_sb1x128_f32_acc(
func.func @wgrad(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<7168x16xf32, strided<[1, ?]>>, %d: memref<?x7168xf32>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<7168x16xf32, strided<[1, ?]>>) acc(%d : memref<?x7168xf32>) outs(%d : memref<?x7168xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>,
       config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}

// -----

// The masked layout with two tile shapes: both take it. Both store through
// the staging tile with `rows` (a tile crossing masked_m is copied out of it
// by the threads).
// CHECK-LABEL: llvm.func @dgemm_grouped_masked_g4_n512_k512_bm256_bn128_s3_g1_c16_sx_alt128x64s4c24(
// CHECK: dgemm.epilogue_store
// CHECK-SAME: rows
// CHECK-SAME: block_m = 256 : i32
// CHECK-SAME: ld = 512 : i32, stmatrix, swizzle = 128 : i32
// CHECK: dgemm.epilogue_store
// CHECK-SAME: rows
// CHECK-SAME: block_m = 128 : i32
// CHECK-SAME: ld = 512 : i32, stmatrix, swizzle = 128 : i32
// AUTO-LABEL: llvm.func @dgemm_grouped_masked_g4_n512_k512_bm256_bn128_s3_g1_c16_alt128x64s4c24(
// AUTO-NOT: stmatrix
// AUTO: llvm.return
func.func @masked_alt(%a: memref<4x320x512xf8E4M3FN>,
    %sa: memref<4x320x4xf32, strided<[1280, 1, 320]>>,
    %b: memref<4x512x512xf8E4M3FN>, %sb: memref<4x4x4xf32>, %g: memref<4xi32>,
    %d: memref<4x320x512xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x320x512xf8E4M3FN>,
          memref<4x320x4xf32, strided<[1280, 1, 320]>>,
          memref<4x512x512xf8E4M3FN>, memref<4x4x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x320x512xbf16>)
      {m_hint = 256 : i64,
       config = #dgemm.config<block_m = 256, block_n = 128, stages = 3,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 16, alt_block_m = 128, alt_block_n = 64,
                              alt_stages = 4, alt_num_sms = 24>}
  return
}
