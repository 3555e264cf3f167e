#!/usr/bin/env bash
# A's TMA box cut to the rows of a small M (#dgemm.config's a_box_rows, the
# selection's choice for these shapes) against the whole box of block M
# rows (the config edited: a_box_rows=-), for M <= 32 (bundle carried):
#   run(command="bash scripts/device-a-box-rows.sh", carry=[".bundle"])
# bench/ab_kernel_ir.py: each variant checked, then timed alternately in
# one process with the benchmark's harness. With the whole box each stage
# receives 64 rows of A, zero-filled past M.
# (Its first run, on a87e4f8, compared a probe lowering option since
# replaced by the config field.)
# -> $OUT/ab-a-box-rows.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
{
  rc=0
  timeout 300 python3 bench/ab_kernel_ir.py "--config=a_box_rows=-" \
    1,608,12544 2,1104,14848 2,7088,5376 4,11024,8960 5,19440,3968 3,29472,15488 \
    1,7168,2048 4,2112,7168 8,4096,7168 8,7168,16384 2,24576,1536 1,32768,512 || rc=1
  timeout 120 python3 bench/ab_kernel_ir.py "--config=a_box_rows=-" \
    16,7168,2048 16,4096,7168 15,32736,12928 || rc=1
  timeout 120 python3 bench/ab_kernel_ir.py "--config=a_box_rows=-" \
    23,21712,15104 32,7168,16384 32,2112,7168 || rc=1
  exit $rc
} 2>&1 | tee "$OUT/ab-a-box-rows.log"
exit "${PIPESTATUS[0]}"
