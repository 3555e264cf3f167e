// RUN: dgemm-opt %s | dgemm-opt | FileCheck %s
// RUN: dgemm-opt %s --mlir-print-op-generic | dgemm-opt | FileCheck %s

// Round trip of dgemm.gemm, dgemm.grouped_gemm and dgemm.k_grouped_gemm in
// every form: custom syntax, and generic syntax parsed back. The default
// recipe (1x128 x 128x128) is elided when printed.

// Normal GEMM, static shapes, bf16 output, default recipe.
// CHECK-LABEL: func.func @gemm_m4096_n7168_k2048_e4m3(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<4096x2048xf8E4M3FN>, %[[SA:[a-z0-9]+]]: memref<4096x16xf32, strided<[1, 4096]>>,
// CHECK-SAME:    %[[B:[a-z0-9]+]]: memref<7168x2048xf8E4M3FN>, %[[SB:[a-z0-9]+]]: memref<56x16xf32>, %[[D:[a-z0-9]+]]: memref<4096x7168xbf16>)
// CHECK:         dgemm.gemm ins(%[[A]], %[[SA]], %[[B]], %[[SB]] : memref<4096x2048xf8E4M3FN>, memref<4096x16xf32, strided<[1, 4096]>>, memref<7168x2048xf8E4M3FN>, memref<56x16xf32>)
// CHECK-SAME:    outs(%[[D]] : memref<4096x7168xbf16>){{$}}
func.func @gemm_m4096_n7168_k2048_e4m3(
    %a: memref<4096x2048xf8E4M3FN>, %sa: memref<4096x16xf32, strided<[1, 4096]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>,
    %d: memref<4096x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<4096x2048xf8E4M3FN>,
                 memref<4096x16xf32, strided<[1, 4096]>>,
                 memref<7168x2048xf8E4M3FN>, memref<56x16xf32>)
             outs(%d : memref<4096x7168xbf16>)
  return
}

// The default recipe written out is the same op (and is elided when printed).
// CHECK-LABEL: func.func @gemm_m128_n7168_k2048_e4m3_explicit_recipe(
// CHECK:         dgemm.gemm ins(%{{.+}} : memref<128x2048xf8E4M3FN>, memref<128x16xf32, strided<[1, 128]>>, memref<7168x2048xf8E4M3FN>, memref<56x16xf32>)
// CHECK-SAME:    outs(%{{.+}} : memref<128x7168xbf16>){{$}}
func.func @gemm_m128_n7168_k2048_e4m3_explicit_recipe(
    %a: memref<128x2048xf8E4M3FN>, %sa: memref<128x16xf32, strided<[1, 128]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>,
    %d: memref<128x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x2048xf8E4M3FN>,
                 memref<128x16xf32, strided<[1, 128]>>,
                 memref<7168x2048xf8E4M3FN>, memref<56x16xf32>)
             outs(%d : memref<128x7168xbf16>)
             {recipe = #dgemm.recipe<a = 1x128, b = 128x128>}
  return
}

// Dynamic M with the rows the config is chosen for (m_hint).
// CHECK-LABEL: func.func @gemm_mdyn_n2112_k7168_e4m3_hint4096(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<?x7168xf8E4M3FN>, %[[SA:[a-z0-9]+]]: memref<?x56xf32, strided<[1, ?]>>,
// CHECK-SAME:    %[[B:[a-z0-9]+]]: memref<2112x7168xf8E4M3FN>, %[[SB:[a-z0-9]+]]: memref<17x56xf32>, %[[D:[a-z0-9]+]]: memref<?x2112xbf16>)
// CHECK:         dgemm.gemm ins(%[[A]], %[[SA]], %[[B]], %[[SB]] : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>, memref<2112x7168xf8E4M3FN>, memref<17x56xf32>)
// CHECK-SAME:    outs(%[[D]] : memref<?x2112xbf16>) {m_hint = 4096 : i64}{{$}}
func.func @gemm_mdyn_n2112_k7168_e4m3_hint4096(
    %a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<2112x7168xf8E4M3FN>, %sb: memref<17x56xf32>,
    %d: memref<?x2112xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
                 memref<?x56xf32, strided<[1, ?]>>,
                 memref<2112x7168xf8E4M3FN>, memref<17x56xf32>)
             outs(%d : memref<?x2112xbf16>) {m_hint = 4096 : i64}
  return
}

