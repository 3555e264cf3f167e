#!/usr/bin/env bash
# Output staging in the ring on the GPU machine (bundle carried):
#   run(command="bash scripts/device-ring-staging.sh", carry=[".bundle"])
# 1. the Python tests (GPU numerics of every layout) -> $OUT/python-tests.log
# 2. compute-sanitizer memcheck and racecheck on kernels that stage in the
#    ring with several tiles per CTA (normal 256x128 and 128x192, masked)
#    -> $OUT/{memcheck,racecheck}-ring.log
# 3. A/B in one process: the selection's config (4 stages at 256x128, 5 at
#    128x192, output in the ring) against the same tiles with one stage
#    less and a staging tile of their own, and with one stage less staged in
#    the ring (its cost alone) -> $OUT/ab-ring-staging.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
cd "$root" || exit 2
rc=0
timeout 300 python3 -m unittest discover -s test/Python 2>&1 | tail -15 | tee "$OUT/python-tests.log"
grep -q "^OK" "$OUT/python-tests.log" || rc=1
for tool in memcheck racecheck; do
  timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 \
    python3 bench/ab_kernel_ir.py --check-only "--config=stages=3,lower.output-staging=ring" \
      1024,7168,512 2048,2112,1024 > "$OUT/$tool-ring.log" 2>&1 || rc=1
  timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 \
    python3 bench/ab_masked_gap.py --only G4-m256-n7168-k2048 --drawn --profile \
      >> "$OUT/$tool-ring.log" 2>&1 || rc=1
  grep -E "SUMMARY|checked|Error" "$OUT/$tool-ring.log" | head -12
done
{
  timeout 240 python3 bench/ab_kernel_ir.py \
    "--config=stages=3,lower.output-staging=tile;stages=3,lower.output-staging=ring" \
    4096,7168,2048 4096,7168,16384 4096,4096,7168 || rc=1
  timeout 200 python3 bench/ab_kernel_ir.py \
    "--config=stages=4,lower.output-staging=tile;stages=4,lower.output-staging=ring" \
    4096,2112,7168 4096,24576,1536 || rc=1
  for only in G4-m256-n7168-k2048 G1-m1024-n7168-k2048 G2-m512-n7168-k2048; do
    timeout 200 python3 bench/ab_masked_gap.py --only $only --rounds 5 --control \
      --edit "stages=3,alt_stages=4,lower.output-staging=tile" || rc=1
  done
  timeout 200 python3 bench/ab_masked_gap.py --only G4-m256-n7168-k2048 --drawn --rounds 5 --control \
    --edit "stages=3,alt_stages=4,lower.output-staging=tile" || rc=1
} 2>&1 | tee "$OUT/ab-ring-staging.log"
exit $rc
