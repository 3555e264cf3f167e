#!/usr/bin/env bash
# Configures and builds dgemm with clang-22 + lld + ninja.
#   scripts/build.sh [BUILD_DIR] [extra cmake args...]
# BUILD_DIR defaults to build/. Pass -DDGEMM_BUNDLE=ON for the GPU bundle,
# -DDGEMM_FUZZ=ON for the libFuzzer targets (scripts/test.sh does).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit "$@"
elif [ $# -gt 0 ]; then
  cmake "$build" "$@"   # an existing build dir takes the extra args too
fi
ninja -C "$build"
