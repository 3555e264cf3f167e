#===- test_warm_path.py - the launch caches of the warm (cache-hit) path --===#
"""A repeated call with the same operands skips the Python checks (the
validated C structs are cached), but any change of a data pointer, shape,
stride, dtype or device, also made in place on the same tensor objects, is
validated in full again and raises where the rules say; the stream is read
on every call and reaches the C API intact (the launch functions are called
without ctypes argtypes, so 64-bit values are checked here). Through
stub_runtime.c and the real C ABI."""
import sys
import types
import unittest

import _support as S
from _support import BF16, F32, I32, FakeTensor, call_gemm, gemm_operands

import dgemm
from dgemm import DgemmArgumentError, gemm, grouped

from test_grouped import call_contiguous, call_masked, contiguous_operands, masked_operands

BIG_STREAM = 0xfffffffffffffff0  # needs all 64 bits


class Device:
    """torch.device-like: hashable, compared by (type, index)."""

    def __init__(self, index):
        self.type, self.index = "cuda", index

    def __eq__(self, other):
        return isinstance(other, Device) and other.index == self.index

    def __hash__(self):
        return hash(("cuda", self.index))

    def __str__(self):
        return "cuda:%d" % self.index


class TorchLike(FakeTensor):
    """Taken for a torch tensor (its class's module): the package reads the
    current stream and device through gemm._raw_stream / _current_device."""

    def __init__(self, *a, index=0, **k):
        super().__init__(*a, **k)
        self.device = Device(index)


TorchLike.__module__ = "torch.fake"


def torch_like(ops, index=0):
    return {k: TorchLike(t.shape, t.dtype, strides=t.stride(), ptr=t.data_ptr(), index=index)
            for k, t in ops.items()}


class Counting:
    """Counts the full validations of one argument class."""

    def __init__(self, module, name):
        self.module, self.name, self.real = module, name, getattr(module, name)
        self.n = 0

    def __enter__(self):
        def counting(*a, **k):
            self.n += 1
            return self.real(*a, **k)
        setattr(self.module, self.name, counting)
        return self

    def __exit__(self, *exc):
        setattr(self.module, self.name, self.real)
        return False


