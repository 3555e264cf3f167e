#!/usr/bin/env bash
# Checks of the stage-unrolled K loop on the GPU machine (bundle carried):
#   run(command="bash scripts/device-check-stage-unroll.sh", carry=[".bundle"])
# 1. block M 256 against the selection's 128x192 on the M = 4096 shapes
#    where the selection keeps 128x192 (bench/ab_kernel_ir.py --config,
#    each variant checked) -> $OUT/ab-bm256.log
# 2. compute-sanitizer memcheck and racecheck on one checked launch of each
#    masked kernel of 4 x 256 rows, N 7168, K 2048 (stage-unrolled, pinned
#    descriptors; the device run's sanitizer cases have too few K blocks
#    for it) and its normal GEMM -> $OUT/memcheck-su.log, racecheck-su.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-check-su-cache
rc=0
timeout 150 python3 bench/ab_kernel_ir.py "--config=block_m=256,block_n=128,stages=3" \
  4096,2112,7168 4096,24576,1536 4096,32768,512 2>&1 | tee "$OUT/ab-bm256.log" || rc=1
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 20 \
    --kernel-name kns=dgemm python3 bench/ab_masked_gap.py --profile --only G4-m256-n7168-k2048 \
    > "$OUT/$tool-su.log" 2>&1 || rc=1
  tail -n 4 "$OUT/$tool-su.log"
done
exit $rc
