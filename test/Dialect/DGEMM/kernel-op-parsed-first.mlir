// RUN: dgemm-opt %s -verify-diagnostics
// A kernel-level op parsed before anything in the input loads the LLVM
// dialect: its operands' types (shared-memory pointers) are LLVM types the
// parser builds, so the dgemm dialect loads the LLVM dialect with itself.
// Found by dgemm-fuzz-ir (a segfault in the type uniquer before the fix):
// now the parser's own errors.
func.func @wgmma_tile_first() {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %acc = dgemm.wgmma_tile %a, %b {n = 8 : i32} : i32
  return
}
