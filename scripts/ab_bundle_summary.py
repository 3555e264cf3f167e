#!/usr/bin/env python3
#===- ab_bundle_summary.py - per-case summary of a two-bundle A/B run ----===#
"""Summarises the <variant>-<round>.jsonl files that
scripts/device-ab-bundle.sh writes: for each timed case (a record with
dgemm.tflops, or run_bench.py's and run_grouped.py's records with tflops
at their top),
dgemm's TFLOPS per round for each variant (base, new and any var-<name>
bundles), the ratio of each one's median to base's, and,
where the record also times a reference in the same process (--ref, e.g.
wgrad_same_work), dgemm over that reference per variant, which cancels
clock differences between processes. --subject times another key of the
record instead of dgemm (run_bias.py's dgemm_bias, against --ref dgemm:
the bias call over the same GEMM without it).

  python3 scripts/ab_bundle_summary.py DIR [--ref wgrad_same_work]
  python3 scripts/ab_bundle_summary.py DIR --ref peers.normal_same_work
  python3 scripts/ab_bundle_summary.py DIR --subject dgemm_bias --ref dgemm
"""
import argparse
import glob
import json
import os
import re
import statistics

from grouped_results import _geomean as geomean


def _tflops(r, subject=None):
    """dgemm's TFLOPS in a record: run_wgrad's k-grouped records nest it
    under "dgemm", run_bench's and run_grouped's carry it at the top; with
    subject, that key's."""
    if subject:
        return _ref_tflops(r, subject)
    nested = (r.get("dgemm") or {}).get("tflops")
    if nested:
        return nested
    return r.get("tflops") if r.get("type") in ("shape", "grouped") else None


def _ref_tflops(r, ref):
    """The reference's TFLOPS: ref names a key of the record or, dotted, a
    nested one ("peers.normal_same_work")."""
    for part in ref.split("."):
        r = (r or {}).get(part)
    return (r or {}).get("tflops")


def _key(r):
    return (r.get("layout"), r.get("kind"), r.get("m"), r.get("n"), r.get("k"),
            r.get("groups"))


def run_files(directory):
    """(variant, round, path) of each <variant>-<round>.jsonl in directory,
    sorted by path."""
    files = []
    for path in sorted(glob.glob(os.path.join(directory, "*-*.jsonl"))):
        m = re.fullmatch(r"([A-Za-z0-9_]+)-(\d+)\.jsonl", os.path.basename(path))
        if m:
            files.append((m.group(1), int(m.group(2)), path))
    return files


def load(directory, subject=None):
    runs = {}
    for variant, _, path in run_files(directory):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if _tflops(r, subject):
                    runs.setdefault(_key(r), {}).setdefault(variant, []).append(r)
    return runs


def summarise(runs, ref=None, subject=None):
    lines, refq = [], {}
    for key, by in runs.items():
        others = [v for v in by if v != "base"]
        if "base" not in by or not others:
            continue
        variants = ["base"] + sorted(others, key=lambda v: (v != "new", v))
        t = {v: [_tflops(r, subject) for r in by[v]] for v in variants}
        line = " ".join(str(x) for x in key if x is not None) + " base %s" % [
            round(x) for x in t["base"]]
        for v in variants[1:]:
            line += " %s %s %s/base %.3f" % (v, [round(x) for x in t[v]], v,
                                             statistics.median(t[v]) /
                                             statistics.median(t["base"]))
        if ref:
            q = {v: [_tflops(r, subject) / _ref_tflops(r, ref) for r in by[v]
                     if _ref_tflops(r, ref)] for v in variants}
            if all(q.values()):
                line += " vs %s:" % ref + "".join(
                    " %s %.3f" % (v, statistics.median(q[v])) for v in variants)
                for v in variants:
                    refq.setdefault(v, []).extend(q[v])
        lines.append(line)
    if refq:
        lines.append("geomean vs %s over all rounds:" % ref + "".join(
            " %s %.3f" % (v, geomean(q)) for v, q in refq.items()))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("directory")
    ap.add_argument("--ref", help="a reference timed in the same record")
    ap.add_argument("--subject", help="the key timed instead of dgemm")
    args = ap.parse_args(argv)
    lines = summarise(load(args.directory, args.subject), args.ref, args.subject)
    print("\n".join(lines) if lines else "no timed cases with both variants")
    return 0 if lines else 1


if __name__ == "__main__":
    raise SystemExit(main())
