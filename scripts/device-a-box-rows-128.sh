#!/usr/bin/env bash
# A's TMA box cut to a small M at block M 128 (one M block of two consumer
# warpgroups, M 65-120), which the selection does not take because no such
# kernel has run on the GPU (docs/config-selection.md, "A's box at small
# M"): the selected config against the same config with a_box_rows = M
# rounded up to 8, each variant checked, then timed alternately in one
# process (bench/ab_kernel_ir.py). Bundle carried:
#   run(command="bash scripts/device-a-box-rows-128.sh", carry=[".bundle"])
# Shapes: random shapes of bench/RESULTS.md whose selected tile is 128 x N
# with one M block (81, 102, 116 rows), and M = 120 at 7168x2048 (the
# reference N and K where M = 120 takes block M 128; at 4096x7168,
# 2112x7168 and 7168x16384 it takes two blocks of 64, where a_box_rows = 120
# is not a valid config). Until sweep.edit_config added a field the
# config does not print (2026-12-05), `--config=a_box_rows=R` left the
# config as it was: this script's first run (bench/results/2026-12-05-
# 981a226-ab-a-box-rows-128.log) compared each kernel with itself; since,
# ab_kernel_ir.py refuses an edit that changes nothing. Then
# compute-sanitizer memcheck on one cut kernel (the box reads
# past A's last row at M = 81: TMA fills zeros; rows 88-127 of the A tile
# are never written by that stage's load).
# -> $OUT/ab-a-box-rows-128.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
{
  rc=0
  for shape in 81,25552,14208 102,23168,15104 116,28704,16256 120,7168,2048; do
    m=${shape%%,*}
    rows=$(( (m + 7) / 8 * 8 ))
    timeout 150 python3 bench/ab_kernel_ir.py "--config=a_box_rows=$rows" \
      "$shape" || rc=1
  done
  if command -v compute-sanitizer > /dev/null; then
    timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 \
      python3 bench/ab_kernel_ir.py --check-only "--config=a_box_rows=88" \
      81,25552,14208 || rc=1
  else
    echo "compute-sanitizer not found: memcheck skipped"
  fi
  exit $rc
} 2>&1 | tee "$OUT/ab-a-box-rows-128.log"
exit "${PIPESTATUS[0]}"
