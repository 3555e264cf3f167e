#!/usr/bin/env bash
# dgemm-lower-to-kernel{b-scale-copy}: each consumer warpgroup copying the
# tile's B scales into a buffer of its own, met at its own named barrier
# (warpgroup), against all consumers sharing one buffer (shared), on the
# kernels b-scale-prefetch does not serve. Each variant is lowered with the
# choice that is not auto's: warpgroup on the 256-row normal kernels and
# the masked layout (both tile shapes), where auto is shared; shared on
# the contiguous layout (all four shapes, equal and drawn sizes), where auto
# is warpgroup since f9c5d8e. One process per tool, each variant checked;
# then racecheck and memcheck on a 256-row kernel with several tiles per
# CTA.
# On the GPU machine (bundle carried, as for scripts/device-run.sh):
#   run(command="bash scripts/device-b-scale-copy.sh", carry=[".bundle"])
# -> $OUT/b-scale-copy.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-b-scale-copy-cache
rc=0
{
  nvidia-smi --query-gpu=name --format=csv,noheader
  echo "bundle $(cat /tmp/dgemm/dgemm/COMMIT)"
  echo "== normal GEMM, 256-row kernels"
  timeout 150 python3 bench/ab_kernel_ir.py --rounds=5 "--lower=b-scale-copy=warpgroup" \
    4096,7168,2048 4096,4096,7168 4096,7168,16384 || rc=1
  echo "== masked, equal sizes (K 2048 and 7168), with a control"
  timeout 150 python3 bench/ab_masked_gap.py --all --rounds 5 --control --lower 'b-scale-copy=warpgroup' || rc=1
  echo "== masked, drawn sizes"
  timeout 120 python3 bench/ab_masked_gap.py --all --drawn --rounds 5 --control --lower 'b-scale-copy=warpgroup' || rc=1
  echo "== contiguous, equal sizes (auto: warpgroup)"
  timeout 240 python3 bench/ab_masked_gap.py --layout contiguous --all --rounds 5 --control --lower 'b-scale-copy=shared' || rc=1
  echo "== contiguous, drawn sizes"
  timeout 240 python3 bench/ab_masked_gap.py --layout contiguous --all --drawn --rounds 5 --control --lower 'b-scale-copy=shared' || rc=1
  if command -v compute-sanitizer > /dev/null; then
    echo "== racecheck and memcheck, 256-row kernel with the option, 16 CTAs"
    timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=1 --config=block_m=256,block_n=128,stages=3,num_sms=16,lower.b-scale-copy=warpgroup 1024,2048,1024 2>&1 | tail -4 || rc=1
    timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=2 --config=block_m=256,block_n=128,stages=3,num_sms=16,lower.b-scale-copy=warpgroup 1024,2048,1024 2>&1 | tail -3 || rc=1
  fi
  echo "b-scale-copy: rc $rc"
  exit $rc
} 2>&1 | tee "$OUT/b-scale-copy.log"
# (rc was set in the group's subshell: its exit status carries it.)
exit "${PIPESTATUS[0]}"
