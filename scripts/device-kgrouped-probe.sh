#!/usr/bin/env bash
# Where the k-grouped GEMM's time goes, on the GPU machine:
#   bash scripts/device-kgrouped-probe.sh
# $OUT/kgrouped-probe.jsonl: bench/probe_kgrouped.py's timings (one total K
# in 1-8 groups beside the weight-gradient GEMM); $OUT/ncu-kgrouped.txt:
# Nsight Compute's duration, DRAM bytes, L2 hit rate and L2 reduction
# sectors of each of those kernels (one launch each).
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-kgrouped-cache
SHAPE=${SHAPE:-4096,7168}
timeout 300 python3 "$root/bench/probe_kgrouped.py" "$SHAPE" | tee "$OUT/kgrouped-probe.jsonl"
echo "probe rc=${PIPESTATUS[0]}"
[ "${NCU:-1}" = 1 ] || exit 0
timeout 240 ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_red.sum,lts__t_sectors_op_red.sum \
  -k regex:dgemm_ -c 6 python3 "$root/bench/probe_kgrouped.py" "$SHAPE" --once \
  > "$OUT/ncu-kgrouped.txt" 2>&1
echo "ncu rc=$?"
grep -E "once|dgemm_|duration|dram__|lts__" "$OUT/ncu-kgrouped.txt" | head -80
# The weight-gradient GEMM with the k-grouped kernels' tile (128x192, one
# K block per iteration) beside its selection, same total K.
[ "${AB:-1}" = 1 ] || exit 0
timeout 200 python3 "$root/bench/ab_wgrad.py" "${SHAPE},16128" --lower='k-unroll=1' \
  --configs=128x192x3 | tee "$OUT/kgrouped-probe-wgrad-tiles.jsonl"
