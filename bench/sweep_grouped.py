#!/usr/bin/env python3
#===- sweep_grouped.py - the config sweep of the m-grouped kernels -------===#
"""Config sweep of the m-grouped kernels, as bench/sweep.py does for the
normal GEMM: for each contiguous and masked shape of bench/shapes.csv (equal
group sizes) and each candidate config (block M 64 or 128, block N every
multiple of 8 from 16 to 256, the most stages the verifier accepts, no
multicast, tile-order group and SMs by the selection's rules), the grouped
dgemm IR with that config is lowered by dgemm-opt, launched through the
runtime (dgemm.launch_grouped_kernel_ir), checked on sampled rows of every
group (bench/run_grouped.py's check) and timed with the benchmark's harness.
The config the runtime selects (what dgemm-opt's dgemm-select-config picks
with the runtime's capabilities) is timed through the public call.

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/sweep_grouped.py --out sweep.jsonl
  ... --layout masked --blocks 256x128,256x112 --multicast   # those tiles, with and
                                                              # without multicast A
  ... --layout contiguous --blocks 128x192 --multicast --multicast-b  # none, A, B
  ... --layout masked --sizes drawn        # the benchmark's drawn group sizes
  ... --lower 'masked-walk=cost'           # candidates lowered with these
  ... --only G4-m256-n7168-k2048           # the shapes whose label contains this
  ... --num-sms 132                        # every candidate on 132 CTAs

One JSON line per shape: {layout, groups, m, n, k, sizes, selected,
selected_us, best, best_us, candidates: [{config, us} ...]} (with --sizes
drawn also kind: "drawn"; --lower adds lower, --num-sms num_sms);
scripts/check_sweep.py reads
the equal-size sweep beside the normal one. The selected config is still
chosen for equal groups (expected_m = m): a drawn-size sweep shows what that
choice costs when the sizes vary, the data a selection that weighs drawn
sizes needs (docs/config-selection.md).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "scripts"))

import gen_shapes_module  # noqa: E402
import run_bench  # noqa: E402
import run_grouped  # noqa: E402
import sweep  # noqa: E402

SELECT = "--dgemm-select-config"


def grouped_ir(shape, config=None):
    """The shape's dgemm IR (gen_shapes_module's), with `config` attached."""
    g, m, n, k = shape["groups"], shape["m"], shape["n"], shape["k"]
    fn = gen_shapes_module.contiguous if shape["layout"] == "contiguous" else \
        gen_shapes_module.masked
    name, types, body = fn(g, m, n, k)
    args = ["%a", "%sa", "%b", "%sb", "%g", "%d"]
    sig = ", ".join("%s: %s" % (a, t) for a, t in zip(args, types))
    if config:
        if "{m_hint" in body:
            body = body.replace("{m_hint", "{config = %s, m_hint" % config)
        else:
            body = body.rstrip("\n") + " {config = %s}\n" % config
    return "func.func @%s(%s) {\n%s  return\n}\n" % (name, sig, body)


def candidates(shape, sms=132):
    g, m, n = shape["groups"], shape["m"], shape["n"]
    out = []
    # Block M 256 is valid for the masked layout (bf16, 128x128 B scales).
    for bm in (64, 128, 256) if shape["layout"] == "masked" else (64, 128):
        for bn in range(16, min(128 if bm == 256 else 256, sweep.ceil_div(n, 8) * 8) + 1, 8):
            m_blocks = (g * m // bm) if shape["layout"] == "contiguous" else \
                g * sweep.ceil_div(m, bm)
            tiles = m_blocks * sweep.ceil_div(n, bn)
            waves = sweep.ceil_div(tiles, sms)
            ctas = min(sms, sweep.ceil_div(tiles, waves))
            group = 1 if tiles <= sms else min(16, sweep.ceil_div(n, bn))
            out.append((bm, bn, group, ctas))
    return out


def with_multicast(cands, n, a=True, b=False):
    """Each candidate, and with `a` its multicast-A variant (2-CTA clusters
    of N neighbours: even N blocks, an even CTA count) where N allows it,
    with `b` its multicast-B variant (pairs of M blocks; the contiguous
    layout, block N a multiple of 16)."""
    out = []
    for bm, bn, group, ctas in cands:
        out.append((bm, bn, group, ctas, ""))
        if a and sweep.ceil_div(n, bn) % 2 == 0:
            out.append((bm, bn, group - group % 2 if group > 1 else 1, ctas + ctas % 2, "a"))
        if b and bn % 16 == 0:
            out.append((bm, bn, group, ctas + ctas % 2, "b"))
    return out


def lower(shape, bm, bn, group, ctas, multicast="", options=""):
    """(config, kernel IR) for the most stages the verifier accepts, lowered
    with dgemm-lower-to-kernel `options`; `multicast` "a" or "b" makes it a
    2-CTA cluster sharing that operand."""
    for stages in range(8, 2, -1):
        cfg = sweep.config_text(bm, bn, stages, group, ctas)
        if multicast:
            cfg = cfg.replace("cluster = 1, multicast = none",
                              "cluster = 2, multicast = " + multicast)
        r = subprocess.run([sweep.DGEMM_OPT, "--dgemm-lower-to-kernel" +
                            ("=" + options if options else "")],
                           input=grouped_ir(shape, cfg), capture_output=True, text=True)
        if r.returncode == 0:
            return cfg, r.stdout
    return None, None


def selected_config(shape):
    """The config dgemm-select-config chooses with the runtime's options."""
    r = subprocess.run([sweep.DGEMM_OPT, SELECT], input=grouped_ir(shape),
                       capture_output=True, text=True, check=True)
    m = re.search(r"#dgemm\.config<[^>]*>", r.stdout)
    return m.group(0) if m else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--time-budget", type=float, default=0.0)
    ap.add_argument("--layout", choices=("contiguous", "masked"),
                    help="sweep the shapes of this layout only")
    ap.add_argument("--blocks", default="",
                    help="only these block shapes, e.g. 256x128,128x192")
    ap.add_argument("--multicast", action="store_true",
                    help="also each candidate with multicast A (2-CTA clusters)")
    ap.add_argument("--multicast-b", action="store_true",
                    help="also each candidate with multicast B (contiguous layout)")
    ap.add_argument("--sizes", choices=("equal", "drawn"), default="equal",
                    help="group sizes: every group m rows, or the benchmark's drawn sizes "
                         "(m x U(0.7, 1.3), run_grouped.reference_cases(1))")
    ap.add_argument("--lower", default="",
                    help="dgemm-lower-to-kernel options for every candidate")
    ap.add_argument("--num-sms", type=int, default=0,
                    help="every candidate on this many CTAs (default: the fewest "
                         "that keep the equal-size waves)")
    ap.add_argument("--only", default="",
                    help="only the shapes whose label (G4-m256-n7168-k2048) contains this")
    args = ap.parse_args(argv)
    import torch
    dgemm = run_bench.import_dgemm()
    timer = run_bench.Timer(torch, iters=args.iters, warmup=2)
    drawn = {(s["layout"], s["groups"], s["m"], s["n"], s["k"]): sizes
             for s, sizes in run_grouped.reference_cases(1) if s["kind"] == "drawn"}
    t0 = time.time()
    with open(args.out, "w") as out:
        for i, shape in enumerate(run_grouped.read_grouped_shapes()):
            g, m, n, k = shape["groups"], shape["m"], shape["n"], shape["k"]
            if args.layout and shape["layout"] != args.layout:
                continue
            if args.only not in run_grouped.shape_label(shape):
                continue
            if args.time_budget and time.time() - t0 > args.time_budget:
                print("sweep_grouped: time budget spent, %s G=%d m=%d n=%d k=%d not swept"
                      % (shape["layout"], g, m, n, k), flush=True)
                continue
            sizes = drawn[(shape["layout"], g, m, n, k)] if args.sizes == "drawn" else [m] * g
            case = run_grouped.Case(torch, dgemm, shape, sizes, seed=17 + i)
            lhs, rhs = (case.a, case.sa_tma), (case.b, case.sb)
            groups = case.m_indices if shape["layout"] == "contiguous" else case.masked_m
            rec = dict(layout=shape["layout"], groups=g, m=m, n=n, k=k, sizes=sizes,
                       candidates=[])
            if args.sizes == "drawn":
                rec["kind"] = "drawn"
            if args.lower:
                rec["lower"] = args.lower
            if args.num_sms:
                rec["num_sms"] = args.num_sms
            cands = candidates(shape)
            if args.blocks:
                keep = {tuple(int(x) for x in b.split("x")) for b in args.blocks.split(",")}
                cands = [c for c in cands if (c[0], c[1]) in keep]
            if args.num_sms:
                cands = [(bm, bn, grp, args.num_sms) for bm, bn, grp, _ in cands]
            cands = with_multicast(cands, n, a=args.multicast,
                                   b=args.multicast_b and shape["layout"] == "contiguous")
            with ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
                lowered = list(pool.map(lambda c: lower(shape, *c, options=args.lower),
                                        cands))
            for cfg, kernel_ir in lowered:
                if kernel_ir is None:
                    continue
                call = lambda: dgemm.launch_grouped_kernel_ir(  # noqa: E731
                    kernel_ir, lhs, rhs, case.d, groups)
                try:
                    case.d.fill_(float("nan"))
                    call()
                    torch.cuda.synchronize()
                    chk = case.verify()
                    if not chk["ok"]:
                        rec["candidates"].append(dict(config=cfg, error="check failed"))
                        continue
                    rec["candidates"].append(dict(config=cfg, us=timer.time(call)["us"]))
                except Exception as e:  # one config must not end the sweep
                    rec["candidates"].append(dict(config=cfg, error=repr(e)[:200]))
            sel = selected_config(shape)
            t = timer.time(case.call)
            timed = [c for c in rec["candidates"] if "us" in c]
            best = min(timed, key=lambda c: c["us"]) if timed else None
            rec.update(selected=sel, selected_us=t["us"], best=best and best["config"],
                       best_us=best and best["us"])
            out.write(json.dumps(rec) + "\n")
            out.flush()
            flops = 2.0 * sum(sizes) * n * k
            print("%-10s G=%d m=%-5d n=%-5d k=%-5d selected %s %.0f TF | best %s %.0f TF "
                  "(%d configs)" % (shape["layout"], g, m, n, k, run_bench.short_config(sel),
                                    flops / t["us"] / 1e6,
                                    run_bench.short_config(best["config"]) if best else "-",
                                    flops / best["us"] / 1e6 if best else 0, len(timed)),
                  flush=True)
            del case
            torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
