#!/usr/bin/env bash
# The persistent tile walk along M (dgemm-lower-to-kernel{tile-order=m}:
# groups of swizzle_group M blocks, M first, DeepGEMM's order where a
# cluster shares B) against the default walk along N, and where the
# contiguous kernel's extra L2 and DRAM bytes against DeepGEMM's come from,
# in one call on the GPU machine:
#   run(command="bash scripts/device-tile-order.sh", carry=[".bundle", ".peers"])
# 1. DeepGEMM built (device-deepgemm-setup.sh);
# 2. bench/check_contiguous_lowering.py with tile-order=m (the selected
#    config, and without clusters) on the walk's edge cases and random
#    cases -> $OUT/check-tm.log;
# 3. Nsight Compute at base clocks (device-contiguous-cycles.sh with DRAM
#    and L2 metrics): the selected contiguous kernel and its tile-order=m,
#    swizzle_group=8 and swizzle_group=8 + tile-order=m variants ->
#    $OUT/ncu-cycles-*.txt;
# 4. Nsight Compute on bench/run_grouped.py --deepgemm (4 launches: dgemm's
#    two contiguous kernels, DeepGEMM's contiguous and normal ones) with L2
#    sectors by operation and source -> $OUT/ncu-l2-contiguous.txt;
# 5. bench/probe_power.py sustained, dgemm / DeepGEMM / tile-order=m, two
#    rounds on the two 4 x 8192-row shapes -> $OUT/probe-tm-*.log;
# 6. bench/ab_kernel_ir.py on four M = 4096 normal shapes with
#    tile-order=m, 3 rounds -> $OUT/ab-tm-normal.log.
set -uo pipefail
# shellcheck source=device-deepgemm-setup.sh
source "$(dirname "$0")/device-deepgemm-setup.sh" /tmp/dgemm-tm-cache
rc=0
echo "== check_contiguous_lowering at $(elapsed)s"
timeout -k 5 120 python3 bench/check_contiguous_lowering.py --random "${RANDOM_CASES:-6}" \
  --edit lower.tile-order=m \
  --edit cluster=1,multicast=none,lower.tile-order=m 2>&1 |
  tee "$OUT/check-tm.log" | tail -5 || rc=1
echo "== ncu cycles at $(elapsed)s"
L2=dram__bytes_read.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum
EXTRA_METRICS=$L2 ONLY=G4-m8192-n4096-k7168 NCU_S=150 \
  EDITS="lower.tile-order=m;swizzle_group=8;swizzle_group=8,lower.tile-order=m" \
  bash scripts/device-contiguous-cycles.sh || rc=1
echo "== ncu L2 beside DeepGEMM at $(elapsed)s"
timeout -k 5 150 ncu --clock-control base \
  --metrics "$L2,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,smsp__inst_executed.sum,sm__cycles_elapsed.max" \
  -k "regex:dgemm_grouped_contiguous|sm90_fp8_gemm_1d2d" -c 4 \
  python3 bench/run_grouped.py --deepgemm --layout contiguous --rounds 1 --iters 1 \
  --warmup 0 > "$OUT/ncu-l2-contiguous.txt" 2>&1 || rc=1
grep -E "^  [a-z_0-9].*\(|dram__|lts__|inst_executed|cycles_elapsed" "$OUT/ncu-l2-contiguous.txt" |
  sed -E 's/ +/ /g; s/\(float \*.*//' | cut -c1-140
echo "== probes at $(elapsed)s"
probe_contiguous tm 100 dgemm,deepgemm,tm,dgemm,deepgemm,tm --variant tm=lower.tile-order=m || rc=1
echo "== ab_kernel_ir normal at $(elapsed)s"
timeout -k 5 140 python3 bench/ab_kernel_ir.py "--lower=tile-order=m" --rounds=3 \
  4096,7168,16384 4096,4096,7168 4096,7168,2048 4096,2112,7168 2>&1 |
  tee "$OUT/ab-tm-normal.log" | tail -12 || rc=1
echo "== done at $(elapsed)s"
exit $rc
