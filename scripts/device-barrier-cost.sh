#!/usr/bin/env bash
# What the consumers' per-tile named barriers cost (a diagnostic: the
# variants without them may race, so their outputs are only reported):
# bench/ab_kernel_ir.py with b-scale-prefetch auto (the pipeline) and off,
# each also with barriers 1 and 2 removed from its kernel IR, in one
# process, on the GPU machine (bundle carried, as for scripts/device-run.sh):
#   run(command="bash scripts/device-barrier-cost.sh", carry=[".bundle"])
# -> $OUT/barrier-cost.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-barrier-cost-cache
{
  nvidia-smi --query-gpu=name --format=csv,noheader
  echo "bundle $(cat /tmp/dgemm/dgemm/COMMIT)"
  timeout 300 python3 bench/ab_kernel_ir.py --rounds="${ROUNDS:-5}" "--lower=b-scale-prefetch=off" \
    '--ir-sub=\n\s*nvvm\.barrier id = %c[12]_i32(_\d+)? number_of_threads = %c256_i32(_\d+)?(?=\n)=>' \
    --unchecked-subs ${SHAPES:-4096,32768,512 128,32768,512 4096,24576,1536 4096,2112,7168}
} 2>&1 | tee "$OUT/barrier-cost.log"
exit "${PIPESTATUS[0]}"
