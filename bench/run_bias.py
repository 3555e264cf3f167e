#!/usr/bin/env python3
#===- run_bias.py - check and time the GEMM with a fused bias on the GPU --===#
"""Checks and times epilogue fusion: ``gemm_fp8_fp8_bf16_nt(lhs, rhs, out,
bias=...)``, D (bf16) = A · Bᵀ + bias (f32 [N]) in one kernel, with
run_bench.py's inputs, check and harness (CUDA events, 1 GiB memset before
each call, median).

  python3 bench/run_bias.py --out bias.jsonl [--random 8] [--seed 1]
  python3 bench/run_bias.py --out small.jsonl --no-csv --no-time --random 3

Cases: the 18 normal shapes of bench/shapes.csv, plus ``--random`` shapes
with partial tiles (M, N not multiples of the tile; N a multiple of 8), so
that the last tile's columns past N take the clamped bias pair.

Check, per case: the bias is random f32 of the size of the products
(|bias| up to about the rms of a row's products, some exactly 0, some
negative); D, poisoned with NaN inside guard rows, must match the float64
A·Bᵀ + bias by run_bench's element-wise rule (|D - ref| <= 0.01·|ref| +
0.02·rms) and calc_diff; the guards must be intact; a second call must give
the same bits; and D minus the bias must match the no-bias call's D within
bf16 rounding of both (the bias lands on the right columns, and only once).

Timing, alternately (3 rounds, the median of the rounds' medians):
dgemm with the bias; dgemm without it (the same kernel config, no fusion:
what the fusion costs); dgemm then a torch add of the bias (two kernels:
what it saves); torch._scaled_mm blockwise (1x128 A, 128x128 B) then the
add; and torch._scaled_mm blockwise with its own ``bias=`` argument where
this torch accepts it (else recorded as unavailable). TFLOPS = 2·M·N·K /
time for every variant. Then the host time of a cache-hit call through
Python, with and without the bias (run_bench.py's host_us: median of 30, the
GPU idle before each).

Output: JSON lines (``meta``, one ``bias`` record per case, ``summary``).
Exit status 0 when every check passed.
"""
import argparse
import random
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_bench as RB  # noqa: E402


def random_cases(count, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        m = rng.choice([1, 7, 65, 129, 200, 777, 1500])
        n = 8 * rng.randint(1, 600)
        k = 128 * rng.randint(1, 24)
        out.append(dict(m=m, n=n, k=k, source="random"))
    return out


def make_bias(torch, n, rms_row, seed):
    """f32 [N]: normal values scaled to about the products' size, every
    7th exactly 0."""
    g = torch.Generator(device=RB.DEVICE)
    g.manual_seed(seed)
    bias = torch.randn((n,), generator=g, device=RB.DEVICE) * rms_row
    bias[::7] = 0
    return bias.contiguous()


def check_case(torch, dgemm, shape, idx, args):
    m, n, k = shape["m"], shape["n"], shape["k"]
    rec = dict(type="bias", m=m, n=n, k=k, source=shape.get("source", "csv"),
               config=dgemm.config(m, n, k))
    inp = RB.make_inputs(torch, dgemm, m, n, k, seed=args.seed * 1000003 + idx)
    ref, rms = RB.reference(torch, dgemm, inp)
    bias = make_bias(torch, n, float(rms.mean()) if m else 1.0, seed=idx + 17)
    want = ref + bias[None, :]
    out = RB.GuardedOutput(torch, m, n, seed=idx)
    out.poison()
    torch.cuda.synchronize()
    lhs, rhs = (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"])
    dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, out.d, bias=bias)
    torch.cuda.synchronize()
    chk = RB.check_output(torch, dgemm, out.d, want, rms)
    chk["guard_ok"] = out.guards_intact()
    again = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device=RB.DEVICE)
    dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, again, bias=bias)
    plain = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device=RB.DEVICE)
    dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, plain)
    torch.cuda.synchronize()
    chk["deterministic"] = bool(torch.equal(again.view(torch.int16), out.d.view(torch.int16)))
    # D - bias against the no-bias D: both rounded to bf16 once, so within
    # a bf16 ulp of each value (2^-7 relative) plus the check's rms term.
    diff = (out.d.float() - bias[None, :] - plain.float()).abs()
    allow = (out.d.float().abs() + plain.float().abs()) * 2.0 ** -7 + rms * RB.ATOL_RMS
    chk["bias_once_bad"] = int((~(diff <= allow)).sum())
    chk["ok"] = bool(chk["ok"] and chk["guard_ok"] and chk["deterministic"]
                     and chk["bias_once_bad"] == 0)
    rec["check"] = chk
    return rec, inp, bias


