#!/usr/bin/env python3
#===- check_masked_walk.py - the masked layout's tile walks, checked --------===#
"""Checks the masked layout's kernels with each tile walk
(dgemm-lower-to-kernel{masked-walk}) on group sizes that
put masked_m at every kind of place: empty groups, one row, each 64-row wave
boundary and one past it, a full block and one past it, groups of several
blocks, and random sizes; on configs of block M 128 and 256, with and without
multicast of A, and grids from a few CTAs (many tiles each, so the reversed
rounds of masked-walk=cost come round many times) to 132.

Each case's D is poisoned first; the valid rows are checked against the
float reference and the rows at or past masked_m must keep the poison
(run_grouped.Case.verify). One launch per case and variant (no timing), so
it runs under compute-sanitizer too:

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/check_masked_walk.py
      [--lower 'masked-walk=cost;...']                         # the variants
      [--quick]                                               # fewer cases
Exit status 1 when any check fails.
"""
import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ab_masked_gap  # noqa: E402
import run_bench  # noqa: E402
import sweep  # noqa: E402
import sweep_grouped  # noqa: E402

VARIANTS = "masked-walk=groups;masked-walk=cost"

# (block M, block N, stages, swizzle group, CTAs, multicast A)
CONFIGS = [
    (256, 128, 3, 16, 112, False),
    (256, 128, 3, 16, 5, False),
    (128, 128, 5, 16, 132, False),
    (128, 192, 4, 1, 7, False),
    (256, 128, 3, 16, 64, True),
]

# Group sizes for block M 256 and 128: wave boundaries (64, 128, 192), a
# block and one past it, several blocks, empty groups, one row.
SIZES = [
    [1, 64, 65, 128],
    [129, 192, 193, 255],
    [256, 257, 0, 320],
    [0, 0, 0, 0],
    [448, 5, 0, 383],
    [511, 512, 63, 130],
]


def config_text(bm, bn, stages, group, ctas, mcast):
    cfg = sweep.config_text(bm, bn, stages, group, ctas)
    if mcast:
        cfg = cfg.replace("cluster = 1, multicast = none", "cluster = 2, multicast = a")
    return cfg


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lower", default=VARIANTS,
                    help="dgemm-lower-to-kernel option sets, separated by ';'")
    ap.add_argument("--quick", action="store_true", help="the first 3 configs, 3 size sets")
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--k", type=int, default=512)
    args = ap.parse_args(argv)
    import torch
    dgemm = run_bench.import_dgemm()
    rng = random.Random(7)
    sizes_list = SIZES[:3] if args.quick else SIZES + [
        [rng.choice([0, 1, rng.randrange(1, 700)]) for _ in range(8)] for _ in range(3)]
    configs = CONFIGS[:3] if args.quick else CONFIGS
    n, k = args.n, args.k
    failures = checked = 0
    for ci, (bm, bn, stages, group, ctas, mcast) in enumerate(configs):
        cfg = config_text(bm, bn, stages, group, ctas, mcast)
        for si, sizes in enumerate(sizes_list):
            shape = {"layout": "masked", "groups": len(sizes), "m": 256, "n": n, "k": k}
            text = sweep_grouped.grouped_ir(shape, cfg)
            base = None
            for opts in [o for o in args.lower.split(";") if o]:
                label = "%s sizes %s [%s]" % (run_bench.short_config(cfg), sizes, opts)
                try:
                    ir = ab_masked_gap.lower(text, opts)
                except Exception as e:  # a lowering that fails is a failure
                    print("FAIL %s: lowering: %s" % (label, getattr(e, "stderr", e)), flush=True)
                    failures += 1
                    continue
                if base is None:
                    base = ab_masked_gap.Grouped(torch, dgemm, shape, ir, seed=100 * ci + si,
                                                 sizes=sizes)
                    run = base
                else:
                    run = base.with_ir(ir)
                checked += 1
                try:
                    run.check()
                    print("ok   %s" % label, flush=True)
                except AssertionError as e:
                    failures += 1
                    print("FAIL %s: %s" % (label, e), flush=True)
            del base
            torch.cuda.empty_cache()
    print("check_masked_walk: %d checks, %d failed" % (checked, failures), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
