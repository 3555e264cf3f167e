#!/usr/bin/env bash
# The masked 4 x 256 rows, N 7168, K 2048 case with A multicast over 2-CTA
# clusters, on the GPU machine (bundle carried):
#   run(command="bash scripts/device-masked-multicast.sh", carry=[".bundle"])
# drawn sizes: the 128x192 second shape as a one-shape kernel on 132 CTAs,
# without and with multicast A; equal sizes: the 256x128 first shape alone,
# with multicast A on 112 and on 132 CTAs. 5 rounds with a control each
# -> $OUT/ab-masked-multicast-{drawn,equal}.log
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-probe-cache
one="alt_block_m=-,alt_block_n=-,alt_stages=-,alt_num_sms=-"
wide="$one,block_m=128,block_n=192,stages=4,num_sms=132"
mca="cluster=2,multicast=a,swizzle_group=2"
rc=0
timeout 200 python3 bench/ab_masked_gap.py --only G4-m256-n7168-k2048 --drawn --rounds 5 --control \
  --edit "$wide;$wide,$mca" 2>&1 | tee "$OUT/ab-masked-multicast-drawn.log" || rc=1
timeout 200 python3 bench/ab_masked_gap.py --only G4-m256-n7168-k2048 --rounds 5 --control \
  --edit "$one;$one,$mca;$one,$mca,num_sms=132" 2>&1 | tee "$OUT/ab-masked-multicast-equal.log" || rc=1
exit $rc
