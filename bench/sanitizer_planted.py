#!/usr/bin/env python3
#===- sanitizer_planted.py - show the sanitizers catch planted kernel bugs ===#
"""Plants bugs in the kernel IR of a small GEMM and checks that
compute-sanitizer reports each one, so that its "0 errors" on the real
kernels means something:

- ``oob-store``: one thread stores 4 bytes 256 MiB past the B-scale
  pointer (an out-of-bounds global write): memcheck must report it.
- ``no-scale-barrier``: the consumers skip the named barrier between
  copying the tile's B scales to shared memory and reading them (a skipped
  barrier wait): racecheck must report a shared-memory hazard.
- ``bad-warp-sync``: every thread runs a warp barrier whose mask holds
  only lane 0 (threads outside the mask: undefined): synccheck must
  report it.
- ``uninit-read``: every thread loads (volatile) 64 KiB past the B scales,
  inside the same allocation, whose rest the caller never wrote: initcheck
  must report an uninitialized global read.
- ``clean``: the kernel IR as dgemm-opt prints it: no tool reports anything.

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/sanitizer_planted.py

Each (variant, tool) pair runs in its own process under compute-sanitizer
(the child launches the variant once through dgemm.launch_kernel_ir).
Prints one line per pair and exits 0 only when every planted bug was
reported and the clean kernel was not. Needs a GPU, PyTorch and
compute-sanitizer (exit 2, with the reason, without them).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

M, N, K = 130, 392, 640

GEMM_IR = """func.func @gemm(%a: memref<?x{k}xf8E4M3FN>, %sa: memref<?x{kb}xf32, strided<[1, ?]>>,
    %b: memref<{n}x{k}xf8E4M3FN>, %sb: memref<{nb}x{kb}xf32>, %d: memref<?x{n}xbf16>) {{
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x{k}xf8E4M3FN>, memref<?x{kb}xf32, strided<[1, ?]>>,
      memref<{n}x{k}xf8E4M3FN>, memref<{nb}x{kb}xf32>) outs(%d : memref<?x{n}xbf16>) {{m_hint = {m} : i64}}
  return
}}
"""


def kernel_ir():
    ir = GEMM_IR.format(m=M, n=N, k=K, kb=K // 128, nb=(N + 127) // 128)
    opt = os.environ.get("DGEMM_OPT", "dgemm-opt")
    return subprocess.run([opt, "--dgemm-to-kernel"], input=ir, capture_output=True, text=True,
                          check=True).stdout


def _entry(text, planted):
    m = re.search(r"(llvm\.func @dgemm_\w+\([^\n]*\{\n)", text)
    if not m:
        raise ValueError("kernel function not found")
    return text[:m.end()] + planted + text[m.end():]


def plant_oob_store(text):
    """After the kernel's entry, every thread stores an i32 256 MiB past the
    B-scale pointer (%arg4)."""
    return _entry(text, "      %planted_v = llvm.mlir.constant(7 : i32) : i32\n"
                        "      %planted_off = llvm.mlir.constant(268435456 : i64) : i64\n"
                        "      %planted_p = llvm.getelementptr %arg4[%planted_off] : "
                        "(!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8\n"
                        "      llvm.store %planted_v, %planted_p : i32, !llvm.ptr<1>\n")


def plant_bad_warp_sync(text):
    """Every thread: bar.warp.sync with mask 0x1."""
    return _entry(text, "      %planted_mask = llvm.mlir.constant(1 : i32) : i32\n"
                        "      nvvm.bar.warp.sync %planted_mask : i32\n")


def plant_uninit_read(text):
    """Every thread loads 64 KiB past the B scales (volatile, so it stays)."""
    return _entry(text,
                  "      %planted_off = llvm.mlir.constant(65536 : i64) : i64\n"
                  "      %planted_p = llvm.getelementptr %arg4[%planted_off] : "
                  "(!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8\n"
                  "      %planted_v = llvm.load volatile %planted_p : !llvm.ptr<1> -> i32\n")


def plant_no_scale_barrier(text):
    """Drops the consumers' named barrier 2 (B scales copied -> read)."""
    out, n = re.subn(r"\n\s*nvvm\.barrier id = %c2_i32[^\n]*", "", text, count=1)
    if n != 1:
        raise ValueError("named barrier 2 not found")
    return out


