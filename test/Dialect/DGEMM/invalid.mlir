// RUN: dgemm-opt %s -split-input-file -verify-diagnostics

// Every verifier message of dgemm.gemm, dgemm.grouped_gemm and
// dgemm.k_grouped_gemm, one case each, for each op where the message differs
// (shape docs with a group dimension, dimension numbers, output types), and
// the messages of ::dgemm::checkConfig the op verifiers report for an attached
// config ("config ... cannot run this GEMM: <why>"). The baseline problem is
// M = 128, N = 256, K = 512 (A scales [128, 4] MN-major, B scales [2, 4]);
// each case breaks one rule. Attribute errors are in invalid-attrs.mlir.

// A of rank 3.
func.func @gemm_a_rank3(%a: memref<1x128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op A must be a ranked memref of rank 2 [M, K], got 'memref<1x128x512xf8E4M3FN>'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<1x128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// A scales of rank 1.
func.func @gemm_a_scale_rank1(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<512xf32>, %b: memref<256x512xf8E4M3FN>, %sb: memref<2x4xf32>,
    %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op A scales must be a ranked memref of rank 2 [M, ceil(K/128)], got 'memref<512xf32>'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>, memref<512xf32>,
                 memref<256x512xf8E4M3FN>, memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// B of rank 3 (a grouped B on the normal GEMM).
func.func @gemm_b_rank3(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<1x256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op B must be a ranked memref of rank 2 [N, K], got 'memref<1x256x512xf8E4M3FN>'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>,
                 memref<1x256x512xf8E4M3FN>, memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// B scales of rank 1, blockwise recipe.
func.func @gemm_b_scale_rank1(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<8xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op B scales must be a ranked memref of rank 2 [ceil(N/128), ceil(K/128)], got 'memref<8xf32>'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<8xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// B scales of rank 3, weight-gradient recipe (the shape doc differs).
func.func @gemm_wgrad_b_scale_rank3(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<1x256x4xf32>, %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op B scales must be a ranked memref of rank 2 [N, ceil(K/128)], got 'memref<1x256x4xf32>'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<1x256x4xf32>)
      outs(%d : memref<128x256xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// D of rank 1.
func.func @gemm_d_rank1(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<32768xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op D must be a ranked memref of rank 2 [M, N], got 'memref<32768xbf16>'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<32768xbf16>)
  return
}

// -----

// A of bf16.
func.func @gemm_a_bf16(%a: memref<128x512xbf16>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op A must have element type f8E4M3FN or f8E5M2, got 'bf16'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xbf16>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// B of f8E4M3FNUZ (the AMD variant).
func.func @gemm_b_e4m3fnuz(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FNUZ>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op B must have element type f8E4M3FN or f8E5M2, got 'f8E4M3FNUZ'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>,
                 memref<256x512xf8E4M3FNUZ>, memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// A scales of bf16.
func.func @gemm_a_scale_bf16(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xbf16, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op A scales must have element type f32, got 'bf16'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xbf16, strided<[1, 128]>>,
                 memref<256x512xf8E4M3FN>, memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// B scales of f16.
func.func @gemm_b_scale_f16(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf16>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op B scales must have element type f32, got 'f16'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf16>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// D of f16.
func.func @gemm_d_f16(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xf16>) {
  // expected-error @+1 {{'dgemm.gemm' op D must have element type bf16 or f32, got 'f16'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xf16>)
  return
}

// -----

// Dynamic K.
func.func @gemm_k_dynamic(%a: memref<128x?xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op K (dimension 1 of A) must be static}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x?xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// Dynamic N.
func.func @gemm_n_dynamic(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<?x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op N (dimension 0 of B) must be static}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<?x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// K not a multiple of 128.
func.func @gemm_k200(%a: memref<128x200xf8E4M3FN>,
    %sa: memref<128x2xf32, strided<[1, 128]>>, %b: memref<256x200xf8E4M3FN>,
    %sb: memref<2x2xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op K must be a positive multiple of 128 (the scale block), got 200}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x200xf8E4M3FN>,
                 memref<128x2xf32, strided<[1, 128]>>, memref<256x200xf8E4M3FN>,
                 memref<2x2xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// B's K differs from A's.
func.func @gemm_b_k1024(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x1024xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op B has K = 1024 (dimension 1 of shape [256, 1024]) but K of A is 512}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>,
                 memref<256x1024xf8E4M3FN>, memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// D's M differs from A's.
func.func @gemm_d_m64(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<64x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op D has M = 64 (dimension 0 of shape [64, 256]) but M of A is 128}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<64x256xbf16>)
  return
}

// -----

// D's N differs from B's.
func.func @gemm_d_n512(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x512xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op D has N = 512 (dimension 1 of shape [128, 512]) but N of B is 256}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x512xbf16>)
  return
}

// -----

// A scales' M differs from A's.
func.func @gemm_a_scale_m64(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<64x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op A scales has M = 64 (dimension 0 of shape [64, 4]) but M of A is 128}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<64x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// A scales' ceil(K/128) differs from A's.
func.func @gemm_a_scale_kb8(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x8xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op A scales has ceil(K/128) = 8 (dimension 1 of shape [128, 8]) but K/128 of A is 4}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x8xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// B scales' ceil(N/128) differs from B's, blockwise recipe.
func.func @gemm_b_scale_nb4(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<4x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op B scales has ceil(N/128) = 4 (dimension 0 of shape [4, 4]) but ceil(N/128) of B is 2}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<4x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// B scales' ceil(K/128) differs from A's, blockwise recipe.
func.func @gemm_b_scale_kb8(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x8xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op B scales has ceil(K/128) = 8 (dimension 1 of shape [2, 8]) but K/128 of A is 4}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x8xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// B scales' N differs from B's, weight-gradient recipe.
func.func @gemm_wgrad_b_scale_n128(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<128x4xf32, strided<[1, 256]>>, %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op B scales has N = 128 (dimension 0 of shape [128, 4]) but N of B is 256}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 256]>>)
      outs(%d : memref<128x256xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// B scales' ceil(K/128) differs from A's, weight-gradient recipe.
func.func @gemm_wgrad_b_scale_kb8(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<256x8xf32, strided<[1, 256]>>, %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op B scales has ceil(K/128) = 8 (dimension 1 of shape [256, 8]) but K/128 of A is 4}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<256x8xf32, strided<[1, 256]>>)
      outs(%d : memref<128x256xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// A not K-major.
func.func @gemm_a_mn_major(%a: memref<128x512xf8E4M3FN, strided<[1, 128]>>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op A must be K-major (unit stride along dimension 1), got strides [1, 128]}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN, strided<[1, 128]>>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// A rows not 16-byte aligned (520-byte row pitch).
func.func @gemm_a_row_unaligned(%a: memref<128x512xf8E4M3FN, strided<[520, 1]>>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op rows of A must be 16-byte aligned for TMA: the stride of dimension 0 is 520 elements = 520 bytes}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN, strided<[520, 1]>>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// B not K-major.
func.func @gemm_b_mn_major(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>,
    %b: memref<256x512xf8E4M3FN, strided<[1, 256]>>, %sb: memref<2x4xf32>,
    %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op B must be K-major (unit stride along dimension 1), got strides [1, 256]}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>,
                 memref<256x512xf8E4M3FN, strided<[1, 256]>>, memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// B rows not 16-byte aligned (514-byte row pitch).
func.func @gemm_b_row_unaligned(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>,
    %b: memref<256x512xf8E4M3FN, strided<[514, 1]>>, %sb: memref<2x4xf32>,
    %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op rows of B must be 16-byte aligned for TMA: the stride of dimension 0 is 514 elements = 514 bytes}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>,
                 memref<256x512xf8E4M3FN, strided<[514, 1]>>, memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// D not row-major.
func.func @gemm_d_column_major(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16, strided<[1, 128]>>) {
  // expected-error @+1 {{'dgemm.gemm' op D must be row-major (unit stride along dimension 1), got strides [1, 128]}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16, strided<[1, 128]>>)
  return
}

// -----

// D rows of 100 bf16 = 200 bytes, not 16-byte aligned.
func.func @gemm_d_n100_bf16(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<100x512xf8E4M3FN>,
    %sb: memref<1x4xf32>, %d: memref<128x100xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op rows of D must be 16-byte aligned for TMA: the stride of dimension 0 is 100 elements = 200 bytes}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<100x512xf8E4M3FN>,
                 memref<1x4xf32>)
      outs(%d : memref<128x100xbf16>)
  return
}

// -----

// A scales in the identity (K-major) layout instead of MN-major.
func.func @gemm_a_scale_k_major(%a: memref<?x512xf8E4M3FN>,
    %sa: memref<?x4xf32>, %b: memref<256x512xf8E4M3FN>, %sb: memref<2x4xf32>,
    %d: memref<?x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op A scales must be MN-major (each K block's M scales contiguous, e.g. strided<[1, ?]>) (unit stride along dimension 0), got strides [4, 1]}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x512xf8E4M3FN>, memref<?x4xf32>,
                 memref<256x512xf8E4M3FN>, memref<2x4xf32>)
      outs(%d : memref<?x256xbf16>)
  return
}

// -----

// A scales whose columns overlap: column stride 64 < M = 128.
func.func @gemm_a_scale_stride64(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 64]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op A scales has stride 64 along dimension 1, less than M = 128}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 64]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// A scales column stride 198 f32 = 792 bytes, not 16-byte aligned.
func.func @gemm_a_scale_stride198(%a: memref<?x512xf8E4M3FN>,
    %sa: memref<?x4xf32, strided<[1, 198]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<?x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op rows of A scales must be 16-byte aligned for TMA: the stride of dimension 1 is 198 elements = 792 bytes}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x512xf8E4M3FN>,
                 memref<?x4xf32, strided<[1, 198]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<?x256xbf16>)
  return
}

