#!/usr/bin/env bash
# Profiles one dgemm kernel with Nsight Compute on the GPU machine (after
# scripts/device-run.sh has unpacked the bundle, or unpacking it itself):
#   SHAPE=4096,7168,16384 bash scripts/device-profile.sh
# Writes $OUT/ncu-<shape>.txt: speed of light, warp states, scheduler and
# memory sections of the kernel's first launch. SOURCE=1 also writes
# $OUT/ncu-source-<shape>.csv: warp-stall samples per SASS instruction
# (Nsight Compute's source page), and CLOCKS=1 $OUT/clocks-<shape>.txt:
# nvidia-smi dmon (SM clock, power) while the GEMM runs for a few seconds.
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-profile-cache
SHAPE=${SHAPE:-4096,7168,16384}
log="$OUT/ncu-${SHAPE//,/x}.txt"
timeout 300 ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
  --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section LaunchStats \
  --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active" \
  -k regex:dgemm_gemm -c 1 \
  python3 "$root/bench/run_bench.py" --no-csv --shapes "$SHAPE" --iters 1 --warmup 0 \
  --no-peers --host-calls 1 > "$log" 2>&1
rc=$?
grep -E "Duration|Throughput|Warp Cycles|Eligible|Registers|L2 Hit|stalled|gmma" "$log" |
  awk '$NF+0 >= 0.05 || !/stalled/' | head -60
echo "ncu rc=$rc, full report in $log"
if [ "${SOURCE:-0}" = 1 ]; then
  src="$OUT/ncu-source-${SHAPE//,/x}.csv"
  timeout 300 ncu --section SourceCounters --section WarpStateStats \
    --page source --print-source sass --csv -k regex:dgemm_gemm -c 1 \
    python3 "$root/bench/run_bench.py" --no-csv --shapes "$SHAPE" --iters 1 --warmup 0 \
    --no-peers --host-calls 1 > "$src" 2>&1
  echo "ncu source rc=$?, $(wc -l < "$src") lines in $src"
fi
if [ "${CLOCKS:-0}" = 1 ]; then
  clk="$OUT/clocks-${SHAPE//,/x}.txt"
  nvidia-smi dmon -s pc -d 1 > "$clk" 2>&1 &
  dmon=$!
  timeout 120 python3 "$root/bench/run_bench.py" --no-csv --shapes "$SHAPE" --iters 4000 \
    --warmup 3 --no-peers --host-calls 1 >> "$clk" 2>&1
  kill $dmon 2>/dev/null
  echo "clocks: $clk"; cat "$clk" | head -40
fi
exit $rc
