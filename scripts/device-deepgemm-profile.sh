#!/usr/bin/env bash
# dgemm's kernels beside DeepGEMM's under Nsight Compute, on the M = 4096
# shapes where DeepGEMM leads (docs/kernel.md, "Next"). One call on the GPU
# machine, both carried folders made here first (scripts/build.sh
# build-bundle -DDGEMM_BUNDLE=ON; scripts/pack-deepgemm.sh):
#   run(command="bash scripts/device-deepgemm-profile.sh", carry=[".bundle", ".peers"])
# 1. builds DeepGEMM (scripts/device-deepgemm.sh, no benchmarks);
# 2. ncu (speed of light, warp states, scheduler, instruction and memory
#    sections, stall ratios) of one launch each of dgemm's selected kernel,
#    its A-multicast variant and DeepGEMM's kernel (bench/profile_vs_deepgemm.py)
#    per shape -> $OUT/ncu-vs-deepgemm.txt, its summary on stdout;
# 3. the SASS of DeepGEMM's kernels (cuobjdump of its JIT cache) and of
#    dgemm's -> $OUT/sass-vs-deepgemm.tar.xz (for reading, not for the tree).
# Knobs: SHAPES (4096,4096,7168 4096,7168,2048), EDITS (the variants, as
# ab_kernel_ir.py --config).
set -uo pipefail
export DG_JIT_CACHE_DIR=/tmp/dg-profile-cache
# shellcheck source=device-deepgemm-setup.sh
source "$(dirname "$0")/device-deepgemm-setup.sh" /tmp/dgemm-profile-cache
SHAPES=${SHAPES:-4096,4096,7168 4096,7168,2048}
EDITS=${EDITS:-cluster=2,multicast=a,num_sms=132}
rc=0
# shellcheck disable=SC2086
timeout -k 5 300 ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
  --section InstructionStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
  --section LaunchStats --section Occupancy \
  --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l2__t_bytes.sum,dram__bytes_read.sum" \
  -k "regex:dgemm_gemm|sm90_fp8_gemm" \
  python3 bench/profile_vs_deepgemm.py "--config=$EDITS" $SHAPES > "$OUT/ncu-vs-deepgemm.txt" 2>&1 || rc=1
grep -E "^  [a-z_0-9]+.*\(|calc_diff|Duration|SM Frequency|Compute \(SM\) Throughput|Memory Throughput|L2 Hit|Executed Ipc A|Issue Slots Busy|No Eligible|Eligible Warps|Warp Cycles Per Issued|Registers Per|gmma_cycles|inst_executed.sum|l2__t_bytes|dram__bytes_read|stalled_(barrier|long_scoreboard|wait|math_pipe_throttle|dispatch|membar|short_scoreboard|not_selected|sleeping|branch_resolving|mio_throttle|lg_throttle|no_instruction|selected)_per" \
  "$OUT/ncu-vs-deepgemm.txt" | head -200
# SASS of both for reading.
mkdir -p "$OUT/sass"
i=0
for cubin in $(find /tmp/dg-profile-cache -name "*.cubin" 2>/dev/null); do
  cuobjdump -sass "$cubin" > "$OUT/sass/deepgemm-$i.sass" 2>&1
  i=$((i + 1))
done
for s in $SHAPES; do
  m=${s%%,*}; rest=${s#*,}; n=${rest%%,*}; k=${rest#*,}
  python3 -c "
import sys; sys.path.insert(0, 'bench')
import ab_kernel_ir as A
for name, text in A.variants($m, $n, $k, edits='$EDITS').items():
    open('$OUT/sass/dgemm-${m}x${n}x${k}-' + name.replace(',', '_').replace('=', '-') + '.mlir', 'w').write(text)
" || rc=1
done
for ir in "$OUT"/sass/dgemm-*.mlir; do
  kernel_sass "$ir" "$(basename "$ir" .mlir)" || rc=1
done
grep -H "registers\|spill" "$OUT"/ptx/*.ptxas
tar -C "$OUT" -cJf "$OUT/sass-vs-deepgemm.tar.xz" sass ptx && rm -rf "$OUT/sass" "$OUT/ptx"
exit $rc