// -----

// B scales MN-major under the blockwise recipe (must be K-block-major).
func.func @gemm_b_scale_mn_major(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32, strided<[1, 2]>>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op B scales must be K-block-major (row-major [ceil(N/128), ceil(K/128)]) (unit stride along dimension 1), got strides [1, 2]}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32, strided<[1, 2]>>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// B scales in the identity layout under the weight-gradient recipe (must be MN-
// major).
func.func @gemm_wgrad_b_scale_k_major(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<256x4xf32>, %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op B scales must be MN-major (each K block's N scales contiguous, e.g. strided<[1, ?]>) (unit stride along dimension 0), got strides [4, 1]}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<256x4xf32>)
      outs(%d : memref<128x256xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// B scales whose columns overlap: column stride 128 < N = 256, weight-gradient
// recipe.
func.func @gemm_wgrad_b_scale_stride128(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<256x4xf32, strided<[1, 128]>>, %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op B scales has stride 128 along dimension 1, less than N = 256}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<256x4xf32, strided<[1, 128]>>)
      outs(%d : memref<128x256xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// B scales column stride 258 f32 = 1032 bytes, not 16-byte aligned, weight-
// gradient recipe.
func.func @gemm_wgrad_b_scale_stride258(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<256x4xf32, strided<[1, 258]>>, %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op rows of B scales must be 16-byte aligned for TMA: the stride of dimension 1 is 258 elements = 1032 bytes}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<256x4xf32, strided<[1, 258]>>)
      outs(%d : memref<128x256xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// A with a layout that is not strided (tiled affine map).
func.func @gemm_a_tiled_layout(%a: memref<128x512xf8E4M3FN, affine_map<(d0, d1) -> (d0 floordiv 64, d1, d0 mod 64)>>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op A must have a strided layout, got 'memref<128x512xf8E4M3FN, affine_map<(d0, d1) -> (d0 floordiv 64, d1, d0 mod 64)>>'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN, affine_map<(d0, d1) -> (d0 floordiv 64, d1, d0 mod 64)>>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// An accumulate input with a bf16 output.
func.func @gemm_acc_bf16_d(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %c: memref<128x256xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op an accumulate input C needs an f32 output D, got D of 'bf16'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      acc(%c : memref<128x256xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// C of rank 1.
func.func @gemm_acc_rank1(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %c: memref<32768xf32>, %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op C must be a ranked memref of rank 2 [M, N], got 'memref<32768xf32>'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      acc(%c : memref<32768xf32>)
      outs(%d : memref<128x256xf32>)
  return
}

// -----

// C of bf16.
func.func @gemm_acc_bf16(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %c: memref<128x256xbf16>, %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op C must have element type f32, got 'bf16'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      acc(%c : memref<128x256xbf16>)
      outs(%d : memref<128x256xf32>)
  return
}

// -----

// C's M differs from A's.
func.func @gemm_acc_m64(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %c: memref<64x256xf32>, %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op C has M = 64 (dimension 0 of shape [64, 256]) but M of A is 128}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      acc(%c : memref<64x256xf32>)
      outs(%d : memref<128x256xf32>)
  return
}

// -----

// C's N differs from B's.
func.func @gemm_acc_n128(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %c: memref<128x128xf32>, %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op C has N = 128 (dimension 1 of shape [128, 128]) but N of B is 256}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      acc(%c : memref<128x128xf32>)
      outs(%d : memref<128x256xf32>)
  return
}

// -----

// C not row-major.
func.func @gemm_acc_column_major(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %c: memref<128x256xf32, strided<[1, 128]>>,
    %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op C must be row-major (unit stride along dimension 1), got strides [1, 128]}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      acc(%c : memref<128x256xf32, strided<[1, 128]>>)
      outs(%d : memref<128x256xf32>)
  return
}

// -----

// C rows of 258 f32 = 1032 bytes, not 16-byte aligned.
func.func @gemm_acc_row_unaligned(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %c: memref<128x256xf32, strided<[258, 1]>>,
    %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op rows of C must be 16-byte aligned for TMA: the stride of dimension 0 is 258 elements = 1032 bytes}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      acc(%c : memref<128x256xf32, strided<[258, 1]>>)
      outs(%d : memref<128x256xf32>)
  return
}

// -----

// m_hint of 0.
func.func @gemm_m_hint0(%a: memref<?x512xf8E4M3FN>,
    %sa: memref<?x4xf32, strided<[1, ?]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<?x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op m_hint must be positive, got 0}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x512xf8E4M3FN>,
                 memref<?x4xf32, strided<[1, ?]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<?x256xbf16>)
      {m_hint = 0 : i64}
  return
}

