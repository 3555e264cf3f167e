#!/usr/bin/env bash
# The one-group masked shapes at block M 256: bench/ab_masked_gap.py times
# the selected grouped kernel (its group count an opaque move since
# ed08ac3), its twins with the count a constant again in both roles, in the
# producer only (@0) and in the consumers only (@1) (the kernel IR edited:
# LLVM then specialises the walk on group 0; in the consumers ptxas then
# spills) and the normal
# GEMM on the same rows, alternately in one process, each checked first;
# equal and drawn group sizes -> $OUT/ab-masked-g1-bm256.log
#   run(command="bash scripts/device-masked-g1-bm256.sh", carry=[".bundle"])
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-g1-cache
rc=0
constant='llvm\.inline_asm "mov\.b32 \$0, \$1;", "=r,r" (%\w+) : \(i32\) -> i32=>arith.ori \1, \1 : i32'
for only in G1-m1024-n4096-k7168 G1-m1024-n7168-k2048; do
  for sizes in "" --drawn; do
    timeout 120 python3 bench/ab_masked_gap.py --all --only "$only" --ir-sub "$constant" --ir-sub "@0:$constant" \
      --ir-sub "@1:$constant" $sizes 2>&1 |
      tee -a "$OUT/ab-masked-g1-bm256.log" || rc=1
  done
done
exit $rc
