#!/usr/bin/env bash
# Two contiguous-kernel options against the default and DeepGEMM, in one
# call on the GPU machine:
#   run(command="bash scripts/device-order-wait.sh", carry=[".bundle", ".peers"])
# - tile-order=m: the persistent walk in groups of swizzle_group M blocks,
#   M first (DeepGEMM's order where a cluster shares B), kernel name _tm;
# - early-wait-kind=try: the early full-barrier test as one
#   mbarrier.try_wait (its answer comes when the stage fills, while the
#   promotion goes on), not a test_wait, kernel name _tw.
# Steps in order of need, so that a short call still brings the first:
# 1. bench/check_contiguous_lowering.py with each option (the selected
#    config, and without clusters) on the walk's edge cases and random
#    cases -> $OUT/check-ow.log;
# 2. Nsight Compute at base clocks (device-contiguous-cycles.sh with DRAM
#    and L2 bytes): the selected 4 x 8192-row kernel at N 4096, K 7168 and
#    its tm, swizzle_group=8, tw and tm+tw variants -> $OUT/ncu-cycles-*.txt;
# 3. compute-sanitizer racecheck and synccheck on step 1's edge cases with
#    early-wait-kind=try (it changes how the consumers wait) ->
#    $OUT/{racecheck,synccheck}-tw.log;
# 4. bench/ab_kernel_ir.py on four M = 4096 normal shapes with each
#    option, 3 rounds -> $OUT/ab-ow-normal.log;
# 5. DeepGEMM built (device-deepgemm-setup.sh), then bench/probe_power.py
#    sustained, dgemm / DeepGEMM / tm / tw, two rounds on the two 4 x
#    8192-row shapes -> $OUT/probe-ow-*.log.
set -uo pipefail
# shellcheck source=device-env.sh
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-ow-cache
rc=0
echo "== check_contiguous_lowering at $(elapsed)s"
timeout -k 5 100 python3 bench/check_contiguous_lowering.py --random "${RANDOM_CASES:-6}" \
  --edit lower.tile-order=m \
  --edit cluster=1,multicast=none,lower.tile-order=m \
  --edit lower.early-wait-kind=try \
  --edit cluster=1,multicast=none,lower.early-wait-kind=try 2>&1 |
  tee "$OUT/check-ow.log" | tail -6 || rc=1
echo "== ncu cycles at $(elapsed)s"
EXTRA_METRICS=dram__bytes_read.sum,lts__t_bytes.sum ONLY=G4-m8192-n4096-k7168 NCU_S=120 \
  EDITS="lower.tile-order=m;swizzle_group=8;lower.early-wait-kind=try;lower.tile-order=m,lower.early-wait-kind=try" \
  bash scripts/device-contiguous-cycles.sh || rc=1
sanitize_contiguous tw 30 --edit lower.early-wait-kind=try || rc=1
echo "== ab_kernel_ir normal at $(elapsed)s"
timeout -k 5 110 python3 bench/ab_kernel_ir.py "--lower=tile-order=m;early-wait-kind=try" --rounds=3 \
  4096,7168,16384 4096,4096,7168 4096,7168,2048 4096,2112,7168 2>&1 |
  tee "$OUT/ab-ow-normal.log" | tail -14 || rc=1
echo "== DeepGEMM build at $(elapsed)s"
t_env=$env_t0
# shellcheck source=device-deepgemm-setup.sh
source scripts/device-deepgemm-setup.sh /tmp/dgemm-ow-cache
env_t0=$t_env
echo "== probes at $(elapsed)s"
probe_contiguous ow 90 dgemm,deepgemm,tm,tw,dgemm,deepgemm,tm,tw \
  --variant tm=lower.tile-order=m --variant tw=lower.early-wait-kind=try || rc=1
echo "== done at $(elapsed)s"
exit $rc
