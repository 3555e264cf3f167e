#!/usr/bin/env bash
# Experiment (docs/kernel.md, "Two tile shapes in one kernel"): the consumers'
# empty-barrier arrives address dgemm_smem + a constant, which ptxas rebuilds
# in the K loop from SR_CgaCtaId (S2R + LEA) at each arrive. Here the
# kernel IR is edited (bench/ab_masked_gap.py --ir-sub) so that those
# barriers' base is the shared symbol's address passed once through a
# shfl.sync (opaque to ptxas, so it stays in a register). On the GPU machine:
#   run(command="bash scripts/device-opaque-barrier-base.sh", carry=[".bundle"])
# -> $OUT/ab-opaque-barrier-base.log, $OUT/sass.tar.xz (SASS of both G = 4
# kernels).
set -uo pipefail
source "$(dirname "$0")/device-env.sh" /tmp/dgemm-opaque-base-cache
rc=0
# The base: BASE is the SSA name of the body's `llvm.mlir.addressof
# @dgemm_smem` (%89: the first shape's body of the 4-group two-shape kernel;
# %0: the one-group kernel's entry).
subs() {
  local base=$1
  echo "(${base} = llvm.mlir.addressof @dgemm_smem : !llvm.ptr<3>\n)=>\1      %opq_i = llvm.ptrtoint ${base} : !llvm.ptr<3> to i32\n      %opq_s = llvm.inline_asm has_side_effects \"shfl.sync.idx.b32 \$0, \$1, 0, 31, -1;\", \"=r,r\" %opq_i : (i32) -> i32\n      %opq = llvm.inttoptr %opq_s : i32 to !llvm.ptr<3>\n"
  echo "+llvm\.getelementptr ${base}\[(2162(16|24|32))\]=>llvm.getelementptr %opq[\1]"
}
mapfile -t g4 < <(subs %89)
mapfile -t g1 < <(subs %0)
one_shape='alt_block_m=-,alt_block_n=-,alt_stages=-,alt_num_sms=-'
{
  timeout 200 python3 bench/ab_masked_gap.py --only G4-m256-n7168-k2048 --rounds 5 --control \
    --edit "$one_shape" --ir-sub "${g4[0]}" --ir-sub "${g4[1]}" || rc=1
  timeout 200 python3 bench/ab_masked_gap.py --only G1-m1024-n7168-k2048 --rounds 5 --control \
    --ir-sub "${g1[0]}" --ir-sub "${g1[1]}" || rc=1
  exit $rc
} 2>&1 | tee "$OUT/ab-opaque-barrier-base.log"
# (rc set in the group's subshell comes back as its exit status.)
[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
timeout 120 python3 bench/ab_masked_gap.py --only G4-m256-n7168-k2048 --profile \
  --ir-sub "${g4[0]}" --ir-sub "${g4[1]}" --ir-dir "$OUT/ir" > /dev/null || rc=1
for ir in "$OUT"/ir/*-grouped*.mlir; do
  kernel_sass "$ir" "$(basename "$ir" .mlir)" || rc=1
done
tar -C "$OUT" -cJf "$OUT/sass.tar.xz" ptx sass ir && rm -rf "$OUT/ptx" "$OUT/sass" "$OUT/ir"
exit $rc
