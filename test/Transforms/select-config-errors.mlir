// RUN: dgemm-opt %s -split-input-file -verify-diagnostics --dgemm-select-config
// RUN: not dgemm-opt %s --dgemm-select-config="default-m-hint=0" 2>&1 | FileCheck %s --check-prefix=HINT

// RUN: not dgemm-opt %s --dgemm-select-config="max-block-m=32" 2>&1 | FileCheck %s --check-prefix=BLOCKM
// RUN: not dgemm-opt %s --dgemm-select-config="max-block-m=-5" 2>&1 | FileCheck %s --check-prefix=BLOCKM-NEG

// HINT: default-m-hint must be positive, got 0
// BLOCKM: max-block-m must be at least 64 (the smallest block M), got 32
// BLOCKM-NEG: max-block-m must be at least 64 (the smallest block M), got -5

// An M hint beyond the kernel's i32 sizes: no config can be chosen.
func.func @gemm_m_hint_too_large(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<?x4096xbf16>) {
  // expected-error @+1 {{no config can be chosen: }}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<?x4096xbf16>) {m_hint = 4294967296 : i64}
  return
}

// -----

// Too little shared memory for three stages of the smallest tile: an error,
// not an all-zero #dgemm.config (found by fuzz/gen_gemm_ops.py).
func.func @gemm_smem_too_small(%a: memref<256x7168xf8E4M3FN>, %sa: memref<256x56xf32, strided<[1, 256]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<256x4096xbf16>) {
  // expected-error @+1 {{no config fits: no tile of block M <= 256 has room for 3 pipeline stages in the 20000 bytes of shared memory per block of the target}}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<256x7168xf8E4M3FN>, memref<256x56xf32, strided<[1, 256]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<256x4096xbf16>)
      {target = #dgemm.target<"sm_90a", sms = 132, smem = 20000>}
  return
}
