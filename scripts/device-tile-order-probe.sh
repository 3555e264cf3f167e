#!/usr/bin/env bash
# The contiguous kernel's tile order under the power cap, in one short call
# (no DeepGEMM): bench/probe_power.py on 4 x 8192 rows, N 4096, K 7168,
# the selected 128x192 B-multicast kernel with tile-order groups of 16 N
# blocks (the selection's), 8 and 11 (a wave of 66 pairs then spans about
# 16 M blocks by 8 N blocks, the footprint DeepGEMM's M-grouped order has),
# two rounds:
#   run(command="bash scripts/device-tile-order-probe.sh", carry=[".bundle"])
# -> $OUT/probe-tile-order.log. Knob: PROBE_S (seconds a phase, 2.5).
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-order-cache
timeout -k 5 100 python3 bench/probe_power.py --seconds "${PROBE_S:-2.5}" \
  --variant g16= --variant g8=swizzle_group=8 --variant g11=swizzle_group=11 \
  --phases g16,g8,g11,dgemm,g16,g8,g11,dgemm 2>&1 | tee "$OUT/probe-tile-order.log"
