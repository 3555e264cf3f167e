#!/usr/bin/env bash
# The contiguous layout with dgemm-lower-to-kernel{b-scale-copy=warpgroup}
# against the default shared copy: all four contiguous shapes of
# bench/shapes.csv, equal and drawn sizes, with a control, each variant
# checked.
# (scripts/device-b-scale-copy.sh measured it on the two K 2048 shapes only,
# 3 rounds.)
# On the GPU machine (bundle carried, as for scripts/device-run.sh):
#   run(command="bash scripts/device-b-scale-copy-contiguous.sh", carry=[".bundle"])
# -> $OUT/b-scale-copy-contiguous.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-b-scale-copy-cache
cd "$root" || exit 2
rc=0
{
  nvidia-smi --query-gpu=name --format=csv,noheader
  echo "bundle $(cat /tmp/dgemm/dgemm/COMMIT)"
  echo "== contiguous, equal sizes"
  timeout 240 python3 bench/ab_masked_gap.py --layout contiguous --all --rounds 5 --control --lower 'b-scale-copy=warpgroup' || rc=1
  echo "== contiguous, drawn sizes"
  timeout 240 python3 bench/ab_masked_gap.py --layout contiguous --all --drawn --rounds 5 --control --lower 'b-scale-copy=warpgroup' || rc=1
  echo "b-scale-copy contiguous: rc $rc"
} 2>&1 | tee "$OUT/b-scale-copy-contiguous.log"
exit $rc
