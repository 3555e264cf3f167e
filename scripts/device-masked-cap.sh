#!/usr/bin/env bash
# The cap on the drawn 4-group K 2048 masked case (docs/kernel.md, "The
# drawn 4-group K 2048 case"), and torch's scale-layout probe (bundle
# carried):
#   run(command="bash scripts/device-masked-cap.sh", carry=[".bundle"])
# bench/ab_masked_gap.py on G4-m256-n7168-k2048, each in one process with a
# control: equal sizes (256 each, against the normal GEMM on 1024 rows);
# the drawn sizes [224, 183, 308, 265] (against the normal GEMM on their 980
# rows); and [224, 183, 256, 256], the drawn sizes without the rows past 256
# (the main tiles a design with 64-row tail tiles would run: 224 256x128
# tiles on 112 CTAs). Then bench/probe_torch_scale_layout.py.
# -> $OUT/ab-masked-cap.log, $OUT/probe-torch-scale-layout.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
{
  rc=0
  for sel in "" "--drawn" "--sizes 224,183,256,256"; do
    # shellcheck disable=SC2086
    timeout 200 python3 bench/ab_masked_gap.py --only G4-m256-n7168-k2048 --rounds 5 \
      --control $sel || rc=1
  done
  exit $rc
} 2>&1 | tee "$OUT/ab-masked-cap.log"
rc=${PIPESTATUS[0]}
(cd bench && timeout 120 python3 probe_torch_scale_layout.py) > "$OUT/probe-torch-scale-layout.log" 2>&1 ||
  rc=1
grep -v '^{' "$OUT/probe-torch-scale-layout.log"
exit "$rc"
