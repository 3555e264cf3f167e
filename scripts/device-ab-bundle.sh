#!/usr/bin/env bash
# Two builds of dgemm side by side on the GPU machine: the carried bundle
# (.bundle/dgemm.tar.xz, "new") and a base bundle (.bundle/base.tar.xz, e.g.
# an earlier commit's; both git-ignored), each running the same bench
# command alternately, ROUNDS times (default 2: base new base new), each in
# a fresh process with its own kernel cache:
#   run(command="CMD='python3 bench/run_wgrad.py' bash scripts/device-ab-bundle.sh",
#       carry=[".bundle"])
# CMD gets --out $OUT/<variant>-<round>.jsonl appended; its output goes to
# $OUT/<variant>-<round>.log. The bundles' COMMIT files -> $OUT/commits.txt,
# and each variant's records name its own bundle's commit (DGEMM_COMMIT).
# More variants: .bundle/var-<name>.tar.xz each (timed as <name>, after new).
# Summary (here, on the files brought back): scripts/ab_bundle_summary.py DIR
# [--ref wgrad_same_work].
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-ab-bundle-cache
CMD=${CMD:?set CMD to the bench command}
# A folder that already holds rounds (a warm machine keeps /tmp) would mix
# them into this run's summary.
if compgen -G "$OUT/*-[0-9]*.jsonl" > /dev/null; then
  echo "$OUT already holds <variant>-<round>.jsonl files: use an empty folder"
  exit 2
fi
[ -f .bundle/base.tar.xz ] || { echo "no .bundle/base.tar.xz"; exit 2; }
# Extra variants: .bundle/var-<name>.tar.xz, each timed as <name>.
variants=(base new)
declare -A tops=([new]=/tmp/dgemm [base]=/tmp/dgemm-base)
for f in .bundle/var-*.tar.xz; do
  [ -f "$f" ] || continue
  name=$(basename "$f" .tar.xz); name=${name#var-}
  variants+=("$name"); tops[$name]=/tmp/dgemm-var-$name
done
for v in "${variants[@]}"; do
  [ "$v" = new ] && continue
  src=.bundle/base.tar.xz; [ "$v" = base ] || src=.bundle/var-$v.tar.xz
  mkdir -p "${tops[$v]}" && tar -C "${tops[$v]}" -xJf "$src"
done
for v in "${variants[@]}"; do echo "$v: $(cat "${tops[$v]}/dgemm/COMMIT")"; done |
  tee "$OUT/commits.txt"
rc=0
for r in $(seq 1 "${ROUNDS:-2}"); do
  for v in "${variants[@]}"; do
    top=${tops[$v]}
    echo "== $v round $r"
    DGEMM_LIB=$top/dgemm/lib/libdgemm.so DGEMM_OPT=$top/dgemm/bin/dgemm-opt \
      DGEMM_COMMIT=$(cat "$top/dgemm/COMMIT") \
      DGEMM_CACHE_DIR=/tmp/dgemm-ab-bundle-cache-$v \
      timeout "${AB_TIMEOUT:-240}" $CMD --out "$OUT/$v-$r.jsonl" > "$OUT/$v-$r.log" 2>&1 || {
        echo "$v round $r failed"; tail -5 "$OUT/$v-$r.log"; rc=1; }
  done
done
ls -l "$OUT"
exit $rc
