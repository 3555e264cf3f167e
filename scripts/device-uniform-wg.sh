#!/usr/bin/env bash
# The warpgroup index through lane 0 (dgemm-lower-to-kernel{uniform-warpgroup})
# against the plain division, on the GPU machine (bundle carried):
#   run(command="bash scripts/device-uniform-wg.sh", carry=[".bundle"])
# 1. SASS of the 18 normal kernels, both ways (kernel IR of
#    examples/deepseek-v3.mlir, dgemm-opt, ptxas -v, cuobjdump)
# 2. bench/ab_kernel_ir.py --normal: both ways timed alternately in one
#    process, each checked first -> $OUT/ab-uniform-wg.log
# 3. bench/ab_masked_gap.py --all: the masked shapes, both ways
#    -> $OUT/ab-uniform-wg-masked.log
# 4. the peers and dgemm at 4096x7168x16384 with nvidia-smi dmon beside
#    (SM clock, power) -> $OUT/big-peers.log
# Everything but the logs goes into $OUT/uw.tar.xz (the tool brings back 8
# files at most).
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-uw-cache
cd "$root" || exit 2
rc=0
mkdir -p "$OUT/ir"
sel='--dgemm-select-config=multicast=false multicast-b=false max-block-m=256'
for v in off on; do
  "$DGEMM_OPT" examples/deepseek-v3.mlir "$sel" \
    --dgemm-lower-to-kernel="uniform-warpgroup=$v" -o "$OUT/ir/normal-$v.mlir" &&
    kernel_sass "$OUT/ir/normal-$v.mlir" "normal-$v" || rc=1
  grep -E "registers|spill" "$OUT/ptx/normal-$v.ptxas" | sort | uniq -c | head -20
done
timeout 240 python3 bench/ab_kernel_ir.py --lower=uniform-warpgroup=on --normal 2>&1 |
  tee "$OUT/ab-uniform-wg.log" || rc=1
timeout 150 python3 bench/ab_masked_gap.py --all --lower uniform-warpgroup=on 2>&1 |
  tee "$OUT/ab-uniform-wg-masked.log" || rc=1
nvidia-smi dmon -s pc -d 1 > "$OUT/big-dmon.txt" 2>&1 &
dmon=$!
timeout 120 python3 bench/run_bench.py --no-csv --shapes "4096,7168,16384" --iters 60 \
  --host-calls 10 2>&1 | tee "$OUT/big-peers.log" || rc=1
kill "$dmon" 2>/dev/null
cat "$OUT/big-dmon.txt" >> "$OUT/big-peers.log"
tar -C "$OUT" -cJf "$OUT/uw.tar.xz" ir ptx sass && rm -rf "$OUT/ir" "$OUT/ptx" "$OUT/sass"
ls -l "$OUT"
exit $rc
