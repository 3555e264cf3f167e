// RUN: dgemm-opt %s -split-input-file --convert-dgemm-to-nvvm | FileCheck %s
// RUN: dgemm-opt %s -split-input-file --convert-dgemm-to-nvvm | FileCheck %s --check-prefix=STORES
// RUN: dgemm-opt %s -split-input-file --convert-dgemm-to-nvvm | FileCheck %s --check-prefix=ROWS

// The tile scheduler: groups of 16 N blocks, N fastest inside a group.
// CHECK-LABEL: llvm.func @schedule_tile
// CHECK-NOT: dgemm.schedule_tile
// CHECK: %[[PER:.+]] = arith.muli %{{.+}}, %c16_i32
// CHECK: %[[GROUP:.+]] = arith.divui %arg0, %[[PER]]
// CHECK: %[[FIRST:.+]] = arith.muli %[[GROUP]], %c16_i32
// CHECK: %[[LEFT:.+]] = arith.subi %c56_i32, %[[FIRST]]
// CHECK: %[[WIDTH:.+]] = arith.minui %[[LEFT]], %c16_i32
// CHECK: %[[R:.+]] = arith.remui %arg0, %[[PER]]
// CHECK: %[[MB:.+]] = arith.divui %[[R]], %[[WIDTH]]
// CHECK: %[[NIN:.+]] = arith.remui %[[R]], %[[WIDTH]]
// CHECK: %[[NB:.+]] = arith.addi %[[FIRST]], %[[NIN]]
// CHECK: llvm.insertvalue %[[MB]]
// CHECK: llvm.insertvalue %[[NB]]
gpu.module @k {
llvm.func @schedule_tile(%t: i32, %mb: i32) -> !llvm.struct<(i32, i32)> {
  %m, %n = dgemm.schedule_tile %t, %mb {num_n_blocks = 56 : i32, swizzle_group = 16 : i32} : i32
  %u = llvm.mlir.undef : !llvm.struct<(i32, i32)>
  %s0 = llvm.insertvalue %m, %u[0] : !llvm.struct<(i32, i32)>
  %s1 = llvm.insertvalue %n, %s0[1] : !llvm.struct<(i32, i32)>
  llvm.return %s1 : !llvm.struct<(i32, i32)>
}
}

// -----

// along_m: groups of 8 M blocks (a group is 8 x 22 tiles), M fastest.
// CHECK-LABEL: llvm.func @schedule_tile_along_m
// CHECK-NOT: dgemm.schedule_tile
// CHECK: %[[GROUP:.+]] = arith.divui %arg0, %c176_i32
// CHECK: %[[FIRST:.+]] = arith.muli %[[GROUP]], %c8_i32
// CHECK: %[[LEFT:.+]] = arith.subi %arg1, %[[FIRST]]
// CHECK: %[[WIDTH:.+]] = arith.minui %[[LEFT]], %c8_i32
// CHECK: %[[R:.+]] = arith.remui %arg0, %c176_i32
// CHECK: %[[MIN:.+]] = arith.remui %[[R]], %[[WIDTH]]
// CHECK: %[[MB:.+]] = arith.addi %[[FIRST]], %[[MIN]]
// CHECK: %[[NB:.+]] = arith.divui %[[R]], %[[WIDTH]]
// CHECK: llvm.insertvalue %[[MB]]
// CHECK: llvm.insertvalue %[[NB]]
gpu.module @k {
llvm.func @schedule_tile_along_m(%t: i32, %mb: i32) -> !llvm.struct<(i32, i32)> {
  %m, %n = dgemm.schedule_tile %t, %mb {num_n_blocks = 22 : i32, swizzle_group = 8 : i32, along_m} : i32
  %u = llvm.mlir.undef : !llvm.struct<(i32, i32)>
  %s0 = llvm.insertvalue %m, %u[0] : !llvm.struct<(i32, i32)>
  %s1 = llvm.insertvalue %n, %s0[1] : !llvm.struct<(i32, i32)>
  llvm.return %s1 : !llvm.struct<(i32, i32)>
}
}

// -----

