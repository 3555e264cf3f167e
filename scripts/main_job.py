#!/usr/bin/env python3
"""The main job: compile the 18 normal DeepSeek-V3 shapes to PTX through
libdgemm (the runtime's own compiler and cache) and report each kernel's
config, registers and compile time; on a machine with a Hopper GPU and
PyTorch, also run and check them (bench/run_bench.py without peers).

  PYTHONPATH=python DGEMM_LIB=build/lib/libdgemm.so scripts/main_job.py
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import dgemm  # noqa: E402


def normal_shapes():
    rows = []
    for line in open(os.path.join(ROOT, "bench", "shapes.csv")):
        f = line.strip().split(",")
        if len(f) == 5 and f[0] == "normal":
            rows.append(tuple(int(x) for x in f[2:]))
    return rows


def gemm_ir(m, n, k):
    kb, nb = k // 128, (n + 127) // 128
    return ("func.func @gemm(%%a: memref<?x%dxf8E4M3FN>, %%sa: memref<?x%dxf32, strided<[1, ?]>>,\n"
            "    %%b: memref<%dx%dxf8E4M3FN>, %%sb: memref<%dx%dxf32>, %%d: memref<?x%dxbf16>) {\n"
            "  dgemm.gemm ins(%%a, %%sa, %%b, %%sb : memref<?x%dxf8E4M3FN>, memref<?x%dxf32, strided<[1, ?]>>,\n"
            "      memref<%dx%dxf8E4M3FN>, memref<%dx%dxf32>) outs(%%d : memref<?x%dxbf16>) {m_hint = %d : i64}\n"
            "  return\n}\n" % (k, kb, n, k, nb, kb, n, k, kb, n, k, nb, kb, n, m))


def ptxas_registers(ptx):
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if not os.path.exists(ptxas):
        return "?"
    with tempfile.NamedTemporaryFile("w", suffix=".ptx") as f:
        f.write(ptx)
        f.flush()
        r = subprocess.run([ptxas, "-arch=sm_90a", "-v", f.name, "-o", os.devnull],
                           capture_output=True, text=True)
    m = re.search(r"Used (\d+) registers", r.stdout + r.stderr)
    spill = re.search(r"(\d+) bytes spill stores", r.stdout + r.stderr)
    if not m:
        return "?"
    return m.group(1) + ("" if not spill or spill.group(1) == "0" else " (spills!)")


def main():
    print("%-20s %-90s %5s %10s" % ("shape (M,N,K)", "config", "regs", "compile ms"))
    for m, n, k in normal_shapes():
        ms, info = dgemm.prepare(m, n, k)
        fields = dict(kv.split("=", 1) for kv in (x.strip() for x in info.split(";")) if "=" in kv)
        regs = fields.get("registers") or ptxas_registers(dgemm.compile_to_ptx(gemm_ir(m, n, k)))
        cfg = fields.get("config", "?").replace("#dgemm.config<", "").rstrip(">")
        cfg = re.sub(r"(\w+) = ", r"\1=", cfg).replace("math_warpgroups", "wg").replace(",", "")
        print("%-20s %-90s %5s %10.1f" % ("%d,%d,%d" % (m, n, k), cfg, regs, ms))
    try:
        import torch
        gpu = torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)
    except ImportError:
        gpu = False
    if not gpu:
        print("no Hopper GPU with PyTorch here: kernels compiled, not run")
        return 0
    import run_bench
    return run_bench.main(["--no-peers", "--iters", "10"])


if __name__ == "__main__":
    sys.exit(main())
