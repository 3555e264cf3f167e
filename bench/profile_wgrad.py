#!/usr/bin/env python3
#===- profile_wgrad.py - one weight-gradient and one normal GEMM, for ncu -===#
"""Runs one wgrad_gemm_fp8_fp8_fp32_nt call and then one gemm_fp8_fp8_bf16_nt
call of the same M, N, K (compiled beforehand), for Nsight Compute:

  ncu -k regex:dgemm_gemm -c 2 ... python3 bench/profile_wgrad.py 4096,7168,8192
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_bench as RB  # noqa: E402
import run_wgrad as RW  # noqa: E402


def main(argv):
    import torch
    dgemm = RB.import_dgemm()
    m, n, k = (int(x) for x in (argv[0] if argv else "4096,7168,8192").split(","))
    w = RW.make_wgrad_inputs(torch, dgemm, m, n, k, seed=1)
    x = RB.make_inputs(torch, dgemm, m, n, k, seed=1)
    out = torch.empty((m, n), dtype=torch.bfloat16, device=RB.DEVICE)
    for name, kind in (("wgrad", "wgrad_fp8_f32_nt"), ("normal", "gemm_fp8_bf16_nt")):
        print(name, kind, flush=True)
    dgemm.wgrad_gemm_fp8_fp8_fp32_nt((w["a"], w["sa"]), (w["b"], w["sb"]), w["d0"])
    dgemm.gemm_fp8_fp8_bf16_nt((x["a"], x["sfa_tma"]), (x["b"], x["sfb"]), out)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main(sys.argv[1:])
