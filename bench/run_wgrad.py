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

k-grouped (``k_grouped_wgrad_gemm_fp8_fp8_fp32_nt``): weight shapes with 4
and 8 experts of about 4096 tokens each (4096 x U(0.7, 1.3), multiples of
128), and random small cases with empty groups (which must stay bit-for-bit
unchanged), one-block groups and single groups; each group checked against
its own float64 reference; timed beside dgemm's normal weight-gradient GEMM
on the same total work (K = sum(k_g)) and a host loop of one weight-gradient
GEMM per group, the three alternately (3 rounds, the median of the rounds'
medians). TFLOPS = 2 * M * N * sum(k_g) / time.

Output: JSON lines (``meta``, one ``wgrad`` or ``k_grouped`` record per case,
``summary``).
Exit status 0 when every check passed.
"""
import argparse
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
    """The weight-gradient call and its peers on the same M, N, K, each
    tried once (a call torch refuses is an error in the record), then timed
    in turn, 3 rounds (run_bench.py's docstring: the power cap)."""
    d = inp["d0"].clone()
    lhs, rhs = (inp["a"], inp["sa"]), (inp["b"], inp["sb"])
    norm = RB.make_inputs(torch, dgemm, m, n, k, seed=rec["seed"])
    out = torch.empty((m, n), dtype=torch.bfloat16, device=RB.DEVICE)
    bt = norm["b"].t()
    sa_t = norm["sfa"].t().contiguous().t()
    sb_t = norm["sfb"].t().contiguous().t()
    sa1 = inp["sa_rows"].t().contiguous().t()
    sb1 = inp["sb_rows"].t().contiguous()
    fns = {
        "dgemm": lambda: dgemm.wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, d),
        "dgemm_normal_bf16": lambda: dgemm.gemm_fp8_fp8_bf16_nt(
            (norm["a"], norm["sfa_tma"]), (norm["b"], norm["sfb"]), out),
    }
    peers = {
        "torch_blockwise": lambda: torch._scaled_mm(norm["a"], bt, scale_a=sa_t, scale_b=sb_t,
                                                    out_dtype=torch.bfloat16),
        "torch_1x128_both": lambda: torch._scaled_mm(inp["a"], inp["b"].t(), scale_a=sa1,
                                                     scale_b=sb1, out_dtype=torch.bfloat16),
    }
    for name, fn in peers.items():
        try:
            fn()
            torch.cuda.synchronize()
            fns[name] = fn
        except Exception as e:  # noqa: BLE001
            rec[name] = dict(error=str(e).splitlines()[0][:200])
    for name, t in timer.time_alternately(fns, rounds=3).items():
        rec[name] = dict(t, tflops=RB.tflops(m, n, k, t["us"]))