// Dynamic M without a hint (the config pass asks for one later).
// CHECK-LABEL: func.func @gemm_mdyn_n4096_k7168_e4m3_nohint(
// CHECK:         dgemm.gemm ins(%{{.+}} : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>, memref<4096x7168xf8E4M3FN>, memref<32x56xf32>)
// CHECK-SAME:    outs(%{{.+}} : memref<?x4096xbf16>){{$}}
func.func @gemm_mdyn_n4096_k7168_e4m3_nohint(
    %a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>,
    %d: memref<?x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
                 memref<?x56xf32, strided<[1, ?]>>,
                 memref<4096x7168xf8E4M3FN>, memref<32x56xf32>)
             outs(%d : memref<?x4096xbf16>)
  return
}

// f32 output without an accumulate input.
// CHECK-LABEL: func.func @gemm_m256_n7168_k2048_e4m3_f32(
// CHECK:         dgemm.gemm ins(%{{.+}} : memref<256x2048xf8E4M3FN>, memref<256x16xf32, strided<[1, 256]>>, memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%{{.+}} : memref<256x7168xf32>){{$}}
func.func @gemm_m256_n7168_k2048_e4m3_f32(
    %a: memref<256x2048xf8E4M3FN>, %sa: memref<256x16xf32, strided<[1, 256]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>,
    %d: memref<256x7168xf32>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<256x2048xf8E4M3FN>,
                 memref<256x16xf32, strided<[1, 256]>>,
                 memref<7168x2048xf8E4M3FN>, memref<56x16xf32>)
             outs(%d : memref<256x7168xf32>)
  return
}

// f32 output with a separate accumulate input C: D = C + A * B^T.
// CHECK-LABEL: func.func @gemm_m4096_n7168_k2048_e4m3_f32_acc(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<4096x2048xf8E4M3FN>, %[[SA:[a-z0-9]+]]: memref<4096x16xf32, strided<[1, 4096]>>,
// CHECK-SAME:    %[[B:[a-z0-9]+]]: memref<7168x2048xf8E4M3FN>, %[[SB:[a-z0-9]+]]: memref<56x16xf32>,
// CHECK-SAME:    %[[C:[a-z0-9]+]]: memref<4096x7168xf32>, %[[D:[a-z0-9]+]]: memref<4096x7168xf32>)
// CHECK:         dgemm.gemm ins(%[[A]], %[[SA]], %[[B]], %[[SB]] : memref<4096x2048xf8E4M3FN>, memref<4096x16xf32, strided<[1, 4096]>>, memref<7168x2048xf8E4M3FN>, memref<56x16xf32>)
// CHECK-SAME:    acc(%[[C]] : memref<4096x7168xf32>) outs(%[[D]] : memref<4096x7168xf32>){{$}}
func.func @gemm_m4096_n7168_k2048_e4m3_f32_acc(
    %a: memref<4096x2048xf8E4M3FN>, %sa: memref<4096x16xf32, strided<[1, 4096]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>,
    %c: memref<4096x7168xf32>, %d: memref<4096x7168xf32>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<4096x2048xf8E4M3FN>,
                 memref<4096x16xf32, strided<[1, 4096]>>,
                 memref<7168x2048xf8E4M3FN>, memref<56x16xf32>)
             acc(%c : memref<4096x7168xf32>)
             outs(%d : memref<4096x7168xf32>)
  return
}

