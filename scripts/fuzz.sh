#!/usr/bin/env bash
# Builds and runs the libFuzzer target dgemm-fuzz-ir (docs/fuzzing.md).
#   scripts/fuzz.sh [BUILD_DIR] [SECONDS] [extra libFuzzer flags...]
# BUILD_DIR defaults to build-fuzz/ (its own build dir, configured with
# -DDGEMM_FUZZ=ON), SECONDS to 60. The seed corpus is made from the lit inputs
# into BUILD_DIR/fuzz/corpus; inputs libFuzzer finds go to
# BUILD_DIR/fuzz/found, crashes to BUILD_DIR/fuzz/artifacts/. JOBS (default 2)
# is ninja's -j. Exit status: libFuzzer's (0 when nothing crashed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-fuzz}
seconds=${2:-60}
shift 2 || shift $# || true
case $build in /*) ;; *) build=$PWD/$build ;; esac

if [ ! -f "$build/build.ninja" ] ||
   ! grep -q '^DGEMM_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DDGEMM_BUILD_TESTS=OFF -DDGEMM_FUZZ=ON
fi
ninja -C "$build" -j"${JOBS:-2}" dgemm-fuzz-ir dgemm-fuzz-corpus

fuzz=$build/fuzz
mkdir -p "$fuzz/found" "$fuzz/artifacts"
log=$fuzz/fuzz.log
echo "fuzz: running $build/bin/dgemm-fuzz-ir for ${seconds}s (log: $log)"
set +e +o pipefail
# detect_container_overflow=0: MLIR/LLVM and libstdc++ are not instrumented,
# so ASan's container annotations would be half-present (false positives).
ASAN_OPTIONS=detect_container_overflow=0:${ASAN_OPTIONS:-} \
UBSAN_OPTIONS=print_stacktrace=1:${UBSAN_OPTIONS:-} \
  "$build/bin/dgemm-fuzz-ir" "$fuzz/found" "$fuzz/corpus" \
    -dict="$root/fuzz/dgemm.dict" -max_total_time="$seconds" \
    -max_len=8192 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$fuzz/artifacts/" "$@" 2>&1 | tee "$log" |
  grep -E '^#[0-9]+ +(INITED|pulse|DONE)|ERROR|SUMMARY|artifact|==[0-9]+==' || true
rc=${PIPESTATUS[0]}

# Summary from libFuzzer's final stats and its last status line.
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
last=$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -1 || true)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corp=$(sed -n 's/.* corp: \([0-9/a-zA-Z]*\).*/\1/p' <<<"$last")
echo "fuzz: executions/s: ${rate:-?}"
echo "fuzz: total executions: ${execs:-?}"
echo "fuzz: coverage: ${cov:-?} edges, ${ft:-?} features, corpus ${corp:-?}"
crashes=$(find "$fuzz/artifacts" -type f | wc -l)
echo "fuzz: artifacts (crashes, leaks, timeouts) in $fuzz/artifacts: $crashes"
exit "$rc"
