#===- test_bad_inputs.py - the Python rows of docs/bad-inputs.md ---------===#
"""Each ``self.row(entry, category, input, outcome, message, ...)`` is one
row of docs/bad-inputs.md (scripts/gen_bad_inputs.py reads the first five
arguments, literals only). ``outcome`` is the exception class raised, or
"returns" for a call that must succeed; ``message`` must equal str(exc),
where "..." matches any text.

Argument rows run in this process with no library (DGEMM_LIB points
nowhere: the checks happen before it is loaded). Rows that need the real
libdgemm.so run in a child Python with the stand-in driver
(DGEMM_CUDA_DRIVER, unittests/StandInDriver/; built by CMake, whose path
ctest passes as DGEMM_CUDA_STANDIN, or compiled here from its source).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import _support as S
from _support import BF16, E4M3, F32, I32, FakeTensor, call_gemm, gemm_operands

import dgemm
from dgemm import DgemmArgumentError, DgemmError

_standin = None


def standin_driver():
    """The stand-in libcuda: $DGEMM_CUDA_STANDIN, else compiled once here."""
    global _standin
    if _standin is None:
        env = os.environ.get("DGEMM_CUDA_STANDIN")
        if env and Path(env).is_file():
            _standin = env
        else:
            cc = S.c_compiler()
            if cc is None:
                raise unittest.SkipTest("no C compiler to build the stand-in driver")
            out = Path(tempfile.mkdtemp(prefix="dgemm-standin-")) / "libcuda-standin.so"
            src = S.ROOT / "unittests" / "StandInDriver" / "cuda_standin.c"
            subprocess.run([cc, "-shared", "-fPIC", "-O1", str(src), "-o", str(out)],
                           check=True)
            _standin = str(out)
    return _standin


def matches(pattern, text):
    parts = [re.escape(p) for p in pattern.split("...")]
    return re.fullmatch(".*".join(parts), text, re.S) is not None


# The child: runs `code` (which sets `result` or raises) and prints what
# happened as one JSON line.
_CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
out = {"outcome": "returns", "message": ""}
try:
    import dgemm
    from _support import FakeTensor, E4M3, F32, BF16, I32, gemm_operands, call_gemm
    exec(sys.argv[3])
except Exception as e:
    out = {"outcome": type(e).__name__, "message": str(e)}
print("RESULT " + json.dumps(out))
"""


class Rows(unittest.TestCase):
    def row(self, entry, category, input, outcome, message, call=None, code=None, env=None):
        """One row: `call` (in process, no library) or `code` (in a child
        with the real library and the stand-in driver)."""
        with self.subTest(entry=entry, input=input):
            if code is not None:
                got_outcome, got = self.in_child(code, env or {})
            else:
                with S.LibEnv("/nonexistent/libdgemm.so"):
                    try:
                        call()
                        got_outcome, got = "returns", ""
                    except Exception as e:  # noqa: BLE001 - the row says which
                        got_outcome, got = type(e).__name__, str(e)
            self.assertEqual(got_outcome, outcome, got)
            self.assertTrue(matches(message, got), "expected: %s\n     got: %s" % (message, got))

    def in_child(self, code, env):
        lib, why = S.find_real_library()
        if lib is None:
            self.skipTest(why)
        e = dict(os.environ, DGEMM_LIB=str(lib), DGEMM_CUDA_DRIVER=standin_driver(),
                 DGEMM_CACHE_DIR=self.cache_dir)
        e.pop("DGEMM_STANDIN_FAULTS", None)
        e.update(env)
        r = subprocess.run([sys.executable, "-c", _CHILD, str(S.PYTHON_DIR),
                            str(Path(__file__).parent), code],
                           capture_output=True, text=True, env=e, timeout=300)
        lines = [l for l in r.stdout.splitlines() if l.startswith("RESULT ")]
        self.assertEqual(r.returncode, 0, "the child crashed: %s" % r.stderr[-2000:])
        self.assertTrue(lines, r.stderr[-2000:])
        out = json.loads(lines[-1][len("RESULT "):])
        return out["outcome"], out["message"]

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="dgemm-bad-inputs-")
        cls.cache_dir = cls.tmp.name + "/cache"

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()


