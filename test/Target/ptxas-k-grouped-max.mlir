// The k-grouped kernel at its group limit (3984): the group table (two
// template maps and 8 bytes per group: 32128), three maps and three
// addresses take 32536 bytes of parameters, the most the H200's driver was
// seen to load; ptxas assembles it for sm_90a without spills, with the
// tensor maps written on the device (tensormap.replace, the tensormap
// proxy fences).
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: dgemm-opt %s --dgemm-to-ptx --dgemm-dump-ptx=dir=%t/ptx -o /dev/null
// RUN: %python %S/check_ptxas.py %ptxas %t/ptx | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t/ptx/dgemm_kernels.ptx
// CHECK: kernel dgemm_k_grouped_m256_g3984_n384_{{.*}}_sb1x128_f32_acc
// CHECK: check_ptxas: 1 kernels, 0 problems
// PTX: .param .align 128 .b8 {{.*}}_param_0[32128]
// PTX: tensormap.replace.tile.global_address.global.b1024.b64
// PTX: tensormap.replace.tile.global_stride.global.b1024.b64
// PTX: fence.proxy.tensormap::generic.release.gpu;
// PTX: fence.proxy.tensormap::generic.acquire.gpu [{{.+}}], 128;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global
func.func @k_grouped_3984(%a: memref<?xf8E4M3FN>, %sa: memref<?x256xf32>, %b: memref<?xf8E4M3FN>,
    %sb: memref<?x384xf32>, %ks: memref<3984xi32>, %d: memref<3984x256x384xf32>) {
  dgemm.k_grouped_gemm ins(%a, %sa, %b, %sb : memref<?xf8E4M3FN>, memref<?x256xf32>,
      memref<?xf8E4M3FN>, memref<?x384xf32>) ks(%ks : memref<3984xi32>) outs(%d : memref<3984x256x384xf32>)
      {recipe = #dgemm.recipe<a = 1x128, b = 1x128>,
       config = #dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 4, num_sms = 132>}
  return
}
