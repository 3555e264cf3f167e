// Step 2: one wgmma tile on random data. One warpgroup loads A (64 x 128
// e4m3, 128-byte swizzle) and B (112 x 128) with TMA, runs dgemm.wgmma_tile
// (descriptors, 4 k32 steps, scale-d zero first) between fence and
// commit/wait, and writes the f32 fragment as bf16 through
// dgemm.epilogue_store: D = A * B^T for K = 128, checking the descriptor
// arithmetic, the fragment layout and the epilogue's row/column mapping.
// Block N 112 is not a power of two on purpose.
// RUN: rm -rf %t && dgemm-opt %s --dgemm-kernel-to-ptx --dgemm-dump-ptx=dir=%t -o /dev/null
// RUN: %python %S/../../../Target/check_ptxas.py %ptxas %t | FileCheck %s
// REQUIRES: ptxas
// CHECK: check_ptxas: 1 kernels, 0 problems
!frag = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                      f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                      f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                      f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
module attributes {gpu.container_module} {
gpu.module @wgmma_tile [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">] {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma_tile(
      %mapA: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 128 : i64, nvvm.grid_constant},
      %mapB: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 128 : i64, nvvm.grid_constant},
      %mapD: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 128 : i64, nvvm.grid_constant})
      attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
    // Shared memory: A at 0 (8 KiB), B at 8192 (14 KiB), D staging at 23552
    // (64 x 112 bf16 = 14 KiB), the mbarrier at 37888.
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %tileB = llvm.getelementptr %smem[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %staging = llvm.getelementptr %smem[23552] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bar = llvm.getelementptr %smem[37888] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bytes = arith.constant 22528 : i32
    %ticks = arith.constant 10000000 : i32
    %first = arith.cmpi eq, %tid, %c0 : i32
    scf.if %first {
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      nvvm.fence.mbarrier.init
    }
    nvvm.barrier0
    scf.if %first {
      nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
      %a7 = llvm.addrspacecast %smem : !llvm.ptr<3> to !llvm.ptr<7>
      %b7 = llvm.addrspacecast %tileB : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %a7, %mapA, %bar, box[%c0, %c0] : !llvm.ptr<7>, !llvm.ptr
      nvvm.cp.async.bulk.tensor.shared.cluster.global %b7, %mapB, %bar, box[%c0, %c0] : !llvm.ptr<7>, !llvm.ptr
    }
    nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.wgmma.fence.aligned
    %acc = dgemm.wgmma_tile %smem, %tileB {n = 112 : i32} : !frag
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    dgemm.epilogue_store (%acc), %staging, %mapD[%c0, %c0] tid %tid
        {block_m = 64 : i32, block_n = 112 : i32, consumers = 1 : i32} : (!frag), !llvm.ptr
    llvm.return
  }
}
}
