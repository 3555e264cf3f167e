#!/usr/bin/env bash
# A lowering change against two earlier builds, on the GPU: the carried
# bundle (new) checked with run_bench's strict check, then its kernel IR
# timed against that of the earlier builds' dgemm-opt in one process
# (bench/ab_kernel_ir.py --opt), the SASS of a 256x128 and a 128x192
# kernel (STL/LDL: spills), the planted-bug sanitizer run, racecheck and
# memcheck on kernels with several tiles per CTA, and the grouped
# benchmark alternating with the base bundle. Written for B's scales
# loaded with the stages (docs/kernel.md, "B scales with the stages",
# reverted; bench/results/2026-12-05-78764d1+b-scale-stages-*):
#   run(command="bash scripts/device-b-scale-stages.sh",
#       carry=[".bundle", ".bundle-fix"])
# .bundle/dgemm.tar.xz: new; .bundle/base.tar.xz and .bundle-fix/dgemm.tar.xz:
# the builds compared (their dgemm-opt lowers the same selection).
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-b-scale-cache
cd "$root" || exit 2
rc=0
for v in base fix; do
  src=.bundle/base.tar.xz; [ $v = fix ] && src=.bundle-fix/dgemm.tar.xz
  mkdir -p /tmp/dgemm-$v && tar -C /tmp/dgemm-$v -xJf $src
done
{
  echo "new $(cat /tmp/dgemm/dgemm/COMMIT) fix $(cat /tmp/dgemm-fix/dgemm/COMMIT) base $(cat /tmp/dgemm-base/dgemm/COMMIT)"
  echo "== strict check and benchmark of the new bundle"
  timeout 150 python3 bench/run_bench.py --no-peers --random 20 --out "$OUT/new-bench.jsonl" | tail -8 || rc=1
  echo "== one process: default (new) against the fix's and base's dgemm-opt"
  timeout 200 python3 bench/ab_kernel_ir.py --rounds=5 \
    --opt=/tmp/dgemm-fix/dgemm/bin/dgemm-opt,/tmp/dgemm-base/dgemm/bin/dgemm-opt \
    4096,32768,512 4096,24576,1536 4096,2112,7168 4096,7168,2048 4096,7168,16384 \
    4096,4096,7168 2048,2112,1024 128,24576,1536 128,32768,512 128,7168,2048 \
    64,32768,512 64,7168,2048 || rc=1
  echo "== SASS of the new 256x128 and 128x192 kernels (spills: STL/LDL)"
  for shape in 4096,7168,2048 4096,32768,512; do
    name=k${shape//,/x}
    python3 -c "
import sys; sys.path.insert(0, 'bench')
import ab_kernel_ir as A, ab_epilogue as E
print(A.lower(E.run_bench_ir($shape), 1))" > /tmp/$name.mlir &&
      kernel_sass /tmp/$name.mlir $name && echo "$name: $(grep -c 'STL\|LDL' "$OUT/sass/$name.sass") STL/LDL"
  done
  if command -v compute-sanitizer > /dev/null; then
    echo "== planted bugs (each must be reported), then racecheck and memcheck on new kernels"
    timeout 120 python3 bench/sanitizer_planted.py || rc=1
    timeout 100 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=1 --config=num_sms=22 2048,2112,1024 2>&1 | tail -4 || rc=1
    timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 \
      python3 bench/probe_repeat_check.py --repeats=2 --config=num_sms=8 81,13312,1024 2>&1 | tail -4 || rc=1
  fi
} 2>&1 | tee "$OUT/b-scale-stages.log"
echo "== grouped, alternating bundles (base, new)"
mkdir -p "$OUT/grouped"
OUT="$OUT/grouped" ROUNDS=2 AB_TIMEOUT=120 CMD='python3 bench/run_grouped.py' \
  bash scripts/device-ab-bundle.sh > "$OUT/grouped-ab.log" 2>&1 || rc=1
python3 scripts/ab_bundle_summary.py "$OUT/grouped" --ref peers.normal_same_work | tee -a "$OUT/b-scale-stages.log"
exit $rc
