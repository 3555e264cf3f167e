// RUN: dgemm-opt %s -split-input-file -verify-diagnostics

// The verifiers of the kernel-level ops (what dgemm-lower-to-kernel writes
// and a user may edit before convert-dgemm-to-nvvm).

!frag8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @rows_ld_small(%t: !frag8, %d: !llvm.ptr<1>, %r: i32, %c: i32, %tid: i32) {
  // expected-error @+1 {{ld must be even and at least 2 (bf16 pairs), got 7}}
  dgemm.epilogue_store_rows (%t), %d rows %r cols %c tid %tid {ld = 7 : i32, block_m = 64 : i32, block_n = 16 : i32, consumers = 1 : i32} : (!frag8), !llvm.ptr<1>
  llvm.return
}

// -----

!frag8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @rows_block_m(%t: !frag8, %d: !llvm.ptr<1>, %r: i32, %c: i32, %tid: i32) {
  // expected-error @+1 {{block_m must be 64 or 128 per consumer warpgroup, got block_m = 192 with 1 consumers}}
  dgemm.epilogue_store_rows (%t), %d rows %r cols %c tid %tid {ld = 16 : i32, block_m = 192 : i32, block_n = 16 : i32, consumers = 1 : i32} : (!frag8), !llvm.ptr<1>
  llvm.return
}

// -----

// Per warpgroup stores whole tiles by TMA: not with rows (the masked layout).
!frag8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @store_per_warpgroup_rows(%t: !frag8, %u: !frag8, %s: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %g: i32, %tid: i32, %r: i32, %d: !llvm.ptr<1>, %mm: i32) {
  // expected-error @+1 {{per_warpgroup stores whole tiles by TMA: it cannot go with rows}}
  dgemm.epilogue_store (%t, %u), %s, %map[%n0, %m0, %g] tid %tid rows %r at %d[%mm] : !llvm.ptr<1> {block_m = 256 : i32, block_n = 16 : i32, consumers = 2 : i32, ld = 16 : i32, per_warpgroup} : (!frag8, !frag8), !llvm.ptr
  llvm.return
}

// -----

// Block M 256 with two consumers: two row waves, so an even number of totals.
!frag8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @store_row_waves(%t: !frag8, %s: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32) {
  // expected-error @+1 {{block_m = 256 with 2 consumers needs the totals of 2 row waves (a multiple of 2 fragments), got 1}}
  dgemm.epilogue_store (%t), %s, %map[%n0, %m0] tid %tid {block_m = 256 : i32, block_n = 16 : i32, consumers = 2 : i32} : (!frag8), !llvm.ptr
  llvm.return
}

// -----

!frag8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @rows_fragment(%t: !frag8, %d: !llvm.ptr<1>, %r: i32, %c: i32, %tid: i32) {
  // expected-error @+1 {{each of the 1 totals must be a struct of 16 f32}}
  dgemm.epilogue_store_rows (%t), %d rows %r cols %c tid %tid {ld = 64 : i32, block_m = 64 : i32, block_n = 32 : i32, consumers = 1 : i32} : (!frag8), !llvm.ptr<1>
  llvm.return
}

// -----

!frag8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @store_swizzle(%t: !frag8, %s: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32) {
  // expected-error @+1 {{swizzle must be 0, or 128 with block_n a multiple of 64, got swizzle = 128 with block_n = 16}}
  dgemm.epilogue_store (%t), %s, %map[%n0, %m0] tid %tid {block_m = 64 : i32, block_n = 16 : i32, consumers = 1 : i32, swizzle = 128 : i32} : (!frag8), !llvm.ptr
  llvm.return
}

// -----

llvm.func @schedule(%t: i32, %m: i32) {
  // expected-error @+1 {{num_n_blocks and swizzle_group must be positive, got 0 and 16}}
  %a, %b = dgemm.schedule_tile %t, %m {num_n_blocks = 0 : i32, swizzle_group = 16 : i32} : i32
  llvm.return
}

// -----

!frag8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @promote_cols_pairs(%t: !frag8, %acc: !frag8, %s: f32, %p: vector<2xf32>) -> !frag8 {
  // expected-error @+1 {{needs one B-scale pair per 8-column group: 2 for}}
  %r = dgemm.promote_cols %t, %acc scales(%s, %s) columns(%p : vector<2xf32>) : !frag8
  llvm.return %r : !frag8
}

// -----

!frag32 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                        f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @reduce_needs_f32(%t: !frag32, %s: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32) {
  // expected-error @+1 {{reduce_add needs an f32 output (f32)}}
  dgemm.epilogue_store (%t), %s, %map[%n0, %m0] tid %tid {block_m = 64 : i32, block_n = 64 : i32, consumers = 1 : i32, reduce_add} : (!frag32), !llvm.ptr
  llvm.return
}

