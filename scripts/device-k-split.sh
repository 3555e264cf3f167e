#!/usr/bin/env bash
# The K split of 64-row tiles over two consumer warpgroups
# (dgemm-lower-to-kernel{consumer-k-split}, auto by default: block N <= 56
# with at least 56 K blocks) on the GPU machine, bundle carried as for
# scripts/device-run.sh:
#   run(command="bash scripts/device-k-split.sh", carry=[".bundle"])
# 1. compute-sanitizer racecheck and memcheck with the K split on, each
#    variant launched once and checked (--check-only: timed loops under
#    racecheck ran past 240 s), on edge cases: an odd number of K blocks
#    (64,2112,7296), one K block (warpgroup 1 idle: 100,1000,128), several
#    tiles per CTA with an odd and an even number of K blocks (64,32768,640
#    and 512) -> $OUT/racecheck-k-split.log, $OUT/memcheck-k-split.log
#    (EDGES: other shapes; TOOLS: other sanitizer tools)
# 2. bench/ab_kernel_ir.py: the pipeline's kernel (auto) against it with the
#    K split off and on, each checked against the float reference, then timed
#    alternately (3 rounds), on the reference shapes auto splits and two of
#    M = 1-2 at long K -> $OUT/ab-k-split.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-k-split-cache
edges="${EDGES:-64,2112,7296 100,1000,128 64,32768,640 64,32768,512}"
small="64,2112,7168 128,2112,7168 64,7168,16384 64,4096,7168 1,608,12544 2,1104,14848"
rc=0
# 1. the sanitizers first: each variant launched once and checked
for tool in ${TOOLS:-racecheck memcheck}; do
  # shellcheck disable=SC2086
  timeout 240 compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 20 \
    python3 bench/ab_kernel_ir.py --check-only --lower=consumer-k-split=on $edges \
    > "$OUT/$tool-k-split.log" 2>&1 || rc=1
  tail -n 1 "$OUT/$tool-k-split.log"
done
# 2. the pipeline's kernel (auto) against the K split off and on, timed
# shellcheck disable=SC2086
timeout 300 python3 bench/ab_kernel_ir.py "--lower=consumer-k-split=off;consumer-k-split=on" $small 2>&1 |
  tee "$OUT/ab-k-split.log" || rc=1
exit $rc
