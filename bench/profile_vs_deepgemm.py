#!/usr/bin/env python3
#===- profile_vs_deepgemm.py - one launch each of dgemm and DeepGEMM ------===#
"""Launches, for each shape, dgemm's selected kernel, each kernel-IR variant
given with --config (bench/ab_kernel_ir.py's edits) and DeepGEMM's
fp8_gemm_nt, each exactly once and checked, so that a profiler filtering on
the kernel names (Nsight Compute: -k regex:"dgemm_gemm|sm90_fp8_gemm") sees
one launch of each (scripts/device-deepgemm-profile.sh).

  python3 bench/profile_vs_deepgemm.py [--config=EDITS[;EDITS...]] M,N,K ...
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import ab_kernel_ir  # noqa: E402
import deepgemm_peer  # noqa: E402
import run_bench  # noqa: E402


def main(argv):
    import torch
    dgemm = run_bench.import_dgemm()
    dg, why = deepgemm_peer.load()
    if dg is None:
        print("profile_vs_deepgemm: DeepGEMM not importable: %s" % why, flush=True)
    edits = next((a.split("=", 1)[1] for a in argv if a.startswith("--config=")), None)
    for arg in [a for a in argv if not a.startswith("--")] or ["4096,4096,7168"]:
        m, n, k = map(int, arg.split(","))
        variants = ab_kernel_ir.variants(m, n, k, edits=edits) if edits else \
            {"default": ab_kernel_ir.lower(ab_kernel_ir.ab_epilogue.run_bench_ir(m, n, k), 1)}
        ab_kernel_ir.ab_epilogue.check_variants(torch, dgemm, m, n, k, variants)
        if dg is not None:
            inp = run_bench.make_inputs(torch, dgemm, m, n, k, seed=1)
            ref, _ = run_bench.reference(torch, dgemm, inp)
            d = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
            deepgemm_peer.normal(dg, inp["a"], inp["sfa_tma"], inp["b"], inp["sfb"], d)()
            torch.cuda.synchronize()
            print("%s DeepGEMM: calc_diff %.2g" % (arg, dgemm.calc_diff(d.float(), ref)),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