// -----

!frag32 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                        f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @policy_not_reduce(%t: !frag32, %s: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32, %p: i64) {
  // expected-error @+1 {{d_policy is for TMA stores, not reduce_add}}
  dgemm.epilogue_store (%t), %s, %map[%n0, %m0] tid %tid policy %p {block_m = 64 : i32, block_n = 64 : i32, consumers = 1 : i32, f32, reduce_add} : (!frag32), !llvm.ptr
  llvm.return
}

// -----

!frag20 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @f32_swizzle_chunks(%t: !frag20, %s: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32) {
  // expected-error @+1 {{swizzle must be 0, or 128 with block_n a multiple of 32, got swizzle = 128 with block_n = 40}}
  dgemm.epilogue_store (%t), %s, %map[%n0, %m0] tid %tid {block_m = 64 : i32, block_n = 40 : i32, consumers = 1 : i32, swizzle = 128 : i32, f32} : (!frag20), !llvm.ptr
  llvm.return
}

// -----

// The staged row copy writes 16-byte pieces: ld a multiple of 8.
!frag8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @store_rows_ld(%t: !frag8, %s: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %g: i32, %tid: i32, %r: i32, %d: !llvm.ptr<1>, %mm: i32) {
  // expected-error @+1 {{with rows, ld must be a positive multiple of 8 (rows of 16-byte pieces), got 12}}
  dgemm.epilogue_store (%t), %s, %map[%n0, %m0, %g] tid %tid rows %r at %d[%mm] : !llvm.ptr<1> {block_m = 64 : i32, block_n = 16 : i32, consumers = 1 : i32, ld = 12 : i32} : (!frag8), !llvm.ptr
  llvm.return
}

// -----

// A row copy needs the group (D is [G, m_max, ld]).
!frag8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @store_rows_group(%t: !frag8, %s: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32, %r: i32, %d: !llvm.ptr<1>, %mm: i32) {
  // expected-error @+1 {{rows needs a group (D is [G, m_max, ld])}}
  dgemm.epilogue_store (%t), %s, %map[%n0, %m0] tid %tid rows %r at %d[%mm] : !llvm.ptr<1> {block_m = 64 : i32, block_n = 16 : i32, consumers = 1 : i32, ld = 16 : i32} : (!frag8), !llvm.ptr
  llvm.return
}

// -----

// Rows are copied as bf16.
!frag8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @store_rows_f32(%t: !frag8, %s: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %g: i32, %tid: i32, %r: i32, %d: !llvm.ptr<1>, %mm: i32) {
  // expected-error @+1 {{rows is for bf16 stores (not f32, not reduce_add)}}
  dgemm.epilogue_store (%t), %s, %map[%n0, %m0, %g] tid %tid rows %r at %d[%mm] : !llvm.ptr<1> {block_m = 64 : i32, block_n = 16 : i32, consumers = 1 : i32, ld = 16 : i32, f32} : (!frag8), !llvm.ptr
  llvm.return
}

// -----

!frag32 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                        f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @stmatrix_needs_bf16(%t: !frag32, %s: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32) {
  // expected-error @+1 {{stmatrix stores 16-bit elements: it needs a bf16 output (not f32)}}
  dgemm.epilogue_store (%t), %s, %map[%n0, %m0] tid %tid {block_m = 64 : i32, block_n = 64 : i32, consumers = 1 : i32, f32, stmatrix} : (!frag32), !llvm.ptr
  llvm.return
}

// -----

!frag8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @add_bias_odd_n(%t: !frag8, %bias: !llvm.ptr<1>, %n0: i32, %tid: i32) {
  // expected-error @+1 {{n must be even and at least 2 (f32 pairs), got 7}}
  %r = dgemm.add_bias (%t), %bias[%n0] tid %tid {n = 7 : i32, block_m = 64 : i32, block_n = 16 : i32, consumers = 1 : i32} : (!frag8), !llvm.ptr<1>
  llvm.return
}

// -----

!frag8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @add_bias_fragment(%t: !frag8, %bias: !llvm.ptr<1>, %n0: i32, %tid: i32) {
  // expected-error @+1 {{each of the 1 totals must be a struct of 16 f32, got '!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>'}}
  %r = dgemm.add_bias (%t), %bias[%n0] tid %tid {n = 256 : i32, block_m = 64 : i32, block_n = 32 : i32, consumers = 1 : i32} : (!frag8), !llvm.ptr<1>
  llvm.return
}