// f8E5M2 A and B.
// CHECK-LABEL: func.func @gemm_m128_n4096_k7168_e5m2(
// CHECK:         dgemm.gemm ins(%{{.+}} : memref<128x7168xf8E5M2>, memref<128x56xf32, strided<[1, 128]>>, memref<4096x7168xf8E5M2>, memref<32x56xf32>)
// CHECK-SAME:    outs(%{{.+}} : memref<128x4096xbf16>){{$}}
func.func @gemm_m128_n4096_k7168_e5m2(
    %a: memref<128x7168xf8E5M2>, %sa: memref<128x56xf32, strided<[1, 128]>>,
    %b: memref<4096x7168xf8E5M2>, %sb: memref<32x56xf32>,
    %d: memref<128x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x7168xf8E5M2>,
                 memref<128x56xf32, strided<[1, 128]>>,
                 memref<4096x7168xf8E5M2>, memref<32x56xf32>)
             outs(%d : memref<128x4096xbf16>)
  return
}

// Mixed FP8 formats: f8E5M2 A (gradients) with f8E4M3FN B.
// CHECK-LABEL: func.func @gemm_m128_n4096_k7168_e5m2_e4m3(
// CHECK:         dgemm.gemm ins(%{{.+}} : memref<128x7168xf8E5M2>, memref<128x56xf32, strided<[1, 128]>>, memref<4096x7168xf8E4M3FN>, memref<32x56xf32>)
// CHECK-SAME:    outs(%{{.+}} : memref<128x4096xbf16>){{$}}
func.func @gemm_m128_n4096_k7168_e5m2_e4m3(
    %a: memref<128x7168xf8E5M2>, %sa: memref<128x56xf32, strided<[1, 128]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>,
    %d: memref<128x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x7168xf8E5M2>,
                 memref<128x56xf32, strided<[1, 128]>>,
                 memref<4096x7168xf8E4M3FN>, memref<32x56xf32>)
             outs(%d : memref<128x4096xbf16>)
  return
}

// Weight-gradient recipe: B scaled per row, B scales [N, ceil(K/128)]
// MN-major; accumulated in place (C is D).
// CHECK-LABEL: func.func @gemm_wgrad_m7168_n2048_k4096_e4m3_f32(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<7168x4096xf8E4M3FN>, %[[SA:[a-z0-9]+]]: memref<7168x32xf32, strided<[1, 7168]>>,
// CHECK-SAME:    %[[B:[a-z0-9]+]]: memref<2048x4096xf8E4M3FN>, %[[SB:[a-z0-9]+]]: memref<2048x32xf32, strided<[1, ?]>>, %[[D:[a-z0-9]+]]: memref<7168x2048xf32>)
// CHECK:         dgemm.gemm ins(%[[A]], %[[SA]], %[[B]], %[[SB]] : memref<7168x4096xf8E4M3FN>, memref<7168x32xf32, strided<[1, 7168]>>, memref<2048x4096xf8E4M3FN>, memref<2048x32xf32, strided<[1, ?]>>)
// CHECK-SAME:    acc(%[[D]] : memref<7168x2048xf32>) outs(%[[D]] : memref<7168x2048xf32>)
// CHECK-SAME:    {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}{{$}}
func.func @gemm_wgrad_m7168_n2048_k4096_e4m3_f32(
    %a: memref<7168x4096xf8E4M3FN>, %sa: memref<7168x32xf32, strided<[1, 7168]>>,
    %b: memref<2048x4096xf8E4M3FN>, %sb: memref<2048x32xf32, strided<[1, ?]>>,
    %d: memref<7168x2048xf32>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<7168x4096xf8E4M3FN>,
                 memref<7168x32xf32, strided<[1, 7168]>>,
                 memref<2048x4096xf8E4M3FN>,
                 memref<2048x32xf32, strided<[1, ?]>>)
             acc(%d : memref<7168x2048xf32>)
             outs(%d : memref<7168x2048xf32>)
             {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// A kernel config and a target on the op (114-SM part, 2-CTA multicast of B).
// CHECK-LABEL: func.func @gemm_m4096_n7168_k2048_e4m3_config(
// CHECK:         dgemm.gemm ins(%{{.+}} : memref<4096x2048xf8E4M3FN>, memref<4096x16xf32, strided<[1, 4096]>>, memref<7168x2048xf8E4M3FN>, memref<56x16xf32>)
// CHECK-SAME:    outs(%{{.+}} : memref<4096x7168xbf16>)
// CHECK-SAME:    {config = #dgemm.config<block_m = 128, block_n = 160, stages = 5, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 114>,
// CHECK-SAME:    target = #dgemm.target<"sm_90a", sms = 114, smem = 232448>}{{$}}
func.func @gemm_m4096_n7168_k2048_e4m3_config(
    %a: memref<4096x2048xf8E4M3FN>, %sa: memref<4096x16xf32, strided<[1, 4096]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>,
    %d: memref<4096x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<4096x2048xf8E4M3FN>,
                 memref<4096x16xf32, strided<[1, 4096]>>,
                 memref<7168x2048xf8E4M3FN>, memref<56x16xf32>)
             outs(%d : memref<4096x7168xbf16>)
             {target = #dgemm.target<"sm_90a", sms = 114, smem = 232448>,
              config = #dgemm.config<block_m = 128, block_n = 160, stages = 5,
                                     cluster = 2, multicast = b,
                                     math_warpgroups = 2, swizzle_group = 16,
                                     num_sms = 114>}
  return
}

