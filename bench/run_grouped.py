#!/usr/bin/env python3
#===- run_grouped.py - check and time the m-grouped GEMMs on the GPU -----===#
"""Checks and times dgemm's m-grouped GEMMs (contiguous and masked layouts)
beside their peers, with run_bench.py's harness (same inputs recipe, same
element-wise check, same timer: CUDA events, 1 GiB memset before each call).

  python3 bench/run_grouped.py --out grouped.jsonl [--random 12] [--seed 1]
  python3 bench/run_grouped.py --sanitize      # small cases, check only

Cases:
- the 4 contiguous and 6 masked shapes of bench/shapes.csv, with equal group
  sizes (every group ``m`` rows, kind "equal") and with sizes drawn as
  m x U(0.7, 1.3) (kind "drawn"), each checked and timed;
- ``--random N`` random cases per layout (kind "random", checked, not
  timed): 1..8 groups, sizes including 0, 1 and ones that are not multiples
  of the block, N a multiple of 16, K a multiple of 128; with N > 0 also
  the two masked cases of 12 groups of many_group_cases().

Contiguous: each group's rows padded to a multiple of 128 (padding rows of
m_indices = -1), plus, in the random cases, whole 128-row blocks of -1
between groups, which the kernel must skip: D is filled with NaN first and
those rows must still be NaN, bit for bit. Masked: A [G, M_max, K] with
M_max = the largest size rounded up to 64; rows at or past masked_m[g] must
still hold their NaN. Valid rows are checked against the float64 reference
of their group (every row for groups up to 512 rows, else 512 rows: the
first and last 128 and 256 in between, drawn at random). A masked case is
also captured in a CUDA graph and replayed with new masked_m values. Every
contiguous case without -1 blocks between groups is run again in the
offsets form (m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets: each
group's end row) into a NaN-poisoned D, which must equal the m_indices
call's D bit for bit.

TFLOPS = 2 x (valid rows) x N x K / median time. Peers in the same run:
``normal_same_work``: dgemm's normal GEMM with M = the valid rows (the
"within 10% of the normal GEMM on the same total work" bar);
``torch_blockwise_loop``: torch._scaled_mm blockwise, one call per group
(a host loop: PEERS.md's torch grouped figures, which compare with
DeepGEMM); ``cublas_per_tensor``: one FP8 GEMM of the total work with
scalar scales.

Output: JSON lines (``meta``, one ``grouped`` record per case, ``summary``).
Exit status 0 when every check passed.
"""
import argparse
import json
import math
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_bench as RB  # noqa: E402

CHECK_ROWS = 512


def read_grouped_shapes(path=RB.DEFAULT_CSV):
    import csv
    rows = [r for r in csv.DictReader(l for l in open(path) if not l.startswith("#"))]
    return [dict(layout=r["layout"], groups=int(r["groups"]), m=int(r["m"]), n=int(r["n"]),
                 k=int(r["k"])) for r in rows if r["layout"] in ("contiguous", "masked")]


def shape_label(shape):
    """The label the A/B and sweep tools print and match --only against:
    G4-m256-n7168-k2048."""
    return "G%d-m%d-n%d-k%d" % (shape["groups"], shape["m"], shape["n"], shape["k"])


def random_cases(count, seed):
    rng = random.Random(seed)
    out = []
    for layout in ("contiguous", "masked"):
        for i in range(count):
            g = rng.choice([1, 1, 2, 3, 4, 5, 8])
            sizes = []
            for _ in range(g):
                r = rng.random()
                sizes.append(0 if r < 0.15 else 1 if r < 0.3 else rng.randint(2, 700))
            n = 16 * rng.randint(1, 256)
            k = 128 * rng.randint(1, 24)
            out.append(dict(layout=layout, groups=g, m=max(1, max(sizes)), n=n, k=k,
                            sizes=sizes, kind="random", skip_blocks=layout == "contiguous"))
    return out


