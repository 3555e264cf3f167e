#!/usr/bin/env bash
# group-prefetch (dgemm-lower-to-kernel: the contiguous layout's next
# m_indices entries loaded a tile ahead; with b-scale-prefetch, its next
# B scales copied after the K loop) against the selected kernel, both
# sustained under the power cap beside DeepGEMM, then the contiguous
# kernel's warp-stall samples per SASS instruction, in one call:
#   run(command="bash scripts/device-group-prefetch.sh", carry=[".bundle", ".peers"])
# 1. DeepGEMM built (device-deepgemm-setup.sh; DG_REUSE=1 keeps a build;
#    DG=0: without DeepGEMM);
# 2. bench/probe_power.py on 4 x 8192 rows, N 4096, K 7168 and on 4 x 8192
#    rows, N 7168, K 2048: dgemm's call, DeepGEMM, the selected config
#    through the kernel-IR path (base, a control), with group-prefetch=on
#    (gp) and with b-scale-prefetch=on as well (bp), each output checked
#    once, two rounds -> $OUT/probe-gp-*.log;
# 3. bench/check_contiguous_lowering.py: both options (and with B
#    multicast forced) on the edge cases of the contiguous tile walk ->
#    $OUT/check-contiguous-lowering.log;
# 4. with SANITIZE=1 (the default): compute-sanitizer racecheck and
#    synccheck on check_contiguous_lowering.py's edge cases (no random or
#    reference case) lowered with both options, B multicast also forced
#    (cp.async, its wait and the named barrier are a new pattern) ->
#    $OUT/{racecheck,synccheck}-gp.log;
# 5. with PROFILE=1 (the default) and the time left (TOTAL_S, 560 s):
#    SOURCE=1 scripts/device-contiguous-profile.sh -> $OUT/ncu-*.
set -uo pipefail
t0=$(date +%s)
rc=0
phases=dgemm,deepgemm,base,gp,bp,base,gp,bp,deepgemm,dgemm
if [ "${DG:-1}" = 1 ]; then
  # shellcheck source=device-deepgemm-setup.sh
  source "$(dirname "$0")/device-deepgemm-setup.sh" /tmp/dgemm-gp-cache
else
  # DG=0: without DeepGEMM (no build; the short form for little device time).
  # shellcheck source=device-env.sh
  source "$(dirname "$0")/device-env.sh" /tmp/dgemm-gp-cache
  phases=dgemm,base,gp,bp,base,gp,bp,dgemm
fi
echo "== probes at $(( $(date +%s) - t0 ))s"
probe_contiguous gp 150 "$phases" --variant base= \
  --variant gp=lower.group-prefetch=on \
  --variant bp=lower.group-prefetch=on,lower.b-scale-prefetch=on || rc=1
echo "== check_contiguous_lowering at $(( $(date +%s) - t0 ))s"
timeout -k 5 150 python3 bench/check_contiguous_lowering.py --random "${RANDOM_CASES:-10}" \
  --edit lower.group-prefetch=on \
  --edit lower.group-prefetch=on,lower.b-scale-prefetch=on \
  --edit cluster=2,multicast=b,lower.group-prefetch=on,lower.b-scale-prefetch=on 2>&1 |
  tee "$OUT/check-contiguous-lowering.log" || rc=1
if [ "${SANITIZE:-1}" = 1 ]; then
  for tool in racecheck synccheck; do
    echo "== $tool at $(( $(date +%s) - t0 ))s"
    sanitize_check "$tool" "$OUT/$tool-gp.log" 120 --print-limit 20 --kernel-name kns=dgemm \
      python3 bench/check_contiguous_lowering.py --random 0 --no-reference \
      --edit lower.group-prefetch=on,lower.b-scale-prefetch=on \
      --edit cluster=2,multicast=b,lower.group-prefetch=on,lower.b-scale-prefetch=on || rc=1
  done
fi
left=$((${TOTAL_S:-560} - ($(date +%s) - t0)))
if [ "${PROFILE:-1}" = 1 ] && [ "$left" -gt 200 ]; then
  echo "== SOURCE=1 device-contiguous-profile.sh with ${left}s"
  DG_REUSE=1 SOURCE=1 NCU_S=$((left - 30)) \
    bash scripts/device-contiguous-profile.sh || rc=1
else
  echo "no profile (${left}s left)"
fi
exit $rc