// m_hint, config and the wgrad recipe together (attributes print sorted).
// CHECK-LABEL: func.func @gemm_wgrad_mdyn_n2048_k7168_e4m3_f32_config(
// CHECK:         dgemm.gemm ins(%{{.+}} : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>, memref<2048x7168xf8E4M3FN>, memref<2048x56xf32, strided<[1, 2048]>>)
// CHECK-SAME:    outs(%{{.+}} : memref<?x2048xf32>)
// CHECK-SAME:    {config = #dgemm.config<block_m = 64, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 16>,
// CHECK-SAME:    m_hint = 64 : i64, recipe = #dgemm.recipe<a = 1x128, b = 1x128>}{{$}}
func.func @gemm_wgrad_mdyn_n2048_k7168_e4m3_f32_config(
    %a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<2048x7168xf8E4M3FN>, %sb: memref<2048x56xf32, strided<[1, 2048]>>,
    %d: memref<?x2048xf32>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
                 memref<?x56xf32, strided<[1, ?]>>,
                 memref<2048x7168xf8E4M3FN>,
                 memref<2048x56xf32, strided<[1, 2048]>>)
             outs(%d : memref<?x2048xf32>)
             {recipe = #dgemm.recipe<a = 1x128, b = 1x128>, m_hint = 64 : i64,
              config = #dgemm.config<block_m = 64, block_n = 128, stages = 4,
                                     cluster = 1, multicast = none,
                                     math_warpgroups = 1, swizzle_group = 1,
                                     num_sms = 16>}
  return
}

// Contiguous m-grouped GEMM: A [M_sum, K], B [G, N, K], m_indices[M_sum].
// CHECK-LABEL: func.func @grouped_contiguous_g4_mdyn_n4096_k7168_e4m3(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<?x7168xf8E4M3FN>, %[[SA:[a-z0-9]+]]: memref<?x56xf32, strided<[1, ?]>>,
// CHECK-SAME:    %[[B:[a-z0-9]+]]: memref<4x4096x7168xf8E4M3FN>, %[[SB:[a-z0-9]+]]: memref<4x32x56xf32>,
// CHECK-SAME:    %[[MI:[a-z0-9]+]]: memref<?xi32>, %[[D:[a-z0-9]+]]: memref<?x4096xbf16>)
// CHECK:         dgemm.grouped_gemm <contiguous>
// CHECK-SAME:    ins(%[[A]], %[[SA]], %[[B]], %[[SB]] : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
// CHECK-SAME:    groups(%[[MI]] : memref<?xi32>) outs(%[[D]] : memref<?x4096xbf16>) {m_hint = 8192 : i64}{{$}}
func.func @grouped_contiguous_g4_mdyn_n4096_k7168_e4m3(
    %a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>,
    %m_indices: memref<?xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
          memref<?x56xf32, strided<[1, ?]>>,
          memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%m_indices : memref<?xi32>)
      outs(%d : memref<?x4096xbf16>) {m_hint = 8192 : i64}
  return
}