// A wgmma tile: descriptors from the shared addresses, four k32 steps, the
// first zeroing the accumulator (scale-d zero), K steps of +2 (32 bytes)
// added to the 32-bit start address; the low word carries the leading byte
// offset (65536), the high word is a constant (swizzle 128B, stride 1024 B).
// CHECK-LABEL: llvm.func @wgmma_tile
// CHECK-NOT: dgemm.wgmma_tile
// CHECK-DAG: %[[TWO:.+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[HI:.+]] = llvm.mlir.constant(4611686293305294848 : i64) : i64
// CHECK-DAG: %[[LBO:.+]] = llvm.mlir.constant(65536 : i32) : i32
// CHECK-DAG: %[[U:.+]] = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-DAG: %[[MASK:.+]] = llvm.mlir.constant(262143 : i32) : i32
// CHECK: %[[PA:.+]] = llvm.ptrtoint %arg0 : !llvm.ptr<3> to i32
// CHECK: %[[MA:.+]] = llvm.and %[[PA]], %[[MASK]]
// CHECK: %[[SA:.+]] = llvm.lshr %[[MA]]
// CHECK: %[[PB:.+]] = llvm.ptrtoint %arg1 : !llvm.ptr<3> to i32
// CHECK: %[[SB:.+]] = llvm.lshr
// CHECK: %[[LA:.+]] = llvm.or %[[SA]], %[[LBO]] : i32
// CHECK: %[[WA:.+]] = llvm.zext %[[LA]] : i32 to i64
// CHECK: %[[DA:.+]] = llvm.or %[[WA]], %[[HI]] : i64
// CHECK: %[[LB:.+]] = llvm.or %[[SB]], %[[LBO]] : i32
// CHECK: %[[WB:.+]] = llvm.zext %[[LB]] : i32 to i64
// CHECK: %[[DB:.+]] = llvm.or %[[WB]], %[[HI]] : i64
// CHECK: %[[A0:.+]] = nvvm.wgmma.mma_async %[[DA]], %[[DB]], %[[U]], <m = 64, n = 16, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK: %[[SA1:.+]] = llvm.add %[[SA]], %[[TWO]] : i32
// CHECK: llvm.or %[[SA1]], %[[LBO]] : i32
// CHECK: %[[SB1:.+]] = llvm.add %[[SB]], %[[TWO]] : i32
// CHECK: %[[A1:.+]] = nvvm.wgmma.mma_async %{{.+}}, %{{.+}}, %[[A0]], <m = 64, n = 16, k = 32>, D[<f32>, <one>]
// CHECK: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK: %[[A3:.+]] = nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK: llvm.return %[[A3]]
gpu.module @k {
llvm.func @wgmma_tile(%a: !llvm.ptr<3>, %b: !llvm.ptr<3>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> {
  %acc = dgemm.wgmma_tile %a, %b {n = 16 : i32} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return %acc : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
}
}

// -----

// Promotion: per 8-column group j one B scale (sb0 before `former`), rows r0
// (registers 4j, 4j+1) and r0 + 8 (4j+2, 4j+3) with their A scales.
// CHECK-LABEL: llvm.func @promote
// CHECK-NOT: dgemm.promote
// CHECK: %[[FIRST0:.+]] = arith.cmpi ugt, %arg6, %c0_i32
// CHECK: %[[SB0:.+]] = arith.select %[[FIRST0]], %arg4, %arg5
// CHECK: %[[S00:.+]] = arith.mulf %arg2, %[[SB0]]
// CHECK: %[[S01:.+]] = arith.mulf %arg3, %[[SB0]]
// CHECK: %[[X0:.+]] = llvm.extractvalue %arg1[0]
// CHECK-NEXT: %[[T0:.+]] = llvm.extractvalue %arg0[0]
// CHECK: llvm.intr.fma(%[[X0]], %[[S00]], %[[T0]])
// CHECK: llvm.intr.fma(%{{.+}}, %[[S00]], %{{.+}})
// CHECK: llvm.intr.fma(%{{.+}}, %[[S01]], %{{.+}})
// CHECK: llvm.intr.fma(%{{.+}}, %[[S01]], %{{.+}})
// CHECK: %[[FIRST1:.+]] = arith.cmpi ugt, %arg6, %c1_i32
// CHECK-COUNT-4: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
gpu.module @k {
llvm.func @promote(%t: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>,
    %sa0: f32, %sa1: f32, %sb0: f32, %sb1: f32, %former: i32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> {
  %r = dgemm.promote %t, %acc scales(%sa0, %sa1, %sb0, %sb1) former %former : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
}
}

// -----

// Promotion over three B-scale blocks (block N not a multiple of 64): group
// j takes sb0 before `former`, sb1 before `former` + 16, sb2 after.
// CHECK-LABEL: llvm.func @promote_three
// CHECK-NOT: dgemm.promote
// CHECK: %[[SECOND:.+]] = arith.addi %arg7, %c16_i32
// CHECK: %[[THIRD0:.+]] = arith.cmpi ule, %[[SECOND]], %c0_i32
// CHECK: %[[SB:.+]] = arith.select %[[THIRD0]], %arg6, %arg5
// CHECK: %[[FIRST0:.+]] = arith.cmpi ugt, %arg7, %c0_i32
// CHECK: %[[SB0:.+]] = arith.select %[[FIRST0]], %arg4, %[[SB]]
// CHECK: arith.mulf %arg2, %[[SB0]]
// CHECK-COUNT-4: llvm.intr.fma
// CHECK: arith.cmpi ule, %[[SECOND]], %c1_i32
// CHECK-COUNT-4: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
gpu.module @k {
llvm.func @promote_three(%t: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>,
    %sa0: f32, %sa1: f32, %sb0: f32, %sb1: f32, %sb2: f32, %former: i32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> {
  %r = dgemm.promote %t, %acc scales(%sa0, %sa1, %sb0, %sb1, %sb2) former %former : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
}
}

// -----

// Epilogue: thread 0 waits until the previous tile's store read the staging
// tile, barrier, bf16x2 packs stored to the staging tile, async-proxy fence,
// named barrier 1 over the consumers, thread 0 stores the tile with TMA and
// commits without waiting (the store drains during the next tile).
// CHECK-LABEL: llvm.func @epilogue
// CHECK-NOT: dgemm.epilogue_store
// CHECK: scf.if
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
// CHECK: llvm.fptrunc %{{.+}} : vector<2xf32> to vector<2xbf16>
// CHECK: llvm.bitcast %{{.+}} : vector<2xbf16> to i32
// CHECK: llvm.store %{{.+}}, %{{.+}} : i32, !llvm.ptr<3>
// CHECK-COUNT-3: llvm.store %{{.+}}, %{{.+}} : i32, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
// CHECK: scf.if
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2, %arg1, box[%arg3, %arg4]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: }
// CHECK-NEXT: llvm.return
gpu.module @k {
llvm.func @epilogue(%t: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %staging: !llvm.ptr<3>, %map: !llvm.ptr,
    %n0: i32, %m0: i32, %tid: i32) {
  dgemm.epilogue_store (%t), %staging, %map[%n0, %m0] tid %tid {block_m = 64 : i32, block_n = 16 : i32, consumers = 1 : i32} : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>), !llvm.ptr
  llvm.return
}
}

// -----

// Swizzled epilogue (block N 128, a multiple of 64): the 16-byte piece of
// each pair goes to piece (j % 8) ^ (lane / 4) of its 128-byte row, chunks
// of 64 columns are block_m * 128 bytes apart, and the tile leaves as two
// 64-column boxes.
// (Piece 0 ^ lane/4 folds to lane/4.)
// CHECK-LABEL: llvm.func @epilogue_swizzled
// CHECK: %[[LROW:.+]] = arith.divui %{{.+}}, %c4_i32
// CHECK: nvvm.barrier id = %c1_i32
// CHECK: arith.muli %{{.+}}, %c128_i32
// CHECK: arith.muli %[[LROW]], %c16_i32
// CHECK: arith.xori %[[LROW]], %c1_i32
// CHECK: arith.xori %[[LROW]], %c7_i32
// CHECK: arith.addi %{{.+}}, %c8192_i32
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2, %arg1, box[%arg3, %arg4]
// CHECK: %[[SRC1:.+]] = llvm.getelementptr %arg1[8192]
// CHECK: %[[N1:.+]] = arith.addi %arg3, %c64_i32
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2, %[[SRC1]], box[%[[N1]], %arg4]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// 16 column groups x 2 rows: 32 stores of bf16 pairs.
// STORES-LABEL: llvm.func @epilogue_swizzled
// STORES-COUNT-32: llvm.store %{{.+}}, %{{.+}} : i32, !llvm.ptr<3>
// STORES-NOT: llvm.store
!frag64 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                        f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                        f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                        f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
gpu.module @k {
llvm.func @epilogue_swizzled(%t: !frag64, %staging: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32) {
  dgemm.epilogue_store (%t), %staging, %map[%n0, %m0] tid %tid {block_m = 64 : i32, block_n = 128 : i32, consumers = 1 : i32, swizzle = 128 : i32} : (!frag64), !llvm.ptr
  llvm.return
}
}

// -----

// Row-predicated epilogue (masked layout): no shared memory and no barrier;
// each bf16 pair is stored to global memory when its row is below `rows`
// and its column below `cols`, at byte offset (row * ld + col) * 2 in i64.
// CHECK-LABEL: llvm.func @epilogue_rows
// CHECK-NOT: nvvm.barrier
// CHECK: %[[R0:.+]] = arith.addi %{{.+}}, %{{.+}} : i32
// CHECK: %[[R1:.+]] = arith.addi %[[R0]], %c8_i32
// CHECK: %[[OK0:.+]] = arith.cmpi ult, %[[R0]], %arg2
// CHECK: %[[OK1:.+]] = arith.cmpi ult, %[[R1]], %arg2
// CHECK: arith.muli %{{.+}}, %c4096_i64 : i64
// CHECK: %[[C:.+]] = arith.cmpi ult, %{{.+}}, %arg3
// CHECK: %[[P:.+]] = arith.andi %[[OK0]], %[[C]]
// CHECK: scf.if %[[P]] {
// CHECK: llvm.fptrunc %{{.+}} : vector<2xf32> to vector<2xbf16>
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: arith.andi %[[OK1]], %[[C]]
// CHECK-NOT: nvvm.barrier
// CHECK-NOT: llvm.store %{{.+}} : i32, !llvm.ptr<3>
// 2 column groups x 2 rows: 4 predicated stores.
// ROWS-LABEL: llvm.func @epilogue_rows
// ROWS-COUNT-4: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// ROWS-NOT: llvm.store
// (Ends the STORES check of the function before.)
// STORES-LABEL: llvm.func @epilogue_rows
gpu.module @k {
llvm.func @epilogue_rows(%t: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %d: !llvm.ptr<1>,
    %rows: i32, %cols: i32, %tid: i32) {
  dgemm.epilogue_store_rows (%t), %d rows %rows cols %cols tid %tid {ld = 4096 : i32, block_m = 64 : i32, block_n = 16 : i32, consumers = 1 : i32} : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>), !llvm.ptr<1>
  llvm.return
}
}