def many_group_cases():
    """Two masked cases of 12 groups (expected m = 256, N = 1024, K = 512;
    kind "random": checked, not timed). Their config holds two tile shapes
    (256x128 on 96 CTAs, 128x128 on 132), and past 8 groups the kernel's
    entry block reads masked_m in a loop (GemmKernel.cpp, takesAltShape).
    Priced as the kernel prices them (ceil(tiles / CTAs) x tileRoundCost),
    every group at 256 rows runs the first shape (98304 against 114688) and
    the second list, most groups past 256 rows with an empty and a one-row
    group, the second (196608 against 114688)."""
    shape = dict(layout="masked", groups=12, m=256, n=1024, k=512, kind="random",
                 skip_blocks=False)
    return [dict(shape, sizes=[256] * 12),
            dict(shape, sizes=[300, 0, 1, 320, 257, 299, 310, 288, 300, 270, 260, 319])]


def sizes_for(shape, mode, rng):
    """Group sizes of a reference shape: "equal" (every group m rows) or
    "drawn" (each m x U(0.7, 1.3))."""
    g, m = shape["groups"], shape["m"]
    if mode == "equal":
        return [m] * g
    if mode != "drawn":
        raise ValueError("sizes_for: mode must be 'equal' or 'drawn', got %r" % (mode,))
    return [max(0, int(round(m * rng.uniform(0.7, 1.3)))) for _ in range(g)]


def reference_cases(seed):
    """(shape with its kind, group sizes) of the reference shapes, each with
    equal sizes and with drawn ones, in the benchmark's order: one
    generator over all of them, so the drawn sizes depend on the seed only."""
    rng = random.Random(seed)
    # "drawn" is its own kind: the --random cases (kind "random") are
    # checked only, these are timed too.
    return [(dict(shape, kind=mode), sizes_for(shape, mode, rng))
            for shape in read_grouped_shapes() for mode in ("equal", "drawn")]


def quantized(torch, dgemm, rows, cols, g, device, by_block):
    """[rows, cols] FP8 values and scales with run_bench's spread scales."""
    kb = cols // 128
    srows = RB.ceil_div(rows, 128) if by_block else rows
    e = RB.scale_exponents(torch, g, srows, kb, device)
    x = torch.randn((rows, cols), generator=g, device=device)
    rep = e.repeat_interleave(128, dim=1)
    if by_block:
        rep = rep.repeat_interleave(128, dim=0)[:rows]
    x *= torch.exp2(rep)
    return dgemm.per_block_cast_to_fp8(x) if by_block else dgemm.per_token_cast_to_fp8(x)


def check_rows(torch, dgemm, d_rows, a8, sa, b8, sb, rows):
    """run_bench.check_output on the chosen rows of one group."""
    A = dgemm.per_token_cast_back(a8[rows], sa[rows], dtype=torch.float64)
    B = dgemm.per_block_cast_back(b8, sb, dtype=torch.float64)
    ref = (A @ B.t()).float()
    A.mul_(A)
    B.mul_(B)
    rms = (A @ B.t()).sqrt_().float()
    return RB.check_output(torch, dgemm, d_rows[rows], ref, rms)


def pick_rows(torch, size, gen):
    if size <= CHECK_ROWS:
        return torch.arange(size, device=RB.DEVICE)
    mid = torch.randperm(size - 256, generator=gen)[:CHECK_ROWS - 256] + 128
    idx = torch.cat([torch.arange(128), mid.sort().values, torch.arange(size - 128, size)])
    return idx.to(RB.DEVICE)


def merge(checks):
    out = dict(ok=all(c["ok"] for c in checks), bad=sum(c["bad"] for c in checks),
               nan_left=sum(c["nan_left"] for c in checks),
               calc_diff=max((c["calc_diff"] for c in checks), default=0.0),
               max_tol_ratio=max((c["max_tol_ratio"] for c in checks), default=0.0))
    firsts = [c for c in checks if c.get("first_bad")]
    if firsts:
        out["first_bad"] = firsts[0]["first_bad"]
    return out


