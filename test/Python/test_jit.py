#===- test_jit.py - JIT environment controls, warm command, Python log ---===#
"""The runtime's environment controls seen through fresh processes over the
built libdgemm.so (no GPU needed: ``prepare`` compiles for the default
target): DGEMM_PRINT_CONFIGS, DGEMM_LOG, DGEMM_DISABLE_CACHE, DGEMM_DUMP_IR,
values that are not understood, and dgemm.jit_settings(). The warm
command's progress bar and error handling (over the stub library, fast), and
the Python layer's once-only DGEMM_LOG messages (the scale copy)."""
import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import _support as S
from _support import F32, FakeTensor, call_gemm, gemm_operands

import dgemm
from dgemm import jit
from dgemm.__main__ import Progress, parse_shape

SHAPES = "256,2112,1024;64,2112,1024;255,2112,1024"


def run_py(args, lib, **env):
    """Runs ``python3 args...`` with DGEMM_* cleared, then ``env``; returns
    the CompletedProcess (text)."""
    e = {k: v for k, v in os.environ.items() if not k.startswith("DGEMM_")}
    e.update(DGEMM_LIB=str(lib), PYTHONPATH=str(S.PYTHON_DIR))
    e.update({k: str(v) for k, v in env.items()})
    return subprocess.run([sys.executable] + list(args), env=e, capture_output=True, text=True,
                          timeout=300)


def warm(lib, shapes=SHAPES, *extra, **env):
    return run_py(["-m", "dgemm", "warm", "--shapes", shapes, "--no-progress"] + list(extra),
                  lib, **env)


def dgemm_lines(stderr):
    return [l for l in stderr.splitlines() if l.startswith("dgemm: ")]


