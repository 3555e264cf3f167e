#!/usr/bin/env bash
# Packs DeepGEMM's source, with the CUTLASS and fmt headers it builds and
# JIT-compiles against, as .peers/deepgemm.tar.xz (git-ignored) for
# scripts/device-deepgemm.sh, which builds it on the GPU machine (it can
# reach no network) so that the benchmarks time it beside dgemm. Nothing of
# it is committed. The sources are git repositories (the `fetch` tool's
# mirrors by default); the commits are PEERS.md's DeepGEMM v2.6.1 and its
# submodules' pins.
#   scripts/pack-deepgemm.sh [DEEPGEMM_GIT CUTLASS_GIT FMT_GIT]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dg_git=${1:-/work/.mirror/deepseek-ai+DeepGEMM/repo}
cutlass_git=${2:-/work/.mirror/NVIDIA+cutlass/repo}
fmt_git=${3:-/work/.mirror/fmtlib+fmt/repo}
dg_rev=${DEEPGEMM_REV:-54e2261}
# The submodule commits DeepGEMM pins, read from its tree.
cutlass_rev=$(git -C "$dg_git" rev-parse "$dg_rev:third-party/cutlass")
fmt_rev=$(git -C "$dg_git" rev-parse "$dg_rev:third-party/fmt")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
src=$stage/DeepGEMM
mkdir -p "$src/third-party/cutlass" "$src/third-party/fmt"
git -C "$dg_git" archive "$dg_rev" | tar -C "$src" -x
git -C "$cutlass_git" archive "$cutlass_rev" include | tar -C "$src/third-party/cutlass" -x
git -C "$fmt_git" archive "$fmt_rev" include | tar -C "$src/third-party/fmt" -x
# A mirror may lack blobs outside include/ (git archive then complains
# about them): make sure every header came.
want=$(git -C "$cutlass_git" ls-tree -r --name-only "$cutlass_rev" include | wc -l)
got=$(find "$src/third-party/cutlass/include" -type f | wc -l)
if [ "$want" != "$got" ]; then
  echo "pack-deepgemm: CUTLASS include/ has $got of $want files" >&2
  exit 1
fi
# Its JIT reads CuTe and CUTLASS from the package's include/ (setup.py
# copies them there; device-deepgemm.sh builds without setup.py).
cp -r "$src/third-party/cutlass/include/cute" "$src/third-party/cutlass/include/cutlass" \
  "$src/deep_gemm/include/"
echo "DeepGEMM $(git -C "$dg_git" rev-parse "$dg_rev") cutlass $cutlass_rev fmt $fmt_rev" \
  >"$src/PACKED_FROM"
mkdir -p "$root/.peers"
tar -C "$stage" -cJf "$root/.peers/deepgemm.tar.xz" DeepGEMM
echo "pack-deepgemm: $root/.peers/deepgemm.tar.xz ($(du -h "$root/.peers/deepgemm.tar.xz" | cut -f1)): $(cat "$src/PACKED_FROM")"
