#!/usr/bin/env bash
# dgemm-lower-to-kernel option sets against the pipeline's lowering, on the
# GPU machine (bundle carried):
#   run(command="LOWER='uniform-warpgroup=on;stage-unroll=on' bash scripts/device-ab-lower.sh", carry=[".bundle"])
# 1. bench/ab_kernel_ir.py --lower=$LOWER on $SHAPES ("m,n,k ..."; default:
#    the 18 normal shapes of bench/shapes.csv): each variant checked, then
#    timed alternately in one process -> $OUT/ab-lower.log
# 2. MASKED=1: bench/ab_masked_gap.py --all --lower $LOWER (the masked
#    shapes; their normal and normal-wide kernels too) -> $OUT/ab-lower-masked.log;
#    CONTIG=1: the same for the contiguous shapes -> $OUT/ab-lower-contiguous.log;
#    WGRAD=1: bench/ab_wgrad.py --lower=$LOWER (the weight-gradient kernel
#    of $WGRAD_SHAPES, default its 4 shapes) -> $OUT/ab-lower-wgrad.log
# 3. SASS=1: SASS of the 18 normal kernels under each option set (kernel IR
#    of examples/deepseek-v3.mlir, dgemm-opt, ptxas -v, cuobjdump), packed
#    into $OUT/sass.tar.xz (the tool brings back 8 files at most)
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-ab-lower-cache
rc=0
LOWER=${LOWER:?set LOWER to the option sets, separated by ;}
read -r -a shapes <<< "${SHAPES:---normal}"
timeout "${AB_TIMEOUT:-300}" python3 bench/ab_kernel_ir.py "--lower=$LOWER" "${shapes[@]}" 2>&1 |
  tee "$OUT/ab-lower.log" || rc=1
if [ "${MASKED:-0}" = 1 ]; then
  timeout 200 python3 bench/ab_masked_gap.py --all --lower "$LOWER" 2>&1 |
    tee "$OUT/ab-lower-masked.log" || rc=1
fi
if [ "${CONTIG:-0}" = 1 ]; then
  timeout 200 python3 bench/ab_masked_gap.py --layout contiguous --lower "$LOWER" 2>&1 |
    tee "$OUT/ab-lower-contiguous.log" || rc=1
fi
if [ "${WGRAD:-0}" = 1 ]; then
  read -r -a wshapes <<< "${WGRAD_SHAPES:-}"
  timeout 300 python3 bench/ab_wgrad.py "--lower=$LOWER" "${wshapes[@]}" 2>&1 |
    tee "$OUT/ab-lower-wgrad.log" || rc=1
fi
if [ "${SASS:-0}" = 1 ]; then
  mkdir -p "$OUT/ir"
  sel='--dgemm-select-config=multicast=false multicast-b=false max-block-m=256'
  i=0
  IFS=';' read -r -a sets <<< "wgmma-parts=1;$LOWER"
  for opts in "${sets[@]}"; do
    "$DGEMM_OPT" examples/deepseek-v3.mlir "$sel" --dgemm-lower-to-kernel="$opts" \
      -o "$OUT/ir/normal-$i.mlir" && kernel_sass "$OUT/ir/normal-$i.mlir" "normal-$i" || rc=1
    echo "normal-$i: $opts" >> "$OUT/ir/sets.txt"
    i=$((i + 1))
  done
  tar -C "$OUT" -cJf "$OUT/sass.tar.xz" ir ptx sass && rm -rf "$OUT/ir" "$OUT/ptx" "$OUT/sass"
fi
ls -l "$OUT"
exit $rc
