#!/usr/bin/env bash
# The contiguous layout's B multicast (pairs of M blocks, a per-pair group
# check on the device) on the GPU machine, in one call:
#   run(command="bash scripts/device-contiguous-multicast-b.sh", carry=[".bundle", ".peers"])
# DeepGEMM builds in the background meanwhile (for steps 4 and 5).
# 1. bench/check_multicast_default.py, every case (the contiguous ones now
#    B multicast: pairs of one group, of two, with a -1 block, with one past
#    M), configs printed -> $OUT/check-multicast-default.log; fails when a
#    contiguous kernel is not _mcb;
# 2. its contiguous cases under compute-sanitizer memcheck and synccheck,
#    the first under racecheck -> $OUT/sanitize-contiguous-mcb-*.log;
# 3. bench/sweep_grouped.py: the 4 contiguous shapes at 128x192, without
#    multicast, with A and with B -> $OUT/sweep-contiguous-mcb.jsonl;
# 4. bench/probe_power.py: dgemm and DeepGEMM sustained (power, clock,
#    throttle) -> $OUT/probe-power.log;
# 5. bench/run_grouped.py --deepgemm --layout contiguous (the alternating
#    rounds beside DeepGEMM and the peers) -> $OUT/grouped-contiguous.jsonl.
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-mcb-cache
t0=$(date +%s)
rc=0
(BENCH=0 TESTS=0 bash scripts/device-deepgemm.sh > "$OUT/deepgemm-setup.log" 2>&1;
 echo "exit $?" >> "$OUT/deepgemm-setup.log") &
dg=$!

log="$OUT/check-multicast-default.log"
DGEMM_PRINT_CONFIGS=1 timeout -k 5 120 python3 bench/check_multicast_default.py > "$log" 2>&1 || rc=1
cat "$log"
mcb=$(grep -c "kernel dgemm_grouped_contiguous.*_mcb" "$log")
other=$(grep "kernel dgemm_grouped_contiguous" "$log" | grep -vc "_mcb")
echo "contiguous kernels with B multicast: $mcb, others: $other"
[ "$mcb" -gt 0 ] && [ "$other" -eq 0 ] || rc=1

for tool in memcheck synccheck racecheck; do
  log="$OUT/sanitize-contiguous-mcb-$tool.log"
  sub="--contiguous"; limit=120
  [ "$tool" = racecheck ] && sub="--contiguous --subset" && limit=150
  # shellcheck disable=SC2086
  sanitize_check "$tool" "$log" $limit python3 bench/check_multicast_default.py $sub || rc=1
done

echo "== sweep at $(( $(date +%s) - t0 ))s"
timeout -k 5 150 python3 bench/sweep_grouped.py --layout contiguous --blocks 128x192 \
  --multicast --multicast-b --out "$OUT/sweep-contiguous-mcb.jsonl" || rc=1
python3 - "$OUT/sweep-contiguous-mcb.jsonl" <<'EOF'
import json, re, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    row = ["%s G%d m%d n%d k%d" % (r["layout"], r["groups"], r["m"], r["n"], r["k"])]
    for c in r["candidates"]:
        mc = re.search(r"multicast = (\w+)", c["config"]).group(1)
        row.append("%s %s" % (mc, "%.0f us" % c["us"] if "us" in c else c.get("error")))
    row.append("selected %.0f us" % r["selected_us"])
    print(" | ".join(row))
EOF

wait $dg
grep "DeepGEMM build\|^deep_gemm\|^exit" "$OUT/deepgemm-setup.log"
# shellcheck source=deepgemm-env.sh
source scripts/deepgemm-env.sh
echo "== probe at $(( $(date +%s) - t0 ))s"
timeout -k 5 90 python3 bench/probe_power.py --seconds 4 \
  --phases dgemm,deepgemm,dgemm,deepgemm 2>&1 | tee "$OUT/probe-power.log" || rc=1
left=$((${TOTAL_S:-560} - ($(date +%s) - t0)))
echo "== run_grouped --deepgemm --layout contiguous with ${left}s"
if [ "$left" -gt 60 ]; then
  timeout -k 5 "$left" python3 bench/run_grouped.py --deepgemm --layout contiguous \
    --time-budget $((left - 40)) --out "$OUT/grouped-contiguous.jsonl" || rc=1
fi
exit $rc