def make_kgrouped_inputs(torch, dgemm, m, n, ks, seed):
    """Flat A [M * sum(ks)] and B [N * sum(ks)] (the per-group K-major
    blocks one after another), scales [sum(ks)/128, M] and [.., N], D0
    [G, M, N]; and the per-group dequantized operands for the reference."""
    g = torch.Generator(device=RB.DEVICE)
    g.manual_seed(seed)
    parts = {"a": [], "sa": [], "b": [], "sb": []}
    deq = []
    for kg in ks:
        pair = []
        for name, rows in (("a", m), ("b", n)):
            if kg == 0:
                pair.append(None)
                continue
            e = RB.scale_exponents(torch, g, rows, kg // 128, RB.DEVICE)
            x = torch.randn((rows, kg), generator=g, device=RB.DEVICE)
            x *= torch.exp2(e).repeat_interleave(128, dim=1)
            x8, sx = dgemm.per_token_cast_to_fp8(x)
            parts[name].append(x8.flatten())
            parts["s" + name].append(sx.t())
            pair.append(dgemm.per_token_cast_back(x8, sx, dtype=torch.float64))
        deq.append(pair)
    cat = lambda xs, shape, dt: torch.cat(xs) if xs else torch.empty(shape, dtype=dt,
                                                                   device=RB.DEVICE)
    inp = dict(a=cat(parts["a"], (0,), torch.float8_e4m3fn),
               b=cat(parts["b"], (0,), torch.float8_e4m3fn),
               sa=cat(parts["sa"], (0, m), torch.float32).contiguous(),
               sb=cat(parts["sb"], (0, n), torch.float32).contiguous(),
               d0=torch.randn((len(ks), m, n), generator=g, device=RB.DEVICE))
    return inp, deq


def check_kgrouped(torch, dgemm, m, n, ks, seed):
    inp, deq = make_kgrouped_inputs(torch, dgemm, m, n, ks, seed)
    d = inp["d0"].clone()
    dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt((inp["a"], inp["sa"]), (inp["b"], inp["sb"]), d, ks)
    torch.cuda.synchronize()
    rec = dict(m=m, n=n, ks=list(ks), groups=len(ks), seed=seed, groups_bad=[])
    ok = True
    worst = 0.0
    for i, (pa, pb) in enumerate(deq):
        if pa is None:
            same = torch.equal(d[i].view(torch.int32), inp["d0"][i].view(torch.int32))
            if not same:
                rec["groups_bad"].append(i)
            ok = ok and same
            continue
        ref = pa @ pb.t()
        rms = ((pa * pa) @ (pb * pb).t()).sqrt_().float()
        c = RB.check_output(torch, dgemm, d[i], (inp["d0"][i].double() + ref).float(), rms)
        worst = max(worst, c["max_tol_ratio"])
        if not c["ok"]:
            rec["groups_bad"].append(i)
            rec.setdefault("first_bad_check", c)
        ok = ok and c["ok"]
    rec["max_tol_ratio"] = worst
    rec["empty_groups_untouched"] = all(i not in rec["groups_bad"]
                                        for i, (pa, _) in enumerate(deq) if pa is None)
    rec["ok"] = bool(ok)
    return rec, inp


def time_kgrouped(torch, dgemm, timer, m, n, ks, inp, rec):
    """The k-grouped call, the weight-gradient GEMM on the same total work
    and the host loop over groups, timed alternately (3 rounds): these
    kernels run at the power cap, and the clock drifts within a process."""
    d = inp["d0"].clone()
    lhs, rhs = (inp["a"], inp["sa"]), (inp["b"], inp["sb"])
    total = sum(ks)
    # The normal weight-gradient GEMM on the same total work (K = sum(ks)).
    w = make_wgrad_inputs(torch, dgemm, m, n, total, seed=rec["seed"])
    # What the k-grouped call replaces: a host loop of one weight-gradient
    # GEMM per group (A_g, B_g and their scales are views of the flat
    # operands; the scales' [k_g/128, rows] slices transposed are the
    # MN-major [rows, k_g/128] the call takes), into the same D[g].
    calls, oa, ob, okb = [], 0, 0, 0
    for i, kg in enumerate(ks):
        kb = kg // 128
        if kb:
            a_g = inp["a"][oa:oa + m * kg].view(m, kg)
            b_g = inp["b"][ob:ob + n * kg].view(n, kg)
            sa_g = inp["sa"][okb:okb + kb].t()
            sb_g = inp["sb"][okb:okb + kb].t()
            calls.append(((a_g, sa_g), (b_g, sb_g), d[i]))
        oa, ob, okb = oa + m * kg, ob + n * kg, okb + kb

    def loop():
        for lhs_g, rhs_g, d_g in calls:
            dgemm.wgrad_gemm_fp8_fp8_fp32_nt(lhs_g, rhs_g, d_g)
    ts = timer.time_alternately({
        "dgemm": lambda: dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, d, ks),
        "wgrad_same_work": lambda: dgemm.wgrad_gemm_fp8_fp8_fp32_nt(
            (w["a"], w["sa"]), (w["b"], w["sb"]), w["d0"]),
        "wgrad_loop": loop})
    for name, t in ts.items():
        rec[name] = dict(t, tflops=RB.tflops(m, n, total, t["us"]))
    del w


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="JSON lines file (default: stdout only)")
    ap.add_argument("--random", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-time", action="store_true", help="checks only")
    ap.add_argument("--k-grouped-only", action="store_true",
                    help="the k-grouped cases only (the same sizes as a full run)")
    ap.add_argument("--sanitize", action="store_true",
                    help="small cases only, checks only (for compute-sanitizer)")
    args = ap.parse_args(argv)
    import torch
    dgemm = RB.import_dgemm()
    out = open(args.out, "w") if args.out else None
    emit = RB.json_emitter(out)

    import datetime
    emit(dict(kind="meta", commit=RB.commit_id(), device=torch.cuda.get_device_name(),
              torch=torch.__version__, date=datetime.date.today().isoformat()))
    rnd = random.Random(args.seed)
    if args.sanitize:
        args.no_time = True
    cases = [] if args.sanitize or args.k_grouped_only else \
        [(m, n, k) for (m, n) in weight_shapes() for k in (4096, 8192)]
    small = [(rnd.randint(1, 300), 8 * rnd.randint(1, 60), 128 * rnd.randint(1, 12))
             for _ in range(args.random)]
    timer = RB.Timer(torch)
    failed = 0
    for i, (m, n, k) in enumerate(cases + ([] if args.k_grouped_only else small)):
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
    # k-grouped: reference weight shapes with G experts of about 4096 tokens
    # each (sizes 4096 x U(0.7, 1.3), multiples of 128), and random small
    # cases with empty groups, one-block groups and a single group.
    kcases = []
    for (m, n) in () if args.sanitize else ((4096, 7168), (7168, 2048), (2112, 7168)):
        for g in (4, 8):
            ks = [128 * max(1, round(4096 * rnd.uniform(0.7, 1.3) / 128)) for _ in range(g)]
            kcases.append((m, n, ks, True))
    for _ in range(args.random):
        g = rnd.randint(1, 8)
        ks = [128 * rnd.choice([0, 0, 1, rnd.randint(1, 12)]) for _ in range(g)]
        kcases.append((rnd.randint(1, 300), 8 * rnd.randint(1, 60), ks, False))
    kcases.append((256, 512, [0, 0, 384], False))
    # Many groups (the kernel writes each tile's maps on the device into a
    # ring of stages + 1 slots per CTA): one-block groups of one tile each,
    # so every CTA wraps its ring several times; and the group limit.
    # (Under a sanitizer, where every reference kernel is slow: 64 groups
    # on 8 SMs, 8 tiles per CTA.)
    many = [128 * (1 + (i % 3 == 0)) * (i % 7 != 3) for i in range(64 if args.sanitize else 1000)]
    kcases.append((64, 128, many, False))
    if not args.sanitize:
        kcases.append((32, 16, [128 * (i % 5 != 0) for i in range(3984)], False))
    for i, (m, n, ks, timed) in enumerate(kcases):
        few_sms = args.sanitize and ks is many
        try:
            if few_sms:
                dgemm.set_num_sms(8)
            rec, inp = check_kgrouped(torch, dgemm, m, n, ks, seed=args.seed + 100 + i)
            if timed and not args.no_time:
                time_kgrouped(torch, dgemm, timer, m, n, ks, inp, rec)
            del inp
        except Exception:  # noqa: BLE001
            rec = dict(m=m, n=n, ks=ks, ok=False, error=traceback.format_exc()[-2000:])
        finally:
            if few_sms:
                dgemm.set_num_sms(0)
        rec["kind"] = "k_grouped"
        failed += not rec["ok"]
        emit(rec)
        torch.cuda.empty_cache()
    emit(dict(kind="summary", cases=len(cases) + len(small) + len(kcases), failed=failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
