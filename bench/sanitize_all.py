#!/usr/bin/env python3
#===- sanitize_all.py - every reference shape once, for compute-sanitizer -===#
"""Launches dgemm once on every reference shape of bench/shapes.csv of the
kinds that have kernels (18 normal, 4 contiguous, 6 masked with equal group
sizes), on random inputs, without the float64 reference (which would
dominate the run under a sanitizer): meant to run under
``compute-sanitizer --tool memcheck``. The numerics of these shapes are
checked by run_bench.py / run_grouped.py.

  compute-sanitizer --tool memcheck python3 bench/sanitize_all.py
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_bench as RB  # noqa: E402
import run_grouped as RG  # noqa: E402


def main():
    import torch
    dgemm = RB.import_dgemm()
    count = 0
    for i, s in enumerate(RB.read_shapes()):
        t0 = time.time()
        inp = RB.make_inputs(torch, dgemm, s["m"], s["n"], s["k"], seed=i)
        d = torch.empty((s["m"], s["n"]), dtype=torch.bfloat16, device="cuda")
        dgemm.gemm_fp8_fp8_bf16_nt((inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"]), d)
        torch.cuda.synchronize()
        count += 1
        print("normal     m=%-5d n=%-5d k=%-5d launched (%.1f s)" % (
            s["m"], s["n"], s["k"], time.time() - t0), flush=True)
        del inp, d
    for i, s in enumerate(RG.read_grouped_shapes()):
        t0 = time.time()
        case = RG.Case(torch, dgemm, s, [s["m"]] * s["groups"], seed=100 + i)
        case.call()
        torch.cuda.synchronize()
        count += 1
        print("%-10s G=%d m=%-5d n=%-5d k=%-5d launched (%.1f s)" % (
            s["layout"], s["groups"], s["m"], s["n"], s["k"], time.time() - t0), flush=True)
        del case
        torch.cuda.empty_cache()
    print("sanitize_all: %d reference shapes launched" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
