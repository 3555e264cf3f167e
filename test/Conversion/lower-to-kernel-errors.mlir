// RUN: dgemm-opt %s -split-input-file -verify-diagnostics --dgemm-lower-to-kernel

// No config yet.
func.func @gemm_no_config(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  // expected-error @+1 {{has no #dgemm.config: run dgemm-select-config before dgemm-lower-to-kernel}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
  return
}

// -----

// Multicast of B is not lowered yet.
func.func @gemm_cluster2(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  // expected-error @+1 {{cannot be lowered: multicast of B is not lowered yet; choose multicast = a or none}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 160, stages = 5, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// Block M 256 is not lowered yet.
func.func @gemm_bm256(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  // expected-error @+1 {{cannot be lowered: block_m 256 is not lowered yet}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 88, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

// -----

// E5M2 operands are not lowered yet.
func.func @gemm_e5m2(%a: memref<?x2048xf8E5M2>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E5M2>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  // expected-error @+1 {{cannot be lowered: only f8E4M3FN operands are lowered so far}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E5M2>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E5M2>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 160, stages = 5, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}

// -----

// An f32 output with an accumulate input is not lowered yet.
func.func @gemm_f32_acc(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xf32>) {
  // expected-error @+1 {{cannot be lowered: only a bf16 output without an accumulate input is lowered so far}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) acc(%d : memref<?x7168xf32>) outs(%d : memref<?x7168xf32>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}