def time_case(torch, dgemm, timer, rec, inp, bias):
    m, n, k = rec["m"], rec["n"], rec["k"]
    d = torch.empty((m, n), dtype=torch.bfloat16, device=RB.DEVICE)
    lhs, rhs = (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"])
    bt = inp["b"].t()
    sa_t = inp["sfa"].t().contiguous().t()
    sb_t = inp["sfb"].t()                    # [K/128, ceil(N/128)], as run_bench.py
    bias_bf16 = bias.to(torch.bfloat16)

    def dgemm_then_add():
        dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d)
        d.add_(bias)

    def torch_then_add():
        y = torch._scaled_mm(inp["a"], bt, scale_a=sa_t, scale_b=sb_t,
                             out_dtype=torch.bfloat16)
        y.add_(bias)

    fns = {
        "dgemm_bias": lambda: dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d, bias=bias),
        "dgemm": lambda: dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d),
        "dgemm_then_add": dgemm_then_add,
    }
    try:
        torch_then_add()
        fns["torch_blockwise_then_add"] = torch_then_add
    except Exception as e:  # noqa: BLE001 - recorded
        rec["torch_blockwise_then_add"] = dict(error=str(e).splitlines()[0][:200])
    try:
        torch._scaled_mm(inp["a"], bt, scale_a=sa_t, scale_b=sb_t, bias=bias_bf16,
                         out_dtype=torch.bfloat16)
        fns["torch_blockwise_bias"] = lambda: torch._scaled_mm(
            inp["a"], bt, scale_a=sa_t, scale_b=sb_t, bias=bias_bf16,
            out_dtype=torch.bfloat16)
    except Exception as e:  # noqa: BLE001 - recorded
        rec["torch_blockwise_bias"] = dict(error=str(e).splitlines()[0][:200])
    got = timer.time_alternately(fns, rounds=3)
    for name, t in got.items():
        rec[name] = dict(t, tflops=RB.tflops(m, n, k, t["us"]))
    # Host time of a cache-hit call on an idle GPU, through Python, with and
    # without the bias (both cached and bound after their first call).
    rec["host_us"] = dict(bias_python=timer.host_us(fns["dgemm_bias"], 30),
                          plain_python=timer.host_us(fns["dgemm"], 30))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--random", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-time", action="store_true", help="checks only")
    ap.add_argument("--no-csv", action="store_true",
                    help="the random cases only (for compute-sanitizer)")
    args = ap.parse_args(argv)
    import torch
    dgemm = RB.import_dgemm()
    out_file = open(args.out, "w")
    emit = RB.json_emitter(out_file)
    emit(RB.device_meta(torch, dgemm, args))
    timer = RB.Timer(torch)
    cases = ([] if args.no_csv else RB.read_shapes()) + random_cases(args.random, args.seed)
    passed = failed = 0
    ratios = []
    for idx, shape in enumerate(cases):
        try:
            rec, inp, bias = check_case(torch, dgemm, shape, idx, args)
            if not args.no_time and shape.get("source") != "random":
                time_case(torch, dgemm, timer, rec, inp, bias)
                ratios.append(rec["dgemm_bias"]["us"] / rec["dgemm"]["us"])
            del inp
        except Exception:  # noqa: BLE001 - a failed case, recorded
            rec = dict(type="bias", m=shape["m"], n=shape["n"], k=shape["k"],
                       error=traceback.format_exc()[-2000:], check=dict(ok=False))
        ok = rec["check"]["ok"]
        passed += ok
        failed += not ok
        line = "%-5s M=%-5d N=%-6d K=%-6d %s" % ("ok" if ok else "FAIL", rec["m"], rec["n"],
                                                rec["k"], rec.get("config", ""))
        if "dgemm_bias" in rec:
            line += "  bias %.1f us (%.0f TFLOPS), plain %.1f, plain+add %.1f" % (
                rec["dgemm_bias"]["us"], rec["dgemm_bias"]["tflops"], rec["dgemm"]["us"],
                rec["dgemm_then_add"]["us"])
            if "torch_blockwise_then_add" in rec and "us" in rec["torch_blockwise_then_add"]:
                line += ", torch+add %.1f" % rec["torch_blockwise_then_add"]["us"]
        if not ok:
            line += "  " + str({kk: v for kk, v in rec["check"].items() if kk != "ok"})[:400]
            if "error" in rec:
                line += "\n" + rec["error"]
        print(line, flush=True)
        emit(rec)
    summary = dict(type="summary", passed=passed, failed=failed,
                   bias_over_plain_geomean=RB.geomean(ratios) if ratios else None)
    emit(summary)
    print("bias: %d passed, %d failed; time with the bias / without, geomean %s"
          % (passed, failed, "%.3f" % summary["bias_over_plain_geomean"] if ratios else "-"))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