// Contiguous, static M_sum, with a config (2-CTA multicast of A).
// CHECK-LABEL: func.func @grouped_contiguous_g4_m8192_n4096_k7168_e4m3_config(
// CHECK:         dgemm.grouped_gemm <contiguous>
// CHECK-SAME:    ins(%{{.+}} : memref<8192x7168xf8E4M3FN>, memref<8192x56xf32, strided<[1, 8192]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
// CHECK-SAME:    groups(%{{.+}} : memref<8192xi32>) outs(%{{.+}} : memref<8192x4096xbf16>)
// CHECK-SAME:    {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, multicast = a, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}{{$}}
func.func @grouped_contiguous_g4_m8192_n4096_k7168_e4m3_config(
    %a: memref<8192x7168xf8E4M3FN>, %sa: memref<8192x56xf32, strided<[1, 8192]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>,
    %m_indices: memref<8192xi32>, %d: memref<8192x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<8192x7168xf8E4M3FN>,
          memref<8192x56xf32, strided<[1, 8192]>>,
          memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%m_indices : memref<8192xi32>)
      outs(%d : memref<8192x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4,
                              cluster = 2, multicast = a, math_warpgroups = 2,
                              swizzle_group = 16, num_sms = 128>}
  return
}

// Masked m-grouped GEMM: A [G, M_max, K], masked_m[G], expected rows m_hint.
// CHECK-LABEL: func.func @grouped_masked_g4_m256_n4096_k7168_e4m3(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<4x256x7168xf8E4M3FN>, %[[SA:[a-z0-9]+]]: memref<4x256x56xf32, strided<[14336, 1, 256]>>,
// CHECK-SAME:    %[[B:[a-z0-9]+]]: memref<4x4096x7168xf8E4M3FN>, %[[SB:[a-z0-9]+]]: memref<4x32x56xf32>,
// CHECK-SAME:    %[[MM:[a-z0-9]+]]: memref<4xi32>, %[[D:[a-z0-9]+]]: memref<4x256x4096xbf16>)
// CHECK:         dgemm.grouped_gemm <masked>
// CHECK-SAME:    ins(%[[A]], %[[SA]], %[[B]], %[[SB]] : memref<4x256x7168xf8E4M3FN>, memref<4x256x56xf32, strided<[14336, 1, 256]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
// CHECK-SAME:    groups(%[[MM]] : memref<4xi32>) outs(%[[D]] : memref<4x256x4096xbf16>) {m_hint = 64 : i64}{{$}}
func.func @grouped_masked_g4_m256_n4096_k7168_e4m3(
    %a: memref<4x256x7168xf8E4M3FN>,
    %sa: memref<4x256x56xf32, strided<[14336, 1, 256]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>,
    %masked_m: memref<4xi32>, %d: memref<4x256x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x256x7168xf8E4M3FN>,
          memref<4x256x56xf32, strided<[14336, 1, 256]>>,
          memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%masked_m : memref<4xi32>)
      outs(%d : memref<4x256x4096xbf16>) {m_hint = 64 : i64}
  return
}

