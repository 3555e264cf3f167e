#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (lit + FileCheck,
# GoogleTest, the CMake package test) through ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$build"
cd "$build"
ctest --output-on-failure
