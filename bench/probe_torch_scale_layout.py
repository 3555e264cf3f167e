#!/usr/bin/env python3
"""Probe: does torch._scaled_mm's blockwise path (the peer of run_bench.py)
read its scale tensors correctly when their leading dimension is not a
multiple of 4 elements (16 bytes)?

run_bench.py passes scale_a as [M, K/128] with strides (1, M) and scale_b as
sfb.t(), [K/128, ceil(N/128)] with strides (1, K/128). In the run of 831aa6f
every random shape torch accepted with K/128 not a multiple of 4 failed the
check from column 128 on, and every shape with M not a multiple of 4 was
refused (CUBLAS_STATUS_NOT_SUPPORTED). This runs, per shape, torch with
those views and with the same scales in buffers whose leading dimension is
rounded up to a multiple of 4 (the views' strides say so), and checks each
output against the float64 reference of run_bench.py.

Usage (GPU machine): python3 bench/probe_torch_scale_layout.py [MxNxK ...]
Prints one line per (shape, layout) and a JSON line per result.
"""
import json
import sys

from run_bench import DEVICE, check_output, import_dgemm, make_inputs, reference

SHAPES = [(4096, 7168, 2048), (6220, 13760, 3200), (116, 28704, 16256),
          (4412, 384, 12672), (4, 11024, 8960), (2202, 4144, 8448),
          (239, 18432, 8192), (1, 608, 12544), (3549, 27664, 1024)]


def round4(x):
    return (x + 3) // 4 * 4


def layouts(torch, sfa, sfb):
    """name -> (scale_a, scale_b): the views run_bench.py passes, and the
    same values with each leading dimension rounded up to a multiple of 4."""
    m, kb = sfa.shape
    nb = sfb.shape[0]
    as_is = (sfa.t().contiguous().t(), sfb.t())
    abuf = torch.zeros((kb, round4(m)), dtype=torch.float32, device=sfa.device)
    abuf[:, :m] = sfa.t()
    a_pad = abuf[:, :m].t()                   # [M, kb], strides (1, round4(M))
    bbuf = torch.zeros((nb, round4(kb)), dtype=torch.float32, device=sfb.device)
    bbuf[:, :kb] = sfb
    b_pad = bbuf[:, :kb].t()                  # [kb, nb], strides (1, round4(kb))
    return {"as-is": as_is, "b-padded": (as_is[0], b_pad),
            "a-padded": (a_pad, as_is[1]), "both-padded": (a_pad, b_pad)}


def main(argv):
    import torch
    dgemm = import_dgemm()
    shapes = [tuple(int(v) for v in s.split("x")) for s in argv] or SHAPES
    for m, n, k in shapes:
        inp = make_inputs(torch, dgemm, m, n, k, seed=1)
        ref, rms = reference(torch, dgemm, inp)
        a, bt = inp["a"], inp["b"].t()
        for name, (sa, sb) in layouts(torch, inp["sfa"], inp["sfb"]).items():
            rec = dict(m=m, n=n, k=k, layout=name, sa_stride=list(sa.stride()),
                       sb_stride=list(sb.stride()))
            try:
                y = torch._scaled_mm(a, bt, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)
                torch.cuda.synchronize()
                rec["check"] = check_output(torch, dgemm, y, ref, rms)
                del y
            except Exception as e:  # noqa: BLE001 - recorded, as run_bench does
                rec["error"] = "%s: %s" % (type(e).__name__,
                                           str(e).strip().splitlines()[0][:160])
            c = rec.get("check", {})
            print("%5dx%5dx%5d %-12s %s" % (
                m, n, k, name, rec.get("error") or "ok=%s bad=%d nan=%d calc_diff=%s bad_cols=%s" % (
                    c["ok"], c["bad"], c["nan_left"], c["calc_diff"], c.get("bad_cols"))))
            print(json.dumps(rec, default=str))
        del inp, ref, rms
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    assert DEVICE
    sys.exit(main(sys.argv[1:]))
