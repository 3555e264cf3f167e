#!/usr/bin/env bash
# 128x128 tiles at 4 and 5 stages (bundle carried):
#   run(command="bash scripts/device-stage-probe-128.sh", carry=[".bundle"])
# In the stage probe (bench/results/2026-12-04-ca2bb12-stage-probe.log)
# 128x128 ran 1314 TFLOPS at 4 stages and 1200 at 5 on 4096x4096x7168.
# The selection gives 128x128 five stages (the masked layout's second shape
# at K 7168, 128x32768x512). Here: 4 against 5 stages, with K blocks in
# pairs (the default) and one at a time, on normal shapes, and the masked
# K 7168 cases whose drawn sizes run the second shape.
# SELECTED_ONLY=1: only the selection's two 128x128 shapes.
# -> $OUT/stage-probe-128.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
rc=0
{
  if [ -z "${SELECTED_ONLY:-}" ]; then
    timeout 240 python3 bench/ab_kernel_ir.py \
      "--config=block_m=128,block_n=128,stages=5;block_m=128,block_n=128,stages=4;block_m=128,block_n=128,stages=5,lower.k-unroll=1;block_m=128,block_n=128,stages=4,lower.k-unroll=1" \
      4096,4096,7168 2048,7168,2048 || rc=1
  fi
  # The selection's two 128x128 shapes (5 stages) against 4 stages.
  timeout 200 python3 bench/ab_kernel_ir.py "--config=stages=4;stages=4,lower.k-unroll=1;lower.k-unroll=1" \
    128,32768,512 4412,384,12672 || rc=1
  [ -n "${SELECTED_ONLY:-}" ] && exit $rc
  for only in G4-m256-n4096-k7168 G2-m512-n4096-k7168; do
    timeout 200 python3 bench/ab_masked_gap.py --all --only $only --drawn --rounds 5 --control \
      --edit "alt_stages=4;alt_stages=4,lower.k-unroll=1;lower.k-unroll=1" || rc=1
  done
  exit $rc
} 2>&1 | tee "$OUT/stage-probe-128.log"
# (rc was set in the group's subshell: its exit status carries it.)
exit "${PIPESTATUS[0]}"
