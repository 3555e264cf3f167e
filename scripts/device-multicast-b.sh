#!/usr/bin/env bash
# The B-multicast lowering on the GPU machine (bundle carried):
#   run(command="bash scripts/device-multicast-b.sh", carry=[".bundle"])
# 1. bench/check_multicast_b.py --time: each shape without multicast, with A
#    multicast where the selection pairs N blocks, and with B multicast,
#    checked (strict, guards) and timed -> $OUT/check-multicast-b.log
# 2. compute-sanitizer memcheck and racecheck on two of its small shapes
#    (odd M block count, one M block) -> $OUT/{memcheck,racecheck}-multicast-b.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
rc=0
timeout 300 python3 bench/check_multicast_b.py --time 2>&1 | tee "$OUT/check-multicast-b.log" || rc=1
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 \
    python3 bench/check_multicast_b.py 300,7168,2048 50,4096,7168 > "$OUT/$tool-multicast-b.log" 2>&1 || rc=1
  grep -E "SUMMARY|check_multicast_b" "$OUT/$tool-multicast-b.log"
done
exit $rc
