#!/usr/bin/env bash
# Where the two-shape masked kernel's cost goes at K = 2048, where its first
# shape runs (docs/kernel.md, "Two tile shapes in one kernel"), on the GPU
# machine:
#   run(command="bash scripts/device-two-shape-profile.sh", carry=[".bundle"])
# (IR_SUB='REGEX=>REPLACEMENT' adds a kernel-IR edit as a variant to each step.)
# 1. bench/ab_masked_gap.py on the K = 2048 masked shapes: the selected
#    kernel (two shapes for G = 2 and 4), the same kernel again (--control),
#    the same config without its second shape (`--edit alt_...=-`), the
#    normal GEMM and normal-wide -> $OUT/ab-two-shape.log
# 2. both G = 4 kernels' SASS and ptxas -v -> $OUT/sass.tar.xz
# 3. Nsight Compute's warp-stall samples per SASS instruction (every 32
#    cycles) of one launch of each -> $OUT/ncu-source-two-shape.csv.xz,
#    scripts/ncu_source_buckets.py's summary -> $OUT/ncu-buckets-two-shape.txt
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-two-shape-cache
rc=0
one_shape='alt_block_m=-,alt_block_n=-,alt_stages=-,alt_num_sms=-'
# IR_SUB: also the grouped kernel edited by this --ir-sub (a variant to try).
sub=(); [ -n "${IR_SUB:-}" ] && sub=(--ir-sub "$IR_SUB")
timeout 300 python3 bench/ab_masked_gap.py --rounds "${ROUNDS:-5}" --control --edit "$one_shape" "${sub[@]}" \
  2>&1 | tee "$OUT/ab-two-shape.log" || rc=1
args=(--only G4-m256-n7168-k2048 --edit "$one_shape" "${sub[@]}" --profile)
timeout 120 python3 bench/ab_masked_gap.py "${args[@]}" --ir-dir "$OUT/ir" || rc=1
for ir in "$OUT"/ir/*-grouped*.mlir; do
  kernel_sass "$ir" "$(basename "$ir" .mlir)" || rc=1
done
grep -H "registers\|spill" "$OUT"/ptx/*.ptxas
timeout 240 ncu --clock-control base --warp-sampling-interval 0 \
  --section SourceCounters --section WarpStateStats \
  --page source --print-source sass --csv -k regex:dgemm_grouped_masked_g4 -c 2 \
  python3 bench/ab_masked_gap.py "${args[@]}" > "$OUT/ncu-source-two-shape.csv" 2>&1 || rc=1
python3 scripts/ncu_source_buckets.py "$OUT/ncu-source-two-shape.csv" \
  > "$OUT/ncu-buckets-two-shape.txt" 2>&1 || rc=1
head -80 "$OUT/ncu-buckets-two-shape.txt"
xz -9 "$OUT/ncu-source-two-shape.csv"
# One file for the PTX, cubins and SASS (the device tool returns a limited
# number of files).
tar -C "$OUT" -cJf "$OUT/sass.tar.xz" ptx sass && rm -rf "$OUT/ptx" "$OUT/sass"
exit $rc
