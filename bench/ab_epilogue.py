#!/usr/bin/env python3
"""A/B of the epilogue's staging layout on the GPU, in one process: the kernel
IR dgemm-opt prints for a shape (block N a multiple of 64) and the same kernel
IR edited to the other layout — 128-byte-swizzled 64-column staging
(`swizzle = 128` on epilogue_store, D's tensor map 64-column swizzled boxes)
or row-major staging (no `swizzle`, one unswizzled box) — both launched
through the runtime and timed alternately with the benchmark's harness.

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/ab_epilogue.py 4096,7168,16384 4096,32768,512
"""
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run_bench  # noqa: E402
import sweep  # noqa: E402


def variants(m, n, k):
    ir = run_bench_ir(m, n, k)
    text = subprocess.run([sweep.DGEMM_OPT, "--dgemm-to-kernel"], input=ir, capture_output=True, text=True,
                          check=True).stdout
    bn = int(re.search(r"block_n = (\d+) : i64", text).group(1))
    bm = int(re.search(r"block_m = (\d+) : i64", text).group(1))
    if bn % 64:
        return dict(default=text, other=None)
    d_swz = ('{box = [64, %d], dims = [1, 0], dtype = "bf16", kind = "tensor_map", operand = 4 : i64, '
             'swizzle = 128 : i64}' % bm)
    d_row = ('{box = [%d, %d], dims = [1, 0], dtype = "bf16", kind = "tensor_map", operand = 4 : i64, '
             'swizzle = 0 : i64}' % (bn, bm))
    epi_row = "consumers = %d : i32}" % (bm // 64)
    epi_swz = "consumers = %d : i32, swizzle = 128 : i32}" % (bm // 64)
    if epi_swz in text:
        return dict(swizzled=text, row_major=text.replace(epi_swz, epi_row).replace(d_swz, d_row))
    return dict(row_major=text, swizzled=text.replace(epi_row, epi_swz).replace(d_row, d_swz))


def FLOPS(m, n, k):
    return 2.0 * m * n * k


def time_variants(torch, dgemm, timer, m, n, k, variants, rounds=3, unchecked=()):
    """{name: [us per round]} of kernel-IR variants (name -> text) of one
    GEMM, on one set of random inputs, each checked against the float
    reference, timed alternately so that drift hits all alike. Variants
    named in ``unchecked`` (diagnostic edits that may race) only print
    their calc_diff."""
    inp = run_bench.make_inputs(torch, dgemm, m, n, k, seed=1)
    ref, _ = run_bench.reference(torch, dgemm, inp)
    d = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")
    lhs, rhs = (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"])
    times = {name: [] for name in variants}
    for _ in range(rounds):
        for name, text in variants.items():
            d.fill_(float("nan"))
            dgemm.launch_kernel_ir(text, lhs, rhs, d)
            diff = dgemm.calc_diff(d.float(), ref)
            if name in unchecked:
                print("%d,%d,%d %s (unchecked) calc_diff %.2g" % (m, n, k, name, diff), flush=True)
            else:
                assert diff < 1e-3, name
            times[name].append(timer.time(lambda: dgemm.launch_kernel_ir(text, lhs, rhs, d))["us"])
    return times


def check_variants(torch, dgemm, m, n, k, variants):
    """Each kernel-IR variant launched once and checked against the float
    reference, no timing (for compute-sanitizer); prints one line each."""
    inp = run_bench.make_inputs(torch, dgemm, m, n, k, seed=1)
    ref, _ = run_bench.reference(torch, dgemm, inp)
    d = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")
    for name, text in variants.items():
        d.fill_(float("nan"))
        dgemm.launch_kernel_ir(text, (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"]), d)
        diff = dgemm.calc_diff(d.float(), ref)
        assert diff < 1e-3, name
        print("%d,%d,%d %s checked (calc_diff %.2g)" % (m, n, k, name, diff), flush=True)


def print_times(label, m, n, k, times):
    """One line per variant: the best round's TFLOPS and time, and every
    round's TFLOPS."""
    flops = FLOPS(m, n, k)
    width = max(len(name) for name in times)
    for name, ts in times.items():
        print("%s %-*s %6.1f TFLOPS %8.1f us (rounds %s)"
              % (label, width, name, flops / min(ts) / 1e6, min(ts),
                 "/".join("%.1f" % (flops / t / 1e6) for t in ts)), flush=True)


def run_bench_ir(m, n, k):
    kb, nb = k // 128, (n + 127) // 128
    return sweep.GEMM_IR.replace("{{config = {config}}}", "{{m_hint = %d : i64}}" % m).format(
        n=n, k=k, kb=kb, nb=nb)


def main(argv):
    import torch
    dgemm = run_bench.import_dgemm()
    timer = run_bench.Timer(torch, iters=20, warmup=3)
    for arg in argv or ["4096,7168,16384"]:
        m, n, k = map(int, arg.split(","))
        v = variants(m, n, k)
        if "other" in v:
            print("%s: block N not a multiple of 64, nothing to compare" % arg)
            continue
        print_times(arg, m, n, k, time_variants(torch, dgemm, timer, m, n, k, v))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
