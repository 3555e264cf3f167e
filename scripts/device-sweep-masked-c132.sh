#!/usr/bin/env bash
# The 6 masked shapes swept on all 132 SMs (bench/sweep_grouped.py
# --num-sms 132), drawn and equal group sizes, four block shapes: whether a
# grid of every SM (the launch cannot know the real tile count, which
# masked_m sets) beats the selection's equal-size grid
# -> $OUT/sweep-masked-{drawn,equal}-c132.jsonl, $OUT/sweep-c132.log
# (9f2ddf6: bench/sweep/2026-12-02-9f2ddf6-masked-*-c132.jsonl).
#   run(command="bash scripts/device-sweep-masked-c132.sh", carry=[".bundle"])
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-sweep-g4-cache
for sizes in drawn equal; do
  timeout 270 python3 bench/sweep_grouped.py --layout masked --sizes "$sizes" --num-sms 132 \
    --blocks 256x128,256x112,128x192,128x128 --out "$OUT/sweep-masked-$sizes-c132.jsonl" \
    --iters 10 2>&1 | tee -a "$OUT/sweep-c132.log"
done
