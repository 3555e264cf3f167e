#!/usr/bin/env bash
# Whether kernels whose two consumer warpgroups store their own rows
# (per-warpgroup epilogue: block M 128, bf16) write the same output on
# every launch. Under compute-sanitizer memcheck, bench/ab_kernel_ir.py
# --check-only reported calc_diff 2.4e-05 for the A-box-cut
# 81x25552x14208 kernel against 1.4e-06 for the whole box
# (bench/results/2026-12-05-9f39a9c-ab-a-box-rows-128.log), and 3.7e-06 /
# 2.5e-06 for two launches of one kernel in 981a226's run, where every
# other check gives 1.3-1.4e-06. The suspect: the tile's B scales are
# copied to shared memory at each tile's start with no barrier over both
# warpgroups before it, so one warpgroup can overwrite scales the other
# still reads. bench/probe_repeat_check.py launches each variant R times
# (run_bench's strict check, bits against the first launch); then memcheck
# and racecheck, with several tiles per CTA (num_sms edited down). Run
# for the bundle in $BUNDLE_DIRS (default: .bundle), one after the other,
# racecheck only for those in $RACECHECK_DIRS (default: all):
#   run(command="BUNDLE_DIRS='.bundle-base .bundle' RACECHECK_DIRS=.bundle-base bash scripts/device-repeat-check.sh",
#       carry=[".bundle", ".bundle-base"])
# -> $OUT/repeat-check.log
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/dgemm-device-out}
mkdir -p "$OUT"
{
  rc=0
  for dir in ${BUNDLE_DIRS:-.bundle}; do
    export BUNDLE_DIR="$here/../$dir"
    source "$here/device-env.sh" "/tmp/dgemm-repeat-cache-$dir"
    echo "######## bundle $dir: $(cat "$BUNDLE_DIR/COMMIT" 2>/dev/null)"
    echo "== plain"
    timeout 90 python3 bench/probe_repeat_check.py --repeats=8 --config=a_box_rows=88 81,25552,14208 || rc=1
    timeout 60 python3 bench/probe_repeat_check.py --repeats=10 --config=num_sms=8 81,13312,1024 || rc=1
    timeout 60 python3 bench/probe_repeat_check.py --repeats=10 --config=num_sms=22 2048,2112,1024 || rc=1
    timeout 60 python3 bench/probe_repeat_check.py --repeats=5 4096,2112,7168 || rc=1
    if command -v compute-sanitizer > /dev/null; then
      echo "== memcheck"
      timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 \
        python3 bench/probe_repeat_check.py --repeats=3 --config=a_box_rows=88 81,25552,14208 || rc=1
      case " ${RACECHECK_DIRS-${BUNDLE_DIRS:-.bundle}} " in *" $dir "*) ;; *) continue ;; esac
      echo "== racecheck"
      timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 \
        python3 bench/probe_repeat_check.py --repeats=1 --config=num_sms=22 2048,2112,1024 2>&1 | tail -25 || rc=1
    else
      echo "compute-sanitizer not found: sanitizers skipped"
    fi
  done
  echo "repeat-check: rc $rc"
  exit $rc
} 2>&1 | tee "$OUT/repeat-check.log"
exit "${PIPESTATUS[0]}"
