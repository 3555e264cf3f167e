#!/usr/bin/env python3
#===- check_contiguous_lowering.py - contiguous kernels lowered with options -===#
"""Checks the contiguous layout's kernels lowered with dgemm-lower-to-kernel
options the runtime does not take by default (group-prefetch,
b-scale-prefetch), on the cases that exercise the tile walk: segments with
padding rows, whole -1 blocks between groups (skipped), empty and one-row
groups, pairs of two groups under B multicast, a block past M; the random
contiguous cases of bench/run_grouped.py; and one reference shape with
drawn sizes. For each case and each EDIT (bench/sweep.py's edit_config: a
config field `field=value`, a lowering option `lower.option=value`), the
config dgemm-select-config chooses for the case is edited, lowered by
dgemm-opt (DGEMM_OPT) and launched through dgemm.launch_grouped_kernel_ir
on a NaN-poisoned D; run_grouped.Case.verify checks sampled rows of every
group against the float reference and that rows of skipped blocks stay
untouched.

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/check_contiguous_lowering.py \\
      --edit lower.group-prefetch=on \\
      --edit cluster=2,multicast=b,lower.group-prefetch=on,lower.b-scale-prefetch=on

An edit that does not lower for a case (the verifier refuses it) is
printed and not counted. Exits 1 when a lowered variant fails its check or
no variant ran.
"""
import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import check_multicast_default as CMD  # noqa: E402
import run_bench as RB  # noqa: E402
import run_grouped as RG  # noqa: E402
import sweep_grouped as SG  # noqa: E402


def cases(random_count, seed, reference):
    """(shape, sizes, skip_blocks) of every case."""
    out = []
    for n, k, sizes, skip in CMD.CONTIGUOUS:
        out.append((dict(layout="contiguous", groups=len(sizes), m=max(sizes), n=n, k=k),
                    sizes, skip))
    for c in RG.random_cases(random_count, seed):
        if c["layout"] == "contiguous":
            out.append((c, c["sizes"], c["skip_blocks"]))
    if reference:
        for shape, sizes in RG.reference_cases(1):
            if shape["layout"] == "contiguous" and shape["kind"] == "drawn":
                out.append((shape, sizes, False))
                break
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edit", action="append", default=[],
                    help="a variant: sweep.edit_config's edit of the selected config")
    ap.add_argument("--random", type=int, default=10,
                    help="random cases per layout drawn by run_grouped.random_cases "
                         "(the contiguous ones are run)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--no-reference", action="store_true",
                    help="without the reference shape of drawn sizes")
    args = ap.parse_args(argv)
    if not args.edit:
        ap.error("give at least one --edit")
    import torch
    dgemm = RB.import_dgemm()
    ran = bad = 0
    for i, (shape, sizes, skip) in enumerate(cases(args.random, args.seed,
                                                   not args.no_reference)):
        case = RG.Case(torch, dgemm, shape, sizes, seed=70 + i, skip_blocks=skip)
        # The IR's A: the case's rows rounded up to 128 per group (its
        # verifier wants a multiple of 128; the kernel takes M at launch).
        ir_shape = dict(shape, m=RB.ceil_div(max(case.m_rows, 1), 128 * len(sizes)) * 128)
        base = SG.selected_config(ir_shape)
        for edit in args.edit:
            cfg, options = SG.sweep.edit_config(base, edit)
            r = subprocess.run(
                [SG.sweep.DGEMM_OPT,
                 "--dgemm-lower-to-kernel" + ("=" + options if options else "")],
                input=SG.grouped_ir(ir_shape, cfg), capture_output=True, text=True)
            label = "n=%d k=%d sizes=%s rows=%d [%s]" % (
                shape["n"], shape["k"], sizes if len(sizes) <= 8 else "%d groups" % len(sizes),
                case.m_rows, edit)
            if r.returncode != 0:
                print("%s: does not lower (%s)" % (label, r.stderr.strip()[-200:]), flush=True)
                continue
            case.d.fill_(float("nan"))
            dgemm.launch_grouped_kernel_ir(r.stdout, (case.a, case.sa_tma), (case.b, case.sb),
                                           case.d, case.m_indices)
            torch.cuda.synchronize()
            chk = case.verify()
            ran += 1
            bad += not chk["ok"]
            print("%s: %s %s (%d untouched rows) %s" % (
                label, "checked" if chk["ok"] else "FAILED", RB.short_config(cfg),
                chk["untouched_rows"], "" if chk["ok"] else chk), flush=True)
        del case
    print("check_contiguous_lowering: %d variants run, %d failed" % (ran, bad), flush=True)
    return 1 if bad or not ran else 0


if __name__ == "__main__":
    sys.exit(main())
