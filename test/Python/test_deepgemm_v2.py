#===- test_deepgemm_v2.py - DeepGEMM 2.x's names over dgemm's calls ------===#
"""fp8_gemm_nt, m_grouped_fp8_gemm_nt_{contiguous,masked} and
k_grouped_fp8_gemm_nt_contiguous: which dgemm call each one makes (the
recipe read from the arguments or from B's scales), their errors, and the
accumulator c (D zeroed or c copied into it after every rule is checked and
before the C call, through stub_runtime.c)."""
import unittest
from unittest import mock

import _support as S
from _support import BF16, E4M3, F32, I32, FakeTensor

import dgemm
from dgemm import DgemmArgumentError
from dgemm import deepgemm_v2 as V2

BASE = 0x7f0000000000


class Recording:
    """Stands in for the dgemm calls the names map to."""

    def __init__(self, test):
        self.calls = []
        for name in ("gemm_fp8_fp8_bf16_nt", "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous",
                     "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets",
                     "m_grouped_gemm_fp8_fp8_bf16_nt_masked"):
            p = mock.patch.object(V2, name, self.recorder(name))
            p.start()
            test.addCleanup(p.stop)

    def recorder(self, name):
        def call(*args, **kw):
            self.calls.append((name, args, kw))
        return call


def normal(m=256, n=384, k=512):
    ops = S.gemm_operands(m, n, k)
    return (ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]), ops["d"]


class Dispatch(unittest.TestCase):
    def setUp(self):
        self.rec = Recording(self)

    def test_block_scaled_b_goes_to_the_normal_gemm(self):
        a, b, d = normal()
        for kw in ({}, {"recipe": (1, 128, 128)}, {"recipe": [1, 128, 128]},
                   {"recipe_a": (1, 128), "recipe_b": (128, 128)},
                   {"compiled_dims": "mnk", "disable_ue8m0_cast": True}):
            with self.subTest(kw=kw):
                self.rec.calls.clear()
                dgemm.fp8_gemm_nt(a, b, d, **kw)
                self.assertEqual(self.rec.calls, [("gemm_fp8_fp8_bf16_nt", (a, b, d), {})])

    def test_psum_layout_goes_to_the_offsets_form(self):
        a, b, d = normal()
        layout = FakeTensor((4,), I32)
        dgemm.m_grouped_fp8_gemm_nt_contiguous(a, b, d, layout)
        dgemm.m_grouped_fp8_gemm_nt_contiguous(a, b, d, layout, use_psum_layout=True,
                                               expected_m_for_psum_layout=200)
        self.assertEqual([c[0] for c in self.rec.calls],
                         ["m_grouped_gemm_fp8_fp8_bf16_nt_contiguous",
                          "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets"])
        self.assertTrue(all(c[1] == (a, b, d, layout) for c in self.rec.calls))

    def test_masked_passes_expected_m(self):
        a, b, d = normal()
        masked = FakeTensor((2,), I32)
        dgemm.m_grouped_fp8_gemm_nt_masked(a, b, d, masked, 96, recipe=(1, 128, 128))
        self.assertEqual(self.rec.calls, [("m_grouped_gemm_fp8_fp8_bf16_nt_masked",
                                           (a, b, d, masked, 96), {})])

    def test_errors(self):
        a, b, d = normal()
        f32_d = FakeTensor((256, 384), F32, ptr=BASE)
        cases = [
            (lambda: dgemm.fp8_gemm_nt(a, b, d, recipe=(1, 128, 64)),
             r"fp8_gemm_nt: recipe \(1, 128, 64\) is not supported on Hopper"),
            (lambda: dgemm.fp8_gemm_nt(a, b, d, recipe=(1, 128, 128), recipe_a=(1, 128),
                                       recipe_b=(128, 128)),
             "give recipe or recipe_a and recipe_b, not both"),
            (lambda: dgemm.fp8_gemm_nt(a, b, d, recipe_a=(1, 128)),
             "recipe_a and recipe_b go together"),
            (lambda: dgemm.fp8_gemm_nt(a, b, d, recipe_a=(1, 128), recipe_b=(128, 64)),
             "must scale the same K granularity"),
            (lambda: dgemm.fp8_gemm_nt(a, b, d, recipe="1x128"),
             "recipe must be a tuple of 3 ints"),
            (lambda: dgemm.fp8_gemm_nt(a, b, d, c=d),
             r"c \(D = C \+ A·Bᵀ\) needs an f32 D and the \(1, 1, 128\) recipe"),
            (lambda: dgemm.fp8_gemm_nt(a, b, f32_d),
             r"an f32 D goes with the \(1, 1, 128\) recipe"),
            (lambda: dgemm.fp8_gemm_nt(a[0], b, d), "a and b must be"),
            (lambda: dgemm.m_grouped_fp8_gemm_nt_masked(a, b, d, d, 1, recipe=(1, 1, 128)),
             "m_grouped_fp8_gemm_nt_masked: the m-grouped GEMMs take the "
             r"\(1, 128, 128\) recipe only"),
            (lambda: dgemm.m_grouped_fp8_gemm_nt_contiguous(a, b, d, d, recipe=(1, 1, 128)),
             r"take the \(1, 128, 128\) recipe only"),
            (lambda: dgemm.k_grouped_fp8_gemm_nt_contiguous(a, b, d, [128], d,
                                                            recipe=(1, 128, 128)),
             r"the k-grouped GEMM takes the \(1, 1, 128\) recipe only"),
            (lambda: dgemm.k_grouped_fp8_gemm_nt_contiguous(a, b, d, [128], d,
                                                            use_psum_layout=True),
             "use_psum_layout is not supported"),
            (lambda: dgemm.k_grouped_fp8_gemm_nt_contiguous(a, b, d, None, d),
             "ks_cpu .* is required"),
        ]
        for fn, msg in cases:
            with self.subTest(msg=msg):
                with self.assertRaisesRegex(DgemmArgumentError, msg):
                    fn()
        self.assertEqual(self.rec.calls, [])

    def test_alignment_and_scale_layout_helpers(self):
        self.assertEqual(dgemm.get_mk_alignment_for_contiguous_layout(),
                         dgemm.get_m_alignment_for_contiguous_layout())
        if not S.HAVE_NUMPY:
            self.skipTest("numpy not installed")
        import numpy as np
        x = np.arange(6 * 3, dtype=np.float32).reshape(6, 3)
        got = dgemm.get_mn_major_tma_aligned_tensor(x)
        want = dgemm.get_col_major_tma_aligned_tensor(x)
        self.assertEqual(got.shape, want.shape)
        self.assertEqual(got.strides, want.strides)
        self.assertTrue((got == want).all())


