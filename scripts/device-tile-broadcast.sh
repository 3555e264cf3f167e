#!/usr/bin/env bash
# dgemm-lower-to-kernel{tile-broadcast=on} (the consumers take each tile's
# coordinates and ring counter through a lane-0 shuffle, so that ptxas
# knows them warp-uniform) against the selected grouped kernels, on the GPU
# machine:
#   run(command="bash scripts/device-tile-broadcast.sh", carry=[".bundle"])
# 1. bench/ab_masked_gap.py --all, masked and contiguous, drawn sizes for
#    the masked shapes too, each variant checked first
#    -> $OUT/ab-tile-broadcast.log
# 2. per kernel, SASS instruction counts that tell uniform from vector
#    address arithmetic (RUR, BSSY, UIMAD, IMAD) -> $OUT/sass-counts.txt
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-tb-cache
cd "$root" || exit 2
mkdir -p "$OUT/ir"
rc=0
for args in "--layout masked" "--layout masked --drawn" "--layout contiguous"; do
  # shellcheck disable=SC2086
  timeout 200 python3 bench/ab_masked_gap.py --all $args --lower tile-broadcast=on \
    --ir-dir "$OUT/ir" 2>&1 | tee -a "$OUT/ab-tile-broadcast.log" || rc=1
done
for ir in "$OUT"/ir/G1-m1024-n7168-k2048-grouped*.mlir "$OUT"/ir/G4-m256-n7168-k2048-grouped*.mlir; do
  name=$(basename "$ir" .mlir)
  kernel_sass "$ir" "$name" || rc=1
  printf '%s RUR %s BSSY %s UIMAD %s IMAD %s instructions %s\n' "$name" \
    "$(grep -c 'RUR ' "$OUT/sass/$name.sass")" "$(grep -c 'BSSY' "$OUT/sass/$name.sass")" \
    "$(grep -c 'UIMAD' "$OUT/sass/$name.sass")" "$(grep -c ' IMAD' "$OUT/sass/$name.sass")" \
    "$(grep -c '/\*[0-9a-f]\{4\}\*/' "$OUT/sass/$name.sass")" | tee -a "$OUT/sass-counts.txt"
done
rm -rf "$OUT/ptx" "$OUT/ir" "$OUT/sass"
exit $rc