def is_nan_bits(torch, x):
    """True where x (bf16) still holds the poison NaN."""
    return torch.isnan(x.float())


class Case:
    """Inputs, the dgemm call and its check for one grouped case."""

    def __init__(self, torch, dgemm, shape, sizes, seed, skip_blocks=False):
        self.torch, self.dgemm = torch, dgemm
        self.layout, self.sizes = shape["layout"], list(sizes)
        self.g, self.n, self.k = len(sizes), shape["n"], shape["k"]
        self.expected_m = shape["m"]
        dev = RB.DEVICE
        gen = torch.Generator(device=dev)
        gen.manual_seed(seed)
        self.gen_cpu = torch.Generator()
        self.gen_cpu.manual_seed(seed)
        n, k, g = self.n, self.k, self.g
        bs = [quantized(torch, dgemm, n, k, gen, dev, by_block=True) for _ in range(g)]
        self.b = torch.stack([x for x, _ in bs])
        self.sb = torch.stack([s for _, s in bs]).contiguous()
        del bs
        if self.layout == "contiguous":
            # Segments: each group padded to 128 rows; whole -1 blocks between
            # groups when asked (skipped blocks).
            self.starts, idx = [], []
            rng = random.Random(seed)
            for gi, size in enumerate(sizes):
                if skip_blocks and rng.random() < 0.5:
                    idx += [-1] * 128
                self.starts.append(len(idx))
                padded = RB.ceil_div(size, 128) * 128
                idx += [gi] * size + [-1] * (padded - size)
            if skip_blocks:
                idx += [-1] * 128
            self.m_rows = len(idx)
            self.m_indices = torch.tensor(idx, dtype=torch.int32, device=dev)
            self.a, self.sa = quantized(torch, dgemm, max(self.m_rows, 1), k, gen, dev, False)
            self.a, self.sa = self.a[:self.m_rows], self.sa[:self.m_rows]
            self.sa_tma = dgemm.get_col_major_tma_aligned_tensor(self.sa)
            self.d = torch.empty((self.m_rows, n), dtype=torch.bfloat16, device=dev)
        else:
            self.m_max = max(64, RB.ceil_div(max(sizes), 64) * 64)
            a8, sa = quantized(torch, dgemm, g * self.m_max, k, gen, dev, False)
            self.a = a8.view(g, self.m_max, k)
            self.sa = sa.view(g, self.m_max, k // 128)
            self.sa_tma = dgemm.get_col_major_tma_aligned_tensor(self.sa)
            self.masked_m = torch.tensor(sizes, dtype=torch.int32, device=dev)
            self.d = torch.empty((g, self.m_max, n), dtype=torch.bfloat16, device=dev)
        self.valid_rows = sum(sizes)

    def call(self):
        if self.layout == "contiguous":
            self.dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_contiguous(
                (self.a, self.sa_tma), (self.b, self.sb), self.d, self.m_indices)
        else:
            self.dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_masked(
                (self.a, self.sa_tma), (self.b, self.sb), self.d, self.masked_m,
                self.expected_m)

    def offsets(self):
        """The contiguous layout's offsets form of the same segments (each
        group's end row), or None when blocks of -1 lie between groups (the
        offsets form has no such gaps)."""
        ends, prev = [], 0
        for s, size in zip(self.starts, self.sizes):
            if s != RB.ceil_div(prev, 128) * 128:
                return None
            prev = s + size
            ends.append(prev)
        return self.torch.tensor(ends, dtype=self.torch.int32, device=RB.DEVICE)

    def offsets_match(self):
        """The offsets form run on a NaN-poisoned copy of D must give D
        bit for bit (same kernel arithmetic; padding rows inside a computed
        block take the block's group in both forms). None when the case
        has no offsets form."""
        off = self.offsets()
        if off is None:
            return None
        torch = self.torch
        d2 = torch.full_like(self.d, float("nan"))
        self.dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets(
            (self.a, self.sa_tma), (self.b, self.sb), d2, off)
        torch.cuda.synchronize()
        return bool(torch.equal(d2.view(torch.int16), self.d.view(torch.int16)))

    def group_rows(self, gi):
        """(D rows, A rows, A scale rows) of group gi's valid rows."""
        if self.layout == "contiguous":
            s, size = self.starts[gi], self.sizes[gi]
            return self.d[s:s + size], self.a[s:s + size], self.sa[s:s + size]
        size = self.sizes[gi]
        return self.d[gi, :size], self.a[gi, :size], self.sa[gi, :size]

    def check(self):
        """Poison D, call, verify."""
        self.d.fill_(float("nan"))
        self.call()
        self.torch.cuda.synchronize()
        return self.verify()

    def verify(self):
        """Check the valid rows of every group and that the rows that must
        stay untouched still hold the poison."""
        torch = self.torch
        checks = []
        for gi in range(self.g):
            d_rows, a_rows, sa_rows = self.group_rows(gi)
            if self.sizes[gi] == 0:
                continue
            rows = pick_rows(torch, self.sizes[gi], self.gen_cpu)
            checks.append(check_rows(torch, self.dgemm, d_rows, a_rows, sa_rows,
                                     self.b[gi], self.sb[gi], rows))
        out = merge(checks)
        if self.layout == "contiguous":
            idx = self.m_indices.view(-1, 128)
            skipped = (idx[:, 0] < 0).repeat_interleave(128)
            untouched = self.d[skipped]
        else:
            rows = torch.arange(self.m_max, device=RB.DEVICE)
            past = rows[None, :] >= self.masked_m[:, None].long()
            untouched = self.d[past]
        out["untouched_rows"] = int(untouched.shape[0])
        out["untouched_written"] = int((~is_nan_bits(torch, untouched)).any(dim=-1).sum()) \
            if untouched.numel() else 0
        out["ok"] = bool(out["ok"] and out["untouched_written"] == 0)
        return out

    def graph_replay(self, extra=()):
        """Masked only: capture one call in a CUDA graph, replay it with new
        masked_m values (three drawn at random, then each list of `extra`),
        check each replay."""
        torch = self.torch
        self.call()  # compile outside the capture
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            with torch.cuda.graph(graph, stream=s):
                self.call()
        torch.cuda.current_stream().wait_stream(s)
        results = []
        rng = random.Random(7)
        original = list(self.sizes)
        news = [[rng.randint(0, self.m_max) for _ in range(self.g)] for _ in range(3)]
        for new in news + [list(x) for x in extra]:
            self.sizes = new
            self.masked_m.copy_(torch.tensor(new, dtype=torch.int32))
            self.d.fill_(float("nan"))
            graph.replay()
            torch.cuda.synchronize()
            chk = self.verify()
            results.append(dict(sizes=new, ok=chk["ok"], bad=chk["bad"],
                                untouched_written=chk["untouched_written"]))
        self.sizes = original
        self.masked_m.copy_(torch.tensor(original, dtype=torch.int32))
        return dict(ok=all(r["ok"] for r in results), replays=results)


def same_work_lhs(torch, dgemm, case):
    """A and its scales of the normal GEMM on a grouped case's total work
    (M = its valid rows): random bytes 0..119 (positive E4M3 values), unit
    scales in the TMA layout."""
    total = case.valid_rows
    a = torch.empty((total, case.k), dtype=torch.float8_e4m3fn, device=RB.DEVICE)
    a.view(torch.uint8).random_(0, 120)
    sa = dgemm.get_col_major_tma_aligned_tensor(
        torch.ones((total, case.k // 128), device=RB.DEVICE))
    return a, sa


def add_deepgemm_peer(torch, case, args, fns, peers):
    """DeepGEMM's call of the same layout on the case's operands into a D of
    its own, checked with the case's own check (valid rows against the
    reference; rows it must leave alone counted, not failed: DeepGEMM does
    not promise to leave them). Its callable joins ``fns`` when it ran."""
    import deepgemm_peer
    p = peers["deepgemm"] = {}
    dg = getattr(args, "deepgemm_module", None)
    if dg is None:
        p["error"] = "DeepGEMM not importable (see the meta record)"
        return
    ours = case.d
    try:
        case.d = torch.full_like(ours, float("nan"))
        if case.layout == "contiguous":
            call = deepgemm_peer.contiguous(dg, case.a, case.sa_tma, case.b, case.sb, case.d,
                                            case.m_indices)
        else:
            call = deepgemm_peer.masked(dg, case.a, case.sa_tma, case.b, case.sb, case.d,
                                        case.masked_m, case.expected_m)
        call()
        torch.cuda.synchronize()
        chk = case.verify()
        p["check"] = dict(ok=bool(chk["bad"] == 0 and chk["nan_left"] == 0
                                  and chk["calc_diff"] <= RB.CALC_DIFF_MAX),
                          bad=chk["bad"], calc_diff=chk["calc_diff"],
                          untouched_written=chk["untouched_written"])
        fns["deepgemm"] = call
    except Exception as e:  # noqa: BLE001 - recorded
        p["error"] = RB.error_text(e)
    finally:
        case.d = ours


def add_deepgemm_same_work(torch, dgemm, args, same, fns, peers):
    """DeepGEMM's normal GEMM on the case's total work (the operands of
    dgemm's own same-work GEMM, ``same`` = (A, A scales, B, B scales, dgemm's
    D of it, already computed)): DeepGEMM's grouped call over it says how far
    its grouped kernel is from its own normal one, the measure the grouped
    bar holds dgemm to. Its output is compared with dgemm's (calc_diff)."""
    import deepgemm_peer
    dg = getattr(args, "deepgemm_module", None)
    if dg is None:
        return
    a, sa, b0, sb0, ours = same
    p = peers["deepgemm_normal_same_work"] = {}
    try:
        d = torch.full_like(ours, float("nan"))
        call = deepgemm_peer.normal(dg, a, sa, b0, sb0, d)
        call()
        torch.cuda.synchronize()
        diff = float(dgemm.calc_diff(d.float(), ours.float()))
        p["check"] = dict(ok=bool(diff <= RB.CALC_DIFF_MAX), calc_diff_vs_dgemm=diff)
        fns["deepgemm_normal_same_work"] = call
    except Exception as e:  # noqa: BLE001 - recorded
        p["error"] = RB.error_text(e)


def time_case(torch, dgemm, case, timer, args):
    """The grouped call and its peers (the normal GEMM on the same total
    work, cuBLAS per-tensor on it, torch blockwise once per group), each
    tried once, then timed in turn args.rounds times, so that a drift of
    the clocks (the power cap) hits them alike."""
    rec, peers = {}, {}
    fns = {"dgemm": case.call}
    total = case.valid_rows
    if not args.no_peers and total:
        # dgemm's normal GEMM on the same total work.
        same = None
        try:
            a, sa = same_work_lhs(torch, dgemm, case)
            d = torch.empty((total, case.n), dtype=torch.bfloat16, device=RB.DEVICE)
            b0, sb0 = case.b[0], case.sb[0]
            same = (a, sa, b0, sb0, d)
            normal = lambda: dgemm.gemm_fp8_fp8_bf16_nt((a, sa), (b0, sb0), d)  # noqa: E731
            one = torch.ones((), dtype=torch.float32, device=RB.DEVICE)
            per_tensor = lambda: torch._scaled_mm(a, b0.t(), scale_a=one,  # noqa: E731
                                                  scale_b=one, out_dtype=torch.bfloat16)
            normal()
            per_tensor()
            torch.cuda.synchronize()
            fns["normal_same_work"], fns["cublas_per_tensor"] = normal, per_tensor
        except Exception as e:  # noqa: BLE001
            peers["normal_same_work"] = dict(error="%s: %s" % (type(e).__name__, e))
        # torch blockwise, one call per group (sizes known on the host).
        try:
            calls = []
            for gi in range(case.g):
                _, a_rows, sa_rows = case.group_rows(gi)
                if a_rows.shape[0] == 0:
                    continue
                sa_t = sa_rows.t().contiguous().t()
                sb_t = case.sb[gi].t()
                calls.append((a_rows.contiguous(), case.b[gi].t(), sa_t, sb_t))

            def loop():
                for a_, bt_, sa_, sb_ in calls:
                    torch._scaled_mm(a_, bt_, scale_a=sa_, scale_b=sb_,
                                     out_dtype=torch.bfloat16)
            loop()
            torch.cuda.synchronize()
            fns["torch_blockwise_loop"] = loop
        except Exception as e:  # noqa: BLE001
            peers["torch_blockwise_loop"] = dict(error=RB.error_text(e))
        if getattr(args, "deepgemm", False):
            add_deepgemm_peer(torch, case, args, fns, peers)
            if same is not None:
                add_deepgemm_same_work(torch, dgemm, args, same, fns, peers)
    times = timer.time_alternately(fns, rounds=args.rounds)
    tm = times.pop("dgemm")
    rec.update(us=tm["us"], us_min=tm["us_min"], us_max=tm["us_max"], round_us=tm["round_us"],
               tflops=RB.tflops(total, case.n, case.k, tm["us"]))
    for name, t in times.items():
        peers.setdefault(name, {}).update(us=t["us"], round_us=t["round_us"],
                                          tflops=RB.tflops(total, case.n, case.k, t["us"]))
    if not args.no_peers and total:
        rec["peers"] = peers
    return rec


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--random", type=int, default=0, help="random cases per layout")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3,
                    help="the grouped call and its peers timed in turn this many times")
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--no-csv", action="store_true")
    ap.add_argument("--deepgemm", action="store_true",
                    help="also time DeepGEMM's grouped call on the same case "
                         "(bench/deepgemm_peer.py), its valid rows checked")
    ap.add_argument("--sanitize", action="store_true",
                    help="small cases, one call each, no timing (for compute-sanitizer)")
    ap.add_argument("--time-budget", type=float, default=0.0)
    ap.add_argument("--layout", choices=("contiguous", "masked"),
                    help="only the reference cases of this layout")
    args = ap.parse_args(argv)

    import torch
    # DeepGEMM first: whether it loads is known before anything is timed.
    if args.deepgemm:
        import deepgemm_peer
        args.deepgemm_module, deepgemm_why = deepgemm_peer.load()
    dgemm = RB.import_dgemm()
    out = open(args.out, "w") if args.out else None

    def emit(rec):
        line = json.dumps(RB.clean(rec))
        if out:
            out.write(line + "\n")
            out.flush()

    meta = RB.device_meta(torch, dgemm, args)
    meta["bench"] = "grouped"
    if args.deepgemm:
        meta["deepgemm"] = deepgemm_peer.describe(args.deepgemm_module) \
            if args.deepgemm_module else dict(error=deepgemm_why)
        print("run_grouped: DeepGEMM %s" % meta["deepgemm"])
    emit(meta)
    cases = []
    if args.sanitize:
        # The third takes block M 256: a group ending inside its second row
        # wave (300 rows) and an empty one. The fourth: 12 groups on the
        # second tile shape (many_group_cases), whose body replaced the
        # barriers the entry block set up for the first.
        many = {key: v for key, v in many_group_cases()[1].items() if key != "kind"}
        cases = [(dict(layout="contiguous", groups=3, m=200, n=392, k=640), [200, 0, 130], True),
                 (dict(layout="masked", groups=3, m=100, n=392, k=640), [100, 0, 37], False),
                 (dict(layout="masked", groups=2, m=512, n=4096, k=384), [300, 0], False),
                 (many, many["sizes"], False)]
    else:
        if not args.no_csv:
            cases += [(shape, sizes, False) for shape, sizes in reference_cases(args.seed)
                      if not args.layout or shape["layout"] == args.layout]
        extra = many_group_cases() if args.random else []
        for c in random_cases(args.random, args.seed) + extra:
            cases.append((c, c["sizes"], c["skip_blocks"]))
    timer = None if args.sanitize else RB.Timer(torch, args.iters, args.warmup)
    start = time.monotonic()
    failed = 0
    graph_done = graph_past_done = False
    for i, (shape, sizes, skip) in enumerate(cases):
        if args.time_budget and time.monotonic() - start > args.time_budget:
            emit(dict(type="summary", stopped="time budget", done=i))
            break
        rec = dict(type="grouped", index=i, layout=shape["layout"], groups=len(sizes),
                   m=shape["m"], n=shape["n"], k=shape["k"], sizes=sizes,
                   kind=shape.get("kind", "reference"))
        try:
            case = Case(torch, dgemm, shape, sizes, seed=args.seed * 7919 + i, skip_blocks=skip)
            rec["valid_rows"] = case.valid_rows
            rec["check"] = case.check()
            rec["ok"] = rec["check"]["ok"]
            if case.layout == "contiguous":
                # The offsets form of the same segments must give the same D.
                rec["offsets_match"] = case.offsets_match()
                rec["ok"] = rec["ok"] and rec["offsets_match"] is not False
            # Replayed graphs: the first masked case, and the first with
            # several groups and rows past the expected count, whose kernel
            # may hold two tile shapes (KernelConfig::altBlockM) and picks
            # one per launch from masked_m: its replays include every group
            # at the expected rows and every group at M_max, so that both
            # shapes run from one captured launch.
            if case.layout == "masked" and not args.sanitize:
                past = case.g >= 2 and case.m_max > case.expected_m
                if not graph_done or (past and not graph_past_done):
                    extra = ([[case.expected_m] * case.g, [case.m_max] * case.g]
                             if past else [])
                    rec["graph_replay"] = case.graph_replay(extra)
                    rec["ok"] = rec["ok"] and rec["graph_replay"]["ok"]
                    graph_done = True
                    graph_past_done = graph_past_done or past
            if timer is not None and rec.get("kind") != "random":
                rec.update(time_case(torch, dgemm, case, timer, args))
            del case
        except Exception as e:  # noqa: BLE001 - recorded per case
            rec["ok"] = False
            rec["error"] = "%s: %s" % (type(e).__name__, e)
            traceback.print_exc()
        failed += not rec["ok"]
        emit(rec)
        peers = rec.get("peers", {})
        print("%-10s G=%d m=%-5d N=%-5d K=%-5d %-9s ok=%s %s %s %s" % (
            rec["layout"], rec["groups"], rec["m"], rec["n"], rec["k"], rec["kind"], rec["ok"],
            "%.0f TFLOPS" % rec["tflops"] if "tflops" in rec else "",
            "normal %.0f" % peers["normal_same_work"]["tflops"]
            if "tflops" in peers.get("normal_same_work", {}) else "",
            "torch-loop %.0f" % peers["torch_blockwise_loop"]["tflops"]
            if "tflops" in peers.get("torch_blockwise_loop", {}) else "") + (
            " deepgemm %.0f%s" % (peers["deepgemm"]["tflops"],
                                  "" if peers["deepgemm"].get("check", {}).get("ok") else " (wrong)")
            if "tflops" in peers.get("deepgemm", {}) else ""), flush=True)
        torch.cuda.empty_cache()
    emit(dict(type="summary", cases=len(cases), failed=failed))
    if out:
        out.close()
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
