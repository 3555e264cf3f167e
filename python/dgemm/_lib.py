#===- _lib.py - load libdgemm.so and declare its C API -------------------===#
"""Finds and loads ``libdgemm.so`` with ctypes and declares the C API of
``include/dgemm-c/Runtime.h`` (the one source of truth; keep the two in step).

The library is loaded on first use, never at import, so ``import dgemm`` works
on machines without the library, a GPU or PyTorch. Search order:

1. ``$DGEMM_LIB``: a file, or a folder holding ``libdgemm.so``. When set, it is
   the only candidate (a wrong path is an error, not a silent fallback).
2. ``<repo>/build/lib/libdgemm.so`` (this file is ``<repo>/python/dgemm/``).
3. The GPU bundle unpacked where ``scripts/device-run.sh`` puts it:
   ``/tmp/dgemm/dgemm/lib/libdgemm.so``.
4. ``libdgemm.so`` beside this file (an installed package that ships it).

Every C function returns a ``dgemm_status``; :func:`check` turns a non-OK one
into :class:`DgemmError` (``DgemmArgumentError`` for invalid arguments) whose
text includes ``dgemm_last_error()``, read on the same thread right after the
call (the message is thread-local in the library).
"""
import ctypes
import os
import threading
from pathlib import Path

# dgemm_status (Runtime.h).
OK = 0
ERROR_INVALID_ARGUMENT = 1
ERROR_NO_DRIVER = 2
ERROR_NO_DEVICE = 3
ERROR_COMPILE = 4
ERROR_CUDA = 5
ERROR_CACHE = 6
ERROR_INTERNAL = 7
ERROR_STALE_BINDING = 8
STATUS_NAMES = {
    OK: "DGEMM_OK",
    ERROR_INVALID_ARGUMENT: "DGEMM_ERROR_INVALID_ARGUMENT",
    ERROR_NO_DRIVER: "DGEMM_ERROR_NO_DRIVER",
    ERROR_NO_DEVICE: "DGEMM_ERROR_NO_DEVICE",
    ERROR_COMPILE: "DGEMM_ERROR_COMPILE",
    ERROR_CUDA: "DGEMM_ERROR_CUDA",
    ERROR_CACHE: "DGEMM_ERROR_CACHE",
    ERROR_INTERNAL: "DGEMM_ERROR_INTERNAL",
    ERROR_STALE_BINDING: "DGEMM_ERROR_STALE_BINDING",
}

# dgemm_dtype (Runtime.h), keyed by the PyTorch dtype name without "torch.".
DTYPE_F8E4M3 = 0
DTYPE_F8E5M2 = 1
DTYPE_BF16 = 2
DTYPE_F32 = 3
DTYPE_I32 = 4
DTYPES = {
    "float8_e4m3fn": DTYPE_F8E4M3,
    "float8_e5m2": DTYPE_F8E5M2,
    "bfloat16": DTYPE_BF16,
    "float32": DTYPE_F32,
    "int32": DTYPE_I32,
}
ELEMENT_SIZES = {DTYPE_F8E4M3: 1, DTYPE_F8E5M2: 1, DTYPE_BF16: 2,
                 DTYPE_F32: 4, DTYPE_I32: 4}
MAX_RANK = 4

BUNDLE_LIB = Path("/tmp/dgemm/dgemm/lib/libdgemm.so")


