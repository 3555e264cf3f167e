#!/usr/bin/env bash
# Builds and runs one libFuzzer target of dgemm (docs/fuzzing.md).
#   scripts/fuzz.sh [BUILD_DIR] [SECONDS] [extra libFuzzer flags...]
# FUZZ_TARGET picks the target: dgemm-fuzz-ir (default; parse, verify,
# select-config) or dgemm-fuzz-lower (the dgemm-to-ptx pipeline). BUILD_DIR
# defaults to build-fuzz/ (configured with -DDGEMM_FUZZ=ON if it is not),
# SECONDS to 60. The run's files go to BUILD_DIR/fuzz/run-ir or run-lower
# (scripts/fuzz-run.sh: corpus/, found/ kept between runs, artifacts/,
# fuzz.log). JOBS (default 2) is ninja's -j. Exit status: fuzz-run.sh's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-fuzz}
seconds=${2:-60}
shift 2 || shift $# || true
case $build in /*) ;; *) build=$PWD/$build ;; esac
target=${FUZZ_TARGET:-dgemm-fuzz-ir}

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DDGEMM_BUILD_TESTS=OFF -DDGEMM_FUZZ=ON
elif ! grep -q '^DGEMM_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
  cmake -DDGEMM_FUZZ=ON "$build"
fi
ninja -C "$build" -j"${JOBS:-2}" "$target"
exec "$root/scripts/fuzz-run.sh" "$build/bin/$target" \
  "$build/fuzz/run-${target#dgemm-fuzz-}" "$seconds" "$@"
