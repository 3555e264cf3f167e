#!/usr/bin/env python3
"""What the per-tile copy of B's scales costs (a probe, not a benchmark):
the consumers of a 128x128-B-scale kernel copy the tile's rows of B scales
from global to shared memory at each tile's start, between named barriers 1
(where present) and 2, so every tile waits for one global load. Timed in
one process, alternately, on inputs whose B scales are all 1 (so that the
edited kernels stay correct and pass the check):
  default      the kernel IR as lowered;
  no-bar1      named barrier 1 removed (the scales never change, so its
               race cannot show);
  const        the copy stores 1.0 instead of loading the scale (no global
               load on the tile's path, barriers kept);
  const-nobar  const with barriers 1 and 2 removed: what a tile would pay
               with its scales already in shared memory (the upper bound of
               what loading them with the stages could give).

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/probe_b_scale_copy.py \
      [--rounds=5] 4096,32768,512 ...
"""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import ab_epilogue  # noqa: E402
import ab_kernel_ir  # noqa: E402
import run_bench  # noqa: E402

LOAD = re.compile(r"^(\s*)(%\w+) = llvm\.load %\w+ : !llvm\.ptr<1> -> f32$", re.M)
BAR = re.compile(r"^\s*nvvm\.barrier id = %c(\d)_i32\w* number_of_threads = %\w+\n", re.M)


def copy_load(text):
    """The copy loop's global f32 load: the only f32 load from global
    memory inside an scf.for whose body also stores to shared memory at
    the B-scale offset. Exactly one such line is expected."""
    loads = LOAD.findall(text)
    if len(loads) != 1:
        raise SystemExit("probe_b_scale_copy: %d global f32 loads in the kernel IR, expected 1"
                         % len(loads))
    return LOAD.search(text)


def variants(m, n, k):
    text = ab_kernel_ir.lower(ab_epilogue.run_bench_ir(m, n, k), 1)
    out = {"default": text}
    ids = [mt.group(1) for mt in BAR.finditer(text)]
    drop = lambda t, which: BAR.sub(lambda mt: "" if mt.group(1) in which else mt.group(0), t)  # noqa: E731
    if "1" in ids:
        out["no-bar1"] = drop(text, "1")
    ld = copy_load(text)
    const = text[:ld.start()] + "%s%s = arith.constant 1.000000e+00 : f32" % (
        ld.group(1), ld.group(2)) + text[ld.end():]
    out["const"] = const
    out["const-nobar"] = drop(const, "12")
    return out


def main(argv):
    import torch
    dgemm = run_bench.import_dgemm()
    timer = run_bench.Timer(torch, iters=20, warmup=3)
    rounds = int(next((a.split("=", 1)[1] for a in argv if a.startswith("--rounds=")), "5"))
    for arg in [a for a in argv if not a.startswith("--")]:
        m, n, k = map(int, arg.split(","))
        v = variants(m, n, k)
        inp = run_bench.make_inputs(torch, dgemm, m, n, k, seed=1)
        inp["sfb"].fill_(1.0)
        ref, rms = run_bench.reference(torch, dgemm, inp)
        d = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")
        lhs, rhs = (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"])
        times = {name: [] for name in v}
        for _ in range(rounds):
            for name, text in v.items():
                d.fill_(float("nan"))
                dgemm.launch_kernel_ir(text, lhs, rhs, d)
                chk = run_bench.check_output(torch, dgemm, d, ref, rms)
                if chk["bad"] or chk["calc_diff"] >= 1e-3:
                    raise SystemExit("%s %s failed its check: %s" % (arg, name, chk))
                times[name].append(timer.time(lambda: dgemm.launch_kernel_ir(text, lhs, rhs, d))["us"])
        ab_epilogue.print_times(arg, m, n, k, times)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
