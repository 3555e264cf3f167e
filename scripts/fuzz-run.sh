#!/usr/bin/env bash
# Runs one built libFuzzer target of dgemm for a bounded time
# (docs/fuzzing.md); ctest's fuzz-ir and fuzz-lower and scripts/fuzz.sh
# call it.
#   scripts/fuzz-run.sh FUZZER WORK_DIR SECONDS [extra libFuzzer flags...]
# WORK_DIR gets corpus/ (the seed corpus: the lit inputs, fuzz/make_corpus.py,
# rewritten each run), found/ (inputs libFuzzer added; emptied first when
# DGEMM_FUZZ_FRESH=1, kept otherwise), artifacts/ (crash-*, leak-*,
# timeout-*, oom-*) and fuzz.log (libFuzzer's whole output).
# Exit status: 0 when libFuzzer ran for SECONDS with no crash, leak, timeout
# or sanitizer report and printed its stage counts; 1 otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 3 ] || { sed -n '2,11p' "$0"; exit 2; }
fuzzer=$1 work=$2 seconds=$3
shift 3
name=$(basename "$fuzzer")

mkdir -p "$work/found" "$work/artifacts"
if [ "${DGEMM_FUZZ_FRESH:-0}" = 1 ]; then
  rm -rf "$work/found" "$work/artifacts"
  mkdir -p "$work/found" "$work/artifacts"
fi
python3 "$root/fuzz/make_corpus.py" "$root/test" "$work/corpus" >/dev/null
log=$work/fuzz.log
echo "fuzz: $name for ${seconds}s, $(ls "$work/corpus" | wc -l) seeds (log: $log)"

# The lowering target spends up to seconds on one input (a whole kernel to
# PTX per distinct GEMM); the IR target milliseconds.
case $name in
  *lower*) timeout=60 ;;
  *) timeout=10 ;;
esac
set +e
# detect_container_overflow=0: MLIR/LLVM and libstdc++ are not instrumented,
# so ASan's container annotations would be half-present (false positives).
ASAN_OPTIONS=detect_container_overflow=0:${ASAN_OPTIONS:-} \
UBSAN_OPTIONS=print_stacktrace=1:${UBSAN_OPTIONS:-} \
  "$fuzzer" "$work/found" "$work/corpus" \
    -dict="$root/fuzz/dgemm.dict" -max_total_time="$seconds" \
    -max_len=8192 -timeout="$timeout" -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$@" \
    >"$log" 2>&1
rc=$?
set -e

grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|ERROR|SUMMARY|artifact|==[0-9]+==|^dgemm-fuzz-stages' \
  "$log" | head -40 || true
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
last=$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -1 || true)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corp=$(sed -n 's/.* corp: \([0-9/a-zA-Z]*\).*/\1/p' <<<"$last")
artifacts=$(find "$work/artifacts" -type f | wc -l)
echo "fuzz: $name: executions/s ${rate:-?}, total executions ${execs:-?}"
echo "fuzz: $name: coverage ${cov:-?} edges, ${ft:-?} features, corpus ${corp:-?}"
echo "fuzz: $name: artifacts in $work/artifacts: $artifacts"
if [ "$rc" -ne 0 ] || [ "$artifacts" -ne 0 ]; then
  echo "fuzz: $name FAILED (libFuzzer exit status $rc); the end of $log:"
  tail -60 "$log"
  exit 1
fi
if ! grep -q '^dgemm-fuzz-stages:' "$log" || [ -z "$execs" ] || [ "$execs" -eq 0 ]; then
  echo "fuzz: $name FAILED: no executions or no stage counts in $log"
  exit 1
fi
echo "fuzz: $name passed"
