#!/usr/bin/env bash
# The contiguous kernel beside DeepGEMM's under Nsight Compute, and the SASS
# of both, for reading where dgemm's extra clocks a call go under the power
# cap (docs/kernel.md, "Next"). One call on the GPU machine:
#   run(command="bash scripts/device-contiguous-profile.sh", carry=[".bundle", ".peers"])
# 1. builds DeepGEMM (device-deepgemm-setup.sh; DG_REUSE=1 keeps a build);
# 2. ncu on bench/run_grouped.py --deepgemm --layout contiguous, one round
#    of one timed call with its peers: the first NCU_COUNT (6) launches
#    whose names match dgemm_grouped_contiguous or DeepGEMM's
#    sm90_fp8_gemm_1d2d (its normal GEMM has the same name; speed of
#    light, warp states, scheduler and instruction sections, the stall
#    ratios, the tensor pipe's active cycles) -> $OUT/ncu-contiguous.txt,
#    its summary on stdout; with L2 sectors by operation and source and the
#    global and shared instruction counts, to place the extra L2 bytes;
# 3. SASS: DeepGEMM's JIT cubins and dgemm's cached PTX of the same run
#    (device-env.sh cache_sass) -> $OUT/sass-contiguous.tar.xz,
#    for reading, not for the tree.
# SOURCE=1 instead: Nsight Compute's warp-stall samples per SASS instruction
# (base clocks, every 32 cycles) of one launch each of dgemm's kernel and
# DeepGEMM's contiguous and normal kernels -> $OUT/ncu-source-contiguous.csv.xz,
# scripts/ncu_source_buckets.py's summary -> $OUT/ncu-buckets-contiguous.txt.
set -uo pipefail
export DG_JIT_CACHE_DIR=/tmp/dg-contiguous-profile-cache
rm -rf /tmp/dgemm-contiguous-profile-cache "$DG_JIT_CACHE_DIR"
# shellcheck source=device-deepgemm-setup.sh
source "$(dirname "$0")/device-deepgemm-setup.sh" /tmp/dgemm-contiguous-profile-cache
rc=0
if [ "${SOURCE:-0}" = 1 ]; then
  timeout -k 5 "${NCU_S:-240}" ncu --clock-control base --warp-sampling-interval 0 \
    --section SourceCounters --section WarpStateStats \
    --page source --print-source sass --csv \
    -k "regex:dgemm_grouped_contiguous_g|sm90_fp8_gemm_1d2d" -c 3 \
    python3 bench/run_grouped.py --deepgemm --layout contiguous --rounds 1 \
    --iters 1 --warmup 0 > "$OUT/ncu-source-contiguous.csv" 2>&1 || rc=1
  # Opcodes per K block a consumer warp of the first case (4 x 8192 rows,
  # N 4096, K 7168 at 128x192: 256 x 22 tiles, 56 K blocks, 8 warps).
  python3 scripts/ncu_source_buckets.py "$OUT/ncu-source-contiguous.csv" \
    --opcodes $((256 * 22 * 56 * 8)) > "$OUT/ncu-buckets-contiguous.txt" 2>&1 || rc=1
  head -150 "$OUT/ncu-buckets-contiguous.txt"
  xz -9 "$OUT/ncu-source-contiguous.csv"
  exit $rc
fi
# L2 traffic by operation and source, global and shared instructions: where
# the extra L2 bytes come from (dropped if this ncu lacks a metric).
L2_METRICS=",lts__t_sectors_op_read.sum,\
lts__t_sectors_op_write.sum,\
lts__t_sectors_op_atom.sum,\
lts__t_sectors_op_red.sum,\
lts__t_sectors_srcunit_tex.sum,\
lts__t_sectors_srcunit_ltcfabric.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_write.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
smsp__inst_executed_op_global_ld.sum,\
smsp__inst_executed_op_shared_st.sum,\
smsp__inst_executed_op_shared_ld.sum,\
l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"
profile() {
  EXTRA=$1
  timeout -k 5 "${NCU_S:-240}" ncu --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section LaunchStats \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,dram__bytes_read.sum,lts__t_bytes.sum${EXTRA}" \
    -k "regex:dgemm_grouped_contiguous|sm90_fp8_gemm_1d2d" -c "${NCU_COUNT:-6}" \
    python3 bench/run_grouped.py --deepgemm --layout contiguous --rounds 1 --iters 1 \
    --warmup 0 > "$OUT/ncu-contiguous.txt" 2>&1 || rc=1
}
profile "$L2_METRICS"
if grep -q "Failed to find metric" "$OUT/ncu-contiguous.txt"; then
  echo "ncu lacks one of the L2 metrics; profiling without them"
  rc=0
  profile ""
fi
grep -E "^  [a-z_0-9].*\(|ok=|Duration|SM Frequency|Elapsed Cycles|SM Active Cycles|Compute \(SM\) Throughput|Executed Ipc A|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Registers Per|gmma_cycles|inst_executed.sum|lts__t_bytes|lts__t_sectors|inst_executed_op|l1tex__t_bytes|dram__bytes_read|stalled_(barrier|long_scoreboard|short_scoreboard|wait|math_pipe_throttle|dispatch|membar|not_selected|sleeping|branch_resolving|mio_throttle|gmma|misc|no_instruction|selected)_per" \
  "$OUT/ncu-contiguous.txt" | head -160
mkdir -p "$OUT/sass"
i=0
for cubin in $(find "$DG_JIT_CACHE_DIR" -name "*.cubin" 2>/dev/null); do
  cuobjdump -sass "$cubin" > "$OUT/sass/deepgemm-$i.sass" 2>&1 || rc=1
  i=$((i + 1))
done
cache_sass /tmp/dgemm-contiguous-profile-cache "$OUT/sass" || rc=1
ls -la "$OUT/sass"
tar -C "$OUT" -cJf "$OUT/sass-contiguous.tar.xz" sass && rm -rf "$OUT/sass"
exit $rc
