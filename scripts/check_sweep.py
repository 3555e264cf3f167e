#!/usr/bin/env python3
"""Checks dgemm-select-config against the config sweep (bench/sweep.py): for
each swept shape, the config the runtime selects now (dgemm.config, no GPU
needed) is looked up among the swept candidates and its measured time is
compared with the best candidate's. Prints a table and how many shapes are
within --tolerance (5%) of the best; exits 1 if fewer than --min-within, or
if a selected config was never swept (the sweep data is stale: rerun it).

  PYTHONPATH=python DGEMM_LIB=build/lib/libdgemm.so scripts/check_sweep.py bench/sweep/*.jsonl
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))

import dgemm  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--tolerance", type=float, default=0.05)
    ap.add_argument("--min-within", type=int, default=0)
    args = ap.parse_args(argv)
    within = total = stale = 0
    print("%-18s %-34s %8s %-34s %8s %6s" % ("shape", "selected now", "TFLOPS", "best swept", "TFLOPS", "ratio"))
    for path in args.files:
        for line in open(path):
            rec = json.loads(line)
            m, n, k = rec["m"], rec["n"], rec["k"]
            flops = 2.0 * m * n * k
            sel = dgemm.config(m, n, k)
            timed = {c["config"]: c["us"] for c in rec["candidates"] if "us" in c}
            if not timed:
                continue
            best = min(timed, key=timed.get)
            total += 1
            short = lambda c: c.replace("#dgemm.config<", "").split(", cluster")[0]
            if sel not in timed:
                stale += 1
                print("%-18s %-34s %8s  (never swept: rerun bench/sweep.py)" % ("%d,%d,%d" % (m, n, k), short(sel), "-"))
                continue
            ratio = timed[best] / timed[sel]
            ok = ratio >= 1 - args.tolerance
            within += ok
            print("%-18s %-34s %8.0f %-34s %8.0f %6.3f%s" % (
                "%d,%d,%d" % (m, n, k), short(sel), flops / timed[sel] / 1e6, short(best),
                flops / timed[best] / 1e6, ratio, "" if ok else "  <- more than %.0f%% off" % (100 * args.tolerance)))
    print("check_sweep: %d of %d shapes within %.0f%% of the best swept config%s" % (
        within, total, 100 * args.tolerance, ", %d never swept" % stale if stale else ""))
    return 1 if stale or within < args.min_within else 0


if __name__ == "__main__":
    sys.exit(main())
