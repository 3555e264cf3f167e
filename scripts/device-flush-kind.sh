#!/usr/bin/env bash
# How much of the masked layout's gap to the normal GEMM is the benchmark
# flush's dirty L2 (bench/probe_flush_kind.py), on the GPU machine (bundle
# carried, as for scripts/device-run.sh):
#   run(command="bash scripts/device-flush-kind.sh", carry=[".bundle"])
# -> $OUT/flush-kind.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-flush-kind-cache
{
  nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
  echo "bundle $(cat /tmp/dgemm/dgemm/COMMIT)"
  timeout 400 python3 bench/probe_flush_kind.py --rounds "${ROUNDS:-5}" --k "${KS:-2048,7168}"
} 2>&1 | tee "$OUT/flush-kind.log"
exit "${PIPESTATUS[0]}"
