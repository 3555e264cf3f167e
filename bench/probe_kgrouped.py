#!/usr/bin/env python3
#===- probe_kgrouped.py - where the k-grouped GEMM's time goes ------------===#
"""Times the k-grouped weight-gradient GEMM on one (M, N) with the same
total K split into 1, 2, 4 and 8 groups (equal and drawn sizes) beside the
weight-gradient GEMM with K = the total, alternately (3 rounds, the
benchmark's harness), so that the cost of a group (its own f32 D read and
written, its tiles' epilogues) shows apart from the kernel's machinery
(G = 1). Each case is checked once against run_wgrad.py's reference.

  PYTHONPATH=python python3 bench/probe_kgrouped.py [M,N ...] [--once] [--power]
      [--cases G1,G2,...] [--out F]

--once: no checks, each case launched once, in order (for Nsight Compute:
the first six dgemm kernels of the process; one M,N).
--power: each case also run back to back for about 3 s (L2 flushed before
each call, as the harness does) while nvidia-smi samples the SM clock, the
power draw and the throttle reasons every 50 ms: the median call time, clock
and power of each burst, and TFLOPS per GHz of clock, which tells a kernel
that is slower per cycle from one that runs at a lower clock under the
power cap.
--cases: only the named cases (names as in cases(), "G4 equal" as G4_equal),
the weight-gradient GEMM always.
Output: one JSON line per case (median of the rounds' medians), also
written to F with --out; exit status 1 if a check failed.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run_bench as RB  # noqa: E402
import run_wgrad as RW  # noqa: E402


def cases():
    return [("G1", [16128]), ("G2", [8064, 8064]), ("G4 equal", [4096, 4096, 3968, 3968]),
            ("G4 drawn", [4736, 2816, 3968, 4608]),
            ("G8 equal", [2048] * 6 + [1920] * 2)]


def main(argv):
    import torch
    dgemm = RB.import_dgemm()
    once = "--once" in argv
    power = "--power" in argv
    out = None
    if "--out" in argv:
        out = open(argv[argv.index("--out") + 1], "w")
        del argv[argv.index("--out"):argv.index("--out") + 2]
    only = None
    if "--cases" in argv:
        only = set(argv[argv.index("--cases") + 1].replace("_", " ").split(","))
        del argv[argv.index("--cases"):argv.index("--cases") + 2]
    shapes = [a for a in argv if not a.startswith("--")] or ["4096,7168"]
    bad = 0
    for shape in shapes:
        m, n = (int(x) for x in shape.split(","))
        bad += probe(torch, dgemm, m, n, once, out, power, only)
        torch.cuda.empty_cache()
    return 1 if bad else 0


def power_burst(torch, timer, fn, seconds=3.0):
    """Calls fn back to back (L2 flushed before each) for about ``seconds``
    while nvidia-smi samples the GPU; returns the median call time and the
    medians of the samples taken in the burst's second half (the clock has
    settled by then)."""
    import statistics
    import subprocess
    import time
    smi = subprocess.Popen(
        ["nvidia-smi", "--query-gpu=clocks.sm,power.draw,clocks_throttle_reasons.active",
         "--format=csv,noheader,nounits", "-lms", "50"],
        stdout=subprocess.PIPE, text=True)
    t_end = time.monotonic() + seconds
    ts = []
    while time.monotonic() < t_end:
        evs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
               for _ in range(10)]
        for a, b in evs:
            if timer.flush is not None:
                timer.flush.zero_()
            a.record()
            fn()
            b.record()
        torch.cuda.synchronize()
        ts += [a.elapsed_time(b) * 1e3 for a, b in evs]
    smi.terminate()
    lines = smi.communicate()[0].strip().splitlines()
    samples = []
    for line in lines[len(lines) // 2:]:
        parts = [x.strip() for x in line.split(",")]
        try:
            samples.append((float(parts[0]), float(parts[1]), parts[2]))
        except (ValueError, IndexError):
            continue
    return dict(us=statistics.median(ts), calls=len(ts),
                mhz=statistics.median(x[0] for x in samples) if samples else None,
                watts=statistics.median(x[1] for x in samples) if samples else None,
                throttle=sorted({x[2] for x in samples}), samples=len(samples))


def probe(torch, dgemm, m, n, once, out, power=False, only=None):
    total = 16128
    calls, bad = {}, 0
    emit = RB.json_emitter(out)
    for name, ks in cases():
        assert sum(ks) == total, name
        if only is not None and name not in only:
            continue
        if once:  # no checking launches before the ones to profile
            inp, _ = RW.make_kgrouped_inputs(torch, dgemm, m, n, ks, seed=7)
            rec = dict(ok=True)
        else:
            rec, inp = RW.check_kgrouped(torch, dgemm, m, n, ks, seed=7)
        if not rec["ok"]:
            bad += 1
            emit(dict(rec, case=name))
        d = inp["d0"].clone()
        lhs, rhs = (inp["a"], inp["sa"]), (inp["b"], inp["sb"])
        calls[name] = (lambda lhs=lhs, rhs=rhs, d=d, ks=ks:
                       dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, d, ks), inp, d)
    w = RW.make_wgrad_inputs(torch, dgemm, m, n, total, seed=7)
    calls["wgrad"] = (lambda: dgemm.wgrad_gemm_fp8_fp8_fp32_nt((w["a"], w["sa"]),
                                                               (w["b"], w["sb"]), w["d0"]), w, None)
    if once:
        for name, (fn, _, _) in calls.items():
            print("once", name, flush=True)
            fn()
            torch.cuda.synchronize()
        return bad
    for fn, _, _ in calls.values():
        fn()
    torch.cuda.synchronize()
    timer = RB.Timer(torch)
    times = {name: [] for name in calls}
    for _ in range(3):
        for name, (fn, _, _) in calls.items():
            times[name].append(timer.time(fn)["us"])
    ks_of = dict(cases())
    for name, ts in times.items():
        us = sorted(ts)[1]
        g = len(ks_of.get(name, [total]))
        # f32 D bytes read and written: once per group.
        d_gb = 2 * 4 * m * n * g / 1e9
        rec = dict(m=m, n=n, k=total, case=name, groups=g, us=us,
                   tflops=RB.tflops(m, n, total, us), d_gb=d_gb, rounds=ts)
        if power:
            b = power_burst(torch, timer, calls[name][0])
            b["tflops"] = RB.tflops(m, n, total, b["us"])
            if b["mhz"]:
                b["tflops_per_ghz"] = b["tflops"] / (b["mhz"] / 1e3)
            rec["burst"] = b
        emit(rec)
    del calls, w
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
