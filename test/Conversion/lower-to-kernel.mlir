// RUN: dgemm-opt %s -split-input-file "--dgemm-lower-to-kernel=wgmma-parts=2 stage-unroll=off multicast-exit=barrier" | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=stage-unroll=off | FileCheck %s --check-prefix=ONE
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=stage-unroll=off | FileCheck %s --check-prefix=MCB
// RUN: dgemm-opt %s -split-input-file "--dgemm-lower-to-kernel=wgmma-parts=2 stage-unroll=off" | FileCheck %s --check-prefix=DRAIN
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=wgmma-parts=0 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=multicast-exit=never 2>&1 | FileCheck %s --check-prefix=BADEXIT
// BAD: wgmma-parts must be in [1, 8], got 0
// BADEXIT: multicast-exit must be barrier or drain, got 'never'

// By default (wgmma-parts=1), one chain over all 160 columns and one wait.
// ONE-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn160_s5_g16_c131{{(_nsu)?}}(
// ONE: nvvm.wgmma.fence.aligned
// ONE-NEXT: dgemm.wgmma_tile %{{.+}}, %{{.+}} {n = 160 : i32}
// ONE-NEXT: nvvm.wgmma.commit.group.sync.aligned
// ONE: nvvm.wgmma.wait.group.sync.aligned 0

// A configured normal GEMM becomes one kernel in gpu.module @dgemm_kernels,
// its structure visible as kernel IR; the emptied host function is removed.
// CHECK: module attributes {gpu.container_module}
// CHECK-NOT: func.func @gemm_m4096_n7168_k2048_e4m3
// CHECK: gpu.module @dgemm_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">]
// CHECK: llvm.mlir.global external @dgemm_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn160_s5_g16_c131_p2{{(_nsu)?}}(
// Tensor maps by value, then the B-scale pointer and M.
// CHECK-SAME: %[[MAPA:.+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}
// CHECK-SAME: %{{.+}}: !llvm.ptr<1>, %[[M:.+]]: i32)
// The launch contract.
// CHECK-SAME: dgemm.launch = {block = 384 : i64, block_m = 128 : i64, block_n = 160 : i64, cluster = 1 : i64, dynamic_smem = 228432 : i64, k = 2048 : i64, max_ctas = 131 : i64, n = 7168 : i64
// CHECK-SAME: {box = [128, 128], dims = [1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64, swizzle = 128 : i64}
// CHECK-SAME: {box = [128, 1], dims = [0, 1], dtype = "f32", kind = "tensor_map", operand = 1 : i64, swizzle = 0 : i64}
// CHECK-SAME: {box = [128, 160], dims = [1, 0], dtype = "u8", kind = "tensor_map", operand = 2 : i64, swizzle = 128 : i64}
// D's box: one consumer warpgroup's 64 rows (each stores its own).
// CHECK-SAME: {box = [160, 64], dims = [1, 0], dtype = "bf16", kind = "tensor_map", operand = 4 : i64, swizzle = 0 : i64}
// CHECK-SAME: {kind = "ptr", operand = 3 : i64}, {kind = "m"}]}
// CHECK-SAME: nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32
// Stage ring: 5 full barriers (1 arrival) and 5 empty ones (8 consumer warps).
// CHECK-COUNT-5: nvvm.mbarrier.init %{{.+}}, %c1_i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.barrier0
// Producer warpgroup.
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: nvvm.elect.sync
// CHECK: scf.for
// CHECK: dgemm.schedule_tile %{{.+}}, %{{.+}} {num_n_blocks = 45 : i32, swizzle_group = 16 : i32} : i32
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.+}}, %c37376_i32
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.shared.cluster.global
// Consumer warpgroups.
// CHECK: nvvm.setmaxregister increase 232
// CHECK: dgemm.schedule_tile
// The tile's B scales (b-scale-prefetch, auto at two consumers): each
// warpgroup keeps two buffers of its own, its first tile copies them, and
// every tile meets only at the warpgroup's own barrier (9 + w, 128 threads)
// before loading the next tile's scales into registers; no barrier over
// both warpgroups (test/Conversion/lower-to-kernel-b-scale-prefetch.mlir).
// CHECK-NOT: nvvm.barrier id = %c1_i32
// CHECK: scf.if
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr<3>
// CHECK: %[[SCALEBAR:.+]] = arith.addi %{{.+}}, %c9_i32
// CHECK: nvvm.barrier id = %[[SCALEBAR]] number_of_threads = %c128_i32
// CHECK: dgemm.schedule_tile
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK: llvm.mlir.zero : !llvm.struct<(f32,
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// Two wgmma chains of 80 columns (B rows 0.. and 80..), committed apart;
// promoting the first overlaps the second.
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[ACC0:.+]] = dgemm.wgmma_tile %[[A:.+]], %[[B:[^ ]+]] {n = 80 : i32} : !llvm.struct<(f32,
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: %[[B1:.+]] = llvm.getelementptr %[[B]][10240]
// CHECK-NEXT: %[[ACC1:.+]] = dgemm.wgmma_tile %[[A]], %[[B1]] {n = 80 : i32} : !llvm.struct<(f32,
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: %[[T0:.+]] = dgemm.promote %{{.+}}, %[[ACC0]] scales({{.*}}) former %{{.+}} :
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive
// CHECK: %[[T1:.+]] = dgemm.promote %{{.+}}, %[[ACC1]] scales({{.*}}) former %{{.+}} {first_group = 10 : i32}
// CHECK: dgemm.epilogue_store(%{{.+}}#1, %{{.+}}#2), %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] tid %{{.+}} {block_m = 128 : i32, block_n = 160 : i32, consumers = 2 : i32, per_warpgroup}
// Before exiting, each warpgroup's first thread waits for its last TMA
// store.
// CHECK: %[[INWG:.+]] = arith.remui %{{.+}}, %c128_i32{{.*}} : i32
// CHECK: %[[STORER:.+]] = arith.cmpi eq, %[[INWG]], %c0_i32{{.*}} : i32
// CHECK: scf.if %[[STORER]] {
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: llvm.return
func.func @gemm_m4096_n7168_k2048_e4m3(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 160, stages = 5, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 131>}
  return
}