// -----

// m_hint not an i64 (ODS constraint).
func.func @gemm_m_hint_i32(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
      // Reported while parsing, at the attribute dictionary.
      // expected-error @+1 {{'dgemm.gemm' op attribute 'm_hint' failed to satisfy constraint: 64-bit signless integer attribute}}
      {m_hint = 64 : i32}
  return
}

// -----

// config attribute of the wrong kind (ODS constraint).
func.func @gemm_config_not_config(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
      // Reported while parsing, at the attribute dictionary.
      // expected-error @+1 {{'dgemm.gemm' op attribute 'config' failed to satisfy constraint: kernel config of a GEMM}}
      {config = #dgemm.target<"sm_90a", sms = 132, smem = 232448>}
  return
}

// -----

// Config over the register budget: 128x256 with two consumer warpgroups.
func.func @gemm_config_registers_bm128_bn256(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op config #dgemm.config<block_m = 128, block_n = 256, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 1, num_sms = 2> cannot run this GEMM: block_m = 128, block_n = 256 needs 296 registers per consumer thread, over the budget of 232}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 256, stages = 3,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 2>}
  return
}

// -----

// Config over the shared memory: 8 stages of 128x192.
func.func @gemm_config_smem_bm128_bn192_st8(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: stages = 8 of 41488 bytes each plus 50304 fixed bytes need 382208 bytes of shared memory, over the 232448 a block may use}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 8,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 2>}
  return
}

// -----

// Config over the shared memory of the op's target (96 KiB).
func.func @gemm_config_smem_op_target(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: stages = 4 of 33296 bytes each plus 33920 fixed bytes need 167104 bytes of shared memory, over the 98304 a block may use}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 2>,
       target = #dgemm.target<"sm_90a", sms = 132, smem = 98304>}
  return
}

// -----

// Config with more CTAs than the enclosing module's target has SMs.
module attributes {dgemm.target = #dgemm.target<"sm_90a", sms = 66, smem = 232448>} {
func.func @gemm_config_num_sms_module_target(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: num_sms = 100 is not in [1, 66]}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 100>}
  return
}
}

// -----

// Config with more CTAs than the default target's 132 SMs.
func.func @gemm_config_num_sms133(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: num_sms = 133 is not in [1, 132]}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 133>}
  return
}

// -----

// Config with one consumer warpgroup for block_m 128.
func.func @gemm_config_math_warpgroups(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: block_m = 128 needs math_warpgroups = 2, got 1}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 1, swizzle_group = 1,
                              num_sms = 2>}
  return
}

// -----

// Config multicasting A over an odd number of N blocks (256 / 96 -> 3).
func.func @gemm_config_multicast_a_odd(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: multicast = a pairs N blocks, but N = 256 has 3 blocks of block_n = 96 (an odd number)}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 96, stages = 4,
                              cluster = 2, multicast = a, math_warpgroups = 2,
                              swizzle_group = 1, num_sms = 2>}
  return
}

// -----

// Config multicasting B with block N 120: each CTA of the pair would load
// 60 rows of B, not whole 8-row swizzle atoms.
func.func @gemm_config_multicast_b_half_atoms(%a: memref<256x512xf8E4M3FN>,
    %sa: memref<256x4xf32, strided<[1, 256]>>, %b: memref<240x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<256x240xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: multicast = b splits B's tile between the pair, which needs block_n a multiple of 16 (each half whole 8-row swizzle atoms), got 120}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<256x512xf8E4M3FN>,
                 memref<256x4xf32, strided<[1, 256]>>, memref<240x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<256x240xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 120, stages = 4,
                              cluster = 2, multicast = b, math_warpgroups = 2,
                              swizzle_group = 1, num_sms = 2>}
  return
}

// -----

// Config on a GEMM with no rows (static M = 0).
func.func @gemm_config_m0(%a: memref<0x512xf8E4M3FN>,
    %sa: memref<0x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<0x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: M must be in [1, 2147483647], got 0}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<0x512xf8E4M3FN>,
                 memref<0x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<0x256xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 128, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 1, swizzle_group = 1,
                              num_sms = 2>}
  return
}

// -----

// Config on a one-row GEMM with N = 100 (D's single row escapes the TMA row
// check).
func.func @gemm_config_m1_n100(%a: memref<1x512xf8E4M3FN>,
    %sa: memref<1x4xf32, strided<[1, 4]>>, %b: memref<100x512xf8E4M3FN>,
    %sb: memref<1x4xf32>, %d: memref<1x100xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: N must be a positive multiple of 8 for a BF16 output (16-byte rows), got 100}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<1x512xf8E4M3FN>,
                 memref<1x4xf32, strided<[1, 4]>>, memref<100x512xf8E4M3FN>,
                 memref<1x4xf32>)
      outs(%d : memref<1x100xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 104, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 1, swizzle_group = 1,
                              num_sms = 1>}
  return
}

// -----

// Config on M = 2^31 rows.
func.func @gemm_config_m_over_int32(%a: memref<2147483648x512xf8E4M3FN>,
    %sa: memref<2147483648x4xf32, strided<[1, 2147483648]>>,
    %b: memref<256x512xf8E4M3FN>, %sb: memref<2x4xf32>,
    %d: memref<2147483648x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: M must be in [1, 2147483647], got 2147483648}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<2147483648x512xf8E4M3FN>,
                 memref<2147483648x4xf32, strided<[1, 2147483648]>>,
                 memref<256x512xf8E4M3FN>, memref<2x4xf32>)
      outs(%d : memref<2147483648x256xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 132>}
  return
}

// -----

// Config on N = 2^31.
func.func @gemm_config_n_over_int32(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>,
    %b: memref<2147483648x512xf8E4M3FN>, %sb: memref<16777216x4xf32>,
    %d: memref<128x2147483648xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: N must be at most 2147483647, got 2147483648}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>,
                 memref<2147483648x512xf8E4M3FN>, memref<16777216x4xf32>)
      outs(%d : memref<128x2147483648xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 132>}
  return
}

// -----

