#===- _support.py - shared pieces of the Python tests --------------------===#
"""Paths, stand-in tensors, and builders for the stub and real libraries.

Run the suite from the repository root with
``python3 -m unittest discover -s test/Python -v`` (the Debian python3 with
python3-numpy; tests that need numpy, a C compiler, the built library,
PyTorch or a GPU are skipped with the reason printed).
"""
import ctypes
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON_DIR = ROOT / "python"
if str(PYTHON_DIR) not in sys.path:
    sys.path.insert(0, str(PYTHON_DIR))
for d in (ROOT / "bench", ROOT / "scripts"):
    if str(d) not in sys.path:
        sys.path.insert(0, str(d))

import dgemm  # noqa: E402
from dgemm import _lib  # noqa: E402

try:
    import numpy  # noqa: F401
    HAVE_NUMPY = True
except ImportError:
    HAVE_NUMPY = False


class FakeDtype:
    """Prints like a torch dtype (the Python layer reads str(dtype))."""

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name

    __repr__ = __str__


E4M3, BF16, F32, I32 = (FakeDtype(n) for n in ("float8_e4m3fn", "bfloat16", "float32", "int32"))


class FakeTensor:
    """A stand-in tensor: shape, stride(), data_ptr(), dtype, device, is_cuda."""

    def __init__(self, shape, dtype, strides=None, ptr=0x7f0000000000, is_cuda=True,
                 device="cuda:0"):
        self.shape = tuple(shape)
        if strides is None:
            strides, inner = [], 1
            for s in reversed(self.shape):
                strides.insert(0, inner)
                inner *= s
        self._strides = tuple(strides)
        self.dtype = dtype
        self._ptr = ptr
        self.is_cuda = is_cuda
        self.device = device

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._ptr


def ceil_div(a, b):
    return (a + b - 1) // b


def gemm_operands(m, n, k, **over):
    """Valid stand-in operands of a normal GEMM at distinct aligned
    addresses; ``over`` replaces any of a, sfa, b, sfb, d."""
    kb, nb = k // 128, ceil_div(n, 128)
    am = ceil_div(m, 4) * 4
    base = 0x7f0000000000
    ops = dict(
        a=FakeTensor((m, k), E4M3, ptr=base),
        sfa=FakeTensor((m, kb), F32, strides=(1, am), ptr=base + 0x10000000),
        b=FakeTensor((n, k), E4M3, ptr=base + 0x20000000),
        sfb=FakeTensor((nb, kb), F32, ptr=base + 0x30000000),
        d=FakeTensor((m, n), BF16, ptr=base + 0x40000000),
    )
    ops.update(over)
    return ops


def call_gemm(ops, **kw):
    return dgemm.gemm_fp8_fp8_bf16_nt((ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]),
                                      ops["d"], **kw)


class LibEnv:
    """Context: DGEMM_LIB set to ``path`` (None: unset) and the loaded
    library forgotten on entry and exit."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        self.saved = os.environ.get("DGEMM_LIB")
        if self.path is None:
            os.environ.pop("DGEMM_LIB", None)
        else:
            os.environ["DGEMM_LIB"] = str(self.path)
        _lib._reset_for_tests()
        return self

    def __exit__(self, *exc):
        if self.saved is None:
            os.environ.pop("DGEMM_LIB", None)
        else:
            os.environ["DGEMM_LIB"] = self.saved
        _lib._reset_for_tests()
        return False


def c_compiler():
    for cc in (os.environ.get("CC"), "cc", "gcc", "clang", "clang-22"):
        if cc and shutil.which(cc):
            return cc
    return None


_stub = None


def build_stub():
    """Builds stub_runtime.c into a temporary libdgemm.so once; returns its
    path, or (None, reason)."""
    global _stub
    if _stub is not None:
        return _stub
    cc = c_compiler()
    if cc is None:
        _stub = (None, "no C compiler (cc/gcc/clang) to build the stub library")
        return _stub
    out = Path(tempfile.mkdtemp(prefix="dgemm-stub-")) / "libdgemm.so"
    cmd = [cc, "-shared", "-fPIC", "-O1", "-I", str(ROOT / "include"),
           str(Path(__file__).with_name("stub_runtime.c")), "-o", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("building the stub failed:\n%s\n%s" % (" ".join(cmd), r.stderr))
    _stub = (out, None)
    return _stub


def find_real_library():
    """The built libdgemm.so that exports the C API: $DGEMM_LIB if set, else
    build*/lib/libdgemm.so under the repository. Returns (path, None) or
    (None, reason to skip)."""
    env = os.environ.get("DGEMM_LIB")
    cands = [Path(env) / "libdgemm.so" if env and Path(env).is_dir() else Path(env)] if env \
        else [Path(p) for p in sorted(glob.glob(str(ROOT / "build*" / "lib" / "libdgemm.so")))]
    if not cands:
        return None, "no build*/lib/libdgemm.so (build with scripts/build.sh) and DGEMM_LIB unset"
    reasons = []
    for p in cands:
        if not p.is_file():
            reasons.append("%s not found" % p)
            continue
        syms = exported_symbols(p)
        if syms is not None and "dgemm_gemm_fp8_bf16_nt" not in syms:
            reasons.append("%s does not export the C API yet (no dgemm_gemm_fp8_bf16_nt)" % p)
            continue
        return p, None
    return None, "; ".join(reasons)


def exported_symbols(path):
    """Dynamic symbols of a shared library (nm -D), or None without nm."""
    nm = shutil.which("nm")
    if nm is None:
        return None
    r = subprocess.run([nm, "-D", "--defined-only", str(path)], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    return {line.split()[-1] for line in r.stdout.splitlines() if line.strip()}


class OnStubLibrary(unittest.TestCase):
    """Base of the tests that run the Python layer against stub_runtime.c
    (built once; skipped, with the reason, without a C compiler): DGEMM_LIB
    points at the stub during each test, and `self.stub` reads back what
    the calls passed."""

    @classmethod
    def setUpClass(cls):
        path, why = build_stub()
        if path is None:
            raise unittest.SkipTest(why)
        cls.path = path
        cls.stub = ctypes.CDLL(str(path))  # same file: dlopen shares the handle
        cls.stub.stub_last_tensor.restype = ctypes.POINTER(_lib.Tensor)
        cls.stub.stub_last_stream.restype = ctypes.c_void_p
        cls.stub.stub_last_ir.restype = ctypes.c_char_p
        cls.stub.stub_last_expected_m.restype = ctypes.c_int64
        cls.stub.stub_set_next_status.argtypes = [ctypes.c_int, ctypes.c_char_p]

    def setUp(self):
        self.env = LibEnv(self.path)
        self.env.__enter__()

    def tearDown(self):
        self.env.__exit__(None, None, None)

    def check(self, want):
        """The tensors of the last call, in order, are `want`'s (tensor,
        dtype code, shape, strides)."""
        for i, (t, dtype, shape, strides) in enumerate(want):
            got = self.stub.stub_last_tensor(i).contents
            r = len(shape)
            self.assertEqual(got.data, t.data_ptr(), i)
            self.assertEqual(got.dtype, dtype, i)
            self.assertEqual(got.rank, r, i)
            self.assertEqual(tuple(got.shape[:r]), shape, i)
            self.assertEqual(tuple(got.strides[:r]), strides, i)