class WarmPathOnStub(S.OnStubLibrary):
    def setUp(self):
        super().setUp()
        gemm._clear_caches()
        self.saved_hooks = gemm._raw_stream, gemm._current_device
        self.streams = {0: 0x5000, 1: 0x5001}
        self.current = [0]
        gemm._raw_stream = lambda d: self.streams[d]
        gemm._current_device = lambda: self.current[0]

    def tearDown(self):
        gemm._raw_stream, gemm._current_device = self.saved_hooks
        gemm._clear_caches()
        super().tearDown()

    def last(self, i):
        return self.stub.stub_last_tensor(i).contents

    def test_hit_skips_the_checks(self):
        ops = gemm_operands(256, 512, 1024)
        with Counting(gemm, "_GemmArgs") as c:
            before = self.stub.stub_calls()
            for _ in range(3):
                call_gemm(ops, stream=5)
            self.assertEqual(c.n, 1)
            self.assertEqual(self.stub.stub_calls(), before + 3)

    def test_changes_in_place_are_validated_again(self):
        m, n, k = 256, 512, 1024
        # (operand, attribute, bad value, the error it must raise)
        cases = [
            ("a", "_ptr", 0x7f0000000004, "lhs\\[0\\] \\(A\\) data address .* not 16-byte"),
            ("d", "_strides", (n + 4, 1), "out \\(D\\) .* must be row-major"),
            ("b", "_strides", (1, n), "rhs\\[0\\] \\(B\\) .* must be row-major"),
            ("sfa", "_strides", (k // 128, 1), "A scales must be MN-major"),
            ("sfb", "_strides", (1, 4), "B scales must be contiguous"),
            ("sfb", "dtype", I32, "rhs\\[1\\] \\(B scales\\) must be torch.float32"),
            ("a", "dtype", BF16, "lhs\\[0\\] \\(A\\) must be torch.float8_e4m3fn"),
            ("d", "dtype", F32, "out \\(D\\) must be torch.bfloat16"),
            ("b", "shape", (n, k + 128), "K differs"),
            ("d", "shape", (m, n + 8), "out must be \\[M, N\\]"),
            ("sfa", "shape", (m + 1, k // 128), "A scales must be"),
            ("d", "is_cuda", False, "all operands must be CUDA tensors"),
            ("sfb", "device", "cuda:1", "different devices"),
        ]
        ops = gemm_operands(m, n, k)
        call_gemm(ops, stream=0)
        for name, attr, bad, pattern in cases:
            with self.subTest(operand=name, attr=attr):
                t = ops[name]
                good = getattr(t, attr)
                setattr(t, attr, bad)
                try:
                    with self.assertRaisesRegex(DgemmArgumentError, pattern):
                        call_gemm(ops, stream=0)
                finally:
                    setattr(t, attr, good)
                call_gemm(ops, stream=0)  # valid again, from the cache

    def test_new_values_reach_the_library(self):
        m, n, k = 128, 256, 512
        ops = gemm_operands(m, n, k)
        call_gemm(ops, stream=0)
        # A new aligned pointer and padded rows: valid, validated, passed on.
        ops["a"]._ptr = 0x7f0070000000
        ops["d"]._strides = (n + 8, 1)
        with Counting(gemm, "_GemmArgs") as c:
            call_gemm(ops, stream=0)
            call_gemm(ops, stream=0)
            self.assertEqual(c.n, 1)
        self.assertEqual(self.last(0).data, 0x7f0070000000)
        self.assertEqual(tuple(self.last(4).strides[:2]), (n + 8, 1))

    def test_stream_is_read_on_every_call(self):
        ops = gemm_operands(128, 256, 512)
        with Counting(gemm, "_GemmArgs") as c:
            for s in (7, BIG_STREAM, 0, 7):
                call_gemm(ops, stream=s)
                self.assertEqual(self.stub.stub_last_stream() or 0, s)
            call_gemm(ops)  # not a torch output: the legacy default stream
            self.assertIn(self.stub.stub_last_stream(), (None, 0))
            self.assertEqual(c.n, 1)

    def test_bound_call_passes_a_64_bit_stream(self):
        ops = gemm_operands(64, 256, 512)
        call = dgemm.bind_gemm_fp8_fp8_bf16_nt((ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]),
                                               ops["d"], stream=BIG_STREAM)
        call()
        self.assertEqual(self.stub.stub_last_stream(), BIG_STREAM)

    def test_torch_current_stream_per_call(self):
        ops = torch_like(gemm_operands(128, 256, 512))
        with Counting(gemm, "_GemmArgs") as c:
            call_gemm(ops)
            self.assertEqual(self.stub.stub_last_stream(), 0x5000)
            self.streams[0] = BIG_STREAM  # another current stream: no new checks
            call_gemm(ops)
            self.assertEqual(self.stub.stub_last_stream(), BIG_STREAM)
            self.streams[0] = 0
            call_gemm(ops)
            self.assertIn(self.stub.stub_last_stream(), (None, 0))
            call_gemm(ops, stream=0x77)  # the caller's stream wins
            self.assertEqual(self.stub.stub_last_stream(), 0x77)
            self.assertEqual(c.n, 1)

    def test_torch_device_change_is_validated_again(self):
        ops = torch_like(gemm_operands(128, 256, 512))
        call_gemm(ops)
        ops["b"].device = Device(1)  # same pointer, another device
        with self.assertRaisesRegex(DgemmArgumentError, "different devices"):
            call_gemm(ops)
        ops["b"].device = Device(0)
        call_gemm(ops)

    def test_device_is_made_current_for_the_call(self):
        entered = []

        class Guard:
            def __init__(self, index):
                self.index = index

            def __enter__(self):
                entered.append(self.index)

            def __exit__(self, *exc):
                return False

        fake = types.ModuleType("torch")
        fake.cuda = types.SimpleNamespace(device=Guard)
        saved = sys.modules.get("torch")
        sys.modules["torch"] = fake
        try:
            ops = torch_like(gemm_operands(128, 256, 512), index=1)
            # Device 0 current: the bind runs under device 1, and the bound
            # call is stale there (device 0's context), as the stub says:
            # each call is then the plain one, under device 1.
            self.stub.stub_set_stale(1)
            for _ in range(2):  # the full path, then a hit
                call_gemm(ops)
                self.assertEqual(self.stub.stub_last_stream(), 0x5001)
            self.assertEqual(entered, [1, 1, 1])
            self.current[0] = 1
            call_gemm(ops)
            self.assertEqual(entered, [1, 1, 1])  # already current: no guard
        finally:
            self.stub.stub_set_stale(0)
            if saved is None:
                del sys.modules["torch"]
            else:
                sys.modules["torch"] = saved

    def test_unhashable_attributes_are_not_cached(self):
        ops = gemm_operands(128, 256, 512)
        ops["d"].shape = [128, 256]  # a list: the key cannot be hashed
        with Counting(gemm, "_GemmArgs") as c:
            call_gemm(ops, stream=0)
            call_gemm(ops, stream=0)
            self.assertEqual(c.n, 2)
        self.assertEqual(len(gemm._launch_cache), 0)

    def test_layout_copies_are_not_cached(self):
        class Copying(FakeTensor):
            def contiguous(self):
                return FakeTensor(self.shape, self.dtype, ptr=0x7f0060000000)

        Copying.__module__ = "torch.fake"
        ops = gemm_operands(128, 256, 512, sfb=Copying((2, 4), F32, strides=(1, 2),
                                                       ptr=0x7f0030000000))
        with Counting(gemm, "_GemmArgs") as c:
            call_gemm(ops, stream=0)
            call_gemm(ops, stream=0)
            self.assertEqual(c.n, 2)
        self.assertEqual(self.last(3).data, 0x7f0060000000)

    def test_cache_is_bounded(self):
        saved = gemm._CACHE_MAX
        gemm._CACHE_MAX = 4
        try:
            for i in range(10):
                ops = gemm_operands(128, 256, 512)
                ops["d"]._ptr = 0x7f0100000000 + i * 0x1000
                call_gemm(ops, stream=0)
                call_gemm(ops, stream=0)
                self.assertLessEqual(len(gemm._launch_cache), 4)
                self.assertLessEqual(len(gemm._recent), 4)
                self.assertEqual(self.last(4).data, ops["d"].data_ptr())
        finally:
            gemm._CACHE_MAX = saved

    def test_grouped_contiguous_cache(self):
        ops = contiguous_operands()
        with Counting(grouped, "_GroupedArgs") as c:
            call_contiguous(ops, stream=BIG_STREAM)
            call_contiguous(ops, stream=3)
            self.assertEqual(c.n, 1)
            self.assertEqual(self.stub.stub_last_stream(), 3)
            ops["idx"].dtype = F32
            with self.assertRaisesRegex(DgemmArgumentError, "m_indices must be torch.int32"):
                call_contiguous(ops, stream=3)
            ops["idx"].dtype = I32
            ops["idx"].shape = (256,)
            with self.assertRaisesRegex(DgemmArgumentError, "m_indices must be \\[M_sum\\]"):
                call_contiguous(ops, stream=3)
            ops["idx"].shape = (512,)
            ops["d"].is_cuda = False
            with self.assertRaisesRegex(DgemmArgumentError, "CUDA tensors"):
                call_contiguous(ops, stream=3)
            self.assertEqual(c.n, 4)  # each change validated in full
            ops["d"].is_cuda = True
            call_contiguous(ops, stream=3)  # as first validated: a hit again
            self.assertEqual(c.n, 4)

    def test_grouped_masked_cache_and_expected_m(self):
        ops = masked_operands()
        with Counting(grouped, "_GroupedArgs") as c:
            call_masked(ops, expected_m=77, stream=0)
            call_masked(ops, expected_m=1 << 40, stream=0)  # int64, passed per call
            self.assertEqual(self.stub.stub_last_expected_m(), 1 << 40)
            call_masked(ops, expected_m=5.0, stream=0)
            self.assertEqual(self.stub.stub_last_expected_m(), 5)
            self.assertEqual(c.n, 3)  # expected_m is part of the key (it picks the config)
            call_masked(ops, expected_m=77, stream=0)
            self.assertEqual(self.stub.stub_last_expected_m(), 77)
            self.assertEqual(c.n, 3)
            with self.assertRaisesRegex(DgemmArgumentError, "expected_m must be >= 1"):
                call_masked(ops, expected_m=0, stream=0)
            with self.assertRaisesRegex(DgemmArgumentError, "expected_m must be an int"):
                call_masked(ops, expected_m="x", stream=0)
            ops["mm"].dtype = F32
            with self.assertRaisesRegex(DgemmArgumentError, "masked_m must be torch.int32"):
                call_masked(ops, stream=0)
            ops["mm"].dtype = I32
            ops["a"]._ptr = 0x7f0090000000  # a new pointer is passed, not a stale struct
            call_masked(ops, stream=0)
            self.assertEqual(self.last(0).data, 0x7f0090000000)
            self.assertEqual(c.n, 5)


class BoundCallsOnStub(WarmPathOnStub):
    """Cached launches of torch outputs are bound (dgemm_bind_*): hits make
    one C call, dgemm_bound_call_launch; a stale binding falls back to the
    plain call, a failed bind leaves the launch to the plain call, and
    set_num_sms forgets (frees) every binding."""

    def counts(self):
        s = self.stub
        return s.stub_binds(), s.stub_bound_launches(), s.stub_calls()

    def test_hits_launch_the_bound_call(self):
        ops = torch_like(gemm_operands(128, 256, 512))
        b0, l0, c0 = self.counts()
        with Counting(gemm, "_GemmArgs") as c:
            for s in (None, 0x77, None):
                call_gemm(ops, stream=s)
            self.assertEqual(c.n, 1)
        self.assertEqual(self.counts(), (b0 + 1, l0 + 3, c0 + 3))
        self.assertEqual(self.stub.stub_last_stream(), 0x5000)
        self.assertEqual(self.last(4).data, ops["d"].data_ptr())

    def test_other_operands_are_bound_apart(self):
        ops = torch_like(gemm_operands(128, 256, 512))
        call_gemm(ops)
        b0, l0, _ = self.counts()
        ops["a"]._ptr = 0x7f0070000000
        call_gemm(ops)
        call_gemm(ops)
        self.assertEqual(self.counts()[:2], (b0 + 1, l0 + 2))
        self.assertEqual(self.last(0).data, 0x7f0070000000)

    def test_non_torch_operands_are_not_bound(self):
        b0, l0, c0 = self.counts()
        ops = gemm_operands(128, 256, 512)
        call_gemm(ops, stream=0)
        call_gemm(ops, stream=0)
        self.assertEqual(self.counts(), (b0, l0, c0 + 2))

    def test_stale_binding_makes_the_plain_call(self):
        ops = torch_like(gemm_operands(128, 256, 512))
        call_gemm(ops)
        b0, l0, c0 = self.counts()
        self.stub.stub_set_stale(1)
        try:
            call_gemm(ops, stream=0x99)
        finally:
            self.stub.stub_set_stale(0)
        self.assertEqual(self.counts(), (b0, l0, c0 + 1))
        self.assertEqual(self.stub.stub_last_stream(), 0x99)

    def test_failed_bind_leaves_the_plain_call(self):
        ops = torch_like(gemm_operands(128, 256, 512))
        b0, l0, c0 = self.counts()
        self.stub.stub_set_bind_status(5)
        try:
            call_gemm(ops)
            call_gemm(ops)
        finally:
            self.stub.stub_set_bind_status(0)
        self.assertEqual(self.counts(), (b0 + 1, l0, c0 + 2))

    def test_errors_of_a_bound_launch_raise(self):
        ops = torch_like(gemm_operands(128, 256, 512))
        call_gemm(ops)
        self.stub.stub_set_next_status(5, b"stub: launch failed")
        with self.assertRaisesRegex(dgemm.DgemmError, "DGEMM_ERROR_CUDA: stub: launch failed"):
            call_gemm(ops)

    def test_set_num_sms_forgets_the_bindings(self):
        ops = torch_like(gemm_operands(128, 256, 512))
        call_gemm(ops)
        b0, _, _ = self.counts()
        f0 = self.stub.stub_bound_frees()
        dgemm.set_num_sms(100)
        try:
            self.assertEqual(self.stub.stub_bound_frees(), f0 + 1)
            with Counting(gemm, "_GemmArgs") as c:
                call_gemm(ops)
                self.assertEqual(c.n, 1)
            self.assertEqual(self.counts()[0], b0 + 1)
        finally:
            dgemm.set_num_sms(0)

    def test_bias_calls_are_cached_and_bound(self):
        # The GEMM with a fused bias: validated once, bound, and each hit is
        # one bound launch that passes the bias (the stub's slot 5); a new
        # bias pointer is validated again (misaligned: raises, never a stale
        # hit); set_num_sms forgets its binding too.
        ops = torch_like(gemm_operands(128, 256, 512))
        bias = TorchLike((256,), F32, ptr=0x7f0050000000)
        b0, l0, c0 = self.counts()
        with Counting(gemm, "_GemmArgs") as c:
            for s in (None, 0x77, None):
                call_gemm(ops, bias=bias, stream=s)
            self.assertEqual(c.n, 1)
            self.assertEqual(self.counts(), (b0 + 1, l0 + 3, c0 + 3))
            self.assertEqual(self.last(5).data, 0x7f0050000000)
            self.assertEqual(self.last(4).data, ops["d"].data_ptr())
            # The same operands without the bias: the plain call's own cache.
            call_gemm(ops)
            self.assertEqual(c.n, 2)
            bias._ptr = 0x7f0050000004
            with self.assertRaisesRegex(DgemmArgumentError, "not 8-byte aligned"):
                call_gemm(ops, bias=bias)
            bias._ptr = 0x7f0050000008
            call_gemm(ops, bias=bias)
            self.assertEqual(self.last(5).data, 0x7f0050000008)
            self.assertEqual(c.n, 4)
        f0 = self.stub.stub_bound_frees()
        dgemm.set_num_sms(100)
        try:
            self.assertGreaterEqual(self.stub.stub_bound_frees(), f0 + 3)
        finally:
            dgemm.set_num_sms(0)

    def test_grouped_calls_are_bound(self):
        b0, l0, _ = self.counts()
        ops = torch_like(contiguous_operands())
        for _ in range(2):
            call_contiguous(ops)
        self.assertEqual(self.counts()[:2], (b0 + 1, l0 + 2))
        self.assertEqual(self.last(5).data, ops["d"].data_ptr())
        ops = torch_like(masked_operands())
        for e in (64, 64, 200, 64):
            call_masked(ops, expected_m=e)
            self.assertEqual(self.stub.stub_last_expected_m(), e)
        self.assertEqual(self.counts()[:2], (b0 + 3, l0 + 6))


if __name__ == "__main__":
    unittest.main()
