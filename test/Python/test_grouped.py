#===- test_grouped.py - the m-grouped GEMMs' Python layer ----------------===#
"""Argument rules of m_grouped_gemm_fp8_fp8_bf16_nt_contiguous / _masked
(DgemmArgumentError before the library loads), the C structs they pass
(through stub_runtime.c and the real C ABI), and the real library's own
checks of what Python leaves to it (strides) on a machine without a GPU."""
import ctypes
import tempfile
import unittest
from pathlib import Path

import _support as S
from _support import BF16, E4M3, F32, I32, FakeTensor

import dgemm
from dgemm import DgemmArgumentError, DgemmError, _lib

BASE = 0x7f0000000000


def contiguous_operands(g=4, m=512, n=384, k=512, **over):
    kb, nb = k // 128, S.ceil_div(n, 128)
    ops = dict(
        a=FakeTensor((m, k), E4M3, ptr=BASE),
        sfa=FakeTensor((m, kb), F32, strides=(1, m), ptr=BASE + 0x10000000),
        b=FakeTensor((g, n, k), E4M3, ptr=BASE + 0x20000000),
        sfb=FakeTensor((g, nb, kb), F32, ptr=BASE + 0x30000000),
        idx=FakeTensor((m,), I32, ptr=BASE + 0x40000000),
        d=FakeTensor((m, n), BF16, ptr=BASE + 0x50000000),
    )
    ops.update(over)
    return ops


def masked_operands(g=3, m=100, n=256, k=384, **over):
    kb, nb, am = k // 128, S.ceil_div(n, 128), S.ceil_div(m, 4) * 4
    ops = dict(
        a=FakeTensor((g, m, k), E4M3, ptr=BASE),
        sfa=FakeTensor((g, m, kb), F32, strides=(am * kb, 1, am), ptr=BASE + 0x10000000),
        b=FakeTensor((g, n, k), E4M3, ptr=BASE + 0x20000000),
        sfb=FakeTensor((g, nb, kb), F32, ptr=BASE + 0x30000000),
        mm=FakeTensor((g,), I32, ptr=BASE + 0x40000000),
        d=FakeTensor((g, m, n), BF16, ptr=BASE + 0x50000000),
    )
    ops.update(over)
    return ops


def call_contiguous(ops, **kw):
    return dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_contiguous(
        (ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]), ops["d"], ops["idx"], **kw)


def call_masked(ops, expected_m=64, **kw):
    return dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_masked(
        (ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]), ops["d"], ops["mm"], expected_m, **kw)


class GroupedArgumentRules(unittest.TestCase):
    def setUp(self):
        self.env = S.LibEnv("/nonexistent/libdgemm.so")
        self.env.__enter__()

    def tearDown(self):
        self.env.__exit__(None, None, None)

    def test_valid_arguments_reach_the_library(self):
        with self.assertRaisesRegex(DgemmError, "libdgemm.so not found"):
            call_contiguous(contiguous_operands(), stream=0)
        with self.assertRaisesRegex(DgemmError, "libdgemm.so not found"):
            call_masked(masked_operands(), stream=0)

    def test_contiguous_rules(self):
        cases = [
            (dict(a=FakeTensor((500, 512), E4M3, ptr=BASE)),
             "M_sum = 500 rows: each group is padded to a multiple of 128"),
            (dict(idx=FakeTensor((256,), I32, ptr=BASE)), r"m_indices must be \[M_sum\] = \[512\]"),
            (dict(idx=FakeTensor((512,), F32, ptr=BASE)), "m_indices must be torch.int32"),
            (dict(b=FakeTensor((384, 512), E4M3, ptr=BASE)), "rhs\\[0\\] \\(B\\) must be 3-D"),
            (dict(sfb=FakeTensor((4, 2, 4), F32, ptr=BASE)),
             r"B scales must be \[G, ceil\(N/128\), K/128\] = \[4, 3, 4\]"),
            (dict(d=FakeTensor((512, 392), BF16, ptr=BASE)), r"out must be \[512, 384\]"),
            (dict(a=FakeTensor((512, 640), E4M3, ptr=BASE)), "K differs"),
            (dict(d=FakeTensor((512, 384), BF16, ptr=BASE, is_cuda=False, device="cpu")),
             "out \\(D\\) is on cpu"),
        ]
        for over, pattern in cases:
            with self.subTest(pattern=pattern):
                with self.assertRaisesRegex(DgemmArgumentError, pattern):
                    call_contiguous(contiguous_operands(**over), stream=0)

    def test_masked_rules(self):
        cases = [
            (dict(mm=FakeTensor((4,), I32, ptr=BASE)), r"masked_m must be \[G\] = \[3\]"),
            (dict(a=FakeTensor((2, 100, 384), E4M3, ptr=BASE)),
             r"A must be \[G, M_max, K\] with G = 3"),
            (dict(d=FakeTensor((3, 100, 264), BF16, ptr=BASE)), r"out must be \[3, 100, 256\]"),
            (dict(sfa=FakeTensor((3, 100, 2), F32, ptr=BASE)), r"A scales must be \[3, 100, 3\]"),
            # K-major scales of a stand-in (not torch) cannot be converted.
            (dict(sfa=FakeTensor((3, 100, 3), F32, ptr=BASE)), "A scales must be MN-major"),
        ]
        for over, pattern in cases:
            with self.subTest(pattern=pattern):
                with self.assertRaisesRegex(DgemmArgumentError, pattern):
                    call_masked(masked_operands(**over), stream=0)
        for bad in (0, -3, "x", None):
            with self.assertRaisesRegex(DgemmArgumentError, "expected_m must be"):
                call_masked(masked_operands(), expected_m=bad, stream=0)

    def test_empty_contiguous_does_nothing(self):
        ops = contiguous_operands(a=FakeTensor((0, 512), E4M3, ptr=0),
                                  sfa=FakeTensor((0, 4), F32, ptr=0),
                                  idx=FakeTensor((0,), I32, ptr=0),
                                  d=FakeTensor((0, 384), BF16, ptr=0))
        self.assertIsNone(call_contiguous(ops, stream=0))  # no library needed


