#!/usr/bin/env python3
#===- probe_swap_headroom.py - would swapping the masked operands pay? ----===#
"""A probe for docs/kernel.md, "The drawn 4-group K 2048 case": the masked
layout with the operands swapped (each group's weights as the wgmma's M,
its tokens as the wgmma's N, so a group pads to 8 rows instead of 128) is
not built. Before building it, this times what its tiles would cost with
the kernels that exist: a normal GEMM whose A is 7 stacked copies of the
weights' rows (M = 7 x N = 50176: the drawn sizes [224, 183, 308, 265]
split into 7 chunks of at most 192 tokens) and whose N is a chunk's
tokens (T), at 128xT on 132 CTAs: 392 tiles of 128 weight rows by T
tokens, each loading its own weight rows, as the swapped kernel's would.
It is optimistic on the promotion (one scale per weight row here; the
swapped kernel would scale each token column, an FMUL and an FFMA per
element) and pessimistic on DRAM (7 distinct weight copies instead of 4).

In the same process, as the reference: the masked kernel on the drawn
sizes (the selection's two-shape config) and the normal GEMM on their 980
rows. Each variant is checked against the float reference first.

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/probe_swap_headroom.py [--rounds 5]
"""
import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ab_masked_gap  # noqa: E402
import run_bench  # noqa: E402
import run_grouped  # noqa: E402
import sweep  # noqa: E402
import sweep_grouped  # noqa: E402

CHUNKS = 7  # the drawn sizes' chunks of at most 192 tokens: 2 + 1 + 2 + 2


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--tokens", default="112,136,152,160,184,192",
                    help="the chunk widths T to time (block N of the stacked GEMM)")
    args = ap.parse_args(argv)
    import torch
    dgemm = run_bench.import_dgemm()
    timer = run_bench.Timer(torch, iters=15, warmup=3)
    shape = next(s for s in run_grouped.read_grouped_shapes()
                 if s["layout"] == "masked" and s["groups"] == 4 and s["k"] == 2048)
    n, k = shape["n"], shape["k"]
    sizes = next(sz for s, sz in run_grouped.reference_cases(1)
                 if s["kind"] == "drawn" and s["layout"] == "masked" and s["groups"] == 4
                 and s["k"] == 2048)
    config = sweep_grouped.selected_config(shape)
    first = sweep.edit_config(config, ab_masked_gap.ONE_SHAPE)[0]
    runs = {
        "masked-drawn": ab_masked_gap.Grouped(torch, dgemm, shape,
                                              ab_masked_gap.lower(sweep_grouped.grouped_ir(shape, config)),
                                              seed=31, sizes=sizes),
        "normal-%d-rows" % sum(sizes): ab_masked_gap.Normal(
            torch, dgemm, sum(sizes), n, k,
            ab_masked_gap.lower(ab_masked_gap.normal_ir(sum(sizes), n, k,
                                                        first.replace(", stream_b = true", ""))),
            seed=41),
    }
    m = CHUNKS * n
    for t in (int(x) for x in args.tokens.split(",") if x):
        cfg, ir = sweep.lower(m, t, k, 128, t, 1, 132)
        if ir is None:
            print("T %d: no stage count lowers" % t, flush=True)
            continue
        runs["stacked-128x%d" % t] = ab_masked_gap.Normal(torch, dgemm, m, t, k, ir, seed=51 + t)
        print("stacked-128x%d: %s" % (t, run_bench.short_config(cfg)), flush=True)
    times = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, r in runs.items():
            r.check()
            times[name].append(timer.time(r.call)["us"])
    print("drawn sizes %s, config %s" % (sizes, run_bench.short_config(config)), flush=True)
    for name, ts in times.items():
        flops = runs[name].flops
        print("%-22s %5.0f TFLOPS %6.1f us (rounds %s us)"
              % (name, flops / min(ts) / 1e6, min(ts), "/".join("%.1f" % t for t in ts)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