// Config on K = 2^31 + 128.
func.func @gemm_config_k_over_int32(%a: memref<1x2147483776xf8E4M3FN>,
    %sa: memref<1x16777217xf32, strided<[1, 4]>>,
    %b: memref<8x2147483776xf8E4M3FN>, %sb: memref<1x16777217xf32>,
    %d: memref<1x8xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: K must be at most 2147483647, got 2147483776}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<1x2147483776xf8E4M3FN>,
                 memref<1x16777217xf32, strided<[1, 4]>>,
                 memref<8x2147483776xf8E4M3FN>, memref<1x16777217xf32>)
      outs(%d : memref<1x8xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 8, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 1, swizzle_group = 1,
                              num_sms = 1>}
  return
}

// -----

// grouped_gemm with the weight-gradient recipe.
func.func @grouped_wgrad_recipe(%a: memref<256x512xf8E4M3FN>,
    %sa: memref<256x4xf32, strided<[1, 256]>>, %b: memref<4x256x512xf8E4M3FN>,
    %sb: memref<4x2x4xf32>, %g: memref<256xi32>, %d: memref<256x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op grouped_gemm supports the 1x128 x 128x128 recipe only, got #dgemm.recipe<a = 1x128, b = 1x128>}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<256x512xf8E4M3FN>,
          memref<256x4xf32, strided<[1, 256]>>, memref<4x256x512xf8E4M3FN>,
          memref<4x2x4xf32>)
      groups(%g : memref<256xi32>)
      outs(%d : memref<256x256xbf16>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// Masked A of rank 2 (the contiguous shape).
func.func @grouped_masked_a_rank2(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<4x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op A must be a ranked memref of rank 3 [G, M, K], got 'memref<128x512xf8E4M3FN>'}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
          memref<4x128x4xf32, strided<[512, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// Masked A scales of rank 2.
func.func @grouped_masked_a_scale_rank2(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<4x256x512xf8E4M3FN>,
    %sb: memref<4x2x4xf32>, %g: memref<4xi32>, %d: memref<4x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op A scales must be a ranked memref of rank 3 [G, M, ceil(K/128)], got 'memref<128x4xf32, strided<[1, 128]>>'}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>,
          memref<128x4xf32, strided<[1, 128]>>, memref<4x256x512xf8E4M3FN>,
          memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// Grouped B of rank 2.
func.func @grouped_b_rank2(%a: memref<256x512xf8E4M3FN>,
    %sa: memref<256x4xf32, strided<[1, 256]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<4x2x4xf32>, %g: memref<256xi32>, %d: memref<256x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op B must be a ranked memref of rank 3 [G, N, K], got 'memref<256x512xf8E4M3FN>'}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<256x512xf8E4M3FN>,
          memref<256x4xf32, strided<[1, 256]>>, memref<256x512xf8E4M3FN>,
          memref<4x2x4xf32>)
      groups(%g : memref<256xi32>)
      outs(%d : memref<256x256xbf16>)
  return
}

// -----

// Grouped B scales of rank 2.
func.func @grouped_b_scale_rank2(%a: memref<256x512xf8E4M3FN>,
    %sa: memref<256x4xf32, strided<[1, 256]>>, %b: memref<4x256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %g: memref<256xi32>, %d: memref<256x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op B scales must be a ranked memref of rank 3 [G, ceil(N/128), ceil(K/128)], got 'memref<2x4xf32>'}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<256x512xf8E4M3FN>,
          memref<256x4xf32, strided<[1, 256]>>, memref<4x256x512xf8E4M3FN>,
          memref<2x4xf32>)
      groups(%g : memref<256xi32>)
      outs(%d : memref<256x256xbf16>)
  return
}

// -----

// Masked D of rank 2.
func.func @grouped_masked_d_rank2(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op D must be a ranked memref of rank 3 [G, M, N], got 'memref<128x256xbf16>'}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>,
          memref<4x128x4xf32, strided<[512, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// grouped_gemm with an f32 output (bf16 only).
func.func @grouped_d_f32(%a: memref<256x512xf8E4M3FN>,
    %sa: memref<256x4xf32, strided<[1, 256]>>, %b: memref<4x256x512xf8E4M3FN>,
    %sb: memref<4x2x4xf32>, %g: memref<256xi32>, %d: memref<256x256xf32>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op D must have element type bf16, got 'f32'}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<256x512xf8E4M3FN>,
          memref<256x4xf32, strided<[1, 256]>>, memref<4x256x512xf8E4M3FN>,
          memref<4x2x4xf32>)
      groups(%g : memref<256xi32>)
      outs(%d : memref<256x256xf32>)
  return
}

// -----

// Masked A with dynamic K.
func.func @grouped_masked_k_dynamic(%a: memref<4x128x?xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<4x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op K (dimension 2 of A) must be static}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x?xf8E4M3FN>,
          memref<4x128x4xf32, strided<[512, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// Grouped B with dynamic N.
func.func @grouped_n_dynamic(%a: memref<256x512xf8E4M3FN>,
    %sa: memref<256x4xf32, strided<[1, 256]>>, %b: memref<4x?x512xf8E4M3FN>,
    %sb: memref<4x2x4xf32>, %g: memref<256xi32>, %d: memref<256x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op N (dimension 1 of B) must be static}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<256x512xf8E4M3FN>,
          memref<256x4xf32, strided<[1, 256]>>, memref<4x?x512xf8E4M3FN>,
          memref<4x2x4xf32>)
      groups(%g : memref<256xi32>)
      outs(%d : memref<256x256xbf16>)
  return
}

// -----

// B scales with 2 groups, B with 4.
func.func @grouped_b_scale_g2(%a: memref<256x512xf8E4M3FN>,
    %sa: memref<256x4xf32, strided<[1, 256]>>, %b: memref<4x256x512xf8E4M3FN>,
    %sb: memref<2x2x4xf32>, %g: memref<256xi32>, %d: memref<256x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op B scales has G = 2 (dimension 0 of shape [2, 2, 4]) but the group count of B is 4}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<256x512xf8E4M3FN>,
          memref<256x4xf32, strided<[1, 256]>>, memref<4x256x512xf8E4M3FN>,
          memref<2x2x4xf32>)
      groups(%g : memref<256xi32>)
      outs(%d : memref<256x256xbf16>)
  return
}

// -----

