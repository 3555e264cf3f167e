#!/usr/bin/env python3
#===- py_overhead.py - host overhead of a warm call through Python --------===#
"""Host time of a warm (cache-hit) GEMM call through the Python package
against the bare ctypes C call, as JSON lines on stdout:

  python3 bench/py_overhead.py [--tensors torch|torch-cpu|fake-torch|duck,...]
         [--calls 2000] [--repeats 21] [--batch 200] [--breakdown] [--stub]

For each kind of tensor and each call it times:

- ``python``: ``dgemm.gemm_fp8_fp8_bf16_nt((a, sfa), (b, sfb), d)``, the
  same tensors every call (the warm path: launch cache hit, current stream
  looked up);
- ``python_stream``: the same with ``stream=`` given (no stream lookup);
- ``c``: the bare C call, ``bind_gemm_fp8_fp8_bf16_nt(plain=True)``'s
  callable (one ctypes call of ``dgemm_gemm_fp8_bf16_nt`` on prebuilt
  structs);
- ``c_bound``: the C bound call, ``bind_gemm_fp8_fp8_bf16_nt``'s callable
  (one ctypes call of ``dgemm_bound_call_launch``: what a warm Python call
  makes since the launches of torch outputs are bound);
- ``grouped_contiguous`` / ``grouped_masked`` and their ``*_c`` bare calls
  (the m-grouped functions' warm path; the bare calls are built from the
  package's validated structs).

Two figures per call: ``per_call_us``, the median over ``--calls`` single
calls timed one by one (on a GPU with ``torch.cuda.synchronize()`` before
each, the device idle: run_bench's ``Timer.host_us``, the method of
bench/RESULTS.md's host-overhead line), and ``batch_us``, the median over
``--repeats`` loops of ``--batch`` back-to-back calls divided by the batch
(finer on a CPU; on a GPU the launch queue may fill and add to it).
``overhead_us`` = python - c (per_call). ``--breakdown`` adds the cost of
single tensor-attribute reads and stream/device queries (median per read,
an empty call's cost subtracted).

Tensors (``--tensors``, default ``torch`` when PyTorch sees a GPU,
``torch-cpu,duck`` with a PyTorch without one, else ``fake-torch,duck``):

- ``torch``: real CUDA tensors (needs PyTorch and a GPU; libdgemm.so finds
  the driver as usual);
- ``torch-cpu``: PyTorch CPU tensors passed off as CUDA ones (see
  ``_torch_cpu_standin``): PyTorch's own getters for data_ptr(), shape,
  stride() and dtype;
- ``fake-torch``: without PyTorch, a stub ``torch`` module whose ``_C`` has
  the current-stream and current-device queries, and tensor objects whose
  class lives in it, so the package takes its torch path (stream lookup,
  device check);
- ``duck``: plain objects with ``shape``, ``stride()``, ``data_ptr()``,
  ``dtype``, ``device``, ``is_cuda`` (test/Python/_support.FakeTensor).

Stand-in attributes (all of fake-torch's and duck's, is_cuda and device of
torch-cpu's) are Python properties, not PyTorch's C getters: CPU figures
show where the Python layer spends its time, not the GPU machine's
numbers. On a CPU the library needs a driver: run it with the
stand-in libcuda (``DGEMM_CUDA_DRIVER=<build>/lib/libdgemm-cuda-standin.so``;
the first call compiles the kernels, cached in ``$DGEMM_CACHE_DIR``), or
with ``--stub`` against test/Python/stub_runtime.c (a C function that only
records its arguments: Python and ctypes alone). On the GPU machine, after
unpacking the bundle as scripts/device-run.sh does::

  DGEMM_LIB=/tmp/dgemm/dgemm/lib PYTHONPATH=python python3 bench/py_overhead.py --breakdown
"""
import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# Shapes: a decode-sized normal GEMM and small grouped ones (the host path
# does not depend on the size; the stand-in driver compiles each kernel once).
M, N, K = 128, 7168, 2048
G, GM = 4, 256  # groups; rows per group


# ---------------------------------------------------------------------------
# Tensors
# ---------------------------------------------------------------------------

def _contiguous(shape):
    st, inner = [], 1
    for s in reversed(shape):
        st.insert(0, inner)
        inner *= s
    return tuple(st)


