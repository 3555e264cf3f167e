#!/usr/bin/env python3
#===- gen_results.py - bench/RESULTS.md from run_bench.py's JSON lines ---===#
"""Writes bench/RESULTS.md from the JSON lines bench/run_bench.py wrote on the
GPU machine: every number in it comes from the records, none is typed.

  scripts/gen_results.py bench.jsonl [--warm bench-warm.jsonl]
                         [--compile-times compile-times.jsonl]
                         [--out bench/RESULTS.md] [--commit HASH]
                         [--deepgemm bench/peers-deepgemm.csv]

Sections: the run (date, commit, device, versions, library hash, method);
a summary per set of shapes (checks passed, geometric means of dgemm TFLOPS
and of the ratios to torch blockwise and cuBLAS per-tensor, taken over the
shapes that have both numbers); one table per set (shapes.csv, then random
or other shapes); failures with their first bad element or error; with
``--compile-times`` (bench/compile_times.py's JSON lines), the JIT's costs
per kernel: cold compile and load in a fresh process, warm start, host
overhead of a warm call, against the goals of issue 5.
``--commit`` overrides the commit of the run's meta record (the GPU machine
has no .git, so that is often "unknown").

DeepGEMM is not run by run_bench.py: its TFLOPS, with the cuBLAS per-tensor
TFLOPS of the same run, come from ``--deepgemm`` (bench/peers-deepgemm.csv,
measured on another H200 session). Machines differ by several percent, so
dgemm is compared with DeepGEMM through cuBLAS: for a shape with a row there,
"dgemm vs DeepGEMM" = (dgemm / cuBLAS per-tensor, both from this run) /
(DeepGEMM / cuBLAS per-tensor, both from the CSV). Tables with such shapes get
that column and "DeepGEMM/cuBLAS (PEERS)"; the summary gets its geometric mean.
"""
import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEEPGEMM_CSV = ROOT / "bench" / "peers-deepgemm.csv"


def read_jsonl(path):
    recs = []
    for ln in Path(path).read_text().splitlines():
        ln = ln.strip()
        if not ln:
            continue
        try:
            recs.append(json.loads(ln))
        except json.JSONDecodeError:
            pass  # a line cut short when the run was killed
    return recs


def num(rec, *path):
    cur = rec
    for p in path:
        if not isinstance(cur, dict) or p not in cur:
            return None
        cur = cur[p]
    if isinstance(cur, bool) or not isinstance(cur, (int, float)):
        return None
    return cur if math.isfinite(cur) else None


def geomean(vals):
    vals = [v for v in vals if v is not None and v > 0]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def round_drift(shapes, limit=0.05):
    """A line naming the shapes whose timing rounds (dgemm or a peer) differ
    by more than ``limit`` (slowest over fastest round median), or None when
    the run did not time in rounds: where the clocks moved (the power cap),
    the median of three rounds is still a figure, but a reader should know."""
    timed = [r for r in shapes if r.get("round_us")]
    if not timed:
        return None
    moved = []
    for r in timed:
        series = [("dgemm", r["round_us"])] + [
            (name, p.get("round_us")) for name, p in sorted((r.get("peers") or {}).items())
            if isinstance(p, dict) and p.get("round_us")]
        worst = max(series, key=lambda s: max(s[1]) / min(s[1]))
        spread = max(worst[1]) / min(worst[1]) - 1
        if spread > limit:
            moved.append("%sx%sx%s (%s %+.0f%%)" % (r["m"], r["n"], r["k"], worst[0],
                                                     100 * spread))
    return ("Rounds that differ by more than %.0f%% (slowest over fastest round, the worst "
            "of dgemm and its peers): %d of %d shapes%s" % (
                100 * limit, len(moved), len(timed), ": " + ", ".join(moved) + "."
                if moved else "."))


def median(vals):
    vals = sorted(v for v in vals if v is not None)
    if not vals:
        return None
    h = len(vals) // 2
    return vals[h] if len(vals) % 2 else (vals[h - 1] + vals[h]) / 2


def fmt(v, nd=0):
    return "-" if v is None else ("%%.%df" % nd) % v


def fmt_rate(v):
    """TFLOPS / GB/s: integers from 100 up, one decimal below."""
    if v is None:
        return "-"
    return "%.0f" % v if v >= 100 else "%.1f" % v


