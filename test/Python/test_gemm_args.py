#===- test_gemm_args.py - argument rules of gemm_fp8_fp8_bf16_nt ---------===#
"""Every rule of gemm_fp8_fp8_bf16_nt raises DgemmArgumentError naming the
operand, before the library is even loaded (DGEMM_LIB points nowhere)."""
import unittest

import _support as S
from _support import BF16, E4M3, F32, I32, FakeTensor, call_gemm, gemm_operands

import dgemm
from dgemm import DgemmArgumentError, DgemmError


class ArgumentRules(unittest.TestCase):
    def setUp(self):
        self.env = S.LibEnv("/nonexistent/libdgemm.so")
        self.env.__enter__()

    def tearDown(self):
        self.env.__exit__(None, None, None)

    def bad(self, pattern, **over):
        ops = gemm_operands(256, 512, 1024)
        ops.update(over)
        with self.assertRaisesRegex(DgemmArgumentError, pattern):
            call_gemm(ops, stream=0)

    def test_valid_arguments_reach_the_library(self):
        # Validation passes; the next step is loading, which fails here.
        with self.assertRaisesRegex(DgemmError, "libdgemm.so not found"):
            call_gemm(gemm_operands(256, 512, 1024), stream=0)

    def test_argument_error_is_a_value_error(self):
        self.assertTrue(issubclass(DgemmArgumentError, ValueError))
        self.assertTrue(issubclass(DgemmArgumentError, DgemmError))

    def test_dtypes(self):
        self.bad(r"lhs\[0\] \(A\) must be torch.float8_e4m3fn, got torch.bfloat16",
                 a=FakeTensor((256, 1024), BF16))
        self.bad(r"rhs\[0\] \(B\) must be torch.float8_e4m3fn, got torch.int32",
                 b=FakeTensor((512, 1024), I32))
        self.bad(r"lhs\[1\] \(A scales\) must be torch.float32",
                 sfa=FakeTensor((256, 8), BF16, strides=(1, 256)))
        self.bad(r"rhs\[1\] \(B scales\) must be torch.float32",
                 sfb=FakeTensor((4, 8), E4M3))
        self.bad(r"out \(D\) must be torch.bfloat16, got torch.float32",
                 d=FakeTensor((256, 512), F32))

    def test_ranks(self):
        self.bad(r"lhs\[0\] \(A\) must be 2-D, got shape \[2, 128, 1024\]",
                 a=FakeTensor((2, 128, 1024), E4M3))
        self.bad(r"out \(D\) must be 2-D", d=FakeTensor((256 * 512,), BF16))

    def test_shape_mismatch(self):
        self.bad(r"K differs: A is \[M, K\] = \[256, 1024\] but B is \[N, K\] = \[512, 896\]",
                 b=FakeTensor((512, 896), E4M3))
        self.bad(r"out must be \[M, N\] = \[256, 512\], got \[256, 520\]",
                 d=FakeTensor((256, 520), BF16))
        self.bad(r"out must be \[M, N\] = \[256, 512\], got \[255, 512\]",
                 d=FakeTensor((255, 512), BF16))

    def test_k_and_n_rules(self):
        ops = gemm_operands(64, 512, 1024, a=FakeTensor((64, 1000), E4M3),
                            b=FakeTensor((512, 1000), E4M3))
        with self.assertRaisesRegex(DgemmArgumentError, "K = 1000 must be a positive multiple of 128"):
            call_gemm(ops, stream=0)
        ops = gemm_operands(64, 500, 1024)
        with self.assertRaisesRegex(DgemmArgumentError, "N = 500 must be a positive multiple of 8"):
            call_gemm(ops, stream=0)

    def test_scale_shapes(self):
        self.bad(r"A scales must be \[M, K/128\] = \[256, 8\] .* got \[256, 16\]",
                 sfa=FakeTensor((256, 16), F32, strides=(1, 256)))
        self.bad(r"B scales must be \[ceil\(N/128\), K/128\] = \[4, 8\] .* got \[512, 8\]",
                 sfb=FakeTensor((512, 8), F32))
        # ceil(N/128) for N not a multiple of 128: N = 520 -> 5 blocks.
        ops = gemm_operands(64, 520, 1024, sfb=FakeTensor((4, 8), F32))
        with self.assertRaisesRegex(DgemmArgumentError, r"= \[5, 8\]"):
            call_gemm(ops, stream=0)

    def test_layouts(self):
        # A stored transposed (M-major) is not K-major.
        self.bad(r"lhs\[0\] \(A\) \[256, 1024\] must be row-major",
                 a=FakeTensor((256, 1024), E4M3, strides=(1, 256)))
        # Row pitch not a multiple of 16 bytes.
        self.bad(r"out \(D\) \[256, 512\] must be row-major .* got strides \(516, 1\)",
                 d=FakeTensor((256, 512), BF16, strides=(516, 1)))
        # A stand-in (not torch) A-scale tensor in row-major layout cannot be
        # converted here: a clear message instead.
        self.bad(r"A scales must be MN-major with strides \(1, S\)",
                 sfa=FakeTensor((256, 8), F32))
        self.bad(r"A scales must be MN-major", sfa=FakeTensor((256, 8), F32, strides=(1, 258)))
        self.bad(r"B scales must be contiguous \(strides \(8, 1\)\), got \(1, 4\)",
                 sfb=FakeTensor((4, 8), F32, strides=(1, 4)))

    def test_padded_rows_are_accepted(self):
        # Row pitch 1024 + 128 bytes for A, scales padded beyond align(M, 4).
        ops = gemm_operands(256, 512, 1024, a=FakeTensor((256, 1024), E4M3, strides=(1152, 1)),
                            sfa=FakeTensor((256, 8), F32, strides=(1, 264)))
        with self.assertRaisesRegex(DgemmError, "libdgemm.so not found"):
            call_gemm(ops, stream=0)

    def test_alignment(self):
        self.bad(r"lhs\[0\] \(A\) data address 0x7f0000000008 is not 16-byte aligned",
                 a=FakeTensor((256, 1024), E4M3, ptr=0x7f0000000008))
        self.bad(r"out \(D\) data address .* is not 16-byte aligned",
                 d=FakeTensor((256, 512), BF16, ptr=0x7f0000000002))

    def test_devices(self):
        self.bad(r"out \(D\) is on cpu; all operands must be CUDA tensors",
                 d=FakeTensor((256, 512), BF16, is_cuda=False, device="cpu"))
        self.bad(r"operands are on different devices",
                 d=FakeTensor((256, 512), BF16, device="cuda:1"))

    def test_not_a_tensor(self):
        self.bad(r"lhs\[0\] \(A\) must be a tensor .* got list", a=[[1.0]])
        with self.assertRaisesRegex(DgemmArgumentError, "pairs"):
            dgemm.gemm_fp8_fp8_bf16_nt(FakeTensor((1, 128), E4M3), (None, None), None)

    def test_m_zero_does_nothing(self):
        # M = 0 is valid and launches nothing (so the missing library is not
        # even looked for), as in DeepGEMM.
        call_gemm(gemm_operands(0, 512, 1024), stream=0)
        call_gemm(gemm_operands(0, 512, 1024, sfa=FakeTensor((0, 8), F32)), stream=0)

    def test_size_one_dimensions(self):
        # M = 1 and K = 128: strides along size-1 dimensions do not matter.
        ops = gemm_operands(1, 128, 128, a=FakeTensor((1, 128), E4M3, strides=(7, 1)),
                            sfa=FakeTensor((1, 1), F32, strides=(1, 1)),
                            sfb=FakeTensor((1, 1), F32, strides=(5, 3)))
        with self.assertRaisesRegex(DgemmError, "libdgemm.so not found"):
            call_gemm(ops, stream=0)

    def test_config_arguments(self):
        with self.assertRaisesRegex(DgemmArgumentError, "k must be a non-negative int"):
            dgemm.config(128, 256, -1)
        with self.assertRaisesRegex(DgemmArgumentError, "n must be a non-negative int"):
            dgemm.prepare(128, 256.0, 512)


if __name__ == "__main__":
    unittest.main()
