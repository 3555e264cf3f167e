#!/usr/bin/env bash
# DRAM traffic and throughput of the 4-group masked kernels (m 256, K 2048
# and K 7168) against the normal GEMM on the same rows and normal-wide (the
# same B bytes, no group walk), under Nsight Compute: one launch of each
# (bench/ab_masked_gap.py --profile, each variant checked), ncu's own cache
# control (caches flushed clean before each kernel, not the benchmark's
# dirty memset), clocks left free. Equal and drawn sizes.
# On the GPU machine (bundle carried, as for scripts/device-run.sh):
#   run(command="bash scripts/device-masked-dram.sh", carry=[".bundle"])
# -> $OUT/masked-dram.csv (one row per kernel and metric)
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-masked-dram-cache
rc=0
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__throughput.avg.pct_of_peak_sustained_elapsed
for drawn in "" --drawn; do
  timeout 200 ncu --clock-control none --metrics "$metrics" --csv -k regex:dgemm_ \
    python3 bench/ab_masked_gap.py --all --only G4-m256 $drawn --profile \
    > "$OUT/ncu$drawn.csv" 2> "$OUT/ncu$drawn.err" || rc=1
  tail -3 "$OUT/ncu$drawn.err"
  grep '^"' "$OUT/ncu$drawn.csv" | sed "s/^/${drawn:-equal},/" >> "$OUT/masked-dram.csv"
done
python3 - "$OUT/masked-dram.csv" <<'PY'
import csv, sys
head = None
for r in csv.reader(open(sys.argv[1])):
    if "Metric Name" in r:
        head = {name: i for i, name in enumerate(r)}
        continue
    if head:
        print(r[0], r[head["Kernel Name"]][:72], r[head["Metric Name"]],
              r[head["Metric Unit"]], r[head["Metric Value"]])
PY
exit $rc
