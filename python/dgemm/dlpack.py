#===- dlpack.py - operands from any DLPack tensor -------------------------===#
"""Any object with ``__dlpack__`` and ``__dlpack_device__`` (CuPy, JAX,
TensorFlow, numba, a PyTorch tensor, ...) is accepted as a GEMM operand.

When PyTorch is already imported the object becomes a torch tensor through
``torch.from_dlpack`` (zero-copy; PyTorch orders the producer's stream with
its current stream). Otherwise :func:`view` reads the DLPack capsule with
ctypes, without PyTorch: data pointer (plus ``byte_offset``), device,
dtype, shape and strides (compact row-major when the producer gives none).
The capsule is peeked at, not consumed: the producer's own capsule
destructor releases it, and the producer's object keeps the memory alive.

DLPack dtypes understood: float8_e4m3fn (type code 10), float8_e5m2 (12),
bfloat16 (4, 16 bits), float16/32/64 (2), int8..64 (0), uint8 (1); others are
reported by code and bits. Only CUDA device memory (device type 2) can be
launched on; everything else is rejected by the GEMM's device check.
"""
import ctypes
import sys

from ._lib import DgemmArgumentError

KDL_CPU = 1
KDL_CUDA = 2
DEVICE_NAMES = {1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl", 7: "vulkan", 8: "metal",
                9: "vpi", 10: "rocm", 11: "rocm_host", 12: "ext_dev", 13: "cuda_managed",
                14: "oneapi", 15: "webgpu", 16: "hexagon"}

# (type code, bits) -> the PyTorch dtype name the rest of the package uses.
DTYPES = {
    (10, 8): "float8_e4m3fn",
    (12, 8): "float8_e5m2",
    (4, 16): "bfloat16",
    (2, 16): "float16",
    (2, 32): "float32",
    (2, 64): "float64",
    (0, 8): "int8",
    (0, 16): "int16",
    (0, 32): "int32",
    (0, 64): "int64",
    (1, 8): "uint8",
    (6, 8): "bool",
}
_KNOWN = frozenset(DTYPES.values())


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


# DLManagedTensorVersioned: version (2 x u32), manager_ctx, deleter, flags,
# then the DLTensor. DLManagedTensor starts with the DLTensor.
_VERSIONED_OFFSET = 8 + 8 + 8 + 8

_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype = ctypes.c_char_p
_get_name.argtypes = [ctypes.py_object]


class DLPackError(DgemmArgumentError):
    """An object that claims DLPack but cannot be read."""


def is_dlpack(obj):
    """True for an object that is not a tensor with ``data_ptr()`` but speaks
    DLPack."""
    return (not hasattr(obj, "data_ptr") and hasattr(obj, "__dlpack__")
            and hasattr(obj, "__dlpack_device__"))


class _Dtype:
    """Prints like a torch dtype ("torch.float8_e4m3fn"), as the package
    expects of a dtype."""
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return ("torch." + self.name) if self.name in _KNOWN else self.name

    __repr__ = __str__

    def __eq__(self, other):
        return str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


class View:
    """A DLPack tensor as the package reads operands: ``shape``,
    ``stride()``, ``data_ptr()``, ``dtype``, ``device``, ``is_cuda``. Keeps
    the producer's object and capsule alive."""
    __slots__ = ("shape", "_strides", "_ptr", "dtype", "device", "is_cuda",
                 "device_type", "device_id", "_source", "_capsule")

    def __init__(self, source, capsule, ptr, shape, strides, dtype, device_type, device_id):
        self._source, self._capsule = source, capsule
        self.shape, self._strides, self._ptr = tuple(shape), tuple(strides), ptr
        self.dtype = dtype
        self.device_type, self.device_id = device_type, device_id
        name = DEVICE_NAMES.get(device_type, "device type %d" % device_type)
        self.device = "%s:%d" % (name, device_id) if device_type != KDL_CPU else "cpu"
        self.is_cuda = device_type == KDL_CUDA

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._ptr

    def __repr__(self):
        return "dlpack.View(shape=%s, strides=%s, dtype=%s, device=%s)" % (
            self.shape, self._strides, self.dtype, self.device)


def _capsule_tensor(capsule):
    name = _get_name(capsule)
    if name == b"dltensor":
        return _DLTensor.from_address(_get_pointer(capsule, name))
    if name == b"dltensor_versioned":
        return _DLTensor.from_address(_get_pointer(capsule, name) + _VERSIONED_OFFSET)
    raise DLPackError("__dlpack__() returned a capsule named %r, not 'dltensor' (a consumed "
                      "or foreign capsule)" % (name,))


def view(obj, stream=None, what="operand"):
    """Reads ``obj.__dlpack__()`` into a :class:`View`. ``stream``: the
    CUstream (int) the operand will be used on, passed to a CUDA producer so
    it orders its pending work before it (DLPack's convention: 1 for the
    legacy default stream). ``what`` names the operand in errors."""
    name = type(obj).__name__
    try:
        dev_type, dev_id = (int(x) for x in obj.__dlpack_device__())
    except Exception as e:  # noqa: BLE001 - reported with the object's type
        raise DLPackError("%s: %s.__dlpack_device__() failed: %s" % (what, name, e)) from None
    try:
        if dev_type == KDL_CUDA:
            capsule = obj.__dlpack__(stream=1 if not stream else int(stream))
        else:
            capsule = obj.__dlpack__()
    except Exception as e:  # noqa: BLE001
        raise DLPackError("%s: %s.__dlpack__() failed: %s" % (what, name, e)) from None
    try:
        t = _capsule_tensor(capsule)
    except (DLPackError, ValueError, TypeError) as e:
        raise DLPackError("%s: %s" % (what, e)) from None
    ndim = int(t.ndim)
    if ndim < 0 or ndim > 16:
        raise DLPackError("%s: a DLPack tensor with ndim = %d" % (what, ndim))
    shape = [int(t.shape[i]) for i in range(ndim)]
    if t.strides:
        strides = [int(t.strides[i]) for i in range(ndim)]
    else:
        strides, inner = [0] * ndim, 1
        for i in range(ndim - 1, -1, -1):
            strides[i] = inner
            inner *= shape[i]
    code, bits, lanes = int(t.dtype.code), int(t.dtype.bits), int(t.dtype.lanes)
    name = DTYPES.get((code, bits)) if lanes == 1 else None
    if name is None:
        name = "dlpack(code=%d, bits=%d, lanes=%d)" % (code, bits, lanes)
    ptr = (t.data or 0) + int(t.byte_offset)
    return View(obj, capsule, ptr, shape, strides, _Dtype(name), int(t.device.device_type),
                int(t.device.device_id))


def as_operand(obj, stream=None, what="operand"):
    """``obj`` itself when it is a tensor with ``data_ptr()`` (PyTorch or a
    stand-in) or not DLPack at all (the caller's checks say why); a torch
    tensor when PyTorch is imported; else a :class:`View`."""
    if not is_dlpack(obj):
        return obj
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "from_dlpack"):
        try:
            return torch.from_dlpack(obj)
        except Exception:  # noqa: BLE001 - e.g. a dtype torch cannot import: read it ourselves
            pass
    return view(obj, stream, what)
