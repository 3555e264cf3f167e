#!/usr/bin/env bash
# Small-M shapes with every tile's K split over a 2-CTA cluster
# (dgemm-lower-to-kernel{tail-split=on} where the tiles fill at most half of
# the grid, now also at block M 64): bench/ab_kernel_ir.py, the selected
# kernel against twice-wider tiles split in two, each variant checked against
# the float reference before it is timed -> $OUT/ab-small-m-split.log
#   run(command="bash scripts/device-small-m-split.sh", carry=[".bundle"])
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-small-m-cache
off="lower.tail-split=on,lower.consumer-k-split=off"
while IFS='|' read -r shape edits; do
  timeout 120 python3 bench/ab_kernel_ir.py "--config=$edits" "$shape" 2>&1 | tee -a "$OUT/ab-small-m-split.log"
done <<CASES
64,2112,7168|block_n=32,$off;block_n=64,$off
128,2112,7168|block_n=64,$off
64,4096,7168|block_n=64,$off
64,7168,16384|block_n=112,$off
128,4096,7168|block_n=128,$off
64,7168,2048|block_n=128,$off
128,7168,2048|block_n=128,$off
1,608,12544|num_sms=76,$off
2,1104,14848|block_n=32,num_sms=70,$off
CASES
