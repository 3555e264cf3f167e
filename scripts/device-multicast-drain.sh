#!/usr/bin/env bash
# Multicast kernels that end with the producer draining the ring instead of
# a cluster barrier (dgemm-lower-to-kernel{multicast-exit=drain}; docs/
# kernel.md, "Next"): timed against the same kernels with the barrier and
# the selection without clusters on the M = 4096 shapes, and checked under
# compute-sanitizer on small shapes. One call on the GPU machine:
#   run(command="bash scripts/device-multicast-drain.sh", carry=[".bundle"])
# 1. bench/ab_kernel_ir.py, 3 rounds, each variant checked: the selection,
#    256x128 3 stages with A multicast (DeepGEMM's choice) and the
#    selection's tile with A multicast, each with the exit barrier and
#    drained -> $OUT/ab-multicast.log;
# 2. memcheck, racecheck and synccheck of drained multicast variants (A and
#    B, 128 and 256 rows), one checked launch each (ab_kernel_ir.py
#    --check-only) on shapes with odd and single M blocks ->
#    $OUT/sanitize-multicast-*.log.
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-mc-cache
rc=0
mc256="block_m=256,block_n=128,stages=3,cluster=2,multicast=a,num_sms=132"
edits="$mc256;$mc256,lower.multicast-exit=drain"
edits+=";cluster=2,multicast=a,num_sms=132;cluster=2,multicast=a,num_sms=132,lower.multicast-exit=drain"
# Knobs: AB_SHAPES (the shapes of the first A/B), AB_MORE (1: also
# 4096x32768x512 and 8192x4096x7168 at 256x128, their 128x192 N blocks not
# pairing, and 256x128 without a cluster: the cost model picks 128x192 at
# M = 8192).
AB_SHAPES=${AB_SHAPES:-4096,24576,1536 4096,7168,16384 4096,4096,7168 4096,7168,2048}
{
  # shellcheck disable=SC2086
  timeout -k 5 200 python3 bench/ab_kernel_ir.py "--config=$edits" $AB_SHAPES || rc=1
  if [ "${AB_MORE:-1}" = 1 ]; then
    timeout -k 5 90 python3 bench/ab_kernel_ir.py \
      "--config=$mc256;$mc256,lower.multicast-exit=drain;block_m=256,block_n=128,stages=3,num_sms=132" \
      4096,32768,512 8192,4096,7168 || rc=1
  fi
} 2>&1 | tee "$OUT/ab-multicast.log"
drain=",lower.multicast-exit=drain"
small="block_m=128,block_n=128,stages=4,math_warpgroups=2,cluster=2,multicast=a,num_sms=8$drain"
small+=";block_m=128,block_n=128,stages=4,math_warpgroups=2,cluster=2,multicast=b,num_sms=8$drain"
small+=";block_m=256,block_n=128,stages=3,math_warpgroups=2,cluster=2,multicast=a,num_sms=8$drain"
for tool in memcheck racecheck synccheck; do
  log="$OUT/sanitize-multicast-$tool.log"
  timeout -k 5 120 compute-sanitizer --tool "$tool" --error-exitcode 9 \
    python3 bench/ab_kernel_ir.py --check-only "--config=$small" 384,512,1024 640,2048,512 \
    > "$log" 2>&1
  r=$?
  echo "compute-sanitizer $tool: exit $r ($(grep -c "checked" "$log") launches checked;" \
    "$(grep -m1 -E "(ERROR|RACECHECK) SUMMARY" "$log"))"
  [ $r -eq 0 ] || rc=1
done
exit $rc
