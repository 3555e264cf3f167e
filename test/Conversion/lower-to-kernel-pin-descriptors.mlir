// RUN: dgemm-opt %s --dgemm-lower-to-kernel | FileCheck %s
// RUN: dgemm-opt %s --dgemm-lower-to-kernel=pin-descriptors=on | FileCheck %s --check-prefix=BOTH
// RUN: dgemm-opt %s --dgemm-lower-to-kernel=pin-descriptors=off | FileCheck %s --check-prefix=OFF
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=pin-descriptors=b 2>&1 | FileCheck %s --check-prefix=BAD

// The masked layout's stage-unrolled copies pin their A tile pointer by
// default: an opaque 0 from inline PTX added to it, so that LLVM computes
// A's wgmma descriptors in the copy (B's stay hoisted out of the loop).
// CHECK-LABEL: llvm.func @dgemm_grouped_masked_g4_n7168_k2048_bm256_bn128_s3_g16_c112(
// CHECK: nvvm.setmaxregister  increase 232
// CHECK-COUNT-3: llvm.inline_asm "mov.b32 $0, 0;", "=r"  : () -> i32
// CHECK-NOT: llvm.inline_asm "mov.b32 $0, 0;"
// CHECK: dgemm.epilogue_store
// BOTH-LABEL: llvm.func @dgemm_grouped_masked_g4_n7168_k2048_bm256_bn128_s3_g16_c112_pin(
// BOTH: %[[Z:.+]] = llvm.inline_asm "mov.b32 $0, 0;"
// BOTH-NEXT: llvm.getelementptr %{{.+}}[%[[Z]]]
// BOTH-NEXT: llvm.getelementptr %{{.+}}[%[[Z]]]
// OFF-LABEL: llvm.func @dgemm_grouped_masked_g4_n7168_k2048_bm256_bn128_s3_g16_c112_npin(
// OFF-NOT: llvm.inline_asm "mov.b32 $0, 0;"
// BAD: pin-descriptors must be auto, a, on or off, got 'b'
func.func @masked(%a: memref<4x256x2048xf8E4M3FN>, %sa: memref<4x256x16xf32, strided<[4096, 1, 256]>>,
    %b: memref<4x7168x2048xf8E4M3FN>, %sb: memref<4x56x16xf32>, %g: memref<4xi32>, %d: memref<4x256x7168xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x256x2048xf8E4M3FN>, memref<4x256x16xf32, strided<[4096, 1, 256]>>, memref<4x7168x2048xf8E4M3FN>, memref<4x56x16xf32>)
      groups(%g : memref<4xi32>) outs(%d : memref<4x256x7168xbf16>) {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 112>, m_hint = 256 : i64}
  return
}
