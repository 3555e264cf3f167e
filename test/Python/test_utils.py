#===- test_utils.py - ceil_div, TMA-aligned sizes/layouts, calc_diff -----===#
import unittest

import _support as S

import dgemm
from dgemm import utils

if S.HAVE_NUMPY:
    import numpy as np


class Integers(unittest.TestCase):
    def test_ceil_div(self):
        self.assertEqual([dgemm.ceil_div(x, 128) for x in (1, 127, 128, 129, 256, 7168)],
                         [1, 1, 1, 2, 2, 56])
        self.assertEqual(dgemm.ceil_div(0, 128), 0)
        self.assertEqual(dgemm.align(2112, 128), 2176)

    def test_tma_aligned_size(self):
        # f32: multiples of 4 elements (16 bytes); bf16: 8; fp8: 16.
        self.assertEqual([dgemm.get_tma_aligned_size(m, 4) for m in (1, 4, 5, 64, 4095, 4096)],
                         [4, 4, 8, 64, 4096, 4096])
        self.assertEqual(dgemm.get_tma_aligned_size(9, 2), 16)
        self.assertEqual(dgemm.get_tma_aligned_size(17, 1), 32)
        with self.assertRaisesRegex(ValueError, "does not divide"):
            dgemm.get_tma_aligned_size(5, 3)

    def test_is_col_major_tma_aligned(self):
        f = utils.is_col_major_tma_aligned
        self.assertTrue(f((5, 3), (1, 8)))
        self.assertFalse(f((5, 3), (1, 5)))      # not padded
        self.assertFalse(f((5, 3), (3, 1)))      # row-major
        self.assertTrue(f((2, 5, 3), (24, 1, 8)))
        self.assertFalse(f((2, 5, 3), (25, 1, 8)))


@unittest.skipUnless(S.HAVE_NUMPY, "numpy not installed (python3-numpy)")
class WithNumpy(unittest.TestCase):
    def test_calc_diff_values(self):
        rng = np.random.default_rng(1)
        x = rng.standard_normal((64, 96))
        self.assertEqual(dgemm.calc_diff(x, x), 0.0)
        self.assertAlmostEqual(dgemm.calc_diff(x, -x), 2.0, places=12)
        # y = 2x: 1 - 2*2Σx² / (Σx² + 4Σx²) = 1 - 4/5.
        self.assertAlmostEqual(dgemm.calc_diff(x, 2 * x), 0.2, places=12)
        # Orthogonal: 1.
        self.assertAlmostEqual(dgemm.calc_diff(np.array([1.0, 0.0]), np.array([0.0, 1.0])), 1.0)
        # Small noise e: about |e|² / (2|x|²).
        e = 1e-2 * rng.standard_normal(x.shape)
        want = float((e * e).sum() / (2 * (x * x).sum()))
        self.assertAlmostEqual(dgemm.calc_diff(x, x + e) / want, 1.0, delta=0.05)
        self.assertIsInstance(dgemm.calc_diff(x, x), float)

    def test_calc_diff_nan(self):
        x = np.ones(4)
        y = x.copy()
        y[2] = np.nan
        self.assertTrue(np.isnan(dgemm.calc_diff(x, y)))
        self.assertTrue(np.isnan(dgemm.calc_diff(np.zeros(3), np.zeros(3))))

    def test_calc_diff_float32_inputs_are_upcast(self):
        x = np.full(1 << 20, 1.0, dtype=np.float32)
        y = x + np.float32(1e-3)
        self.assertAlmostEqual(dgemm.calc_diff(x, y), (1e-3) ** 2 / 2 / 1.001, delta=1e-9)

    def test_col_major_tma_aligned_2d(self):
        for m in (1, 3, 4, 5, 130):
            x = np.arange(m * 7, dtype=np.float32).reshape(m, 7)
            y = dgemm.get_col_major_tma_aligned_tensor(x)
            am = dgemm.get_tma_aligned_size(m, 4)
            self.assertEqual(y.shape, (m, 7))
            self.assertEqual(y.strides, (4, 4 * am), m)
            np.testing.assert_array_equal(y, x)
            # Already aligned: returned as is.
            self.assertIs(dgemm.get_col_major_tma_aligned_tensor(y), y)

    def test_col_major_tma_aligned_3d(self):
        x = np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)
        y = dgemm.get_col_major_tma_aligned_tensor(x)
        self.assertEqual(y.strides, (4 * 8 * 3, 4, 4 * 8))
        np.testing.assert_array_equal(y, x)
        self.assertIs(dgemm.get_col_major_tma_aligned_tensor(y), y)

    def test_col_major_rejects_1d(self):
        with self.assertRaisesRegex(ValueError, "2-D or 3-D"):
            dgemm.get_col_major_tma_aligned_tensor(np.zeros(4, dtype=np.float32))


class ImportWithoutTorch(unittest.TestCase):
    def test_torch_not_imported(self):
        import subprocess
        import sys
        code = ("import sys; sys.modules['torch'] = None\n"  # any torch import fails
                "import dgemm, dgemm.gemm, dgemm.utils\n"
                "print(dgemm.ceil_div(7, 2))")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=dict(__import__("os").environ, PYTHONPATH=str(S.PYTHON_DIR)))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "4")


class BenchWithoutTorch(unittest.TestCase):
    def test_says_what_it_needs(self):
        try:
            import torch  # noqa: F401
            raise unittest.SkipTest("PyTorch is installed: test_gpu.py times a GEMM instead")
        except ImportError:
            pass
        with self.assertRaisesRegex(RuntimeError, "dgemm.bench needs PyTorch with CUDA"):
            dgemm.bench(lambda: None)


if __name__ == "__main__":
    unittest.main()
