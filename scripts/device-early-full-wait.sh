#!/usr/bin/env bash
# early-full-wait (dgemm-lower-to-kernel: the stage-unrolled K loop tests
# the next stage's full barrier before the promotion and waits only where
# that failed; the default since 24b03d3) against early-full-wait=off, in
# one call on the GPU machine (bundle carried; first run on adeabea, where
# the option was opt-in and the A/B ran the other way round):
#   run(command="bash scripts/device-early-full-wait.sh", carry=[".bundle"])
# 1. bench/probe_power.py sustained on the contiguous 4 x 8192 rows at
#    N 4096 / K 7168 and N 7168 / K 2048: the selected config through the
#    kernel-IR path (base: early) and with early-full-wait=off (nfw), alternating,
#    each output checked once -> $OUT/probe-fw-*.log;
# 2. bench/ab_kernel_ir.py on the 18 normal shapes, 5 rounds (each variant
#    checked): the pipeline's lowering against early-full-wait=off and =on
#    (=on also takes the test into the loops that are not stage-unrolled;
#    where a kernel is the same as the pipeline's it is a control) ->
#    $OUT/ab-fw-normal.log;
# 3. bench/check_contiguous_lowering.py with each setting (and with B
#    multicast forced) on the walk's edge cases and random cases ->
#    $OUT/check-fw-contiguous.log; compute-sanitizer racecheck and
#    synccheck on its edge cases -> $OUT/{racecheck,synccheck}-fw.log;
# 4. MASKED=1 (the default) and time left (TOTAL_S, 540 s):
#    bench/ab_masked_gap.py --all --lower early-full-wait=off ->
#    $OUT/ab-fw-masked.log.
set -uo pipefail
rc=0
# shellcheck source=device-env.sh
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-fw-cache
echo "== probes at $(elapsed)s"
probe_contiguous fw 120 base,nfw,base,nfw,base,nfw --variant base= \
  --variant nfw=lower.early-full-wait=off || rc=1
echo "== ab_kernel_ir normal at $(elapsed)s"
timeout -k 5 240 python3 bench/ab_kernel_ir.py "--lower=early-full-wait=off;early-full-wait=on" \
  --rounds=5 --normal 2>&1 | tee "$OUT/ab-fw-normal.log" || rc=1
echo "== check_contiguous_lowering at $(elapsed)s"
timeout -k 5 120 python3 bench/check_contiguous_lowering.py --random "${RANDOM_CASES:-10}" \
  --edit lower.early-full-wait=on \
  --edit lower.early-full-wait=off \
  --edit cluster=2,multicast=b,lower.early-full-wait=on 2>&1 |
  tee "$OUT/check-fw-contiguous.log" || rc=1
sanitize_contiguous fw 100 --edit lower.early-full-wait=on \
  --edit cluster=2,multicast=b,lower.early-full-wait=on || rc=1
left=$((${TOTAL_S:-540} - $(elapsed)))
if [ "${MASKED:-1}" = 1 ] && [ "$left" -gt 60 ]; then
  echo "== ab_masked_gap with ${left}s"
  timeout -k 5 "$left" python3 bench/ab_masked_gap.py --all \
    --lower early-full-wait=off 2>&1 | tee "$OUT/ab-fw-masked.log" || rc=1
else
  echo "no masked A/B (${left}s left)"
fi
echo "== done at $(elapsed)s"
exit $rc