def short_config(text):
    import re
    if not text:
        return "-"
    fields = dict(re.findall(r'(\w+)\s*=\s*"?([\w.+-]+)"?', text))
    if "block_m" not in fields or "block_n" not in fields:
        return text.replace("|", "/")[:40]
    s = "%sx%s" % (fields["block_m"], fields["block_n"])
    if "stages" in fields:
        s += " s%s" % fields["stages"]
    if fields.get("cluster", "1") != "1":
        mc = fields.get("multicast", "")
        s += " c%s%s" % (fields["cluster"], "" if mc in ("", "none") else mc)
    if fields.get("a_box_rows", "0") != "0":
        s += " a%s" % fields["a_box_rows"]
    return s


def status(rec):
    if rec.get("skipped"):
        return "skipped"
    if rec.get("error"):
        return "ERROR"
    chk = rec.get("check") or {}
    return "ok" if chk.get("ok") is True else "FAIL"


def peer_failed(rec, peer):
    """Whether the peer's own output failed the check dgemm's passes."""
    chk = ((rec.get("peers") or {}).get(peer) or {}).get("check")
    return bool(chk) and chk.get("ok") is False


def tflops(rec, peer=None):
    """dgemm's TFLOPS, or a peer's; none for a peer whose output failed the
    check (a wrong result's speed is not a figure to compare with)."""
    if peer is None:
        return num(rec, "tflops")
    return None if peer_failed(rec, peer) else num(rec, "peers", peer, "tflops")


def ratio(rec, peer):
    t, p = tflops(rec), tflops(rec, peer)
    return t / p if t and p else None


TORCH_SCALE_STRIDE_NOTE = (
    "With K/128 not a multiple of 4, torch._scaled_mm (PyTorch 2.11 on the H200) accepts a "
    "128x128 scale_b only as [K/128, N/128] with strides (1, K/128), and its output was wrong "
    "from column 128 on in every such case; the same scales with that stride rounded up to 4 "
    "were refused (\"Invalid scaling configuration\"). bench/probe_torch_scale_layout.py shows "
    "both (bench/results/2026-12-04-0590f71-probe-torch-scale-layout.log).")


