#!/usr/bin/env bash
# full-rounds (dgemm-lower-to-kernel: a stage-unrolled K loop whose K
# blocks are a multiple of the stages runs whole rounds, without each
# copy's test of its K block) and promote-versions (at block N 192, one
# round loop for each offset of the tile in its B-scale block, so that the
# promotions need no select) against the default, in one call on the GPU
# machine (bundle carried):
#   run(command="bash scripts/device-full-rounds.sh", carry=[".bundle"])
# 1. bench/check_contiguous_lowering.py with each option on (the selected
#    config; full-rounds also without clusters, and both together) on the
#    walk's edge cases and random cases ->
#    $OUT/check-fr-contiguous.log;
# 2. bench/probe_power.py sustained on the contiguous 4 x 8192 rows at
#    N 4096 / K 7168 and N 7168 / K 2048: the selected config (base)
#    against full-rounds=on (fr) and promote-versions=on (pv), alternating,
#    each output checked once
#    -> $OUT/probe-fr-*.log;
# 3. bench/ab_kernel_ir.py on the normal shapes whose kernels it changes
#    (4096x2112x7168; 4096x4096x7168 as a control), 5 rounds ->
#    $OUT/ab-fr-normal.log;
# 4. compute-sanitizer racecheck and synccheck on step 1's edge cases ->
#    $OUT/{racecheck,synccheck}-fr.log;
# 5. the SASS of every kernel the steps above cached (device-env.sh
#    cache_sass) -> $OUT/sass-fr.tar.xz, for reading where the ptxas-
#    reported spills of _fr and _pv sit; each kernel's local loads and
#    stores are counted on stdout.
set -uo pipefail
rc=0
# shellcheck source=device-env.sh
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-fr-cache
echo "== check_contiguous_lowering at $(elapsed)s"
timeout -k 5 120 python3 bench/check_contiguous_lowering.py --random "${RANDOM_CASES:-10}" \
  --edit lower.full-rounds=on \
  --edit cluster=1,multicast=none,lower.full-rounds=on \
  --edit lower.promote-versions=on \
  --edit lower.full-rounds=on,lower.promote-versions=on 2>&1 |
  tee "$OUT/check-fr-contiguous.log" || rc=1
echo "== probes at $(elapsed)s"
probe_contiguous fr 150 base,fr,pv,base,fr,pv,base --variant base= \
  --variant fr=lower.full-rounds=on \
  --variant pv=lower.promote-versions=on || rc=1
echo "== ab_kernel_ir normal at $(elapsed)s"
timeout -k 5 150 python3 bench/ab_kernel_ir.py "--lower=full-rounds=on;promote-versions=on" \
  --rounds=5 4096,2112,7168 4096,4096,7168 2>&1 | tee "$OUT/ab-fr-normal.log" || rc=1
sanitize_contiguous fr 100 --edit lower.full-rounds=on \
  --edit lower.promote-versions=on || rc=1
echo "== sass at $(elapsed)s"
cache_sass /tmp/dgemm-fr-cache "$OUT/sass" || rc=1
tar -C "$OUT" -cJf "$OUT/sass-fr.tar.xz" sass && rm -rf "$OUT/sass"
echo "== done at $(elapsed)s"
exit $rc