def ops(**over):
    return gemm_operands(256, 512, 1024, **over)


FN = "gemm_fp8_fp8_bf16_nt"


class GemmRows(Rows):
    def test_null_and_not_a_tensor(self):
        self.row("gemm_fp8_fp8_bf16_nt", "null", "out is None", "DgemmArgumentError",
                 "out (D) must be a tensor (with shape, stride(), data_ptr() and dtype), "
                 "got NoneType", lambda: call_gemm(ops(d=None), stream=0))
        self.row("gemm_fp8_fp8_bf16_nt", "null", "lhs is not a pair", "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: lhs and rhs must be (fp8 tensor, scale tensor) pairs",
                 lambda: dgemm.gemm_fp8_fp8_bf16_nt(None, None, None))

    def test_dtype(self):
        self.row("gemm_fp8_fp8_bf16_nt", "dtype", "A is bfloat16", "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: lhs[0] (A) must be torch.float8_e4m3fn, got "
                 "torch.bfloat16",
                 lambda: call_gemm(ops(a=FakeTensor((256, 1024), BF16)), stream=0))
        self.row("gemm_fp8_fp8_bf16_nt", "dtype", "out is float32", "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: out (D) must be torch.bfloat16, got torch.float32",
                 lambda: call_gemm(ops(d=FakeTensor((256, 512), F32)), stream=0))

    def test_shape(self):
        self.row("gemm_fp8_fp8_bf16_nt", "shape", "B's K differs from A's",
                 "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: K differs: A is [M, K] = [256, 1024] but B is "
                 "[N, K] = [512, 896]",
                 lambda: call_gemm(ops(b=FakeTensor((512, 896), E4M3)), stream=0))
        self.row("gemm_fp8_fp8_bf16_nt", "shape", "A is 3-D", "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: lhs[0] (A) must be 2-D, got shape [2, 128, 1024]",
                 lambda: call_gemm(ops(a=FakeTensor((2, 128, 1024), E4M3)), stream=0))

    def test_zero(self):
        self.row("gemm_fp8_fp8_bf16_nt", "zero", "M = 0 (nothing to do; the library "
                 "is not even loaded)", "returns", "",
                 lambda: call_gemm(gemm_operands(0, 512, 1024), stream=0))
        self.row("gemm_fp8_fp8_bf16_nt", "zero", "N = 0", "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: N = 0 must be a positive multiple of 8",
                 lambda: call_gemm(gemm_operands(256, 0, 1024), stream=0))

    def test_overflow32(self):
        self.row("gemm_fp8_fp8_bf16_nt", "overflow32", "M = 2^31 (checked by the C API)",
                 "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt failed: DGEMM_ERROR_INVALID_ARGUMENT: a has shape "
                 "[2147483648, 1024]: sizes must be in [0, 2147483647]",
                 code="call_gemm(gemm_operands(2**31, 512, 1024), stream=0)")

    def test_misaligned(self):
        self.row("gemm_fp8_fp8_bf16_nt", "misaligned", "D's address 8 bytes off",
                 "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: out (D) data address 0x7f0040000008 is not 16-byte "
                 "aligned (TMA needs it)",
                 lambda: call_gemm(ops(d=FakeTensor((256, 512), BF16, ptr=0x7f0040000008)),
                                   stream=0))
        self.row("gemm_fp8_fp8_bf16_nt", "misaligned", "A's row stride 1032 bytes",
                 "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: lhs[0] (A) [256, 1024] must be row-major (strides "
                 "(S, 1), S >= 1024, S*1 bytes a multiple of 16; contiguous is (1024, 1)), "
                 "got strides (1032, 1)",
                 lambda: call_gemm(ops(a=FakeTensor((256, 1024), E4M3, strides=(1032, 1))),
                                   stream=0))

    def test_noncontiguous(self):
        self.row("gemm_fp8_fp8_bf16_nt", "noncontig", "B transposed (a view of [K, N])",
                 "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: rhs[0] (B) [512, 1024] must be row-major (strides "
                 "(S, 1), S >= 1024, S*1 bytes a multiple of 16; contiguous is (1024, 1)), "
                 "got strides (1, 512)",
                 lambda: call_gemm(ops(b=FakeTensor((512, 1024), E4M3, strides=(1, 512))),
                                   stream=0))

    def test_k128(self):
        self.row("gemm_fp8_fp8_bf16_nt", "k128", "K = 1000", "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: K = 1000 must be a positive multiple of 128",
                 lambda: call_gemm(gemm_operands(64, 512, 1024,
                                                 a=FakeTensor((64, 1000), E4M3),
                                                 b=FakeTensor((512, 1000), E4M3)), stream=0))

    def test_scale_layout(self):
        self.row("gemm_fp8_fp8_bf16_nt", "scale-layout",
                 "A scales K-major, not a torch tensor (cannot be converted)",
                 "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: A scales must be MN-major with strides (1, S), "
                 "S >= M, S % 4 == 0 (get_col_major_tma_aligned_tensor makes that layout; "
                 "only torch tensors are converted automatically), got strides (8, 1)",
                 lambda: call_gemm(ops(sfa=FakeTensor((256, 8), F32)), stream=0))

    def test_host_tensor(self):
        self.row("gemm_fp8_fp8_bf16_nt", "device", "A on the CPU", "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: lhs[0] (A) is on cpu; all operands must be CUDA "
                 "tensors",
                 lambda: call_gemm(ops(a=FakeTensor((256, 1024), E4M3, is_cuda=False,
                                                    device="cpu")), stream=0))

    def test_driver(self):
        self.row("gemm_fp8_fp8_bf16_nt", "no-driver", "libcuda.so.1 missing", "DgemmError",
                 "gemm_fp8_fp8_bf16_nt failed: DGEMM_ERROR_NO_DRIVER: cannot load the CUDA "
                 "driver library /nonexistent/libcuda.so.1 (...): launching dgemm kernels "
                 "needs the NVIDIA driver and a GPU; compiling to PTX works without them",
                 code="call_gemm(gemm_operands(256, 512, 1024), stream=0)",
                 env={"DGEMM_CUDA_DRIVER": "/nonexistent/libcuda.so.1"})
        self.row("gemm_fp8_fp8_bf16_nt", "not-sm90", "an sm_80 device", "DgemmError",
                 "gemm_fp8_fp8_bf16_nt failed: DGEMM_ERROR_NO_DEVICE: the device has compute "
                 "capability 8.0 (sm_80); dgemm kernels need an sm_90 GPU (H100, H200, H800)",
                 code="call_gemm(gemm_operands(256, 512, 1024), stream=0)",
                 env={"DGEMM_STANDIN_FAULTS": "sm80"})
        self.row("gemm_fp8_fp8_bf16_nt", "driver-fault", "the launch fails", "DgemmError",
                 "gemm_fp8_fp8_bf16_nt failed: DGEMM_ERROR_CUDA: ...cuLaunchKernelEx failed: "
                 "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701): (stand-in driver)",
                 code="call_gemm(gemm_operands(256, 512, 1024), stream=0)",
                 env={"DGEMM_STANDIN_FAULTS": "launch-fails"})
        self.row("gemm_fp8_fp8_bf16_nt", "none", "valid operands on the stand-in driver",
                 "returns", "", code="call_gemm(gemm_operands(256, 512, 1024), stream=0)")

    def test_cache(self):
        self.row("gemm_fp8_fp8_bf16_nt", "cache", "DGEMM_CACHE_DIR cannot be created",
                 "returns", "", code="call_gemm(gemm_operands(256, 512, 1024), stream=0)",
                 env={"DGEMM_CACHE_DIR": "/dev/null/cache"})


