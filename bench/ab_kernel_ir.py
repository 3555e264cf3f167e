#!/usr/bin/env python3
"""A/B of kernel variants on the GPU, in one process: the kernel IR
dgemm-opt's dgemm-to-kernel pipeline prints for a shape, against variants
made by lowering options (dgemm-lower-to-kernel{wgmma-parts=...}) or by
editing the kernel IR text (the tile order: swizzle_group of
dgemm.schedule_tile), each launched through the runtime, checked and timed
alternately (3 rounds) with the benchmark's harness.

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/ab_kernel_ir.py 4096,7168,16384
  ... bench/ab_kernel_ir.py --parts-only --normal   # wgmma-parts 1 vs 2, 18 shapes
  ... bench/ab_kernel_ir.py --pingpong --normal      # consumer-order none vs pingpong
  ... bench/ab_kernel_ir.py --multicast 4096,7168,16384  # none vs multicast A vs B
  ... bench/ab_kernel_ir.py --handoff --normal       # consumer-order none vs handoff
  ... bench/ab_kernel_ir.py --config=block_n=176,num_sms=132 4096,7168,16384  # edited config
  ... bench/ab_kernel_ir.py "--config=block_m=256,block_n=128,stages=3;block_m=256,block_n=112,stages=3" 4096,7168,16384
  ... bench/ab_kernel_ir.py --config=num_sms=132 --tail-split 4096,4096,7168  # and tail-split=on
  ... bench/ab_kernel_ir.py "--lower=l2-hint-b=evict-first;l2-hint-a=evict-last" --normal  # the pipeline's lowering vs each option set
  ... bench/ab_kernel_ir.py --opt=/tmp/dgemm-base/dgemm/bin/dgemm-opt --rounds=7 2048,2112,1024
      # the kernel IR of DGEMM_OPT against that of other builds' dgemm-opt
      # (other commits' bundles; several separated by ","), all launched
      # through DGEMM_LIB's runtime
  ... --check-only    # each variant launched once and checked, no timing (compute-sanitizer)
  ... "--ir-sub=[@N:]REGEX=>REPLACEMENT" 4096,32768,512
      # and each variant with its kernel IR edited by a regex (every match,
      # or the N-th: bench/ir_edit.py; repeatable:
      # one more variant per edit and variant, "<variant>+sub<i>"; an edit
      # that matches nothing adds nothing); --unchecked-subs: those edits
      # may race (a barrier removed, to time what it costs), so their
      # outputs are not held to the check, only their calc_diff printed
"""
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import ab_epilogue  # noqa: E402
import ir_edit  # noqa: E402
import run_bench  # noqa: E402
import sweep  # noqa: E402


