#!/usr/bin/env bash
# The main job: the dgemm dialect and config pipeline over the DeepSeek-V3
# shapes (examples/deepseek-v3.mlir), printing the config chosen for each;
# then the 18 normal shapes compiled to PTX by the runtime with each kernel's
# config, registers and compile time (and, on a Hopper GPU, run and checked).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
"$build/bin/dgemm-opt" "$root/examples/deepseek-v3.mlir" \
  --dgemm-select-config --dgemm-config-report -o /dev/null
echo
python=$(command -v /usr/bin/python3 || command -v python3)
cache=$(mktemp -d)  # a fresh kernel cache: compile times are cold
trap 'rm -rf "$cache"' EXIT
DGEMM_LIB="$build/lib/libdgemm.so" DGEMM_CACHE_DIR="$cache" \
  PYTHONPATH="$root/python" "$python" "$root/scripts/main_job.py"
