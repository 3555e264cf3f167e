#!/usr/bin/env bash
# Epilogue fusion on the GPU: bench/run_bias.py over the 18 normal shapes and
# random partial-tile shapes (D = A * B^T + bias against float64, guards,
# bits, the bias added once), timed beside the same GEMM without the bias,
# the GEMM then a torch add, and torch._scaled_mm blockwise then the add (or
# with its own bias= where torch takes it); then memcheck and racecheck on
# small random cases.
# On the GPU machine (bundle carried, as for scripts/device-run.sh):
#   run(command="bash scripts/device-bias.sh", carry=[".bundle"])
# -> $OUT/bias.log, $OUT/bias.jsonl
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-bias-cache
rc=0
{
  nvidia-smi --query-gpu=name --format=csv,noheader
  echo "bundle $(cat /tmp/dgemm/dgemm/COMMIT)"
  echo "== checks and timing"
  timeout 400 python3 bench/run_bias.py --out "$OUT/bias.jsonl" --random 8 > "$OUT/bias-records.txt" || rc=1
  grep -v '^{' "$OUT/bias-records.txt"
  if command -v compute-sanitizer > /dev/null; then
    echo "== memcheck, random cases"
    timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 \
      python3 bench/run_bias.py --out /tmp/bias-memcheck.jsonl --no-csv --no-time --random 3 2>&1 \
      | grep -v '^{' | tail -6 || rc=1
    echo "== racecheck, random cases"
    timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 \
      python3 bench/run_bias.py --out /tmp/bias-racecheck.jsonl --no-csv --no-time --random 2 2>&1 \
      | grep -v '^{' | tail -6 || rc=1
  fi
  echo "bias: rc $rc"
  exit $rc
} 2>&1 | tee "$OUT/bias.log"
# (rc was set in the group's subshell: its exit status carries it.)
exit "${PIPESTATUS[0]}"