class EnvControls(unittest.TestCase):
    """Fresh processes over the real library."""

    @classmethod
    def setUpClass(cls):
        path, why = S.find_real_library()
        if path is None:
            raise unittest.SkipTest(why)
        cls.lib = path

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="dgemm-jit-"))
        self.cache = self.tmp / "cache"

    def tearDown(self):
        subprocess.run(["rm", "-rf", str(self.tmp)])

    def test_quiet_by_default(self):
        r = warm(self.lib, DGEMM_CACHE_DIR=self.cache)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(dgemm_lines(r.stderr), [])

    def test_print_configs_once_per_kernel(self):
        # M = 256 and M = 255 choose the same kernel: one line for it.
        r = warm(self.lib, DGEMM_CACHE_DIR=self.cache, DGEMM_PRINT_CONFIGS=1)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = dgemm_lines(r.stderr)
        self.assertEqual(len(lines), 2, r.stderr)
        pat = re.compile(r"dgemm: kernel (dgemm_gemm_n2112_k1024_\S+) for M=(\d+) N=2112 K=1024 "
                         r"on sm_90a \((\d+) SMs, (\d+) B shared memory\): (#dgemm\.config<.*>) "
                         r"\(compiled in [0-9.]+ ms\)$")
        seen = {}
        for line in lines:
            m = pat.match(line)
            self.assertIsNotNone(m, line)
            seen[int(m.group(2))] = (m.group(1), m.group(5))
        self.assertEqual(sorted(seen), [64, 256])
        with S.LibEnv(self.lib):
            for m, (_, cfg) in seen.items():
                self.assertEqual(cfg, dgemm.config(m, 2112, 1024))
        self.assertNotEqual(seen[64][0], seen[256][0])
        # A new process finds them on disk: printed again, as disk loads.
        r = warm(self.lib, DGEMM_CACHE_DIR=self.cache, DGEMM_PRINT_CONFIGS="yes")
        lines = dgemm_lines(r.stderr)
        self.assertEqual(len(lines), 2, r.stderr)
        self.assertTrue(all(l.endswith("(from the disk cache)") for l in lines), lines)

    def test_log_levels(self):
        r = warm(self.lib, DGEMM_CACHE_DIR=self.cache, DGEMM_LOG=1)
        self.assertEqual(r.returncode, 0, r.stderr)
        text = r.stderr
        self.assertIn("dgemm: JIT settings: disable_cache=0; print_configs=0; dump_ir=; log=1",
                      text)
        self.assertIn("dgemm: kernel cache: %s" % self.cache, text)
        self.assertEqual(len(re.findall(r"dgemm: cache: disk miss [0-9a-f]{16}: ", text)), 2, text)
        compiled = re.findall(r"dgemm: cache: compiled ([0-9a-f]{16}) \((\S+)\) in ([0-9.]+) ms: "
                              r"gemm_fp8_bf16_nt n=2112 k=1024 config=#dgemm.config<", text)
        self.assertEqual(len(compiled), 2, text)
        for h, _, _ in compiled:
            self.assertTrue((self.cache / (h + ".ptx")).is_file())
        self.assertNotIn("memory hit", text)  # level 2 only
        r = warm(self.lib, DGEMM_CACHE_DIR=self.cache, DGEMM_LOG=2)
        self.assertEqual(len(re.findall(r"dgemm: cache: disk hit \S+\.ptx \([0-9.]+ ms\): ",
                                        r.stderr)), 2, r.stderr)
        self.assertEqual(len(re.findall(r"dgemm: cache: memory hit [0-9a-f]{16} ", r.stderr)), 1,
                         r.stderr)
        self.assertNotIn("compiled", "\n".join(dgemm_lines(r.stderr)))

    def test_disable_cache(self):
        for _ in range(2):
            r = warm(self.lib, DGEMM_CACHE_DIR=self.cache, DGEMM_DISABLE_CACHE=1)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("warm: 3 shapes, 2 kernels compiled", r.stdout)  # memory cache works
            self.assertFalse(self.cache.exists())  # never written, never created
        # The same cache enabled: written, then read.
        warm(self.lib, DGEMM_CACHE_DIR=self.cache, DGEMM_DISABLE_CACHE=0)
        self.assertEqual(len(list(self.cache.glob("*.ptx"))), 2)
        r = warm(self.lib, DGEMM_CACHE_DIR=self.cache, DGEMM_DISABLE_CACHE=1)
        self.assertIn("warm: 3 shapes, 2 kernels compiled", r.stdout)  # not read either

    def test_dump_ir(self):
        dump = self.tmp / "ir" / "deeper"
        r = warm(self.lib, "256,2112,1024", DGEMM_CACHE_DIR=self.cache, DGEMM_DUMP_IR=dump)
        self.assertEqual(r.returncode, 0, r.stderr)
        files = sorted(p.name for p in dump.iterdir())
        self.assertEqual(len(files), 6, files)
        base = files[0].split(".")[0]
        self.assertRegex(base, r"^dgemm_gemm_n2112_k1024_\w+-[0-9a-f]{16}$")
        h = base.rsplit("-", 1)[1]
        self.assertTrue((self.cache / (h + ".ptx")).is_file())  # same hash as the cache entry
        self.assertEqual([f[len(base) + 1:] for f in files],
                         ["0-input.mlir", "1-dgemm-select-config.mlir",
                          "2-dgemm-lower-to-kernel.mlir", "3-convert-dgemm-to-nvvm.mlir",
                          "4-llvm.mlir", "5-ptx.ptx"])
        self.assertEqual((dump / (base + ".5-ptx.ptx")).read_text(),
                         (self.cache / (h + ".ptx")).read_text())
        # Unwritable folder: one warning, kernels compiled all the same.
        blocker = self.tmp / "file"
        blocker.write_text("x")
        r = warm(self.lib, DGEMM_CACHE_DIR=self.tmp / "c2", DGEMM_DUMP_IR=blocker / "ir")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("warm: 3 shapes, 2 kernels compiled", r.stdout)
        lines = dgemm_lines(r.stderr)
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn("warning: DGEMM_DUMP_IR: cannot create %s/ir" % blocker, lines[0])

    def test_values_not_understood_are_warnings(self):
        r = warm(self.lib, DGEMM_CACHE_DIR=self.cache, DGEMM_DISABLE_CACHE="maybe",
                 DGEMM_LOG="chatty")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("dgemm: warning: DGEMM_DISABLE_CACHE=maybe is not understood (use 1 or 0); "
                      "ignored", r.stderr)
        self.assertIn("dgemm: warning: DGEMM_LOG=chatty is not understood (use 0, 1 or 2); "
                      "using 1", r.stderr)
        self.assertEqual(len(list(self.cache.glob("*.ptx"))), 2)  # the cache stayed on

    def test_jit_settings(self):
        code = "import dgemm; print(dgemm.jit_settings())"
        r = run_py(["-c", code], self.lib, DGEMM_CACHE_DIR=self.cache, DGEMM_PRINT_CONFIGS=1,
                   DGEMM_DUMP_IR="/x/y")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(eval(r.stdout), dict(cache_dir=str(self.cache), disable_cache="0",
                                              print_configs="1", dump_ir="/x/y", log="0"))
        r = run_py(["-c", code], self.lib, DGEMM_CACHE_DIR=self.cache, DGEMM_DISABLE_CACHE=1)
        self.assertEqual(eval(r.stdout)["cache_dir"], "")
        self.assertEqual(eval(r.stdout)["disable_cache"], "1")
        r = run_py(["-m", "dgemm", "settings"], self.lib, DGEMM_LOG=2)
        self.assertIn("log=2", r.stdout.splitlines())