VARIANTS = {
    "clean": (lambda t: t, {"memcheck": False, "racecheck": False, "synccheck": False,
                            "initcheck": False}),
    "oob-store": (plant_oob_store, {"memcheck": True}),
    "no-scale-barrier": (plant_no_scale_barrier, {"racecheck": True}),
    "bad-warp-sync": (plant_bad_warp_sync, {"synccheck": True}),
    "uninit-read": (plant_uninit_read, {"initcheck": True}),
}
TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")


def child(path):
    """Launch the kernel IR in `path` once on random inputs. The B scales
    sit at the start of a 1 MiB allocation whose rest is never written (the
    uninit-read variant reads there); D is written before the launch (the
    clean kernel must give initcheck nothing to report)."""
    import torch
    import run_bench
    dgemm = run_bench.import_dgemm()
    inp = run_bench.make_inputs(torch, dgemm, M, N, K, seed=3)
    sfb = inp["sfb"]
    room = torch.empty(1 << 18, dtype=torch.float32, device="cuda")
    room[:sfb.numel()].copy_(sfb.reshape(-1))
    sfb = room[:sfb.numel()].view(sfb.shape)
    d = torch.zeros((M, N), dtype=torch.bfloat16, device="cuda")
    torch.cuda.synchronize()
    dgemm.launch_kernel_ir(Path(path).read_text(), (inp["a"], inp["sfa_tma"]),
                           (inp["b"], sfb), d)
    torch.cuda.synchronize()
    return 0


def reported(tool, output):
    if tool == "racecheck":
        m = re.search(r"RACECHECK SUMMARY: (\d+) hazard", output)
    else:
        m = re.search(r"ERROR SUMMARY: (\d+) error", output)
    return int(m.group(1)) if m else None


def main(argv):
    if len(argv) == 2 and argv[0] == "--child":
        return child(argv[1])
    sanitizer = shutil.which("compute-sanitizer")
    if not sanitizer:
        print("sanitizer_planted: compute-sanitizer not found")
        return 2
    try:
        import torch
        if not torch.cuda.is_available():
            raise ImportError("no CUDA device")
    except ImportError as e:
        print("sanitizer_planted: needs PyTorch with a GPU (%s)" % e)
        return 2
    out_dir = Path(tempfile.mkdtemp(prefix="dgemm-planted-"))
    base = kernel_ir()
    ok = True
    for name, (plant, expect) in VARIANTS.items():
        path = out_dir / ("%s.mlir" % name)
        path.write_text(plant(base))
        for tool in TOOLS:
            if tool not in expect:
                continue
            # PyTorch's caching allocator would hand the child memory that an
            # earlier tensor wrote, which initcheck counts as initialized.
            env = dict(os.environ, PYTORCH_NO_CUDA_MEMORY_CACHING="1")
            r = subprocess.run([sanitizer, "--tool", tool, "--print-limit", "5",
                                sys.executable, __file__, "--child", str(path)],
                               capture_output=True, text=True, timeout=300, env=env)
            text = r.stdout + r.stderr
            count = reported(tool, text)
            want = expect[tool]
            good = count is not None and (count > 0) == want
            ok = ok and good
            first = next((l.strip() for l in text.splitlines()
                          if ("Invalid" in l or "Race" in l or "Hazard" in l or "hazard" in l
                              or "Uninitialized" in l or "Barrier" in l or "barrier" in l)
                          and "SUMMARY" not in l), "")
            print("%-17s %-9s %s: %s errors/hazards reported, %s expected%s" % (
                name, tool, "ok  " if good else "FAIL", count,
                "some" if want else "none", (" (first: %s)" % first[:120]) if first else ""),
                flush=True)
    print("sanitizer_planted: %s" % ("every planted bug caught, clean kernel clean" if ok
                                      else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
