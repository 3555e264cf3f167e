// b-scale-copy: in kernels without b-scale-prefetch, 'warpgroup' has each
// consumer warpgroup copy the tile's B scales into a buffer of its own
// (buffer w at the B-scale offset) between two meetings of its own named
// barrier 9 + w (128 threads), instead of all consumers meeting at barriers 1
// and 2 ('shared'). 'auto' (the default) takes warpgroup for the contiguous
// layout only (measured faster there, not on the others). Both tile shapes of
// a masked kernel take it; a choice against auto shows in the kernel name
// (_bw: warpgroup, _bs: shared); a buffer per warpgroup costs its bytes of
// shared memory.
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=b-scale-copy=warpgroup | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=AUTO
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=b-scale-copy=shared | FileCheck %s --check-prefix=SHARED
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=b-scale-copy=own 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: b-scale-copy must be auto, shared or warpgroup, got 'own'

// A normal GEMM at block M 256 (two row waves: no prefetch). One buffer of 2
// x 16 floats (128 bytes) without the option, two with it.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128_bw(
// CHECK-SAME: dynamic_smem = 216368 : i64
// CHECK: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x
// CHECK: nvvm.setmaxregister increase
// CHECK: dgemm.schedule_tile
// CHECK-NOT: nvvm.barrier id = %c1_i32
// CHECK: arith.remui %[[TID]], %c128_i32
// CHECK: arith.muli %[[WG:[0-9]+]], %c128_i32
// CHECK: %[[OWN:.+]] = arith.addi %[[WG]], %c9_i32
// CHECK-NEXT: %[[N:.+]] = arith.constant 128 : i32
// CHECK-NEXT: nvvm.barrier id = %[[OWN]] number_of_threads = %[[N]]
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier id = %[[OWN]] number_of_threads =
// CHECK-NOT: nvvm.barrier id = %c2_i32
// CHECK: dgemm.wgmma_tile
// AUTO-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128(
// AUTO-SAME: dynamic_smem = 216240 : i64
// AUTO: nvvm.barrier id = %c2_i32
// SHARED-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128(
func.func @bm256(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

// -----

// The masked layout with two tile shapes: each body copies into its
// warpgroup's own buffer, and neither meets at barrier 1 or 2.
// CHECK-LABEL: llvm.func @dgemm_grouped_masked_g4_n512_k512_bm256_bn128_s3_g1_c16_bw_alt128x64s4c24(
// CHECK-NOT: nvvm.barrier id = %c{{[12]}}_i32
// CHECK: arith.addi %{{.+}}, %c9_i32
// CHECK-NOT: nvvm.barrier id = %c{{[12]}}_i32
// CHECK: arith.addi %{{.+}}, %c9_i32
// CHECK-NOT: nvvm.barrier id = %c{{[12]}}_i32
// CHECK: llvm.return
// AUTO-LABEL: llvm.func @dgemm_grouped_masked_g4_n512_k512_bm256_bn128_s3_g1_c16_alt128x64s4c24(
// AUTO: nvvm.barrier id = %c1_i32
// SHARED-LABEL: llvm.func @dgemm_grouped_masked_g4_n512_k512_bm256_bn128_s3_g1_c16_alt128x64s4c24(
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

// -----

// The contiguous layout: auto's choice is warpgroup (no suffix); shared
// against it is named _bs and meets at barrier 2 over both warpgroups.
// CHECK-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n512_k512_bm128_bn192_s4_g16_c8(
// CHECK: arith.addi %{{.+}}, %c9_i32
// CHECK-NOT: nvvm.barrier id = %c2_i32
// CHECK: llvm.return
// AUTO-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n512_k512_bm128_bn192_s4_g16_c8(
// AUTO: arith.addi %{{.+}}, %c9_i32
// AUTO-NOT: nvvm.barrier id = %c2_i32
// AUTO: llvm.return
// SHARED-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n512_k512_bm128_bn192_s4_g16_c8_bs(
// SHARED-NOT: %c9_i32
// SHARED: nvvm.barrier id = %c2_i32
func.func @contiguous(%a: memref<?x512xf8E4M3FN>, %sa: memref<?x4xf32, strided<[1, ?]>>,
    %b: memref<4x512x512xf8E4M3FN>, %sb: memref<4x4x4xf32>, %idx: memref<?xi32>,
    %d: memref<?x512xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x512xf8E4M3FN>,
      memref<?x4xf32, strided<[1, ?]>>, memref<4x512x512xf8E4M3FN>, memref<4x4x4xf32>)
      groups(%idx : memref<?xi32>) outs(%d : memref<?x512xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 8>}
  return
}

// -----

// One consumer warpgroup (block M 64, contiguous): its own barrier 9.
// AUTO-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n512_k512_bm64_bn128_s4_g4_c8(
// AUTO-NOT: nvvm.barrier id = %c2_i32
// AUTO: arith.addi %{{.+}}, %c9_i32
// AUTO-NOT: nvvm.barrier id = %c2_i32
// AUTO: llvm.return
func.func @contiguous_bm64(%a: memref<?x512xf8E4M3FN>, %sa: memref<?x4xf32, strided<[1, ?]>>,
    %b: memref<4x512x512xf8E4M3FN>, %sb: memref<4x4x4xf32>, %idx: memref<?xi32>,
    %d: memref<?x512xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x512xf8E4M3FN>,
      memref<?x4xf32, strided<[1, ?]>>, memref<4x512x512xf8E4M3FN>, memref<4x4x4xf32>)
      groups(%idx : memref<?xi32>) outs(%d : memref<?x512xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 4, num_sms = 8>}
  return
}
