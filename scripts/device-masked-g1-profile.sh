#!/usr/bin/env bash
# Why the one-group masked kernel with a constant group count runs 4-5%
# faster than the selected one (opaque count; docs/config-selection.md), on
# the GPU machine:
#   run(command="bash scripts/device-masked-g1-profile.sh", carry=[".bundle"])
# 1. both kernels' SASS (kernel IR from bench/ab_masked_gap.py --ir-dir,
#    dgemm-opt, ptxas, cuobjdump) -> $OUT/sass/
# 2. Nsight Compute's warp-stall samples per SASS instruction of one launch
#    of each (m1024 N7168 K2048) -> $OUT/ncu-source-g1.csv.xz, and
#    scripts/ncu_source_buckets.py's summary -> $OUT/ncu-buckets-g1.txt
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-g1-profile-cache
mkdir -p "$OUT/ir"
rc=0
constant='llvm\.inline_asm "mov\.b32 \$0, \$1;", "=r,r" (%\w+) : \(i32\) -> i32=>arith.ori \1, \1 : i32'
args=(--all --only G1-m1024-n7168-k2048 --ir-sub "$constant")
timeout 120 python3 bench/ab_masked_gap.py "${args[@]}" --profile --ir-dir "$OUT/ir" || rc=1
for ir in "$OUT"/ir/*-grouped*.mlir; do
  kernel_sass "$ir" "$(basename "$ir" .mlir)" || rc=1
done
ls -l "$OUT/sass"
timeout 240 ncu --clock-control base --section SourceCounters --section WarpStateStats \
  --page source --print-source sass --csv -k regex:dgemm_grouped_masked_g1 -c 2 \
  python3 bench/ab_masked_gap.py "${args[@]}" --profile > "$OUT/ncu-source-g1.csv" 2>&1 || rc=1
python3 scripts/ncu_source_buckets.py "$OUT/ncu-source-g1.csv" > "$OUT/ncu-buckets-g1.txt" 2>&1 || rc=1
cat "$OUT/ncu-buckets-g1.txt" | head -80
xz -9 "$OUT/ncu-source-g1.csv"
exit $rc
