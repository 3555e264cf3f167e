#===- gpu_check.py - The C API on an sm_90 GPU ----------------------------===#
"""GPU check of the dgemm runtime through its C API (ctypes, no Python
package): correctness on random FP8 data against a float reference
(DeepGEMM's metric), NaN-prefilled outputs and untouched padding, the cache
(memory, then disk in a second process), M = 0, a call from a thread with no
current context on the default stream, the kernel IR path, prepare's info
(registers, spills, driver JIT time), and rough timings.

Run on the GPU machine with torch (the cache directory is reused by phase 2):

  export DGEMM_CACHE_DIR=/tmp/dgemm-check-cache
  python3 gpu_check.py /path/libdgemm.so [kernel_ir.mlir]
  PHASE=2 python3 gpu_check.py /path/libdgemm.so

kernel_ir.mlir: `dgemm-opt --dgemm-to-kernel` of a dgemm.gemm with N = 7168,
K = 2048 (its check is skipped without it). Prints PASS/FAIL lines; exit code
1 on any failure.
"""
import ctypes, os, sys, time, threading
import torch

LIB = sys.argv[1]
KERNEL_IR = sys.argv[2] if len(sys.argv) > 2 else None
lib = ctypes.CDLL(LIB, mode=os.RTLD_LOCAL | os.RTLD_NOW)


class T(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int), ("rank", ctypes.c_int32),
                ("shape", ctypes.c_int64 * 4), ("strides", ctypes.c_int64 * 4)]


DT = {torch.float8_e4m3fn: 0, torch.bfloat16: 2, torch.float32: 3}


def tens(t):
    s = list(t.shape) + [0] * (4 - t.dim())
    st = list(t.stride()) + [0] * (4 - t.dim())
    return T(t.data_ptr(), DT[t.dtype], t.dim(), (ctypes.c_int64 * 4)(*s), (ctypes.c_int64 * 4)(*st))


P = ctypes.POINTER(T)
lib.dgemm_last_error.restype = ctypes.c_char_p
lib.dgemm_gemm_fp8_bf16_nt.argtypes = [P] * 5 + [ctypes.c_void_p]
lib.dgemm_launch_kernel_ir.argtypes = [ctypes.c_char_p] + [P] * 5 + [ctypes.c_void_p]
lib.dgemm_gemm_prepare.argtypes = [ctypes.c_int64] * 3 + [ctypes.POINTER(ctypes.c_double), ctypes.c_char_p, ctypes.c_int64]
lib.dgemm_gemm_config.argtypes = [ctypes.c_int64] * 3 + [ctypes.c_char_p, ctypes.c_int64]


def err():
    return lib.dgemm_last_error().decode()


