#!/usr/bin/env bash
# Power, clock and time of dgemm's and DeepGEMM's contiguous kernels in
# sustained runs (bench/probe_power.py), on the GPU machine:
#   run(command="bash scripts/device-power-probe.sh", carry=[".bundle", ".peers"])
# -> $OUT/probe-power.log. Knob: PROBE_ARGS (probe_power.py's options).
set -uo pipefail
# shellcheck source=device-deepgemm-setup.sh
source "$(dirname "$0")/device-deepgemm-setup.sh" /tmp/dgemm-power-cache
# shellcheck disable=SC2086
timeout -k 5 150 python3 bench/probe_power.py ${PROBE_ARGS:-} 2>&1 | tee "$OUT/probe-power.log"
