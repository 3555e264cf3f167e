#!/usr/bin/env bash
# compute-sanitizer's four tools on the normal GEMM's sanitizer shapes
# (bench/run_bench.py --sanitize, which holds 20x2112x7296: A's TMA box cut
# to 24 rows, 4 past A's last row), then scripts/device-a-box-rows-128.sh
# (A's box cut at block M 128). A shorter call than device-run.sh for when
# only these have to run. Bundle carried:
#   run(command="bash scripts/device-sanitize-a-box.sh", carry=[".bundle"])
# -> $OUT/{memcheck,racecheck,synccheck,initcheck}-a-box.log and
#    $OUT/ab-a-box-rows-128.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-sanitize-cache
rc=0
for tool in memcheck racecheck synccheck initcheck; do
  extra=()
  [ "$tool" = racecheck ] && extra=(--kernel-name kns=dgemm)
  timeout -k 10 150 compute-sanitizer --tool "$tool" --error-exitcode 99 \
    --print-limit 20 "${extra[@]}" python3 bench/run_bench.py --sanitize \
    > "$OUT/$tool-a-box.log" 2>&1
  r=$?
  echo "$tool: exit $r; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|checks:' "$OUT/$tool-a-box.log" | tr '\n' ' ')"
  grep -E "a_box_rows|m=20 " "$OUT/$tool-a-box.log" | head -2
  [ $r -ne 0 ] && rc=1
done
bash "$(dirname "$0")/device-a-box-rows-128.sh" > /dev/null 2>&1 || rc=1
tail -n 60 "$OUT/ab-a-box-rows-128.log"
exit $rc