// -----

// With a group operand, the TMA store has 3-D coordinates (n0, m0, group).
// CHECK-LABEL: llvm.func @epilogue_group
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2, %arg1, box[%arg3, %arg4, %arg6]
// ROWS-LABEL: llvm.func @epilogue_group
// STORES-LABEL: llvm.func @epilogue_group
gpu.module @k {
llvm.func @epilogue_group(%t: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %staging: !llvm.ptr<3>, %map: !llvm.ptr,
    %n0: i32, %m0: i32, %tid: i32, %g: i32) {
  dgemm.epilogue_store (%t), %staging, %map[%n0, %m0, %g] tid %tid {block_m = 64 : i32, block_n = 16 : i32, consumers = 1 : i32} : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>), !llvm.ptr
  llvm.return
}
}

// -----

// Row waves (block M 256 with two consumers): the second total holds the
// rows 128 further down. Staged row-major, its pairs go 128 rows * 16
// columns * 2 bytes = 4096 bytes past the first total's, and one TMA store
// takes the 256-row tile; stored by row, its rows are row + 128, compared
// with `rows` like the first total's.
// CHECK-LABEL: llvm.func @epilogue_row_waves
// CHECK-COUNT-4: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: llvm.extractvalue %arg1[0]
// CHECK: arith.addi %{{.+}}, %c4096_i32 : i32
// CHECK-COUNT-4: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK-NOT: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg3, %arg2, box[%arg4, %arg5]
// CHECK: %[[R0:.+]] = arith.addi %{{.+}}, %{{.+}} : i32
// CHECK: %[[R1:.+]] = arith.addi %[[R0]], %c8_i32
// CHECK-COUNT-4: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: %[[W0:.+]] = arith.addi %[[R0]], %c128_i32
// CHECK: %[[W1:.+]] = arith.addi %[[R1]], %c128_i32
// CHECK: arith.cmpi ult, %[[W0]], %arg8
// CHECK: arith.cmpi ult, %[[W1]], %arg8
// CHECK: llvm.extractvalue %arg1[0]
// CHECK-COUNT-4: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// ROWS-LABEL: llvm.func @epilogue_row_waves
// STORES-LABEL: llvm.func @epilogue_row_waves
gpu.module @k {
llvm.func @epilogue_row_waves(%t: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %u: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %staging: !llvm.ptr<3>, %map: !llvm.ptr,
    %n0: i32, %m0: i32, %tid: i32, %d: !llvm.ptr<1>, %rows: i32, %cols: i32) {
  dgemm.epilogue_store (%t, %u), %staging, %map[%n0, %m0] tid %tid {block_m = 256 : i32, block_n = 16 : i32, consumers = 2 : i32} : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>), !llvm.ptr
  dgemm.epilogue_store_rows (%t, %u), %d rows %rows cols %cols tid %tid {ld = 4096 : i32, block_m = 256 : i32, block_n = 16 : i32, consumers = 2 : i32} : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>), !llvm.ptr<1>
  llvm.return
}
}

