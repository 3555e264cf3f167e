#!/usr/bin/env bash
# The runtime's multicast kernels (kernelCapabilities: 8192 rows or more at
# K >= 2048, drained exit) on the GPU machine, in one call:
#   run(command="bash scripts/device-multicast-default.sh", carry=[".bundle", ".peers"])
# 1. bench/check_multicast_default.py: normal (A and B multicast, 128x192
#    and 256x128), bias and contiguous kernels, each checked, configs
#    printed (DGEMM_PRINT_CONFIGS) -> $OUT/check-multicast-default.log;
# 2. the same under compute-sanitizer memcheck, racecheck (3 of the cases:
#    --subset) and synccheck ->
#    $OUT/sanitize-multicast-default-*.log;
# 3. scripts/device-deepgemm.sh with the time left (TOTAL_S): the reference
#    shapes beside DeepGEMM, the contiguous ones now multicast.
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-mcdef-cache
t0=$(date +%s)
rc=0
DGEMM_PRINT_CONFIGS=1 timeout -k 5 120 python3 bench/check_multicast_default.py \
  > "$OUT/check-multicast-default.log" 2>&1 || rc=1
cat "$OUT/check-multicast-default.log"
# racecheck takes about a minute a case (8192 rows): three cases.
for tool in memcheck racecheck synccheck; do
  log="$OUT/sanitize-multicast-default-$tool.log"
  sub=""; limit=150
  [ "$tool" = racecheck ] && sub="--subset" && limit=240
  # shellcheck disable=SC2086
  sanitize_check "$tool" "$log" $limit python3 bench/check_multicast_default.py $sub || rc=1
done
left=$((${TOTAL_S:-570} - ($(date +%s) - t0)))
echo "== device-deepgemm.sh with ${left}s"
if [ "$left" -gt 300 ]; then
  TOTAL_S=$left bash scripts/device-deepgemm.sh || rc=1
else
  echo "too little time left for device-deepgemm.sh"
fi
exit $rc
