#!/usr/bin/env bash
# The one-group masked shapes with block M 256 (256x128, 3 stages), which
# the selection leaves out for one group because ptxas spills that kernel
# (docs/config-selection.md): bench/ab_masked_gap.py times the selected
# grouped kernel, the normal GEMM on the same rows and both with the 256x128
# config, alternately in one process, each checked first; equal and drawn
# group sizes -> $OUT/ab-masked-g1-bm256.log
#   run(command="bash scripts/device-masked-g1-bm256.sh", carry=[".bundle"])
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-g1-cache
cd "$root" || exit 2
rc=0
while IFS='|' read -r only edit; do
  for sizes in "" --drawn; do
    timeout 120 python3 bench/ab_masked_gap.py --all --only "$only" --edit "$edit" $sizes 2>&1 |
      tee -a "$OUT/ab-masked-g1-bm256.log" || rc=1
  done
done <<CASES
G1-m1024-n4096-k7168|block_m=256,stages=3
G1-m1024-n7168-k2048|block_m=256,block_n=128,stages=3,num_sms=112;block_m=256,block_n=128,stages=3,num_sms=132
CASES
exit $rc
