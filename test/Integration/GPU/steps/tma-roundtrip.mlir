// Step 1 of building the GEMM kernel up on the GPU: a TMA round trip.
// Thread 0 loads a 64-row x 128-byte tile of `src` at (k0, m0) into shared
// memory through a tensor map passed by value (the test encodes it with
// 128-byte swizzle), waits on an mbarrier armed with the tile's bytes, and
// stores the tile to `dst` at (0, 0) through a second map. With a swizzled
// dst map the copy is exact; with an unswizzled one it shows the swizzle
// pattern (16-byte chunk c of row r at chunk c ^ (r % 8)).
// test_steps.py runs it on the GPU; here it must compile and assemble.
// RUN: rm -rf %t && dgemm-opt %s --dgemm-kernel-to-ptx --dgemm-dump-ptx=dir=%t -o /dev/null
// RUN: %python %S/../../../Target/check_ptxas.py %ptxas %t | FileCheck %s
// REQUIRES: ptxas
// CHECK: check_ptxas: 1 kernels, 0 problems
module attributes {gpu.container_module} {
gpu.module @tma_roundtrip [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">] {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @tma_roundtrip(
      %src: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 128 : i64, nvvm.grid_constant},
      %dst: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 128 : i64, nvvm.grid_constant},
      %k0: i32, %m0: i32)
      attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    // The tile takes 8 KiB; its mbarrier sits after it.
    %bar = llvm.getelementptr %smem[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bytes = arith.constant 8192 : i32
    %ticks = arith.constant 10000000 : i32
    %first = arith.cmpi eq, %tid, %c0 : i32
    scf.if %first {
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      nvvm.fence.mbarrier.init
      nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
      %d7 = llvm.addrspacecast %smem : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %src, %bar, box[%k0, %m0] : !llvm.ptr<7>, !llvm.ptr
      // Wait until the tile landed (phase 0 completes).
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      nvvm.cp.async.bulk.tensor.global.shared.cta %dst, %smem, box[%c0, %c0] : !llvm.ptr, !llvm.ptr<3>
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0
    }
    llvm.return
  }
}
}
