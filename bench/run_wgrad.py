#!/usr/bin/env python3
#===- run_wgrad.py - check and time the weight-gradient GEMM on the GPU ---===#
"""Checks and times dgemm's weight-gradient GEMM, D (f32) += A · Bᵀ with
1x128 scales for both operands (``wgrad_gemm_fp8_fp8_fp32_nt``), with
run_bench.py's harness (CUDA events, 1 GiB memset before each call, median).

  python3 bench/run_wgrad.py --out wgrad.jsonl [--random 8] [--seed 1]

Cases: the weight shapes of the 6 distinct normal layers of bench/shapes.csv
as (M, N) = (N, K) of the layer (dW = dYᵀ · X: M and N are the weight's,
K the tokens), with K = 4096 and 8192 tokens, plus ``--random`` small
shapes with partial tiles (M, N not multiples of the block).

Check: D starts as random f32 values D0 inside a buffer with guard rows
before and after (a bit pattern); after one call D must be D0 + A·Bᵀ (the
float64 reference of the dequantized inputs, run_bench's element-wise
tolerance), after a second call D0 + 2·A·Bᵀ, the guards unchanged, and a
K = 0 call must leave D bit-for-bit unchanged.

Peers in the same run, on the same M, N, K: dgemm's normal GEMM (bf16
output, 128x128 B scales: the forward kernel on the same work) and
torch._scaled_mm blockwise (1x128 A, 128x128 B, bf16 out; cuBLASLt), and
torch._scaled_mm with 1x128 scales on both operands where this torch
accepts it (else recorded as unavailable).

Output: JSON lines (``meta``, one ``wgrad`` record per case, ``summary``).
Exit status 0 when every check passed.
"""
import argparse
import json
import random
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_bench as RB  # noqa: E402

GUARD_ROWS = 2


def weight_shapes(path=RB.DEFAULT_CSV):
    seen = []
    for s in RB.read_shapes(path):
        w = (s["n"], s["k"])
        if w not in seen:
            seen.append(w)
    return seen


def make_wgrad_inputs(torch, dgemm, m, n, k, seed):
    """A [M, K] and B [N, K] e4m3 with 1x128 scales each (per-token casts of
    values with spread block scales), D0 [M, N] f32."""
    g = torch.Generator(device=RB.DEVICE)
    g.manual_seed(seed)
    kb = k // 128
    out = {}
    for name, rows in (("a", m), ("b", n)):
        e = RB.scale_exponents(torch, g, rows, kb, RB.DEVICE)
        x = torch.randn((rows, k), generator=g, device=RB.DEVICE)
        if kb:
            x *= torch.exp2(e).repeat_interleave(128, dim=1)
        x8, sx = dgemm.per_token_cast_to_fp8(x)
        out[name], out["s" + name] = x8, dgemm.get_col_major_tma_aligned_tensor(sx)
        out["s%s_rows" % name] = sx
    out["d0"] = torch.randn((m, n), generator=g, device=RB.DEVICE)
    return out


def reference(torch, dgemm, inp):
    A = dgemm.per_token_cast_back(inp["a"], inp["sa_rows"], dtype=torch.float64)
    B = dgemm.per_token_cast_back(inp["b"], inp["sb_rows"], dtype=torch.float64)
    ref = A @ B.t()
    A.mul_(A)
    B.mul_(B)
    rms = (A @ B.t()).sqrt_().float()
    return ref, rms


def check_case(torch, dgemm, m, n, k, seed):
    inp = make_wgrad_inputs(torch, dgemm, m, n, k, seed)
    ref, rms = reference(torch, dgemm, inp)
    buf = torch.empty((m + 2 * GUARD_ROWS, n), dtype=torch.float32, device=RB.DEVICE)
    buf.view(torch.int32).random_(-2**31, 2**31 - 1)
    guards = buf.clone()
    d = buf[GUARD_ROWS:GUARD_ROWS + m]
    d.copy_(inp["d0"])
    rec = dict(m=m, n=n, k=k, seed=seed)
    lhs, rhs = (inp["a"], inp["sa"]), (inp["b"], inp["sb"])
    ok = True
    for calls in (1, 2):
        dgemm.wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, d)
        torch.cuda.synchronize()
        want = (inp["d0"].double() + calls * ref).float()
        c = RB.check_output(torch, dgemm, d, want, rms * calls)
        rec["check_%d" % calls] = c
        ok = ok and c["ok"]
    g = GUARD_ROWS
    rec["guards_intact"] = bool(torch.equal(buf[:g].view(torch.int32), guards[:g].view(torch.int32))
                                and torch.equal(buf[g + m:].view(torch.int32),
                                                guards[g + m:].view(torch.int32)))
    # K = 0 adds nothing.
    before = d.clone()
    e8 = inp["a"][:, :0]
    dgemm.wgrad_gemm_fp8_fp8_fp32_nt((e8, inp["sa"][:, :0]), (inp["b"][:, :0], inp["sb"][:, :0]), d)
    torch.cuda.synchronize()
    rec["k0_untouched"] = bool(torch.equal(before.view(torch.int32), d.view(torch.int32)))
    rec["ok"] = bool(ok and rec["guards_intact"] and rec["k0_untouched"])
    return rec, inp


