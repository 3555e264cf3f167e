#!/usr/bin/env python3
#===- ab_bundle_summary.py - per-case summary of a two-bundle A/B run ----===#
"""Summarises the base-<r>.jsonl / new-<r>.jsonl files that
scripts/device-ab-bundle.sh writes: for each timed case (a record with
dgemm.tflops), dgemm's TFLOPS per round for both variants, the ratio of the
medians (new / base), and, where the record also times a reference in the
same process (--ref, e.g. wgrad_same_work), the geomean of dgemm over that
reference per variant, which cancels clock differences between processes.

  python3 scripts/ab_bundle_summary.py DIR [--ref wgrad_same_work]
"""
import argparse
import glob
import json
import math
import os
import re
import statistics


def _key(r):
    return (r.get("kind"), r.get("m"), r.get("n"), r.get("k"), r.get("groups"))


def load(directory):
    runs = {}
    for path in sorted(glob.glob(os.path.join(directory, "*-*.jsonl"))):
        m = re.fullmatch(r"(base|new)-(\d+)\.jsonl", os.path.basename(path))
        if not m:
            continue
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if (r.get("dgemm") or {}).get("tflops"):
                    runs.setdefault(_key(r), {}).setdefault(m.group(1), []).append(r)
    return runs


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def summarise(runs, ref=None):
    lines, refq = [], {"base": [], "new": []}
    for key, by in runs.items():
        if "base" not in by or "new" not in by:
            continue
        t = {v: [r["dgemm"]["tflops"] for r in by[v]] for v in ("base", "new")}
        ratio = statistics.median(t["new"]) / statistics.median(t["base"])
        line = "%s base %s new %s new/base %.3f" % (
            " ".join(str(x) for x in key if x is not None),
            [round(x) for x in t["base"]], [round(x) for x in t["new"]], ratio)
        if ref:
            q = {v: [r["dgemm"]["tflops"] / r[ref]["tflops"] for r in by[v]
                     if (r.get(ref) or {}).get("tflops")] for v in ("base", "new")}
            for v in q:
                refq[v] += q[v]
            if q["base"] and q["new"]:
                line += " vs %s: base %.3f new %.3f" % (
                    ref, statistics.median(q["base"]), statistics.median(q["new"]))
        lines.append(line)
    if ref and refq["base"] and refq["new"]:
        lines.append("geomean vs %s over all rounds: base %.3f new %.3f" % (
            ref, geomean(refq["base"]), geomean(refq["new"])))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("directory")
    ap.add_argument("--ref", help="a reference timed in the same record")
    args = ap.parse_args(argv)
    lines = summarise(load(args.directory), args.ref)
    print("\n".join(lines) if lines else "no timed cases with both variants")
    return 0 if lines else 1


if __name__ == "__main__":
    raise SystemExit(main())
