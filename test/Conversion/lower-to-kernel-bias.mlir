// Epilogue fusion: dgemm.gemm with a bias. The kernel (name suffix _bias)
// takes the bias's address as its seventh parameter; its launch contract
// says layout 7 with the bias as operand 4 and D as operand 5; the threads
// that store a tile add the bias to their totals just before the store
// (dgemm.add_bias), which convert-dgemm-to-nvvm turns into one vector<2xf32>
// load per 8-column group and an fadd per register. At each tile's start the
// first consumer threads prefetch the tile's bias lines into L1 (block_n / 32
// + 1 of them: thread i the line of column n0 + 32 i, clamped to N - 1), so
// that those loads hit L1. Without a bias nothing of this appears.
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel --convert-dgemm-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel --convert-dgemm-to-nvvm | grep -c 'llvm.fadd' | FileCheck %s --check-prefix=FADD
// The fadds: 2 waves x 64 registers (256x128) + 16 registers (64x32).
// FADD: {{^}}144{{$}}

// 256x128, two consumer warpgroups, two row waves: the add covers both
// waves' totals (16 groups: 16 loads, 2 waves x 64 registers).
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128_bias(
// CHECK-SAME: %arg4: !llvm.ptr<1>, %arg5: i32, %arg6: !llvm.ptr<1>)
// CHECK-SAME: layout = 7 : i64
// CHECK-SAME: kind = "tensor_map", operand = 5 : i64
// CHECK-SAME: {kind = "ptr", operand = 3 : i64}, {kind = "m"}, {kind = "ptr", operand = 4 : i64}]
// CHECK: %[[LINES:.+]] = arith.constant 5 : i32
// CHECK-NEXT: %[[MINE:.+]] = arith.cmpi ult, %[[TID:.+]], %[[LINES]] : i32
// CHECK-NEXT: scf.if %[[MINE]] {
// CHECK: %[[COL:.+]] = arith.minui %{{.+}}, %c7167_i32
// CHECK: %[[AT:.+]] = llvm.getelementptr %arg6[%{{.+}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
// CHECK-NEXT: nvvm.prefetch level = {{ *}}L1, %[[AT]] : !llvm.ptr<1>
// CHECK: %[[B:.+]]:2 = dgemm.add_bias(%{{.+}}, %{{.+}}), %arg6[%[[N0:.+]]] tid %{{.+}} {block_m = 256 : i32, block_n = 128 : i32, consumers = 2 : i32, n = 7168 : i32}
// CHECK-NEXT: dgemm.epilogue_store(%[[B]]#0, %[[B]]#1), %{{.+}}, %arg3[%[[N0]],
// NVVM-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128_bias(
// NVVM-NOT: dgemm.add_bias
// NVVM-COUNT-16: llvm.load %{{.+}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// NVVM-NOT: -> vector<2xf32>
// NVVM: llvm.return
func.func @bm256(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %bias: memref<7168xf32>,
    %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) bias(%bias : memref<7168xf32>)
      outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

// -----

// A K split over two warpgroups: warpgroup 0 joins the sums and alone adds
// the bias and stores, inside its branch.
// CHECK-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm64_bn32_s8_g1_c128_bias_ks_hbf(
// CHECK: %[[MINE:.+]] = arith.cmpi ult, %{{.+}}, %c2_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: scf.if %[[MINE]] {
// CHECK: nvvm.prefetch level = {{ *}}L1
// CHECK-NOT: nvvm.prefetch level
// CHECK: %[[B:.+]] = dgemm.add_bias(%{{.+}}), %arg6[%{{.+}}] tid %{{.+}} {block_m = 64 : i32, block_n = 32 : i32, consumers = 1 : i32, n = 4096 : i32}
// CHECK-NEXT: dgemm.epilogue_store(%[[B]])
// CHECK-NEXT: } else {
// NVVM-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm64_bn32_s8_g1_c128_bias_ks_hbf(
// NVVM-COUNT-4: llvm.load %{{.+}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// NVVM-NOT: -> vector<2xf32>
// NVVM: llvm.return
func.func @k_split(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %bias: memref<4096xf32>,
    %d: memref<?x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) bias(%bias : memref<4096xf32>)
      outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 32, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 128, stream_b = true>}
  return
}

// -----

// The same op without a bias: six parameters, no layout entry, no add.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128(
// CHECK-SAME: %arg4: !llvm.ptr<1>, %arg5: i32)
// CHECK-NOT: layout =
// CHECK-NOT: dgemm.add_bias
// CHECK-NOT: nvvm.prefetch level
// CHECK: llvm.return
func.func @no_bias(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}