class GroupedOnStub(S.OnStubLibrary):
    """The structs and the expected_m the grouped calls pass to the C API."""

    def test_contiguous_passes_every_operand(self):
        ops = contiguous_operands()
        call_contiguous(ops, stream=0x99)
        self.assertEqual(self.stub.stub_last_stream(), 0x99)
        self.check([
            (ops["a"], _lib.DTYPE_F8E4M3, (512, 512), (512, 1)),
            (ops["sfa"], _lib.DTYPE_F32, (512, 4), (1, 512)),
            (ops["b"], _lib.DTYPE_F8E4M3, (4, 384, 512), (384 * 512, 512, 1)),
            (ops["sfb"], _lib.DTYPE_F32, (4, 3, 4), (12, 4, 1)),
            (ops["idx"], _lib.DTYPE_I32, (512,), (1,)),
            (ops["d"], _lib.DTYPE_BF16, (512, 384), (384, 1)),
        ])

    def test_masked_passes_every_operand_and_expected_m(self):
        ops = masked_operands()
        call_masked(ops, expected_m=77, stream=0x42)
        self.assertEqual(self.stub.stub_last_expected_m(), 77)
        self.check([
            (ops["a"], _lib.DTYPE_F8E4M3, (3, 100, 384), (100 * 384, 384, 1)),
            (ops["sfa"], _lib.DTYPE_F32, (3, 100, 3), (300, 1, 100)),
            (ops["b"], _lib.DTYPE_F8E4M3, (3, 256, 384), (256 * 384, 384, 1)),
            (ops["sfb"], _lib.DTYPE_F32, (3, 2, 3), (6, 3, 1)),
            (ops["mm"], _lib.DTYPE_I32, (3,), (1,)),
            (ops["d"], _lib.DTYPE_BF16, (3, 100, 256), (25600, 256, 1)),
        ])


class OffsetsForm(S.OnStubLibrary):
    """The contiguous layout given by offsets[G]: the operands reach the C
    API in order; offsets must be one end row per group."""

    def test_passes_every_operand(self):
        ops = contiguous_operands(idx=FakeTensor((4,), I32, ptr=BASE + 0x40000000))
        dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets(
            (ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]), ops["d"], ops["idx"], stream=0x31)
        self.assertEqual(self.stub.stub_last_stream(), 0x31)
        got = self.stub.stub_last_tensor(4).contents
        self.assertEqual((got.data, got.rank, got.shape[0]), (BASE + 0x40000000, 1, 4))
        got = self.stub.stub_last_tensor(5).contents
        self.assertEqual(got.data, ops["d"].data_ptr())

    def test_offsets_length_is_the_group_count(self):
        ops = contiguous_operands()  # idx is [M_sum] = [512]
        with self.assertRaisesRegex(DgemmArgumentError,
                                    r"offsets must be \[G\] = \[4\], got \[512\]"):
            dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets(
                (ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]), ops["d"], ops["idx"], stream=0)


class GroupedOnRealLibrary(unittest.TestCase):
    """The built library checks what Python leaves to it, without a GPU."""

    @classmethod
    def setUpClass(cls):
        path, why = S.find_real_library()
        if path is None:
            raise unittest.SkipTest(why)
        cls.path = path

    def setUp(self):
        self.env = S.LibEnv(self.path)
        self.env.__enter__()

    def tearDown(self):
        self.env.__exit__(None, None, None)

    def test_stride_rules_come_back_with_the_library_message(self):
        # B's group stride smaller than its rows: Python passes it on, the
        # C API refuses it before touching a GPU.
        ops = contiguous_operands(b=FakeTensor((4, 384, 512), E4M3, strides=(512 * 100, 512, 1),
                                               ptr=BASE + 0x20000000))
        with self.assertRaisesRegex(DgemmArgumentError,
                                    "b has group stride 51200, less than rows x row stride"):
            call_contiguous(ops, stream=0)
        ops = masked_operands(d=FakeTensor((3, 100, 256), BF16, strides=(100 * 272, 272, 1),
                                           ptr=BASE + 0x50000000))
        with self.assertRaisesRegex(DgemmArgumentError, "d must be contiguous in the masked layout"):
            call_masked(ops, stream=0)



