#!/usr/bin/env bash
# The masked layout's gap to the normal GEMM, on the GPU machine (bundle
# carried, as for scripts/device-run.sh):
#   run(command="bash scripts/device-masked-gap.sh", carry=[".bundle"])
# 1. bench/ab_masked_gap.py --all: masked, normal and normal-wide kernels with
#    the same config, timed alternately -> $OUT/ab-masked-gap.log, and their
#    kernel IR -> $OUT/ir/
# 2. each kernel IR to PTX (dgemm-opt), cubin (ptxas) and SASS (cuobjdump)
#    -> $OUT/sass/<shape>-<variant>.sass
# 3. NCU=1: Nsight Compute on one launch of each K = 2048 variant
#    -> $OUT/ncu-masked-gap.txt
# 4. SOURCE=1: Nsight Compute's warp-stall samples per SASS instruction of the
#    4 groups x 256 rows, N 7168, K 2048 masked kernel, its normal-wide and
#    normal kernels -> $OUT/ncu-source-masked-gap.csv
# LOWER: extra variants' dgemm-lower-to-kernel options (ab_masked_gap.py --lower);
# EDIT: extra variants' config edits (--edit); NCU_CLOCK: Nsight Compute's
# --clock-control (base: its locked clock; none: the GPU's own clocks).
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-gap-cache
mkdir -p "$OUT/ir"
rc=0
timeout 300 python3 bench/ab_masked_gap.py --all --ir-dir "$OUT/ir" --lower "${LOWER:-}" --edit "${EDIT:-}" 2>&1 |
  tee "$OUT/ab-masked-gap.log" || rc=1
for ir in "$OUT"/ir/*-grouped.mlir "$OUT"/ir/*-normal.mlir "$OUT"/ir/*-normal-wide.mlir; do
  kernel_sass "$ir" "$(basename "$ir" .mlir)" || rc=1
done
ls -l "$OUT/sass"
if [ "${NCU:-0}" = 1 ]; then
  timeout 240 ncu --clock-control "${NCU_CLOCK:-base}" --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --metrics "dram__bytes_read.sum,lts__t_sector_hit_rate.pct,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active" \
    -k regex:dgemm python3 bench/ab_masked_gap.py --profile > "$OUT/ncu-masked-gap.txt" 2>&1 || rc=1
  grep -E "dgemm_|Duration|DRAM Throughput|dram__bytes|hit_rate|gmma|Memory Throughput" \
    "$OUT/ncu-masked-gap.txt" | head -80
fi
if [ "${SOURCE:-0}" = 1 ]; then
  k=bm256_bn128_s3_g16_c112
  timeout 240 ncu --clock-control "${NCU_CLOCK:-base}" --section SourceCounters --section WarpStateStats \
    --page source --print-source sass --csv \
    -k "regex:^(dgemm_grouped_masked_g4_n7168_k2048_$k|dgemm_gemm_n28672_k2048_$k|dgemm_gemm_n7168_k2048_$k)\$" -c 3 \
    python3 bench/ab_masked_gap.py --profile --only G4-m256-n7168 > "$OUT/ncu-source-masked-gap.csv" 2>&1 || rc=1
  echo "ncu source: $(wc -l < "$OUT/ncu-source-masked-gap.csv") lines"
fi
exit $rc
