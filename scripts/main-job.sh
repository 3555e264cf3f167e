#!/usr/bin/env bash
# The main job: the dgemm dialect and config pipeline over the DeepSeek-V3
# shapes (examples/deepseek-v3.mlir), printing the config chosen for each.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
"$build/bin/dgemm-opt" "$root/examples/deepseek-v3.mlir" \
  --dgemm-select-config --dgemm-config-report -o /dev/null
