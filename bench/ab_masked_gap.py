#!/usr/bin/env python3
#===- ab_masked_gap.py - where the masked layout's gap comes from ---------===#
"""Why is the masked layout slower than the normal GEMM on the same work? For
each masked shape of bench/shapes.csv (equal groups of m rows; those with
K = 2048 unless --all), three kernels with the same #dgemm.config (the one
dgemm-select-config picks for the masked shape) are timed alternately in one
process with the benchmark's harness, each checked first:

  grouped      G groups of m rows, N, K: the selection's grouped kernel
  normal       M = G*m, N, K: the same work, B read once from DRAM
  normal-wide  M = m, N = G*N, K: the same tiles and the same B bytes as the
               masked kernel (each tile reads its own B rows), no group walk

If normal-wide is as slow as masked, the gap comes from the B bytes; if it is
as fast as normal, from the masked kernel itself (its walk, its stores).

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/ab_masked_gap.py [--all] [--ir-dir DIR]
      [--lower 'epilogue-swizzle=on;consumer-registers=224']   # each variant also with these lowering options
      [--edit 'stages=2']   # and with its config edited
      [--only G4-m256]      # only these shapes

--layout contiguous does the same for the contiguous shapes (grouped and
normal only), e.g. with --lower to try lowering options on them.

--drawn gives the grouped kernel run_grouped.py's drawn group sizes (m x
U(0.7, 1.3), seed 1: the sizes of the benchmark's "drawn" rows) and the
normal GEMM their sum of rows (no normal-wide); --sizes 224,183,256,256
gives it those.

--ir-sub '[@N:]REGEX=>REPLACEMENT' adds the grouped kernel with its kernel
IR edited by a regex, every match or only the N-th (e.g. a one-group count
made a constant again); repeatable. An --ir-sub starting with '+' edits the
previous one's variant further (several edits, one variant); when an edit
matches nothing its variant is dropped.

--control adds the grouped kernel a second time (grouped+control), to
see the spread between variants that differ in nothing.

--profile launches each variant once (checked), for Nsight Compute.
--ir-dir writes each variant's kernel IR (<shape>-<variant>.mlir), for
SASS comparisons (dgemm-opt --dgemm-kernel-to-ptx --dgemm-dump-ptx, ptxas,
cuobjdump -sass).
"""
import argparse
import copy
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ir_edit  # noqa: E402
import run_bench  # noqa: E402
import run_grouped  # noqa: E402
import sweep  # noqa: E402
import sweep_grouped  # noqa: E402


# The --edit that leaves a two-shape masked config its first shape alone.
ONE_SHAPE = "alt_block_m=-,alt_block_n=-,alt_stages=-,alt_num_sms=-"


def lower(text, options=""):
    return subprocess.run([sweep.DGEMM_OPT, "--dgemm-lower-to-kernel" +
                           ("=" + options if options else "")], input=text,
                          capture_output=True, text=True, check=True).stdout


