#!/usr/bin/env bash
# early-b-scales (dgemm-lower-to-kernel: in the stage-unrolled K loop each
# copy of the body loads the next K block's B scales once it released its
# stage, before its promotion, instead of after its own full-barrier
# wait) against the default, in one call on the GPU machine (bundle
# carried):
#   run(command="bash scripts/device-early-b-scales.sh", carry=[".bundle"])
# 1. bench/check_contiguous_lowering.py with the option on (the selected
#    config, and without clusters) on the walk's edge cases and random
#    cases -> $OUT/check-eb-contiguous.log;
# 2. bench/probe_power.py sustained on the contiguous 4 x 8192 rows at
#    N 4096 / K 7168 and N 7168 / K 2048: the selected config (base)
#    against early-b-scales=on (eb), alternating -> $OUT/probe-eb-*.log;
# 3. bench/ab_kernel_ir.py on the M = 4096 normal shapes whose kernels it
#    changes (128x192 and 256x128), 5 rounds -> $OUT/ab-eb-normal.log;
# 4. bench/ab_masked_gap.py --all (the masked shapes) -> $OUT/ab-eb-masked.log;
# 5. compute-sanitizer racecheck and synccheck on step 1's edge cases ->
#    $OUT/{racecheck,synccheck}-eb.log;
# 6. the SASS of every kernel the steps above cached (device-env.sh
#    cache_sass) -> $OUT/sass-eb.tar.xz.
set -uo pipefail
rc=0
# shellcheck source=device-env.sh
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-eb-cache
echo "== check_contiguous_lowering at $(elapsed)s"
timeout -k 5 120 python3 bench/check_contiguous_lowering.py --random "${RANDOM_CASES:-10}" \
  --edit lower.early-b-scales=on \
  --edit cluster=1,multicast=none,lower.early-b-scales=on 2>&1 |
  tee "$OUT/check-eb-contiguous.log" || rc=1
echo "== probes at $(elapsed)s"
probe_contiguous eb 150 base,eb,base,eb,base,eb --variant base= \
  --variant eb=lower.early-b-scales=on || rc=1
echo "== ab_kernel_ir normal at $(elapsed)s"
timeout -k 5 200 python3 bench/ab_kernel_ir.py "--lower=early-b-scales=on" \
  --rounds=5 4096,2112,7168 4096,4096,7168 4096,7168,2048 4096,7168,16384 \
  2>&1 | tee "$OUT/ab-eb-normal.log" || rc=1
if [ "${MASKED:-1}" = 1 ]; then
  echo "== ab_masked_gap at $(elapsed)s"
  timeout -k 5 200 python3 bench/ab_masked_gap.py --all --lower "early-b-scales=on" \
    2>&1 | tee "$OUT/ab-eb-masked.log" || rc=1
fi
sanitize_contiguous eb 100 --edit lower.early-b-scales=on || rc=1
echo "== sass at $(elapsed)s"
cache_sass /tmp/dgemm-eb-cache "$OUT/sass" || rc=1
tar -C "$OUT" -cJf "$OUT/sass-eb.tar.xz" sass && rm -rf "$OUT/sass"
echo "== done at $(elapsed)s"
exit $rc
