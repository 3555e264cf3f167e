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

// The kernel adds into D in place: an accumulate input other than D itself
// is refused (copy C into D first).
func.func @gemm_f32_acc_other(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<7168x16xf32, strided<[1, 7168]>>, %c: memref<?x7168xf32>,
    %d: memref<?x7168xf32>) {
  // expected-error @+1 {{cannot be lowered: the accumulate input C must be D itself (acc(%d) outs(%d): the kernel adds into D in place); copy C into D first}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<7168x16xf32, strided<[1, 7168]>>) acc(%c : memref<?x7168xf32>) outs(%d : memref<?x7168xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>,
       config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}

// -----

// The weight-gradient forms are not lowered with clusters.
func.func @wgrad_cluster(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<7168x16xf32, strided<[1, 7168]>>, %d: memref<?x7168xf32>) {
  // expected-error @+1 {{cannot be lowered: the weight-gradient forms (1x128 B scales, f32 output) are not lowered with clusters (multicast = none)}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<7168x16xf32, strided<[1, 7168]>>) acc(%d : memref<?x7168xf32>) outs(%d : memref<?x7168xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>,
       config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 2, multicast = a, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// The masked kernel addresses D as a dense [G, M_max, N].
func.func @masked_strided_d(%a: memref<4x256x7168xf8E4M3FN>, %sa: memref<4x256x56xf32, strided<[14336, 1, 256]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mm: memref<4xi32>,
    %d: memref<4x256x4096xbf16, strided<[2097152, 8192, 1]>>) {
  // expected-error @+1 {{cannot be lowered: the masked layout's D must be contiguous (identity layout)}}
  dgemm.grouped_gemm #dgemm.grouped<masked> ins(%a, %sa, %b, %sb : memref<4x256x7168xf8E4M3FN>,
      memref<4x256x56xf32, strided<[14336, 1, 256]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mm : memref<4xi32>) outs(%d : memref<4x256x4096xbf16, strided<[2097152, 8192, 1]>>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 5, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

// -----

// A grouped GEMM needs a static group count.
func.func @contiguous_dynamic_groups(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<?x4096x7168xf8E4M3FN>, %sb: memref<?x32x56xf32>, %mi: memref<?xi32>, %d: memref<?x4096xbf16>) {
  // expected-error @+1 {{cannot be lowered: the group count (B's first dimension) must be static}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<?x4096x7168xf8E4M3FN>, memref<?x32x56xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}

// -----

// The k-grouped kernel's group table (two template maps and 8 bytes per
// group), its maps and addresses are kernel parameters: at most 3984 groups.
func.func @k_grouped_too_many(%a: memref<?xf8E4M3FN>, %sa: memref<?x512xf32>, %b: memref<?xf8E4M3FN>,
    %sb: memref<?x512xf32>, %ks: memref<3985xi32>, %d: memref<3985x512x512xf32>) {
  // expected-error @+1 {{cannot be lowered: at most 3984 groups (the group table is a kernel parameter, 32 KB at most), got 3985}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>, memref<?x512xf32>,
      memref<?xf8E4M3FN>, memref<?x512xf32>) ks(%ks : memref<3985xi32>) outs(%d : memref<3985x512x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>,
       config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 4, num_sms = 132>}
  return
}

// -----

// The masked kernel keeps a copy of masked_m (4 bytes per group) in shared
// memory; the config's shared-memory model counts it, so with 512 groups a
// config that fits without it is refused before the lowering (which checks
// the kernel's real layout against the target too).
func.func @masked_many_groups_smem(%a: memref<512x256x7168xf8E4M3FN>, %sa: memref<512x256x56xf32, strided<[14336, 1, 256]>>,
    %b: memref<512x4096x7168xf8E4M3FN>, %sb: memref<512x32x56xf32>, %mm: memref<512xi32>, %d: memref<512x256x4096xbf16>) {
  // expected-error @+1 {{stages = 5 of 33296 bytes each plus 36352 fixed bytes need 202832 bytes of shared memory, over the 201000 a block may use}}
  dgemm.grouped_gemm #dgemm.grouped<masked> ins(%a, %sa, %b, %sb : memref<512x256x7168xf8E4M3FN>,
      memref<512x256x56xf32, strided<[14336, 1, 256]>>, memref<512x4096x7168xf8E4M3FN>, memref<512x32x56xf32>)
      groups(%mm : memref<512xi32>) outs(%d : memref<512x256x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 5, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>,
       target = #dgemm.target<"sm_90a", sms = 132, smem = 201000>}
  return
}
