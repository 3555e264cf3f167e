#!/usr/bin/env bash
# The two epilogue options lowered on 2026-12-05 without a GPU to run them,
# on the GPU machine (bundle carried, as for scripts/device-run.sh):
#   run(command="PART=1 bash scripts/device-epilogue.sh", carry=[".bundle"])
#   run(command="PART=2 bash scripts/device-epilogue.sh", carry=[".bundle"])
# (PART=1: steps 1, 2 and the normal A/Bs; PART=2: the grouped A/Bs; both
# together would pass the 10-minute limit of one call.)
# - staging-store=stmatrix: the bf16 epilogue writing the staging tile with
#   stmatrix (.x4; .x2 at block M 256) against the 4-byte shared stores;
# - epilogue-sync=warpgroup at block M 256: each consumer warpgroup storing
#   its own rows (two 64-row boxes per chunk) at its own barrier, against
#   both meeting at barrier 1 (auto's choice there).
# 1. bit for bit (bench/probe_repeat_check.py: every output through the
#    strict check and compared with the default kernel's bits) on the
#    shapes below, each option alone and both together;
# 2. racecheck and memcheck on a 128x192 and a 256x128 kernel, 16 CTAs;
# 3. A/B, each variant checked first, 5 rounds in one process: the 18
#    normal shapes (bench/ab_kernel_ir.py), the masked shapes with equal and
#    drawn sizes (stmatrix in both tile shapes, crossing tiles copied out of
#    the staging tile) and the contiguous shapes (ab_masked_gap.py, with a
#    control).
# -> $OUT/epilogue-$PART.log, $OUT/bits.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-epilogue-cache
rc=0
sx=lower.staging-store=stmatrix
ew=lower.epilogue-sync=warpgroup
{
  nvidia-smi --query-gpu=name --format=csv,noheader
  echo "bundle $(cat /tmp/dgemm/dgemm/COMMIT)"
  part=${PART:-all}
  if [ "$part" != 2 ]; then
  echo "== bit for bit against the default epilogue"
  # The selected configs: 128x192 (swizzled, per-warpgroup epilogue),
  # 64x56 and 64x32 with the K split (row-major; 7 groups: an .x2),
  # 128x64, 64x192 (one consumer), 128x104 (row-major, 13 groups), 128x192
  # at M 1000 (a partial last M block); 256x128 (two row waves).
  timeout 300 python3 bench/probe_repeat_check.py --repeats=2 "--config=$sx" \
    4096,32768,512 64,7168,16384 64,4096,7168 128,7168,2048 64,24576,1536 \
    81,25552,14208 1000,2112,1024 2>&1 | tee "$OUT/bits.log" || rc=1
  timeout 200 python3 bench/probe_repeat_check.py --repeats=2 "--config=$sx;$ew;$sx,$ew" \
    4096,7168,2048 1000,7168,2048 2>&1 | tee -a "$OUT/bits.log" || rc=1
  if grep "against the first variant" "$OUT/bits.log" | grep -qv "same bits"; then
    echo "epilogue: an option's output differs from the default kernel's bits"; rc=1
  fi
  if command -v compute-sanitizer > /dev/null; then
    for cfg in "block_m=128,block_n=192,stages=4,num_sms=16,$sx" \
               "block_m=256,block_n=128,stages=3,num_sms=16,$sx,$ew"; do
      echo "== racecheck and memcheck, $cfg"
      timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 \
        python3 bench/probe_repeat_check.py --repeats=1 "--config=$cfg" 1024,2112,1024 2>&1 | tail -4 || rc=1
      timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 \
        python3 bench/probe_repeat_check.py --repeats=2 "--config=$cfg" 1024,2112,1024 2>&1 | tail -3 || rc=1
    done
  fi
  echo "== normal GEMM, 18 shapes: stmatrix"
  timeout 300 python3 bench/ab_kernel_ir.py --rounds=5 "--lower=staging-store=stmatrix" --normal || rc=1
  echo "== normal GEMM, block M 256: per-warpgroup epilogue, stmatrix, both"
  timeout 200 python3 bench/ab_kernel_ir.py --rounds=5 \
    "--lower=epilogue-sync=warpgroup;staging-store=stmatrix;epilogue-sync=warpgroup staging-store=stmatrix" \
    4096,7168,16384 4096,4096,7168 4096,7168,2048 || rc=1
  fi
  if [ "$part" != 1 ]; then
  echo "== masked, equal sizes, with a control"
  timeout 150 python3 bench/ab_masked_gap.py --all --rounds 5 --control --lower 'staging-store=stmatrix' || rc=1
  echo "== masked, drawn sizes"
  timeout 120 python3 bench/ab_masked_gap.py --all --drawn --rounds 5 --control --lower 'staging-store=stmatrix' || rc=1
  echo "== contiguous, equal sizes"
  timeout 240 python3 bench/ab_masked_gap.py --layout contiguous --all --rounds 5 --control --lower 'staging-store=stmatrix' || rc=1
  fi
  echo "epilogue: rc $rc"
  exit $rc
} 2>&1 | tee "$OUT/epilogue-${PART:-all}.log"
# (rc was set in the group's subshell: its exit status carries it.)
exit "${PIPESTATUS[0]}"
