// RUN: dgemm-opt %s --dgemm-lower-to-kernel | FileCheck %s

// A masked config with a second tile shape (alt_block_m, ...): one kernel
// whose entry block reads masked_m (the 4 loads issued before any is used),
// sets up the first shape's ring in thread 0 while they are in flight
// (6 barriers, the fence, the 4 maps' prefetch), counts each shape's tiles
// (sum of ceil(rows / block M) times the N
// blocks), prices them as ceil(tiles / CTAs) rounds of the shape's tile
// (tileRoundCost: 98304 for 256x128, 45056 for 128x64) over the shape's own
// CTAs (min(grid, 16) and min(grid, 24)), and branches to the cheaper one;
// a CTA past its shape's count returns. The launch contract: the larger CTA
// count, the larger shared memory, and the second shape's maps of A, A's
// scales, B and D after the first's eight parameters.

// CHECK-LABEL: llvm.func @dgemm_grouped_masked_g4_n512_k512_bm256_bn128_s3_g1_c16_alt128x64s4c24(
// CHECK-SAME: block_m = 256 : i64, block_n = 128 : i64
// CHECK-SAME: max_ctas = 24 : i64
// CHECK-SAME: {kind = "ptr", operand = 5 : i64}, {box = [128, 128, 1], dims = [2, 1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64, swizzle = 128 : i64}, {box = [128, 1, 1], dims = [1, 2, 0], dtype = "f32", kind = "tensor_map", operand = 1 : i64, swizzle = 0 : i64}, {box = [128, 64, 1], dims = [2, 1, 0], dtype = "u8", kind = "tensor_map", operand = 2 : i64, swizzle = 128 : i64}, {box = [64, 128, 1], dims = [2, 1, 0], dtype = "bf16", kind = "tensor_map", operand = 5 : i64, swizzle = 128 : i64}]
// CHECK-COUNT-4: llvm.load %{{.+}} : !llvm.ptr<1> -> i32
// CHECK-NOT:     llvm.load
// CHECK-COUNT-6: nvvm.mbarrier.init
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-COUNT-4: nvvm.prefetch tensormap
// CHECK-NOT:     llvm.load
// CHECK:         %[[GRID:.+]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK:         %[[CTAS0:.+]] = arith.minui %[[GRID]], %c16_i32
// CHECK:         %[[COST0:.+]] = arith.muli %{{.+}}, %c98304_i64 : i64
// CHECK:         %[[CTAS1:.+]] = arith.minui %[[GRID]], %c24_i32
// CHECK:         %[[COST1:.+]] = arith.muli %{{.+}}, %c45056_i64 : i64
// CHECK:         %[[ALT:.+]] = arith.cmpi ult, %[[COST1]], %[[COST0]] : i64
// CHECK:         llvm.cond_br %[[ALT]], ^[[ALTCHECK:bb[0-9]+]], ^[[MAINCHECK:bb[0-9]+]]
// CHECK:       ^[[MAINCHECK]]:
// CHECK:         %[[ID0:.+]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK:         %[[IN0:.+]] = arith.cmpi ult, %[[ID0]], %[[CTAS0]] : i32
// CHECK:         llvm.cond_br %[[IN0]], ^[[MAIN:bb[0-9]+]], ^[[IDLE:bb[0-9]+]]
// CHECK:       ^[[ALTCHECK]]:
// CHECK:         %[[ID1:.+]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK:         %[[IN1:.+]] = arith.cmpi ult, %[[ID1]], %[[CTAS1]] : i32
// CHECK:         llvm.cond_br %[[IN1]], ^[[ALTBODY:bb[0-9]+]], ^[[IDLE]]
// The first shape's body: 256x128 tiles, masked_m stored to shared memory
// from the entry block's loads (thread g stores group g's), no global read.
// Each body's tile walk steps by its shape's CTA count.
// CHECK:       ^[[MAIN]]:
// CHECK-NOT:     llvm.load %{{.+}} : !llvm.ptr<1> -> i32
// CHECK-NOT:     nvvm.mbarrier.init
// CHECK:         nvvm.barrier0
// CHECK:         arith.addi %{{.+}}, %[[CTAS0]] : i32
// CHECK:         dgemm.wgmma_tile %{{.+}}, %{{.+}} {n = 128 : i32}
// CHECK:         llvm.return
// The first body does not set up its ring again; the second invalidates the
// first shape's 6 barriers and sets up its own 8, and every thread waits for
// that before the group counts are stored. The second shape's: 128x64 tiles.
// CHECK:       ^[[ALTBODY]]:
// CHECK-COUNT-6: nvvm.mbarrier.inval
// CHECK-COUNT-8: nvvm.mbarrier.init
// CHECK:         nvvm.barrier0
// CHECK:         llvm.store
// CHECK:         nvvm.barrier0
// CHECK:         arith.addi %{{.+}}, %[[CTAS1]] : i32
// CHECK-NOT:     dgemm.wgmma_tile %{{.+}}, %{{.+}} {n = 128 : i32}
// CHECK:         dgemm.wgmma_tile %{{.+}}, %{{.+}} {n = 64 : i32}
// CHECK:         llvm.return
// CHECK:       ^[[IDLE]]:
// CHECK-NEXT:    llvm.return
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

