// Epilogue fusion: dgemm.gemm with a bias. The kernel (name suffix _bias)
// takes the bias's address as its seventh parameter; its launch contract
// says layout 7 with the bias as operand 4 and D as operand 5; the threads
// that store a tile add the bias to their totals just before the store
// (dgemm.add_bias), which convert-dgemm-to-nvvm turns into one vector<2xf32>
// load per 8-column group and an fadd per register. Where the target's
// shared memory has room, the bias is staged: at each tile's start every
// consumer thread loads one pair of the tile's columns (thread i of its
// warpgroup the pair at n0 + 2 i, i clamped to block_n / 2 - 1, the column
// to N - 2), and after the K loop the warpgroup's first block_n / 2 threads
// store their pairs into its buffer (4 * block_n bytes past the B-scale
// buffers), meet at named barrier 11 + w, and the add reads the buffer
// (columns from 0, n = block_n). Without room (a target with less shared
// memory than the config could use), the add reads the bias vector itself and
// the first consumer threads prefetch the tile's bias lines into L1 at its
// start (block_n / 32 + 1 of them: thread i the line of column n0 + 32 i,
// clamped to N - 1). Without a bias nothing of this appears.
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel --convert-dgemm-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel --convert-dgemm-to-nvvm | grep -c 'llvm.fadd' | FileCheck %s --check-prefix=FADD
// The fadds: 2 waves x 64 registers (256x128) + 16 registers (64x32) + 96
// registers (128x192).
// FADD: {{^}}240{{$}}