class TorchLikeTensor(FakeTensor):
    """A stand-in with zero_ and copy_, which log the stub's call count."""

    def __init__(self, *args, log=None, stub=None, **kw):
        super().__init__(*args, **kw)
        self.log, self.stub = log, stub

    def zero_(self):
        self.log.append(("zero", self.stub.stub_calls()))
        return self

    def copy_(self, src):
        self.log.append(("copy", src, self.stub.stub_calls()))
        return self


class Accumulator(S.OnStubLibrary):
    """c: D zeroed, c copied into D, or D itself; always after the checks
    and before the C call."""

    def operands(self, m=200, n=384, k=512, sfb_rows=None):
        kb = k // 128
        self.log = []
        d = TorchLikeTensor((m, n), F32, ptr=BASE + 0x40000000, log=self.log, stub=self.stub)
        a = (FakeTensor((m, k), E4M3, ptr=BASE),
             FakeTensor((m, kb), F32, strides=(1, S.ceil_div(m, 4) * 4), ptr=BASE + 0x10000000))
        rows = n if sfb_rows is None else sfb_rows
        b = (FakeTensor((n, k), E4M3, ptr=BASE + 0x20000000),
             FakeTensor((rows, kb), F32, strides=(1, rows), ptr=BASE + 0x30000000))
        return a, b, d

    def test_row_scaled_b_goes_to_the_weight_gradient_gemm(self):
        for kw in ({}, {"recipe": (1, 1, 128)}, {"recipe_a": (1, 128), "recipe_b": (1, 128)}):
            with self.subTest(kw=kw):
                a, b, d = self.operands()
                before = self.stub.stub_calls()
                dgemm.fp8_gemm_nt(a, b, d, c=d, **kw)
                self.assertEqual(self.stub.stub_calls(), before + 1)
                self.assertEqual(self.log, [])  # c is D: accumulated in place
                got = self.stub.stub_last_tensor(4).contents
                self.assertEqual((got.data, got.dtype), (d.data_ptr(), 3))
                self.assertFalse(self.stub.stub_last_stream())  # the default stream

    def test_no_c_zeroes_d_first(self):
        a, b, d = self.operands()
        before = self.stub.stub_calls()
        dgemm.fp8_gemm_nt(a, b, d)
        self.assertEqual(self.log, [("zero", before)])
        self.assertEqual(self.stub.stub_calls(), before + 1)

    def test_other_c_is_copied_first(self):
        a, b, d = self.operands()
        c = FakeTensor((200, 384), F32, ptr=BASE + 0x50000000)
        before = self.stub.stub_calls()
        dgemm.fp8_gemm_nt(a, b, d, c=c)
        self.assertEqual(self.log, [("copy", c, before)])
        self.assertEqual(self.stub.stub_calls(), before + 1)

    def test_bad_input_leaves_d_untouched(self):
        a, b, d = self.operands()
        bad_k = (a[0], FakeTensor((200, 3), F32, strides=(1, 200), ptr=BASE + 0x10000000))
        view = FakeTensor((200, 384), F32, strides=(1, 200), ptr=d.data_ptr())
        cases = [
            (dict(a=bad_k), r"fp8_gemm_nt: A scales must be \[M, K/128\]"),
            (dict(c=FakeTensor((200, 8), F32)), r"c must have d's shape \[200, 384\]"),
            (dict(c=FakeTensor((200, 384), BF16)), "c must have d's dtype torch.float32"),
            (dict(c=view), "c shares d's memory but not its shape and strides"),
        ]
        before = self.stub.stub_calls()
        for over, msg in cases:
            with self.subTest(msg=msg):
                args = dict(a=a, b=b, d=d, recipe=(1, 1, 128))
                args.update(over)
                with self.assertRaisesRegex(DgemmArgumentError, msg):
                    dgemm.fp8_gemm_nt(**args)
        self.assertEqual(self.log, [])
        self.assertEqual(self.stub.stub_calls(), before)

    def test_d_without_zero_needs_c_is_d(self):
        a, b, _ = self.operands()
        d = FakeTensor((200, 384), F32, ptr=BASE + 0x40000000)
        with self.assertRaisesRegex(DgemmArgumentError, "d must be a torch tensor unless c is d"):
            dgemm.fp8_gemm_nt(a, b, d)
        before = self.stub.stub_calls()
        dgemm.fp8_gemm_nt(a, b, d, c=d)
        self.assertEqual(self.stub.stub_calls(), before + 1)

    def test_k_grouped(self):
        ks, m, n = [256, 0, 384], 256, 384
        total = sum(ks)
        self.log = []
        d = TorchLikeTensor((3, m, n), F32, ptr=BASE + 0x40000000, log=self.log, stub=self.stub)
        a = (FakeTensor((m * total,), E4M3, ptr=BASE),
             FakeTensor((total // 128, m), F32, ptr=BASE + 0x10000000))
        b = (FakeTensor((n * total,), E4M3, ptr=BASE + 0x20000000),
             FakeTensor((total // 128, n), F32, ptr=BASE + 0x30000000))
        layout = FakeTensor((3,), I32)
        before = self.stub.stub_calls()
        dgemm.k_grouped_fp8_gemm_nt_contiguous(a, b, d, ks, layout)
        self.assertEqual(self.log, [("zero", before)])
        self.assertEqual(self.stub.stub_calls(), before + 1)
        self.assertEqual([self.stub.stub_last_k(i) for i in range(3)], ks)
        dgemm.k_grouped_fp8_gemm_nt_contiguous(a, b, d, ks, layout, c=d)
        self.assertEqual(len(self.log), 1)
        with self.assertRaisesRegex(DgemmArgumentError, "ks has 2 entries"):
            dgemm.k_grouped_fp8_gemm_nt_contiguous(a, b, d, ks[:2], layout)
        self.assertEqual(len(self.log), 1)
        # Nothing to compute (every k_g = 0): D is still C (zeroed here).
        a0 = (FakeTensor((0,), E4M3, ptr=0), FakeTensor((0, m), F32, ptr=0))
        b0 = (FakeTensor((0,), E4M3, ptr=0), FakeTensor((0, n), F32, ptr=0))
        calls = self.stub.stub_calls()
        dgemm.k_grouped_fp8_gemm_nt_contiguous(a0, b0, d, [0, 0, 0], layout)
        self.assertEqual(self.log[-1], ("zero", calls))
        self.assertEqual(self.stub.stub_calls(), calls)


if __name__ == "__main__":
    unittest.main()
