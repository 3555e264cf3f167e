#!/usr/bin/env bash
# G4 m256 N7168 K2048 masked (issue 6's failing case: drawn group sizes at
# 0.67x the normal GEMM), swept with bench/sweep_grouped.py: the block
# shapes below, each with and without multicast A, with drawn and with equal
# sizes, lowered by default and with masked-walk=cost
# -> $OUT/sweep-g4-<sizes>-<lowering>.jsonl and $OUT/sweep-g4.log. One
# config must serve both size kinds (the launch may not depend on masked_m),
# so the pair of sweeps is what a selection is judged on. (Run on 9f2ddf6
# with empty-row-waves=skip beside the cost walk, an option since removed:
# bench/sweep/2026-12-02-9f2ddf6-masked-g4-*.jsonl.)
#   run(command="bash scripts/device-sweep-g4-drawn.sh", carry=[".bundle"])
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-sweep-g4-cache
blocks=${BLOCKS:-256x128,256x112,256x96,128x192,128x160,128x128,64x192,64x128}
for lower in default "masked-walk=cost"; do
  tag=$([ "$lower" = default ] && echo default || echo cost)
  opt=(); [ "$lower" = default ] || opt=(--lower "$lower")
  for sizes in drawn equal; do
    echo "== sizes $sizes, lowering $lower" | tee -a "$OUT/sweep-g4.log"
    timeout 240 python3 bench/sweep_grouped.py --layout masked --only G4-m256-n7168-k2048 \
      --sizes "$sizes" --blocks "$blocks" --multicast "${opt[@]}" \
      --out "$OUT/sweep-g4-$sizes-$tag.jsonl" 2>&1 | tee -a "$OUT/sweep-g4.log"
  done
done