def torch_scale_stride_fault(rec):
    """Whether torch blockwise's failed check is the scale-stride fault above."""
    return peer_failed(rec, "torch_blockwise") and (rec["k"] // 128) % 4 != 0


def peer_cell(rec, peer):
    t = tflops(rec, peer)
    if t is not None:
        return fmt_rate(t)
    if peer_failed(rec, peer):
        return "wrong"
    err = ((rec.get("peers") or {}).get(peer) or {}).get("error")
    return "n/a" if err else "-"


def check_cell(rec):
    s = status(rec)
    chk = rec.get("check") or {}
    if s == "ok":
        return "ok (%.1e)" % chk["calc_diff"] if num(chk, "calc_diff") is not None else "ok"
    if s == "FAIL":
        parts = []
        if chk.get("bad"):
            parts.append("%d bad" % chk["bad"])
        if chk.get("nan_left"):
            parts.append("%d unwritten" % chk["nan_left"])
        if chk.get("guard_ok") is False or chk.get("guard_ok_after_timing") is False:
            parts.append("guard hit")
        if chk.get("deterministic") is False:
            parts.append("not deterministic")
        return "**FAIL** " + ", ".join(parts)
    return "**%s**" % s if s == "ERROR" else s


def read_deepgemm(path):
    """bench/peers-deepgemm.csv -> dict(source=its path as printed, note=its
    first comment line, rows={(layout, m, n, k): {column: TFLOPS or None}})."""
    import csv
    path = Path(path).resolve()
    rows = {}
    lines = path.read_text().splitlines()
    comments = [ln.lstrip("#").strip() for ln in lines if ln.startswith("#")]
    for r in csv.DictReader(ln for ln in lines if ln.strip() and not ln.startswith("#")):
        key = (r["layout"].strip(), int(r["m"]), int(r["n"]), int(r["k"]))
        if key in rows:
            raise ValueError("%s: shape %s listed twice" % (path, key))
        rows[key] = {c: float(r[c]) if (r.get(c) or "").strip() else None
                     for c in ("deepgemm_tflops", "torch_blockwise_tflops",
                               "cublas_per_tensor_tflops")}
    try:
        source = str(path.relative_to(ROOT))
    except ValueError:
        source = path.name
    return dict(source=source, note=comments[0] if comments else "", rows=rows)


def deepgemm_row(rec, deepgemm):
    if not deepgemm:
        return None
    return deepgemm.get((rec.get("layout") or "normal", rec["m"], rec["n"], rec["k"]))


def deepgemm_over_cublas(rec, deepgemm):
    """DeepGEMM / cuBLAS per-tensor, both from the CSV's run."""
    row = deepgemm_row(rec, deepgemm)
    if not row or not row["deepgemm_tflops"] or not row["cublas_per_tensor_tflops"]:
        return None
    return row["deepgemm_tflops"] / row["cublas_per_tensor_tflops"]


def vs_deepgemm(rec, deepgemm):
    """(dgemm / cuBLAS per-tensor, this run) / (DeepGEMM / cuBLAS per-tensor, CSV)."""
    here, there = ratio(rec, "cublas_per_tensor"), deepgemm_over_cublas(rec, deepgemm)
    return here / there if here and there else None


def shape_label(rec):
    return "%d | %d | %d" % (rec["m"], rec["n"], rec["k"])


def table(recs, warm, deepgemm=None):
    head = ("| M | N | K | config | dgemm µs | dgemm TFLOPS | GB/s | torch blockwise TFLOPS "
            "| cuBLAS per-tensor TFLOPS | vs torch | vs cuBLAS | compile ms | host µs (py / C) "
            "| check |")
    lines = [head, "|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"]
    if warm:
        lines[0] = lines[0][:-len("| check |")] + "| warm load ms | check |"
        lines[1] = lines[1][:-len("---|")] + "--:|---|"
    with_dg = any(deepgemm_row(r, deepgemm) for r in recs)
    if with_dg:
        at = "| vs cuBLAS |"
        col = lines[0][:lines[0].index(at)].count("|") + 1   # columns up to vs cuBLAS
        lines[0] = lines[0].replace(at, at + " DeepGEMM/cuBLAS (PEERS) | dgemm vs DeepGEMM |")
        seps = lines[1].strip("|").split("|")
        lines[1] = "|" + "|".join(seps[:col] + ["--:", "--:"] + seps[col:]) + "|"
    for r in recs:
        host_py, host_c = num(r, "host_us", "dgemm_python"), num(r, "host_us", "dgemm_c")
        cells = [shape_label(r), short_config(r.get("config")), fmt(num(r, "us"), 1),
                 fmt_rate(tflops(r)), fmt_rate(num(r, "gbps")),
                 peer_cell(r, "torch_blockwise"), peer_cell(r, "cublas_per_tensor"),
                 fmt(ratio(r, "torch_blockwise"), 2), fmt(ratio(r, "cublas_per_tensor"), 2)]
        if with_dg:
            cells += [fmt(deepgemm_over_cublas(r, deepgemm), 2),
                      fmt(vs_deepgemm(r, deepgemm), 2)]
        cells += [fmt(num(r, "compile_ms"), 0),
                 "%s / %s" % (fmt(host_py, 1), fmt(host_c, 1)) if host_py is not None else "-"]
        if warm:
            w = warm.get((r["m"], r["n"], r["k"]))
            cells.append(fmt(num(w, "warm_prepare_ms"), 1) if w else "-")
        cells.append(check_cell(r))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def summary_row(label, recs, deepgemm=None):
    ok = sum(1 for r in recs if status(r) == "ok")
    ran = sum(1 for r in recs if status(r) != "skipped")
    row = "| %s | %d | %d / %d | %s | %s | %s |" % (
        label, len(recs), ok, ran, fmt_rate(geomean([tflops(r) for r in recs])),
        fmt(geomean([ratio(r, "torch_blockwise") for r in recs]), 2),
        fmt(geomean([ratio(r, "cublas_per_tensor") for r in recs]), 2))
    if deepgemm is not None:
        vals = [v for v in (vs_deepgemm(r, deepgemm) for r in recs) if v]
        row += " %s |" % ("%s (%d)" % (fmt(geomean(vals), 2), len(vals)) if vals else "-")
    return row


def render(records, source_name, commit=None, warm_records=None, deepgemm=None):
    """deepgemm: read_deepgemm's dict, or None."""
    meta = next((r for r in records if r.get("type") == "meta"), {})
    summary = next((r for r in records if r.get("type") == "summary"), {})
    shapes = [r for r in records if r.get("type") == "shape"]
    warm = {(r["m"], r["n"], r["k"]): r for r in (warm_records or [])
            if r.get("type") == "shape"}
    csv_recs = [r for r in shapes if r.get("source") == "csv"]
    other = [r for r in shapes if r.get("source") != "csv"]
    small = [r for r in csv_recs if r["m"] <= 128]
    large = [r for r in csv_recs if r["m"] > 128]
    dg_rows = (deepgemm or {}).get("rows")
    if not any(deepgemm_row(r, dg_rows) for r in shapes):
        dg_rows = None
    tol = meta.get("tolerance") or {}
    args = meta.get("args") or {}

    out = ["# dgemm benchmark results", "",
           "Generated by `scripts/gen_results.py` from `%s` (written by `bench/run_bench.py` "
           "on the GPU machine). Do not edit by hand: rerun the benchmark and regenerate."
           % source_name, ""]
    device = meta.get("device", "unknown device")
    if meta.get("sms"):
        device += " (%s SMs" % meta["sms"]
        device += ", %s GiB)" % meta["memory_gib"] if meta.get("memory_gib") else ")"
    out += ["- Date: %s" % meta.get("date", "unknown"),
            "- Commit: %s" % (commit or meta.get("commit", "unknown")),
            "- Device: %s; driver %s; CUDA %s; PyTorch %s; Python %s" % (
                device, meta.get("driver", "?"), meta.get("cuda", "?"), meta.get("torch", "?"),
                meta.get("python", "?")),
            "- Library: `%s`, sha256 `%s`" % (meta.get("lib", "?"),
                                              (meta.get("lib_sha256") or "?")[:16])]
    if meta.get("nvidia_smi"):
        out.append("- nvidia-smi (driver, max SM clock, max memory clock, power limit): %s"
                   % meta["nvidia_smi"])
    rounds = args.get("rounds")
    timing = ("median of %s calls (dgemm timed first, then each peer, shape by shape; "
              "harnesses since f6c0c2c time them in turn)" % args.get("iters", "?")
              if not rounds else
              "the median of %s rounds' medians of %s calls (dgemm and the peers timed in "
              "turn each round, so that a drift of the clocks hits all alike)"
              % (rounds, args.get("iters", "?")))
    out += ["- Method: TFLOPS = 2·M·N·K / %s, each call timed with CUDA events "
            "after a 1 GiB memset (cold L2), after %s warm-up calls; one harness for dgemm "
            "and both peers, same FP8 inputs. Peers: `torch._scaled_mm` with DeepSeek "
            "blockwise scales (1x128 A, 128x128 B; cuBLASLt) and with per-tensor scales "
            "(cuBLAS FP8 without block scaling: a speed reference, not a peer). GB/s counts "
            "A, B, scales and D once. Compile ms: `dgemm_gemm_prepare` (0: config already "
            "compiled by an earlier shape). Host µs: one cache-hit call on an idle GPU, "
            "median, full Python call / bare C call." % (timing, args.get("warmup", "?")),
            "- Check: fresh random FP8 inputs with block scales over 2^-8..2^8, output "
            "poisoned with NaN and guarded; against a float64 reference: calc_diff < %s and "
            "|D - ref| <= %s·|ref| + %s·rms for every element; guards intact; bitwise equal "
            "to a call through the scale-layout copy path." % (
                tol.get("calc_diff_max", "?"), tol.get("rtol", "?"), tol.get("atol_rms", "?"))]
    if dg_rows:
        out.append("- DeepGEMM: not run here; its TFLOPS and cuBLAS per-tensor's of the same "
                   "run come from `%s`: %s. Machines differ by several percent, so dgemm is "
                   "compared with it through cuBLAS: DeepGEMM/cuBLAS (PEERS) = DeepGEMM / cuBLAS "
                   "per-tensor in that run; dgemm vs DeepGEMM (cuBLAS-normalized) = (dgemm / "
                   "cuBLAS per-tensor in this run) / (DeepGEMM/cuBLAS (PEERS)); above 1 is "
                   "faster than DeepGEMM." % (deepgemm["source"], deepgemm["note"].rstrip(".")))
        if rounds:
            out[-1] += (" This run timed cuBLAS in turn with dgemm; that one timed each "
                        "library on its own, so the two cuBLAS figures may have met "
                        "different clocks (the power cap).")
    out.append("")
    if summary.get("context_lost"):
        out += ["**The run lost its CUDA context:** %s" % summary["context_lost"], ""]
    if summary.get("aborted"):
        out += ["**The run was aborted:** %s" % summary["aborted"], ""]
    if not summary:
        out += ["**The run ended without a summary record (killed or timed out); "
                "the shapes below are those it finished.**", ""]

    out += ["## Summary", "",
            "Geometric means over the shapes that have both numbers.", "",
            "| shapes | count | checks passed | dgemm TFLOPS | dgemm / torch blockwise "
            "| dgemm / cuBLAS per-tensor |",
            "|---|--:|--:|--:|--:|--:|"]
    if dg_rows:
        out[-4] = out[-4][:-1] + "; dgemm vs DeepGEMM (cuBLAS-normalized, see above) over the " \
            "shapes that have a DeepGEMM row, their count in brackets."
        out[-2] += " dgemm vs DeepGEMM, cuBLAS-normalized (shapes) |"
        out[-1] += "--:|"
    if small:
        out.append(summary_row("shapes.csv, M ≤ 128", small, dg_rows))
    if large:
        out.append(summary_row("shapes.csv, M > 128", large, dg_rows))
    if csv_recs:
        out.append(summary_row("shapes.csv, all", csv_recs, dg_rows))
    if other:
        out.append(summary_row("random and other shapes", other, dg_rows))
    out.append(summary_row("everything", shapes, dg_rows))
    hp = [num(r, "host_us", "dgemm_python") for r in shapes]
    hc = [num(r, "host_us", "dgemm_c") for r in shapes]
    hb = [num(r, "host_us", "dgemm_c_bound") for r in shapes]
    ht = [num(r, "host_us", "torch_blockwise") for r in shapes]
    cm = [num(r, "compile_ms") for r in shapes if num(r, "compile_ms")]
    out += [""]
    if any(v is not None for v in hp):
        out.append("Host overhead of a cache-hit call, median over shapes: %s µs through Python, "
                   "%s µs for the bare C call%s%s." % (
                       fmt(median(hp), 1), fmt(median(hc), 1),
                       ", %s µs for a C bound call" % fmt(median(hb), 1)
                       if any(v is not None for v in hb) else "",
                       "; torch blockwise %s µs" % fmt(median(ht), 1)
                       if any(v is not None for v in ht) else ""))
    drift = round_drift(shapes)
    if drift is not None:
        out.append(drift)
    if cm:
        out.append("Cold compile (shapes whose kernel was not cached yet: %d): %s ms median, "
                   "%s ms max." % (
            len(cm), fmt(median(cm), 0), fmt(max(cm), 0)))
    if warm:
        wp = [num(w, "warm_prepare_ms") for w in warm.values()]
        wf = [num(w, "warm_first_call_ms") for w in warm.values()]
        if any(v is not None for v in wp):
            out.append("Warm start (a new process, disk cache filled): prepare %s ms median, "
                       "%s ms max; first call %s ms median." % (
                           fmt(median(wp), 1), fmt(max(v for v in wp if v is not None), 1),
                           fmt(median(wf), 1)))
    out.append("")

    if csv_recs:
        out += ["## DeepSeek-V3 shapes (bench/shapes.csv, normal)", ""] + table(csv_recs, warm, dg_rows) + [""]
    if other:
        out += ["## Random and other shapes (seed %s)" % args.get("seed", "?"), ""] + \
            table(other, warm, dg_rows) + [""]

    bad = [r for r in shapes if status(r) in ("FAIL", "ERROR")]
    peer_bad = [r for r in shapes if (r.get("peers") or {}).get("torch_blockwise", {})
                .get("check", {}).get("ok") is False]
    if bad or peer_bad:
        out += ["## Failures", ""]
        for r in bad:
            chk = r.get("check") or {}
            if r.get("error"):
                why = "`%s`" % str(r["error"]).strip().splitlines()[-1][:300].replace("`", "'")
            else:
                why = "calc_diff %s, %s bad elements (rows %s, cols %s; first [i, j, d, ref, rms] " \
                      "= %s), %s unwritten, guards %s, deterministic %s" % (
                          chk.get("calc_diff"), chk.get("bad"), chk.get("bad_rows"),
                          chk.get("bad_cols"), chk.get("first_bad"), chk.get("nan_left"),
                          "intact" if chk.get("guard_ok") else "HIT", chk.get("deterministic"))
            out.append("- M=%d N=%d K=%d: %s" % (r["m"], r["n"], r["k"], why))
        for r in peer_bad:
            chk = r["peers"]["torch_blockwise"]["check"]
            what = ["calc_diff %s" % chk.get("calc_diff")]
            if chk.get("bad") is not None:
                what.append("%s bad elements" % chk["bad"])
            if chk.get("bad_cols"):
                what.append("cols %s" % chk["bad_cols"])
            out.append("- M=%d N=%d K=%d: torch blockwise's own output failed the check (%s)%s" % (
                r["m"], r["n"], r["k"], ", ".join(what),
                "; K/128 = %d is not a multiple of 4" % (r["k"] // 128)
                if torch_scale_stride_fault(r) else ""))
        if peer_bad:
            out += ["", "A peer whose output failed the check shows \"wrong\" and is left out of "
                    "the ratios and their means."]
            if any(torch_scale_stride_fault(r) for r in peer_bad):
                out.append(TORCH_SCALE_STRIDE_NOTE)
        out.append("")
    skipped = [r for r in shapes if status(r) == "skipped"]
    if skipped:
        out += ["%d shapes were skipped: %s" % (len(skipped), skipped[0].get("skipped")), ""]
    return "\n".join(out)


def render_compile_times(recs):
    """The "Compile times" section from bench/compile_times.py's records."""
    summ = next((r for r in recs if r.get("type") == "summary"), {})
    by = {}
    for r in recs:
        if r.get("type") == "kernel" and "m" in r:
            by.setdefault((r["m"], r["n"], r["k"]), {})[r.get("phase")] = r
    host_skip = next((r.get("skipped") for r in recs if r.get("phase") == "host"
                      and r.get("skipped")), None)
    out = ["## Compile times (bench/compile_times.py)", "",
           "Each kernel in a fresh process: cold = empty DGEMM_CACHE_DIR and "
           "`CUDA_CACHE_DISABLE=1` (dgemm IR built -> PTX by dgemm's compiler, one-time MLIR "
           "set-up included, then loaded by the driver's JIT); batch = all kernels compiled in "
           "one process (no set-up); warm = a new process finding the PTX on disk (driver JIT "
           "still cold; and with the driver's compute cache filled); host = one warm call, "
           "median, through Python / the bare C call. Goals (issue 5): cold compile under "
           "%s ms per kernel, warm call under %s µs." % (
               fmt(summ.get("goal_cold_under_ms", 500.0), 0),
               fmt(summ.get("goal_host_under_us", 10.0), 0)), ""]
    if summ:
        out.append("Medians over %s kernels: cold compile %s ms (max %s), driver load %s ms, "
                   "cold total %s ms (max %s%s); batch compile %s ms; process set-up %s ms; "
                   "warm start %s ms (%s ms with the driver cache); warm call %s µs "
                   "through Python, %s µs bare C (%s µs a C bound call)%s." % (
                       summ.get("kernels"), fmt(summ.get("cold_compile_ms_median"), 1),
                       fmt(summ.get("cold_compile_ms_max"), 1),
                       fmt(summ.get("cold_load_ms_median"), 1),
                       fmt(summ.get("cold_total_ms_median"), 1),
                       fmt(summ.get("cold_total_ms_max"), 1),
                       "" if summ.get("goal_cold_met") is None else
                       ": goal %s" % ("met" if summ["goal_cold_met"] else "MISSED"),
                       fmt(summ.get("batch_compile_ms_median"), 1),
                       fmt(summ.get("cold_init_ms_median"), 0),
                       fmt(summ.get("warm_prepare_ms_median"), 2),
                       fmt(summ.get("warm_driver_cache_prepare_ms_median"), 2),
                       fmt(summ.get("host_us_python_median"), 1),
                       fmt(summ.get("host_us_c_median"), 1),
                       fmt(summ.get("host_us_c_bound_median"), 1),
                       "" if summ.get("goal_host_met") is None else
                       ": goal %s" % ("met" if summ["goal_host_met"] else "MISSED")))
        out.append("")
    if host_skip:
        out += ["Host phase skipped: %s" % host_skip, ""]
    out += ["| M | N | K | kernel | cold compile ms | cold load ms | batch compile ms "
            "| warm start ms | warm, driver cache ms | warm call µs (py / C / C bound) |",
            "|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
    for (m, n, k), ph in by.items():
        cold, batch = ph.get("cold", {}), ph.get("batch", {})
        warm, wdc, host = ph.get("warm", {}), ph.get("warm_driver_cache", {}), ph.get("host", {})
        hp, hc, hb = host.get("host_us_python"), host.get("host_us_c"), host.get("host_us_c_bound")
        out.append("| %d | %d | %d | `%s` | %s | %s | %s | %s | %s | %s |" % (
            m, n, k, cold.get("kernel") or "-", fmt(cold.get("compile_ms"), 1),
            fmt(cold.get("load_ms"), 1), fmt(batch.get("compile_ms"), 1),
            fmt(warm.get("prepare_ms"), 2), fmt(wdc.get("prepare_ms"), 2),
            "%s / %s / %s" % (fmt(hp, 1), fmt(hc, 1), fmt(hb, 1)) if hp is not None else "-"))
    errors = [r for r in recs if r.get("error")]
    if errors:
        out += ["", "Errors:"] + ["- %s M=%s N=%s K=%s: `%s`" % (
            r.get("phase"), r.get("m"), r.get("n"), r.get("k"),
            str(r["error"]).strip().splitlines()[-1][:300].replace("`", "'")) for r in errors]
    return out + [""]


def render_svg(records, deepgemm=None):
    """A horizontal bar chart of TFLOPS per shape of shapes.csv: dgemm,
    torch._scaled_mm blockwise and cuBLAS per-tensor from this run, and
    DeepGEMM estimated for this run as (DeepGEMM / cuBLAS of the CSV's run) x
    cuBLAS of this run. Plain SVG, no plotting library."""
    shapes = [r for r in records if r.get("type") == "shape" and r.get("source") == "csv"]
    rows = (deepgemm or {}).get("rows")
    series = [("dgemm", "#1f77b4", lambda r: tflops(r)),
              ("torch._scaled_mm blockwise", "#ff7f0e", lambda r: tflops(r, "torch_blockwise")),
              ("cuBLAS per-tensor", "#7f7f7f", lambda r: tflops(r, "cublas_per_tensor"))]
    if rows:
        def dg(r):
            q, c = deepgemm_over_cublas(r, rows), tflops(r, "cublas_per_tensor")
            return q * c if q and c else None
        series.append(("DeepGEMM (cuBLAS-normalized from PEERS.md)", "#2ca02c", dg))
    vals = [[f(r) for _, _, f in series] for r in shapes]
    top = max([v for row in vals for v in row if v] + [1.0])
    bar, gap, left, width = 7, 10, 150, 560
    group = bar * len(series) + gap
    height = 40 + group * len(shapes) + 20 * len(series) + 20
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
           'font-size="11">' % (left + width + 60, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="16" font-size="13">TFLOPS per DeepSeek-V3 shape (M, N, K), H200</text>' % left]
    for t in range(0, int(top) + 1, 200):
        x = left + width * t / top
        out.append('<line x1="%.1f" y1="24" x2="%.1f" y2="%d" stroke="#ddd"/>' % (x, x, 30 + group * len(shapes)))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (x, 42 + group * len(shapes), t))
    for i, (r, row) in enumerate(zip(shapes, vals)):
        y0 = 28 + i * group
        out.append('<text x="%d" y="%.1f" text-anchor="end">%d, %d, %d</text>' % (
            left - 6, y0 + bar * len(series) / 2 + 4, r["m"], r["n"], r["k"]))
        for j, ((_, color, _), v) in enumerate(zip(series, row)):
            if v:
                out.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>' % (
                    left, y0 + j * bar, width * v / top, bar - 1, color))
    ly = 56 + group * len(shapes)
    for j, (name, color, _) in enumerate(series):
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/>' % (left, ly + 18 * j, color))
        out.append('<text x="%d" y="%d">%s</text>' % (left + 16, ly + 18 * j + 9, name))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("jsonl", type=Path)
    ap.add_argument("--warm", type=Path, help="JSON lines of run_bench.py --prepare-only")
    ap.add_argument("--compile-times", type=Path,
                    help="JSON lines of bench/compile_times.py (a section of its own)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "RESULTS.md")
    ap.add_argument("--commit", help="commit to print instead of the run's")
    ap.add_argument("--deepgemm", type=Path, default=DEEPGEMM_CSV,
                    help="DeepGEMM and cuBLAS TFLOPS of another run (CSV; default %(default)s; "
                         "'' for none)")
    ap.add_argument("--sanitizer-logs", type=Path, nargs="*", default=[],
                    help="compute-sanitizer logs and sanitizer_planted.py's log: a section")
    ap.add_argument("--grouped", type=Path,
                    help="JSON lines of bench/run_grouped.py: appends the m-grouped section")
    ap.add_argument("--wgrad", type=Path,
                    help="JSON lines of bench/run_wgrad.py: appends the weight-gradient section")
    ap.add_argument("--bias", type=Path,
                    help="JSON lines of bench/run_bias.py: appends the epilogue-fusion section")
    ap.add_argument("--deepgemm-runs", type=Path, nargs="+", default=None,
                    help="run_bench.py and run_grouped.py outputs with DeepGEMM timed in them "
                         "(--deepgemm), rendered as the 'DeepGEMM in the same run' section "
                         "instead of the main records' DeepGEMM peer")
    ap.add_argument("--svg", type=Path, default=None,
                    help="bar chart of TFLOPS per shapes.csv shape (default: tflops.svg beside "
                         "--out; '' for none)")
    args = ap.parse_args(argv)
    records = read_jsonl(args.jsonl)
    if not any(r.get("type") == "shape" for r in records):
        print("gen_results: no shape records in %s" % args.jsonl, file=sys.stderr)
        return 1
    warm = read_jsonl(args.warm) if args.warm and args.warm.is_file() else None
    deepgemm = None
    if args.deepgemm and str(args.deepgemm) not in ("", "."):
        if not args.deepgemm.is_file():
            print("gen_results: no file %s" % args.deepgemm, file=sys.stderr)
            return 2
        deepgemm = read_deepgemm(args.deepgemm)
    text = render(records, args.jsonl.name, args.commit, warm, deepgemm)
    grouped_records = read_jsonl(args.grouped) if args.grouped and args.grouped.is_file() else []
    if args.grouped and args.grouped.is_file():
        import grouped_results
        text = text.rstrip("\n") + "\n\n" + grouped_results.render(
            grouped_records, args.grouped.name, (deepgemm or {}).get("rows"), records)
    import deepgemm_results
    if args.deepgemm_runs:
        # run_bench.py and run_grouped.py records, in any files.
        runs = [r for path in args.deepgemm_runs for r in read_jsonl(path)]
        text = text.rstrip("\n") + "\n\n" + deepgemm_results.render(
            [r for r in runs if r.get("type") != "grouped"],
            [r for r in runs if r.get("type") == "grouped"],
            sources=[p.name for p in args.deepgemm_runs])
    elif deepgemm_results.has_deepgemm(records) or deepgemm_results.has_deepgemm(grouped_records):
        text = text.rstrip("\n") + "\n\n" + deepgemm_results.render(records, grouped_records)
    if args.wgrad and args.wgrad.is_file():
        import wgrad_results
        text = text.rstrip("\n") + "\n\n" + wgrad_results.render(
            read_jsonl(args.wgrad), args.wgrad.name)
    if args.bias and args.bias.is_file():
        import bias_results
        text = text.rstrip("\n") + "\n\n" + bias_results.render(
            read_jsonl(args.bias), args.bias.name)
    if args.sanitizer_logs:
        import sanitizer_results
        text = text.rstrip("\n") + "\n\n" + sanitizer_results.render(args.sanitizer_logs)
    if args.compile_times and args.compile_times.is_file():
        text = text.rstrip("\n") + "\n\n" + "\n".join(
            render_compile_times(read_jsonl(args.compile_times)))
    if args.svg is None:
        args.svg = args.out.parent / "tflops.svg"
    if str(args.svg) not in ("", "."):
        args.svg.write_text(render_svg(records, deepgemm))
        try:
            rel = args.svg.resolve().relative_to(args.out.resolve().parent)
        except ValueError:
            rel = args.svg
        text = text.replace("\n## Summary", "\n![TFLOPS per shape](%s)\n\n## Summary" % rel, 1)
    args.out.write_text(text + "\n")
    print("gen_results: wrote %s (%d shapes)" % (
        args.out, sum(1 for r in records if r.get("type") == "shape")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