// 256x128, two consumer warpgroups, two row waves, staged: the add covers
// both waves' totals (16 groups: 16 loads from the buffer, 2 waves x 64
// registers); the kernel needs 2 x 512 bytes more shared memory than
// without a bias (217264 against 216240 below).
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128_bias(
// CHECK-SAME: %arg4: !llvm.ptr<1>, %arg5: i32, %arg6: !llvm.ptr<1>)
// CHECK-SAME: dynamic_smem = 217264
// CHECK-SAME: layout = 7 : i64
// CHECK-SAME: kind = "tensor_map", operand = 5 : i64
// CHECK-SAME: {kind = "ptr", operand = 3 : i64}, {kind = "m"}, {kind = "ptr", operand = 4 : i64}]
// CHECK-NOT: nvvm.prefetch level
// CHECK: %[[LASTPAIR:.+]] = arith.constant 63 : i32
// CHECK-NEXT: %[[PAIR:.+]] = arith.minui %{{.+}}, %[[LASTPAIR]] : i32
// CHECK: %[[COL:.+]] = arith.minui %{{.+}}, %c7166_i32 : i32
// CHECK: %[[AT:.+]] = llvm.getelementptr %arg6[%{{.+}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %[[V:.+]] = llvm.load %[[AT]] {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK: wgmma
// CHECK: %[[FIRST:.+]] = arith.cmpi ult, %{{.+}}, %c64_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: llvm.store %[[V]], %{{.+}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: %[[ELEVEN:.+]] = arith.constant 11 : i32
// CHECK-NEXT: %[[ID:.+]] = arith.addi %{{.+}}, %[[ELEVEN]] : i32
// CHECK-NEXT: %[[N128:.+]] = arith.constant 128 : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID]] number_of_threads = %[[N128]]
// CHECK: %[[B:.+]]:2 = dgemm.add_bias(%{{.+}}, %{{.+}}), %{{.+}}[%c0_i32{{(_[0-9]+)?}}] tid %{{.+}} {block_m = 256 : i32, block_n = 128 : i32, consumers = 2 : i32, n = 128 : i32} : ({{.+}}), <3>
// CHECK-NEXT: dgemm.epilogue_store(%[[B]]#0, %[[B]]#1), %{{.+}}, %arg3[
// NVVM-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128_bias(
// NVVM-NOT: dgemm.add_bias
// NVVM: llvm.load %{{.+}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// NVVM-COUNT-16: llvm.load %{{.+}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
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

// A K split over two warpgroups, staged: each warpgroup stores its pairs
// (block_n / 2 = 16 threads) and meets at its own barrier; warpgroup 0
// joins the sums and alone adds the bias from its buffer and stores, inside
// its branch.
// CHECK-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm64_bn32_s8_g1_c128_bias_ks_hbf(
// CHECK-SAME: dynamic_smem = 105280
// CHECK-NOT: nvvm.prefetch level
// CHECK: arith.cmpi ult, %{{.+}}, %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: %[[B:.+]] = dgemm.add_bias(%{{.+}}), %{{.+}}[%c0_i32{{(_[0-9]+)?}}] tid %{{.+}} {block_m = 64 : i32, block_n = 32 : i32, consumers = 1 : i32, n = 32 : i32} : ({{.+}}), <3>
// CHECK-NEXT: dgemm.epilogue_store(%[[B]])
// CHECK-NEXT: } else {
// NVVM-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm64_bn32_s8_g1_c128_bias_ks_hbf(
// NVVM: llvm.load %{{.+}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// NVVM-COUNT-4: llvm.load %{{.+}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
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

// 128x192 with two consumer warpgroups on a target with just the room the
// config needs (216256 bytes): the bias buffers (2 x 768 bytes) do not fit,
// so the add reads the bias vector (24 loads) and the first 7 consumer
// threads (192 / 32 + 1) prefetch the tile's bias lines into L1.
// CHECK-LABEL: llvm.func @dgemm_gemm_n32768_k512_bm128_bn192_s4_g16_c131_bias(
// CHECK-SAME: dynamic_smem = 215232
// CHECK: %[[LINES:.+]] = arith.constant 7 : i32
// CHECK-NEXT: %[[MINE:.+]] = arith.cmpi ult, %[[TID:.+]], %[[LINES]] : i32
// CHECK-NEXT: scf.if %[[MINE]] {
// CHECK: %[[COL:.+]] = arith.minui %{{.+}}, %c32767_i32
// CHECK: %[[AT:.+]] = llvm.getelementptr %arg6[%{{.+}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
// CHECK-NEXT: nvvm.prefetch level = {{ *}}L1, %[[AT]] : !llvm.ptr<1>
// CHECK-NOT: nvvm.prefetch level
// CHECK-NOT: vector<2xf32>, !llvm.ptr<3>
// CHECK: %[[B:.+]] = dgemm.add_bias(%{{.+}}), %arg6[%[[N0:.+]]] tid %{{.+}} {block_m = 128 : i32, block_n = 192 : i32, consumers = 2 : i32, n = 32768 : i32}
// CHECK-NEXT: dgemm.epilogue_store(%[[B]]), %{{.+}}, %arg3[%[[N0]],
// NVVM-LABEL: llvm.func @dgemm_gemm_n32768_k512_bm128_bn192_s4_g16_c131_bias(
// NVVM-COUNT-24: llvm.load %{{.+}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// NVVM-NOT: -> vector<2xf32>
// NVVM: llvm.return
func.func @no_room(%a: memref<?x512xf8E4M3FN>, %sa: memref<?x4xf32, strided<[1, ?]>>,
    %b: memref<32768x512xf8E4M3FN>, %sb: memref<256x4xf32>, %bias: memref<32768xf32>,
    %d: memref<?x32768xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x512xf8E4M3FN>, memref<?x4xf32, strided<[1, ?]>>,
      memref<32768x512xf8E4M3FN>, memref<256x4xf32>) bias(%bias : memref<32768xf32>)
      outs(%d : memref<?x32768xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>,
       target = #dgemm.target<"sm_90a", sms = 132, smem = 216256>}
  return
}

// -----

// The same op without a bias: six parameters, no layout entry, no add.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128(
// CHECK-SAME: %arg4: !llvm.ptr<1>, %arg5: i32)
// CHECK-SAME: dynamic_smem = 216240
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
