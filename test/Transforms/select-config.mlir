// RUN: dgemm-opt %s -split-input-file --dgemm-select-config | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-select-config="default-m-hint=64" | FileCheck %s --check-prefix=SMALLM
// The pass allows what the runtime allows unless told otherwise: multicast
// from 8192 rows at K >= 2048 (the MCAST prefix: the config space's own rule, from 512
// rows at any K).
// RUN: dgemm-opt %s -split-input-file --dgemm-select-config="multicast=true multicast-min-rows=0 multicast-min-k=0" | FileCheck %s --check-prefix=MCAST

// M=256, N=7168: block N 112 makes 128 tiles (one wave on 132 SMs) where 128
// would make 112. One wave: the two M blocks of a B tile run at the same
// time, so B streams through L2 (stream_b).
// CHECK-LABEL: func.func @gemm_m256_n7168_k7168_e4m3
// CHECK: dgemm.gemm
// CHECK-SAME: config = #dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 1, num_sms = 128, stream_b = true>
func.func @gemm_m256_n7168_k7168_e4m3(%a: memref<256x7168xf8E4M3FN>, %sa: memref<256x56xf32, strided<[1, 256]>>,
    %b: memref<7168x7168xf8E4M3FN>, %sb: memref<56x56xf32>, %d: memref<256x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<256x7168xf8E4M3FN>, memref<256x56xf32, strided<[1, 256]>>,
      memref<7168x7168xf8E4M3FN>, memref<56x56xf32>) outs(%d : memref<256x7168xbf16>)
  return
}

// -----

// A config already on the op (a user's or a tuning record's) is kept.
// CHECK-LABEL: func.func @gemm_kept_config
// CHECK: config = #dgemm.config<block_m = 64, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 4, num_sms = 100>
func.func @gemm_kept_config(%a: memref<256x7168xf8E4M3FN>, %sa: memref<256x56xf32, strided<[1, 256]>>,
    %b: memref<7168x7168xf8E4M3FN>, %sb: memref<56x56xf32>, %d: memref<256x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<256x7168xf8E4M3FN>, memref<256x56xf32, strided<[1, 256]>>,
      memref<7168x7168xf8E4M3FN>, memref<56x56xf32>) outs(%d : memref<256x7168xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 4, num_sms = 100>}
  return
}

// -----

// The module's target has 66 SMs and less shared memory: fewer SMs, fewer
// stages than on the default target.
// CHECK-LABEL: func.func @gemm_module_target
// CHECK: config = #dgemm.config<block_m = 128, block_n = 112, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 64>
module attributes {dgemm.target = #dgemm.target<"sm_90a", sms = 66, smem = 131072>} {
func.func @gemm_module_target(%a: memref<256x7168xf8E4M3FN>, %sa: memref<256x56xf32, strided<[1, 256]>>,
    %b: memref<7168x7168xf8E4M3FN>, %sb: memref<56x56xf32>, %d: memref<256x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<256x7168xf8E4M3FN>, memref<256x56xf32, strided<[1, 256]>>,
      memref<7168x7168xf8E4M3FN>, memref<56x56xf32>) outs(%d : memref<256x7168xbf16>)
  return
}
}

// -----

// The op's own target wins over the module's. With M = 64 (one M block)
// every B tile serves one tile: stream_b (B's loads evict_first in L2).
// Configs with several waves and several M blocks (below) leave it out.
// CHECK-LABEL: func.func @gemm_op_target
// CHECK: num_sms = 132, stream_b = true>
module attributes {dgemm.target = #dgemm.target<"sm_90a", sms = 66, smem = 131072>} {
func.func @gemm_op_target(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<2112x7168xf8E4M3FN>, %sb: memref<17x56xf32>, %d: memref<?x2112xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<2112x7168xf8E4M3FN>, memref<17x56xf32>) outs(%d : memref<?x2112xbf16>)
      {m_hint = 64 : i64, target = #dgemm.target<"sm_90a", sms = 132, smem = 232448>}
  return
}
}

// -----

// Dynamic M without m_hint: the pass option's M (4096 by default, 64 in the
// second run) decides. No cluster by default (as the runtime); with
// multicast allowed, A multicast over pairs of N blocks.
// CHECK-LABEL: func.func @gemm_dynamic_m_no_hint
// CHECK: block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none,
// MCAST-LABEL: func.func @gemm_dynamic_m_no_hint
// MCAST: block_m = 256, block_n = 128, stages = 3, cluster = 2, multicast = a,
// SMALLM-LABEL: func.func @gemm_dynamic_m_no_hint
// SMALLM: block_m = 64, block_n = 32, stages = 8, cluster = 1, multicast = none
func.func @gemm_dynamic_m_no_hint(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<?x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<?x4096xbf16>)
  return
}

// -----

