// The whole pipeline, dgemm IR to PTX, and the kernel-IR half fed the
// printed kernel IR: both give the same PTX.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dgemm-opt %s --dgemm-to-ptx --dgemm-dump-ptx=dir=%t/a -o /dev/null
// RUN: FileCheck %s --input-file=%t/a/dgemm_kernels.ptx
// RUN: FileCheck %s --check-prefix=PROMOTE --input-file=%t/a/dgemm_kernels.ptx
// RUN: FileCheck %s --check-prefix=WGMMA --input-file=%t/a/dgemm_kernels.ptx
// RUN: FileCheck %s --check-prefix=EPILOGUE --input-file=%t/a/dgemm_kernels.ptx
// RUN: dgemm-opt %s --dgemm-to-kernel | dgemm-opt --dgemm-kernel-to-ptx --dgemm-dump-ptx=dir=%t/b -o /dev/null
// RUN: diff %t/a/dgemm_kernels.ptx %t/b/dgemm_kernels.ptx

// Promotion: 128 f32 FMAs per thread per K block (block M 256, block N
// 128: two row waves of 64 registers), in each of the stage-unrolled K
// loop's 3 copies of the K block.
// PROMOTE-COUNT-384: fma.rn.f32
// PROMOTE-NOT: fma.rn.f32

// CHECK: .target sm_90a
// CHECK: .entry dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128(
// CHECK: .param .align 128 .b8 dgemm_gemm_n7168_k2048_bm256_bn128_s3_g16_c128_param_0[128]
// CHECK: .maxntid 384, 1, 1
// CHECK: .minnctapersm 1
// CHECK: mbarrier.init.shared.b64
// CHECK: setmaxnreg.dec.sync.aligned.u32 40
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK: setmaxnreg.inc.sync.aligned.u32 232
// CHECK: mbarrier.try_wait.parity.shared.b64

// The main loop's block, then the epilogue's (placed apart by the compiler):
// each of the two row waves fences, issues its four k32 steps, commits and
// waits.
// WGMMA: wgmma.fence.sync.aligned
// WGMMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// WGMMA: wgmma.commit_group.sync.aligned
// WGMMA: wgmma.wait_group.sync.aligned 0
// WGMMA: wgmma.fence.sync.aligned
// WGMMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// WGMMA: wgmma.commit_group.sync.aligned
// WGMMA: wgmma.wait_group.sync.aligned 0
// EPILOGUE: cvt.rn.bf16x2.f32
// EPILOGUE: fence.proxy.async.shared::cta
// EPILOGUE: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// EPILOGUE: cp.async.bulk.wait_group.read 0
func.func @gemm_m4096_n7168_k2048_e4m3(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>) {m_hint = 4096 : i64}
  return
}
