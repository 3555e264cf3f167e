// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=stage-unroll=off | FileCheck %s
// RUN: dgemm-opt %s -split-input-file "--dgemm-lower-to-kernel=consumer-registers=224 stage-unroll=off" | FileCheck %s --check-prefix=R224
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=consumer-registers=100 2>&1 | FileCheck %s --check-prefix=BADREGS
// RUN: not dgemm-opt %s --dgemm-lower-to-kernel=epilogue-swizzle=maybe 2>&1 | FileCheck %s --check-prefix=BADSWIZZLE
// RUN: dgemm-opt %s -split-input-file "--dgemm-lower-to-kernel=epilogue-swizzle=off stage-unroll=off" | FileCheck %s --check-prefix=NOSWIZZLE
// RUN: dgemm-opt %s -split-input-file "--dgemm-lower-to-kernel=epilogue-sync=warpgroup stage-unroll=off" | FileCheck %s --check-prefix=EW
// RUN: dgemm-opt %s -split-input-file "--dgemm-lower-to-kernel=epilogue-sync=warpgroup stage-unroll=off" --convert-dgemm-to-nvvm | FileCheck %s --check-prefix=EWNVVM

// epilogue-sync=warpgroup at block M 256 (not auto's choice there: _ew):
// each warpgroup stores its two row waves' 64 rows as boxes of 64 rows, so
// D's box is 64 rows high; each meets its own barrier 7 + w, and its first
// thread stores 2 waves x 2 chunks of 64 columns.
// EW-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm256_bn128_s3_g16_c132{{(_nsu)?}}_ew(
// EW-SAME: {box = [64, 64], dims = [1, 0], dtype = "bf16", kind = "tensor_map", operand = 4 : i64, swizzle = 128 : i64}
// EW: dgemm.epilogue_store
// EW-SAME: block_m = 256 : i32, block_n = 128 : i32, consumers = 2 : i32, per_warpgroup, swizzle = 128 : i32}
// EWNVVM-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm256_bn128_s3_g16_c132{{(_nsu)?}}_ew(
// EWNVVM: %[[BAR:.+]] = arith.addi %{{.+}}, %c7_i32
// EWNVVM-NEXT: nvvm.barrier id = %[[BAR]] number_of_threads = %c128_i32
// EWNVVM: %[[BAR2:.+]] = arith.addi %{{.+}}, %c7_i32
// EWNVVM-NEXT: nvvm.barrier id = %[[BAR2]] number_of_threads = %c128_i32
// EWNVVM-NOT: nvvm.barrier
// EWNVVM-COUNT-4: nvvm.cp.async.bulk.tensor.global.shared.cta
// EWNVVM-NEXT: nvvm.cp.async.bulk.commit.group

// consumer-registers overrides the split (and names the kernel after it).
// R224: llvm.func @dgemm_gemm_n7168_k16384_bm256_bn128_s3_g16_c132{{(_nsu)?}}_r224(
// R224: nvvm.setmaxregister  decrease 56
// R224: nvvm.setmaxregister  increase 224
// BADREGS: consumer-registers must be 0 or a multiple of 8 in [128, 240], got 100
// BADSWIZZLE: epilogue-swizzle must be auto, on or off, got 'maybe'
// epilogue-swizzle=off: row-major staging (one box of 128 columns); at
// K = 16384 the consumers then take 216 registers and the producer 72 (ptxas
// spilled at 232 with row-major staging).
// NOSWIZZLE-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm256_bn128_s3_g16_c132{{(_nsu)?}}_r216(
// NOSWIZZLE-SAME: {box = [128, 256], dims = [1, 0], dtype = "bf16", kind = "tensor_map", operand = 4 : i64, swizzle = 0 : i64}
// NOSWIZZLE: nvvm.setmaxregister  decrease 72
// NOSWIZZLE: nvvm.setmaxregister  increase 216
// NOSWIZZLE-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128{{(_nsu)?}}(
// NOSWIZZLE-SAME: {box = [128, 256], dims = [1, 0], dtype = "bf16", kind = "tensor_map", operand = 4 : i64, swizzle = 0 : i64}

// Block M 256 (two consumer warpgroups, two m64 row waves each): A boxes of
// 256 rows, 256 A scales per stage; per K block each consumer runs wave 0
// (its rows 64w..) and then wave 1 (128 rows further down: A tile + 16 KiB,
// A-scale rows + 128), each fenced, issued, waited for and promoted into its
// own total; the stage is released once, after the second wave's wgmmas;
// the epilogue stores both totals as one 256-row tile, staged in swizzled
// 64-column chunks; the consumers take 232 registers and the producer 40.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k16384_bm256_bn128_s3_g16_c132{{(_nsu)?}}(
// CHECK-SAME: block_m = 256 : i64, block_n = 128 : i64
// CHECK-SAME: {box = [128, 256], dims = [1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64
// CHECK-SAME: {box = [256, 1], dims = [0, 1], dtype = "f32", kind = "tensor_map", operand = 1 : i64
// CHECK-SAME: {box = [64, 256], dims = [1, 0], dtype = "bf16", kind = "tensor_map", operand = 4 : i64, swizzle = 128 : i64}
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.+}}, %c50176_i32
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: scf.for {{.*}} iter_args(%[[IT:.+]] = %{{.+}}, %[[T0:.+]] = %{{.+}}, %[[T1:.+]] = %{{.+}}) -> (i32, !llvm.struct
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[ACC0:.+]] = dgemm.wgmma_tile %[[A0:.+]], %[[B:.+]] {n = 128 : i32}
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: %[[P0:.+]] = dgemm.promote %[[T0]], %[[ACC0]] scales(%[[SA0:.+]], %[[SA1:.+]], %[[SB:.+]], %[[SB]]) former %c16_i32
// CHECK: %[[A1:.+]] = llvm.getelementptr %[[A0]][16384]
// CHECK: arith.addi %{{.+}}, %c128_i32
// CHECK: arith.addi %{{.+}}, %c128_i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[ACC1:.+]] = dgemm.wgmma_tile %[[A1]], %[[B]] {n = 128 : i32}
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive
// CHECK: %[[P1:.+]] = dgemm.promote %[[T1]], %[[ACC1]]
// CHECK: scf.yield %{{.+}}, %[[P0]], %[[P1]]
// CHECK: dgemm.epilogue_store(%[[R:.+]]#1, %[[R]]#2), {{.*}} {block_m = 256 : i32, block_n = 128 : i32, consumers = 2 : i32, swizzle = 128 : i32}
func.func @gemm_bm256(%a: memref<?x16384xf8E4M3FN>, %sa: memref<?x128xf32, strided<[1, ?]>>,
    %b: memref<7168x16384xf8E4M3FN>, %sb: memref<56x128xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x16384xf8E4M3FN>, memref<?x128xf32, strided<[1, ?]>>,
      memref<7168x16384xf8E4M3FN>, memref<56x128xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// At K <= 4096 the usual (40, 232) split (faster there) and the swizzled
// staging in 64-column chunks of 256 rows.
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128{{(_nsu)?}}(
// CHECK-SAME: {box = [64, 256], dims = [1, 0], dtype = "bf16", kind = "tensor_map", operand = 4 : i64, swizzle = 128 : i64}
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: dgemm.epilogue_store{{.*}}{block_m = 256 : i32, block_n = 128 : i32, consumers = 2 : i32, swizzle = 128 : i32}
func.func @gemm_bm256_short_k(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