class _Dtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name

    __repr__ = __str__


class _Device:
    """torch.device-like: type, index, str 'cuda:0', hashable."""
    __slots__ = ("type", "index")

    def __init__(self, type_, index):
        self.type, self.index = type_, index

    def __str__(self):
        return "%s:%d" % (self.type, self.index)

    def __eq__(self, other):
        return isinstance(other, _Device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


def _fake_torch_module():
    """A stub ``torch`` module with what the package's torch path calls on a
    warm call; the tensor class lives in it (``_is_torch`` looks at the
    class's module)."""
    mod = types.ModuleType("torch")
    mod.__dict__["__dgemm_bench_stub__"] = True
    c = types.ModuleType("torch._C")
    c._cuda_getCurrentRawStream = lambda index: 0
    c._cuda_getDevice = lambda: 0
    mod._C = c

    class _DeviceGuard:
        def __init__(self, index):
            self.index = index

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    cuda = types.ModuleType("torch.cuda")
    cuda.device = _DeviceGuard
    cuda.current_device = lambda: 0
    cuda.current_stream = lambda device=None: types.SimpleNamespace(cuda_stream=0)
    cuda.is_available = lambda: False
    mod.cuda = cuda
    for name in ("float8_e4m3fn", "bfloat16", "float32", "int32"):
        setattr(mod, name, _Dtype(name))
    dev = _Device("cuda", 0)

    class Tensor:
        """Attributes as properties and methods, as PyTorch's are getters
        that build a new object per read (torch.Size, tuple, int)."""
        __slots__ = ("_shape", "_strides", "_ptr", "_dtype")

        def __init__(self, shape, dtype, strides, ptr):
            self._shape, self._dtype, self._ptr = tuple(shape), dtype, ptr
            self._strides = tuple(strides) if strides else _contiguous(shape)

        shape = property(lambda self: tuple(self._shape))
        dtype = property(lambda self: self._dtype)
        device = property(lambda self: _Device("cuda", 0))
        is_cuda = property(lambda self: True)

        def stride(self):
            return tuple(self._strides)

        def data_ptr(self):
            return self._ptr

        def get_device(self):
            return 0

        def size(self):
            return tuple(self._shape)

    Tensor.__module__ = "torch"
    mod.Tensor = Tensor
    mod._dev = dev
    return mod


def _torch_cpu_standin():
    """PyTorch without CUDA made to pass for it, so the package's torch path
    runs with PyTorch's own C getters for data_ptr(), shape, stride() and
    dtype: ``torch.Tensor.is_cuda`` and ``.device`` become properties
    answering True and cuda:0 (a Python property costs about what PyTorch's
    getter does), uint8 stands for float8_e4m3fn (PyTorch < 2.1 has no FP8
    dtype: the package is told to take uint8 as e4m3), and the current-stream
    and current-device queries, absent from a CPU build, are C builtins that
    return 0. Only for this process's benchmark."""
    import torch
    if torch.cuda.is_available():
        raise SystemExit("--tensors torch-cpu is for PyTorch without a GPU (use torch)")
    cuda0 = torch.device("cuda", 0)
    torch.Tensor.is_cuda = property(lambda self: True)
    torch.Tensor.device = property(lambda self: cuda0)
    if not hasattr(torch._C, "_cuda_getCurrentRawStream"):
        torch._C._cuda_getCurrentRawStream = abs  # abs(device index 0) == 0
    if not hasattr(torch._C, "_cuda_getDevice"):
        torch._C._cuda_getDevice = int  # int() == 0
    if not hasattr(torch, "float8_e4m3fn"):
        sys.path.insert(0, str(ROOT / "python"))
        from dgemm import _lib, gemm, grouped
        _lib.DTYPES["uint8"] = _lib.DTYPE_F8E4M3
        _lib.ELEMENT_SIZES[_lib.DTYPE_F8E4M3] = 1
        gemm._F8 = grouped._F8 = ("float8_e4m3fn", "uint8")
    return torch


class Maker:
    """Makes the operands of one kind of tensor."""

    def __init__(self, kind):
        self.kind = kind
        self.torch = None
        self.next_ptr = 0x7f0000000000
        if kind == "torch":
            import torch
            if not torch.cuda.is_available():
                raise SystemExit("--tensors torch needs a GPU visible to PyTorch "
                                 "(torch-cpu: PyTorch's CPU tensors as stand-ins)")
            self.torch = torch
        elif kind == "torch-cpu":
            self.torch = _torch_cpu_standin()
        elif kind == "fake-torch":
            try:
                import torch  # noqa: F401 - a real PyTorch: leave it alone
                raise SystemExit("--tensors fake-torch needs PyTorch absent (use torch)")
            except ImportError:
                pass
            sys.modules["torch"] = _fake_torch_module()
            self.torch = sys.modules["torch"]
        elif kind == "duck":
            sys.path.insert(0, str(ROOT / "test" / "Python"))
        else:
            raise SystemExit("unknown --tensors kind %r" % kind)

    def dtype(self, name):
        if self.kind == "duck":
            import _support
            return {"float8_e4m3fn": _support.E4M3, "bfloat16": _support.BF16,
                    "float32": _support.F32, "int32": _support.I32}[name]
        return getattr(self.torch, name)

    def empty(self, shape, dtype, strides=None):
        if self.kind == "torch-cpu":
            t = self.torch
            dt = {"float8_e4m3fn": t.uint8}.get(dtype) or getattr(t, dtype)
            if strides is None:
                return t.zeros(shape, dtype=dt)
            return t.empty_strided(shape, strides, dtype=dt).zero_()
        if self.kind == "torch":
            t = self.torch
            dt = getattr(t, dtype)
            if strides is None:
                return t.zeros(shape, dtype=t.float32, device="cuda").to(dt)
            return t.empty_strided(shape, strides, dtype=dt, device="cuda").zero_()
        ptr = self.next_ptr
        self.next_ptr += 0x10000000
        if self.kind == "fake-torch":
            return self.torch.Tensor(shape, self.dtype(dtype), strides, ptr)
        import _support
        return _support.FakeTensor(shape, self.dtype(dtype), strides=strides, ptr=ptr)

    def normal(self):
        kb, nb = K // 128, (N + 127) // 128
        am = (M + 3) // 4 * 4
        return dict(a=self.empty((M, K), "float8_e4m3fn"),
                    sfa=self.empty((M, kb), "float32", strides=(1, am)),
                    b=self.empty((N, K), "float8_e4m3fn"),
                    sfb=self.empty((nb, kb), "float32"),
                    d=self.empty((M, N), "bfloat16"))

    def contiguous(self):
        kb, nb, ms = K // 128, (N + 127) // 128, G * GM
        ops = dict(a=self.empty((ms, K), "float8_e4m3fn"),
                   sfa=self.empty((ms, kb), "float32", strides=(1, ms)),
                   b=self.empty((G, N, K), "float8_e4m3fn"),
                   sfb=self.empty((G, nb, kb), "float32"),
                   d=self.empty((ms, N), "bfloat16"))
        if self.kind in ("torch", "torch-cpu"):
            t = self.torch
            dev = "cuda" if self.kind == "torch" else "cpu"
            ops["g"] = t.arange(G, dtype=t.int32, device=dev).repeat_interleave(GM)
        else:
            ops["g"] = self.empty((ms,), "int32")
        return ops

    def masked(self):
        kb, nb = K // 128, (N + 127) // 128
        return dict(a=self.empty((G, GM, K), "float8_e4m3fn"),
                    sfa=self.empty((G, GM, kb), "float32", strides=(GM * kb, 1, GM)),
                    b=self.empty((G, N, K), "float8_e4m3fn"),
                    sfb=self.empty((G, nb, kb), "float32"),
                    d=self.empty((G, GM, N), "bfloat16"),
                    g=self.empty((G,), "int32"))

    def sync(self):
        if self.kind == "torch":
            self.torch.cuda.synchronize()


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------

def per_call_us(fn, calls, sync):
    fn()
    sync()
    ts = []
    clock = time.perf_counter_ns
    for _ in range(calls):
        sync()
        t0 = clock()
        fn()
        t1 = clock()
        ts.append((t1 - t0) / 1e3)
    sync()
    return statistics.median(ts)


def batch_us(fn, repeats, batch, sync):
    fn()
    sync()
    rng = range(batch)
    clock = time.perf_counter_ns
    ts = []
    for _ in range(repeats):
        sync()
        t0 = clock()
        for _ in rng:
            fn()
        t1 = clock()
        ts.append((t1 - t0) / 1e3 / batch)
    sync()
    return statistics.median(ts)


def measure(fn, args, sync):
    gc_was = gc.isenabled()
    gc.disable()
    try:
        return dict(per_call_us=round(per_call_us(fn, args.calls, sync), 3),
                    batch_us=round(batch_us(fn, args.repeats, args.batch, sync), 3))
    finally:
        if gc_was:
            gc.enable()


def bare_grouped(dgemm, fn_name, c_name, ops, masked, *extra):
    """The bare ctypes call of an m-grouped GEMM on the structs the package
    validated (no Python checks, stream 0)."""
    import ctypes
    from dgemm import _lib, gemm, grouped
    args = grouped._GroupedArgs(fn_name, (ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]),
                                ops["d"], ops["g"], masked=masked)
    r = args.launch.refs
    s = gemm._stream_arg(args.launch.stream(None))
    _lib.load()
    c_fn = getattr(_lib._fast, c_name[len("dgemm_"):])  # as the package calls it
    call_args = r[:5] + tuple(ctypes.c_int64(e) for e in extra) + (r[5], s)

    def call():
        status = c_fn(*call_args)
        if status:
            _lib.check(status, fn_name)

    call.args = args
    return call


