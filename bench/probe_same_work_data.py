#!/usr/bin/env python3
#===- probe_same_work_data.py - does the same-work GEMM's data matter? ---===#
"""run_grouped.py compares each grouped call with dgemm's normal GEMM on the
same total work (M = the valid rows). That GEMM's A is random bytes 0..119
(positive E4M3 values) with unit scales, while the grouped call's A is
randn scaled per block and cast per token (signs, full range). On a
power-capped GPU the data can move the clock. This probe times, alternately
in one process with the benchmark's harness, for the grouped shapes whose
label contains --only:

  grouped        the grouped call (run_grouped.Case, public API)
  normal-bytes   the normal GEMM as run_grouped.py builds it (same_work_lhs)
  normal-same    the normal GEMM on the grouped call's own valid A rows and
                 their scales (concatenated), group 0's B
  normal-fresh   the normal GEMM on run_bench.make_inputs (the main bench)

  PYTHONPATH=python python3 bench/probe_same_work_data.py [--only G4-m256-n7168-k2048] [--drawn]
"""
import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run_bench as RB  # noqa: E402
import run_grouped  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="k2048")
    ap.add_argument("--layout", default="masked")
    ap.add_argument("--drawn", action="store_true")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    import torch
    dgemm = RB.import_dgemm()
    timer = RB.Timer(torch, iters=30, warmup=3)
    for i, (shape, sizes) in enumerate(run_grouped.reference_cases(1)):
        if shape["layout"] != args.layout or (shape["kind"] == "drawn") != args.drawn:
            continue
        label = run_grouped.shape_label(shape) + ("-drawn" if args.drawn else "")
        if args.only not in label:
            continue
        case = run_grouped.Case(torch, dgemm, shape, sizes, seed=7 + i)
        if not case.check()["ok"]:
            print("%s: grouped check failed" % label)
            return 1
        total, n, k = case.valid_rows, case.n, case.k
        d = torch.empty((total, n), dtype=torch.bfloat16, device=RB.DEVICE)
        b0, sb0 = case.b[0], case.sb[0]
        a1, s1 = run_grouped.same_work_lhs(torch, dgemm, case)  # what the benchmark times
        # The grouped call's own rows.
        rows = [case.group_rows(g) for g in range(case.g)]
        a2 = torch.cat([r[1] for r in rows]).contiguous()
        s2 = dgemm.get_col_major_tma_aligned_tensor(torch.cat([r[2] for r in rows]).contiguous())
        inp = RB.make_inputs(torch, dgemm, total, n, k, seed=99)
        fns = {
            "grouped": case.call,
            "normal-bytes": lambda: dgemm.gemm_fp8_fp8_bf16_nt((a1, s1), (b0, sb0), d),
            "normal-same": lambda: dgemm.gemm_fp8_fp8_bf16_nt((a2, s2), (b0, sb0), d),
            "normal-fresh": lambda: dgemm.gemm_fp8_fp8_bf16_nt(
                (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"]), d),
        }
        got = timer.time_alternately(fns, rounds=args.rounds)
        flops = 2.0 * total * n * k
        for name, t in got.items():
            print("%s %-13s %5.0f TFLOPS %6.1f us (rounds %s)" % (
                label, name, flops / t["us"] / 1e6, t["us"],
                "/".join("%.0f" % (flops / u / 1e6) for u in t["round_us"])), flush=True)
        for name in ("normal-bytes", "normal-same", "normal-fresh"):
            print("%s grouped / %s: %.3f" % (label, name, got[name]["us"] / got["grouped"]["us"]))
        del case, a1, a2, inp
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