def bias_of(n, **kw):
    """A stand-in f32 bias [n] at an aligned address of its own."""
    kw.setdefault("ptr", 0x7f0050000000)
    return FakeTensor((n,), F32, **kw)


class BiasRows(Rows):
    """gemm_fp8_fp8_bf16_nt(..., bias=): the fused bias's own rules (the
    other operands are checked as without it)."""

    def test_bias_dtype(self):
        self.row("gemm_fp8_fp8_bf16_nt", "dtype", "bias is bfloat16", "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: bias must be torch.float32, got torch.bfloat16",
                 lambda: call_gemm(ops(), bias=FakeTensor((512,), BF16, ptr=0x7f0050000000),
                                   stream=0))

    def test_bias_shape(self):
        self.row("gemm_fp8_fp8_bf16_nt", "shape", "bias [N + 8]", "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: bias must be [N] = [512] (one per output column), "
                 "got [520]",
                 lambda: call_gemm(ops(), bias=bias_of(520), stream=0))
        self.row("gemm_fp8_fp8_bf16_nt", "shape", "bias of rank 2 ([1, N])",
                 "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: bias must be 1-D, got shape [1, 512]",
                 lambda: call_gemm(ops(), bias=FakeTensor((1, 512), F32, ptr=0x7f0050000000),
                                   stream=0))

    def test_bias_noncontiguous(self):
        self.row("gemm_fp8_fp8_bf16_nt", "noncontig", "bias with stride 2",
                 "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: bias must be contiguous (stride 1), got strides (2,)",
                 lambda: call_gemm(ops(), bias=bias_of(512, strides=(2,)), stream=0))

    def test_bias_misaligned(self):
        self.row("gemm_fp8_fp8_bf16_nt", "misaligned", "bias's address 4 bytes off",
                 "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: bias data address 0x7f0050000004 is not 8-byte "
                 "aligned (the kernel reads column pairs)",
                 lambda: call_gemm(ops(), bias=bias_of(512, ptr=0x7f0050000004), stream=0))

    def test_bias_device(self):
        self.row("gemm_fp8_fp8_bf16_nt", "device", "bias on the CPU", "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: bias is on cpu; all operands must be CUDA tensors",
                 lambda: call_gemm(ops(), bias=bias_of(512, is_cuda=False, device="cpu"),
                                   stream=0))
        self.row("gemm_fp8_fp8_bf16_nt", "device", "bias on another GPU than D",
                 "DgemmArgumentError",
                 "gemm_fp8_fp8_bf16_nt: bias is on cuda:1 but out (D) on cuda:0: all operands "
                 "must be on one device",
                 lambda: call_gemm(ops(), bias=bias_of(512, device="cuda:1"), stream=0))

    def test_bias_valid(self):
        self.row("gemm_fp8_fp8_bf16_nt", "none",
                 "valid operands with a bias on the stand-in driver", "returns", "",
                 code="call_gemm(gemm_operands(256, 512, 1024), stream=0, "
                      "bias=FakeTensor((512,), F32, ptr=0x7f0050000000))")