// The k-grouped weight-gradient GEMM: f32 output, per-row B scales, no multicast.
// CHECK-LABEL: func.func @k_grouped_g4_m4096_n7168
// CHECK: dgemm.k_grouped_gemm
// CHECK-SAME: multicast = none
func.func @k_grouped_g4_m4096_n7168(%a: memref<?xf8E4M3FN>, %sa: memref<?x4096xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x7168xf32>, %ks: memref<4xi32>, %d: memref<4x4096x7168xf32>) {
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>, memref<?x4096xf32>, memref<?xf8E4M3FN>, memref<?x7168xf32>)
      ks(%ks : memref<4xi32>) outs(%d : memref<4x4096x7168xf32>) {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// Grouped GEMMs take K from A, whose K the verifier requires static; B's K
// may be dynamic. Found by fuzz/gen_gemm_ops.py: K was read from B, so a
// dynamic one made the problem's K -2^63 and no config could be chosen (nor
// an attached one verified).
// CHECK-LABEL: func.func @masked_b_k_dynamic
// CHECK: dgemm.grouped_gemm
// CHECK-SAME: config = #dgemm.config<block_m = 256, block_n = 96, stages = 3,
// CHECK-LABEL: func.func @contiguous_b_k_dynamic_config
// CHECK: config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 1, num_sms = 132>
func.func @masked_b_k_dynamic(%a: memref<32x1024x128xf8E4M3FN>, %sa: memref<32x1024x1xf32, strided<[?, 1, ?]>>,
    %b: memref<32x96x?xf8E4M3FN>, %sb: memref<32x1x1xf32>, %g: memref<32xi32>, %d: memref<32x1024x96xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked> ins(%a, %sa, %b, %sb : memref<32x1024x128xf8E4M3FN>,
      memref<32x1024x1xf32, strided<[?, 1, ?]>>, memref<32x96x?xf8E4M3FN>, memref<32x1x1xf32>)
      groups(%g : memref<32xi32>) outs(%d : memref<32x1024x96xbf16>) {m_hint = 4096 : i64}
  return
}
func.func @contiguous_b_k_dynamic_config(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x?xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mi: memref<?xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x?xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 1, num_sms = 132>}
  return
}

// -----

// A static M below one block: A's TMA box is cut to its rows rounded up to
// 8 (a_box_rows), which the default-m-hint run does not do for a dynamic M
// (a hint is no row count).
// CHECK-LABEL: func.func @gemm_m5_a_box_rows
// CHECK: a_box_rows = 8>
// SMALLM-LABEL: func.func @gemm_m5_a_box_rows
// SMALLM: a_box_rows = 8>
func.func @gemm_m5_a_box_rows(%a: memref<5x7168xf8E4M3FN>, %sa: memref<5x56xf32, strided<[1, 8]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<5x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<5x7168xf8E4M3FN>, memref<5x56xf32, strided<[1, 8]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<5x4096xbf16>)
  return
}

// -----

// The same at block M 128 (two consumers): 81 rows take a box of 88; 121
// rows round up to a whole block, so the box stays whole.
// CHECK-LABEL: func.func @gemm_m81_bm128_a_box_rows
// CHECK: block_m = 128, {{.*}}, a_box_rows = 88>
func.func @gemm_m81_bm128_a_box_rows(%a: memref<81x1024xf8E4M3FN>, %sa: memref<81x8xf32, strided<[1, 84]>>,
    %b: memref<13312x1024xf8E4M3FN>, %sb: memref<104x8xf32>, %d: memref<81x13312xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<81x1024xf8E4M3FN>, memref<81x8xf32, strided<[1, 84]>>,
      memref<13312x1024xf8E4M3FN>, memref<104x8xf32>) outs(%d : memref<81x13312xbf16>)
  return
}

// -----

// CHECK-LABEL: func.func @gemm_m121_bm128_whole_box
// CHECK: block_m = 128,
// CHECK-NOT: a_box_rows
// CHECK: return
func.func @gemm_m121_bm128_whole_box(%a: memref<121x1024xf8E4M3FN>, %sa: memref<121x8xf32, strided<[1, 124]>>,
    %b: memref<13312x1024xf8E4M3FN>, %sb: memref<104x8xf32>, %d: memref<121x13312xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<121x1024xf8E4M3FN>, memref<121x8xf32, strided<[1, 124]>>,
      memref<13312x1024xf8E4M3FN>, memref<104x8xf32>) outs(%d : memref<121x13312xbf16>)
  return
}

// -----

// A dynamic M with a small hint: the box stays whole (the hint is not the
// row count of every call).
// CHECK-LABEL: func.func @gemm_dynamic_m_hint4
// CHECK-NOT: a_box_rows
// CHECK: return
func.func @gemm_dynamic_m_hint4(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<?x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<?x4096xbf16>) {m_hint = 4 : i64}
  return
}
