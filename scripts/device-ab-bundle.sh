#!/usr/bin/env bash
# Two builds of dgemm side by side on the GPU machine: the carried bundle
# (.bundle/dgemm.tar.xz, "new") and a base bundle (.bundle/base.tar.xz, e.g.
# an earlier commit's; both git-ignored), each running the same bench
# command alternately, ROUNDS times (default 2: base new base new), each in
# a fresh process with its own kernel cache:
#   run(command="CMD='python3 bench/run_wgrad.py' bash scripts/device-ab-bundle.sh",
#       carry=[".bundle"])
# CMD gets --out $OUT/<variant>-<round>.jsonl appended; its output goes to
# $OUT/<variant>-<round>.log. Both bundles' COMMIT files -> $OUT/commits.txt.
# Summary (here, on the files brought back): scripts/ab_bundle_summary.py DIR
# [--ref wgrad_same_work].
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-ab-bundle-cache
cd "$root" || exit 2
CMD=${CMD:?set CMD to the bench command}
[ -f .bundle/base.tar.xz ] || { echo "no .bundle/base.tar.xz"; exit 2; }
mkdir -p /tmp/dgemm-base && tar -C /tmp/dgemm-base -xJf .bundle/base.tar.xz
{ echo "new: $(cat /tmp/dgemm/dgemm/COMMIT)";
  echo "base: $(cat /tmp/dgemm-base/dgemm/COMMIT)"; } | tee "$OUT/commits.txt"
rc=0
for r in $(seq 1 "${ROUNDS:-2}"); do
  for v in base new; do
    top=/tmp/dgemm; [ "$v" = base ] && top=/tmp/dgemm-base
    echo "== $v round $r"
    DGEMM_LIB=$top/dgemm/lib/libdgemm.so DGEMM_OPT=$top/dgemm/bin/dgemm-opt \
      DGEMM_CACHE_DIR=/tmp/dgemm-ab-bundle-cache-$v \
      timeout "${AB_TIMEOUT:-240}" $CMD --out "$OUT/$v-$r.jsonl" > "$OUT/$v-$r.log" 2>&1 || {
        echo "$v round $r failed"; tail -5 "$OUT/$v-$r.log"; rc=1; }
  done
done
ls -l "$OUT"
exit $rc
