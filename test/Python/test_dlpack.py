#===- test_dlpack.py - GEMM operands from any DLPack tensor --------------===#
"""DLPack producers built here with ctypes (a DLManagedTensor in a
"dltensor" capsule, on a CUDA device, with fake device addresses) passed to
the GEMM over the stub library: the C structs carry their pointers (plus
byte_offset), dtypes, shapes and strides (NULL strides = compact); the
producer is asked for the launch stream; wrong devices and dtypes, broken
producers and foreign capsules are argument errors naming the operand. With
numpy (a real CPU producer), the capsule reader is checked against the
array itself. PyTorch is hidden from the package in these tests, so the
reader path runs even where torch is installed."""
import ctypes
import sys
import unittest
from unittest import mock

import _support as S
from _support import call_gemm, gemm_operands

import dgemm
from dgemm import DgemmArgumentError, _lib, dlpack

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
_NAMES = {n: ctypes.create_string_buffer(n) for n in (b"dltensor", b"dltensor_versioned",
                                                      b"used_dltensor")}


class _Managed(ctypes.Structure):
    _fields_ = [("dl_tensor", dlpack._DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


class _ManagedVersioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
                ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p),
                ("flags", ctypes.c_uint64), ("dl_tensor", dlpack._DLTensor)]


E4M3, F32, BF16, E4M3_NOT_FN = (10, 8), (2, 32), (4, 16), (8, 8)


class FakeDLPack:
    """A DLPack producer of a tensor at a fake address on ``device``."""

    def __init__(self, shape, dtype, ptr, strides=None, byte_offset=0, device=(2, 0),
                 capsule_name=b"dltensor"):
        self.shape_arr = (ctypes.c_int64 * len(shape))(*shape)
        self.strides_arr = (ctypes.c_int64 * len(shape))(*strides) if strides else None
        versioned = capsule_name == b"dltensor_versioned"
        self.managed = (_ManagedVersioned if versioned else _Managed)()
        t = self.managed.dl_tensor
        t.data = ptr
        t.device.device_type, t.device.device_id = device
        t.ndim = len(shape)
        t.dtype.code, t.dtype.bits, t.dtype.lanes = dtype[0], dtype[1], 1
        t.shape = self.shape_arr
        t.strides = self.strides_arr
        t.byte_offset = byte_offset
        self.device, self.capsule_name = device, capsule_name
        self.streams = []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return _capsule_new(ctypes.addressof(self.managed),
                            ctypes.addressof(_NAMES[self.capsule_name]), None)


def dl_operands(m, n, k, **over):
    """Valid DLPack operands of a normal GEMM (A passed with NULL strides
    and a byte offset, the others with explicit strides)."""
    kb, nb, am = k // 128, (n + 127) // 128, (m + 3) // 4 * 4
    base = 0x7f0000000000
    ops = dict(
        a=FakeDLPack((m, k), E4M3, base - 256, byte_offset=256),
        sfa=FakeDLPack((m, kb), F32, base + 0x10000000, strides=(1, am)),
        b=FakeDLPack((n, k), E4M3, base + 0x20000000, strides=(k, 1)),
        sfb=FakeDLPack((nb, kb), F32, base + 0x30000000),
        d=FakeDLPack((m, n), BF16, base + 0x40000000, strides=(n, 1)),
    )
    ops.update(over)
    return ops