class WarmCommandOnStub(unittest.TestCase):
    """The warm command's output over the stub library (its prepare answers
    at once)."""

    @classmethod
    def setUpClass(cls):
        path, why = S.build_stub()
        if path is None:
            raise unittest.SkipTest(why)
        cls.lib = path

    def test_progress_bar_on_stderr(self):
        r = run_py(["-m", "dgemm", "warm", "--shapes", "64,2112,7168;128,256,512"], self.lib)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout.splitlines()
        self.assertEqual(out[:2], ["[1/2] M=64 N=2112 K=7168  ?  12 ms",
                                   "[2/2] M=128 N=256 K=512  ?  12 ms"])
        bars = r.stderr.splitlines()
        self.assertEqual(len(bars), 3, r.stderr)  # not a terminal: a line per step
        self.assertTrue(bars[0].startswith("[" + "." * 30 + "] 0/2   0%  starting"), bars[0])
        self.assertTrue(bars[1].startswith("[" + "#" * 15 + "." * 15 + "] 1/2  50%  M=64 N=2112 "
                                           "K=7168"), bars[1])
        self.assertTrue(bars[2].startswith("[" + "#" * 30 + "] 2/2 100%  M=128 N=256 K=512"),
                        bars[2])
        r = run_py(["-m", "dgemm", "warm", "--shapes", "64,2112,7168", "--no-progress"], self.lib)
        self.assertEqual(r.stderr, "")

    def test_bad_shapes_are_usage_errors(self):
        for shapes, why in (("1,2", "is not M,N,K"), ("a,b,c", "is not M,N,K"),
                            ("1,-2,3", "negative")):
            r = run_py(["-m", "dgemm", "warm", "--shapes", shapes], self.lib)
            self.assertEqual(r.returncode, 2, shapes)
            self.assertIn(why, r.stderr)
            self.assertNotIn("Traceback", r.stderr)
        r = run_py(["-m", "dgemm", "warm", "--csv", "/nonexistent.csv"], self.lib)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--csv /nonexistent.csv", r.stderr)