// -----

// Promotion with a B scale per column (1x128 recipe): register 4j + q is
// scaled by sa0 (q < 2) or sa1 times element q % 2 of pair j.
// CHECK-LABEL: llvm.func @promote_cols
// CHECK-NOT: dgemm.promote_cols
// CHECK: %[[C0:.+]] = llvm.extractelement %arg4[%{{.+}} : i32] : vector<2xf32>
// CHECK: %[[C1:.+]] = llvm.extractelement %arg4[%{{.+}} : i32] : vector<2xf32>
// CHECK: %[[S00:.+]] = arith.mulf %arg2, %[[C0]]
// CHECK: %[[A0:.+]] = llvm.extractvalue %arg1[0]
// CHECK: %[[T0:.+]] = llvm.extractvalue %arg0[0]
// CHECK: llvm.intr.fma(%[[A0]], %[[S00]], %[[T0]])
// CHECK: %[[S01:.+]] = arith.mulf %arg2, %[[C1]]
// CHECK: %[[S10:.+]] = arith.mulf %arg3, %[[C0]]
// CHECK: %[[S11:.+]] = arith.mulf %arg3, %[[C1]]
// CHECK: llvm.extractelement %arg5
// CHECK-COUNT-4: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
gpu.module @k {
llvm.func @promote_cols(%t: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>,
    %sa0: f32, %sa1: f32, %p0: vector<2xf32>, %p1: vector<2xf32>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> {
  %r = dgemm.promote_cols %t, %acc scales(%sa0, %sa1) columns(%p0, %p1 : vector<2xf32>, vector<2xf32>) : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
}
}

// -----

// f32 epilogue, swizzled 32-column chunks, added into D: 8 column groups x
// 2 rows of f32 pairs (8-byte stores), two 32-column boxes reduce-added.
// A lane with an odd lane / 4 (its row within 8) stores group j ^ 2 where
// the others store group j (free of bank conflicts per half-warp): its
// piece index is XORed with 4 more, and the first store (group 0, row 0)
// takes fields 8-9 (group 2) in those lanes, fields 0-1 in the others.
// CHECK-LABEL: llvm.func @epilogue_f32_reduce
// CHECK-NOT: llvm.fptrunc
// CHECK: %[[LR:.+]] = arith.divui %{{.+}}, %c4_i32 : i32
// CHECK: %[[ODD:.+]] = arith.andi %[[LR]], %c1_i32 : i32
// CHECK: %[[ODD4:.+]] = arith.muli %[[ODD]], %c4_i32 : i32
// CHECK: %[[PROW:.+]] = arith.xori %[[LR]], %[[ODD4]] : i32
// CHECK: %[[ISODD:.+]] = arith.cmpi ne, %[[ODD]], %c0_i32 : i32
// CHECK: llvm.extractvalue %arg0[0]
// CHECK: llvm.extractvalue %arg0[1]
// CHECK: %[[G0:.+]] = llvm.insertelement %{{.+}}[%{{.+}} : i32] : vector<2xf32>
// CHECK: llvm.extractvalue %arg0[8]
// CHECK: llvm.extractvalue %arg0[9]
// CHECK: %[[G2:.+]] = llvm.insertelement %{{.+}}[%{{.+}} : i32] : vector<2xf32>
// CHECK: %[[V:.+]] = arith.select %[[ISODD]], %[[G2]], %[[G0]] : vector<2xf32>
// CHECK: arith.xori %[[PROW]], %{{.+}} : i32
// CHECK: llvm.store %[[V]], %{{.+}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK-COUNT-15: llvm.store %{{.+}}, %{{.+}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.cp.async.bulk.tensor.reduce %arg2, %arg1, box[%arg3, %arg4] {redKind = #nvvm.tma_redux_kind<add>}
// CHECK: %[[SRC1:.+]] = llvm.getelementptr %arg1[8192]
// CHECK: %[[N1:.+]] = arith.addi %arg3, %c32_i32
// CHECK: nvvm.cp.async.bulk.tensor.reduce %arg2, %[[SRC1]], box[%[[N1]], %arg4] {redKind = #nvvm.tma_redux_kind<add>}
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
!frag32 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                        f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
gpu.module @k {
llvm.func @epilogue_f32_reduce(%t: !frag32, %staging: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32) {
  dgemm.epilogue_store (%t), %staging, %map[%n0, %m0] tid %tid {block_m = 64 : i32, block_n = 64 : i32, consumers = 1 : i32, swizzle = 128 : i32, f32, reduce_add} : (!frag32), !llvm.ptr
  llvm.return
}
}

// -----

// Per warpgroup: warpgroup w (tid / 128) waits for its own earlier stores
// (its first thread), meets named barrier 7 + w of 128 threads, and its
// first thread reduce-adds its 64 rows: 64 * 128 bytes into the chunk, at
// row m0 + 64w.
// CHECK-LABEL: llvm.func @epilogue_per_warpgroup
// CHECK: %[[INWG:.+]] = arith.remui %arg5, %c128_i32 : i32
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[INWG]], %c0_i32 : i32
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: %[[WG:.+]] = arith.divui %arg5, %c128_i32 : i32
// CHECK: %[[ID:.+]] = arith.addi %[[WG]], %c7_i32 : i32
// CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %c128_i32
// CHECK-COUNT-8: llvm.store %{{.+}}, %{{.+}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy
// CHECK: %[[ID2:.+]] = arith.addi %{{.+}}, %c7_i32 : i32
// CHECK: nvvm.barrier id = %[[ID2]] number_of_threads = %c128_i32
// CHECK: scf.if %[[FIRST]] {
// CHECK: %[[W:.+]] = arith.divui %arg5, %c128_i32 : i32
// CHECK: %[[OFF:.+]] = arith.muli %[[W]], %c8192_i32 : i32
// CHECK: %[[SRC:.+]] = llvm.getelementptr %arg1[%[[OFF]]]
// CHECK: %[[WROWS:.+]] = arith.muli %[[W]], %c64_i32 : i32
// CHECK: %[[M0:.+]] = arith.addi %arg4, %[[WROWS]] : i32
// CHECK: nvvm.cp.async.bulk.tensor.reduce %arg2, %[[SRC]], box[%arg3, %[[M0]]] {redKind = #nvvm.tma_redux_kind<add>}
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NOT: nvvm.barrier id = %c1_i32
// ROWS-LABEL: llvm.func @epilogue_per_warpgroup
// STORES-LABEL: llvm.func @epilogue_per_warpgroup
!frag16 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
gpu.module @k {
llvm.func @epilogue_per_warpgroup(%t: !frag16, %staging: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32) {
  dgemm.epilogue_store (%t), %staging, %map[%n0, %m0] tid %tid {block_m = 128 : i32, block_n = 32 : i32, consumers = 2 : i32, swizzle = 128 : i32, f32, reduce_add, per_warpgroup} : (!frag16), !llvm.ptr
  llvm.return
}
}

