#!/usr/bin/env python3
"""GPU step tests: the GEMM kernel built up on the H200 piece by piece.

  1. tma-roundtrip.mlir   TMA load + store, with and without 128B swizzle
  2. wgmma-tile.mlir      one wgmma tile on random e4m3 data, through the
                          epilogue (descriptors, fragment layout, bf16 store)
  3. the stage ring       the whole kernel with unit scales and many K blocks
                          (several ring wraps, persistent tiles)
  4. promotion            random per-block scales over 2^-8..2^8, block N
                          spanning two B-scale blocks
  5. the whole kernel     tails in M and N
  6. kernel IR is real IR the kernel IR dgemm-opt prints for a shape, its
                          tile order edited, compiled by the rest of the
                          pipeline and run through the runtime
  7. multicast A          a 2-CTA cluster sharing A's M block (config set in
                          the dgemm IR), with an M tail and several tiles per
                          cluster
  8. contiguous B         the contiguous layout with B multicast on pairs of
     multicast            M blocks: pairs of one group, of two groups, with
                          a -1 block and with one past M; the -1 blocks'
                          rows of D stay untouched

Steps 1-2 compile the kernel IR in steps/ with dgemm-opt and launch it with
the driver (cuda_driver.py); steps 3-5 go through libdgemm's C API (the
Python package). Each step prints PASS/FAIL; the exit code is non-zero on
any failure. Without torch or a CUDA GPU it prints why and exits 0 (skip).

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 test/Integration/GPU/test_steps.py
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def skip(reason):
    print("SKIP: GPU step tests: %s" % reason)
    sys.exit(0)


try:
    import torch
except ImportError:
    skip("torch is not installed")
if not torch.cuda.is_available():
    skip("no CUDA device")
if torch.cuda.get_device_capability() != (9, 0):
    skip("the GPU is not sm_90 (found %s)" % (torch.cuda.get_device_capability(),))

sys.path.insert(0, HERE)
from cuda_driver import Driver  # noqa: E402

DGEMM_OPT = os.environ.get("DGEMM_OPT", "dgemm-opt")
drv = Driver()
results = []


def report(name, ok, detail=""):
    results.append(ok)
    print("%s: %s %s" % ("PASS" if ok else "FAIL", name, detail))


def compile_step(mlir):
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([DGEMM_OPT, os.path.join(HERE, "steps", mlir), "--dgemm-kernel-to-ptx",
                        "--dgemm-dump-ptx=dir=" + d, "-o", os.devnull], check=True)
        (ptx,) = [open(os.path.join(d, f)).read() for f in os.listdir(d)]
    return ptx


def step1_tma_roundtrip():
    import ctypes
    torch.cuda.init()
    torch.empty(1, device="cuda")  # make torch's context current
    fn = drv.load(compile_step("tma-roundtrip.mlir"), "tma_roundtrip")
    m, k = 200, 512
    src = torch.randint(0, 256, (m, k), dtype=torch.uint8, device="cuda")
    k0, m0 = 256, 64
    expect = src[m0:m0 + 64, k0:k0 + 128].cpu()
    for sw in (128, 0):
        dst = torch.zeros((64, 128), dtype=torch.uint8, device="cuda")
        smap = drv.tensor_map(src.data_ptr(), "u8", [k, m], [k], [128, 64], 128)
        dmap = drv.tensor_map(dst.data_ptr(), "u8", [128, 64], [128], [128, 64], sw)
        drv.launch(fn, 1, 128, 8192 + 64, [smap, dmap, ctypes.c_int32(k0), ctypes.c_int32(m0)])
        torch.cuda.synchronize()
        got = dst.cpu()
        if sw == 128:
            ref = expect
        else:  # chunk c of row r lands at chunk c ^ (r % 8)
            ref = torch.empty_like(expect)
            for r in range(64):
                for c in range(8):
                    ref[r, 16 * (c ^ (r % 8)):16 * (c ^ (r % 8)) + 16] = expect[r, 16 * c:16 * c + 16]
        report("step 1 TMA round trip (dst swizzle %d)" % sw, torch.equal(got, ref))


def step2_wgmma_tile():
    fn = drv.load(compile_step("wgmma-tile.mlir"), "wgmma_tile")
    n = 112
    a = (torch.randn(64, 128, device="cuda") * 2).to(torch.float8_e4m3fn)
    b = (torch.randn(n, 128, device="cuda") * 2).to(torch.float8_e4m3fn)
    d = torch.full((64, n), float("nan"), dtype=torch.bfloat16, device="cuda")
    amap = drv.tensor_map(a.data_ptr(), "u8", [128, 64], [128], [128, 64], 128)
    bmap = drv.tensor_map(b.data_ptr(), "u8", [128, n], [128], [128, n], 128)
    dmap = drv.tensor_map(d.data_ptr(), "bf16", [n, 64], [2 * n], [n, 64], 0)
    drv.launch(fn, 1, 128, 37888 + 64, [amap, bmap, dmap])
    torch.cuda.synchronize()
    ref = a.float() @ b.float().t()
    err = ((d.float() - ref).abs() - (0.01 * ref.abs() + 0.05)).max().item()
    report("step 2 wgmma tile 64x112x128", err <= 0 and not torch.isnan(d).any().item(),
           "(max excess error %.3g)" % err)


def gemm_check(name, m, n, k, scale_spread):
    import dgemm
    from dgemm.utils import calc_diff
    torch.manual_seed(m * 7 + n * 3 + k)
    kb, nb = k // 128, (n + 127) // 128
    a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
    if scale_spread:
        sfa = torch.exp2(torch.randint(-8, 9, (m, kb), device="cuda").float())
        sfb = torch.exp2(torch.randint(-8, 9, (nb, kb), device="cuda").float())
    else:
        sfa = torch.ones(m, kb, device="cuda")
        sfb = torch.ones(nb, kb, device="cuda")
    d = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
    dgemm.gemm_fp8_fp8_bf16_nt((a, sfa), (b, sfb), d)
    torch.cuda.synchronize()
    sa = sfa.repeat_interleave(128, dim=1)
    sb = sfb.repeat_interleave(128, dim=0)[:n].repeat_interleave(128, dim=1)
    ref = (a.float() * sa) @ (b.float() * sb).t()
    diff = calc_diff(d.float(), ref)
    tol = 0.02 * ref.abs() + 0.01 * ref.abs().max()
    bad = ((d.float() - ref).abs() > tol).sum().item()
    ok = diff < 1e-3 and bad == 0 and not torch.isnan(d).any().item()
    report("%s M=%d N=%d K=%d" % (name, m, n, k), ok, "(diff %.2e, %d elements off)" % (diff, bad))


GEMM_IR_WITH_CONFIG = """
func.func @gemm(%a: memref<?x{k}xf8E4M3FN>, %sa: memref<?x{kb}xf32, strided<[1, ?]>>,
    %b: memref<{n}x{k}xf8E4M3FN>, %sb: memref<{nb}x{kb}xf32>, %d: memref<?x{n}xbf16>) {{
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x{k}xf8E4M3FN>, memref<?x{kb}xf32, strided<[1, ?]>>,
      memref<{n}x{k}xf8E4M3FN>, memref<{nb}x{kb}xf32>) outs(%d : memref<?x{n}xbf16>) {{config = {config}}}
  return
}}
"""

GEMM_IR = """
func.func @gemm(%a: memref<?x{k}xf8E4M3FN>, %sa: memref<?x{kb}xf32, strided<[1, ?]>>,
    %b: memref<{n}x{k}xf8E4M3FN>, %sb: memref<{nb}x{kb}xf32>, %d: memref<?x{n}xbf16>) {{
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x{k}xf8E4M3FN>, memref<?x{kb}xf32, strided<[1, ?]>>,
      memref<{n}x{k}xf8E4M3FN>, memref<{nb}x{kb}xf32>) outs(%d : memref<?x{n}xbf16>) {{m_hint = {m} : i64}}
  return
}}
"""


def step6_kernel_ir_edit():
    import re
    import dgemm
    from dgemm.utils import calc_diff
    m, n, k = 1024, 2048, 1024
    kb, nb = k // 128, n // 128
    ir = GEMM_IR.format(m=m, n=n, k=k, kb=kb, nb=nb)
    kernel_ir = subprocess.run([DGEMM_OPT, "--dgemm-to-kernel"], input=ir, capture_output=True,
                               text=True, check=True).stdout
    # Another tile order: groups of 3 N blocks instead of what the config
    # chose, in every schedule_tile op (the producer's, the consumers' and,
    # with the B-scale prefetch, the consumers' look at the next tile).
    ops = kernel_ir.count("dgemm.schedule_tile")
    edited, count = re.subn(r"swizzle_group = \d+ : i32", "swizzle_group = 3 : i32", kernel_ir)
    if ops < 2 or count != ops or edited == kernel_ir:
        report("step 6 kernel IR edit", False,
               "(expected a swizzle_group to edit in each of the %d schedule_tile ops (at least"
               " 2), found %d)" % (ops, count))
        return
    a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
    sfa = torch.exp2(torch.randint(-4, 5, (m, kb), device="cuda").float())
    sfb = torch.exp2(torch.randint(-4, 5, (nb, kb), device="cuda").float())
    sfa_t = sfa.t().contiguous().t()
    d = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
    dgemm.launch_kernel_ir(edited, (a, sfa_t), (b, sfb), d)
    torch.cuda.synchronize()
    ref = (a.float() * sfa.repeat_interleave(128, 1)) @ (b.float() * sfb.repeat_interleave(128, 0).repeat_interleave(128, 1)).t()
    diff = calc_diff(d.float(), ref)
    report("step 6 kernel IR edited (tile order) and run", diff < 1e-3 and not torch.isnan(d).any().item(),
           "(diff %.2e)" % diff)


def run_kernel_ir_gemm(name, kernel_ir, m, n, k):
    import dgemm
    from dgemm.utils import calc_diff
    kb, nb = k // 128, (n + 127) // 128
    a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
    sfa = torch.exp2(torch.randint(-4, 5, (m, kb), device="cuda").float())
    sfb = torch.exp2(torch.randint(-4, 5, (nb, kb), device="cuda").float())
    d = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
    dgemm.launch_kernel_ir(kernel_ir, (a, sfa.t().contiguous().t()), (b, sfb), d)
    torch.cuda.synchronize()
    ref = (a.float() * sfa.repeat_interleave(128, 1)) @ \
        (b.float() * sfb.repeat_interleave(128, 0)[:n].repeat_interleave(128, 1)).t()
    diff = calc_diff(d.float(), ref)
    tol = 0.02 * ref.abs() + 0.01 * ref.abs().max()
    bad = ((d.float() - ref).abs() > tol).sum().item()
    report(name, diff < 1e-3 and bad == 0 and not torch.isnan(d).any().item(),
           "(diff %.2e, %d elements off)" % (diff, bad))


def step7_multicast():
    # 300 rows: 3 M blocks, the last a tail; 16 N blocks of 128 = 8 pairs;
    # 8 CTAs = 4 clusters, so each cluster runs 6 units.
    m, n, k = 300, 2048, 1024
    config = ("#dgemm.config<block_m = 128, block_n = 128, stages = 4, cluster = 2, "
              "multicast = a, math_warpgroups = 2, swizzle_group = 4, num_sms = 8>")
    ir = GEMM_IR_WITH_CONFIG.format(n=n, k=k, kb=k // 128, nb=n // 128, config=config)
    kernel_ir = subprocess.run([DGEMM_OPT, "--dgemm-lower-to-kernel"], input=ir, capture_output=True,
                               text=True, check=True).stdout
    if "cluster = 2" not in kernel_ir or "multicast_mask" not in kernel_ir:
        report("step 7 multicast A", False, "(the kernel IR has no cluster or multicast)")
        return
    run_kernel_ir_gemm("step 7 multicast A (2-CTA cluster, M tail) M=%d N=%d K=%d" % (m, n, k),
                       kernel_ir, m, n, k)


GROUPED_IR_WITH_CONFIG = """
func.func @grouped(%a: memref<?x{k}xf8E4M3FN>, %sa: memref<?x{kb}xf32, strided<[1, ?]>>,
    %b: memref<{g}x{n}x{k}xf8E4M3FN>, %sb: memref<{g}x{nb}x{kb}xf32>, %mi: memref<?xi32>,
    %d: memref<?x{n}xbf16>) {{
  dgemm.grouped_gemm #dgemm.grouped<contiguous> ins(%a, %sa, %b, %sb : memref<?x{k}xf8E4M3FN>,
      memref<?x{kb}xf32, strided<[1, ?]>>, memref<{g}x{n}x{k}xf8E4M3FN>, memref<{g}x{nb}x{kb}xf32>)
      groups(%mi : memref<?xi32>) outs(%d : memref<?x{n}xbf16>) {{config = {config}}}
  return
}}
"""


def step8_contiguous_multicast_b():
    import dgemm
    from dgemm.utils import calc_diff
    # 128-row blocks of groups 0 0 0 -1 1 2 2 3 4: pairs (0, 0), (0, -1),
    # (1, 2), (2, 3) and (4, past M); groups 1, 3 and 4 end inside their
    # last block (padding rows of -1). 2 N blocks of 192 on 2 clusters: each
    # cluster runs 5 units.
    blocks = [(0, 128), (0, 128), (0, 128), (-1, 0), (1, 70), (2, 128), (2, 1), (3, 1), (4, 5)]
    g, n, k = 5, 384, 512
    kb, nb = k // 128, n // 128
    idx = []
    for grp, rows in blocks:
        idx += [grp] * rows + [-1] * (128 - rows)
    m = len(idx)
    torch.manual_seed(8)
    a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(g, n, k, device="cuda").to(torch.float8_e4m3fn)
    sfa = torch.exp2(torch.randint(-4, 5, (m, kb), device="cuda").float())
    sfb = torch.exp2(torch.randint(-4, 5, (g, nb, kb), device="cuda").float())
    mi = torch.tensor(idx, dtype=torch.int32, device="cuda")
    d = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
    config = ("#dgemm.config<block_m = 128, block_n = 192, stages = 4, cluster = 2, "
              "multicast = b, math_warpgroups = 2, swizzle_group = 2, num_sms = 4>")
    ir = GROUPED_IR_WITH_CONFIG.format(g=g, n=n, k=k, kb=kb, nb=nb, config=config)
    kernel_ir = subprocess.run([DGEMM_OPT, "--dgemm-lower-to-kernel"], input=ir, capture_output=True,
                               text=True, check=True).stdout
    if "cluster = 2" not in kernel_ir or "multicast_mask" not in kernel_ir:
        report("step 8 contiguous B multicast", False, "(the kernel IR has no cluster or multicast)")
        return
    dgemm.launch_grouped_kernel_ir(kernel_ir, (a, sfa.t().contiguous().t()), (b, sfb), d, mi)
    torch.cuda.synchronize()
    rows = torch.tensor([r for r, grp in enumerate(idx) if grp >= 0], device="cuda")
    ref = torch.empty(m, n, device="cuda")
    sa = a.float() * sfa.repeat_interleave(128, dim=1)
    for grp in range(g):
        mine = (mi == grp).nonzero().flatten()
        sb = b[grp].float() * sfb[grp].repeat_interleave(128, dim=0).repeat_interleave(128, dim=1)
        ref[mine] = sa[mine] @ sb.t()
    got, want = d.float()[rows], ref[rows]
    diff = calc_diff(got, want)
    tol = 0.02 * want.abs() + 0.01 * want.abs().max()
    bad = ((got - want).abs() > tol).sum().item()
    skipped = d[3 * 128:4 * 128]   # the -1 block: never written
    untouched = torch.isnan(skipped.float()).all().item()
    report("step 8 contiguous B multicast (pairs of one and two groups, -1, past M) M=%d N=%d K=%d"
           % (m, n, k), diff < 1e-3 and bad == 0 and not torch.isnan(got).any().item() and untouched,
           "(diff %.2e, %d elements off, -1 block %s)" % (diff, bad,
                                                           "untouched" if untouched else "WRITTEN"))


def main():
    only = os.environ.get("STEPS")  # e.g. STEPS=7 (for compute-sanitizer runs)
    if only:
        for n in only.split(","):
            globals()[[f for f in globals() if f.startswith("step%s_" % n)][0]]()
        print("%d passed, %d failed" % (sum(results), len(results) - sum(results)))
        return 0 if all(results) else 1
    for step in (step1_tma_roundtrip, step2_wgmma_tile):
        try:
            step()
        except Exception as e:  # a failing step must not hide the next
            report(step.__name__, False, repr(e))
    try:
        gemm_check("step 3 stage ring (unit scales, 64 K blocks)", 256, 256, 8192, False)
        gemm_check("step 4 promotion (scales 2^-8..2^8, block N 112)", 256, 7168, 1024, True)
        gemm_check("step 5 whole kernel (M and N tails)", 197, 1000, 1536, True)
    except Exception as e:
        report("steps 3-5", False, repr(e))
    try:
        step6_kernel_ir_edit()
    except Exception as e:
        report("step 6 kernel IR edit", False, repr(e))
    try:
        step7_multicast()
    except Exception as e:
        report("step 7 multicast A", False, repr(e))
    try:
        step8_contiguous_multicast_b()
    except Exception as e:
        report("step 8 contiguous B multicast", False, repr(e))
    print("%d passed, %d failed" % (sum(results), len(results) - sum(results)))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
