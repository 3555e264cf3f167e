#!/usr/bin/env bash
# Configures and builds dgemm with clang-22 + lld + ninja.
#   scripts/build.sh [BUILD_DIR] [extra cmake args...]
# BUILD_DIR defaults to build/. Pass -DDGEMM_BUNDLE=ON for the GPU bundle.
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
fi
ninja -C "$build"