def breakdown(maker, t):
    """Median cost of single reads on one operand (an empty lambda's cost
    subtracted), in us."""
    items = [("t.data_ptr()", lambda: t.data_ptr()),
             ("t.shape", lambda: t.shape),
             ("t.stride()", lambda: t.stride()),
             ("t.dtype", lambda: t.dtype),
             ("t.device", lambda: t.device),
             ("t.is_cuda", lambda: t.is_cuda)]
    if maker.kind != "duck":
        torch = maker.torch
        items += [("t.get_device()", lambda: t.get_device()),
                  ("torch._C._cuda_getCurrentRawStream(0)",
                   lambda: torch._C._cuda_getCurrentRawStream(0)),
                  ("torch.cuda.current_stream().cuda_stream",
                   lambda: torch.cuda.current_stream().cuda_stream),
                  ("torch._C._cuda_getDevice()", lambda: torch._C._cuda_getDevice()),
                  ("torch.cuda.current_device()", lambda: torch.cuda.current_device())]
    empty = lambda: None  # noqa: E731

    def cost(fn, reps=21, n=2000):
        rng = range(n)
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter_ns()
            for _ in rng:
                fn()
            ts.append((time.perf_counter_ns() - t0) / n / 1e3)
        return statistics.median(ts)

    base = cost(empty)
    out = {}
    for name, fn in items:
        try:
            out[name] = round(cost(fn) - base, 4)
        except Exception as e:  # noqa: BLE001 - recorded
            out[name] = "%s: %s" % (type(e).__name__, e)
    out["empty call"] = round(base, 4)
    return out


