#===- test_wgrad.py - the weight-gradient GEMMs' Python layer ------------===#
"""Argument rules of wgrad_gemm_fp8_fp8_fp32_nt and
k_grouped_wgrad_gemm_fp8_fp8_fp32_nt (DgemmArgumentError before the library
loads), the C structs and k_g they pass (through stub_runtime.c), and the
real library's own checks on a machine without a GPU."""
import unittest

import _support as S
from _support import BF16, E4M3, F32, FakeTensor

import dgemm
from dgemm import DgemmArgumentError, DgemmError

BASE = 0x7f0000000000


def wgrad_operands(m=200, n=384, k=512, **over):
    kb = k // 128
    ops = dict(
        a=FakeTensor((m, k), E4M3, ptr=BASE),
        sfa=FakeTensor((m, kb), F32, strides=(1, S.ceil_div(m, 4) * 4), ptr=BASE + 0x10000000),
        b=FakeTensor((n, k), E4M3, ptr=BASE + 0x20000000),
        sfb=FakeTensor((n, kb), F32, strides=(1, n), ptr=BASE + 0x30000000),
        d=FakeTensor((m, n), F32, ptr=BASE + 0x40000000),
    )
    ops.update(over)
    return ops


def call_wgrad(ops, **kw):
    return dgemm.wgrad_gemm_fp8_fp8_fp32_nt((ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]),
                                           ops["d"], **kw)


