#===- grouped_results.py - the m-grouped section of bench/RESULTS.md -----===#
"""Renders the JSON lines of bench/run_grouped.py as a Markdown section:
one row per timed case (the reference shapes of bench/shapes.csv with equal
and with drawn group sizes), the random cases' checks, and the CUDA-graph
replay. Used by scripts/gen_results.py (``--grouped``); pure functions, no
torch.

DeepGEMM comparison: PEERS.md measured DeepGEMM's grouped kernels and
torch._scaled_mm blockwise run as a host loop over groups (bench/
peers-deepgemm.csv), not cuBLAS on the grouped shapes; so dgemm is compared
with DeepGEMM in two ways. Through that torch loop: (dgemm / torch loop,
this run) / (DeepGEMM / torch loop, the CSV's run). And through cuBLAS, as
the normal shapes are: the machines' speeds compared by cuBLAS per-tensor on
the normal GEMM with M = 4096 and the same N and K (this run's bench records
against the CSV's), DeepGEMM's figure scaled by that ratio. Both ratios and
the raw DeepGEMM figure are shown.
"""
import math


def _t(rec, *path):
    v = rec
    for p in path:
        if not isinstance(v, dict) or p not in v:
            return None
        v = v[p]
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) and v == v else None


def _f(v, nd=0):
    return "-" if v is None else ("%.*f" % (nd, v))


def _geomean(vals):
    vals = [v for v in vals if v]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else None


def vs_deepgemm(rec, deepgemm_rows):
    """(dgemm / torch loop here) / (DeepGEMM / torch loop in the CSV), for
    equal-size reference cases; None otherwise."""
    if rec.get("kind") != "equal" or not deepgemm_rows:
        return None
    row = deepgemm_rows.get((rec["layout"], rec["m"], rec["n"], rec["k"]))
    here = _t(rec, "tflops")
    loop = _t(rec, "peers", "torch_blockwise_loop", "tflops")
    if not row or not here or not loop or not row.get("deepgemm_tflops") \
            or not row.get("torch_blockwise_tflops"):
        return None
    return (here / loop) / (row["deepgemm_tflops"] / row["torch_blockwise_tflops"])


def cublas_at_4096(bench_records):
    """{(N, K): cuBLAS per-tensor TFLOPS} of this run's normal GEMMs with
    M = 4096 (bench/run_bench.py records)."""
    out = {}
    for r in bench_records or []:
        v = _t(r, "peers", "cublas_per_tensor", "tflops")
        if r.get("m") == 4096 and v and (r.get("layout") or "normal") == "normal":
            out[(r["n"], r["k"])] = v
    return out


def vs_deepgemm_cublas(rec, deepgemm_rows, cublas_here):
    """dgemm / (DeepGEMM x cuBLAS here / cuBLAS in the CSV), the cuBLAS
    figures of the normal GEMM at M = 4096 with the case's N and K; for
    equal-size reference cases, else None."""
    if rec.get("kind") != "equal" or not deepgemm_rows or not cublas_here:
        return None
    row = deepgemm_rows.get((rec["layout"], rec["m"], rec["n"], rec["k"])) or {}
    normal = deepgemm_rows.get(("normal", 4096, rec["n"], rec["k"])) or {}
    here = _t(rec, "tflops")
    ours = cublas_here.get((rec["n"], rec["k"]))
    theirs = normal.get("cublas_per_tensor_tflops")
    if not here or not ours or not theirs or not row.get("deepgemm_tflops"):
        return None
    return here / (row["deepgemm_tflops"] * ours / theirs)


