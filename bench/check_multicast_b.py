#!/usr/bin/env python3
#===- check_multicast_b.py - B multicast kernels on the GPU ---------------===#
"""Checks the B-multicast lowering (a 2-CTA cluster shares an N block, its CTAs
take neighbouring M blocks) on the GPU: for each shape, the selection's
config without multicast and the same config with `cluster = 2, multicast =
b` (bench/ab_kernel_ir.py's multicast variants) are launched through the
runtime into D poisoned with NaN between run_bench's guard patterns, then D
is checked against the float reference (run_bench's strict element-wise
check) and the guards must be intact: with an odd count of M blocks the last
one pairs with a block past M, whose CTA loads its half of B and must store
nothing. --time also times both (and A
multicast where the selection pairs N blocks), alternately, 3 rounds.

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/check_multicast_b.py [--time] [M,N,K ...]
"""
import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ab_epilogue  # noqa: E402
import ab_kernel_ir  # noqa: E402
import run_bench  # noqa: E402

# M block counts odd (3900 and 300 at block M 128: 31 and 3; 3800 at 256:
# 15) and even, one M block (50 at block M 64; 64 with the K split of two
# consumers), N blocks odd (where the selection itself takes B multicast)
# and even.
SHAPES = ["4096,2112,7168", "3900,2112,7168", "300,7168,2048", "50,4096,7168",
          "64,2112,7168", "4096,32768,512", "3800,7168,2048", "4096,7168,16384"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--time", action="store_true")
    ap.add_argument("shapes", nargs="*")
    args = ap.parse_args(argv)
    import torch
    dgemm = run_bench.import_dgemm()
    timer = run_bench.Timer(torch, iters=15, warmup=3)
    failed = 0
    for arg in args.shapes or SHAPES:
        m, n, k = map(int, arg.split(","))
        variants = ab_kernel_ir.multicast_variants(ab_epilogue.run_bench_ir(m, n, k))
        if "multicast=b" not in variants:
            print("%s: no multicast=b variant" % arg, flush=True)
            failed += 1
            continue
        inp = run_bench.make_inputs(torch, dgemm, m, n, k, seed=7)
        ref, rms = run_bench.reference(torch, dgemm, inp)
        lhs, rhs = (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"])
        out = run_bench.GuardedOutput(torch, m, n, seed=m)
        for name, text in variants.items():
            out.poison()
            dgemm.launch_kernel_ir(text, lhs, rhs, out.d)
            torch.cuda.synchronize()
            chk = run_bench.check_output(torch, dgemm, out.d, ref, rms)
            guards = out.guards_intact()
            failed += not (chk["ok"] and guards)
            print("%s %-12s %s (calc_diff %.2g, %d bad, %d NaN left), guards %s"
                  % (arg, name, "ok" if chk["ok"] else "FAILED", chk["calc_diff"], chk["bad"],
                     chk["nan_left"], "intact" if guards else "WRITTEN"), flush=True)
        if args.time:
            ab_epilogue.print_times(arg, m, n, k,
                                    ab_epilogue.time_variants(torch, dgemm, timer, m, n, k, variants))
    print("check_multicast_b: %s" % ("FAILED (%d)" % failed if failed else "all passed"), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