def contiguous_ops(**over):
    o = dict(a=FakeTensor((256, 256), E4M3, ptr=0x7f0000000000),
             sfa=FakeTensor((256, 2), F32, strides=(1, 256), ptr=0x7f0010000000),
             b=FakeTensor((2, 128, 256), E4M3, ptr=0x7f0020000000),
             sfb=FakeTensor((2, 1, 2), F32, ptr=0x7f0030000000),
             d=FakeTensor((256, 128), BF16, ptr=0x7f0040000000),
             g=FakeTensor((256,), I32, ptr=0x7f0050000000))
    o.update(over)
    return o


def call_contiguous(o):
    return dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_contiguous(
        (o["a"], o["sfa"]), (o["b"], o["sfb"]), o["d"], o["g"], stream=0)


def call_masked(o, expected_m=64):
    return dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_masked(
        (o["a"], o["sfa"]), (o["b"], o["sfb"]), o["d"], o["g"], expected_m, stream=0)


def masked_ops(**over):
    o = dict(a=FakeTensor((2, 64, 256), E4M3, ptr=0x7f0000000000),
             sfa=FakeTensor((2, 64, 2), F32, strides=(128, 1, 64), ptr=0x7f0010000000),
             b=FakeTensor((2, 128, 256), E4M3, ptr=0x7f0020000000),
             sfb=FakeTensor((2, 1, 2), F32, ptr=0x7f0030000000),
             d=FakeTensor((2, 64, 128), BF16, ptr=0x7f0040000000),
             g=FakeTensor((2,), I32, ptr=0x7f0050000000))
    o.update(over)
    return o


