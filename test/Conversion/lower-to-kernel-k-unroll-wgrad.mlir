// RUN: dgemm-opt %s --dgemm-lower-to-kernel | FileCheck %s
// RUN: dgemm-opt %s --dgemm-lower-to-kernel=k-unroll=1 | FileCheck %s --check-prefix=ONE

// The weight-gradient GEMM (1x128 B scales, f32 D accumulated) at 128x128
// runs its K blocks in pairs like the normal GEMM: both blocks' wgmma
// chains issued, then each block waited for, its columns' B scales read
// from its stage, the stage released and the block promoted with
// dgemm.promote_cols. So does the k-grouped kernel, whose tile loop starts
// at %ctaid.x and steps by %nctaid.x read in place (inline PTX).
// CHECK-LABEL: llvm.func @dgemm_gemm_n2048_k4096_bm128_bn128_s4_g16_c128_sb1x128_f32_acc(
// CHECK: %[[END:.+]] = arith.andi %{{.+}}, %c-2_i32 : i32
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[END]] step %c2_i32{{.*}} iter_args(%{{.+}} = %{{.+}}, %[[T:.+]] = %{{.+}})
// CHECK: %[[A0:.+]] = dgemm.wgmma_tile
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK: %[[A1:.+]] = dgemm.wgmma_tile
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: llvm.load %{{.+}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
// CHECK: nvvm.mbarrier.arrive
// CHECK: %[[P0:.+]] = dgemm.promote_cols %[[T]], %[[A0]]
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive
// CHECK: %[[P1:.+]] = dgemm.promote_cols %[[P0]], %[[A1]]
// CHECK: scf.yield %{{.+}}, %[[P1]]
// CHECK-LABEL: llvm.func @dgemm_k_grouped_m2048_g4_n2048_bm128_bn128_s4_g16_c128_sb1x128_f32_acc(
// CHECK: llvm.inline_asm has_side_effects "mov.u32 $0, %ctaid.x;"
// CHECK: llvm.inline_asm has_side_effects "mov.u32 $0, %nctaid.x;"
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c2_i32
// CHECK: dgemm.wgmma_tile
// CHECK: dgemm.wgmma_tile
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: dgemm.promote_cols
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: dgemm.promote_cols
// CHECK: llvm.return
// ONE-LABEL: llvm.func @dgemm_gemm_n2048_k4096_bm128_bn128_s4_g16_c128_sb1x128_f32_acc(
// ONE-NOT: step %c2_i32
// ONE: llvm.return
func.func @wgrad(%a: memref<7168x4096xf8E4M3FN>, %sa: memref<7168x32xf32, strided<[1, 7168]>>,
    %b: memref<2048x4096xf8E4M3FN>, %sb: memref<2048x32xf32, strided<[1, 2048]>>,
    %d: memref<7168x2048xf32>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<7168x4096xf8E4M3FN>, memref<7168x32xf32, strided<[1, 7168]>>,
      memref<2048x4096xf8E4M3FN>, memref<2048x32xf32, strided<[1, 2048]>>)
      acc(%d : memref<7168x2048xf32>) outs(%d : memref<7168x2048xf32>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>, recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}
func.func @k_grouped(%a: memref<?xf8E4M3FN>, %sa: memref<?x2048xf32>, %b: memref<?xf8E4M3FN>,
    %sb: memref<?x2048xf32>, %g: memref<4xi32>, %d: memref<4x2048x2048xf32>) {
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>, memref<?x2048xf32>, memref<?xf8E4M3FN>, memref<?x2048xf32>)
      ks(%g : memref<4xi32>) outs(%d : memref<4x2048x2048xf32>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>, recipe = #dgemm.recipe<a = 1x128, b = 1x128>}
  return
}
