#!/usr/bin/env bash
# Bisects the hang of masked-walk=cost empty-row-waves=skip at 256x112
# (masked G4 m256 N7168 K2048, drawn sizes; bench/results/*-probe-cost-skip.log):
# each variant alone under bench/probe_masked_edits.py's watchdog
# -> $OUT/probe-skip-hang.log
#   run(command="bash scripts/device-probe-skip-hang.sh", carry=[".bundle"])
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
cd "$root" || exit 2
b112="block_m=256,block_n=112,stages=3,num_sms=128"
b128="block_m=256,block_n=128,stages=3,num_sms=112"
for e in "$b112,lower.masked-walk=cost" \
         "$b112,lower.empty-row-waves=skip" \
         "$b112,lower.empty-row-waves=skip,lower.masked-partial-store=staged" \
         "$b128,lower.empty-row-waves=skip,lower.masked-partial-store=direct" \
         "block_m=256,block_n=112,stages=3,num_sms=112,lower.empty-row-waves=skip"; do
  echo "== $e" | tee -a "$OUT/probe-skip-hang.log"
  WATCHDOG_S=${WATCHDOG_S:-45} timeout 60 python3 bench/probe_masked_edits.py "$e" 2>&1 | tee -a "$OUT/probe-skip-hang.log"
  echo "rc ${PIPESTATUS[0]}" | tee -a "$OUT/probe-skip-hang.log"
done
