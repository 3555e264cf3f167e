#!/usr/bin/env python3
"""Is a kernel's output the same on every launch? Each kernel-IR variant of
bench/ab_kernel_ir.py (the selected config, and the config edits given)
launched R times on one set of inputs (run_bench's), each output put
through run_bench's strict check and compared bit for bit with that
variant's first output and with the first variant's. A kernel without
split-K or atomics writes the same bits every time; a difference between
launches points at a race (or at a tool that changes what the kernel
does, when run under compute-sanitizer).

  DGEMM_OPT=... PYTHONPATH=python python3 bench/probe_repeat_check.py \
      [--repeats=R] [--config=a_box_rows=88] 81,25552,14208 ...

One line per launch; exit status 1 if any launch failed its check or
differed from the variant's first output.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import ab_kernel_ir  # noqa: E402
import run_bench  # noqa: E402


def describe_difference(torch, d, first):
    """'same bits', or how many elements differ and where."""
    diff = d.view(torch.int16) != first.view(torch.int16)
    count = int(diff.sum())
    if not count:
        return "same bits"
    rows = diff.any(dim=1).nonzero().flatten()
    cols = diff.any(dim=0).nonzero().flatten()
    delta = (d.float() - first.float()).abs()
    return ("%d elements differ (rows %d-%d, %d rows; cols %d-%d; max |delta| %.3g)"
            % (count, int(rows[0]), int(rows[-1]), rows.numel(), int(cols[0]), int(cols[-1]),
               float(delta.max())))


def main(argv):
    import torch
    dgemm = run_bench.import_dgemm()
    repeats = int(next((a.split("=", 1)[1] for a in argv if a.startswith("--repeats=")), "5"))
    edits = next((a.split("=", 1)[1] for a in argv if a.startswith("--config=")), None)
    failed = False
    for arg in [a for a in argv if not a.startswith("--")]:
        m, n, k = map(int, arg.split(","))
        variants = ab_kernel_ir.variants(m, n, k, edits=edits) if edits else \
            {"default": ab_kernel_ir.lower(ab_kernel_ir.ab_epilogue.run_bench_ir(m, n, k), 1)}
        inp = run_bench.make_inputs(torch, dgemm, m, n, k, seed=1)
        ref, rms = run_bench.reference(torch, dgemm, inp)
        lhs, rhs = (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"])
        d = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")
        very_first = None
        for name, text in variants.items():
            first = None
            for r in range(repeats):
                d.fill_(float("nan"))
                dgemm.launch_kernel_ir(text, lhs, rhs, d)
                torch.cuda.synchronize()
                c = run_bench.check_output(torch, dgemm, d, ref, rms)
                if first is None:
                    first = d.clone()
                    same = "first launch"
                else:
                    same = describe_difference(torch, d, first)
                    failed |= same != "same bits"
                failed |= not c["ok"]
                print("%s %s launch %d: %s (calc_diff %.2g, bad %d%s); %s"
                      % (arg, name, r, "ok" if c["ok"] else "FAILED", c["calc_diff"], c["bad"],
                         ", first bad %s, rows %s" % (c["first_bad"], c["bad_rows"])
                         if c["bad"] else "", same), flush=True)
            if very_first is None:
                very_first = first
            else:
                print("%s %s against the first variant: %s"
                      % (arg, name, describe_difference(torch, first, very_first)), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
