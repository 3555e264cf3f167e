#!/usr/bin/env bash
#===- device-deepgemm.sh - dgemm beside DeepGEMM built on the GPU machine -===#
#
# Builds DeepGEMM on the GPU machine from the source tarball that
# scripts/pack-deepgemm.sh puts in .peers/ (the machine reaches no network),
# then runs scripts/device-run.sh's benchmarks with DeepGEMM as a peer
# (run_bench.py and run_grouped.py --deepgemm): the shapes of shapes.csv,
# normal and m-grouped, each timed in turn with dgemm, torch and cuBLAS,
# DeepGEMM's outputs checked like torch's. RESULTS.md then has the section
# "DeepGEMM in the same run" (scripts/deepgemm_results.py).
#
#   run(command="D=$OUT; export OUT=/tmp/run; mkdir -p $OUT;
#       bash scripts/device-deepgemm.sh > $OUT/console.log 2>&1; rc=$?;
#       tar -C /tmp/run -cJf $D/run.tar.xz .; exit $rc",
#       carry=[".bundle", ".peers"])
#
# The build uses torch's CUDAExtension on csrc/python_api.cpp as DeepGEMM's
# setup.py does, without its wheel and stub steps; its log goes to
# $OUT/deepgemm-build.log. Knobs: DG_BUILD_S (300: the build's limit),
# DG_REUSE=1 (keep an earlier call's build in /tmp/dg, same machine),
# TOTAL_S (560: build and benchmarks; the benchmarks get what the build
# left, as device-run.sh's BUDGET_S).
#
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
OUT=${OUT:-/tmp/dgemm-device-out}
mkdir -p "$OUT"
tarball=.peers/deepgemm.tar.xz
if [ ! -f "$tarball" ]; then
  echo "device-deepgemm: $tarball is missing: make it with scripts/pack-deepgemm.sh and"
  echo "call run with carry=[\".bundle\", \".peers\"]"
  exit 2
fi
t0=$(date +%s)
reuse=0
if [ "${DG_REUSE:-0}" = 1 ] && ls /tmp/dg/DeepGEMM/deep_gemm/_C*.so >/dev/null 2>&1; then
  reuse=1
  echo "DeepGEMM: reusing the build in /tmp/dg (DG_REUSE=1)"
else
  rm -rf /tmp/dg && mkdir -p /tmp/dg && tar -C /tmp/dg -xJf "$tarball" || exit 2
fi
cat /tmp/dg/DeepGEMM/PACKED_FROM
if [ -z "${CUDA_HOME:-}" ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  export CUDA_HOME=$(dirname "$(dirname "$nvcc")")
fi
echo "CUDA_HOME=$CUDA_HOME ($("$CUDA_HOME/bin/nvcc" --version | tail -1))"
[ $reuse = 1 ] || (
  cd /tmp/dg/DeepGEMM &&
    MAX_JOBS=16 timeout -k 10 "${DG_BUILD_S:-300}" python3 - <<'PY'
import os

import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CUDAExtension

flags = ["-std=c++17", "-O3", "-fPIC", "-Wno-psabi", "-Wno-deprecated-declarations",
         "-D_GLIBCXX_USE_CXX11_ABI=%d" % int(torch.compiled_with_cxx11_abi())]
ext = CUDAExtension(
    name="deep_gemm._C", sources=["csrc/python_api.cpp"],
    # Absolute: torch's ninja build runs in its own folder.
    include_dirs=[CUDA_HOME + "/include", CUDA_HOME + "/include/cccl"] + [
        os.path.abspath(d) for d in ("deep_gemm/include", "third-party/cutlass/include",
                                     "third-party/fmt/include")],
    libraries=["cudart", "nvrtc"], library_dirs=[CUDA_HOME + "/lib64"],
    extra_compile_args=flags)
setup(name="deep_gemm", ext_modules=[ext], cmdclass={"build_ext": BuildExtension},
      script_args=["build_ext", "--inplace"])
PY
) >"$OUT/deepgemm-build.log" 2>&1
rc=$?
echo "DeepGEMM build: exit $rc after $(($(date +%s) - t0)) s (log: deepgemm-build.log)"
tail -5 "$OUT/deepgemm-build.log"
[ $rc -eq 0 ] || exit 3
# shellcheck source=deepgemm-env.sh
source scripts/deepgemm-env.sh
python3 -c 'import deep_gemm; print("deep_gemm", deep_gemm.__version__, deep_gemm.__file__)' ||
  exit 3

# The harness's CPU tests, the DeepGEMM peer's among them (they need PyTorch,
# which only this machine has).
(cd test/Python && timeout -k 5 120 python3 -m unittest test_bench test_deepgemm_results 2>&1 |
  tail -4)

TESTS=${TESTS:-0} RANDOM_SHAPES=${RANDOM_SHAPES:-0} COMPILE_TIMES=${COMPILE_TIMES:-0} \
  GROUPED_RANDOM=${GROUPED_RANDOM:-0} GROUPED_BUDGET_S=${GROUPED_BUDGET_S:-200} \
  BUDGET_S=$(( ${TOTAL_S:-560} - ($(date +%s) - t0) )) BENCH_ARGS="--deepgemm ${BENCH_ARGS:-}" \
  GROUPED_ARGS="--deepgemm ${GROUPED_ARGS:-}" bash scripts/device-run.sh
