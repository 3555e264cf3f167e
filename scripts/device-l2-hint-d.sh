#!/usr/bin/env bash
# D's TMA stores with an L2 evict_first policy (bundle carried):
#   run(command="bash scripts/device-l2-hint-d.sh", carry=[".bundle"])
# Each kernel as the pipeline lowers it against dgemm-lower-to-kernel
# {l2-hint-d=evict-first}, timed alternately in one process with the
# benchmark's harness (L2 flushed by a memset before each call):
# normal shapes (bench/ab_kernel_ir.py --lower), the masked K 2048 shapes
# with equal and drawn sizes and the contiguous ones (bench/ab_masked_gap.py,
# the normal GEMM on the same work lowered both ways too).
# -> $OUT/ab-l2-hint-d.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
rc=0
{
  timeout 240 python3 bench/ab_kernel_ir.py "--lower=l2-hint-d=evict-first" \
    4096,7168,2048 4096,7168,16384 4096,4096,7168 4096,2112,7168 4096,24576,1536 \
    4096,32768,512 128,7168,2048 64,7168,16384 || rc=1
  timeout 240 python3 bench/ab_masked_gap.py --rounds 5 --control --lower "l2-hint-d=evict-first" || rc=1
  timeout 200 python3 bench/ab_masked_gap.py --only G4-m256-n7168-k2048 --drawn --rounds 5 --control \
    --lower "l2-hint-d=evict-first" || rc=1
  timeout 200 python3 bench/ab_masked_gap.py --layout contiguous --rounds 3 --lower "l2-hint-d=evict-first" || rc=1
  exit $rc
} 2>&1 | tee "$OUT/ab-l2-hint-d.log"
# (rc was set in the group's subshell: its exit status carries it.)
exit "${PIPESTATUS[0]}"
