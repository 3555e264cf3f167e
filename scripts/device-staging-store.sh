#!/usr/bin/env bash
# dgemm-lower-to-kernel{staging-store=stmatrix}: the bf16 epilogue writing
# the staging tile with stmatrix.x4 against the 4-byte shared stores of
# 'auto', on the GPU machine (bundle carried, as for scripts/device-run.sh):
#   run(command="bash scripts/device-staging-store.sh", carry=[".bundle"])
# 1. bit-for-bit: each kernel launched with both stores on the same inputs
#    (bench/probe_repeat_check.py: every output through the strict check
#    and compared with the default kernel's bits; the shapes below);
# 2. racecheck and memcheck on the 128x192 kernel, 16 CTAs;
# 3. A/B, each variant checked first, 5 rounds in one process: the 18
#    normal shapes (bench/ab_kernel_ir.py), the masked shapes with equal and
#    drawn sizes (the second tile shapes take it, crossing tiles copied out
#    of the staging tile) and the contiguous shapes (ab_masked_gap.py, with
#    a control).
# -> $OUT/staging-store.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-staging-store-cache
cd "$root" || exit 2
rc=0
sx=lower.staging-store=stmatrix
{
  nvidia-smi --query-gpu=name --format=csv,noheader
  echo "bundle $(cat /tmp/dgemm/dgemm/COMMIT)"
  echo "== bit-for-bit against the shared stores"
  # The selected configs: 128x192 (swizzled, per-warpgroup epilogue),
  # 64x56 and 64x32 with the K split (row-major; 7 groups: an .x2),
  # 128x64, 64x192 (one consumer), 128x104 (row-major, 13 groups), 128x192
  # at M 1000 (a partial last M block).
  timeout 300 python3 bench/probe_repeat_check.py --repeats=2 "--config=$sx" \
    4096,32768,512 64,7168,16384 64,4096,7168 128,7168,2048 64,24576,1536 \
    81,25552,14208 1000,2112,1024 2>&1 | tee "$OUT/bits.log" || rc=1
  if grep "against the first variant" "$OUT/bits.log" | grep -qv "same bits"; then
    echo "staging-store: stmatrix output differs from the shared stores' bits"; rc=1
  fi
  if command -v compute-sanitizer > /dev/null; then
    echo "== racecheck and memcheck, 128x192 with stmatrix, 16 CTAs"
    timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=1 "--config=block_m=128,block_n=192,stages=4,num_sms=16,$sx" 1024,2112,1024 2>&1 | tail -4 || rc=1
    timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=2 "--config=block_m=128,block_n=192,stages=4,num_sms=16,$sx" 1024,2112,1024 2>&1 | tail -3 || rc=1
  fi
  echo "== normal GEMM, 18 shapes"
  timeout 300 python3 bench/ab_kernel_ir.py --rounds=5 "--lower=staging-store=stmatrix" --normal || rc=1
  echo "== masked, equal sizes, with a control"
  timeout 150 python3 bench/ab_masked_gap.py --all --rounds 5 --control --lower 'staging-store=stmatrix' || rc=1
  echo "== masked, drawn sizes"
  timeout 120 python3 bench/ab_masked_gap.py --all --drawn --rounds 5 --control --lower 'staging-store=stmatrix' || rc=1
  echo "== contiguous, equal sizes"
  timeout 240 python3 bench/ab_masked_gap.py --layout contiguous --all --rounds 5 --control --lower 'staging-store=stmatrix' || rc=1
  echo "staging-store: rc $rc"
} 2>&1 | tee "$OUT/staging-store.log"
exit $rc
