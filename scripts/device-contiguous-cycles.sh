#!/usr/bin/env bash
# The contiguous kernel's lowering variants at the GPU's base clocks
# (Nsight Compute, one launch each: no power cap, no clock drift), to read
# what each option changes in cycles where probe_power's sustained times
# mix clocks and energy. One call on the GPU machine (bundle carried):
#   run(command="bash scripts/device-contiguous-cycles.sh", carry=[".bundle"])
# For each contiguous shape of $ONLY (default: 4 x 8192 rows at N 4096 /
# K 7168 and at N 7168 / K 2048), bench/ab_masked_gap.py --profile checks
# the selected kernel and each --edit of $EDITS once; ncu profiles every
# dgemm_grouped_contiguous launch: duration, elapsed cycles, instructions,
# the tensor pipe's active share and the stall ratios per issue ->
# $OUT/ncu-cycles-<shape>.txt, and a table of the first four on stdout.
# EXTRA_METRICS (comma-separated ncu metrics, e.g. dram__bytes_read.sum)
# are collected too and printed beside them.
set -uo pipefail
# shellcheck source=device-env.sh
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-cycles-cache
rc=0
EDITS=${EDITS:-"lower.full-rounds=on;lower.early-b-scales=on;lower.promote-versions=on;lower.early-full-wait=off"}
for only in ${ONLY:-G4-m8192-n4096-k7168 G4-m8192-n7168-k2048}; do
  log="$OUT/ncu-cycles-$only.txt"
  timeout -k 5 "${NCU_S:-200}" ncu --clock-control base \
    --section SpeedOfLight \
    --metrics "regex:smsp__average_warps_issue_stalled_(barrier|wait|dispatch_stall|long_scoreboard|short_scoreboard|math_pipe_throttle|selected|not_selected)_per_issue_active\.ratio,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum${EXTRA_METRICS:+,$EXTRA_METRICS}" \
    -k "regex:dgemm_grouped_contiguous" \
    python3 bench/ab_masked_gap.py --layout contiguous --all --profile --only "$only" \
    --edit "$EDITS" > "$log" 2>&1 || rc=1
  echo "== $only"
  extra=${EXTRA_METRICS:+|${EXTRA_METRICS//,/|}}
  grep -E "^  dgemm_grouped|Duration|Elapsed Cycles|gmma_cycles_active|inst_executed.sum|checked$extra" "$log" |
    sed -E 's/ +/ /g'
done
exit $rc
