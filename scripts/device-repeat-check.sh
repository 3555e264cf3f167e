#!/usr/bin/env bash
# Whether the block M 128 kernels of one M block write the same output on
# every launch, with A's whole box and with it cut (a_box_rows): under
# compute-sanitizer memcheck, bench/ab_kernel_ir.py --check-only reported
# calc_diff 2.4e-05 for the cut 81x25552x14208 kernel against 1.4e-06 for
# the whole box (bench/results/2026-12-05-9f39a9c-ab-a-box-rows-128.log),
# and 3.7e-06 / 2.5e-06 for two launches of one kernel in 981a226's run,
# where every other check gives 1.3-1.4e-06. bench/probe_repeat_check.py
# launches each variant 10 times (strict check, bits against the first
# launch), then memcheck and racecheck on the same kernels. Bundle carried:
#   run(command="bash scripts/device-repeat-check.sh", carry=[".bundle"])
# -> $OUT/repeat-check.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
cd "$root" || exit 2
{
  rc=0
  echo "== plain, 10 launches each"
  timeout 120 python3 bench/probe_repeat_check.py --repeats=10 --config=a_box_rows=88 81,25552,14208 || rc=1
  timeout 60 python3 bench/probe_repeat_check.py --repeats=10 --config=a_box_rows=88 81,13312,1024 || rc=1
  timeout 60 python3 bench/probe_repeat_check.py --repeats=10 --config=a_box_rows=120 116,28704,16256 || rc=1
  if command -v compute-sanitizer > /dev/null; then
    echo "== memcheck, 3 launches each"
    timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=3 --config=a_box_rows=88 81,25552,14208 || rc=1
    echo "== racecheck"
    timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=2 --config=a_box_rows=88 81,13312,1024 || rc=1
    echo "== synccheck"
    timeout 100 compute-sanitizer --tool synccheck --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=1 --config=a_box_rows=88 81,13312,1024 || rc=1
  else
    echo "compute-sanitizer not found: sanitizers skipped"
  fi
  exit $rc
} 2>&1 | tee "$OUT/repeat-check.log"
exit "${PIPESTATUS[0]}"
