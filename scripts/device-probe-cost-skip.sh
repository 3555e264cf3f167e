#!/usr/bin/env bash
# masked G4 m256 N7168 K2048, drawn sizes: each block shape of the
# G4 sweep (scripts/device-sweep-g4-drawn.sh) with masked-walk=cost
# empty-row-waves=skip, one at a time under bench/probe_masked_edits.py's
# watchdog (the drawn cost+skip sweep of 9f2ddf6 returned nothing in
# 240 s) -> $OUT/probe-cost-skip.log
#   run(command="bash scripts/device-probe-cost-skip.sh", carry=[".bundle"])
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
cd "$root" || exit 2
cs="lower.masked-walk=cost,lower.empty-row-waves=skip"
for e in "block_m=256,block_n=128,stages=3,num_sms=112" \
         "block_m=256,block_n=112,stages=3,num_sms=128" \
         "block_m=128,block_n=192,stages=4,num_sms=132" \
         "block_m=128,block_n=128,stages=5,num_sms=112" \
         "block_m=256,block_n=128,stages=3,num_sms=112,cluster=2,multicast=a" \
         "block_m=128,block_n=192,stages=4,num_sms=102,cluster=2,multicast=a"; do
  echo "== $e,$cs" | tee -a "$OUT/probe-cost-skip.log"
  WATCHDOG_S=90 timeout 100 python3 bench/probe_masked_edits.py "$e,$cs" 2>&1 | tee -a "$OUT/probe-cost-skip.log"
  echo "rc ${PIPESTATUS[0]}" | tee -a "$OUT/probe-cost-skip.log"
done