// k-grouped GEMM (MoE weight gradients): flat A and B, ks[G], D [G, M, N] f32.
// CHECK-LABEL: func.func @k_grouped_g4_m4096_n7168_e4m3(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<?xf8E4M3FN>, %[[SA:[a-z0-9]+]]: memref<?x4096xf32>,
// CHECK-SAME:    %[[B:[a-z0-9]+]]: memref<?xf8E4M3FN>, %[[SB:[a-z0-9]+]]: memref<?x7168xf32>,
// CHECK-SAME:    %[[KS:[a-z0-9]+]]: memref<4xi32>, %[[D:[a-z0-9]+]]: memref<4x4096x7168xf32>)
// CHECK:         dgemm.k_grouped_gemm
// CHECK-SAME:    ins(%[[A]], %[[SA]], %[[B]], %[[SB]] : memref<?xf8E4M3FN>, memref<?x4096xf32>, memref<?xf8E4M3FN>, memref<?x7168xf32>)
// CHECK-SAME:    ks(%[[KS]] : memref<4xi32>) outs(%[[D]] : memref<4x4096x7168xf32>)
// CHECK-SAME:    {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}{{$}}
func.func @k_grouped_g4_m4096_n7168_e4m3(
    %a: memref<?xf8E4M3FN>, %sa: memref<?x4096xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x7168xf32>,
    %ks: memref<4xi32>, %d: memref<4x4096x7168xf32>) {
  dgemm.k_grouped_gemm
      ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>, memref<?x4096xf32>,
          memref<?xf8E4M3FN>, memref<?x7168xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x4096x7168xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// k-grouped, static sizes (sum(k_g) = 4096 = 32 scale rows), e5m2 A, config.
// CHECK-LABEL: func.func @k_grouped_g4_m2048_n512_k4096_e5m2_config(
// CHECK:         dgemm.k_grouped_gemm
// CHECK-SAME:    ins(%{{.+}} : memref<8388608xf8E5M2>, memref<32x2048xf32>, memref<2097152xf8E4M3FN>, memref<32x512xf32>)
// CHECK-SAME:    ks(%{{.+}} : memref<4xi32>) outs(%{{.+}} : memref<4x2048x512xf32>)
// CHECK-SAME:    {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 4, num_sms = 132>,
// CHECK-SAME:    recipe = #dgemm.recipe<a = 1x128, b = 1x128>}{{$}}
func.func @k_grouped_g4_m2048_n512_k4096_e5m2_config(
    %a: memref<8388608xf8E5M2>, %sa: memref<32x2048xf32>,
    %b: memref<2097152xf8E4M3FN>, %sb: memref<32x512xf32>,
    %ks: memref<4xi32>, %d: memref<4x2048x512xf32>) {
  dgemm.k_grouped_gemm
      ins(%a, %sa, %b, %sb : memref<8388608xf8E5M2>, memref<32x2048xf32>,
          memref<2097152xf8E4M3FN>, memref<32x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x2048x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>,
       config = #dgemm.config<block_m = 128, block_n = 128, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 4,
                              num_sms = 132>}
  return
}

// -----

// CHECK-LABEL: func.func @grouped_contiguous_offsets
// CHECK: dgemm.grouped_gemm <contiguous_offsets>
func.func @grouped_contiguous_offsets(%a: memref<?x512xf8E4M3FN>, %sa: memref<?x4xf32, strided<[1, ?]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %off: memref<4xi32>, %d: memref<?x256xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous_offsets> ins(%a, %sa, %b, %sb : memref<?x512xf8E4M3FN>,
      memref<?x4xf32, strided<[1, ?]>>, memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%off : memref<4xi32>) outs(%d : memref<?x256xbf16>) {m_hint = 512 : i64}
  return
}

// Epilogue fusion: an f32 bias [N] added before the bf16 conversion.
// CHECK-LABEL: func.func @gemm_bias(
// CHECK:         dgemm.gemm ins(%{{.+}} : memref<?x512xf8E4M3FN>, memref<?x4xf32, strided<[1, ?]>>, memref<256x512xf8E4M3FN>, memref<2x4xf32>)
// CHECK-SAME:    bias(%{{.+}} : memref<256xf32>) outs(%{{.+}} : memref<?x256xbf16>) {m_hint = 64 : i64}
func.func @gemm_bias(%a: memref<?x512xf8E4M3FN>, %sa: memref<?x4xf32, strided<[1, ?]>>,
    %b: memref<256x512xf8E4M3FN>, %sb: memref<2x4xf32>, %bias: memref<256xf32>,
    %d: memref<?x256xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x512xf8E4M3FN>,
                 memref<?x4xf32, strided<[1, ?]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      bias(%bias : memref<256xf32>)
      outs(%d : memref<?x256xbf16>) {m_hint = 64 : i64}
  return
}
