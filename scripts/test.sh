#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (lit + FileCheck,
# GoogleTest, the CMake package test, the libFuzzer targets for a bounded
# time, the op generator) through ctest. The build has -DDGEMM_FUZZ=ON: the
# fuzz targets (fuzz/) are built in the same build dir.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$build" -DDGEMM_FUZZ=ON
cd "$build"
ctest --output-on-failure