// Masked A with 2 groups, B with 4.
func.func @grouped_masked_a_g2(%a: memref<2x128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<4x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op A has G = 2 (dimension 0 of shape [2, 128, 512]) but the group count of B is 4}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<2x128x512xf8E4M3FN>,
          memref<4x128x4xf32, strided<[512, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// Masked A scales with 2 groups, B with 4.
func.func @grouped_masked_a_scale_g2(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<2x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<4x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op A scales has G = 2 (dimension 0 of shape [2, 128, 4]) but the group count of B is 4}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>,
          memref<2x128x4xf32, strided<[512, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// Masked D with 2 groups, B with 4.
func.func @grouped_masked_d_g2(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<2x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op D has G = 2 (dimension 0 of shape [2, 128, 256]) but the group count of B is 4}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>,
          memref<4x128x4xf32, strided<[512, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<2x128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// Masked A scales K-major within each group.
func.func @grouped_masked_a_scale_k_major(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32>, %b: memref<4x256x512xf8E4M3FN>,
    %sb: memref<4x2x4xf32>, %g: memref<4xi32>, %d: memref<4x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op A scales must be MN-major (each K block's M scales contiguous, e.g. strided<[1, ?]>) (unit stride along dimension 1), got strides [512, 4, 1]}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>, memref<4x128x4xf32>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// Masked A scales whose columns overlap: column stride 64 < M = 128.
func.func @grouped_masked_a_scale_stride64(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[512, 1, 64]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<4x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op A scales has stride 64 along dimension 2, less than M = 128}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>,
          memref<4x128x4xf32, strided<[512, 1, 64]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// Masked A scales group stride 514 f32 = 2056 bytes, not 16-byte aligned.
func.func @grouped_masked_a_scale_group_unaligned(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[514, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<4x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op rows of A scales must be 16-byte aligned for TMA: the stride of dimension 0 is 514 elements = 2056 bytes}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>,
          memref<4x128x4xf32, strided<[514, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// Grouped B scales MN-major (must be K-block-major).
func.func @grouped_b_scale_mn_major(%a: memref<256x512xf8E4M3FN>,
    %sa: memref<256x4xf32, strided<[1, 256]>>, %b: memref<4x256x512xf8E4M3FN>,
    %sb: memref<4x2x4xf32, strided<[8, 1, 2]>>, %g: memref<256xi32>,
    %d: memref<256x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op B scales must be K-block-major (row-major [ceil(N/128), ceil(K/128)]) (unit stride along dimension 2), got strides [8, 1, 2]}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<256x512xf8E4M3FN>,
          memref<256x4xf32, strided<[1, 256]>>, memref<4x256x512xf8E4M3FN>,
          memref<4x2x4xf32, strided<[8, 1, 2]>>)
      groups(%g : memref<256xi32>)
      outs(%d : memref<256x256xbf16>)
  return
}

// -----

// masked_m of rank 2.
func.func @grouped_masked_m_rank2(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4x1xi32>,
    %d: memref<4x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op masked_m must be a ranked memref of rank 1 [G], got 'memref<4x1xi32>'}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>,
          memref<4x128x4xf32, strided<[512, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4x1xi32>)
      outs(%d : memref<4x128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// masked_m of i64.
func.func @grouped_masked_m_i64(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi64>,
    %d: memref<4x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op masked_m must have element type i32, got 'i64'}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>,
          memref<4x128x4xf32, strided<[512, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi64>)
      outs(%d : memref<4x128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// masked_m with 2 groups, B with 4.
func.func @grouped_masked_m_g2(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<2xi32>,
    %d: memref<4x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op masked_m has G = 2 (dimension 0 of shape [2]) but the group count of B is 4}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>,
          memref<4x128x4xf32, strided<[512, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<2xi32>)
      outs(%d : memref<4x128x256xbf16>)
      {m_hint = 32 : i64}
  return
}

// -----

// m_indices of rank 2.
func.func @grouped_m_indices_rank2(%a: memref<256x512xf8E4M3FN>,
    %sa: memref<256x4xf32, strided<[1, 256]>>, %b: memref<4x256x512xf8E4M3FN>,
    %sb: memref<4x2x4xf32>, %g: memref<256x1xi32>, %d: memref<256x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op m_indices must be a ranked memref of rank 1 [M_sum], got 'memref<256x1xi32>'}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<256x512xf8E4M3FN>,
          memref<256x4xf32, strided<[1, 256]>>, memref<4x256x512xf8E4M3FN>,
          memref<4x2x4xf32>)
      groups(%g : memref<256x1xi32>)
      outs(%d : memref<256x256xbf16>)
  return
}

// -----

// m_indices of i64.
func.func @grouped_m_indices_i64(%a: memref<256x512xf8E4M3FN>,
    %sa: memref<256x4xf32, strided<[1, 256]>>, %b: memref<4x256x512xf8E4M3FN>,
    %sb: memref<4x2x4xf32>, %g: memref<256xi64>, %d: memref<256x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op m_indices must have element type i32, got 'i64'}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<256x512xf8E4M3FN>,
          memref<256x4xf32, strided<[1, 256]>>, memref<4x256x512xf8E4M3FN>,
          memref<4x2x4xf32>)
      groups(%g : memref<256xi64>)
      outs(%d : memref<256x256xbf16>)
  return
}

// -----

// m_indices with 128 rows, A with 256.
func.func @grouped_m_indices_m128(%a: memref<256x512xf8E4M3FN>,
    %sa: memref<256x4xf32, strided<[1, 256]>>, %b: memref<4x256x512xf8E4M3FN>,
    %sb: memref<4x2x4xf32>, %g: memref<128xi32>, %d: memref<256x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op m_indices has M_sum = 128 (dimension 0 of shape [128]) but M_sum of A is 256}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<256x512xf8E4M3FN>,
          memref<256x4xf32, strided<[1, 256]>>, memref<4x256x512xf8E4M3FN>,
          memref<4x2x4xf32>)
      groups(%g : memref<128xi32>)
      outs(%d : memref<256x256xbf16>)
  return
}

// -----

// Contiguous A whose 200 rows are not padded to a multiple of 128.
func.func @grouped_contiguous_m200(%a: memref<200x512xf8E4M3FN>,
    %sa: memref<200x4xf32, strided<[1, 200]>>, %b: memref<4x256x512xf8E4M3FN>,
    %sb: memref<4x2x4xf32>, %g: memref<200xi32>, %d: memref<200x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op a contiguous grouped A must have a multiple of 128 rows (each group is padded to 128 rows), got 200}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<200x512xf8E4M3FN>,
          memref<200x4xf32, strided<[1, 200]>>, memref<4x256x512xf8E4M3FN>,
          memref<4x2x4xf32>)
      groups(%g : memref<200xi32>)
      outs(%d : memref<200x256xbf16>)
  return
}

// -----

// Masked m_hint of -1.
func.func @grouped_masked_m_hint_neg(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<4x128x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op m_hint must be positive, got -1}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>,
          memref<4x128x4xf32, strided<[512, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x128x256xbf16>)
      {m_hint = -1 : i64}
  return
}

// -----

// Config with block_m 256 on the contiguous layout (groups aligned to 128
// rows).
func.func @grouped_config_bm256(%a: memref<256x512xf8E4M3FN>,
    %sa: memref<256x4xf32, strided<[1, 256]>>, %b: memref<4x256x512xf8E4M3FN>,
    %sb: memref<4x2x4xf32>, %g: memref<256xi32>, %d: memref<256x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.grouped_gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: block_m = 256 is not allowed for the grouped contiguous layout (groups are aligned to 128 rows)}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous>
      ins(%a, %sa, %b, %sb : memref<256x512xf8E4M3FN>,
          memref<256x4xf32, strided<[1, 256]>>, memref<4x256x512xf8E4M3FN>,
          memref<4x2x4xf32>)
      groups(%g : memref<256xi32>)
      outs(%d : memref<256x256xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 96, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 2>}
  return
}

