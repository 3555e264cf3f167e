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

With --opcodes UNITS, also one table for all kernels: the opcode mix of each
kernel's hot loop (the instructions executed at least 1/LOOP_RATIO as often
as its most executed one), instructions per unit (UNITS: e.g. tiles * K
blocks * 8 consumer warps, to read per K block a warp) and the loop's
samples per opcode (the instruction's guard predicate and modifiers
dropped: FFMA, QGMMA, BRA, ...).

  python3 scripts/ncu_source_buckets.py ncu-source.csv[.xz] [--top 10] [--buckets 12]
      [--opcodes UNITS [--loop-ratio 2.5]]
"""
import re
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


def opcode(source):
    """The opcode of a SASS line: no guard predicate, no modifiers."""
    text = re.sub(r"^@!?U?P\w+\s+", "", source.strip())
    return text.split()[0].split(".")[0] if text else "?"


def loop_mix(header, rows, ratio):
    """(instructions, samples) per opcode over the instructions executed at
    least 1/ratio as often as the most executed one."""
    ix = {h: i for i, h in enumerate(header)}
    executed = [num(r[ix[EXECUTED]]) for r in rows]
    floor = max(executed or [0]) / ratio
    count, samples = collections.Counter(), collections.Counter()
    for r, e in zip(rows, executed):
        if e and e >= floor:
            op = opcode(r[ix["Source"]])
            count[op] += e
            samples[op] += num(r[ix[SAMPLES]])
    return count, samples


def opcode_table(sections, units, ratio, out):
    mixes = [(name, loop_mix(header, rows, ratio)) for name, header, rows in sections
             if SAMPLES in header and EXECUTED in header]
    if not mixes:
        return
    out.write("hot-loop opcodes, instructions per unit (%d) and share of the loop's "
              "samples:\n" % units)
    for i, (name, (count, samples)) in enumerate(mixes):
        out.write("  [%d] %s: %.1f per unit, %d samples\n"
                  % (i, name[:90], sum(count.values()) / units, sum(samples.values())))
    ops = sorted({op for _, (c, _) in mixes for op in c},
                 key=lambda op: -sum(c[op] for _, (c, _) in mixes))
    out.write("  %-12s" % "opcode" + "".join("  %9s %6s" % ("[%d]" % i, "smp")
                                             for i in range(len(mixes))) + "\n")
    for op in ops:
        out.write("  %-12s" % op + "".join(
            "  %9.2f %5.1f%%" % (c[op] / units, 100.0 * s[op] / (sum(s.values()) or 1))
            for _, (c, s) in mixes) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=0, help="also the N instructions with most samples")
    ap.add_argument("--buckets", type=int, default=12)
    ap.add_argument("--opcodes", type=int, default=0, metavar="UNITS",
                    help="also the hot loops' opcode mix, per UNITS")
    ap.add_argument("--loop-ratio", type=float, default=2.5)
    args = ap.parse_args(argv)
    opener = lzma.open if args.csv.endswith(".xz") else open  # committed logs are xz'd
    with opener(args.csv, "rt", encoding="utf-8", errors="replace") as f:
        text = f.read()
    sections = list(kernels(text))
    for name, header, rows in sections:
        report(name, header, rows, args.top, args.buckets, sys.stdout)
    if not sections:
        print("no kernel sections in %s" % args.csv, file=sys.stderr)
        return 1
    if args.opcodes > 0:
        opcode_table(sections, args.opcodes, args.loop_ratio, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