def lower(ir, parts, extra="", opt=None):
    opt = opt or sweep.DGEMM_OPT
    sel = subprocess.run([opt, "--dgemm-select-config"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    return subprocess.run([opt, "--dgemm-lower-to-kernel=wgmma-parts=%d%s" % (parts, extra)],
                          input=sel, capture_output=True, text=True, check=True).stdout


def multicast_variants(ir):
    """The selection's choice without multicast, with multicast A (the
    selection's own, when the N blocks pair up) and with multicast B (the
    config edited: neighbours along M share B)."""
    def sel(extra):
        return subprocess.run([sweep.DGEMM_OPT, "--dgemm-select-config=max-block-m=256" + extra],
                              input=ir, capture_output=True, text=True, check=True).stdout

    def low(selected):
        return subprocess.run([sweep.DGEMM_OPT, "--dgemm-lower-to-kernel=wgmma-parts=1"],
                              input=selected, capture_output=True, text=True,
                              check=True).stdout
    none = sel(" multicast=false multicast-b=false")
    out = {"default": low(none)}
    a = sel(" multicast=true multicast-b=false multicast-min-rows=0 multicast-min-k=0")
    if "multicast = a" in a:
        out["multicast=a"] = low(a)
    num = int(re.search(r"num_sms = (\d+)", none).group(1))
    b = re.sub(r"cluster = 1, multicast = none", "cluster = 2, multicast = b", none)
    b = re.sub(r"num_sms = \d+", "num_sms = %d" % (num + num % 2), b)
    try:
        out["multicast=b"] = low(b)
    except subprocess.CalledProcessError as e:  # odd M blocks, ...
        print("multicast=b not lowered: %s" % e.stderr.strip()[-200:], flush=True)
    return out


def edited_config_variants(ir, edits, extra=""):
    """The selection's config against it with fields replaced: ``edits`` is
    "block_n=176,stages=4,num_sms=132" (any #dgemm.config field), or several
    such sets separated by ";" (one variant each), where a field
    "lower.<option>" is a dgemm-lower-to-kernel option instead
    ("lower.consumer-registers=224"); ``extra`` adds dgemm-lower-to-kernel
    options to every edited one."""
    sel = subprocess.run([sweep.DGEMM_OPT, "--dgemm-select-config"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    low = lambda t, x="": subprocess.run(  # noqa: E731
        [sweep.DGEMM_OPT, "--dgemm-lower-to-kernel=wgmma-parts=1" + x],
        input=t, capture_output=True, text=True, check=True).stdout
    out = {"default": low(sel)}
    for one in edits.split(";"):
        edited, options = sweep.edit_config(sel, one)
        if edited == sel and not options and not extra:
            raise SystemExit("ab_kernel_ir: the edit %r leaves the selected config as it is:\n%s"
                             % (one, sel))
        out[one + extra] = low(edited, extra + (" " + options if options else ""))
    return out


def variants(m, n, k, parts_only=False, pingpong=False, multicast=False, handoff=False,
             edits=None, tail_split=False, lowering=None, other_opt=None):
    ir = ab_epilogue.run_bench_ir(m, n, k)
    if other_opt:
        # The same selection and lowering by two builds: what a change to
        # the lowering costs, both kernels timed in one process.
        out = {"default": lower(ir, 1)}
        for opt in other_opt.split(","):
            out["opt=" + opt] = lower(ir, 1, opt=opt)
        return out
    if lowering:
        # The pipeline's lowering (wgmma-parts=1, its default) against each
        # ';'-separated set of dgemm-lower-to-kernel options.
        out = {"pipeline": lower(ir, 1)}
        for opts in lowering.split(";"):
            out[opts] = lower(ir, 1, " " + opts)
        return out
    if edits:
        return edited_config_variants(ir, edits, " tail-split=on" if tail_split else "")
    if handoff:
        return {"default": lower(ir, 1),
                "consumer-order=handoff": lower(ir, 1, " consumer-order=handoff")}
    if multicast:
        return multicast_variants(ir)
    if pingpong:
        return {"default": lower(ir, 1),
                "consumer-order=pingpong": lower(ir, 1, " consumer-order=pingpong")}
    base = lower(ir, 2)
    out = {"default": base, "wgmma-parts=1": lower(ir, 1)}
    if parts_only:
        return out
    for g in (4, 8, 32):
        out["swizzle_group=%d" % g] = re.sub(r"swizzle_group = \d+ : i32", "swizzle_group = %d : i32" % g, base)
    return out


def main(argv):
    import torch
    dgemm = run_bench.import_dgemm()
    timer = run_bench.Timer(torch, iters=15, warmup=3)
    parts_only = "--parts-only" in argv
    pingpong = "--pingpong" in argv
    multicast = "--multicast" in argv
    handoff = "--handoff" in argv
    edits = next((a.split("=", 1)[1] for a in argv if a.startswith("--config=")), None)
    tail_split = "--tail-split" in argv
    lowering = next((a.split("=", 1)[1] for a in argv if a.startswith("--lower=")), None)
    other_opt = next((a.split("=", 1)[1] for a in argv if a.startswith("--opt=")), None)
    rounds = int(next((a.split("=", 1)[1] for a in argv if a.startswith("--rounds=")), "3"))
    check_only = "--check-only" in argv
    subs = [a.split("=", 1)[1] for a in argv if a.startswith("--ir-sub=")]
    for sub in subs:
        try:
            ir_edit.parse(sub)
        except ValueError as e:
            raise SystemExit("ab_kernel_ir: --ir-sub: %s" % e)
    unchecked_subs = "--unchecked-subs" in argv
    args = [a for a in argv if not a.startswith("--")]
    if "--normal" in argv:
        args += ["%d,%d,%d" % (s["m"], s["n"], s["k"]) for s in run_bench.read_shapes()]
    for arg in args or ["4096,7168,16384"]:
        m, n, k = map(int, arg.split(","))
        v = variants(m, n, k, parts_only, pingpong, multicast, handoff, edits, tail_split,
                     lowering, other_opt)
        unchecked = set()
        for i, sub in enumerate(subs, 1):
            for name, text in list(v.items()):
                if "+sub" in name:
                    continue
                edited, count = ir_edit.substitute(text, sub)
                if not count:
                    print("%s: --ir-sub %d matches nothing in %s" % (arg, i, name), flush=True)
                    continue
                v["%s+sub%d" % (name, i)] = edited
                if unchecked_subs:
                    unchecked.add("%s+sub%d" % (name, i))
        if check_only:
            ab_epilogue.check_variants(torch, dgemm, m, n, k, v)
            continue
        ab_epilogue.print_times(arg, m, n, k,
                                ab_epilogue.time_variants(torch, dgemm, timer, m, n, k, v, rounds,
                                                          unchecked))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