// -----

// Config multicasting B on the masked layout.
func.func @grouped_config_multicast_b(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<4x128x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.grouped_gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: multicast = b is only supported for the normal GEMM and the grouped contiguous layout, not the grouped masked layout}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>,
          memref<4x128x4xf32, strided<[512, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x128x256xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4,
                              cluster = 2, multicast = b, math_warpgroups = 2,
                              swizzle_group = 1, num_sms = 2>,
       m_hint = 32 : i64}
  return
}

// -----

// Config on a masked GEMM with no groups.
func.func @grouped_config_g0(%a: memref<0x128x512xf8E4M3FN>,
    %sa: memref<0x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<0x256x512xf8E4M3FN>, %sb: memref<0x2x4xf32>, %g: memref<0xi32>,
    %d: memref<0x128x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.grouped_gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: groups must be in [1, 2147483647], got 0}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<0x128x512xf8E4M3FN>,
          memref<0x128x4xf32, strided<[512, 1, 128]>>,
          memref<0x256x512xf8E4M3FN>, memref<0x2x4xf32>)
      groups(%g : memref<0xi32>)
      outs(%d : memref<0x128x256xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 2>}
  return
}

// -----

// k_grouped_gemm with the blockwise recipe.
func.func @k_grouped_blockwise_recipe(%a: memref<?xf8E4M3FN>,
    %sa: memref<?x256xf32>, %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>,
    %ks: memref<4xi32>, %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op k_grouped_gemm needs the 1x128 x 1x128 recipe (weight gradients), got #dgemm.recipe<a = 1x128, b = 128x128>}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 128x128>}
  return
}

// -----

// k_grouped_gemm without a recipe (required, no default).
func.func @k_grouped_no_recipe(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op requires attribute 'recipe'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
  return
}

// -----