def kgrouped_operands(ks=(256, 0, 384), m=256, n=384, **over):
    total, g = sum(k for k in ks if isinstance(k, int)), len(ks)
    ops = dict(
        a=FakeTensor((m * total,), E4M3, ptr=BASE),
        sfa=FakeTensor((total // 128, m), F32, ptr=BASE + 0x10000000),
        b=FakeTensor((n * total,), E4M3, ptr=BASE + 0x20000000),
        sfb=FakeTensor((total // 128, n), F32, ptr=BASE + 0x30000000),
        d=FakeTensor((g, m, n), F32, ptr=BASE + 0x40000000),
        ks=list(ks),
    )
    ops.update(over)
    return ops


def call_kgrouped(ops, **kw):
    return dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt(
        (ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]), ops["d"], ops["ks"], **kw)


class WgradArguments(unittest.TestCase):
    """Each rule, broken once, before the library is loaded."""

    def test_each_rule(self):
        cases = [
            (dict(d=FakeTensor((200, 384), BF16)), r"out \(D\) must be torch.float32"),
            (dict(sfb=FakeTensor((3, 4), F32)), r"B scales must be \[N, K/128\] = \[384, 4\]"),
            (dict(b=FakeTensor((384, 640), E4M3)), "K differs"),
            (dict(d=FakeTensor((200, 380), F32), b=FakeTensor((380, 512), E4M3),
                  sfb=FakeTensor((380, 4), F32, strides=(1, 380))), "N = 380 must be"),
            (dict(sfb=FakeTensor((384, 4), F32, ptr=0)), r"rhs\[1\] \(B scales\) must be MN-major"),
            (dict(d=FakeTensor((200, 384), F32, strides=(386, 1))), r"out \(D\) \[200, 384\] must be row-major"),
            (dict(d=FakeTensor((200, 384), F32, ptr=BASE + 8)), "not 16-byte aligned"),
        ]
        for over, pattern in cases:
            with self.subTest(pattern=pattern):
                with self.assertRaisesRegex(DgemmArgumentError, pattern):
                    call_wgrad(wgrad_operands(**over), stream=0)

    def test_empty_calls_do_nothing(self):
        # M = 0 and K = 0 add nothing: no library needed.
        self.assertIsNone(call_wgrad(wgrad_operands(
            m=0, a=FakeTensor((0, 512), E4M3, ptr=0), sfa=FakeTensor((0, 4), F32, ptr=0),
            d=FakeTensor((0, 384), F32, ptr=0)), stream=0))
        self.assertIsNone(call_wgrad(wgrad_operands(k=0), stream=0))

    def test_kgrouped_rules(self):
        cases = [
            (dict(ks=[256, 0], d=FakeTensor((3, 256, 384), F32)),
             r"ks has 2 entries but out is \[G, M, N\]"),
            (dict(ks=[256, 64, 384]), r"ks\[1\] = 64 must be a non-negative multiple of 128"),
            (dict(ks=[256, None, 384]), "ks must be a sequence of ints"),
            (dict(a=FakeTensor((10,), E4M3)), r"A must hold M \* sum\(ks\) = 163840 values"),
            (dict(sfb=FakeTensor((5, 256), F32)), r"B scales must be \[sum\(ks\)/128, N\] = \[5, 384\]"),
            (dict(d=FakeTensor((3, 256, 384), BF16)), r"out \(D\) must be torch.float32"),
            (dict(d=FakeTensor((3, 256, 384), F32, strides=(256 * 400, 400, 1))),
             "must be contiguous"),
            (dict(a=FakeTensor((256 * 640, 1), E4M3)), r"lhs\[0\] \(A\) must be 1-D"),
        ]
        for over, pattern in cases:
            with self.subTest(pattern=pattern):
                with self.assertRaisesRegex(DgemmArgumentError, pattern):
                    call_kgrouped(kgrouped_operands(**over), stream=0)
        many = kgrouped_operands(ks=[128] * 3985)
        with self.assertRaisesRegex(DgemmArgumentError, r"G = 3985 must be in \[1, 3984\]"):
            call_kgrouped(many, stream=0)

    def test_kgrouped_all_empty_does_nothing(self):
        ops = kgrouped_operands(ks=[0, 0], a=FakeTensor((0,), E4M3, ptr=0),
                                sfa=FakeTensor((0, 256), F32, ptr=0),
                                b=FakeTensor((0,), E4M3, ptr=0),
                                sfb=FakeTensor((0, 384), F32, ptr=0))
        self.assertIsNone(call_kgrouped(ops, stream=0))


class WgradOnStub(S.OnStubLibrary):
    """The structs (and k_g) the calls pass to the C API."""

    def test_wgrad_passes_every_operand(self):
        ops = wgrad_operands()
        call_wgrad(ops, stream=0x77)
        self.assertEqual(self.stub.stub_last_stream(), 0x77)
        self.check([(ops["a"], 0, (200, 512), (512, 1)),
                    (ops["sfa"], 3, (200, 4), (1, 200)),
                    (ops["b"], 0, (384, 512), (512, 1)),
                    (ops["sfb"], 3, (384, 4), (1, 384)),
                    (ops["d"], 3, (200, 384), (384, 1))])

    def test_kgrouped_passes_operands_and_ks(self):
        ops = kgrouped_operands()
        call_kgrouped(ops, stream=0x55)
        self.assertEqual(self.stub.stub_last_stream(), 0x55)
        self.assertEqual(self.stub.stub_last_num_groups(), 3)
        self.assertEqual([self.stub.stub_last_k(i) for i in range(3)], [256, 0, 384])
        self.check([(ops["a"], 0, (256 * 640,), (1,)),
                    (ops["sfa"], 3, (5, 256), (256, 1)),
                    (ops["b"], 0, (384 * 640,), (1,)),
                    (ops["sfb"], 3, (5, 384), (384, 1)),
                    (ops["d"], 3, (3, 256, 384), (256 * 384, 384, 1))])

    def test_stub_error_is_raised(self):
        self.stub.stub_set_next_status(2, b"planted")
        with self.assertRaisesRegex(DgemmError, "planted"):
            call_wgrad(wgrad_operands(), stream=0)


class WgradOnRealLibrary(unittest.TestCase):
    """Without a driver the real library still checks, then fails to open
    CUDA with a clear message (never a crash). In a child process: the
    driver is looked up once per process."""

    def test_no_driver(self):
        import os
        import subprocess
        import sys
        path, why = S.find_real_library()
        if path is None:
            self.skipTest(why)
        code = (
            "import sys\n"
            "sys.path[:0] = %r\n"
            "import test_wgrad as T, dgemm\n"
            "for call, ops in ((T.call_wgrad, T.wgrad_operands()),\n"
            "                  (T.call_kgrouped, T.kgrouped_operands())):\n"
            "    try:\n"
            "        call(ops, stream=0)\n"
            "        print('no error')\n"
            "    except dgemm.DgemmError as e:\n"
            "        print('DgemmError', 'DGEMM_ERROR_NO_DRIVER' in str(e))\n"
            % (sys.path[:4] + [os.path.dirname(os.path.abspath(__file__))],))
        env = dict(os.environ, DGEMM_LIB=str(path),
                   DGEMM_CUDA_DRIVER="/nonexistent/libcuda.so.1")
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, timeout=120)
        self.assertEqual(r.stdout.split("\n")[:2], ["DgemmError True"] * 2,
                         r.stdout + r.stderr)


if __name__ == "__main__":
    unittest.main()
