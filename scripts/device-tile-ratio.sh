#!/usr/bin/env bash
# 256x128 against 128x192 tiles beyond M = 4096, and 128-row multicast with
# the drained exit (dgemm-lower-to-kernel{multicast-exit=drain}), on the
# normal GEMM and the contiguous layout: the data for the cost model's
# row-wave cost R (lib/Config/ConfigSelection.cpp; at 8192x4096x7168 the
# model picks 128x192, 1240 TFLOPS on the H100, where 256x128 ran at 1373,
# bench/results/2026-12-06-757b9d9-h100-ab-multicast-drain.log). One call:
#   run(command="bash scripts/device-tile-ratio.sh", carry=[".bundle"])
# 1. bench/ab_kernel_ir.py, 3 rounds, each variant checked:
#    shapes the selection runs at 128x192: against 256x128 (3 stages) and
#    128x192 with A (N blocks even) or B multicast, drained -> $OUT/ab-tiles-128x192.log;
#    shapes it runs at 256x128: against 128x192 (4 stages) and 256x128 with
#    B multicast, drained -> $OUT/ab-tiles-256x128.log;
# 2. bench/sweep_grouped.py, contiguous layout: 128x192, 128x160 and
#    128x128, each with and without A multicast, drained ->
#    $OUT/sweep-contiguous-multicast-drain.jsonl.
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-tile-cache
rc=0
drain="lower.multicast-exit=drain"
bm256="block_m=256,block_n=128,stages=3,num_sms=132"
bm128="block_m=128,block_n=192,stages=4,num_sms=132"
SHAPES_128=${SHAPES_128:-8192,4096,7168 16384,4096,7168 32768,4096,7168 8192,7168,2048 32768,7168,2048 8192,7168,16384 4096,24576,1536}
# (odd N block counts at 128x192: no A multicast)
SHAPES_128_ODD=${SHAPES_128_ODD:-4096,2112,7168 4096,32768,512}
SHAPES_256=${SHAPES_256:-4096,7168,16384 4096,4096,7168 4096,7168,2048}
# shellcheck disable=SC2086
timeout -k 5 240 python3 bench/ab_kernel_ir.py \
  "--config=$bm256;$bm128,cluster=2,multicast=a,$drain;$bm128,cluster=2,multicast=b,$drain" \
  $SHAPES_128 2>&1 | tee "$OUT/ab-tiles-128x192.log" || rc=1
# shellcheck disable=SC2086
timeout -k 5 90 python3 bench/ab_kernel_ir.py \
  "--config=$bm256;$bm128,cluster=2,multicast=b,$drain" \
  $SHAPES_128_ODD 2>&1 | tee -a "$OUT/ab-tiles-128x192.log" || rc=1
# shellcheck disable=SC2086
timeout -k 5 90 python3 bench/ab_kernel_ir.py \
  "--config=$bm128;$bm256,cluster=2,multicast=b,$drain" \
  $SHAPES_256 2>&1 | tee "$OUT/ab-tiles-256x128.log" || rc=1
timeout -k 5 200 python3 bench/sweep_grouped.py --layout contiguous \
  --blocks 128x192,128x160,128x128 --multicast --lower multicast-exit=drain \
  --out "$OUT/sweep-contiguous-multicast-drain.jsonl" 2>&1 |
  tee "$OUT/sweep-contiguous-multicast-drain.log" || rc=1
exit $rc
