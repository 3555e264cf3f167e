#!/usr/bin/env bash
# The k-grouped GEMM with one group against the weight-gradient GEMM of the
# same problem (4096 x 7168, K = 16128: the same tiles, K blocks and D
# traffic), on the GPU machine: what the k-grouped machinery alone costs.
#   bash scripts/device-kgrouped-g1.sh
# $OUT/kgrouped-g1-probe.jsonl: bench/probe_kgrouped.py's timings (1-8
# groups beside the weight-gradient GEMM, alternating, checked);
# $OUT/ncu-kgrouped-g1.txt: Nsight Compute's throughput, memory, scheduler,
# warp-state and instruction sections of the one-group kernel and the
# weight-gradient kernel (locked clocks, one launch each);
# $OUT/ncu-source-kgrouped-g1.csv.xz: their warp-stall samples per SASS
# instruction (scripts/device-kgrouped-source.sh); with FULL=1
# $OUT/ncu-raw-kgrouped-g1.csv.xz: every metric of the full set. PROBE=0,
# SECTIONS=0, SOURCE=0 leave out the first three.
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-kgrouped-cache
SHAPE=${SHAPE:-4096,7168}
# The one-group kernel and the weight-gradient GEMM of probe_kgrouped --once.
KERNELS='regex:dgemm_(k_grouped_m[0-9]+_g1_|gemm_)'
if [ "${PROBE:-1}" = 1 ]; then
  timeout 240 python3 "$root/bench/probe_kgrouped.py" "$SHAPE" --power | tee "$OUT/kgrouped-g1-probe.jsonl"
  echo "probe rc=${PIPESTATUS[0]}"
fi
if [ "${SECTIONS:-1}" = 1 ]; then
  timeout 200 ncu --section SpeedOfLight --section ComputeWorkloadAnalysis \
    --section MemoryWorkloadAnalysis --section SchedulerStats \
    --section WarpStateStats --section InstructionStats --section LaunchStats \
    -k "$KERNELS" -c 2 python3 "$root/bench/probe_kgrouped.py" "$SHAPE" --once \
    > "$OUT/ncu-kgrouped-g1.txt" 2>&1
  echo "ncu rc=$?"
  grep -vE "^==PROF==|^ *-+ *$" "$OUT/ncu-kgrouped-g1.txt" | grep -E "dgemm_|Duration|Cycles|Throughput|Hit Rate|Stall|Issued|Eligible|Active Warps|Executed Ipc|Busy|Bytes|Registers|Grid Size" | head -120
fi
if [ "${SOURCE:-1}" = 1 ]; then
  SHAPE="$SHAPE" KERNELS="$KERNELS" COUNT=2 NAME=-g1 TOP=15 BUCKETS=12 \
    bash "$root/scripts/device-kgrouped-source.sh"
fi
# Every metric of Nsight Compute's full set for the two kernels (raw page,
# CSV), to compare them metric by metric.
if [ "${FULL:-0}" = 1 ]; then
  timeout 400 ncu --set full --page raw --csv -k "$KERNELS" -c 2 \
    python3 "$root/bench/probe_kgrouped.py" "$SHAPE" --once > "$OUT/ncu-raw-kgrouped-g1.csv" 2>&1
  echo "ncu full rc=$?"
  xz -f "$OUT/ncu-raw-kgrouped-g1.csv"
fi