// -----

// Block M 64: one consumer warpgroup, 256 threads, setmaxnreg (24, 240).
// Two ops with one config share one kernel. (At K = 7168 this tile would
// take the K split over two warpgroups: lower-to-kernel-k-split.mlir.)
// CHECK-LABEL: llvm.func @dgemm_gemm_n2112_k2048_bm64_bn16_s8_g1_c132{{(_nsu)?}}(
// CHECK-SAME: dgemm.launch = {block = 256 : i64
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: nvvm.setmaxregister increase 240
// CHECK: dgemm.wgmma_tile %{{.+}}, %{{.+}} {n = 16 : i32}
// CHECK-NOT: llvm.func
func.func @gemm_m64_n2112_k2048_e4m3(%a: memref<64x2048xf8E4M3FN>, %sa: memref<64x16xf32, strided<[1, 64]>>,
    %b: memref<2112x2048xf8E4M3FN>, %sb: memref<17x16xf32>, %d: memref<64x2112xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<64x2048xf8E4M3FN>, memref<64x16xf32, strided<[1, 64]>>,
      memref<2112x2048xf8E4M3FN>, memref<17x16xf32>) outs(%d : memref<64x2112xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 16, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 132>}
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<64x2048xf8E4M3FN>, memref<64x16xf32, strided<[1, 64]>>,
      memref<2112x2048xf8E4M3FN>, memref<17x16xf32>) outs(%d : memref<64x2112xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 16, stages = 8, cluster = 1, multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 132>}
  return
}

// -----

// A multicast over a 2-CTA cluster: the pair shares the M block, each CTA
// loads half of A's rows into both (mask 0b11), empty barriers count both
// CTAs' consumer warps, releases go to both CTAs through mapa, and cluster
// barriers follow the ring's initialisation and precede the exit. The remote
// arrive is a CTA-scope release (a cluster-scope one flushes every K block).
// With the default multicast-exit=drain (DRAIN) the producer waits on the
// empty barrier of each of the 5 ring slots after its last load (so no peer
// still arrives on its barriers or multicasts into it), and there is no
// cluster barrier at the end; with multicast-exit=barrier (CHECK) a cluster
// barrier ends the kernel.
// CHECK-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm128_bn128_s5_g16_c128_mca_p2{{(_nsu)?}}(
// CHECK-SAME: dgemm.launch = {block = 384 : i64, block_m = 128 : i64, block_n = 128 : i64, cluster = 2 : i64
// CHECK-SAME: {box = [128, 64], dims = [1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64, swizzle = 128 : i64}
// Block N 128 (a multiple of 64): D is staged in swizzled 64-column chunks,
// each leaving as its own box.
// CHECK-SAME: {box = [64, 64], dims = [1, 0], dtype = "bf16", kind = "tensor_map", operand = 4 : i64, swizzle = 128 : i64}
// CHECK: nvvm.mbarrier.init %{{.+}}, %c16_i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: nvvm.read.ptx.sreg.clusterid.x
// CHECK: nvvm.read.ptx.sreg.nclusterid.x
// CHECK: dgemm.schedule_tile %{{.+}}, %{{.+}} {num_n_blocks = 16 : i32, swizzle_group = 8 : i32}
// CHECK: %[[MASK:.+]] = llvm.mlir.constant(3 : i16) : i16
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg0, %{{.+}}, box[%{{.+}}, %{{.+}}] multicast_mask = %[[MASK]]
// No wait after the producer's loads (its one wait per K block comes
// before them).
// CHECK-NOT: nvvm.mbarrier.try_wait.parity
// CHECK: } else {
// CHECK: %[[REMOTE:.+]] = nvvm.mapa %{{.+}}, %{{.+}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[REMOTE]] : !llvm.ptr<7>
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: llvm.return
// DRAIN-LABEL: llvm.func @dgemm_gemm_n4096_k7168_bm128_bn128_s5_g16_c128_mca{{.*}}_dr
// DRAIN: multicast_mask
// After the producer's loops, its drain: one wait per ring slot.
// DRAIN-COUNT-5: nvvm.mbarrier.try_wait.parity
// DRAIN-NOT: nvvm.mbarrier.try_wait.parity
// DRAIN: } else {
// DRAIN: nvvm.mapa
// DRAIN-NOT: nvvm.cluster.arrive
// DRAIN: llvm.return
func.func @gemm_m4096_n4096_k7168_mca(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4096x7168xf8E4M3FN>, %sb: memref<32x56xf32>, %d: memref<?x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>, memref<?x56xf32, strided<[1, ?]>>,
      memref<4096x7168xf8E4M3FN>, memref<32x56xf32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 5, cluster = 2, multicast = a, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}

