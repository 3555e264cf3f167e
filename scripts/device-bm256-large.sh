#!/usr/bin/env bash
# Block M 256 against the selection's 128x192 on large normal GEMMs (the
# random shapes of the benchmark where dgemm trails cuBLAS per-tensor), on
# the GPU machine (bundle carried):
#   run(command="bash scripts/device-bm256-large.sh", carry=[".bundle"])
# bench/ab_kernel_ir.py, each variant checked, 3 rounds -> $OUT/ab-bm256-large.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
timeout 500 python3 bench/ab_kernel_ir.py \
  "--config=block_m=256,block_n=128,stages=3,num_sms=132;block_m=256,block_n=128,stages=3,num_sms=128" \
  ${SHAPES:-7946,23392,13696 6444,24288,16128 2835,24064,12288 814,26496,13696 5451,27664,6272 3269,15216,13312 1166,8480,6784 4096,2112,7168 4096,24576,1536} \
  2>&1 | tee "$OUT/ab-bm256-large.log"
