#!/usr/bin/env python3
"""Checks dgemm-select-config against the config sweep (bench/sweep.py): for
each swept shape, the config the runtime selects now (dgemm.config, no GPU
needed) is looked up among the swept candidates and its measured time is
compared with the best candidate's (a shape in several files: the last
file's record counts). Prints a table and how many shapes are
within --tolerance (5%) of the best; exits 1 if fewer than --min-within, or
if a selected config was never swept (the sweep data is stale: rerun it).
A selected config's stream_b (an L2 policy, not swept), its second tile
shape (alt_*, masked layout) and a masked config's tile order (swizzle_group,
chosen by A/B runs after the sweep) are left out of the comparison, and so are drawn-size, lowering-option and fixed-grid sweeps
(bench/sweep_grouped.py --sizes drawn, --lower, --num-sms).

  PYTHONPATH=python DGEMM_LIB=build/lib/libdgemm.so scripts/check_sweep.py bench/sweep/*.jsonl
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))

import dgemm  # noqa: E402


def label(rec):
    if rec.get("layout") in ("contiguous", "masked"):
        return "%s G%d %d,%d,%d" % (rec["layout"][:4], rec["groups"], rec["m"], rec["n"], rec["k"])
    return "%d,%d,%d" % (rec["m"], rec["n"], rec["k"])


def grouped_config(rec, dgemm_opt):
    """The runtime's choice for a grouped record: dgemm-select-config with
    the runtime's capabilities on the shape's dgemm IR."""
    import re
    import subprocess
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import sweep_grouped
    shape = dict(layout=rec["layout"], groups=rec["groups"], m=rec["m"], n=rec["n"], k=rec["k"])
    r = subprocess.run([dgemm_opt, sweep_grouped.SELECT], input=sweep_grouped.grouped_ir(shape),
                       capture_output=True, text=True, check=True)
    return re.search(r"#dgemm\.config<[^>]*>", r.stdout).group(0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--tolerance", type=float, default=0.05)
    ap.add_argument("--min-within", type=int, default=0)
    ap.add_argument("--dgemm-opt", default=os.environ.get("DGEMM_OPT", "dgemm-opt"),
                    help="for grouped records (bench/sweep_grouped.py): the tool whose "
                         "dgemm-select-config gives the runtime's choice")
    args = ap.parse_args(argv)
    within = total = stale = 0
    print("%-18s %-34s %8s %-34s %8s %6s" % ("shape", "selected now", "TFLOPS", "best swept", "TFLOPS", "ratio"))
    # A shape swept again in a later file (a newer kernel, more candidates)
    # replaces its earlier record.
    # Drawn-size sweeps, sweeps with lowering options and sweeps on a fixed
    # CTA count (bench/sweep_grouped.py --sizes drawn, --lower, --num-sms)
    # measure something else than what the selection is checked on: left out.
    # Lowering options that are the lowering's defaults now (multicast-exit
    # = drain since e5fb17c) make no other kernel: such a sweep counts.
    default_lower = {"multicast-exit=drain"}

    def other_lowering(rec):
        return bool(rec.get("lower")) and not set(rec["lower"].split()) <= default_lower

    records, other = {}, 0
    for path in args.files:
        with open(path) as lines:
            for line in lines:
                rec = json.loads(line)
                if rec.get("kind") == "drawn" or other_lowering(rec) or rec.get("num_sms"):
                    other += 1
                    continue
                records[label(rec)] = rec
    if other:
        print("check_sweep: %d drawn-size, lowering-option or fixed-grid records left out"
              % other)
    for rec in records.values():
        m, n, k = rec["m"], rec["n"], rec["k"]
        grouped = rec.get("layout") in ("contiguous", "masked")
        flops = 2.0 * m * n * k * (rec["groups"] if grouped else 1)
        sel = grouped_config(rec, args.dgemm_opt) if grouped else dgemm.config(m, n, k)
        # The sweep compares tiles, stages and grids; stream_b (B's L2
        # eviction priority, chosen from the grid) is not swept: the swept
        # candidates ran without it.
        sel = sel.replace(", stream_b = true", "")
        # A masked kernel's second tile shape (alt_*) runs only for counts
        # past the expected rows; the sweep times the equal-size case, which
        # the first shape serves: compared as the first shape alone.
        sel = re.sub(r", alt_block_m = .*?>$", ">", sel)
        timed = {c["config"]: c["us"] for c in rec["candidates"] if "us" in c}
        if rec.get("layout") == "masked":
            # The masked layout's tile order (a group's M blocks first,
            # swizzle_group 1 or 2) was chosen by A/B runs after the sweep,
            # whose candidates walk groups of up to 16 N blocks: its tiles,
            # stages and grids are compared whatever the order.
            anyOrder = lambda c: re.sub(r"swizzle_group = \d+", "swizzle_group = *", c)
            timed = {anyOrder(c): us for c, us in timed.items()}
            sel = anyOrder(sel)
        if not timed:
            continue
        best = min(timed, key=timed.get)
        total += 1
        def short(c):
            mc = re.search(r"multicast = ([ab])", c)
            return c.replace("#dgemm.config<", "").split(", cluster")[0] + (
                " mc " + mc.group(1) if mc else "")
        if sel not in timed:
            stale += 1
            print("%-18s %-34s %8s  (never swept: rerun bench/sweep.py)" % (label(rec), short(sel), "-"))
            continue
        ratio = timed[best] / timed[sel]
        ok = ratio >= 1 - args.tolerance
        within += ok
        print("%-18s %-34s %8.0f %-34s %8.0f %6.3f%s" % (
            label(rec), short(sel), flops / timed[sel] / 1e6, short(best),
            flops / timed[best] / 1e6, ratio, "" if ok else "  <- more than %.0f%% off" % (100 * args.tolerance)))
    print("check_sweep: %d of %d shapes within %.0f%% of the best swept config%s" % (
        within, total, 100 * args.tolerance, ", %d never swept" % stale if stale else ""))
    return 1 if stale or within < args.min_within else 0


if __name__ == "__main__":
    sys.exit(main())
