#!/usr/bin/env bash
# The next tile's B scales loaded before the K loop
# (dgemm-lower-to-kernel{b-scale-prefetch}) on the GPU: run_bench's strict
# check of the carried bundle, its kernels with b-scale-prefetch=auto
# against =off in one process (bench/ab_kernel_ir.py --lower), the
# planted-bug sanitizer run, and racecheck/memcheck on kernels with
# several tiles per CTA:
#   run(command="bash scripts/device-b-scale-prefetch.sh", carry=[".bundle"])
# -> $OUT/b-scale-prefetch.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-b-scale-prefetch-cache
rc=0
{
  nvidia-smi --query-gpu=name --format=csv,noheader
  echo "bundle $(cat /tmp/dgemm/dgemm/COMMIT)"
  echo "== one process: b-scale-prefetch auto (pipeline) against off and on"
  timeout 200 python3 bench/ab_kernel_ir.py --rounds=5 "--lower=b-scale-prefetch=off;b-scale-prefetch=on" \
    ${AB_SHAPES:-4096,32768,512 4096,24576,1536 4096,2112,7168 2048,2112,1024 128,24576,1536 128,7168,2048 2202,4144,8448} || rc=1
  echo "== strict check of the bundle (18 shapes, 20 random)"
  timeout 150 python3 bench/run_bench.py --no-peers --random 20 --out "$OUT/bench.jsonl" | tail -6 || rc=1
  if command -v compute-sanitizer > /dev/null; then
    echo "== planted bugs, racecheck and memcheck"
    timeout 120 python3 bench/sanitizer_planted.py || rc=1
    # Kernels with the prefetch and several tiles per CTA: K 1024 with it
    # forced on (8 tiles a CTA), K 512 as auto takes it (32 a CTA).
    timeout 100 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=1 --config=num_sms=22,lower.b-scale-prefetch=on 2048,2112,1024 2>&1 | tail -4 || rc=1
    timeout 100 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=1 --config=block_m=128,block_n=192,stages=4,num_sms=8 1024,4096,512 2>&1 | tail -4 || rc=1
    timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=2 --config=num_sms=8,lower.b-scale-prefetch=on 81,13312,1024 2>&1 | tail -4 || rc=1
    timeout 60 compute-sanitizer --tool synccheck --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=1 --config=num_sms=22,lower.b-scale-prefetch=on 2048,2112,1024 2>&1 | tail -3 || rc=1
  fi
  echo "b-scale-prefetch: rc $rc"
  exit $rc
} 2>&1 | tee "$OUT/b-scale-prefetch.log"
# (rc was set in the group's subshell: its exit status carries it.)
exit "${PIPESTATUS[0]}"
