// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=group-prefetch=on | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --dgemm-lower-to-kernel | FileCheck %s --check-prefix=AUTO
// RUN: dgemm-opt %s -split-input-file "--dgemm-lower-to-kernel=group-prefetch=on b-scale-prefetch=on" | FileCheck %s --check-prefix=BP
// RUN: not dgemm-opt %s -split-input-file --dgemm-lower-to-kernel=group-prefetch=yes 2>&1 | FileCheck %s --check-prefix=BAD

// group-prefetch=on (contiguous layout, m_indices): the groups of a CTA's
// first tile are read before its tile loop, and each tile reads those of
// the CTA's next tile (t + step; rows past M read as -1, so a look past
// the last tile stays in bounds) at its start and carries them to it; the
// tile itself uses the carried ones. Both roles walk the same way.
// With B multicast both blocks of the pair are read and carried.
// CHECK-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr_gp{{(_nsu)?}}(
// CHECK-SAME: %[[M:[a-z0-9]+]]: i32, %[[IDX:[a-z0-9]+]]: !llvm.ptr<1>)
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: dgemm.schedule_tile %[[FIRST:[0-9]+]],
// CHECK: arith.cmpi ult, %{{.+}}, %[[M]] : i32
// CHECK: %[[RAW0:.+]] = llvm.load %{{.+}} : !llvm.ptr<1> -> i32
// CHECK: %[[P0:.+]] = arith.select %{{.+}}, %[[RAW0]], %c-1_i32
// CHECK: arith.cmpi ult, %{{.+}}, %[[M]] : i32
// CHECK: %[[RAW1:.+]] = llvm.load %{{.+}} : !llvm.ptr<1> -> i32
// CHECK: %[[P1:.+]] = arith.select %{{.+}}, %[[RAW1]], %c-1_i32
// CHECK: scf.for %[[T:.+]] = %[[FIRST]] to %{{.+}} step %[[STEP:[0-9]+]] iter_args(%[[IT:.+]] = %{{.+}}, %[[G0:.+]] = %[[P0]], %[[G1:.+]] = %[[P1]]) -> (i32, i32, i32)
// CHECK: dgemm.schedule_tile %[[T]],
// CHECK: %[[NEXT:.+]] = arith.addi %[[T]], %[[STEP]] : i32
// CHECK: dgemm.schedule_tile %[[NEXT]],
// CHECK: %[[N0:.+]] = arith.select %{{.+}}, %{{.+}}, %c-1_i32
// CHECK: %[[N1:.+]] = arith.select %{{.+}}, %{{.+}}, %c-1_i32
// CHECK: %[[OWN:.+]] = arith.select %{{.+}}, %[[G0]], %[[G1]] : i32
// CHECK: scf.if %{{.+}} -> (i32) {
// CHECK: arith.cmpi eq, %[[G0]], %[[G1]] : i32
// CHECK: scf.yield %{{.+}}, %[[N0]], %[[N1]] : i32, i32, i32
// CHECK: nvvm.setmaxregister increase 232
// CHECK: scf.for %{{.+}} iter_args(%{{.+}}, %{{.+}}, %{{.+}}) -> (i32, i32, i32)
// With b-scale-prefetch as well: the walk also carries whether the CTA's
// last tile (t - step) ran. Each consumer thread waits for its cp.async
// copies of the last tile (into this tile's buffer), copies the tile's
// scales itself where no tile prefetched them, and meets its warpgroup's
// barrier 9 + w; after the K loop it copies the next tile's scales (its N
// block and group from the walk) into the other buffer with cp.async,
// which land during the epilogue; before the thread exits it waits for
// the last ones.
// BP-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr_bp_gp{{(_nsu)?}}(
// BP: nvvm.setmaxregister increase 232
// BP: scf.for %{{.+}} iter_args(%{{.+}}, %{{.+}}, %{{.+}}, %[[RAN:.+]] = %false) -> (i32, i32, i32, i1)
// BP: nvvm.cp.async.wait.group 0
// BP: %[[NONE:.+]] = arith.xori %[[RAN]], %true
// BP: scf.if %[[NONE]] {
// BP: llvm.load
// BP: llvm.store
// BP: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// BP: dgemm.schedule_tile
// BP: arith.maxsi %{{.+}}, %c0_i32
// BP: nvvm.cp.async.shared.global %{{.+}}, %{{.+}}, 4, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// BP: nvvm.cp.async.commit.group
// BP: dgemm.epilogue_store
// BP: scf.yield %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : i32, i32, i32, i1
// BP: nvvm.cp.async.wait.group 0
// AUTO-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n4096_k7168_bm128_bn192_s4_g16_c132_mcb_dr{{(_nsu)?}}(
// AUTO-NOT: _gp
// AUTO: scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (i32)
func.func @contiguous_multicast_b(%a: memref<?x7168xf8E4M3FN>, %sa: memref<?x56xf32, strided<[1, ?]>>,
    %b: memref<4x4096x7168xf8E4M3FN>, %sb: memref<4x32x56xf32>, %mi: memref<?xi32>, %d: memref<?x4096xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x7168xf8E4M3FN>,
      memref<?x56xf32, strided<[1, ?]>>, memref<4x4096x7168xf8E4M3FN>, memref<4x32x56xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x4096xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, multicast = b, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// Without a cluster: one group per tile, carried the same way.
// CHECK-LABEL: llvm.func @dgemm_grouped_contiguous_g4_n7168_k2048_bm128_bn192_s4_g16_c132_gp{{(_nsu)?}}(
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: %[[P:.+]] = arith.select %{{.+}}, %{{.+}}, %c-1_i32
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %[[STEP:[0-9]+]] iter_args(%{{.+}} = %{{.+}}, %[[G:.+]] = %[[P]]) -> (i32, i32)
// CHECK: arith.addi %[[T]], %[[STEP]] : i32
// CHECK: %[[N:.+]] = arith.select %{{.+}}, %{{.+}}, %c-1_i32
// CHECK: arith.cmpi sge, %[[G]], %c0_i32
// CHECK: scf.yield %{{.+}}, %[[N]] : i32, i32
func.func @contiguous(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<4x7168x2048xf8E4M3FN>, %sb: memref<4x56x16xf32>, %mi: memref<?xi32>, %d: memref<?x7168xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>,
      memref<?x16xf32, strided<[1, ?]>>, memref<4x7168x2048xf8E4M3FN>, memref<4x56x16xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// -----

// The offsets form walks the offsets copy in shared memory: no prefetch,
// whatever the option says.
// CHECK-LABEL: llvm.func @dgemm_grouped_contiguous_offsets_g4_n7168_k2048_bm128_bn192_s4_g16_c132{{(_nsu)?}}(
// CHECK-NOT: _gp
// CHECK: scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (i32)
func.func @offsets(%a: memref<?x2048xf8E4M3FN>, %sa: memref<?x16xf32, strided<[1, ?]>>,
    %b: memref<4x7168x2048xf8E4M3FN>, %sb: memref<4x56x16xf32>, %off: memref<4xi32>, %d: memref<?x7168xbf16>) {
  dgemm.grouped_gemm #dgemm.grouped<contiguous_offsets> ins(%a, %sa, %b, %sb : memref<?x2048xf8E4M3FN>,
      memref<?x16xf32, strided<[1, ?]>>, memref<4x7168x2048xf8E4M3FN>, memref<4x56x16xf32>)
      groups(%off : memref<4xi32>) outs(%d : memref<?x7168xbf16>)
      {config = #dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 1, multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 132>}
  return
}

// BAD: group-prefetch must be auto, on or off, got 'yes'