class GroupedRows(Rows):
    FN = "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous"

    def test_contiguous(self):
        self.row("m_grouped_gemm_fp8_fp8_bf16_nt_contiguous", "null", "m_indices is None",
                 "DgemmArgumentError",
                 "m_indices must be a tensor (with shape, stride(), data_ptr() and dtype), "
                 "got NoneType", lambda: call_contiguous(contiguous_ops(g=None)))
        self.row("m_grouped_gemm_fp8_fp8_bf16_nt_contiguous", "dtype", "m_indices is int64-like "
                 "float32", "DgemmArgumentError",
                 "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous: m_indices must be torch.int32, "
                 "got torch.float32",
                 lambda: call_contiguous(contiguous_ops(g=FakeTensor((256,), F32))))
        self.row("m_grouped_gemm_fp8_fp8_bf16_nt_contiguous", "shape",
                 "M_sum = 200 (not padded to 128)", "DgemmArgumentError",
                 "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous: A has M_sum = 200 rows: each "
                 "group is padded to a multiple of 128 rows "
                 "(get_m_alignment_for_contiguous_layout()), so M_sum must be one",
                 lambda: call_contiguous(contiguous_ops(
                     a=FakeTensor((200, 256), E4M3), sfa=FakeTensor((200, 2), F32,
                                                                    strides=(1, 200)),
                     d=FakeTensor((200, 128), BF16), g=FakeTensor((200,), I32))))
        self.row("m_grouped_gemm_fp8_fp8_bf16_nt_contiguous", "k128", "K = 200",
                 "DgemmArgumentError",
                 "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous: K = 200 must be a positive "
                 "multiple of 128",
                 lambda: call_contiguous(contiguous_ops(a=FakeTensor((256, 200), E4M3),
                                                        b=FakeTensor((2, 128, 200), E4M3))))
        self.row("m_grouped_gemm_fp8_fp8_bf16_nt_contiguous", "misaligned",
                 "m_indices' address 2 bytes off (checked by the C API)", "DgemmArgumentError",
                 "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous failed: "
                 "DGEMM_ERROR_INVALID_ARGUMENT: m_indices data address is not 4-byte aligned",
                 code="from test_bad_inputs import contiguous_ops, call_contiguous\n"
                      "call_contiguous(contiguous_ops(g=FakeTensor((256,), I32, "
                      "ptr=0x7f0050000002)))")
        self.row("m_grouped_gemm_fp8_fp8_bf16_nt_contiguous", "not-sm90", "an sm_80 device",
                 "DgemmError",
                 "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous failed: DGEMM_ERROR_NO_DEVICE: the "
                 "device has compute capability 8.0 (sm_80); dgemm kernels need an sm_90 GPU "
                 "(H100, H200, H800)",
                 code="from test_bad_inputs import contiguous_ops, call_contiguous\n"
                      "call_contiguous(contiguous_ops())",
                 env={"DGEMM_STANDIN_FAULTS": "sm80"})

    def test_masked(self):
        self.row("m_grouped_gemm_fp8_fp8_bf16_nt_masked", "zero", "expected_m = 0",
                 "DgemmArgumentError", "...expected_m...",
                 lambda: call_masked(masked_ops(), expected_m=0))
        self.row("m_grouped_gemm_fp8_fp8_bf16_nt_masked", "shape",
                 "masked_m has 3 entries for 2 groups", "DgemmArgumentError",
                 "m_grouped_gemm_fp8_fp8_bf16_nt_masked: masked_m must be [G] = [2], got [3]",
                 lambda: call_masked(masked_ops(g=FakeTensor((3,), I32))))
        self.row("m_grouped_gemm_fp8_fp8_bf16_nt_masked", "no-driver", "libcuda.so.1 missing",
                 "DgemmError",
                 "m_grouped_gemm_fp8_fp8_bf16_nt_masked failed: DGEMM_ERROR_NO_DRIVER: cannot "
                 "load the CUDA driver library /nonexistent/libcuda.so.1 (...): launching "
                 "dgemm kernels needs the NVIDIA driver and a GPU; compiling to PTX works "
                 "without them",
                 code="from test_bad_inputs import masked_ops, call_masked\n"
                      "call_masked(masked_ops())",
                 env={"DGEMM_CUDA_DRIVER": "/nonexistent/libcuda.so.1"})


