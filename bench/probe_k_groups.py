#!/usr/bin/env python3
"""Which group counts of the k-grouped GEMM the driver loads and launches.

The kernel takes its group table by value (8 bytes per group plus two
template maps), so the kernel parameters grow with G; this finds, on the
device, the largest G whose kernel the driver accepts, for small M and N
(k_g = 128 for every group). One JSON line per G: ok, or the error text.

  python3 bench/probe_k_groups.py 3800 3900 3950 4000
"""
import json
import sys


def main(argv):
    import torch
    import dgemm
    m, n = 32, 16
    for g in [int(x) for x in argv]:
        ks = [128] * g
        a = torch.zeros(m * 128 * g, dtype=torch.float8_e4m3fn, device="cuda")
        b = torch.zeros(n * 128 * g, dtype=torch.float8_e4m3fn, device="cuda")
        sa = torch.ones((g, m), dtype=torch.float32, device="cuda")
        sb = torch.ones((g, n), dtype=torch.float32, device="cuda")
        d = torch.zeros((g, m, n), dtype=torch.float32, device="cuda")
        rec = dict(groups=g, param_bytes=(256 + 8 * g + 127) // 128 * 128 + 3 * 128 + 3 * 8)
        try:
            dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt((a, sa), (b, sb), d, ks)
            torch.cuda.synchronize()
            rec["ok"] = True
        except Exception as e:  # noqa: BLE001
            rec["ok"] = False
            rec["error"] = str(e)[-300:]
        print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