// -----

// stmatrix staging (row-major, block N 24: one .x4 for groups 0-1, one .x2
// for group 2). Lane l addresses row 16 * warp + 8 * ((l / 8) & 1) + l % 8
// of the tile at group 2p + l / 16 (2p for .x2): (row * 24 + 8g) * 2 bytes.
// Sources: the bf16 packs of fields (0, 1), (2, 3), (4, 5), (6, 7), then
// (8, 9), (10, 11).
// CHECK-LABEL: llvm.func @epilogue_stmatrix
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
// CHECK: %[[WARP:.+]] = arith.divui %arg5, %c32_i32
// CHECK: %[[LANE:.+]] = arith.remui %arg5, %c32_i32
// CHECK: %[[L8:.+]] = arith.remui %[[LANE]], %c8_i32
// CHECK: %[[Q:.+]] = arith.divui %[[LANE]], %c8_i32
// CHECK: %[[HALF:.+]] = arith.andi %[[Q]], %c1_i32
// CHECK: %[[SECOND:.+]] = arith.divui %[[LANE]], %c16_i32
// CHECK: %[[W16:.+]] = arith.muli %[[WARP]], %c16_i32
// CHECK: %[[H8:.+]] = arith.muli %[[HALF]], %c8_i32
// CHECK: %[[R:.+]] = arith.addi %[[H8]], %[[L8]]
// CHECK: %[[ROW:.+]] = arith.addi %[[W16]], %[[R]]
// CHECK: %[[BASE2:.+]] = arith.muli %[[ROW]], %c48_i32
// CHECK: %[[S16:.+]] = arith.muli %[[SECOND]], %c16_i32
// CHECK: %[[BASE4:.+]] = arith.addi %[[BASE2]], %[[S16]]
// CHECK: %[[P0:.+]] = llvm.getelementptr %arg1[%[[BASE4]]]
// CHECK: llvm.extractvalue %arg0[0]
// CHECK: llvm.extractvalue %arg0[1]
// CHECK: %[[S0:.+]] = llvm.bitcast
// CHECK: llvm.extractvalue %arg0[2]
// CHECK: llvm.extractvalue %arg0[3]
// CHECK: %[[S1:.+]] = llvm.bitcast
// CHECK: llvm.extractvalue %arg0[4]
// CHECK: llvm.extractvalue %arg0[5]
// CHECK: %[[S2:.+]] = llvm.bitcast
// CHECK: llvm.extractvalue %arg0[6]
// CHECK: llvm.extractvalue %arg0[7]
// CHECK: %[[S3:.+]] = llvm.bitcast
// CHECK: nvvm.stmatrix %[[P0]], %[[S0]], %[[S1]], %[[S2]], %[[S3]] {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK: %[[O1:.+]] = arith.addi %[[BASE2]], %c32_i32
// CHECK: %[[P1:.+]] = llvm.getelementptr %arg1[%[[O1]]]
// CHECK: llvm.extractvalue %arg0[8]
// CHECK: llvm.extractvalue %arg0[9]
// CHECK: %[[S4:.+]] = llvm.bitcast
// CHECK: llvm.extractvalue %arg0[10]
// CHECK: llvm.extractvalue %arg0[11]
// CHECK: %[[S5:.+]] = llvm.bitcast
// CHECK: nvvm.stmatrix %[[P1]], %[[S4]], %[[S5]] {{.+}} : !llvm.ptr<3>, i32, i32
// CHECK-NOT: nvvm.stmatrix
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2, %arg1, box[%arg3, %arg4]
// STORES-LABEL: llvm.func @epilogue_stmatrix
// STORES-NOT: llvm.store
!frag12 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
gpu.module @k {
llvm.func @epilogue_stmatrix(%t: !frag12, %staging: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32) {
  dgemm.epilogue_store (%t), %staging, %map[%n0, %m0] tid %tid {block_m = 64 : i32, block_n = 24 : i32, consumers = 1 : i32, stmatrix} : (!frag12), !llvm.ptr
  llvm.return
}
}