// k-grouped A of rank 2.
func.func @k_grouped_a_rank2(%a: memref<256x?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op A must be a ranked memref of rank 1 (the A_g [M, k_g] stored one after another), got 'memref<256x?xf8E4M3FN>'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<256x?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped B of rank 2.
func.func @k_grouped_b_rank2(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<512x?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op B must be a ranked memref of rank 1 (the B_g [N, k_g] stored one after another), got 'memref<512x?xf8E4M3FN>'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<512x?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped A scales of rank 1.
func.func @k_grouped_a_scale_rank1(%a: memref<?xf8E4M3FN>, %sa: memref<?xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op A scales must be a ranked memref of rank 2 [sum(k_g)/128, M], got 'memref<?xf32>'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>, memref<?xf32>,
                           memref<?xf8E4M3FN>, memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped B scales of rank 3.
func.func @k_grouped_b_scale_rank3(%a: memref<?xf8E4M3FN>,
    %sa: memref<?x256xf32>, %b: memref<?xf8E4M3FN>, %sb: memref<4x?x512xf32>,
    %ks: memref<4xi32>, %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op B scales must be a ranked memref of rank 2 [sum(k_g)/128, N], got 'memref<4x?x512xf32>'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<4x?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// ks of rank 0.
func.func @k_grouped_ks_rank0(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<i32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op ks must be a ranked memref of rank 1 [G], got 'memref<i32>'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<i32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped D of rank 2.
func.func @k_grouped_d_rank2(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op D must be a ranked memref of rank 3 [G, M, N], got 'memref<256x512xf32>'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped A of bf16.
func.func @k_grouped_a_bf16(%a: memref<?xbf16>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op A must have element type f8E4M3FN or f8E5M2, got 'bf16'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xbf16>, memref<?x256xf32>,
                           memref<?xf8E4M3FN>, memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped B of f8E5M2FNUZ.
func.func @k_grouped_b_e5m2fnuz(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E5M2FNUZ>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op B must have element type f8E4M3FN or f8E5M2, got 'f8E5M2FNUZ'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E5M2FNUZ>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped A scales of f16.
func.func @k_grouped_a_scale_f16(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf16>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op A scales must have element type f32, got 'f16'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf16>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped B scales of bf16.
func.func @k_grouped_b_scale_bf16(%a: memref<?xf8E4M3FN>,
    %sa: memref<?x256xf32>, %b: memref<?xf8E4M3FN>, %sb: memref<?x512xbf16>,
    %ks: memref<4xi32>, %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op B scales must have element type f32, got 'bf16'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xbf16>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// ks of i64.
func.func @k_grouped_ks_i64(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi64>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op ks must have element type i32, got 'i64'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi64>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped D of bf16 (accumulated in place, f32 only).
func.func @k_grouped_d_bf16(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x256x512xbf16>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op D must have element type f32 (accumulated in place), got 'bf16'}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xbf16>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped D with a dynamic group count.
func.func @k_grouped_d_g_dynamic(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<?x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op G (dimension 0 of D) must be static}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<?x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped D with dynamic M.
func.func @k_grouped_d_m_dynamic(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x?x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op M (dimension 1 of D) must be static}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x?x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped D with dynamic N.
func.func @k_grouped_d_n_dynamic(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x256x?xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op N (dimension 2 of D) must be static}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x?xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// ks with 8 groups, D with 4.
func.func @k_grouped_ks_g8(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<8xi32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op ks has G = 8 (dimension 0 of shape [8]) but the group count of D is 4}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<8xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// A scales for M = 128, D with M = 256.
func.func @k_grouped_a_scale_m128(%a: memref<?xf8E4M3FN>,
    %sa: memref<?x128xf32>, %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>,
    %ks: memref<4xi32>, %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op A scales has M = 128 (dimension 1 of shape [?, 128]) but M of D is 256}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x128xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// B scales for N = 256, D with N = 512.
func.func @k_grouped_b_scale_n256(%a: memref<?xf8E4M3FN>,
    %sa: memref<?x256xf32>, %b: memref<?xf8E4M3FN>, %sb: memref<?x256xf32>,
    %ks: memref<4xi32>, %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op B scales has N = 256 (dimension 1 of shape [?, 256]) but N of D is 512}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x256xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// A and B scales with different sum(k_g)/128.
func.func @k_grouped_scale_kb_mismatch(%a: memref<?xf8E4M3FN>,
    %sa: memref<8x256xf32>, %b: memref<?xf8E4M3FN>, %sb: memref<16x512xf32>,
    %ks: memref<4xi32>, %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op B scales has sum(k_g)/128 = 16 (dimension 0 of shape [16, 512]) but sum(k_g)/128 of A scales is 8}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<8x256xf32>, memref<?xf8E4M3FN>,
                           memref<16x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// Flat A of the wrong size (256 x 1024 expected from 8 scale rows).
func.func @k_grouped_a_size(%a: memref<131072xf8E4M3FN>, %sa: memref<8x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<8x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op A has size = 131072 (dimension 0 of shape [131072]) but M x sum(k_g) from D and A scales is 262144}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<131072xf8E4M3FN>,
                           memref<8x256xf32>, memref<?xf8E4M3FN>,
                           memref<8x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// Flat B of the wrong size (512 x 1024 expected from 8 scale rows).
func.func @k_grouped_b_size(%a: memref<262144xf8E4M3FN>, %sa: memref<8x256xf32>,
    %b: memref<262144xf8E4M3FN>, %sb: memref<8x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op B has size = 262144 (dimension 0 of shape [262144]) but N x sum(k_g) from D and B scales is 524288}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<262144xf8E4M3FN>,
                           memref<8x256xf32>, memref<262144xf8E4M3FN>,
                           memref<8x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped A not contiguous.
func.func @k_grouped_a_strided(%a: memref<?xf8E4M3FN, strided<[2]>>,
    %sa: memref<?x256xf32>, %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>,
    %ks: memref<4xi32>, %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op A must be contiguous (unit stride along dimension 0), got strides [2]}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN, strided<[2]>>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped B not contiguous.
func.func @k_grouped_b_strided(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN, strided<[2]>>, %sb: memref<?x512xf32>,
    %ks: memref<4xi32>, %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op B must be contiguous (unit stride along dimension 0), got strides [2]}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN, strided<[2]>>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped A scales column-major (must be row-major [sum(k_g)/128, M]).
func.func @k_grouped_a_scale_column_major(%a: memref<?xf8E4M3FN>,
    %sa: memref<?x256xf32, strided<[1, ?]>>, %b: memref<?xf8E4M3FN>,
    %sb: memref<?x512xf32>, %ks: memref<4xi32>, %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op A scales must be MN-major (row-major [sum(k_g)/128, M]) (unit stride along dimension 1), got strides [1, ?]}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32, strided<[1, ?]>>,
                           memref<?xf8E4M3FN>, memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped A scales rows of 102 f32 = 408 bytes, not 16-byte aligned.
func.func @k_grouped_a_scale_m102(%a: memref<?xf8E4M3FN>,
    %sa: memref<?x102xf32>, %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>,
    %ks: memref<4xi32>, %d: memref<4x102x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op rows of A scales must be 16-byte aligned for TMA: the stride of dimension 0 is 102 elements = 408 bytes}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x102xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x102x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped B scales column-major (must be row-major [sum(k_g)/128, N]).
func.func @k_grouped_b_scale_column_major(%a: memref<?xf8E4M3FN>,
    %sa: memref<?x256xf32>, %b: memref<?xf8E4M3FN>,
    %sb: memref<?x512xf32, strided<[1, ?]>>, %ks: memref<4xi32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op B scales must be MN-major (row-major [sum(k_g)/128, N]) (unit stride along dimension 1), got strides [1, ?]}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32, strided<[1, ?]>>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped B scales row stride 514 f32 = 2056 bytes, not 16-byte aligned.
func.func @k_grouped_b_scale_row_unaligned(%a: memref<?xf8E4M3FN>,
    %sa: memref<?x256xf32>, %b: memref<?xf8E4M3FN>,
    %sb: memref<?x512xf32, strided<[514, 1]>>, %ks: memref<4xi32>,
    %d: memref<4x256x512xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op rows of B scales must be 16-byte aligned for TMA: the stride of dimension 0 is 514 elements = 2056 bytes}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32, strided<[514, 1]>>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped D not row-major.
func.func @k_grouped_d_column_major(%a: memref<?xf8E4M3FN>,
    %sa: memref<?x256xf32>, %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>,
    %ks: memref<4xi32>, %d: memref<4x256x512xf32, strided<[131072, 1, 256]>>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op D must be row-major (unit stride along dimension 2), got strides [131072, 1, 256]}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32, strided<[131072, 1, 256]>>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// k-grouped D rows of 102 f32 = 408 bytes, not 16-byte aligned.
func.func @k_grouped_d_n102(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x102xf32, strided<[104, 1]>>,
    %ks: memref<4xi32>, %d: memref<4x256x102xf32>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op rows of D must be 16-byte aligned for TMA: the stride of dimension 1 is 102 elements = 408 bytes}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x102xf32, strided<[104, 1]>>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x102xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// Config with 2-CTA multicast on the k-grouped GEMM.
func.func @k_grouped_config_multicast(%a: memref<?xf8E4M3FN>,
    %sa: memref<?x256xf32>, %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>,
    %ks: memref<4xi32>, %d: memref<4x256x512xf32>) {
  // expected-error-re @+1 {{'dgemm.k_grouped_gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: multicast is not supported for the k-grouped GEMM}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>,
       config = #dgemm.config<block_m = 128, block_n = 128, stages = 4,
                              cluster = 2, multicast = a, math_warpgroups = 2,
                              swizzle_group = 1, num_sms = 2>}
  return
}

// -----

// D rows overlapping: row stride 64 < N = 256.
func.func @gemm_d_rows_overlap(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16, strided<[64, 1]>>) {
  // expected-error @+1 {{'dgemm.gemm' op D must not overlap itself (it is written): the stride of dimension 0 is 64 elements, less than the 256 elements dimension 1 spans}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16, strided<[64, 1]>>)
  return
}

// -----

// C rows overlapping: row stride 128 < N = 256.
func.func @gemm_acc_rows_overlap(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %c: memref<128x256xf32, strided<[128, 1]>>,
    %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op C must not overlap itself (it is written): the stride of dimension 0 is 128 elements, less than the 256 elements dimension 1 spans}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      acc(%c : memref<128x256xf32, strided<[128, 1]>>)
      outs(%d : memref<128x256xf32>)
  return
}

// -----

// Masked D groups overlapping: group stride 256 < M x N.
func.func @grouped_masked_d_groups_overlap(%a: memref<4x128x512xf8E4M3FN>,
    %sa: memref<4x128x4xf32, strided<[512, 1, 128]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<4x128x256xbf16, strided<[256, 256, 1]>>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op D must not overlap itself (it is written): the stride of dimension 0 is 256 elements, less than the 32768 elements dimension 1 spans}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x128x512xf8E4M3FN>,
          memref<4x128x4xf32, strided<[512, 1, 128]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x128x256xbf16, strided<[256, 256, 1]>>)
      {m_hint = 32 : i64}
  return
}

// -----

// k-grouped D with every group at the same address (group stride 0).
func.func @k_grouped_d_broadcast(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>,
    %b: memref<?xf8E4M3FN>, %sb: memref<?x512xf32>, %ks: memref<4xi32>,
    %d: memref<4x256x512xf32, strided<[0, 512, 1]>>) {
  // expected-error @+1 {{'dgemm.k_grouped_gemm' op D must not overlap itself (it is written): dimension 0 has stride 0}}
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>,
                           memref<?x256xf32>, memref<?xf8E4M3FN>,
                           memref<?x512xf32>)
      ks(%ks : memref<4xi32>)
      outs(%d : memref<4x256x512xf32, strided<[0, 512, 1]>>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}

// -----

// The offsets form of the contiguous layout takes one end row per group.
func.func @offsets_len(%a: memref<512x512xf8E4M3FN>, %sa: memref<512x4xf32, strided<[1, 512]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %off: memref<512xi32>, %d: memref<512x256xbf16>) {
  // expected-error @+1 {{'dgemm.grouped_gemm' op offsets has G = 512 (dimension 0 of shape [512]) but the group count of B is 4}}
  dgemm.grouped_gemm #dgemm.grouped<contiguous_offsets> ins(%a, %sa, %b, %sb : memref<512x512xf8E4M3FN>,
      memref<512x4xf32, strided<[1, 512]>>, memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%off : memref<512xi32>) outs(%d : memref<512x256xbf16>)
  return
}

// -----

// A second tile shape on a normal GEMM (masked layout only).
func.func @gemm_config_alt(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<128x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: a second tile shape (alt_block_m) is only supported for the masked layout, not the normal GEMM}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<128x256xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 2, alt_block_m = 128, alt_block_n = 128,
                              alt_stages = 4, alt_num_sms = 2>}
  return
}

// -----

// A masked second tile shape over the register budget.
func.func @grouped_masked_alt_registers(%a: memref<4x256x512xf8E4M3FN>,
    %sa: memref<4x256x4xf32, strided<[1024, 1, 256]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<4x256x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.grouped_gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: the second tile shape (alt_block_m = 128, alt_block_n = 256, alt_stages = 3, alt_num_sms = 8): block_m = 128, block_n = 256 needs 296 registers per consumer thread, over the budget of 232}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x256x512xf8E4M3FN>,
          memref<4x256x4xf32, strided<[1024, 1, 256]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x256x256xbf16>)
      {m_hint = 256 : i64,
       config = #dgemm.config<block_m = 256, block_n = 128, stages = 3,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 8, alt_block_m = 128, alt_block_n = 256,
                              alt_stages = 3, alt_num_sms = 8>}
  return
}

// -----

// A second tile shape as large as the first.
func.func @grouped_masked_alt_block_m(%a: memref<4x256x512xf8E4M3FN>,
    %sa: memref<4x256x4xf32, strided<[1024, 1, 256]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<4x256x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.grouped_gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: alt_block_m = 128 must be below block_m = 128 with the same math warpgroups (2)}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x256x512xf8E4M3FN>,
          memref<4x256x4xf32, strided<[1024, 1, 256]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x256x256xbf16>)
      {m_hint = 256 : i64,
       config = #dgemm.config<block_m = 128, block_n = 128, stages = 3,
                              cluster = 1, multicast = none,
                              math_warpgroups = 2, swizzle_group = 1,
                              num_sms = 8, alt_block_m = 128, alt_block_n = 64,
                              alt_stages = 3, alt_num_sms = 8>}
  return
}