class HelperRows(Rows):
    def test_helpers(self):
        self.row("ceil_div", "zero", "y = 0", "ZeroDivisionError",
                 "integer division or modulo by zero",
                 lambda: dgemm.ceil_div(5, 0))
        self.row("get_tma_aligned_size", "value", "element size 3", "ValueError",
                 "element size 3 does not divide the TMA alignment of 16 bytes",
                 lambda: dgemm.get_tma_aligned_size(128, 3))
        self.row("set_num_sms", "value", "num_sms = -1", "DgemmArgumentError",
                 "set_num_sms: num_sms must be a non-negative int, got -1",
                 lambda: dgemm.set_num_sms(-1))
        self.row("config", "k128", "k = 100 (checked by the C API)", "DgemmArgumentError",
                 "dgemm_gemm_config failed: DGEMM_ERROR_INVALID_ARGUMENT: K must be a positive "
                 "multiple of 128, got 100", code="dgemm.config(256, 7168, 100)")
        self.row("config", "value", "m = -1", "DgemmArgumentError",
                 "config: m must be a non-negative int, got -1",
                 lambda: dgemm.config(-1, 7168, 7168))
        self.row("config", "no-driver", "libcuda.so.1 missing: the default target's config",
                 "returns", "", code="assert dgemm.config(256, 7168, 7168).startswith("
                 "'#dgemm.config<block_m = 128, block_n = 112')",
                 env={"DGEMM_CUDA_DRIVER": "/nonexistent/libcuda.so.1"})
        self.row("compile_to_ptx", "malformed-ir", "text that does not parse", "DgemmError",
                 "dgemm_compile_to_ptx failed: DGEMM_ERROR_COMPILE: ...does not parse...",
                 code="dgemm.compile_to_ptx('func.func @f(')")
        self.row("compile_to_ptx", "null", "None instead of text", "DgemmArgumentError",
                 "compile_to_ptx: dgemm_ir must be the dgemm IR text (str), got NoneType",
                 lambda: dgemm.compile_to_ptx(None))
        self.row("wgrad_gemm_fp8_fp8_fp32_nt", "none", "None instead of (tensor, scales) pairs",
                 "DgemmArgumentError",
                 "wgrad_gemm_fp8_fp8_fp32_nt: lhs and rhs must be (fp8 tensor, scale tensor) "
                 "pairs",
                 lambda: dgemm.wgrad_gemm_fp8_fp8_fp32_nt(None, None, None))
        self.row("k_grouped_wgrad_gemm_fp8_fp8_fp32_nt", "none",
                 "None instead of (tensor, scales) pairs", "DgemmArgumentError",
                 "k_grouped_wgrad_gemm_fp8_fp8_fp32_nt: lhs and rhs must be (fp8 tensor, scale "
                 "tensor) pairs",
                 lambda: dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt(None, None, None, [128]))


def small_m_kernel_ir():
    """Kernel IR of a normal GEMM (N 512, K 1024) whose A box holds 8 rows
    (a_box_rows = 8: its contract's max_m), lowered by the dgemm-opt beside
    the library; None without one."""
    lib, _ = S.find_real_library()
    opt = Path(os.environ.get("DGEMM_OPT") or (lib.parent.parent / "bin" / "dgemm-opt"
                                                if lib else "/nonexistent"))
    if not opt.is_file():
        return None
    ir = """func.func @g(%a: memref<?x1024xf8E4M3FN>, %sa: memref<?x8xf32, strided<[1, ?]>>,
    %b: memref<512x1024xf8E4M3FN>, %sb: memref<4x8xf32>, %d: memref<?x512xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<?x1024xf8E4M3FN>, memref<?x8xf32, strided<[1, ?]>>,
      memref<512x1024xf8E4M3FN>, memref<4x8xf32>) outs(%d : memref<?x512xbf16>)
      {config = #dgemm.config<block_m = 64, block_n = 32, stages = 4, cluster = 1,
       multicast = none, math_warpgroups = 1, swizzle_group = 1, num_sms = 16, a_box_rows = 8>}
  return
}"""
    r = subprocess.run([str(opt), "--dgemm-lower-to-kernel"], input=ir, capture_output=True,
                       text=True)
    return r.stdout if r.returncode == 0 else None