// More than 8 groups: the entry block sets up the first shape's ring, then
// reads masked_m in chunks of 8 (a loop), then branches; each body copies
// masked_m to shared memory itself.
// CHECK-LABEL: llvm.func @dgemm_grouped_masked_g12_n512_k512_bm256_bn128_s3_g1_c16_alt128x64s4c24(
// CHECK-COUNT-6: nvvm.mbarrier.init
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         scf.for
// CHECK-COUNT-8:   llvm.load %{{.+}} : !llvm.ptr<1> -> i32
// CHECK:         llvm.cond_br
func.func @masked_alt_12_groups(%a: memref<12x320x512xf8E4M3FN>,
    %sa: memref<12x320x4xf32, strided<[1280, 1, 320]>>,
    %b: memref<12x512x512xf8E4M3FN>, %sb: memref<12x4x4xf32>,
    %g: memref<12xi32>, %d: memref<12x320x512xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<12x320x512xf8E4M3FN>,
          memref<12x320x4xf32, strided<[1280, 1, 320]>>,
          memref<12x512x512xf8E4M3FN>, memref<12x4x4xf32>)
      groups(%g : memref<12xi32>)
      outs(%d : memref<12x320x512xbf16>)
      {m_hint = 256 : i64,
       config = #dgemm.config<block_m = 256, block_n = 128, stages = 3,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 16, alt_block_m = 128, alt_block_n = 64,
                              alt_stages = 4, alt_num_sms = 24>}
  return
}

// stream_b: the second shape streams B as the first does (a group's M blocks
// are neighbours in the walk, so the tiles sharing a B tile run at about the
// same time): each body makes the evict_first policy and its own B map's
// loads (parameter 2, then 10) carry it.
// CHECK-LABEL: llvm.func @dgemm_grouped_masked_g4_n512_k512_bm256_bn128_s3_g1_c16_hbf_alt128x64s4c24(
// CHECK:         llvm.cond_br
// CHECK:         %[[H0:.+]] = llvm.inline_asm "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l"
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg2, %{{.+}}, box[%{{.+}}, %{{.+}}, %{{.+}}] l2_cache_hint = %[[H0]]
// CHECK:         dgemm.wgmma_tile %{{.+}}, %{{.+}} {n = 128 : i32}
// CHECK:         %[[H1:.+]] = llvm.inline_asm "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l"
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg10, %{{.+}}, box[%{{.+}}, %{{.+}}, %{{.+}}] l2_cache_hint = %[[H1]]
// CHECK:         dgemm.wgmma_tile %{{.+}}, %{{.+}} {n = 64 : i32}
func.func @masked_alt_stream_b(%a: memref<4x320x512xf8E4M3FN>,
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
                              num_sms = 16, stream_b = true,
                              alt_block_m = 128, alt_block_n = 64,
                              alt_stages = 4, alt_num_sms = 24>}
  return
}
