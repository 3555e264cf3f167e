#!/usr/bin/env bash
# Installs what dgemm needs on Debian 12 (bookworm): LLVM/MLIR 22, clang-22
# with its sanitizer runtimes,
# lld, ninja, GoogleTest, zstd/zlib (static LLVM link), Python 3 with numpy
# and Debian's CPU PyTorch (1.13: the benchmark harness's tests run on the
# CPU with it, with stand-ins for CUDA; the GPU machine has its own).
# Idempotent: installs only what is missing. Needs root (or sudo).
set -euo pipefail

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
          lld-22 libclang-rt-22-dev ninja-build cmake libzstd-dev zlib1g-dev
          libgtest-dev
          python3 python3-numpy python3-torch xz-utils binutils)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# LLVM/MLIR 22 come from Debian's bookworm-security suite on these machines.
echo "setup: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
