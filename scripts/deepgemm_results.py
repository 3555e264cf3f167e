#===- deepgemm_results.py - DeepGEMM timed in the same run: a section ----===#
"""Renders the DeepGEMM peer of bench/run_bench.py and bench/run_grouped.py
(``--deepgemm``: DeepGEMM built on the GPU machine and timed in turn with
dgemm, same operands, same timer) as a Markdown section: per shape dgemm's
and DeepGEMM's TFLOPS, their ratio and DeepGEMM's own check, then geometric
means per group of shapes. A DeepGEMM result that failed its check is shown
as "wrong" and left out of the ratios. Used by scripts/gen_results.py,
which appends the section when any record has a DeepGEMM peer, or from
the runs named by ``--deepgemm-runs`` (run_bench.py outputs of their own,
such as a run of some shapes only); pure functions, no torch.
"""
import csv
from pathlib import Path

from grouped_results import _f, _geomean, _t

SHAPES_CSV = Path(__file__).resolve().parents[1] / "bench" / "shapes.csv"


def reference_shapes(path=SHAPES_CSV):
    """(m, n, k) of the normal rows of bench/shapes.csv: those shapes are
    grouped as the reference set whatever their record's source says."""
    rows = csv.DictReader(l for l in open(path) if not l.startswith("#"))
    return {(int(r["m"]), int(r["n"]), int(r["k"])) for r in rows if r["layout"] == "normal"}


def _peer(rec):
    """The record's DeepGEMM peer (a dict), or None."""
    return (rec.get("peers") or {}).get("deepgemm")


def has_deepgemm(records):
    return any(_peer(r) is not None for r in records or [])


def _dg(rec):
    """(DeepGEMM TFLOPS or None, cell text)."""
    p = _peer(rec) or {}
    if p.get("error"):
        return None, "error"
    if (p.get("check") or {}).get("ok") is False:
        return None, "wrong"
    t = p.get("tflops")
    return t, _f(t)


def _ratio(rec):
    here, (theirs, _) = _t(rec, "tflops"), _dg(rec)
    return here / theirs if here and theirs else None


def _vs_normal(rec, normal_peer, tflops):
    """A grouped call's TFLOPS over the normal GEMM's on the same work (the
    record's peer ``normal_peer``), None where either is missing or the
    normal GEMM's output failed its check."""
    p = (rec.get("peers") or {}).get(normal_peer) or {}
    if p.get("error") or (p.get("check") or {}).get("ok") is False:
        return None
    normal = p.get("tflops")
    return tflops / normal if tflops and normal else None


def _version(records):
    meta = next((r for r in records or [] if r.get("type") == "meta"), {})
    dg = meta.get("deepgemm") or {}
    return dg.get("version") or dg.get("error") or "?"


def render(bench_records, grouped_records=None, sources=None, reference=None):
    """sources: the names of the files the records came from, for the text;
    reference: reference_shapes() (read from shapes.csv if None)."""
    reference = reference_shapes() if reference is None else reference
    shapes = [r for r in bench_records or [] if r.get("type") == "shape"
              and _peer(r) is not None]
    grouped = [r for r in grouped_records or [] if r.get("type") == "grouped"
               and r.get("kind") in ("equal", "drawn") and _peer(r) is not None]
    meta = next((r for r in bench_records or [] if r.get("type") == "meta"), {})
    out = ["## DeepGEMM in the same run", "",
           "DeepGEMM %s, built on the GPU machine (scripts/device-deepgemm.sh) and timed in "
           "turn with dgemm on the same operands by the same harness (%s, commit %s): "
           "fp8_gemm_nt, m_grouped_fp8_gemm_nt_contiguous and _masked with float scales and "
           "no UE8M0 cast, as its own SM90 tests call them. Its first call (JIT compile) is "
           "not timed. *ratio* is dgemm / DeepGEMM; \"wrong\" marks a DeepGEMM output that "
           "failed the check dgemm's passes (left out of the ratios)." % (
               _version(bench_records or grouped_records), meta.get("device", "?"),
               meta.get("commit", "?")), ""]
    if sources:
        out[-2] += " Records: %s." % ", ".join("`%s`" % x for x in sources)
    if shapes:
        out += ["| M | N | K | dgemm TFLOPS | DeepGEMM TFLOPS | ratio |",
                "|--:|--:|--:|--:|--:|--:|"]
        for r in shapes:
            out.append("| %d | %d | %d | %s | %s | %s |" % (
                r["m"], r["n"], r["k"], _f(_t(r, "tflops")), _dg(r)[1], _f(_ratio(r), 2)))
        out.append("")
    if grouped:
        out += ["*vs normal*: each library's grouped call over its own normal GEMM "
                "(fp8_gemm_nt for DeepGEMM) on the same total work (M = the valid rows), "
                "timed in the same turns: the measure of the grouped bar.", "",
                "| layout | G | m | N | K | sizes | dgemm TFLOPS | dgemm vs normal | "
                "DeepGEMM TFLOPS | DeepGEMM vs normal | ratio |",
                "|---|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|"]
        for r in grouped:
            out.append("| %s | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s |" % (
                r["layout"], r["groups"], r["m"], r["n"], r["k"],
                "equal" if r["kind"] == "equal" else "x U(0.7,1.3)", _f(_t(r, "tflops")),
                _f(_vs_normal(r, "normal_same_work", _t(r, "tflops")), 2), _dg(r)[1],
                _f(_vs_normal(r, "deepgemm_normal_same_work", _dg(r)[0]), 2),
                _f(_ratio(r), 2)))
        out.append("")
    ref = lambda r: (r["m"], r["n"], r["k"]) in reference  # noqa: E731
    groups = [("shapes.csv, M <= 128", [r for r in shapes if ref(r) and r["m"] <= 128]),
              ("shapes.csv, M > 128", [r for r in shapes if ref(r) and r["m"] > 128]),
              ("shapes.csv, all", [r for r in shapes if ref(r)]),
              ("other shapes", [r for r in shapes if not ref(r)])]
    for layout in ("contiguous", "masked"):
        for kind, label in (("equal", "equal sizes"), ("drawn", "drawn sizes")):
            groups.append(("%s, %s" % (layout, label),
                           [r for r in grouped if r["layout"] == layout and r["kind"] == kind]))
    for label, sel in groups:
        if not sel:
            continue
        vals = [v for v in (_ratio(r) for r in sel) if v]
        wrong = sum(1 for r in sel if _dg(r)[1] in ("wrong", "error"))
        line = "- %s: dgemm / DeepGEMM geomean %s over %d of %d shapes%s" % (
            label, _f(_geomean(vals), 2), len(vals), len(sel),
            " (%d DeepGEMM wrong or failed)" % wrong if wrong else "")
        if sel[0].get("type") == "grouped":
            ours = [v for v in (_vs_normal(r, "normal_same_work", _t(r, "tflops"))
                                for r in sel) if v]
            theirs = [v for v in (_vs_normal(r, "deepgemm_normal_same_work", _dg(r)[0])
                                  for r in sel) if v]
            if theirs:
                line += "; vs its own normal GEMM: dgemm %s (%d), DeepGEMM %s (%d)" % (
                    _f(_geomean(ours), 2), len(ours), _f(_geomean(theirs), 2), len(theirs))
        out.append(line)
    out.append("")
    return "\n".join(out)
