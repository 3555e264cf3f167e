#===- test_lib.py - loading libdgemm.so and the C ABI ---------------------===#
"""The library search order; the ctypes declarations against a stub library
built from Runtime.h by the system C compiler (struct layout, every field and
pointer the Python layer passes, status -> exception); and, where a built
libdgemm.so exports the C API, the real library without a GPU driver."""
import ctypes
import re
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

import _support as S
from _support import BF16, E4M3, F32, FakeTensor, call_gemm, gemm_operands

import dgemm
from dgemm import DgemmArgumentError, DgemmError, _lib


class SearchOrder(unittest.TestCase):
    def test_env_file_is_the_only_candidate(self):
        with S.LibEnv("/x/y/libdgemm.so"):
            self.assertEqual(_lib.candidate_paths(), [Path("/x/y/libdgemm.so")])

    def test_env_folder(self):
        d = tempfile.mkdtemp()
        with S.LibEnv(d):
            self.assertEqual(_lib.candidate_paths(), [Path(d) / "libdgemm.so"])

    def test_default_order(self):
        with S.LibEnv(None):
            c = _lib.candidate_paths()
        self.assertEqual(c[0], S.ROOT / "build" / "lib" / "libdgemm.so")
        self.assertEqual(c[1], Path("/tmp/dgemm/dgemm/lib/libdgemm.so"))
        self.assertEqual(c[2], S.PYTHON_DIR / "dgemm" / "libdgemm.so")

    def test_missing_library_message(self):
        with S.LibEnv("/nonexistent/libdgemm.so"):
            with self.assertRaisesRegex(DgemmError, r"libdgemm.so not found; tried: "
                                        r"/nonexistent/libdgemm.so \(not found\).*DGEMM_LIB"):
                dgemm.config(1, 128, 128)

    def test_library_without_the_api(self):
        # Any shared library lacking the dgemm_* symbols: libc's soname file.
        import ctypes.util
        name = ctypes.util.find_library("m")
        path = next((p for p in ("/lib/x86_64-linux-gnu/" + (name or ""),
                                 "/usr/lib/x86_64-linux-gnu/" + (name or ""))
                     if name and os.path.isfile(p)), None)
        if path is None:
            self.skipTest("no libm file found to stand in for an old libdgemm.so")
        with S.LibEnv(path):
            with self.assertRaisesRegex(DgemmError, "does not export dgemm_last_error.*rebuild"):
                dgemm.config(1, 128, 128)