def run_kind(kind, args, emit):
    maker = Maker(kind)
    sys.path.insert(0, str(ROOT / "python"))
    import dgemm
    from dgemm import _lib
    rec_base = dict(tensors=kind, lib=str(_lib.library_path()))
    sync = maker.sync

    ops = maker.normal()
    lhs, rhs, d = (ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]), ops["d"]
    results = {}
    calls = [
        ("python", lambda: dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d)),
        ("python_stream", lambda: dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d, stream=0)),
    ]
    t0 = time.perf_counter()
    dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d)  # compiles (or loads) the kernel
    sync()
    first_ms = (time.perf_counter() - t0) * 1e3
    calls.append(("c", dgemm.bind_gemm_fp8_fp8_bf16_nt(lhs, rhs, d, plain=True)))
    calls.append(("c_bound", dgemm.bind_gemm_fp8_fp8_bf16_nt(lhs, rhs, d)))
    for name, fn in calls:
        results[name] = measure(fn, args, sync)
    emit(dict(rec_base, call="gemm_fp8_fp8_bf16_nt", m=M, n=N, k=K, first_call_ms=round(first_ms, 2),
              overhead_us=round(results["python"]["per_call_us"] - results["c"]["per_call_us"], 3),
              overhead_batch_us=round(results["python"]["batch_us"] - results["c"]["batch_us"], 3),
              **{k: v for k, v in results.items()}))

    if not args.no_grouped:
        for layout in ("contiguous", "masked"):
            try:
                g = maker.contiguous() if layout == "contiguous" else maker.masked()
                gl, gr = (g["a"], g["sfa"]), (g["b"], g["sfb"])
                if layout == "contiguous":
                    py = lambda: dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_contiguous(  # noqa: E731
                        gl, gr, g["d"], g["g"])
                    bare = bare_grouped(dgemm, "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous",
                                        "dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", g, False)
                else:
                    py = lambda: dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_masked(  # noqa: E731
                        gl, gr, g["d"], g["g"], GM)
                    bare = bare_grouped(dgemm, "m_grouped_gemm_fp8_fp8_bf16_nt_masked",
                                        "dgemm_m_grouped_gemm_fp8_bf16_nt_masked", g, True, GM)
                t0 = time.perf_counter()
                py()
                sync()
                first_ms = (time.perf_counter() - t0) * 1e3
                rp, rc = measure(py, args, sync), measure(bare, args, sync)
                emit(dict(rec_base, call="m_grouped_" + layout, g=G, m_per_group=GM, n=N, k=K,
                          first_call_ms=round(first_ms, 2), python=rp, c=rc,
                          overhead_us=round(rp["per_call_us"] - rc["per_call_us"], 3),
                          overhead_batch_us=round(rp["batch_us"] - rc["batch_us"], 3)))
            except Exception as e:  # noqa: BLE001 - recorded, the rest goes on
                emit(dict(rec_base, call="m_grouped_" + layout,
                          error="%s: %s" % (type(e).__name__, e)))

    if args.breakdown:
        emit(dict(rec_base, call="breakdown", us=breakdown(maker, ops["a"])))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tensors", default=None,
                   help="comma-separated: torch, torch-cpu, fake-torch, duck (each in its own "
                   "process)")
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--repeats", type=int, default=21)
    p.add_argument("--batch", type=int, default=200)
    p.add_argument("--breakdown", action="store_true")
    p.add_argument("--no-grouped", action="store_true")
    p.add_argument("--stub", action="store_true",
                   help="run against test/Python/stub_runtime.c (built with cc)")
    args = p.parse_args(argv)

    def emit(rec):
        print(json.dumps(rec), flush=True)

    if args.stub:
        sys.path.insert(0, str(ROOT / "test" / "Python"))
        import _support
        path, why = _support.build_stub()
        if path is None:
            raise SystemExit("--stub: %s" % why)
        os.environ["DGEMM_LIB"] = str(path)

    kinds = args.tensors
    if kinds is None:
        try:
            import torch
            kinds = "torch" if torch.cuda.is_available() else "torch-cpu,duck"
        except ImportError:
            kinds = "fake-torch,duck"
    kinds = [k.strip() for k in kinds.split(",") if k.strip()]
    emit(dict(call="meta", python=platform.python_version(), machine=platform.machine(),
              processor=platform.processor() or None, tensors=kinds,
              stub=bool(args.stub), cuda_driver=os.environ.get("DGEMM_CUDA_DRIVER"),
              calls=args.calls, repeats=args.repeats, batch=args.batch))
    if len(kinds) == 1:
        run_kind(kinds[0], args, emit)
        return 0
    # One process per kind: a stub torch module must not meet the others.
    import subprocess
    rc = 0
    for kind in kinds:
        cmd = [sys.executable, os.path.abspath(__file__), "--tensors", kind, "--calls",
               str(args.calls), "--repeats", str(args.repeats), "--batch", str(args.batch)]
        cmd += ["--breakdown"] * args.breakdown + ["--no-grouped"] * args.no_grouped
        r = subprocess.run(cmd, capture_output=True, text=True, env=os.environ)
        for line in r.stdout.splitlines():
            if '"call": "meta"' not in line:
                print(line, flush=True)
        if r.returncode != 0:
            emit(dict(tensors=kind, error=r.stderr.strip()[-2000:]))
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
