#!/usr/bin/env bash
# How much the pipeline depth is worth where it is shortest (bundle carried):
#   run(command="bash scripts/device-stage-probe.sh", carry=[".bundle"])
# Each shape's selected config against the same tiles with fewer stages (and
# 128x128 at 5, 4, 3), timed alternately in one process (bench/ab_kernel_ir.py,
# bench/ab_masked_gap.py): if one stage less costs much at 128x192 (4 -> 3,
# 3072 -> 2304 clocks of loads in flight per SM) and 256x128 (3 -> 2), a
# fourth stage at 256x128 (staging the output in the ring) may pay.
# -> $OUT/stage-probe.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
log="$OUT/stage-probe.log"
rc=0
{
  timeout 200 python3 bench/ab_kernel_ir.py "--config=stages=3" 4096,2112,7168 4096,24576,1536 || rc=1
  timeout 200 python3 bench/ab_kernel_ir.py "--config=stages=2;block_m=128,block_n=192,stages=4;block_m=128,block_n=192,stages=3" 4096,7168,2048 4096,7168,16384 || rc=1
  timeout 200 python3 bench/ab_kernel_ir.py "--config=block_m=128,block_n=128,stages=5;block_m=128,block_n=128,stages=4;block_m=128,block_n=128,stages=3" 4096,4096,7168 || rc=1
  timeout 300 python3 bench/ab_masked_gap.py --only G4-m256-n7168-k2048 --rounds 5 --control --edit "stages=2" || rc=1
  timeout 300 python3 bench/ab_masked_gap.py --only G4-m256-n7168-k2048 --drawn --rounds 5 --control --edit "alt_stages=3" || rc=1
  exit $rc
} 2>&1 | tee "$log"
# (rc was set in the group's subshell: its exit status carries it.)
exit "${PIPESTATUS[0]}"