def render(records, source_name, deepgemm_rows=None, bench_records=None):
    cublas_here = cublas_at_4096(bench_records)
    meta = next((r for r in records if r.get("type") == "meta"), {})
    cases = [r for r in records if r.get("type") == "grouped"]
    timed = [r for r in cases if r.get("kind") in ("equal", "drawn") and _t(r, "tflops")]
    out = ["## m-grouped GEMMs (MoE)", "",
           "Generated from `%s` (`bench/run_grouped.py`; %s, commit %s). TFLOPS count valid "
           "rows only. *normal* is dgemm's normal GEMM with M = the valid rows (same total "
           "work); *torch loop* is torch._scaled_mm blockwise called once per group; *vs "
           "DeepGEMM (torch)* is (dgemm / torch loop) over (DeepGEMM / torch loop) of "
           "bench/peers-deepgemm.csv (PEERS.md); *vs DeepGEMM (cuBLAS)* is dgemm over "
           "DeepGEMM's figure scaled by the machines' cuBLAS per-tensor ratio on the normal "
           "GEMM with M = 4096 and the same N and K (this run over PEERS.md)." % (
               source_name, meta.get("date", "?"), meta.get("commit", "?"))]
    rounds = (meta.get("args") or {}).get("rounds")
    if rounds:
        out[-1] += (" Each time: the median of %s rounds' medians of %s cold-L2 calls, the "
                    "grouped call and its peers timed in turn each round." % (
                        rounds, meta["args"].get("iters", "?")))
    out += ["", "| layout | G | m | N | K | sizes | dgemm TFLOPS | normal TFLOPS | vs normal "
            "| torch loop TFLOPS | cuBLAS per-tensor (total) | DeepGEMM (PEERS) "
            "| vs DeepGEMM (torch) | vs DeepGEMM (cuBLAS) | check |",
            "|---|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|---|"]
    for r in timed:
        row = (deepgemm_rows or {}).get((r["layout"], r["m"], r["n"], r["k"])) or {}
        normal = _t(r, "peers", "normal_same_work", "tflops")
        here = _t(r, "tflops")
        sizes = "equal" if r["kind"] == "equal" else "x U(0.7,1.3)"
        out.append("| %s | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s "
                   "| %s |" % (
            r["layout"], r["groups"], r["m"], r["n"], r["k"], sizes, _f(here),
            _f(normal), _f(here / normal if here and normal else None, 2),
            _f(_t(r, "peers", "torch_blockwise_loop", "tflops")),
            _f(_t(r, "peers", "cublas_per_tensor", "tflops")),
            _f(row.get("deepgemm_tflops")) if r["kind"] == "equal" else "-",
            _f(vs_deepgemm(r, deepgemm_rows), 2),
            _f(vs_deepgemm_cublas(r, deepgemm_rows, cublas_here), 2),
            "ok" if r.get("ok") else "**FAIL**"))
    out.append("")
    for layout in ("contiguous", "masked"):
        drawn = [r for r in timed if r["layout"] == layout and r["kind"] == "drawn"]
        dn = _geomean([_t(r, "tflops") / _t(r, "peers", "normal_same_work", "tflops")
                       for r in drawn if _t(r, "peers", "normal_same_work", "tflops")])
        if drawn:
            out.append("- %s, sizes drawn as m x U(0.7,1.3): geomean vs normal GEMM %s "
                       "(%d shapes)" % (layout, _f(dn, 2), len(drawn)))
        eq = [r for r in timed if r["layout"] == layout and r["kind"] == "equal"]
        vn = _geomean([_t(r, "tflops") / _t(r, "peers", "normal_same_work", "tflops")
                       for r in eq if _t(r, "peers", "normal_same_work", "tflops")])
        vd = _geomean([vs_deepgemm(r, deepgemm_rows) for r in eq])
        vc = _geomean([vs_deepgemm_cublas(r, deepgemm_rows, cublas_here) for r in eq])
        if eq:
            out.append("- %s, equal sizes: geomean vs normal GEMM %s, vs DeepGEMM %s "
                       "through the torch loop, %s through cuBLAS (%d shapes)" % (
                           layout, _f(vn, 2), _f(vd, 2), _f(vc, 2), len(eq)))
    rnd = [r for r in cases if r.get("kind") == "random"]
    if rnd:
        ok = sum(1 for r in rnd if r.get("ok"))
        counts = [r["groups"] for r in rnd if "groups" in r]
        span = "%d-%d" % (min(counts), max(counts)) if counts else "?"
        out.append("- Random cases (group counts %s, sizes with 0, 1 and non-multiples of "
                   "the block; contiguous with skipped -1 blocks): %d of %d pass the strict "
                   "check; rows that must stay untouched: %d checked, %d written." % (
                       span, ok, len(rnd), sum(_t(r, "check", "untouched_rows") or 0 for r in cases),
                       sum(_t(r, "check", "untouched_written") or 0 for r in cases)))
    offs = [r for r in cases if r.get("offsets_match") is not None]
    if offs:
        out.append("- Contiguous layout given by offsets (each group's end row) instead of "
                   "m_indices: %d of %d cases give D bit for bit equal to the m_indices "
                   "call (cases with -1 blocks between groups have no offsets form)." % (
                       sum(1 for r in offs if r["offsets_match"]), len(offs)))
    graphs = [r for r in cases if r.get("graph_replay")]
    for r in graphs:
        g = r["graph_replay"]
        out.append("- CUDA graph (masked, G=%d, M_max from m=%d, N=%d, K=%d) replayed %d times "
                   "with new masked_m (%s): %s." % (
                       r["groups"], r["m"], r["n"], r["k"], len(g.get("replays", [])),
                       "; ".join(str(x.get("sizes")) for x in g.get("replays", [])),
                       "all correct" if g.get("ok") else "**FAILED**"))
    bad = [r for r in cases if not r.get("ok")]
    for r in bad:
        chk = r.get("check") or {}
        out.append("- **FAIL** %s G=%d m=%d N=%d K=%d sizes %s: %s" % (
            r["layout"], r["groups"], r["m"], r["n"], r["k"], r.get("sizes"),
            r.get("error") or "bad %s, calc_diff %s, untouched written %s, first %s" % (
                chk.get("bad"), chk.get("calc_diff"), chk.get("untouched_written"),
                chk.get("first_bad"))))
    out.append("")
    return "\n".join(out)
