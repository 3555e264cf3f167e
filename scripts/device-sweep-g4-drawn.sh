#!/usr/bin/env bash
# G4 m256 N7168 K2048 masked, drawn and equal sizes: block M 128 configs and
# the 132-CTA grid, each with and without masked-walk=cost empty-row-waves=skip
# (bench/ab_masked_gap.py --edit) -> $OUT/sweep-g4.log. On 32b7059 the
# drawn run hung (128x128 with empty-row-waves=skip and k-unroll=2, which
# skipping no longer takes; bench/results/2026-12-02-32b7059-masked-skip-
# hang.log); bench/probe_masked_edits.py times the same edits one by one.
#   run(command="bash scripts/device-sweep-g4-drawn.sh", carry=[".bundle"])
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-sweep-g4-cache
cd "$root" || exit 2
both="lower.masked-walk=cost,lower.empty-row-waves=skip"
E="num_sms=132;num_sms=132,$both"
for bm in "block_m=128,stages=5,num_sms=132" "block_m=128,block_n=192,stages=4,num_sms=132" "block_m=128,block_n=160,stages=4,num_sms=132"; do E="$E;$bm;$bm,$both"; done
for d in --drawn ""; do
timeout 200 python3 bench/ab_masked_gap.py $d --only G4-m256-n7168-k2048 --edit "$E" 2>&1 | tee -a "$OUT/sweep-g4.log"
done