def normal_ir(m, n, k, config):
    del m  # the kernel takes M at run time
    return sweep.GEMM_IR.format(n=n, k=k, kb=k // 128, nb=sweep.ceil_div(n, 128), config=config)


class Normal:
    """A normal GEMM's inputs, reference and kernel-IR call."""

    def __init__(self, torch, dgemm, m, n, k, kernel_ir, seed):
        self.torch, self.dgemm, self.ir = torch, dgemm, kernel_ir
        inp = run_bench.make_inputs(torch, dgemm, m, n, k, seed=seed)
        self.ref, _ = run_bench.reference(torch, dgemm, inp)
        self.lhs, self.rhs = (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"])
        self.d = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")
        self.flops = 2.0 * m * n * k

    def with_ir(self, kernel_ir):
        other = copy.copy(self)
        other.ir = kernel_ir
        return other

    def call(self):
        self.dgemm.launch_kernel_ir(self.ir, self.lhs, self.rhs, self.d)

    def check(self):
        self.d.fill_(float("nan"))
        self.call()
        self.torch.cuda.synchronize()
        diff = self.dgemm.calc_diff(self.d.float(), self.ref)
        if not diff < 1e-3:
            raise AssertionError("check failed: calc_diff %g" % diff)


class Grouped:
    """An m-grouped GEMM's inputs (run_grouped.Case) and kernel-IR call, either
    layout."""

    def __init__(self, torch, dgemm, shape, kernel_ir, seed, sizes=None):
        self.torch, self.dgemm, self.ir = torch, dgemm, kernel_ir
        g, m = shape["groups"], shape["m"]
        sizes = sizes or [m] * g
        self.case = run_grouped.Case(torch, dgemm, shape, sizes, seed=seed)
        self.contiguous = shape["layout"] == "contiguous"
        self.flops = 2.0 * sum(sizes) * shape["n"] * shape["k"]

    def with_ir(self, kernel_ir):
        other = copy.copy(self)
        other.ir = kernel_ir
        return other

    def call(self):
        c = self.case
        groups = c.m_indices if self.contiguous else c.masked_m
        self.dgemm.launch_grouped_kernel_ir(self.ir, (c.a, c.sa_tma), (c.b, c.sb), c.d, groups)

    def check(self):
        self.case.d.fill_(float("nan"))
        self.call()
        self.torch.cuda.synchronize()
        chk = self.case.verify()
        if not chk["ok"]:
            raise AssertionError("check failed: %s" % chk)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--all", action="store_true", help="every masked shape, not only K = 2048")
    ap.add_argument("--layout", choices=("masked", "contiguous"), default="masked",
                    help="the contiguous layout's shapes instead (no normal-wide)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--ir-dir", type=Path)
    ap.add_argument("--lower", default="",
                    help="also each variant lowered with these dgemm-lower-to-kernel "
                         "options, sets separated by ';' (e.g. 'epilogue-swizzle=on;consumer-registers=224')")
    ap.add_argument("--edit", default="",
                    help="also each variant with its #dgemm.config edited, sets separated "
                         "by ';' (e.g. 'stages=2;block_n=112,num_sms=128'); a field "
                         "lower.<option>=<value> lowers with that dgemm-lower-to-kernel "
                         "option ('num_sms=132,lower.masked-walk=cost')")
    ap.add_argument("--only", default="",
                    help="only the shapes whose label (G4-m256-n7168-k2048) contains this")
    ap.add_argument("--ir-sub", action="append", default=[],
                    help="also the grouped kernel with its kernel IR edited: a Python regex "
                         "and its replacement separated by '=>' (variant grouped+ir-sub); "
                         "'@N:' in front edits only the N-th match (from 0; variant "
                         "grouped+ir-sub@N); may be given several times")
    ap.add_argument("--drawn", action="store_true",
                    help="the grouped kernel with the benchmark's drawn group sizes")
    ap.add_argument("--sizes", default="",
                    help="the grouped kernel with these group sizes (comma-separated, one "
                         "per group; M_max follows the largest, as for --drawn) and the "
                         "normal GEMM their sum")
    ap.add_argument("--control", action="store_true",
                    help="also the grouped kernel again as variant grouped+control (the "
                         "spread between two copies of one kernel in the same rounds)")
    ap.add_argument("--profile", action="store_true",
                    help="launch and check each variant once, no timing (under ncu)")
    args = ap.parse_args(argv)
    trace = bool(os.environ.get("AB_TRACE"))  # print each variant before timing it
    import torch
    dgemm = run_bench.import_dgemm()
    timer = run_bench.Timer(torch, iters=15, warmup=3)
    # The benchmark's drawn sizes (its default seed, 1).
    drawn = {(s["layout"], s["groups"], s["m"], s["n"], s["k"]): sizes
             for s, sizes in run_grouped.reference_cases(1) if s["kind"] == "drawn"}
    shapes = [s for s in run_grouped.read_grouped_shapes()
              if s["layout"] == args.layout and (args.all or s["k"] == 2048)]
    for i, shape in enumerate(shapes):
        g, m, n, k = shape["groups"], shape["m"], shape["n"], shape["k"]
        config = sweep_grouped.selected_config(shape)
        label = run_grouped.shape_label(shape)
        sizes = drawn[(args.layout, g, m, n, k)] if args.drawn else [m] * g
        if args.drawn:
            label += "-drawn"
        if args.only not in label:
            continue
        if args.sizes:
            sizes = [int(v) for v in args.sizes.split(",")]
            if len(sizes) != g or min(sizes) < 0:
                print("%s: --sizes needs %d sizes, none negative" % (label, g))
                return 2
            label += "-sizes" + "_".join(map(str, sizes))
        def sources_for(cfg):
            # The normal GEMM on the same work has G M blocks: the selection
            # would not stream its B (stream_b), whatever the masked kernel
            # does. A masked config's second tile shape (alt_*) is the masked
            # layout's only: the normal GEMMs take its first shape.
            first = sweep.edit_config(cfg, ONE_SHAPE)[0]
            out = {"grouped": sweep_grouped.grouped_ir(shape, cfg),
                   "normal": normal_ir(sum(sizes), n, k, first.replace(", stream_b = true", ""))}
            if g > 1 and not args.drawn and not args.sizes and args.layout == "masked":
                out["normal-wide"] = normal_ir(m, g * n, k, first)
            return out
        sources = sources_for(config)
        option_sets = [""] + ([] if args.profile else [o for o in args.lower.split(";") if o])
        irs = {name + ("+" + o if o else ""): lower(text, o)
               for o in option_sets for name, text in sources.items()}
        # Options that leave a kernel as it was (the masked layout's, on the
        # normal GEMM) are not timed twice.
        irs = {name: ir for name, ir in irs.items()
               if "+" not in name or ir != irs[name.split("+")[0]]}
        for edit in [e for e in args.edit.split(";") if e]:  # also under --profile
            edited, options = sweep.edit_config(config, edit)
            for name, text in sources_for(edited).items():
                ir = lower(text, options)
                if ir != irs[name]:  # an edit the kernel does not see is not timed twice
                    irs[name + "+" + edit] = ir
        # Each --ir-sub starts a variant; one starting with '+' adds an edit
        # to the variant before it.
        chains = []
        for sub in args.ir_sub:
            if sub.startswith("+"):
                if not chains:
                    print("%s: '+' --ir-sub with no variant before it" % label)
                    return 2
                chains[-1].append(sub[1:])
            else:
                chains.append([sub])
        for chain in chains:  # also under --profile: a variant to compare
            name, text = "grouped+ir-sub", irs["grouped"]
            for sub in chain:
                which = ir_edit.parse(sub)[2]
                if which is not None:
                    name += "@%d" % which
                text, count = ir_edit.substitute(text, sub)
                print("%s %s: %d replacements" % (label, name, count), flush=True)
                if not count:
                    text = None
                    break
            if text is not None:
                irs[name] = text
        if args.control and not args.profile:
            irs["grouped+control"] = irs["grouped"]
        if args.ir_dir:
            args.ir_dir.mkdir(parents=True, exist_ok=True)
            for name, text in irs.items():
                safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
                (args.ir_dir / ("%s-%s.mlir" % (label, safe))).write_text(text)
        base = {"grouped": Grouped(torch, dgemm, shape, irs["grouped"], seed=31 + i, sizes=sizes),
                "normal": Normal(torch, dgemm, sum(sizes), n, k, irs["normal"], seed=41 + i)}
        if "normal-wide" in irs:
            base["normal-wide"] = Normal(torch, dgemm, m, g * n, k, irs["normal-wide"], seed=51 + i)
        runs = {}
        for name, text in irs.items():  # the variants share their base's inputs
            r = base[name.split("+")[0]]
            runs[name] = r if name in base else r.with_ir(text)
        if args.profile:
            for name, r in runs.items():
                r.check()
                print("%s %s checked" % (label, name), flush=True)
            continue
        times = {name: [] for name in runs}
        for _ in range(args.rounds):
            for name, r in runs.items():
                r.check()
                if trace:
                    print("timing %s" % name, flush=True)
                times[name].append(timer.time(r.call)["us"])
        print("%s config %s sizes %s" % (label, run_bench.short_config(config), sizes), flush=True)
        for name, ts in times.items():
            flops = runs[name].flops
            print("%s %-24s %5.0f TFLOPS %6.1f us (rounds %s)"
                  % (label, name, flops / min(ts) / 1e6, min(ts),
                     "/".join("%.0f" % (flops / t / 1e6) for t in ts)), flush=True)
        del runs
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