// -----

// stmatrix staging, swizzled (block N 128): pair p's piece is
// (2p % 8) ^ (l / 16) ^ (l % 8) of the row's 128 bytes, XORed per p as
// (2p % 8) * 16 into the lane's ((l / 16) ^ (l % 8)) * 16; pairs 4-7 (groups
// 8-15) are one chunk of block_m * 128 = 8192 bytes further.
// CHECK-LABEL: llvm.func @epilogue_stmatrix_swizzled
// CHECK: %[[LANE:.+]] = arith.remui %arg5, %c32_i32
// CHECK: %[[L8:.+]] = arith.remui %[[LANE]], %c8_i32
// CHECK: %[[SECOND:.+]] = arith.divui %[[LANE]], %c16_i32
// CHECK: %[[ROWB:.+]] = arith.muli %{{.+}}, %c128_i32
// CHECK: %[[X:.+]] = arith.xori %[[SECOND]], %[[L8]]
// CHECK: %[[PIECE:.+]] = arith.muli %[[X]], %c16_i32
// CHECK: %[[O0:.+]] = arith.addi %[[ROWB]], %[[PIECE]]
// CHECK: %[[P0:.+]] = llvm.getelementptr %arg1[%[[O0]]]
// CHECK: nvvm.stmatrix %[[P0]],
// CHECK: %[[X1:.+]] = arith.xori %[[PIECE]], %c32_i32
// CHECK: arith.addi %[[ROWB]], %[[X1]]
// CHECK: nvvm.stmatrix
// CHECK: arith.xori %[[PIECE]], %c64_i32
// CHECK: nvvm.stmatrix
// CHECK: arith.xori %[[PIECE]], %c96_i32
// CHECK: nvvm.stmatrix
// CHECK: %[[O4:.+]] = arith.addi %[[ROWB]], %[[PIECE]]
// CHECK: arith.addi %[[O4]], %c8192_i32
// CHECK: nvvm.stmatrix
// CHECK: %[[X5:.+]] = arith.xori %[[PIECE]], %c32_i32
// CHECK: %[[O5:.+]] = arith.addi %[[ROWB]], %[[X5]]
// CHECK: arith.addi %[[O5]], %c8192_i32
// CHECK-COUNT-3: nvvm.stmatrix {{.+}} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK-NOT: nvvm.stmatrix
// CHECK: nvvm.fence.proxy
// STORES-LABEL: llvm.func @epilogue_stmatrix_swizzled
// STORES-NOT: llvm.store
!frag64 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                        f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                        f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32,
                        f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
