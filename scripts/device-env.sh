# Sourced by the GPU-machine scripts (scripts/device-*.sh), with the default
# kernel cache folder as its argument: makes $OUT (default
# /tmp/dgemm-device-out), unpacks the carried bundle (.bundle/dgemm.tar.xz)
# into /tmp/dgemm once, and exports what dgemm's Python package and the bench
# tools read (DGEMM_LIB, DGEMM_OPT, PYTHONPATH, DGEMM_CACHE_DIR unless set)
# with the CUDA tools on PATH. Sets `root`, the checkout.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-/tmp/dgemm-device-out}
mkdir -p "$OUT"
if [ ! -f /tmp/dgemm/dgemm/lib/libdgemm.so ]; then
  mkdir -p /tmp/dgemm && tar -C /tmp/dgemm -xJf "$root/.bundle/dgemm.tar.xz"
fi
export DGEMM_LIB=/tmp/dgemm/dgemm/lib/libdgemm.so DGEMM_OPT=/tmp/dgemm/dgemm/bin/dgemm-opt
export PYTHONPATH="$root/python" DGEMM_CACHE_DIR=${DGEMM_CACHE_DIR:-$1}
export PATH="$PATH:/usr/local/cuda/bin:/usr/local/cuda-13.0/bin"
