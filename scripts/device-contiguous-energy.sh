#!/usr/bin/env bash
# Under the H100's power cap a call's time is its energy over the cap, so
# the contiguous kernel's lowering options are compared in sustained runs
# (bench/probe_power.py --variant), then the benchmark beside DeepGEMM runs
# with the time left, in one call:
#   run(command="bash scripts/device-contiguous-energy.sh", carry=[".bundle", ".peers"])
# 1. DeepGEMM built (device-deepgemm-setup.sh), then probe_power.py on 4 x
#    8192 rows, N 4096, K 7168: the runtime's kernel, DeepGEMM and the
#    selected config with each edit in VARIANTS, two rounds ->
#    $OUT/probe-power-variants.log;
# 2. scripts/device-deepgemm.sh (DG_REUSE=1) with the time left (TOTAL_S):
#    normal and grouped reference shapes beside DeepGEMM -> $OUT/bench*.jsonl,
#    $OUT/grouped.jsonl.
set -uo pipefail
t0=$(date +%s)
# shellcheck source=device-deepgemm-setup.sh
source "$(dirname "$0")/device-deepgemm-setup.sh" /tmp/dgemm-energy-cache
rc=0
# NAME=EDITS (bench/sweep.py's edit_config syntax), space-separated.
VARIANTS=${VARIANTS:-"base= stm=lower.staging-store=stmatrix p2=lower.wgmma-parts=2 hd=lower.l2-hint-d=evict-first hb=lower.l2-hint-b=evict-last bs=lower.b-scale-copy=shared"}
args=()
names=""
for v in $VARIANTS; do
  args+=(--variant "$v")
  names="$names,${v%%=*}"
done
phases="dgemm,deepgemm$names,dgemm,deepgemm$names"
echo "== probe at $(( $(date +%s) - t0 ))s: $phases"
timeout -k 5 150 python3 bench/probe_power.py --seconds 3 "${args[@]}" --phases "$phases" 2>&1 |
  tee "$OUT/probe-power-variants.log" || rc=1
left=$((${TOTAL_S:-560} - ($(date +%s) - t0)))
echo "== device-deepgemm.sh with ${left}s"
if [ "$left" -gt 240 ]; then
  DG_REUSE=1 SANITIZE=0 GROUPED_BUDGET_S=${GROUPED_BUDGET_S:-170} TOTAL_S=$left \
    bash scripts/device-deepgemm.sh || rc=1
else
  echo "too little time left for device-deepgemm.sh"
fi
exit $rc