gpu.module @k {
llvm.func @epilogue_stmatrix_swizzled(%t: !frag64, %staging: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32) {
  dgemm.epilogue_store (%t), %staging, %map[%n0, %m0] tid %tid {block_m = 64 : i32, block_n = 128 : i32, consumers = 1 : i32, swizzle = 128 : i32, stmatrix} : (!frag64), !llvm.ptr
  llvm.return
}
}

// -----

// stmatrix staging of a tile of two row waves (block M 256, two consumers):
// every 8-column group as an .x2 of its two packs (ptxas spilled with .x4
// there); wave 1's rows are 128 rows (128 * 16 * 2 bytes) further down.
// CHECK-LABEL: llvm.func @epilogue_stmatrix_waves
// STORES-LABEL: llvm.func @epilogue_stmatrix_waves
// STORES-NOT: llvm.store
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: %[[BASE:.+]] = arith.muli %{{.+}}, %c32_i32
// CHECK: %[[P0:.+]] = llvm.getelementptr %arg2[%[[BASE]]]
// CHECK: llvm.extractvalue %arg0[0]
// CHECK: nvvm.stmatrix %[[P0]], %{{[^,]+}}, %{{[^,]+}} {{.+}} : !llvm.ptr<3>, i32, i32
// CHECK: %[[O1:.+]] = arith.addi %[[BASE]], %c16_i32
// CHECK: llvm.getelementptr %arg2[%[[O1]]]
// CHECK: llvm.extractvalue %arg0[4]
// CHECK: nvvm.stmatrix {{.+}} : !llvm.ptr<3>, i32, i32
// CHECK: %[[O2:.+]] = arith.addi %[[BASE]], %c4096_i32
// CHECK: llvm.getelementptr %arg2[%[[O2]]]
// CHECK: llvm.extractvalue %arg1[0]
// CHECK: nvvm.stmatrix {{.+}} : !llvm.ptr<3>, i32, i32
// CHECK: %[[O3:.+]] = arith.addi %[[BASE]], %c4112_i32
// CHECK: llvm.getelementptr %arg2[%[[O3]]]
// CHECK: llvm.extractvalue %arg1[4]
// CHECK: nvvm.stmatrix {{.+}} : !llvm.ptr<3>, i32, i32
// CHECK-NOT: nvvm.stmatrix
// CHECK: nvvm.fence.proxy
gpu.module @k {
llvm.func @epilogue_stmatrix_waves(%t: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %u: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %staging: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32) {
  dgemm.epilogue_store (%t, %u), %staging, %map[%n0, %m0] tid %tid {block_m = 256 : i32, block_n = 16 : i32, consumers = 2 : i32, stmatrix} : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>), !llvm.ptr
  llvm.return
}
}

