#!/usr/bin/env python3
#===- probe_power.py - time and power of dgemm and DeepGEMM, sustained ----===#
"""Sustained runs of one contiguous case (default: 4 groups of 8192 rows, N
4096, K 7168, equal sizes) by dgemm and by DeepGEMM, in turn, while
nvidia-smi samples the board's power draw, SM clock, temperature and
throttle reasons every 100 ms: whether the benchmark's later rounds, where
dgemm slows by 8-9% and DeepGEMM does not (bench/results/2026-12-06-
8eee173-h100-deepgemm-grouped.jsonl), are the power limit acting on dgemm's
kernel. Each phase runs the call back to back for --seconds with the
harness's L2 flush before each call and CUDA events around it; per phase it
prints the median call time and the mean power, clock and temperature of
the samples inside the phase, and the throttle reasons seen.

  PYTHONPATH=python python3 bench/probe_power.py --phases dgemm,deepgemm,dgemm,deepgemm
  ... --variant stm=lower.staging-store=stmatrix --phases dgemm,stm,dgemm,stm
  ... --variant g8=swizzle_group=8

--variant NAME=EDITS adds a phase NAME: the config the runtime selects for
the case, edited by EDITS (bench/sweep.py's edit_config: `field=value` sets
a config field, `lower.option=value` a dgemm-lower-to-kernel option), lowered
by dgemm-opt (DGEMM_OPT) and launched through dgemm.launch_grouped_kernel_ir,
its output checked once before it is timed ("NAME=" is the selected kernel
itself through that path, a control).
"""
import argparse
import csv
import io
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import deepgemm_peer  # noqa: E402
import run_bench as RB  # noqa: E402
import run_grouped as RG  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--groups", type=int, default=4)
    ap.add_argument("--m", type=int, default=8192)
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--k", type=int, default=7168)
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--phases", default="dgemm,deepgemm,dgemm,deepgemm")
    ap.add_argument("--variant", action="append", default=[],
                    help="NAME=EDITS: a phase of the selected config with these "
                         "edits (sweep.edit_config's syntax)")
    args = ap.parse_args(argv)
    import torch
    dgemm = RB.import_dgemm()
    dg, why = deepgemm_peer.load()
    shape = dict(layout="contiguous", groups=args.groups, m=args.m, n=args.n, k=args.k)
    case = RG.Case(torch, dgemm, shape, [args.m] * args.groups, seed=1)
    d_dg = torch.empty_like(case.d)
    fns = {"dgemm": case.call}
    if dg is not None:
        fns["deepgemm"] = deepgemm_peer.contiguous(dg, case.a, case.sa_tma, case.b, case.sb,
                                                   d_dg, case.m_indices)
    else:
        print("probe_power: DeepGEMM not importable: %s" % why)
    for spec in args.variant:
        name, _, edits = spec.partition("=")
        fn = variant_call(dgemm, case, shape, edits)
        if fn is not None:
            fns[name] = fn
    for fn in fns.values():
        fn()
    torch.cuda.synchronize()
    flush = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
    smi = subprocess.Popen(
        ["nvidia-smi", "--query-gpu=timestamp,power.draw,clocks.sm,temperature.gpu,"
         "clocks_throttle_reasons.active", "--format=csv,noheader,nounits", "-lms", "100"],
        stdout=subprocess.PIPE, text=True)
    time.sleep(1.0)
    phases = []
    for name in args.phases.split(","):
        if name not in fns:
            continue
        fn = fns[name]
        times = []
        t0 = time.time()
        while time.time() - t0 < args.seconds:
            ev = []
            for _ in range(20):
                flush.zero_()
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record()
                fn()
                b.record()
                ev.append((a, b))
            torch.cuda.synchronize()
            times += [a.elapsed_time(b) * 1e3 for a, b in ev]
        phases.append((name, t0, time.time(), times))
    time.sleep(0.5)
    smi.terminate()
    out = smi.communicate()[0]
    samples = []
    for row in csv.reader(io.StringIO(out)):
        if len(row) < 5:
            continue
        try:
            ts = time.mktime(time.strptime(row[0].strip().split(".")[0], "%Y/%m/%d %H:%M:%S"))
            frac = float("0." + row[0].strip().split(".")[1]) if "." in row[0] else 0.0
            samples.append((ts + frac, float(row[1]), float(row[2]), float(row[3]), row[4].strip()))
        except ValueError:
            continue
    flops = 2.0 * args.groups * args.m * args.n * args.k
    print("%-9s %7s %9s %8s %8s %6s %5s  %s" % ("phase", "calls", "median us", "TFLOPS",
                                                "power W", "SM MHz", "temp", "throttle reasons"))
    for name, t0, t1, times in phases:
        inside = [s for s in samples if t0 + 0.5 <= s[0] <= t1]
        med = statistics.median(times)
        late = statistics.median(times[len(times) // 2:])
        mean = lambda i: statistics.mean(s[i] for s in inside) if inside else float("nan")  # noqa: E731
        print("%-9s %7d %9.1f %8.0f %8.1f %6.0f %5.1f  %s (second half median %.1f us)" % (
            name, len(times), med, flops / med / 1e6, mean(1), mean(2), mean(3),
            sorted({s[4] for s in inside}), late), flush=True)
    return 0


def variant_call(dgemm, case, shape, edits):
    """The call of the selected config's kernel with `edits`
    (sweep.edit_config), after one checked call; None (and a line why) when
    it does not lower or fails the check."""
    import sweep_grouped as SG
    cfg, options = SG.sweep.edit_config(SG.selected_config(shape), edits)
    r = subprocess.run([SG.sweep.DGEMM_OPT, "--dgemm-lower-to-kernel" + ("=" + options if options else "")],
               input=SG.grouped_ir(shape, cfg), capture_output=True, text=True)
    if r.returncode != 0:
        print("probe_power: variant %r does not lower: %s" % (edits, r.stderr.strip()[-300:]))
        return None
    kernel_ir = r.stdout

    def call():
        dgemm.launch_grouped_kernel_ir(kernel_ir, (case.a, case.sa_tma), (case.b, case.sb),
                                       case.d, case.m_indices)
    case.d.fill_(float("nan"))
    call()
    case.torch.cuda.synchronize()
    chk = case.verify()
    print("probe_power: variant %r: %s %s, check %s" % (
        edits, cfg, options, "ok" if chk["ok"] else "FAILED %s" % chk), flush=True)
    return call if chk["ok"] else None


if __name__ == "__main__":
    sys.exit(main())
