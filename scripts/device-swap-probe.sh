#!/usr/bin/env bash
# Two probes on the GPU machine (bundle carried, as for scripts/device-run.sh):
#   run(command="bash scripts/device-swap-probe.sh", carry=[".bundle"])
# 1. bench/probe_swap_headroom.py: what the tiles of a masked kernel with its
#    operands swapped would cost, beside the masked kernel on the drawn 4-group
#    K 2048 sizes -> $OUT/probe-swap-headroom.log
# 2. the contiguous layout with a group's M blocks first in the tile order
#    (swizzle_group 1; the masked layout's order since 3033a93) against the
#    selection's, equal and drawn sizes, with a control
#    -> $OUT/ab-contiguous-order{,-drawn}.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
rc=0
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
timeout 200 python3 bench/probe_swap_headroom.py --rounds "${ROUNDS:-5}" 2>&1 |
  tee "$OUT/probe-swap-headroom.log" || rc=1
for drawn in "" --drawn; do
  timeout 200 python3 bench/ab_masked_gap.py --layout contiguous --all --rounds 3 --control \
    --edit swizzle_group=1 $drawn 2>&1 | tee "$OUT/ab-contiguous-order${drawn:+-drawn}.log" || rc=1
done
exit $rc
