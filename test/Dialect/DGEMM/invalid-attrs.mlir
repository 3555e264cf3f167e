// RUN: dgemm-opt %s -split-input-file -verify-diagnostics

// One case per parse or verify error of the dgemm attributes. The
// problem-dependent config rules are checked by the ops (invalid.mlir).

// Recipe: A scaled per 64 K-values.
// expected-error @+1 {{A must be scaled 1x128 (one scale per row per 128 K-values), got 1x64}}
func.func private @recipe_a_1x64() attributes {r = #dgemm.recipe<a = 1x64, b = 128x128>}

// -----

// Recipe: A scaled per 128x128 block.
// expected-error @+1 {{A must be scaled 1x128 (one scale per row per 128 K-values), got 128x128}}
func.func private @recipe_a_128x128() attributes {r = #dgemm.recipe<a = 128x128, b = 128x128>}

// -----

// Recipe: B scaled per 64x64 block.
// expected-error @+1 {{B must be scaled 128x128 (per block) or 1x128 (per row, weight-gradient recipe), got 64x64}}
func.func private @recipe_b_64x64() attributes {r = #dgemm.recipe<a = 1x128, b = 64x64>}

// -----

// Recipe: B scaled per 128 rows of one column (granularity transposed).
// expected-error @+1 {{B must be scaled 128x128 (per block) or 1x128 (per row, weight-gradient recipe), got 128x1}}
func.func private @recipe_b_128x1() attributes {r = #dgemm.recipe<a = 1x128, b = 128x1>}

// -----

// Recipe: a granularity with one number.
// expected-error @+1 {{expected the scale granularity of a as ROWSxCOLS, such as 1x128}}
func.func private @recipe_malformed_a() attributes {r = #dgemm.recipe<a = 128, b = 128x128>}

// -----

// Recipe: a granularity with three numbers.
// expected-error @+1 {{expected the scale granularity of b as ROWSxCOLS, such as 1x128}}
func.func private @recipe_malformed_b() attributes {r = #dgemm.recipe<a = 1x128, b = 1x128x1>}

// -----

// Recipe: a dynamic granularity.
// expected-error @+1 {{expected static shape}}
func.func private @recipe_dynamic() attributes {r = #dgemm.recipe<a = 1x?, b = 128x128>}

// -----

// Recipe: operands out of order.
// expected-error @+1 {{expected 'a'}}
func.func private @recipe_order() attributes {r = #dgemm.recipe<b = 128x128, a = 1x128>}

// -----

// Grouped: an unknown layout.
// expected-error @+2 {{expected ::mlir::dgemm::GroupedLayout to be one of: contiguous, masked}}
// expected-error @+1 {{failed to parse DGEMM_GroupedAttr parameter 'layout'}}
func.func private @grouped_unknown() attributes {g = #dgemm.grouped<ragged>}

// -----

// Target: an Ampere chip.
// expected-error @+1 {{unsupported chip 'sm_80': dgemm targets Hopper, "sm_90a"}}
func.func private @target_sm80() attributes {t = #dgemm.target<"sm_80", sms = 108, smem = 166912>}

// -----

// Target: sm_90 without the arch-specific features (wgmma, setmaxnreg).
// expected-error @+1 {{unsupported chip 'sm_90': dgemm targets Hopper, "sm_90a"}}
func.func private @target_sm90() attributes {t = #dgemm.target<"sm_90", sms = 132, smem = 232448>}

// -----

// Target: no SMs.
// expected-error @+1 {{sms must be in [1, 1024], got 0}}
func.func private @target_sms0() attributes {t = #dgemm.target<"sm_90a", sms = 0, smem = 232448>}

// -----

// Target: more SMs than any GPU.
// expected-error @+1 {{sms must be in [1, 1024], got 1025}}
func.func private @target_sms1025() attributes {t = #dgemm.target<"sm_90a", sms = 1025, smem = 232448>}

// -----

// Target: more shared memory than sm_90a gives a block.
// expected-error @+1 {{smem must be in [1024, 232448] bytes (the sm_90a limit per block), got 232449}}
func.func private @target_smem_too_large() attributes {t = #dgemm.target<"sm_90a", sms = 132, smem = 232449>}

// -----

// Target: less than 1 KiB of shared memory.
// expected-error @+1 {{smem must be in [1024, 232448] bytes (the sm_90a limit per block), got 1023}}
func.func private @target_smem_too_small() attributes {t = #dgemm.target<"sm_90a", sms = 132, smem = 1023>}

// -----

// Config: block_m not a wgmma-friendly size.
// expected-error @+1 {{block_m must be 64, 128 or 256, got 96}}
func.func private @config_bm96() attributes {c = #dgemm.config<block_m = 96, block_n = 112, stages = 6, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}

// -----

// Config: block_n not a multiple of 8.
// expected-error @+1 {{block_n must be a multiple of 8 in [8, 256] (wgmma N), got 100}}
func.func private @config_bn100() attributes {c = #dgemm.config<block_m = 128, block_n = 100, stages = 6, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}

// -----

// Config: block_n over the wgmma maximum.
// expected-error @+1 {{block_n must be a multiple of 8 in [8, 256] (wgmma N), got 264}}
func.func private @config_bn264() attributes {c = #dgemm.config<block_m = 128, block_n = 264, stages = 6, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}

// -----

// Config: block_n 0.
// expected-error @+1 {{block_n must be a multiple of 8 in [8, 256] (wgmma N), got 0}}
func.func private @config_bn0() attributes {c = #dgemm.config<block_m = 128, block_n = 0, stages = 6, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}

// -----

// Config: no pipeline stage.
// expected-error @+1 {{stages must be in [1, 32], got 0}}
func.func private @config_stages0() attributes {c = #dgemm.config<block_m = 128, block_n = 112, stages = 0, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}

// -----

// Config: more stages than the attribute allows.
// expected-error @+1 {{stages must be in [1, 32], got 33}}
func.func private @config_stages33() attributes {c = #dgemm.config<block_m = 64, block_n = 16, stages = 33, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 16, num_sms = 128>}

// -----

// Config: a 3-CTA cluster.
// expected-error @+1 {{cluster must be 1 or 2, got 3}}
func.func private @config_cluster3() attributes {c = #dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 3, multicast = a, math_warpgroups = 2, swizzle_group = 16, num_sms = 129>}

// -----

// Config: a 2-CTA cluster that multicasts nothing.
// expected-error @+1 {{a 2-CTA cluster multicasts A or B and a single CTA multicasts nothing, got cluster = 2 with multicast = none}}
func.func private @config_cluster2_none() attributes {c = #dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 2, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}

// -----

// Config: a single CTA that multicasts A.
// expected-error @+1 {{a 2-CTA cluster multicasts A or B and a single CTA multicasts nothing, got cluster = 1 with multicast = a}}
func.func private @config_cluster1_a() attributes {c = #dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 1, multicast = a, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}

// -----

// Config: a single CTA that multicasts B.
// expected-error @+1 {{a 2-CTA cluster multicasts A or B and a single CTA multicasts nothing, got cluster = 1 with multicast = b}}
func.func private @config_cluster1_b() attributes {c = #dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 1, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}

// -----

// Config: an unknown multicast operand.
// expected-error @+2 {{expected ::mlir::dgemm::MulticastOperand to be one of: none, a, b}}
// expected-error @+1 {{failed to parse DGEMM_ConfigAttr parameter 'multicast'}}
func.func private @config_multicast_c() attributes {c = #dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 2, multicast = c, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}

// -----

// Config: three consumer warpgroups.
// expected-error @+1 {{math_warpgroups must be 1 or 2, got 3}}
func.func private @config_mwg3() attributes {c = #dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 1, multicast = none, math_warpgroups = 3, swizzle_group = 16, num_sms = 128>}

// -----

// Config: an empty tile-order group.
// expected-error @+1 {{swizzle_group must be >= 1, got 0}}
func.func private @config_swizzle0() attributes {c = #dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 0, num_sms = 128>}

// -----

// Config: an odd grid for 2-CTA clusters.
// expected-error @+1 {{num_sms must be a positive multiple of the cluster size 2, got 131}}
func.func private @config_numsms_odd_cluster2() attributes {c = #dgemm.config<block_m = 128, block_n = 160, stages = 5, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}

// -----

// Config: an empty grid.
// expected-error @+1 {{num_sms must be a positive multiple of the cluster size 1, got 0}}
func.func private @config_numsms0() attributes {c = #dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 0>}

// -----

// Config: a parameter missing.
// expected-error @+1 {{struct is missing required parameter: num_sms}}
func.func private @config_missing_num_sms() attributes {c = #dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16>}

// -----

// Config: a parameter the attribute does not have.
// expected-error @+1 {{duplicate or unknown struct parameter name: block_k}}
func.func private @config_unknown_param() attributes {c = #dgemm.config<block_m = 128, block_n = 112, block_k = 128, stages = 6, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}

// -----

// Config: stream_b is a bool.
// expected-error @+2 {{expected integer value}}
// expected-error @+1 {{failed to parse DGEMM_ConfigAttr parameter 'stream_b'}}
func.func private @config_stream_b_not_bool() attributes {c = #dgemm.config<block_m = 64, block_n = 16, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 132, stream_b = yes>}

// -----

// Config: a second tile shape of 96 rows.
// expected-error @+1 {{alt_block_m must be 64 or 128 (below block_m), got 96}}
func.func private @config_alt_bm96() attributes {c = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 112, alt_block_m = 96, alt_block_n = 192, alt_stages = 4, alt_num_sms = 132>}

// -----

// Config: a second tile shape without its block N.
// expected-error @+1 {{alt_block_n must be a multiple of 8 in [8, 256] (wgmma N), got 0}}
func.func private @config_alt_bn0() attributes {c = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 112, alt_block_m = 128, alt_stages = 4, alt_num_sms = 132>}

// -----

// Config: a second tile shape without stages.
// expected-error @+1 {{alt_stages must be in [1, 32], got 0}}
func.func private @config_alt_stages0() attributes {c = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 112, alt_block_m = 128, alt_block_n = 192, alt_num_sms = 132>}

// -----

// Config: a second tile shape without CTAs.
// expected-error @+1 {{alt_num_sms must be positive, got 0}}
func.func private @config_alt_sms0() attributes {c = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 112, alt_block_m = 128, alt_block_n = 192, alt_stages = 4>}

// -----

// Config: A's box of 12 rows (not a multiple of 8).
// expected-error @+1 {{a_box_rows must be 0 or a multiple of 8 below block_m = 64, got 12}}
func.func private @config_a_box_rows_12() attributes {c = #dgemm.config<block_m = 64, block_n = 32, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 128, a_box_rows = 12>}

// -----

// Config: A's box of the whole tile.
// expected-error @+1 {{a_box_rows must be 0 or a multiple of 8 below block_m = 64, got 64}}
func.func private @config_a_box_rows_64() attributes {c = #dgemm.config<block_m = 64, block_n = 32, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 128, a_box_rows = 64>}