// -----

// A's box cut to 8 rows, but M is 20.
func.func @gemm_a_box_rows_below_m(%a: memref<20x512xf8E4M3FN>,
    %sa: memref<20x4xf32, strided<[1, 20]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %d: memref<20x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: a_box_rows = 8 serves M <= 8 only, got M = 20}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<20x512xf8E4M3FN>,
                 memref<20x4xf32, strided<[1, 20]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      outs(%d : memref<20x256xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 32, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 1, swizzle_group = 1,
                              num_sms = 8, a_box_rows = 8>}
  return
}

// -----

// A's box cut on the masked layout (normal GEMM only).
func.func @grouped_masked_a_box_rows(%a: memref<4x64x512xf8E4M3FN>,
    %sa: memref<4x64x4xf32, strided<[256, 1, 64]>>,
    %b: memref<4x256x512xf8E4M3FN>, %sb: memref<4x2x4xf32>, %g: memref<4xi32>,
    %d: memref<4x64x256xbf16>) {
  // expected-error-re @+1 {{'dgemm.grouped_gemm' op config #dgemm.config<{{.*}}> cannot run this GEMM: a_box_rows is only supported for the normal GEMM, not the grouped masked layout}}
  dgemm.grouped_gemm #dgemm.grouped<masked>
      ins(%a, %sa, %b, %sb : memref<4x64x512xf8E4M3FN>,
          memref<4x64x4xf32, strided<[256, 1, 64]>>,
          memref<4x256x512xf8E4M3FN>, memref<4x2x4xf32>)
      groups(%g : memref<4xi32>)
      outs(%d : memref<4x64x256xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 32, stages = 4,
                              cluster = 1, multicast = none,
                              math_warpgroups = 1, swizzle_group = 1,
                              num_sms = 8, a_box_rows = 8>}
  return
}

// -----

// A bias with an f32 output (it is fused into the bf16 epilogue).
func.func @gemm_bias_f32_out(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %bias: memref<256xf32>, %d: memref<128x256xf32>) {
  // expected-error @+1 {{'dgemm.gemm' op a bias needs a bf16 output D, got D of 'f32'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      bias(%bias : memref<256xf32>)
      outs(%d : memref<128x256xf32>)
  return
}

// -----

// A bf16 bias.
func.func @gemm_bias_bf16(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %bias: memref<256xbf16>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op bias must have element type f32, got 'bf16'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      bias(%bias : memref<256xbf16>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// A bias of the wrong length.
func.func @gemm_bias_length(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %bias: memref<128xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op bias has N = 128 (dimension 0 of shape [128]) but N of B is 256}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      bias(%bias : memref<128xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// A bias of rank 2 (one per output element is not a bias).
func.func @gemm_bias_rank(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %bias: memref<128x256xf32>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op bias must be a ranked memref of rank 1 [N], got 'memref<128x256xf32>'}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      bias(%bias : memref<128x256xf32>)
      outs(%d : memref<128x256xbf16>)
  return
}

// -----

// A strided bias.
func.func @gemm_bias_strided(%a: memref<128x512xf8E4M3FN>,
    %sa: memref<128x4xf32, strided<[1, 128]>>, %b: memref<256x512xf8E4M3FN>,
    %sb: memref<2x4xf32>, %bias: memref<256xf32, strided<[2]>>, %d: memref<128x256xbf16>) {
  // expected-error @+1 {{'dgemm.gemm' op bias must be contiguous (unit stride along dimension 0), got strides [2]}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<128x512xf8E4M3FN>,
                 memref<128x4xf32, strided<[1, 128]>>, memref<256x512xf8E4M3FN>,
                 memref<2x4xf32>)
      bias(%bias : memref<256xf32, strided<[2]>>)
      outs(%d : memref<128x256xbf16>)
  return
}