class DLPackOperands(S.OnStubLibrary):
    def setUp(self):
        super().setUp()
        self.no_torch = mock.patch.dict(sys.modules, {"torch": None})
        self.no_torch.start()

    def tearDown(self):
        self.no_torch.stop()
        super().tearDown()

    def test_structs_from_dlpack(self):
        m, n, k = 200, 392, 640
        ops = dl_operands(m, n, k)
        before = self.stub.stub_calls()
        call_gemm(ops, stream=0x1234)
        self.assertEqual(self.stub.stub_calls(), before + 1)
        self.assertEqual(self.stub.stub_last_stream(), 0x1234)
        want = [
            (0x7f0000000000, _lib.DTYPE_F8E4M3, (m, k), (k, 1)),
            (0x7f0010000000, _lib.DTYPE_F32, (m, k // 128), (1, 200)),
            (0x7f0020000000, _lib.DTYPE_F8E4M3, (n, k), (k, 1)),
            (0x7f0030000000, _lib.DTYPE_F32, (4, k // 128), (k // 128, 1)),
            (0x7f0040000000, _lib.DTYPE_BF16, (m, n), (n, 1)),
        ]
        for i, (ptr, dtype, shape, strides) in enumerate(want):
            got = self.stub.stub_last_tensor(i).contents
            self.assertEqual((got.data, got.dtype, got.rank), (ptr, dtype, 2), i)
            self.assertEqual(tuple(got.shape[:2]), shape, i)
            self.assertEqual(tuple(got.strides[:2]), strides, i)
        # Every producer was asked for the launch stream.
        for name, op in ops.items():
            self.assertEqual(op.streams, [0x1234], name)

    def test_default_stream_is_dlpack_legacy_default(self):
        ops = dl_operands(128, 256, 256)
        call_gemm(ops)
        self.assertIn(self.stub.stub_last_stream(), (None, 0))
        self.assertEqual(ops["a"].streams, [1])  # DLPack's "legacy default stream"

    def test_versioned_capsule_and_bound_call(self):
        m, n, k = 64, 256, 512
        ops = dl_operands(m, n, k, b=FakeDLPack((n, k), E4M3, 0x7f0070000000,
                                                capsule_name=b"dltensor_versioned"))
        call = dgemm.bind_gemm_fp8_fp8_bf16_nt((ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]),
                                               ops["d"], stream=5)
        call()
        self.assertEqual(self.stub.stub_last_tensor(2).contents.data, 0x7f0070000000)
        self.assertEqual(tuple(self.stub.stub_last_tensor(2).contents.strides[:2]), (k, 1))

    def test_host_memory_is_refused(self):
        ops = dl_operands(128, 256, 256, d=FakeDLPack((128, 256), BF16, 0x7f0040000000,
                                                      device=(1, 0)))
        with self.assertRaisesRegex(DgemmArgumentError,
                                    r"out \(D\) is on cpu; all operands must be CUDA tensors"):
            call_gemm(ops, stream=0)
        ops = dl_operands(128, 256, 256, a=FakeDLPack((128, 256), E4M3, 0x7f0000000000,
                                                      device=(13, 0)))
        with self.assertRaisesRegex(DgemmArgumentError, r"lhs\[0\] \(A\) is on cuda_managed:0"):
            call_gemm(ops, stream=0)

    def test_dtypes(self):
        ops = dl_operands(128, 256, 256, a=FakeDLPack((128, 256), E4M3_NOT_FN, 0x7f0000000000))
        with self.assertRaisesRegex(DgemmArgumentError,
                                    r"lhs\[0\] \(A\) must be torch.float8_e4m3fn, got "
                                    r"dlpack\(code=8, bits=8, lanes=1\)"):
            call_gemm(ops, stream=0)
        ops = dl_operands(128, 256, 256, d=FakeDLPack((128, 256), F32, 0x7f0040000000))
        with self.assertRaisesRegex(DgemmArgumentError,
                                    r"out \(D\) must be torch.bfloat16, got torch.float32"):
            call_gemm(ops, stream=0)

    def test_non_k_major_b_is_refused(self):
        n, k = 256, 256
        ops = dl_operands(128, n, k, b=FakeDLPack((n, k), E4M3, 0x7f0020000000,
                                                  strides=(1, n)))
        with self.assertRaisesRegex(DgemmArgumentError, r"rhs\[0\] \(B\) \[256, 256\] must be "
                                    r"row-major"):
            call_gemm(ops, stream=0)

    def test_scale_layouts_are_not_copied_without_torch(self):
        ops = dl_operands(128, 256, 256, sfa=FakeDLPack((128, 2), F32, 0x7f0010000000))
        with self.assertRaisesRegex(DgemmArgumentError, r"A scales must be MN-major .* only "
                                    r"torch tensors are converted automatically"):
            call_gemm(ops, stream=0)

    def test_broken_producers(self):
        class Broken:
            def __dlpack_device__(self):
                return (2, 0)

            def __dlpack__(self, stream=None):
                raise BufferError("no export for you")

        class Foreign(Broken):
            def __dlpack__(self, stream=None):
                return _capsule_new(ctypes.addressof(_NAMES[b"dltensor"]),
                                    ctypes.addressof(_NAMES[b"used_dltensor"]), None)

        ops = dl_operands(128, 256, 256, sfb=Broken())
        with self.assertRaisesRegex(DgemmArgumentError, r"rhs\[1\] \(B scales\): Broken.__dlpack__"
                                    r"\(\) failed: no export for you"):
            call_gemm(ops, stream=0)
        ops = dl_operands(128, 256, 256, sfb=Foreign())
        with self.assertRaisesRegex(DgemmArgumentError, r"rhs\[1\] \(B scales\): __dlpack__\(\) "
                                    r"returned a capsule named b'used_dltensor'"):
            call_gemm(ops, stream=0)

    def test_torch_is_used_when_imported(self):
        seen = []

        class FakeTorch:
            @staticmethod
            def from_dlpack(obj):
                seen.append(obj)
                return "converted"

        with mock.patch.dict(sys.modules, {"torch": FakeTorch}):
            x = FakeDLPack((1, 1), F32, 0x1000)
            self.assertEqual(dlpack.as_operand(x), "converted")
            self.assertEqual(seen, [x])
        t = S.FakeTensor((1, 1), S.F32)
        self.assertIs(dlpack.as_operand(t), t)  # tensors with data_ptr() pass as they are


@unittest.skipUnless(S.HAVE_NUMPY, "numpy not installed")
class NumpyProducer(unittest.TestCase):
    def test_reads_a_numpy_capsule(self):
        import numpy as np
        if not hasattr(np.ndarray, "__dlpack__"):
            self.skipTest("numpy %s has no __dlpack__" % np.__version__)
        base = np.arange(24, dtype=np.float32).reshape(4, 6)
        x = base[1:, ::2]
        v = dlpack.view(x)
        self.assertEqual(v.shape, (3, 3))
        self.assertEqual(v.stride(), (6, 2))
        self.assertEqual(v.data_ptr(), x.__array_interface__["data"][0])
        self.assertEqual(str(v.dtype), "torch.float32")
        self.assertEqual((v.device, v.is_cuda), ("cpu", False))
        for arr, name in ((np.zeros(3, np.int32), "int32"), (np.zeros(3, np.uint8), "uint8"),
                          (np.zeros(3, np.float64), "float64")):
            self.assertEqual(str(dlpack.view(arr).dtype), "torch." + name)

    def test_numpy_operand_is_an_error_naming_the_device(self):
        import numpy as np
        if not hasattr(np.ndarray, "__dlpack__"):
            self.skipTest("numpy %s has no __dlpack__" % np.__version__)
        ops = gemm_operands(128, 256, 256, sfb=np.ones((2, 2), np.float32))
        with mock.patch.dict(sys.modules, {"torch": None}):
            with self.assertRaisesRegex(DgemmArgumentError,
                                        r"rhs\[1\] \(B scales\) is on cpu; all operands must be "
                                        r"CUDA tensors"):
                call_gemm(ops, stream=0)


if __name__ == "__main__":
    unittest.main()
