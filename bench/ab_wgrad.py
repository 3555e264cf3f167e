#!/usr/bin/env python3
#===- ab_wgrad.py - A/B of weight-gradient kernel variants on the GPU ----===#
"""A/B of weight-gradient kernel variants in one process: for each shape, the
dgemm IR of the runtime's wgrad kernel (GemmModule's form, M static here)
with the config dgemm-select-config picks, and variants with other configs
and wgmma-parts (configs whose column scales do not fit the registers
release each stage after the promotion), and the selected config with
early and late release, each lowered by dgemm-opt (dgemm-lower-to-kernel), launched
through launch_wgrad_kernel_ir, checked against run_wgrad.py's reference
and timed alternately (3 rounds) with the benchmark's harness.

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/ab_wgrad.py [M,N,K ...]
      [--lower='stage-unroll=on;stage-unroll=on pin-descriptors=a']

--lower: only the selected config, lowered by default and with each option
set (separated by ;) of dgemm-lower-to-kernel; --configs=BMxBNxSTAGES,...
adds those configs (on the grid their tiles need), each lowered by default
and with each set (the selected config then by default only).

Output: one JSON line per (shape, variant) with the median of the rounds'
medians; exit status 1 if a check failed.
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run_bench as RB  # noqa: E402
import run_wgrad as RW  # noqa: E402

DGEMM_OPT = os.environ.get("DGEMM_OPT", "dgemm-opt")
SELECT = "--dgemm-select-config"
# --quick: no ping-pong variants.
QUICK = False
ORDERS = None  # --orders=none,handoff: the consumer orders to compare
LOWER = None  # --lower=SET;SET: the selected config under these option sets
CONFIGS = ()  # --configs=128x128x4,...: with --lower, these configs too
SMS = 0  # the device's SMs (main sets it)


def wgrad_ir(m, n, k, config=None):
    kb = k // 128
    a, sa = "memref<%dx%dxf8E4M3FN>" % (m, k), "memref<%dx%dxf32, strided<[1, %d]>>" % (m, kb, m)
    b, sb = "memref<%dx%dxf8E4M3FN>" % (n, k), "memref<%dx%dxf32, strided<[1, %d]>>" % (n, kb, n)
    d = "memref<%dx%dxf32>" % (m, n)
    attrs = "recipe = #dgemm.recipe<a = 1x128, b = 1x128>"
    if config:
        attrs += ", config = " + config
    return ("func.func @w(%%a: %s, %%sa: %s, %%b: %s, %%sb: %s, %%d: %s) {\n"
            "  dgemm.gemm ins(%%a, %%sa, %%b, %%sb : %s, %s, %s, %s) acc(%%d : %s) outs(%%d : %s) {%s}\n"
            "  return\n}\n" % (a, sa, b, sb, d, a, sa, b, sb, d, d, attrs))


def run_opt(ir, *passes):
    return subprocess.run([DGEMM_OPT, *passes], input=ir, capture_output=True, text=True,
                          check=True).stdout


def edit_config(cfg, bm, bn, st):
    c = re.sub(r"block_m = \d+", "block_m = %d" % bm, cfg)
    c = re.sub(r"block_n = \d+", "block_n = %d" % bn, c)
    c = re.sub(r"stages = \d+", "stages = %d" % st, c)
    return re.sub(r"math_warpgroups = \d+", "math_warpgroups = %d" % (bm // 64), c)


def variants(m, n, k):
    selected = run_opt(wgrad_ir(m, n, k), SELECT)
    cfg = re.search(r"config = (#dgemm\.config<[^>]*>)", selected).group(1)
    out = {}
    if LOWER is not None:
        irs = [("selected %s" % cfg, selected, [""] if CONFIGS else [""] + LOWER)]
        for bm, bn, st in CONFIGS:
            c = edit_config(cfg, bm, bn, st)
            if SMS:  # the grid of the config's tiles, not the selected one's
                tiles = -(-m // bm) * -(-n // bn)
                waves = -(-tiles // SMS)
                c = re.sub(r"num_sms = \d+", "num_sms = %d" % -(-tiles // waves), c)
            irs.append(("%dx%d s%d" % (bm, bn, st), wgrad_ir(m, n, k, c), [""] + LOWER))
        for name, ir, sets in irs:
            for opts in sets:
                try:
                    out[name + (" " + opts if opts else "")] = run_opt(
                        ir, "--dgemm-lower-to-kernel" + ("=" + opts if opts else ""))
                except subprocess.CalledProcessError as e:
                    print(json.dumps(dict(m=m, n=n, k=k, variant=name, lower=opts,
                                          skipped=e.stderr[-300:])), flush=True)
        return out
    orders = ORDERS or (("none",) if QUICK else ("none", "pingpong"))
    for release in ("early", "late"):
        for order in orders:
            out["selected %s %s %s" % (cfg, release, order)] = run_opt(
                selected, "--dgemm-lower-to-kernel=column-scale-release=%s consumer-order=%s"
                % (release, order))
    for bm, bn, st in ((128, 192, 3),):
        c = edit_config(cfg, bm, bn, st)
        for order in orders:
            try:
                out["%dx%d s%d %s" % (bm, bn, st, order)] = run_opt(
                    wgrad_ir(m, n, k, c), "--dgemm-lower-to-kernel=consumer-order=%s" % order)
            except subprocess.CalledProcessError as e:
                print(json.dumps(dict(m=m, n=n, k=k, variant=c, skipped=e.stderr[-300:])),
                      flush=True)
    return out


def main(argv):
    import torch
    dgemm = RB.import_dgemm()
    global QUICK, ORDERS, LOWER, CONFIGS, SMS
    SMS = torch.cuda.get_device_properties(0).multi_processor_count
    QUICK = "--quick" in argv
    for a in argv:
        if a.startswith("--orders="):
            ORDERS = tuple(a.split("=", 1)[1].split(","))
        if a.startswith("--lower="):
            LOWER = [o for o in a.split("=", 1)[1].split(";") if o]
        if a.startswith("--configs="):
            CONFIGS = tuple(tuple(int(x) for x in c.split("x"))
                            for c in a.split("=", 1)[1].split(",") if c)
    argv = [a for a in argv if not a.startswith("--")]
    shapes = [tuple(int(x) for x in a.split(",")) for a in argv] or \
        [(7168, 2112, 4096), (4096, 7168, 8192), (7168, 16384, 4096), (24576, 1536, 8192)]
    timer = RB.Timer(torch)
    bad = 0
    for m, n, k in shapes:
        inp = RW.make_wgrad_inputs(torch, dgemm, m, n, k, seed=1)
        ref, rms = RW.reference(torch, dgemm, inp)
        lhs, rhs = (inp["a"], inp["sa"]), (inp["b"], inp["sb"])
        vs = variants(m, n, k)
        times = {name: [] for name in vs}
        for name, ir in vs.items():
            d = inp["d0"].clone()
            dgemm.launch_wgrad_kernel_ir(ir, lhs, rhs, d)
            torch.cuda.synchronize()
            c = RB.check_output(torch, dgemm, d, (inp["d0"].double() + ref).float(), rms)
            if not c["ok"]:
                bad += 1
                print(json.dumps(dict(m=m, n=n, k=k, variant=name, check=RB.clean(c))), flush=True)
        d = inp["d0"].clone()
        for _ in range(3):
            for name, ir in vs.items():
                t = timer.time(lambda: dgemm.launch_wgrad_kernel_ir(ir, lhs, rhs, d))
                times[name].append(t["us"])
        for name, ts in times.items():
            us = sorted(ts)[1]
            print(json.dumps(dict(m=m, n=n, k=k, variant=name, us=us,
                                  tflops=RB.tflops(m, n, k, us))), flush=True)
        del inp, ref, rms
        torch.cuda.empty_cache()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