_KERNEL_IR_CHILD = r"""
import ctypes, os, sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])
import dgemm
from test_grouped import masked_operands, gemm_ir_masked
ir = sys.argv[3]
normal_ir = sys.argv[4]
standin = ctypes.CDLL(os.environ["DGEMM_CUDA_DRIVER"])
ops = masked_operands(g=2, m=64, n=256, k=256)
before = standin.dgemm_standin_launches()
dgemm.launch_grouped_kernel_ir(ir, (ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]), ops["d"],
                               ops["mm"], stream=0)
print("LAUNCHES", standin.dgemm_standin_launches() - before, standin.dgemm_standin_last_grid_x())
try:
    dgemm.launch_grouped_kernel_ir(normal_ir, (ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]),
                                   ops["d"], ops["mm"], stream=0)
    print("NORMAL accepted")
except dgemm.DgemmArgumentError as e:
    print("NORMAL", str(e))
"""


def gemm_ir_masked(g, m, n, k):
    kb, nb = k // 128, S.ceil_div(n, 128)
    am = S.ceil_div(m, 4) * 4
    ta = "memref<%dx%dx%dxf8E4M3FN>" % (g, m, k)
    tsa = "memref<%dx%dx%dxf32, strided<[%d, 1, %d]>>" % (g, m, kb, am * kb, am)
    tb, tsb = "memref<%dx%dx%dxf8E4M3FN>" % (g, n, k), "memref<%dx%dx%dxf32>" % (g, nb, kb)
    tg, td = "memref<%dxi32>" % g, "memref<%dx%dx%dxbf16>" % (g, m, n)
    return ("func.func @f(%%a: %s, %%sa: %s, %%b: %s, %%sb: %s, %%g: %s, %%d: %s) {\n"
            "  dgemm.grouped_gemm #dgemm.grouped<masked> ins(%%a, %%sa, %%b, %%sb : %s, %s, %s, %s)\n"
            "      groups(%%g : %s) outs(%%d : %s) {m_hint = %d : i64}\n  return\n}\n"
            % (ta, tsa, tb, tsb, tg, td, ta, tsa, tb, tsb, tg, td, m))


class GroupedKernelIROnStandIn(unittest.TestCase):
    """launch_grouped_kernel_ir through the real library on the stand-in
    driver (no GPU): the kernel IR dgemm-opt prints is compiled, checked
    against the operands and launched once with the masked grid; a normal
    kernel's IR is refused."""

    def test_masked_kernel_ir(self):
        import os
        import subprocess
        import sys
        path, why = S.find_real_library()
        if path is None:
            raise unittest.SkipTest(why)
        opt = Path(path).parent.parent / "bin" / "dgemm-opt"
        if not opt.is_file():
            raise unittest.SkipTest("no dgemm-opt beside %s" % path)
        import test_bad_inputs
        standin = test_bad_inputs.standin_driver()
        select = "--dgemm-select-config=multicast=false multicast-b=false max-block-m=256"
        lower = lambda ir: subprocess.run(  # noqa: E731
            [str(opt), select, "--dgemm-lower-to-kernel"], input=ir, capture_output=True,
            text=True, check=True).stdout
        ir = lower(gemm_ir_masked(2, 64, 256, 256))
        normal = lower(
            "func.func @n(%a: memref<?x256xf8E4M3FN>, %sa: memref<?x2xf32, strided<[1, ?]>>,\n"
            "    %b: memref<256x256xf8E4M3FN>, %sb: memref<2x2xf32>, %d: memref<?x256xbf16>) {\n"
            "  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x256xf8E4M3FN>, memref<?x2xf32, "
            "strided<[1, ?]>>, memref<256x256xf8E4M3FN>, memref<2x2xf32>) outs(%d : "
            "memref<?x256xbf16>) {m_hint = 64 : i64}\n  return\n}\n")
        env = dict(os.environ, DGEMM_LIB=str(path), DGEMM_CUDA_DRIVER=standin,
                   DGEMM_CACHE_DIR=tempfile.mkdtemp(prefix="dgemm-gkir-"))
        r = subprocess.run([sys.executable, "-c", _KERNEL_IR_CHILD, str(S.PYTHON_DIR),
                            str(Path(__file__).parent), ir, normal],
                           capture_output=True, text=True, env=env, timeout=300)
        out = r.stdout
        self.assertEqual(r.returncode, 0, r.stderr)
        # One launch; grid: min(max_ctas, 2 groups x 1 M block x N blocks).
        launches = [l.split() for l in out.splitlines() if l.startswith("LAUNCHES")]
        self.assertEqual(len(launches), 1, out + r.stderr)
        self.assertEqual(launches[0][1], "1", out)
        self.assertGreater(int(launches[0][2]), 0)
        self.assertIn("is not an m-grouped kernel", out)


if __name__ == "__main__":
    unittest.main()