class DgemmError(RuntimeError):
    """An error reported by dgemm: ``status`` is the ``dgemm_status`` code
    (None when the library could not be loaded or the error was found in
    Python), ``status_name`` its enumerator name."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status
        self.status_name = STATUS_NAMES.get(status) if status is not None else None


class DgemmArgumentError(DgemmError, ValueError):
    """Invalid arguments (dtype, shape, stride, alignment), found in Python
    before any GPU work or reported by the C API as
    DGEMM_ERROR_INVALID_ARGUMENT."""

    def __init__(self, message, status=ERROR_INVALID_ARGUMENT):
        super().__init__(message, status)


class Tensor(ctypes.Structure):
    """``dgemm_tensor``: device pointer, dtype, rank, shape and strides in
    elements, outermost dimension first (as PyTorch)."""
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("dtype", ctypes.c_int),  # a C enum: int on every ABI we target
        ("rank", ctypes.c_int32),
        ("shape", ctypes.c_int64 * MAX_RANK),
        ("strides", ctypes.c_int64 * MAX_RANK),
    ]

    @classmethod
    def make(cls, data, dtype, shape, strides):
        rank = len(shape)
        assert rank == len(strides) and 0 < rank <= MAX_RANK
        return cls(data, dtype, rank, tuple(shape), tuple(strides))  # rest zero-filled

    def __repr__(self):
        r = self.rank
        return "dgemm_tensor(data=0x%x, dtype=%d, shape=%s, strides=%s)" % (
            self.data or 0, self.dtype, tuple(self.shape[:r]),
            tuple(self.strides[:r]))


_TP = ctypes.POINTER(Tensor)
_c_int64 = ctypes.c_int64
_BCP = ctypes.POINTER(ctypes.c_void_p)  # dgemm_bound_call **

# name -> (restype, argtypes). Output char buffers are POINTER(c_char) so
# that create_string_buffer objects pass as they are.
API = {
    "dgemm_last_error": (ctypes.c_char_p, []),
    "dgemm_gemm_fp8_bf16_nt": (ctypes.c_int, [_TP, _TP, _TP, _TP, _TP, ctypes.c_void_p]),
    "dgemm_gemm_fp8_bf16_nt_bias": (ctypes.c_int,
                                    [_TP, _TP, _TP, _TP, _TP, _TP, ctypes.c_void_p]),
    "dgemm_wgrad_gemm_fp8_fp32_nt": (ctypes.c_int,
                                     [_TP, _TP, _TP, _TP, _TP, ctypes.c_void_p]),
    "dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt": (
        ctypes.c_int, [_TP, _TP, _TP, _TP, _TP, ctypes.POINTER(_c_int64), _c_int64,
                       ctypes.c_void_p]),
    "dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets": (
        ctypes.c_int, [_TP, _TP, _TP, _TP, _TP, _TP, ctypes.c_void_p]),
    "dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous": (
        ctypes.c_int, [_TP, _TP, _TP, _TP, _TP, _TP, ctypes.c_void_p]),
    "dgemm_m_grouped_gemm_fp8_bf16_nt_masked": (
        ctypes.c_int, [_TP, _TP, _TP, _TP, _TP, _c_int64, _TP, ctypes.c_void_p]),
    "dgemm_bind_gemm_fp8_bf16_nt": (ctypes.c_int, [_TP, _TP, _TP, _TP, _TP, _BCP]),
    "dgemm_bind_gemm_fp8_bf16_nt_bias": (ctypes.c_int, [_TP, _TP, _TP, _TP, _TP, _TP, _BCP]),
    "dgemm_bind_wgrad_gemm_fp8_fp32_nt": (ctypes.c_int, [_TP, _TP, _TP, _TP, _TP, _BCP]),
    "dgemm_bind_m_grouped_gemm_fp8_bf16_nt_contiguous": (
        ctypes.c_int, [_TP, _TP, _TP, _TP, _TP, _TP, _BCP]),
    "dgemm_bind_m_grouped_gemm_fp8_bf16_nt_masked": (
        ctypes.c_int, [_TP, _TP, _TP, _TP, _TP, _c_int64, _TP, _BCP]),
    "dgemm_bound_call_launch": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p]),
    "dgemm_bound_call_free": (None, [ctypes.c_void_p]),
    "dgemm_gemm_config": (ctypes.c_int, [_c_int64, _c_int64, _c_int64,
                                         ctypes.POINTER(ctypes.c_char), _c_int64]),
    "dgemm_gemm_prepare": (ctypes.c_int, [_c_int64, _c_int64, _c_int64,
                                          ctypes.POINTER(ctypes.c_double),
                                          ctypes.POINTER(ctypes.c_char), _c_int64]),
    "dgemm_launch_kernel_ir": (ctypes.c_int, [ctypes.c_char_p, _TP, _TP, _TP, _TP, _TP,
                                              ctypes.c_void_p]),
    "dgemm_launch_wgrad_kernel_ir": (ctypes.c_int, [ctypes.c_char_p, _TP, _TP, _TP, _TP, _TP,
                                                    ctypes.c_void_p]),
    "dgemm_launch_grouped_kernel_ir": (ctypes.c_int, [ctypes.c_char_p, _TP, _TP, _TP, _TP, _TP,
                                                      _TP, ctypes.c_void_p]),
    "dgemm_compile_to_ptx": (ctypes.c_int, [ctypes.c_char_p,
                                            ctypes.POINTER(ctypes.c_void_p)]),
    "dgemm_free": (None, [ctypes.c_void_p]),
    "dgemm_set_num_sms": (ctypes.c_int, [_c_int64]),
    "dgemm_get_num_sms": (ctypes.c_int, [ctypes.POINTER(_c_int64)]),
    "dgemm_jit_settings": (ctypes.c_int, [ctypes.POINTER(ctypes.c_char), _c_int64]),
}

# The launch functions again, without argtypes: ctypes then converts each
# argument by its own type instead of calling a from_param per argument,
# which takes about half a microsecond off a call. Callers pass exactly the
# C types: byref(Tensor) (or a Tensor pointer), a c_void_p or None for the
# stream, c_int64 for int64_t, bytes for const char *.
FAST = ("dgemm_gemm_fp8_bf16_nt", "dgemm_gemm_fp8_bf16_nt_bias",
        "dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous",
        "dgemm_m_grouped_gemm_fp8_bf16_nt_masked", "dgemm_launch_kernel_ir",
        "dgemm_launch_grouped_kernel_ir", "dgemm_wgrad_gemm_fp8_fp32_nt",
        "dgemm_launch_wgrad_kernel_ir",
        "dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets",
        "dgemm_bound_call_launch")


class Fast:
    """The FAST functions of one loaded library, by name without "dgemm_"
    (restype int: dgemm_status)."""

    def __init__(self, lib):
        for name in FAST:
            fn = lib._FuncPtr((name, lib))  # a new handle: lib.<name>'s argtypes stay
            fn.restype = ctypes.c_int
            setattr(self, name[len("dgemm_"):], fn)


_lock = threading.Lock()
_lib = None
_lib_path = None
_fast = None  # Fast(_lib), set with _lib


def candidate_paths():
    """The paths tried, in order (see the module docstring)."""
    env = os.environ.get("DGEMM_LIB")
    if env:
        p = Path(env)
        return [p / "libdgemm.so" if p.is_dir() else p]
    here = Path(__file__).resolve().parent
    return [here.parent.parent / "build" / "lib" / "libdgemm.so",
            BUNDLE_LIB,
            here / "libdgemm.so"]


def _declare(lib, path):
    missing = [name for name in API if not hasattr(lib, name)]
    if missing:
        raise DgemmError(
            "%s does not export %s: it was built without the dgemm C API "
            "(include/dgemm-c/Runtime.h); rebuild it" % (path, ", ".join(missing)))
    for name, (restype, argtypes) in API.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


def load():
    """Loads libdgemm.so once (thread-safe) and returns the ctypes library."""
    global _lib, _lib_path, _fast
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for path in candidate_paths():
            if not path.is_file():
                tried.append("%s (not found)" % path)
                continue
            try:
                # RTLD_LOCAL: our statically linked LLVM never meets another.
                lib = ctypes.CDLL(str(path), mode=os.RTLD_LOCAL | os.RTLD_NOW)
            except OSError as e:
                raise DgemmError("cannot load %s: %s" % (path, e)) from None
            _declare(lib, path)
            _fast = Fast(lib)
            _lib, _lib_path = lib, path
            return lib
        raise DgemmError(
            "libdgemm.so not found; tried: %s. Set DGEMM_LIB to the library "
            "(or its folder), or build it with scripts/build.sh" % "; ".join(tried))


def library_path():
    """The path of the loaded library (loads it)."""
    load()
    return _lib_path


def last_error(lib=None):
    msg = (lib or load()).dgemm_last_error()
    return msg.decode("utf-8", "replace") if msg else ""


def check(status, function, lib=None):
    """Raises DgemmError for a non-OK ``status`` returned by ``function``."""
    if status == OK:
        return
    msg = last_error(lib)
    name = STATUS_NAMES.get(status, "status %d" % status)
    text = "%s failed: %s: %s" % (function, name, msg or "(no message)")
    if status == ERROR_INVALID_ARGUMENT:
        raise DgemmArgumentError(text, status)
    raise DgemmError(text, status)


def _reset_for_tests():
    """Forgets the loaded library (tests switch DGEMM_LIB between cases)."""
    global _lib, _lib_path, _fast
    with _lock:
        _lib, _lib_path, _fast = None, None, None
