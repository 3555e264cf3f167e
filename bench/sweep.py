#!/usr/bin/env python3
"""Config sweep: runs, on the GPU, every config the kernel accepts for a shape
and records each one's time, so that dgemm-select-config can be checked
against the best (scripts/check_sweep.py, and the committed data in
bench/sweep/).

For each shape (default: the normal shapes of bench/shapes.csv) and each
candidate config — block M 64 or 128 with block N every multiple of 8 from
16 to 256, block M 256 with block N up to 128 (its registers' limit), the most stages that fit (8 down to 3), no multicast, the tile-order
group and SM count by the same rules as the selection — the dgemm IR with
that config is lowered by dgemm-opt (whose verifier rejects configs the
kernel cannot run: registers, scale blocks, shared memory), launched through
the runtime (dgemm.launch_kernel_ir), checked against a float reference and
timed with the benchmark's harness (CUDA events, 1 GiB memset before each
call, median). The config the runtime selects is timed the same way.

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/sweep.py --out sweep.jsonl
Writes one JSON line per shape: {m, n, k, selected, selected_us, best,
best_us, candidates: [{config, us} ...]}.
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
sys.path.insert(0, str(HERE.parent / "python"))

import run_bench  # noqa: E402

DGEMM_OPT = os.environ.get("DGEMM_OPT", "dgemm-opt")

GEMM_IR = """func.func @gemm(%a: memref<?x{k}xf8E4M3FN>, %sa: memref<?x{kb}xf32, strided<[1, ?]>>,
    %b: memref<{n}x{k}xf8E4M3FN>, %sb: memref<{nb}x{kb}xf32>, %d: memref<?x{n}xbf16>) {{
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x{k}xf8E4M3FN>, memref<?x{kb}xf32, strided<[1, ?]>>,
      memref<{n}x{k}xf8E4M3FN>, memref<{nb}x{kb}xf32>) outs(%d : memref<?x{n}xbf16>) {{config = {config}}}
  return
}}
"""


def ceil_div(a, b):
    return (a + b - 1) // b


def config_text(bm, bn, stages, group, sms):
    return ("#dgemm.config<block_m = %d, block_n = %d, stages = %d, cluster = 1, multicast = none, "
            "math_warpgroups = %d, swizzle_group = %d, num_sms = %d>" % (bm, bn, stages, 1 if bm == 64 else 2,
                                                                        group, sms))


def edit_config(config, edit):
    """A ','-separated edit of a #dgemm.config: `field=value` sets a config
    field (`field=-` removes it: `alt_block_m=-,alt_block_n=-,alt_stages=-,
    alt_num_sms=-` gives a two-shape masked config its first shape alone),
    `lower.option=value` adds a dgemm-lower-to-kernel option. A field the
    config does not print (an optional one left at its default, such as
    `a_box_rows` or `stream_b`) is added to each `#dgemm.config<...>` of the
    text (a config or IR holding one). Returns (edited config, lowering
    options, space-separated)."""
    options = []
    for field, value in (e.split("=", 1) for e in edit.split(",") if e):
        if field.startswith("lower."):
            options.append("%s=%s" % (field[len("lower."):], value))
        elif value == "-":
            config = re.sub(r",\s*\b%s = \w+" % field, "", config)
        elif re.search(r"\b%s = " % field, config):
            config = re.sub(r"\b%s = \w+" % field, "%s = %s" % (field, value), config)
        else:
            config = re.sub(r"(#dgemm\.config<[^>]*)>", r"\1, %s = %s>" % (field, value), config)
    return config, " ".join(options)


def candidates(m, n, sms=132):
    """(bm, bn, group, num_sms) of every block shape, with the selection's
    rules for the rest."""
    out = []
    for bm in (64, 128, 256):
        if m <= 64 and bm != 64:
            continue
        for bn in range(16, min(128 if bm == 256 else 256, ceil_div(n, 8) * 8) + 1, 8):
            tiles = ceil_div(m, bm) * ceil_div(n, bn)
            waves = ceil_div(tiles, sms)
            ctas = min(sms, ceil_div(tiles, waves))
            group = 1 if tiles <= sms else min(16, ceil_div(n, bn))
            out.append((bm, bn, group, ctas))
    return out


def lower(m, n, k, bm, bn, group, ctas):
    """Kernel IR for the first stage count the verifier accepts, or None."""
    for stages in range(8, 2, -1):
        cfg = config_text(bm, bn, stages, group, ctas)
        ir = GEMM_IR.format(n=n, k=k, kb=k // 128, nb=ceil_div(n, 128), config=cfg)
        r = subprocess.run([DGEMM_OPT, "--dgemm-lower-to-kernel"], input=ir, capture_output=True, text=True)
        if r.returncode == 0:
            return cfg, r.stdout
    return None, None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--shapes", default="", help='"m,n,k;..." instead of the normal shapes of shapes.csv')
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--time-budget", type=float, default=0.0, help="seconds; stop starting shapes after it")
    args = ap.parse_args(argv)
    import torch
    dgemm = run_bench.import_dgemm()
    shapes = run_bench.parse_shapes_arg(args.shapes) if args.shapes else run_bench.read_shapes()
    timer = run_bench.Timer(torch, iters=args.iters, warmup=2)
    t0 = time.time()
    with open(args.out, "w") as out:
        for shape in shapes:
            m, n, k = (shape["m"], shape["n"], shape["k"]) if isinstance(shape, dict) else shape[:3]
            if args.time_budget and time.time() - t0 > args.time_budget:
                print("sweep: time budget spent, %d x %d x %d not swept" % (m, n, k), flush=True)
                continue
            inp = run_bench.make_inputs(torch, dgemm, m, n, k, seed=1)
            ref, _ = run_bench.reference(torch, dgemm, inp)
            d = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")
            lhs, rhs = (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"])
            rec = dict(m=m, n=n, k=k, candidates=[])
            # Lowering runs dgemm-opt: do all candidates at once.
            with ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
                lowered = list(pool.map(lambda c: lower(m, n, k, *c), candidates(m, n)))
            for cfg, kernel_ir in lowered:
                if kernel_ir is None:
                    continue
                try:
                    d.fill_(float("nan"))
                    dgemm.launch_kernel_ir(kernel_ir, lhs, rhs, d)
                    diff = dgemm.calc_diff(d.float(), ref)
                    if not diff < 1e-3:
                        rec["candidates"].append(dict(config=cfg, error="check failed (diff %.3g)" % diff))
                        continue
                    t = timer.time(lambda: dgemm.launch_kernel_ir(kernel_ir, lhs, rhs, d))
                    rec["candidates"].append(dict(config=cfg, us=t["us"]))
                except Exception as e:  # one config must not end the sweep
                    rec["candidates"].append(dict(config=cfg, error=repr(e)[:200]))
            sel = dgemm.config(m, n, k)
            t = timer.time(lambda: dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d))
            timed = [c for c in rec["candidates"] if "us" in c]
            best = min(timed, key=lambda c: c["us"]) if timed else None
            rec.update(selected=sel, selected_us=t["us"], best=best and best["config"],
                       best_us=best and best["us"])
            out.write(json.dumps(rec) + "\n")
            out.flush()
            flops = 2.0 * m * n * k
            print("%5d %5d %5d  selected %s %.0f TF | best %s %.0f TF (%d configs)" % (
                m, n, k, run_bench.short_config(sel), flops / t["us"] / 1e6,
                run_bench.short_config(best["config"]) if best else "-",
                flops / best["us"] / 1e6 if best else 0, len(timed)), flush=True)
            del inp, ref
            torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
