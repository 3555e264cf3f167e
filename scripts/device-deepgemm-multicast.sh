#!/usr/bin/env bash
# DeepGEMM's configs and dgemm's multicast variants on the M = 4096
# reference shapes, where DeepGEMM timed in the same process led on four
# of six (H100, 2026-12-06; docs/kernel.md, "Next"). One call on the GPU
# machine, both carried folders made here first (scripts/build.sh
# build-bundle -DDGEMM_BUNDLE=ON; scripts/pack-deepgemm.sh):
#   run(command="bash scripts/device-deepgemm-multicast.sh", carry=[".bundle", ".peers"])
# 1. builds DeepGEMM (scripts/device-deepgemm.sh, no benchmarks);
# 2. run_bench.py --deepgemm on the six shapes with DG_PRINT_CONFIGS=1 (its
#    chosen layouts printed) -> $OUT/dg-m4096.jsonl, $OUT/dg-m4096.log;
# 3. bench/ab_kernel_ir.py, 3 rounds, each variant checked: the selection
#    against 256x128 with A multicast on a 2-CTA cluster (what DeepGEMM's
#    heuristic, worked by hand, takes), the selection's tile with A
#    multicast and with B multicast -> $OUT/ab-multicast-m4096.log.
set -uo pipefail
# shellcheck source=device-deepgemm-setup.sh
source "$(dirname "$0")/device-deepgemm-setup.sh" /tmp/dgemm-probe-cache
shapes="4096,2112,7168;4096,24576,1536;4096,32768,512;4096,7168,16384;4096,4096,7168;4096,7168,2048"
DG_PRINT_CONFIGS=1 timeout -k 5 150 python3 bench/run_bench.py --no-csv --shapes "$shapes" \
  --deepgemm --out "$OUT/dg-m4096.jsonl" 2>&1 | tee "$OUT/dg-m4096.log" | grep -v "^$"
# 4096x2112x7168 has 17 N blocks of 128, and the selection's 128x192 tile
# 171 at 4096x32768x512: no A multicast pairs there (the lowering refuses).
edits="block_m=256,block_n=128,stages=3,cluster=2,multicast=a,num_sms=132"
edits+=";cluster=2,multicast=b,num_sms=132"
{
  timeout -k 5 200 python3 bench/ab_kernel_ir.py "--config=$edits;cluster=2,multicast=a,num_sms=132" \
    4096,24576,1536 4096,7168,16384 4096,4096,7168 4096,7168,2048
  timeout -k 5 90 python3 bench/ab_kernel_ir.py "--config=$edits" 4096,32768,512
} 2>&1 | tee "$OUT/ab-multicast-m4096.log"
