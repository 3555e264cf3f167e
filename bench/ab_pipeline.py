#!/usr/bin/env python3
"""A/B on the GPU, in one process, of the consumer main loop's schedules
(dgemm-lower-to-kernel's wgmma-parts and pipeline-blocks) and of block N
sizes that fit the pipelined loop's registers, for the shapes given: each
variant is kernel IR made by dgemm-opt, launched through the runtime,
checked against the float reference and timed alternately (3 rounds) with
the benchmark's harness (bench/ab_epilogue.time_variants).

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/ab_pipeline.py [m,n,k ...]

Default shapes: the M = 4096 rows of bench/shapes.csv and 128x7168x16384.
"""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import ab_epilogue  # noqa: E402
import run_bench  # noqa: E402
import sweep  # noqa: E402

SELECT = "--dgemm-select-config=multicast=false multicast-b=false max-block-m=128"


def opt(ir, *passes):
    r = subprocess.run([sweep.DGEMM_OPT, *passes], input=ir, capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def config_ir(n, k, bm, bn, stages, consumers):
    cfg = ("#dgemm.config<block_m = %d, block_n = %d, stages = %d, cluster = 1, "
           "multicast = none, math_warpgroups = %d, swizzle_group = 16, num_sms = 132>"
           % (bm, bn, stages, consumers))
    kb, nb = k // 128, (n + 127) // 128
    return sweep.GEMM_IR.format(n=n, k=k, kb=kb, nb=nb, config=cfg)


def variants(m, n, k):
    chosen = opt(ab_epilogue.run_bench_ir(m, n, k), SELECT)
    out = {
        "chosen, 2 parts sequential": opt(chosen, "--dgemm-lower-to-kernel=pipeline-blocks=0"),
        "chosen, 1 part": opt(chosen, "--dgemm-lower-to-kernel=wgmma-parts=1"),
        "chosen, 2 parts pipelined x2": opt(chosen, "--dgemm-lower-to-kernel=pipeline-blocks=2"),
    }
    for bn in (128, 144, 160):
        for stages in range(8, 1, -1):
            ir = config_ir(n, k, 128, bn, stages, 2)
            text = opt(ir, "--dgemm-lower-to-kernel=pipeline-blocks=2")
            if text:
                out["128x%d s%d pipelined x2" % (bn, stages)] = text
                break
    return {name: text for name, text in out.items() if text}


def main(argv):
    import torch
    dgemm = run_bench.import_dgemm()
    timer = run_bench.Timer(torch, iters=15, warmup=3)
    shapes = argv or ["%d,%d,%d" % (s["m"], s["n"], s["k"]) for s in run_bench.read_shapes()
                      if s["m"] == 4096] + ["128,7168,16384"]
    for arg in shapes:
        m, n, k = map(int, arg.split(","))
        ab_epilogue.print_times(arg, m, n, k,
                                ab_epilogue.time_variants(torch, dgemm, timer, m, n, k,
                                                          variants(m, n, k)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