class ProgressText(unittest.TestCase):
    def test_text(self):
        p = Progress(4, stream=io.StringIO(), width=8)
        self.assertEqual(p.text(0, "", 0.0), "[........] 0/4   0%  0.0 s")
        self.assertEqual(p.text(1, "M=1", 2.0), "[##......] 1/4  25%  M=1  2.0 s, ~6.0 s left")
        self.assertEqual(p.text(4, "", 9.0), "[########] 4/4 100%  9.0 s")

    def test_terminal_redraws_in_place(self):
        class Tty(io.StringIO):
            def isatty(self):
                return True
        out = Tty()
        p = Progress(2, stream=out, width=4)
        p.update(1, "a")
        p.update(2, "b")
        p.close()
        text = out.getvalue()
        self.assertEqual(text.count("\n"), 1)
        self.assertTrue(text.endswith("\n"))
        self.assertEqual(text.count("\r\033[K"), 2)

    def test_parse_shape(self):
        self.assertEqual(parse_shape("1, 2,3"), (1, 2, 3))
        for bad in ("1,2", "1,2,3,4", "x,1,2", "1,-1,2"):
            with self.assertRaises(ValueError):
                parse_shape(bad)


class PythonLog(unittest.TestCase):
    """jit.log_once, and the scale copies it reports."""

    def setUp(self):
        self.saved = os.environ.get("DGEMM_LOG")
        jit._reset_for_tests()

    def tearDown(self):
        if self.saved is None:
            os.environ.pop("DGEMM_LOG", None)
        else:
            os.environ["DGEMM_LOG"] = self.saved
        jit._reset_for_tests()

    def test_levels(self):
        for v, level in (("", 0), ("0", 0), ("off", 0), ("1", 1), ("TRUE", 1), ("2", 2),
                         ("9", 2), ("-1", 0), ("bogus", 1)):
            self.assertEqual(jit.log_level({"DGEMM_LOG": v}), level, v)
        self.assertEqual(jit.log_level({}), 0)

    def test_once(self):
        os.environ["DGEMM_LOG"] = "0"
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertFalse(jit.log_once("k", "quiet"))
            os.environ["DGEMM_LOG"] = "1"
            self.assertTrue(jit.log_once("k", "first"))
            self.assertFalse(jit.log_once("k", "again"))
            self.assertTrue(jit.log_once("other", "second"))
        self.assertEqual(err.getvalue(), "dgemm: first\ndgemm: second\n")

    def test_scale_copy_logged_once(self):
        path, why = S.build_stub()
        if path is None:
            self.skipTest(why)

        class TorchLike(FakeTensor):
            """Looks like a torch tensor to the package (its module), with a
            contiguous() that makes the copy."""

            def contiguous(self):
                return FakeTensor(self.shape, self.dtype, ptr=0x7f0060000000)

        TorchLike.__module__ = "torch.fake"
        m, n, k = 128, 256, 512
        sfb_t = TorchLike((2, 4), F32, strides=(1, 2), ptr=0x7f0030000000)  # column-major
        ops = gemm_operands(m, n, k, sfb=sfb_t)
        err = io.StringIO()
        os.environ["DGEMM_LOG"] = "1"
        with S.LibEnv(path), contextlib.redirect_stderr(err):
            call_gemm(ops, stream=0)
            call_gemm(ops, stream=0)
            call_gemm(gemm_operands(m, n, k), stream=0)  # no copy
        lines = err.getvalue().splitlines()
        self.assertEqual(lines, ["dgemm: gemm_fp8_fp8_bf16_nt: B scales [2, 4] with strides "
                                 "(1, 2) are copied into a contiguous tensor on every call; pass "
                                 "them contiguous (logged once)"])
        os.environ["DGEMM_LOG"] = "0"
        jit._reset_for_tests()
        err = io.StringIO()
        with S.LibEnv(path), contextlib.redirect_stderr(err):
            call_gemm(ops, stream=0)
        self.assertEqual(err.getvalue(), "")


if __name__ == "__main__":
    unittest.main()