class StubLibrary(S.OnStubLibrary):
    """The Python layer against stub_runtime.c through the real C ABI."""

    def fail_next(self, status, msg):
        self.stub.stub_set_next_status(status, msg.encode())

    def test_struct_layout_matches_the_header(self):
        out = (ctypes.c_int64 * 6)()
        self.stub.stub_layout(out)
        T = _lib.Tensor
        self.assertEqual(list(out), [ctypes.sizeof(T), T.data.offset, T.dtype.offset,
                                     T.rank.offset, T.shape.offset, T.strides.offset])

    def test_gemm_passes_every_field(self):
        m, n, k = 200, 392, 640
        ops = gemm_operands(m, n, k)
        before = self.stub.stub_calls()
        call_gemm(ops, stream=0x1234)
        self.assertEqual(self.stub.stub_calls(), before + 1)
        self.assertEqual(self.stub.stub_last_stream(), 0x1234)
        want = [
            (ops["a"], _lib.DTYPE_F8E4M3, (m, k), (k, 1)),
            (ops["sfa"], _lib.DTYPE_F32, (m, k // 128), (1, 200)),
            (ops["b"], _lib.DTYPE_F8E4M3, (n, k), (k, 1)),
            (ops["sfb"], _lib.DTYPE_F32, (4, k // 128), (k // 128, 1)),
            (ops["d"], _lib.DTYPE_BF16, (m, n), (n, 1)),
        ]
        for i, (t, dtype, shape, strides) in enumerate(want):
            got = self.stub.stub_last_tensor(i).contents
            self.assertEqual(got.data, t.data_ptr(), i)
            self.assertEqual(got.dtype, dtype, i)
            self.assertEqual(got.rank, 2, i)
            self.assertEqual(tuple(got.shape[:2]), shape, i)
            self.assertEqual(tuple(got.strides[:2]), strides, i)
            self.assertEqual(tuple(got.shape[2:]) + tuple(got.strides[2:]), (0, 0, 0, 0), i)

    def test_gemm_with_bias_passes_the_bias(self):
        # Epilogue fusion: the five operands as without a bias, and the bias
        # [N] f32 (slot 5 of the stub's record) through
        # dgemm_gemm_fp8_bf16_nt_bias.
        m, n, k = 200, 392, 640
        ops = gemm_operands(m, n, k)
        bias = FakeTensor((n,), F32, ptr=0x7f0050000000)
        before = self.stub.stub_calls()
        call_gemm(ops, bias=bias, stream=0x1234)
        self.assertEqual(self.stub.stub_calls(), before + 1)
        got = self.stub.stub_last_tensor(4).contents
        self.assertEqual(got.data, ops["d"].data_ptr())
        got = self.stub.stub_last_tensor(5).contents
        self.assertEqual((got.data, got.dtype, got.rank), (bias.data_ptr(), _lib.DTYPE_F32, 1))
        self.assertEqual((got.shape[0], got.strides[0]), (n, 1))

    def test_default_stream_for_non_torch_tensors(self):
        call_gemm(gemm_operands(128, 128, 128))
        self.assertIn(self.stub.stub_last_stream(), (None, 0))

    def test_status_to_exception(self):
        self.fail_next(_lib.ERROR_NO_DRIVER, "libcuda.so.1 not found: no NVIDIA driver")
        with self.assertRaises(DgemmError) as cm:
            call_gemm(gemm_operands(128, 128, 128), stream=0)
        e = cm.exception
        self.assertNotIsInstance(e, DgemmArgumentError)
        self.assertEqual(e.status, _lib.ERROR_NO_DRIVER)
        self.assertEqual(e.status_name, "DGEMM_ERROR_NO_DRIVER")
        self.assertIn("gemm_fp8_fp8_bf16_nt failed: DGEMM_ERROR_NO_DRIVER: "
                      "libcuda.so.1 not found", str(e))
        self.fail_next(_lib.ERROR_INVALID_ARGUMENT, "b: row pitch 8 bytes")
        with self.assertRaisesRegex(DgemmArgumentError, "INVALID_ARGUMENT: b: row pitch"):
            call_gemm(gemm_operands(128, 128, 128), stream=0)
        # The next call succeeds again.
        call_gemm(gemm_operands(128, 128, 128), stream=0)

    def test_launch_cache(self):
        from dgemm import gemm
        gemm._launch_cache.clear()
        ops = gemm_operands(256, 512, 1024)
        built = []
        real = gemm._GemmArgs

        def counting(*a, **k):
            built.append(1)
            return real(*a, **k)

        gemm._GemmArgs = counting
        try:
            call_gemm(ops, stream=0)
            call_gemm(ops, stream=0)
            self.assertEqual(len(built), 1)            # the second call was a hit
            self.assertEqual(len(gemm._launch_cache), 1)
            # Another output buffer: validated and cached anew, passed on.
            ops2 = dict(ops, d=FakeTensor((256, 512), BF16, ptr=0x7f0050000000))
            call_gemm(ops2, stream=0)
            self.assertEqual(len(built), 2)
            self.assertEqual(self.stub.stub_last_tensor(4).contents.data, 0x7f0050000000)
            # Same shapes with a misaligned A: never a stale hit.
            bad = dict(ops, a=FakeTensor((256, 1024), E4M3, ptr=0x7f0000000004))
            with self.assertRaisesRegex(DgemmArgumentError, "not 16-byte aligned"):
                call_gemm(bad, stream=0)
            # The stream is read per call, not cached.
            call_gemm(ops, stream=99)
            self.assertEqual(self.stub.stub_last_stream(), 99)
        finally:
            gemm._GemmArgs = real
            gemm._launch_cache.clear()

    def test_bound_call(self):
        ops = gemm_operands(64, 256, 512)
        call = dgemm.bind_gemm_fp8_fp8_bf16_nt((ops["a"], ops["sfa"]), (ops["b"], ops["sfb"]),
                                               ops["d"], stream=7)
        before = self.stub.stub_calls()
        call()
        call()
        self.assertEqual(self.stub.stub_calls(), before + 2)
        self.assertEqual(self.stub.stub_last_tensor(4).contents.data, ops["d"].data_ptr())
        self.assertEqual(self.stub.stub_last_stream(), 7)
        self.fail_next(_lib.ERROR_CUDA, "launch failed")
        with self.assertRaisesRegex(DgemmError, "DGEMM_ERROR_CUDA: launch failed"):
            call()

    def test_bound_call_with_bias(self):
        # bind_gemm_fp8_fp8_bf16_nt(bias=): the bias checked at bind time and
        # passed by each launch (bound, and plain), into the stub's slot 5.
        ops = gemm_operands(64, 256, 512)
        bias = FakeTensor((256,), F32, ptr=0x7f0050000000)
        lhs, rhs = (ops["a"], ops["sfa"]), (ops["b"], ops["sfb"])
        for plain in (False, True):
            call = dgemm.bind_gemm_fp8_fp8_bf16_nt(lhs, rhs, ops["d"], bias=bias, stream=7,
                                                   plain=plain)
            before = self.stub.stub_calls()
            call()
            self.assertEqual(self.stub.stub_calls(), before + 1)
            self.assertEqual(self.stub.stub_last_tensor(5).contents.data, bias.data_ptr())
            self.assertEqual(self.stub.stub_last_tensor(4).contents.data, ops["d"].data_ptr())
            self.assertEqual(self.stub.stub_last_stream(), 7)
        bad = FakeTensor((256,), F32, ptr=0x7f0050000004)
        with self.assertRaisesRegex(DgemmArgumentError, "not 8-byte aligned"):
            dgemm.bind_gemm_fp8_fp8_bf16_nt(lhs, rhs, ops["d"], bias=bad)
        with self.assertRaisesRegex(DgemmArgumentError, r"bias must be \[N\] = \[256\]"):
            dgemm.bind_gemm_fp8_fp8_bf16_nt(lhs, rhs, ops["d"],
                                            bias=FakeTensor((128,), F32, ptr=0x7f0050000000))

    def test_config_and_prepare(self):
        self.assertEqual(dgemm.config(4096, 7168, 2048),
                         "#dgemm.config<block_m = 128, block_n = 160, stages = 5, "
                         "m = 4096, n = 7168, k = 2048>")
        long = dgemm.config(100000, 7168, 2048)  # > 1024 bytes: asked again
        self.assertGreater(len(long), 2000)
        self.assertTrue(long.startswith("#dgemm.config<") and long.endswith("x9 = 1>"), long)
        ms, info = dgemm.prepare(64, 2112, 7168)
        self.assertEqual(ms, 12.5)
        self.assertEqual(info, "config=stub 64x2112x7168; registers=168")
        self.fail_next(_lib.ERROR_COMPILE, "ptxas: too many registers")
        with self.assertRaisesRegex(DgemmError, "dgemm_gemm_prepare failed: "
                                    "DGEMM_ERROR_COMPILE: ptxas: too many registers"):
            dgemm.prepare(64, 2112, 7168)

    def test_compile_to_ptx(self):
        self.assertIn(".target sm_90a", dgemm.compile_to_ptx("func.func @f() { dgemm.gemm }"))
        with self.assertRaisesRegex(DgemmError, "DGEMM_ERROR_COMPILE: stub: no dgemm.gemm"):
            dgemm.compile_to_ptx("module {}")

    def test_launch_kernel_ir(self):
        ops = gemm_operands(128, 256, 256)
        dgemm.launch_kernel_ir("gpu.module @k {}", (ops["a"], ops["sfa"]),
                               (ops["b"], ops["sfb"]), ops["d"], stream=0)
        self.assertEqual(self.stub.stub_last_ir(), b"gpu.module @k {}")

    def test_library_path(self):
        self.assertEqual(dgemm.library_path(), Path(self.path))


class OnRealLibrary(unittest.TestCase):
    """Base of the tests that need the built libdgemm.so (skipped, with the
    reason, where there is none)."""

    @classmethod
    def setUpClass(cls):
        path, why = S.find_real_library()
        if path is None:
            raise unittest.SkipTest(why)
        cls.path = path


class RealLibrary(OnRealLibrary):
    """The built libdgemm.so on a machine without a GPU driver."""


    def setUp(self):
        self.env = S.LibEnv(self.path)
        self.env.__enter__()
        self.cache = tempfile.mkdtemp(prefix="dgemm-cache-")
        self.saved_cache = os.environ.get("DGEMM_CACHE_DIR")
        os.environ["DGEMM_CACHE_DIR"] = self.cache

    def tearDown(self):
        if self.saved_cache is None:
            os.environ.pop("DGEMM_CACHE_DIR", None)
        else:
            os.environ["DGEMM_CACHE_DIR"] = self.saved_cache
        self.env.__exit__(None, None, None)

    def have_driver(self):
        import ctypes.util
        try:
            ctypes.CDLL("libcuda.so.1")
            return True
        except OSError:
            return False

    def test_config_needs_no_gpu(self):
        text = dgemm.config(4096, 7168, 2048)
        self.assertTrue(text.startswith("#dgemm.config<"), text)
        self.assertIn("block_m", text)

    def test_runtime_config_is_the_pass_default(self):
        # The runtime's choice for each normal reference shape is the config
        # dgemm-select-config attaches with its default options (the
        # runtime's), so what dgemm-opt and the main job print is what runs.
        opt = Path(self.path).parent.parent / "bin" / "dgemm-opt"
        if not opt.is_file():
            self.skipTest("no dgemm-opt beside %s" % self.path)
        out = subprocess.run([str(opt), str(S.ROOT / "examples" / "deepseek-v3.mlir"),
                              "--dgemm-select-config"], capture_output=True, text=True,
                             check=True).stdout
        chosen = dict(re.findall(r"func\.func @(gemm_m\d+_n\d+_k\d+)_e4m3\(.*?"
                                 r"config = (#dgemm\.config<[^>]*>)", out, re.S))
        shapes = [tuple(int(x) for x in line.split(",")[2:])
                  for line in open(S.ROOT / "bench" / "shapes.csv")
                  if line.startswith("normal,")]
        self.assertEqual(len(shapes), 18)
        for m, n, k in shapes:
            with self.subTest(shape=(m, n, k)):
                self.assertEqual(dgemm.config(m, n, k), chosen["gemm_m%d_n%d_k%d" % (m, n, k)])

    def test_gemm_without_driver_says_so(self):
        if self.have_driver():
            self.skipTest("libcuda.so.1 loads here: this test is for machines without a driver")
        with self.assertRaises(DgemmError) as cm:
            call_gemm(gemm_operands(128, 256, 512), stream=0)
        e = cm.exception
        self.assertIn(e.status, (_lib.ERROR_NO_DRIVER, _lib.ERROR_NO_DEVICE), str(e))
        self.assertRegex(str(e).lower(), "driver|libcuda")

    def test_invalid_arguments_reach_the_c_checks(self):
        # Bypass the Python checks: the C API must reject a bad K itself.
        T = _lib.Tensor
        a = T.make(0x7f0000000000, _lib.DTYPE_F8E4M3, (128, 100), (100, 1))
        sa = T.make(0x7f0000100000, _lib.DTYPE_F32, (128, 1), (1, 128))
        b = T.make(0x7f0000200000, _lib.DTYPE_F8E4M3, (256, 100), (100, 1))
        sb = T.make(0x7f0000300000, _lib.DTYPE_F32, (2, 1), (1, 1))
        d = T.make(0x7f0000400000, _lib.DTYPE_BF16, (128, 256), (256, 1))
        lib = _lib.load()
        st = lib.dgemm_gemm_fp8_bf16_nt(ctypes.byref(a), ctypes.byref(sa), ctypes.byref(b),
                                        ctypes.byref(sb), ctypes.byref(d), None)
        self.assertEqual(st, _lib.ERROR_INVALID_ARGUMENT, _lib.last_error())
        self.assertNotEqual(_lib.last_error(), "")

    def test_compile_to_ptx_rejects_garbage(self):
        with self.assertRaises(DgemmError) as cm:
            dgemm.compile_to_ptx("this is not MLIR")
        self.assertNotEqual(cm.exception.status, _lib.OK)


if __name__ == "__main__":
    unittest.main()


class DeviceHelpersAndGroupedNames(unittest.TestCase):
    """DeepGEMM's helper and GEMM names that exist before their kernels."""

    def test_wgrad_names_check_their_arguments(self):
        for fn in (dgemm.wgrad_gemm_fp8_fp8_fp32_nt,
                   dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt):
            with self.assertRaises(dgemm.DgemmArgumentError) as e:
                fn(None, None, None, *([None] * (fn.__code__.co_argcount - 3)))
            self.assertIn(fn.__name__, str(e.exception))

    def test_contiguous_alignment(self):
        self.assertEqual(dgemm.get_m_alignment_for_contiguous_layout(), 128)

    def test_set_num_sms_rejects_negative_before_the_library(self):
        with self.assertRaises(DgemmArgumentError):
            dgemm.set_num_sms(-1)
        with self.assertRaises(DgemmArgumentError):
            dgemm.set_num_sms(True)


class NumSmsOnTheRealLibrary(OnRealLibrary):
    """set_num_sms limits the persistent grid of the configs chosen after it."""


    def setUp(self):
        self.env = S.LibEnv(self.path)
        self.env.__enter__()

    def tearDown(self):
        dgemm.set_num_sms(0)
        self.env.__exit__(None, None, None)

    def test_limit_is_kept_and_applied(self):
        dgemm.set_num_sms(0)
        full = dgemm.get_num_sms()
        self.assertGreater(full, 0)
        before = dgemm.config(4096, 7168, 16384)
        self.assertRegex(before, r"num_sms = (1[0-9][0-9])>")
        dgemm.set_num_sms(100)
        self.assertEqual(dgemm.get_num_sms(), 100)
        after = dgemm.config(4096, 7168, 16384)
        n = int(re.search(r"num_sms = (\d+)>", after).group(1))
        self.assertLessEqual(n, 100)
        dgemm.set_num_sms(0)
        self.assertEqual(dgemm.get_num_sms(), full)
        self.assertEqual(dgemm.config(4096, 7168, 16384), before)


class WarmCommand(OnRealLibrary):
    """python -m dgemm warm compiles into the disk cache; a second process
    finds the kernels there."""


    def test_warm_then_disk_hit(self):
        import subprocess
        import sys
        cache = tempfile.mkdtemp(prefix="dgemm-warm-")
        env = dict(os.environ, DGEMM_LIB=str(self.path), DGEMM_CACHE_DIR=cache,
                   PYTHONPATH=str(S.ROOT / "python"))
        cmd = [sys.executable, "-m", "dgemm", "warm", "--shapes", "256,7168,2048;64,2112,1024"]
        first = subprocess.run(cmd, env=env, capture_output=True, text=True)
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertIn("[1/2] M=256 N=7168 K=2048  compiled", first.stdout)
        self.assertIn("warm: 2 shapes, 2 kernels compiled", first.stdout)
        second = subprocess.run(cmd, env=env, capture_output=True, text=True)
        self.assertEqual(second.returncode, 0, second.stderr)
        self.assertIn("[1/2] M=256 N=7168 K=2048  disk", second.stdout)
        self.assertIn("warm: 2 shapes, 0 kernels compiled", second.stdout)
        bad = subprocess.run([sys.executable, "-m", "dgemm", "warm"], env=env,
                             capture_output=True, text=True)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("no shapes", bad.stderr)


class DeepNestingOnTheRealLibrary(OnRealLibrary):
    """Text nested deeper than MLIR's recursive parser survives is an error,
    not a crash of the caller's process."""


    def test_compile_to_ptx_rejects_deep_nesting(self):
        with S.LibEnv(self.path):
            text = "func.func private @f() attributes {r = " + "[" * 100000 + "}"
            with self.assertRaises(DgemmError) as e:
                dgemm.compile_to_ptx(text)
            self.assertIn("levels deep, more than the 1000", str(e.exception))
