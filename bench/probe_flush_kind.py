#!/usr/bin/env python3
#===- probe_flush_kind.py - how much of the masked gap is the flush's dirty L2 #
"""A probe for docs/kernel.md, "The drawn 4-group K 2048 case": the
benchmark flushes the L2 before each call with a 1 GiB memset (as PEERS.md
and DeepGEMM's own benchmark do), which leaves the L2 full of dirty lines.
A kernel that reads many distinct bytes evicts many of them, and each
eviction is a DRAM write. The masked layout reads each group's own B (4
times the normal GEMM's B bytes at 4 groups), so it pays more of that
write-back. This times, in one process, alternating, the masked kernel and
dgemm's normal GEMM on the same valid rows (run_grouped.py's
"normal_same_work") after four kinds of flush:

  memset   1 GiB written (the benchmark's harness): L2 left dirty
  read     1 GiB read (a sum over it): the L2 holds clean lines, nothing of
           the operands
  both     the memset, then the read: the dirty lines written back before
           the timed call, clean lines left
  none     no flush: what stays in the L2 from the last call

and, as a DRAM reference, a read of B's bytes alone (a sum over B as
int64) after the memset and after the read flush.

Each kernel is checked against the float reference first. The benchmark's
figures stay the memset's; this only says where its time goes.

  PYTHONPATH=python python3 bench/probe_flush_kind.py [--rounds 5] [--k 2048]
"""
import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run_bench as RB  # noqa: E402
import run_grouped  # noqa: E402

FLUSHES = ("memset", "read", "both", "none")


class FlushTimer(RB.Timer):
    """run_bench's Timer with the flush before each timed call chosen."""

    def __init__(self, torch, kind, buf, sink, iters=20, warmup=3):
        super().__init__(torch, iters=iters, warmup=warmup, flush_bytes=0)
        self.kind, self.buf, self.sink = kind, buf, sink

    def flush_l2(self):
        if self.kind in ("memset", "both"):
            self.buf.zero_()
        if self.kind in ("read", "both"):
            self.torch.sum(self.buf.view(self.torch.int64), dim=0, out=self.sink)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--groups", type=int, default=4)
    ap.add_argument("--k", default="2048,7168", help="the masked reference shapes' K to run")
    args = ap.parse_args(argv)
    import torch
    dgemm = RB.import_dgemm()
    print(torch.cuda.get_device_name(), flush=True)
    ks = {int(x) for x in args.k.split(",") if x}
    buf = torch.empty(1 << 30, dtype=torch.uint8, device=RB.DEVICE)
    sink = torch.empty((), dtype=torch.int64, device=RB.DEVICE)
    timers = {f: FlushTimer(torch, f, buf, sink) for f in FLUSHES}
    runs = {}
    for shape, sizes in run_grouped.reference_cases(1):
        if shape["layout"] != "masked" or shape["groups"] != args.groups or shape["k"] not in ks:
            continue
        label = "%s-%s" % (run_grouped.shape_label(shape), shape["kind"])
        case = run_grouped.Case(torch, dgemm, shape, sizes, seed=7)
        case.d.fill_(float("nan"))
        case.call()
        torch.cuda.synchronize()
        chk = case.verify()
        if not chk["ok"]:
            print("%s: check failed %s" % (label, chk), flush=True)
            return 1
        a, sa = run_grouped.same_work_lhs(torch, dgemm, case)
        d = torch.empty((case.valid_rows, case.n), dtype=torch.bfloat16, device=RB.DEVICE)
        b0, sb0 = case.b[0], case.sb[0]
        flops = 2.0 * case.valid_rows * case.n * case.k
        bsink = torch.empty((), dtype=torch.int64, device=RB.DEVICE)
        b64 = case.b.view(torch.int64).view(-1)
        runs[label] = dict(
            sizes=sizes, flops=flops, keep=(case, a, sa, d),
            fns={"masked": case.call,
                 "normal": (lambda a=a, sa=sa, b0=b0, sb0=sb0, d=d:
                            dgemm.gemm_fp8_fp8_bf16_nt((a, sa), (b0, sb0), d)),
                 "read-B": (lambda b64=b64, bsink=bsink:
                            torch.sum(b64, dim=0, out=bsink))},
            bbytes=case.b.numel())
        print("%s sizes %s: checked, B %.1f MB" % (label, sizes, case.b.numel() / 1e6), flush=True)
    times = {(lab, f, name): [] for lab, r in runs.items() for f in FLUSHES for name in r["fns"]}
    for _ in range(args.rounds):
        for lab, r in runs.items():
            for f in FLUSHES:
                for name, fn in r["fns"].items():
                    if name == "read-B" and f not in ("memset", "read"):
                        continue
                    times[(lab, f, name)].append(timers[f].time(fn)["us"])
    for lab, r in runs.items():
        print("\n%s (sizes %s)" % (lab, r["sizes"]), flush=True)
        print("%-7s %9s %9s %7s %9s %9s %7s %10s" % ("flush", "masked", "normal", "ratio",
                                                    "masked", "normal", "", "read-B"))
        print("%-7s %9s %9s %7s %9s %9s %7s %10s" % ("", "us", "us", "", "TFLOPS", "TFLOPS", "",
                                                    "us (TB/s)"))
        for f in FLUSHES:
            tm = statistics.median(times[(lab, f, "masked")])
            tn = statistics.median(times[(lab, f, "normal")])
            rb = times.get((lab, f, "read-B")) or []
            rb_cell = "-"
            if rb:
                t = statistics.median(rb)
                rb_cell = "%.1f (%.2f)" % (t, r["bbytes"] / t / 1e6)
            print("%-7s %9.1f %9.1f %7.3f %9.0f %9.0f %7s %10s"
                  % (f, tm, tn, tn / tm, r["flops"] / tm / 1e6, r["flops"] / tn / 1e6, "", rb_cell),
                  flush=True)
            print("        rounds masked %s normal %s"
                  % ("/".join("%.1f" % t for t in times[(lab, f, "masked")]),
                     "/".join("%.1f" % t for t in times[(lab, f, "normal")])), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