def operands(m, n, k, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(m, k, device="cuda", generator=g)
    b = torch.randn(n, k, device="cuda", generator=g)
    kb, nb = k // 128, (n + 127) // 128
    # A: 1x128 scales, MN-major with rows padded to 4.
    ab = a.view(m, kb, 128)
    sa = ab.abs().amax(-1).clamp(min=1e-4) / 448.0 * torch.exp2(torch.randint(-3, 4, (m, kb), device="cuda", generator=g).float())
    a8 = (ab / sa.unsqueeze(-1)).clamp(-448, 448).to(torch.float8_e4m3fn).view(m, k)
    sa_store = torch.zeros(kb, (m + 3) // 4 * 4, device="cuda")
    sa_store[:, :m] = sa.t()
    sa_mn = sa_store.t()[:m]  # [m, kb], strides (1, align(m, 4))
    # B: 128x128 block scales.
    bp = torch.zeros(nb * 128, k, device="cuda")
    bp[:n] = b
    bb = bp.view(nb, 128, kb, 128)
    sb = bb.abs().amax(dim=(1, 3)).clamp(min=1e-4) / 448.0
    b8 = (bb / sb[:, None, :, None]).clamp(-448, 448).to(torch.float8_e4m3fn).view(nb * 128, k)[:n].contiguous()
    ref = (a8.float().view(m, kb, 128) * sa.unsqueeze(-1)).view(m, k) @ \
          (b8.float().view(n, kb, 128) * sb.repeat_interleave(128, 0)[:n].unsqueeze(-1)).view(n, k).t()
    return a8, sa_mn, b8, sb.contiguous(), ref


def diff(x, y):
    x, y = x.double(), y.double()
    return (1 - 2 * (x * y).sum() / (x * x + y * y).sum()).item()


failures = []


def check(name, ok, detail=""):
    print("%s %s %s" % ("PASS" if ok else "FAIL", name, detail), flush=True)
    if not ok:
        failures.append(name)


def gemm(m, n, k, seed=0, kernel_ir=None, stream=True, pad_d=0):
    a8, sa, b8, sb, ref = operands(m, n, k, seed)
    dstore = torch.full((m, n + pad_d), float("nan"), device="cuda", dtype=torch.bfloat16)
    d = dstore[:, :n]
    guard = torch.full((1 << 16,), 7.0, device="cuda", dtype=torch.bfloat16)
    s = torch.cuda.current_stream().cuda_stream if stream else None
    t0 = time.time()
    if kernel_ir is None:
        st = lib.dgemm_gemm_fp8_bf16_nt(tens(a8), tens(sa), tens(b8), tens(sb), tens(d), s)
    else:
        st = lib.dgemm_launch_kernel_ir(kernel_ir, tens(a8), tens(sa), tens(b8), tens(sb), tens(d), s)
    torch.cuda.synchronize()
    ms = (time.time() - t0) * 1e3
    if st != 0:
        return st, err(), ms
    dd = diff(d.float(), ref)
    ok = dd < 1e-3 and not torch.isnan(d).any().item() and bool((guard == 7.0).all().item())
    if pad_d:
        ok = ok and bool(torch.isnan(dstore[:, n:]).all().item())
    return (0 if ok else -1), "diff=%.2e" % dd, ms


def main():
    phase = os.environ.get("PHASE", "1")
    if phase == "2":
        # A new process over the same cache directory: disk hits.
        buf = ctypes.create_string_buffer(2048)
        ms = ctypes.c_double()
        for (m, n, k) in [(4096, 7168, 2048), (256, 7168, 7168)]:
            st = lib.dgemm_gemm_prepare(m, n, k, ctypes.byref(ms), buf, 2048)
            info = buf.value.decode()
            check("disk-cache %dx%dx%d" % (m, n, k), st == 0 and "cache=disk" in info and ms.value == 0, info if st == 0 else err())
        st, detail, t = gemm(4096, 7168, 2048, seed=5)
        check("warm-start gemm 4096x7168x2048", st == 0, "%s %.1f ms first call" % (detail, t))
        return
    shapes = [(128, 256, 512), (197, 224, 1024), (509, 1000, 1536), (1, 256, 128), (64, 2112, 7168),
              (256, 7168, 7168), (4096, 7168, 2048), (4096, 2112, 7168), (2048, 24576, 1536),
              (128, 4096, 7168), (3000, 7168, 16384)]
    for (m, n, k) in shapes:
        st, detail, t = gemm(m, n, k)
        buf = ctypes.create_string_buffer(256)
        lib.dgemm_gemm_config(m, n, k, buf, 256)
        check("gemm %dx%dx%d" % (m, n, k), st == 0, "%s %s first call %.1f ms; %s" % (st, detail, t, buf.value.decode()))
    # Second call of a shape: cached, fast.
    st, detail, t = gemm(4096, 7168, 2048, seed=1)
    check("gemm again (cached)", st == 0, "%s %.1f ms" % (detail, t))
    # Padded D rows.
    st, detail, t = gemm(509, 1000, 1536, seed=2, pad_d=8)
    check("gemm padded D rows", st == 0, detail)
    # Default stream, from a thread that never touched CUDA.
    out = {}
    th = threading.Thread(target=lambda: out.update(r=gemm(197, 224, 1024, seed=3, stream=False)))
    th.start(); th.join()
    check("gemm from a fresh thread, default stream", out["r"][0] == 0, str(out["r"]))
    # M = 0.
    a8 = torch.empty(0, 256, device="cuda", dtype=torch.float8_e4m3fn)
    sa = torch.empty(2, 0, device="cuda").t()
    b8 = torch.zeros(256, 256, device="cuda", dtype=torch.float8_e4m3fn)
    sb = torch.ones(2, 2, device="cuda")
    d = torch.empty(0, 256, device="cuda", dtype=torch.bfloat16)
    st = lib.dgemm_gemm_fp8_bf16_nt(tens(a8), tens(sa), tens(b8), tens(sb), tens(d), None)
    check("M = 0", st == 0, err())
    # Kernel IR.
    if KERNEL_IR:
        ir = open(KERNEL_IR, "rb").read()
        for m in (4096, 333):
            st, detail, t = gemm(m, 7168, 2048, seed=4, kernel_ir=ir)
            check("kernel IR M=%d" % m, st == 0, "%s %s %.1f ms" % (st, detail, t))
    # Prepare info.
    buf = ctypes.create_string_buffer(2048)
    ms = ctypes.c_double()
    for (m, n, k) in [(4096, 7168, 2048), (64, 2112, 7168), (2048, 24576, 1536), (333, 4096, 512)]:
        st = lib.dgemm_gemm_prepare(m, n, k, ctypes.byref(ms), buf, 2048)
        check("prepare %dx%dx%d" % (m, n, k), st == 0, "compile_ms=%.1f %s" % (ms.value, buf.value.decode() if st == 0 else err()))
    # Timing of a big shape.
    a8, sa, b8, sb, ref = operands(4096, 7168, 7168, 9)
    d = torch.empty(4096, 7168, device="cuda", dtype=torch.bfloat16)
    args = [tens(a8), tens(sa), tens(b8), tens(sb), tens(d)]
    s = torch.cuda.current_stream().cuda_stream
    for _ in range(3):
        lib.dgemm_gemm_fp8_bf16_nt(*args, s)
    torch.cuda.synchronize()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    for _ in range(20):
        lib.dgemm_gemm_fp8_bf16_nt(*args, s)
    e1.record(); torch.cuda.synchronize()
    t = e0.elapsed_time(e1) / 20
    check("timing 4096x7168x7168", True, "%.3f ms, %.0f TFLOP/s (includes per-call host overhead)" % (t, 2 * 4096 * 7168 * 7168 / t / 1e9))
    # Host overhead per call (tiny shape).
    a8, sa, b8, sb, ref = operands(128, 256, 512, 1)
    d = torch.empty(128, 256, device="cuda", dtype=torch.bfloat16)
    args = [tens(a8), tens(sa), tens(b8), tens(sb), tens(d)]
    lib.dgemm_gemm_fp8_bf16_nt(*args, s); torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(200):
        lib.dgemm_gemm_fp8_bf16_nt(*args, s)
    t1 = time.perf_counter(); torch.cuda.synchronize()
    check("host time per call", True, "%.1f us" % ((t1 - t0) / 200 * 1e6))


main()
print("FAILURES: %s" % failures if failures else "ALL PASS")
sys.exit(1 if failures else 0)