class KernelIRRows(Rows):
    def test_max_m(self):
        text = small_m_kernel_ir()
        if text is None:
            self.skipTest("no dgemm-opt beside the library to lower the kernel IR")
        path = Path(self.tmp.name) / "small-m.mlir"
        path.write_text(text)
        call = ("dgemm.launch_kernel_ir(open(%r).read(), (o['a'], o['sfa']), (o['b'], o['sfb']), "
                "o['d'], stream=0)" % str(path))
        self.row("launch_kernel_ir", "shape",
                 "M = 20 for a kernel whose A box holds 8 rows (a_box_rows)",
                 "DgemmArgumentError",
                 "launch_kernel_ir failed: DGEMM_ERROR_INVALID_ARGUMENT: kernel "
                 "dgemm_gemm_n512_k1024_bm64_bn32_s4_g1_c16_ar8 serves M <= 8 (its A box holds "
                 "that many rows: a_box_rows); the call has M = 20",
                 code="o = gemm_operands(20, 512, 1024); " + call)
        self.row("launch_kernel_ir", "none", "M = 8 for the same kernel", "returns", "",
                 code="o = gemm_operands(8, 512, 1024); " + call)


class DeepGemmV2Rows(Rows):
    """DeepGEMM 2.x's names (dgemm.deepgemm_v2): their own rules; the rest
    are the 1.x-named calls' rows above."""

    def test_rows(self):
        o = ops()
        a, b, d = (o["a"], o["sfa"]), (o["b"], o["sfb"]), o["d"]
        self.row("fp8_gemm_nt", "null", "None instead of (tensor, scales) pairs",
                 "DgemmArgumentError",
                 "fp8_gemm_nt: a and b must be (fp8 tensor, scale tensor) pairs",
                 lambda: dgemm.fp8_gemm_nt(None, None, None))
        self.row("fp8_gemm_nt", "value", "recipe (1, 128, 32)", "DgemmArgumentError",
                 "fp8_gemm_nt: recipe (1, 128, 32) is not supported on Hopper: (1, 128, 128) "
                 "(A per row, B per 128x128 block, K blocks of 128) or (1, 1, 128) (A and B "
                 "per row: weight gradients, f32 D)",
                 lambda: dgemm.fp8_gemm_nt(a, b, d, recipe=(1, 128, 32)))
        self.row("fp8_gemm_nt", "dtype", "f32 D with 128x128 B scales", "DgemmArgumentError",
                 "fp8_gemm_nt: an f32 D goes with the (1, 1, 128) recipe (sfb [N, K/128]); "
                 "the (1, 128, 128) recipe writes torch.bfloat16",
                 lambda: dgemm.fp8_gemm_nt(a, b, FakeTensor((256, 512), F32)))
        self.row("m_grouped_fp8_gemm_nt_masked", "value", "recipe (1, 1, 128)",
                 "DgemmArgumentError",
                 "m_grouped_fp8_gemm_nt_masked: the m-grouped GEMMs take the (1, 128, 128) "
                 "recipe only",
                 lambda: dgemm.m_grouped_fp8_gemm_nt_masked(a, b, d, None, 1,
                                                            recipe=(1, 1, 128)))
        self.row("k_grouped_fp8_gemm_nt_contiguous", "value", "use_psum_layout=True",
                 "DgemmArgumentError",
                 "k_grouped_fp8_gemm_nt_contiguous: use_psum_layout is not supported: give "
                 "each group's K in ks_cpu",
                 lambda: dgemm.k_grouped_fp8_gemm_nt_contiguous(a, b, d, [128], None,
                                                                use_psum_layout=True))


if __name__ == "__main__":
    unittest.main()