def time_case(torch, dgemm, timer, m, n, k, inp, rec):
    d = inp["d0"].clone()
    lhs, rhs = (inp["a"], inp["sa"]), (inp["b"], inp["sb"])
    t = timer.time(lambda: dgemm.wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, d))
    rec["dgemm"] = dict(t, tflops=RB.tflops(m, n, k, t["us"]))
    # Peers on the same M, N, K.
    norm = RB.make_inputs(torch, dgemm, m, n, k, seed=rec["seed"])
    out = torch.empty((m, n), dtype=torch.bfloat16, device=RB.DEVICE)
    t = timer.time(lambda: dgemm.gemm_fp8_fp8_bf16_nt((norm["a"], norm["sfa_tma"]),
                                                      (norm["b"], norm["sfb"]), out))
    rec["dgemm_normal_bf16"] = dict(t, tflops=RB.tflops(m, n, k, t["us"]))
    bt = norm["b"].t()
    sa_t = norm["sfa"].t().contiguous().t()
    sb_t = norm["sfb"].t().contiguous().t()
    try:
        t = timer.time(lambda: torch._scaled_mm(norm["a"], bt, scale_a=sa_t, scale_b=sb_t,
                                                out_dtype=torch.bfloat16))
        rec["torch_blockwise"] = dict(t, tflops=RB.tflops(m, n, k, t["us"]))
    except Exception as e:  # noqa: BLE001
        rec["torch_blockwise"] = dict(error=str(e).splitlines()[0][:200])
    sa1 = inp["sa_rows"].t().contiguous().t()
    sb1 = inp["sb_rows"].t().contiguous()
    try:
        t = timer.time(lambda: torch._scaled_mm(inp["a"], inp["b"].t(), scale_a=sa1,
                                                scale_b=sb1, out_dtype=torch.bfloat16))
        rec["torch_1x128_both"] = dict(t, tflops=RB.tflops(m, n, k, t["us"]))
    except Exception as e:  # noqa: BLE001
        rec["torch_1x128_both"] = dict(error=str(e).splitlines()[0][:200])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="JSON lines file (default: stdout only)")
    ap.add_argument("--random", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-time", action="store_true", help="checks only")
    args = ap.parse_args(argv)
    import torch
    dgemm = RB.import_dgemm()
    out = open(args.out, "w") if args.out else None

    def emit(rec):
        line = json.dumps(RB.clean(rec))
        print(line, flush=True)
        if out:
            out.write(line + "\n")
            out.flush()

    emit(dict(kind="meta", commit=RB.commit_id(), device=torch.cuda.get_device_name(),
              torch=torch.__version__))
    rnd = random.Random(args.seed)
    cases = [(m, n, k) for (m, n) in weight_shapes() for k in (4096, 8192)]
    small = [(rnd.randint(1, 300), 8 * rnd.randint(1, 60), 128 * rnd.randint(1, 12))
             for _ in range(args.random)]
    timer = RB.Timer(torch)
    failed = 0
    for i, (m, n, k) in enumerate(cases + small):
        try:
            rec, inp = check_case(torch, dgemm, m, n, k, seed=args.seed + i)
            if not args.no_time and (m, n, k) in cases:
                time_case(torch, dgemm, timer, m, n, k, inp, rec)
            del inp
        except Exception:  # noqa: BLE001
            rec = dict(m=m, n=n, k=k, ok=False, error=traceback.format_exc()[-2000:])
        rec["kind"] = "wgrad"
        failed += not rec["ok"]
        emit(rec)
        torch.cuda.empty_cache()
    emit(dict(kind="summary", cases=len(cases) + len(small), failed=failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
