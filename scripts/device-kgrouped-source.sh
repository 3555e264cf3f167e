#!/usr/bin/env bash
# Nsight Compute's source page (warp-stall samples per SASS instruction) of
# bench/probe_kgrouped.py --once's kernels (k-grouped in 1, 2, 4, 4 drawn and
# 8 groups, then the weight-gradient GEMM of the same total K), bucketed by
# scripts/ncu_source_buckets.py:
#   bash scripts/device-kgrouped-source.sh   -> $OUT/ncu-source-kgrouped.csv.xz
# KERNELS (an ncu -k filter, default all dgemm kernels), COUNT (default 6)
# and NAME (a suffix of the file name) profile fewer of them.
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-kgrouped-cache
SHAPE=${SHAPE:-4096,7168}
src="$OUT/ncu-source-kgrouped${NAME:-}.csv"
timeout 400 ncu --section SourceCounters --section WarpStateStats \
  --page source --print-source sass --csv -k "${KERNELS:-regex:dgemm_}" -c "${COUNT:-6}" \
  python3 "$root/bench/probe_kgrouped.py" "$SHAPE" --once > "$src" 2>&1
echo "ncu rc=$?"
python3 "$root/scripts/ncu_source_buckets.py" "$src" --top "${TOP:-12}" --buckets "${BUCKETS:-10}"
xz -f "$src"