// -----

// Per-warpgroup epilogue of a tile of two row waves (block M 256): warpgroup
// w's rows are 64w.. of each wave; its first thread stores them as one box
// of 64 rows per wave (row-major block N 16: 64 * 32 bytes into the tile for
// warpgroup 1, wave 1 128 rows = 4096 bytes further down, at m0 + 64w and
// m0 + 64w + 128).
// CHECK-LABEL: llvm.func @epilogue_per_warpgroup_waves
// STORES-LABEL: llvm.func @epilogue_per_warpgroup_waves
// STORES-COUNT-8: llvm.store %{{.+}}, %{{.+}} : i32, !llvm.ptr<3>
// STORES-NOT: llvm.store
// CHECK: %[[BAR:.+]] = arith.addi %{{.+}}, %c7_i32
// CHECK: nvvm.barrier id = %[[BAR]] number_of_threads = %c128_i32
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK: scf.if
// CHECK: %[[OFF:.+]] = arith.muli %[[WG:.+]], %c2048_i32
// CHECK: %[[SRC0:.+]] = llvm.getelementptr %arg2[%[[OFF]]]
// CHECK: %[[M0:.+]] = arith.muli %[[WG]], %c64_i32
// CHECK: %[[ROW0:.+]] = arith.addi %arg5, %[[M0]]
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg3, %[[SRC0]], box[%arg4, %[[ROW0]]]
// CHECK: %[[SRC1:.+]] = llvm.getelementptr %[[SRC0]][4096]
// CHECK: %[[ROW1:.+]] = arith.addi %[[ROW0]], %c128_i32
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg3, %[[SRC1]], box[%arg4, %[[ROW1]]]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
gpu.module @k {
llvm.func @epilogue_per_warpgroup_waves(%t: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %u: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %staging: !llvm.ptr<3>, %map: !llvm.ptr, %n0: i32, %m0: i32, %tid: i32) {
  dgemm.epilogue_store (%t, %u), %staging, %map[%n0, %m0] tid %tid {block_m = 256 : i32, block_n = 16 : i32, consumers = 2 : i32, per_warpgroup} : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>), !llvm.ptr
  llvm.return
}
}
