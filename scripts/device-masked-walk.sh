#!/usr/bin/env bash
# The masked layout's cost walk (dgemm-lower-to-kernel{masked-walk=cost}) on
# the GPU machine, bundle carried as for scripts/device-run.sh:
#   run(command="bash scripts/device-masked-walk.sh", carry=[".bundle"])
# 1. bench/ab_masked_gap.py on the 6 masked shapes with drawn sizes: the
#    selected kernel against the variants (VARIANTS), and the cost walk on a
#    132-CTA grid -> $OUT/ab-masked-walk-drawn.log (each variant checked
#    against the float reference before it is timed)
# 2. bench/check_masked_walk.py: every walk checked on edge-case group sizes
#    and configs -> $OUT/check-masked-walk.log
# 3. compute-sanitizer racecheck and memcheck on its quick cases with the
#    cost walk -> $OUT/{racecheck,memcheck}-masked-walk.log
# 4. 1. with equal sizes -> $OUT/ab-masked-walk-equal.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-masked-walk-cache
walk="masked-walk=cost"
variants="${VARIANTS:-$walk}"
rc=0
timeout 150 python3 bench/ab_masked_gap.py --all --drawn --lower "$variants" \
  --edit "num_sms=132,lower.$walk" 2>&1 | tee "$OUT/ab-masked-walk-drawn.log" || rc=1
timeout 150 python3 bench/check_masked_walk.py > "$OUT/check-masked-walk.log" 2>&1 || rc=1
tail -n 1 "$OUT/check-masked-walk.log"
for tool in ${TOOLS:-racecheck memcheck}; do
  timeout 100 compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 20 \
    python3 bench/check_masked_walk.py --quick --lower "$walk" \
    > "$OUT/$tool-masked-walk.log" 2>&1 || rc=1
  tail -n 1 "$OUT/$tool-masked-walk.log"
done
timeout 120 python3 bench/ab_masked_gap.py --all --lower "$variants" \
  --edit "num_sms=132,lower.$walk" 2>&1 | tee "$OUT/ab-masked-walk-equal.log" || rc=1
exit $rc
