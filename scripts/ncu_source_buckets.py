#!/usr/bin/env python3
#===- ncu_source_buckets.py - where a kernel's warp-stall samples fall ---===#
"""Reads Nsight Compute's source page as CSV (`ncu --page source
--print-source sass --csv`, one or more kernels, as scripts/device-profile.sh
SOURCE=1 and scripts/device-masked-gap.sh SOURCE=1 write it) and prints, per
kernel: the warp-stall samples and instructions executed in all, the main
stall reasons, and the samples grouped by how often each instruction ran.

The execution count names the code region without symbols: in a persistent
kernel with C CTAs, T tiles per CTA and KB K blocks per tile, consumer K-loop
instructions run C*T*KB*8 times (8 consumer warps), the producer's per-stage
code C*T*KB, per-tile consumer code C*T*8, the prologue C*12 (every warp).
Two kernels compared bucket by bucket show which region the difference is in.

  python3 scripts/ncu_source_buckets.py ncu-source.csv[.xz] [--top 10] [--buckets 12]
"""
import argparse
import collections
import csv
import io
import lzma
import sys

SAMPLES = "Warp Stall Sampling (All Samples)"
EXECUTED = "Instructions Executed"


def num(text):
    try:
        return int(float(text or 0))
    except ValueError:
        return 0


def kernels(text):
    """(name, header, rows) of each kernel's section of the CSV."""
    for part in text.split('"Kernel Name",')[1:]:
        first, _, body = part.partition("\n")
        rows = list(csv.reader(io.StringIO(body)))
        if not rows:
            continue
        header = rows[0]
        yield first.strip().strip(",").strip('"'), header, \
            [r for r in rows[1:] if len(r) == len(header)]


def report(name, header, rows, top, buckets, out):
    ix = {h: i for i, h in enumerate(header)}
    if SAMPLES not in ix or EXECUTED not in ix:
        out.write("%s: no %r or %r column\n" % (name, SAMPLES, EXECUTED))
        return
    samples = [num(r[ix[SAMPLES]]) for r in rows]
    executed = [num(r[ix[EXECUTED]]) for r in rows]
    total = sum(samples) or 1
    out.write("%s: %d samples, %d instructions executed, %d SASS instructions\n"
              % (name, sum(samples), sum(executed), len(rows)))
    stalls = collections.Counter()
    for r in rows:
        for h in header:
            if h.startswith("stall_") and "Not Issued" not in h:
                stalls[h[len("stall_"):]] += num(r[ix[h]])
    out.write("  stalls: %s\n" % ", ".join("%s %.1f%%" % (k, 100.0 * v / total)
                                           for k, v in stalls.most_common(8)))
    by_count = collections.Counter()
    instr = collections.Counter()
    for s, e in zip(samples, executed):
        by_count[e] += s
        instr[e] += e
    out.write("  %10s %8s %7s %12s\n" % ("executed", "samples", "share", "instructions"))
    for e, s in by_count.most_common(buckets):
        out.write("  %10d %8d %6.1f%% %12d\n" % (e, s, 100.0 * s / total, instr[e]))
    if top:
        out.write("  top instructions:\n")
        order = sorted(range(len(rows)), key=lambda i: -samples[i])[:top]
        for i in order:
            out.write("  %6.1f%% %9d  %s\n" % (100.0 * samples[i] / total, executed[i],
                                                rows[i][ix["Source"]].strip()[:72]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=0, help="also the N instructions with most samples")
    ap.add_argument("--buckets", type=int, default=12)
    args = ap.parse_args(argv)
    opener = lzma.open if args.csv.endswith(".xz") else open  # committed logs are xz'd
    with opener(args.csv, "rt", encoding="utf-8", errors="replace") as f:
        text = f.read()
    found = False
    for name, header, rows in kernels(text):
        found = True
        report(name, header, rows, args.top, args.buckets, sys.stdout)
    if not found:
        print("no kernel sections in %s" % args.csv, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