// -----

// B multicast over a 2-CTA cluster (normal GEMM): the pair shares the N
// block and takes neighbouring M blocks (M block 2u + rank), each CTA loads
// half of B's rows (box 80 of 160) into both (mask 0b11) and its own A
// tile whole; the ring is shared as with A multicast (empty barriers count
// both CTAs' consumer warps, releases go to both through mapa). The units:
// ceil(M blocks / 2) x N blocks (an odd last M block pairs with one past M).
// CHECK-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn160_s5_g16_c132_mcb_p2{{(_nsu)?}}(
// CHECK-SAME: dgemm.launch = {block = 384 : i64, block_m = 128 : i64, block_n = 160 : i64, cluster = 2 : i64
// CHECK-SAME: {box = [128, 128], dims = [1, 0], dtype = "u8", kind = "tensor_map", operand = 0 : i64, swizzle = 128 : i64}
// CHECK-SAME: {box = [128, 80], dims = [1, 0], dtype = "u8", kind = "tensor_map", operand = 2 : i64, swizzle = 128 : i64}
// CHECK: nvvm.mbarrier.init %{{.+}}, %c16_i32
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: %[[MB:.+]] = arith.divui %{{.+}}, %c2_i32
// CHECK: %[[UNITS:.+]] = arith.muli %[[MB]], %c45_i32
// CHECK: %[[RANK:.+]] = nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: %[[MU:.+]], %[[NB:.+]] = dgemm.schedule_tile %{{.+}}, %[[MB]] {num_n_blocks = 45 : i32, swizzle_group = 16 : i32}
// CHECK: %[[M2:.+]] = arith.muli %[[MU]], %c2_i32
// CHECK: arith.addi %[[M2]], %[[RANK]]
// CHECK: %[[MASK:.+]] = llvm.mlir.constant(3 : i16) : i16
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg2, %{{.+}}, box[%{{.+}}, %{{.+}}] multicast_mask = %[[MASK]]
// CHECK: %[[REMOTE:.+]] = nvvm.mapa %{{.+}}, %{{.+}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[REMOTE]] : !llvm.ptr<7>
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: llvm.return
// Only B's load multicasts.
// MCB-LABEL: llvm.func @dgemm_gemm_n7168_k2048_bm128_bn160_s5_g16_c132_mcb
// MCB-COUNT-1: multicast_mask
// MCB-NOT: multicast_mask
// MCB: llvm.return
func.func @gemm_m4096_n7168_k2048_mcb(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<7168x2048xf8E4M3FN>, %sb: memref<56x16xf32>, %d: memref<?x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<7168x2048xf8E4M3FN>, memref<56x16xf32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 160, stages = 5, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// K = 2048 <= 4096 and block N a multiple of 64: D is staged in 64-column
// chunks with 128-byte swizzle and leaves as 64-column boxes.
// CHECK-LABEL: llvm.func @dgemm_gemm_n4096_k2048_bm128_bn128_s5_g16_c128_p2{{(_nsu)?}}(
// CHECK-SAME: {box = [64, 64], dims = [1, 0], dtype = "bf16", kind = "tensor_map", operand = 4 : i64, swizzle = 128 : i64}
// CHECK: dgemm.epilogue_store
// CHECK-SAME: per_warpgroup, swizzle = 128 : i32
func.func @gemm_m4096_n4096_k2048_swizzled_epilogue(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<4096x2048xf8E4M3FN>, %sb: memref<32x16xf32>, %d: memref<?x4096xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>, memref<?x16xf32, strided<[1, ?]>>,
      memref<4096x2048xf8E4M3FN>, memref<32x16xf32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 128, stages = 5, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>}
  return
}
