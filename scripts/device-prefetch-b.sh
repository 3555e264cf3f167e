#!/usr/bin/env bash
# Small-M shapes with B prefetched into L2 in bursts
# (dgemm-lower-to-kernel{l2-prefetch-b=P}): bench/ab_kernel_ir.py, the
# selected kernel against P = 8 and 16, each variant checked against the
# float reference before it is timed -> $OUT/ab-prefetch-b.log
#   run(command="bash scripts/device-prefetch-b.sh", carry=[".bundle"])
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-prefetch-cache
cd "$root" || exit 2
while IFS='|' read -r shape edits; do
  timeout 60 python3 bench/ab_kernel_ir.py "--config=$edits" "$shape" 2>&1 | tee -a "$OUT/ab-prefetch-b.log"
done <<CASES
1,608,12544|lower.l2-prefetch-b=8;lower.l2-prefetch-b=16
64,2112,7168|lower.l2-prefetch-b=8;lower.l2-prefetch-b=16
2,1104,14848|lower.l2-prefetch-b=8;lower.l2-prefetch-b=16
64,7168,16384|lower.l2-prefetch-b=8;lower.l2-prefetch-b=16
64,4096,7168|lower.l2-prefetch-b=8
128,2112,7168|lower.l2-prefetch-b=8
64,7168,2048|lower.l2-prefetch-b=8
CASES
