// RUN: dgemm-opt %s | dgemm-opt | FileCheck %s
// RUN: dgemm-opt %s --mlir-print-op-generic | dgemm-opt | FileCheck %s

// Round trip of every dgemm attribute: #dgemm.recipe, #dgemm.grouped,
// #dgemm.target and #dgemm.config, attached to function declarations and to
// the module (the module-level dgemm.target ops fall back to). Invalid
// attributes are in invalid-attrs.mlir.

// The module-level target.
// CHECK: module attributes {dgemm.target = #dgemm.target<"sm_90a", sms = 132, smem = 232448>}
module attributes {dgemm.target = #dgemm.target<"sm_90a", sms = 132, smem = 232448>} {

// Blockwise recipe: A 1x128, B 128x128 (inference, forward pass).
// CHECK-LABEL: func.func private @recipe_blockwise()
// CHECK-SAME:    attributes {recipe = #dgemm.recipe<a = 1x128, b = 128x128>}
func.func private @recipe_blockwise()
    attributes {recipe = #dgemm.recipe<a = 1x128, b = 128x128>}

// Weight-gradient recipe: A 1x128, B 1x128.
// CHECK-LABEL: func.func private @recipe_wgrad()
// CHECK-SAME:    attributes {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
func.func private @recipe_wgrad()
    attributes {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}

// Whitespace is free in the recipe; it prints in the canonical form.
// CHECK-LABEL: func.func private @recipe_compact()
// CHECK-SAME:    attributes {recipe = #dgemm.recipe<a = 1x128, b = 128x128>}
func.func private @recipe_compact()
    attributes {recipe = #dgemm.recipe<a=1x128,b=128x128>}

// Contiguous MoE layout.
// CHECK-LABEL: func.func private @grouped_contiguous()
// CHECK-SAME:    attributes {layout = #dgemm.grouped<contiguous>}
func.func private @grouped_contiguous()
    attributes {layout = #dgemm.grouped<contiguous>}

// Masked MoE layout.
// CHECK-LABEL: func.func private @grouped_masked()
// CHECK-SAME:    attributes {layout = #dgemm.grouped<masked>}
func.func private @grouped_masked()
    attributes {layout = #dgemm.grouped<masked>}

// Target: H100/H200 defaults.
// CHECK-LABEL: func.func private @target_h100()
// CHECK-SAME:    attributes {target = #dgemm.target<"sm_90a", sms = 132, smem = 232448>}
func.func private @target_h100()
    attributes {target = #dgemm.target<"sm_90a", sms = 132, smem = 232448>}

// Target at the bounds: 1 SM with 1 KiB, 1024 SMs.
// CHECK-LABEL: func.func private @target_bounds()
// CHECK-SAME:    attributes {hi = #dgemm.target<"sm_90a", sms = 1024, smem = 232448>,
// CHECK-SAME:    lo = #dgemm.target<"sm_90a", sms = 1, smem = 1024>}
func.func private @target_bounds()
    attributes {lo = #dgemm.target<"sm_90a", sms = 1, smem = 1024>,
                hi = #dgemm.target<"sm_90a", sms = 1024, smem = 232448>}

// Config without a cluster (multicast = none).
// CHECK-LABEL: func.func private @config_bm128_bn112_multicast_none()
// CHECK-SAME:    attributes {config = #dgemm.config<block_m = 128, block_n = 112, stages = 6, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
func.func private @config_bm128_bn112_multicast_none()
    attributes {config = #dgemm.config<block_m = 128, block_n = 112, stages = 6,
                                       cluster = 1, multicast = none,
                                       math_warpgroups = 2, swizzle_group = 16,
                                       num_sms = 128>}

// Config with a 2-CTA cluster multicasting A.
// CHECK-LABEL: func.func private @config_bm128_bn192_multicast_a()
// CHECK-SAME:    attributes {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, multicast = a, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
func.func private @config_bm128_bn192_multicast_a()
    attributes {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4,
                                       cluster = 2, multicast = a,
                                       math_warpgroups = 2, swizzle_group = 16,
                                       num_sms = 128>}

// Config with a 2-CTA cluster multicasting B.
// CHECK-LABEL: func.func private @config_bm128_bn160_multicast_b()
// CHECK-SAME:    attributes {config = #dgemm.config<block_m = 128, block_n = 160, stages = 5, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
func.func private @config_bm128_bn160_multicast_b()
    attributes {config = #dgemm.config<block_m = 128, block_n = 160, stages = 5,
                                       cluster = 2, multicast = b,
                                       math_warpgroups = 2, swizzle_group = 16,
                                       num_sms = 132>}

// Config parameters in any order print in the declared order; values at the
// bounds the attribute allows (problem-dependent limits are the op's).
// CHECK-LABEL: func.func private @config_any_order_bounds()
// CHECK-SAME:    attributes {hi = #dgemm.config<block_m = 256, block_n = 256, stages = 32, cluster = 2, multicast = a, math_warpgroups = 2, swizzle_group = 16, num_sms = 2>,
// CHECK-SAME:    lo = #dgemm.config<block_m = 64, block_n = 8, stages = 1, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 1>}
func.func private @config_any_order_bounds()
    attributes {lo = #dgemm.config<num_sms = 1, swizzle_group = 1,
                                   math_warpgroups = 1, multicast = none,
                                   cluster = 1, stages = 1, block_n = 8,
                                   block_m = 64>,
                hi = #dgemm.config<block_m = 256, block_n = 256, stages = 32,
                                   cluster = 2, multicast = a,
                                   math_warpgroups = 2, swizzle_group = 16,
                                   num_sms = 2>}

// A second tile shape (masked layout): printed only when set, after
// stream_b.
// CHECK-LABEL: func.func private @config_alt()
// CHECK-SAME:    swizzle_group = 16, num_sms = 112, stream_b = true, alt_block_m = 128, alt_block_n = 192, alt_stages = 4, alt_num_sms = 132>
func.func private @config_alt()
    attributes {c = #dgemm.config<block_m = 256, block_n = 128, stages = 3,
                                  cluster = 1, multicast = none,
                                  math_warpgroups = 2, swizzle_group = 16,
                                  num_sms = 112, stream_b = true,
                                  alt_block_m = 128, alt_block_n = 192,
                                  alt_stages = 4, alt_num_sms = 132>}

// A's box cut to a small M's rows: printed only when set, last.
// CHECK-LABEL: func.func private @config_a_box_rows()
// CHECK-SAME:    num_sms = 128, stream_b = true, a_box_rows = 8>
func.func private @config_a_box_rows()
    attributes {c = #dgemm.config<block_m = 64, block_n = 32, stages = 8,
                                  cluster = 1, multicast = none,
                                  math_warpgroups = 1, swizzle_group = 1,
                                  num_sms = 128, stream_b = true, a_box_rows = 8>}

// Without one: no alt_ fields.
// CHECK-LABEL: func.func private @config_no_alt()
// CHECK-SAME:    swizzle_group = 16, num_sms = 112>}{{$}}
func.func private @config_no_alt()
    attributes {c = #dgemm.config<block_m = 256, block_n = 128, stages = 3,
                                  cluster = 1, multicast = none,
                                  math_warpgroups = 2, swizzle_group = 16,
                                  num_sms = 112>}

}
