#!/usr/bin/env python3
#===- check_multicast_default.py - the runtime's multicast kernels, checked -===#
"""Launches, once each, kernels the runtime chooses with 2-CTA multicast
(kernelCapabilities: 8192 rows or more at K >= 2048, the drained exit) and
checks them: normal GEMMs with B multicast (128x192) and A multicast
(128x192 and 256x128, a partial last M block), one with a bias, and contiguous layouts
(B multicast on pairs of M blocks) with padding rows, skipped -1 blocks,
an empty group and a one-row group: pairs of one group, of two groups,
with one -1 block and with one block past M (the offsets form compared
bit for bit; their configs: DGEMM_PRINT_CONFIGS=1).
Each output is poisoned first and
checked against the float reference (run_bench.check_output /
run_grouped.Case.verify, which also checks untouched rows); the config is
printed and must be a 2-CTA one. Small enough to run under
compute-sanitizer:

  PYTHONPATH=python python3 bench/check_multicast_default.py
  compute-sanitizer --tool racecheck python3 bench/check_multicast_default.py --subset
  ... --contiguous      # the contiguous cases only
Exits 1 when a check fails or a case is not multicast.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_bench as RB  # noqa: E402
import run_bias  # noqa: E402
import run_grouped as RG  # noqa: E402

# (M, N, K): 128x192 B multicast; the same with 3 N blocks on 96 CTAs;
# 128x192 A multicast (65 M blocks, the last partial: B cannot pair them);
# 256x128 A multicast with 33 M blocks.
NORMAL = [(8192, 768, 2048), (8192, 576, 2048), (8320, 768, 2048), (8320, 1024, 2048)]
BIAS = [(8192, 768, 2048)]
# Contiguous: (N, K, group sizes, skipped blocks between groups).
CONTIGUOUS = [(768, 2048, [4000, 4100, 130, 0, 1], True),
              (1152, 2048, [8192, 1], False)]


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--subset", action="store_true",
                    help="only B at 128x192, A at 256x128 and the contiguous case with "
                         "skipped blocks (for racecheck, which takes about a minute a case)")
    ap.add_argument("--contiguous", action="store_true",
                    help="only the contiguous cases (with --subset: the first)")
    args = ap.parse_args(argv)
    normal, bias, contiguous = NORMAL, BIAS, CONTIGUOUS
    if args.subset:
        normal, bias, contiguous = [NORMAL[0], NORMAL[3]], [], CONTIGUOUS[:1]
    if args.contiguous:
        normal, bias = [], []
    import torch
    dgemm = RB.import_dgemm()
    bad = 0
    for i, (m, n, k) in enumerate(normal):
        cfg = dgemm.config(m, n, k)
        inp = RB.make_inputs(torch, dgemm, m, n, k, seed=i)
        ref, rms = RB.reference(torch, dgemm, inp)
        out = RB.GuardedOutput(torch, m, n, seed=i)
        out.poison()
        dgemm.gemm_fp8_fp8_bf16_nt((inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"]), out.d)
        torch.cuda.synchronize()
        chk = RB.check_output(torch, dgemm, out.d, ref, rms)
        ok = chk["ok"] and out.guards_intact() and "cluster = 2" in cfg
        bad += not ok
        print("normal     %d,%d,%d %s: %s (calc_diff %.1e) %s" % (
            m, n, k, "checked" if ok else "FAILED", RB.short_config(cfg),
            chk.get("calc_diff", float("nan")), "" if ok else chk), flush=True)
        del inp, ref, out
    bias_args = type("Args", (), {"seed": 1})()
    for i, (m, n, k) in enumerate(bias):
        rec, _, _ = run_bias.check_case(torch, dgemm, dict(m=m, n=n, k=k), i, bias_args)
        ok = rec["check"]["ok"] and "cluster = 2" in rec["config"]
        bad += not ok
        print("bias       %d,%d,%d %s: %s" % (m, n, k, "checked" if ok else "FAILED",
                                               RB.short_config(rec["config"])), flush=True)
    for i, (n, k, sizes, skip) in enumerate(contiguous):
        shape = dict(layout="contiguous", groups=len(sizes), m=max(sizes), n=n, k=k)
        case = RG.Case(torch, dgemm, shape, sizes, seed=50 + i, skip_blocks=skip)
        chk = case.check()
        same = case.offsets_match()
        ok = chk["ok"] and same is not False
        bad += not ok
        print("contiguous n=%d k=%d sizes=%s rows=%d %s (offsets form %s; %d untouched rows) %s" % (
            n, k, sizes, case.m_rows, "checked" if ok else "FAILED",
            {True: "equal", None: "n/a"}.get(same, "DIFFERS"), chk["untouched_rows"],
            "" if ok else chk), flush=True)
        del case
    print("check_multicast_default: %d failed" % bad, flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
