#===- test_bench.py - the benchmark harness's host-side pieces -----------===#
"""bench/run_bench.py without a GPU: shape lists, units, config labels, the
table; and, where PyTorch is importable (any version, on the CPU), the output
checks themselves: poisoned and guarded outputs, a wrong tile, a wrong scale
block and a NaN must all be caught, a correct bf16 result must pass."""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import _support as S

import dgemm
import run_bench as rb

try:
    import torch
    HAVE_TORCH = True
    HAVE_FP8 = hasattr(torch, "float8_e4m3fn")
except ImportError:
    HAVE_TORCH = HAVE_FP8 = False


class Shapes(unittest.TestCase):
    def test_csv_normal_rows(self):
        shapes = rb.read_shapes()
        self.assertEqual(len(shapes), 18)
        self.assertEqual(shapes[0], dict(source="csv", layout="normal", m=64, n=2112, k=7168))
        self.assertEqual({s["m"] for s in shapes}, {64, 128, 4096})
        self.assertEqual(len(rb.read_shapes(layouts=("masked",))), 6)

    def test_random_shapes(self):
        a = rb.random_shapes(200, 7)
        self.assertEqual(a, rb.random_shapes(200, 7))      # reproducible
        self.assertNotEqual(a, rb.random_shapes(200, 8))
        for s in a:
            self.assertTrue(1 <= s["m"] <= 8192, s)
            self.assertTrue(16 <= s["n"] <= 32768 and s["n"] % 16 == 0, s)
            self.assertTrue(128 <= s["k"] <= 16384 and s["k"] % 128 == 0, s)
        # The log-uniform half covers small M.
        self.assertGreater(sum(1 for s in a if s["m"] <= 128), 20)

    def test_shapes_arg(self):
        self.assertEqual(rb.parse_shapes_arg("1,128,128; 130,392,640"),
                         [dict(source="arg", layout="normal", m=1, n=128, k=128),
                          dict(source="arg", layout="normal", m=130, n=392, k=640)])

    def test_sanitize_shapes_are_valid(self):
        for m, n, k in rb.SANITIZE_SHAPES:
            self.assertEqual((n % 8, k % 128), (0, 0))

    def test_sanitize_shapes_cover_a_cut_box(self):
        # The sanitizers must see a kernel whose A box is cut (a_box_rows,
        # docs/config-selection.md), one reading past A's last row.
        lib, why = S.find_real_library()
        if lib is None:
            self.skipTest(why)
        code = ("import dgemm, run_bench as rb\n"
                "for s in rb.SANITIZE_SHAPES: print(s[0], dgemm.config(*s))\n")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=120, env=dict(os.environ, DGEMM_LIB=str(lib),
                                                 PYTHONPATH=os.pathsep.join(sys.path)))
        self.assertEqual(r.returncode, 0, r.stderr)
        cut = [line for line in r.stdout.splitlines() if "a_box_rows" in line]
        self.assertTrue(any(int(line.split()[0]) % 8 for line in cut), r.stdout)
        # ... and one whose two consumer warpgroups hold rows of their own
        # (block M 128) with more tiles than CTAs, so that racecheck sees a
        # tile's B scales copied while the other warpgroup may still be on
        # the CTA's previous tile.
        many = []
        for s, line in zip(rb.SANITIZE_SHAPES, r.stdout.splitlines()):
            f = dict(re.findall(r"(\w+) = (\w+)", line))
            tiles = -(-s[0] // int(f["block_m"])) * -(-s[1] // int(f["block_n"]))
            if f["block_m"] == "128" and f["math_warpgroups"] == "2" and tiles > int(f["num_sms"]):
                many.append(s)
        self.assertTrue(many, r.stdout)


class Units(unittest.TestCase):
    def test_flops_bytes(self):
        m, n, k = 4096, 7168, 2048
        self.assertEqual(rb.flops(m, n, k), 2 * m * n * k)
        self.assertEqual(rb.bytes_moved(m, n, k, scales=False), m * k + n * k + 2 * m * n)
        self.assertEqual(rb.bytes_moved(m, n, k) - rb.bytes_moved(m, n, k, scales=False),
                         4 * m * 16 + 4 * 56 * 16)
        self.assertAlmostEqual(rb.tflops(m, n, k, 100.0), 2 * m * n * k / 1e-4 / 1e12)
        self.assertIsNone(rb.tflops(m, n, k, 0))
        self.assertAlmostEqual(rb.gbps(1, 128, 128, 1.0), rb.bytes_moved(1, 128, 128) / 1e3)

    def test_config_labels(self):
        t = "#dgemm.config<block_m = 64, block_n = 112, stages = 8, cluster = 1, multicast = none>"
        self.assertEqual(rb.parse_config(t), dict(block_m=64, block_n=112, stages=8, cluster=1,
                                                  multicast="none"))
        self.assertEqual(rb.short_config(t), "64x112 s8")
        t2 = '#dgemm.config<block_m = 128, block_n = 160, stages = 5, cluster = 2, multicast = "b">'
        self.assertEqual(rb.short_config(t2), "128x160 s5 c2b")
        self.assertEqual(rb.short_config(None), "-")
        self.assertEqual(rb.short_config("weird"), "weird")
        t3 = t[:-1] + ", a_box_rows = 8>"
        self.assertEqual(rb.short_config(t3), "64x112 s8 a8")

    def test_geomean_and_clean(self):
        self.assertAlmostEqual(rb.geomean([1, 4, 16]), 4.0)
        self.assertIsNone(rb.geomean([None, 0]))
        self.assertEqual(rb.clean({"a": [float("nan"), 1.5, float("-inf")]}),
                         {"a": ["nan", 1.5, "-inf"]})
        json.dumps(rb.clean({"x": float("inf")}), allow_nan=False)

    def test_json_emitter(self):
        # One cleaned JSON line per record, printed and (with a file) written.
        import contextlib
        import io
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "out.jsonl"
            printed = io.StringIO()
            with open(path, "w") as f, contextlib.redirect_stdout(printed):
                emit = rb.json_emitter(f)
                emit({"a": 1, "b": float("nan")})
                emit({"c": [float("inf")]})
            lines = path.read_text().splitlines()
            self.assertEqual([json.loads(x) for x in lines],
                             [{"a": 1, "b": "nan"}, {"c": ["inf"]}])
            self.assertEqual(printed.getvalue().splitlines(), lines)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            rb.json_emitter(None)({"x": 2})
        self.assertEqual(json.loads(printed.getvalue()), {"x": 2})


def fake_record(i, m, n, k, us, torch_us, cublas_us, ok=True, source="csv", error=None):
    r = dict(type="shape", index=i, source=source, layout="normal", m=m, n=n, k=k,
             config="#dgemm.config<block_m = 128, block_n = 160, stages = 5>",
             us=us, tflops=rb.tflops(m, n, k, us), gbps=rb.gbps(m, n, k, us), compile_ms=800.0,
             host_us=dict(dgemm_python=9.5, dgemm_c=3.1, torch_blockwise=12.0),
             check=dict(ok=ok, calc_diff=1.4e-6, bad=0 if ok else 12, nan_left=0, guard_ok=True,
                        deterministic=True, max_tol_ratio=0.1),
             peers=dict(torch_blockwise=dict(us=torch_us, tflops=rb.tflops(m, n, k, torch_us)),
                        cublas_per_tensor=dict(us=cublas_us,
                                               tflops=rb.tflops(m, n, k, cublas_us))))
    if error:
        r["error"] = error
    return r


class Table(unittest.TestCase):
    def test_table(self):
        recs = [fake_record(0, 64, 2112, 7168, 13.0, 26.0, 13.0),
                fake_record(1, 4096, 7168, 2048, 100.0, 110.0, 90.0),
                fake_record(2, 77, 2112, 7168, 13.0, 26.0, 13.0, ok=False, source="random"),
                dict(type="shape", index=3, source="random", m=5, n=16, k=128,
                     error="Traceback...\nDgemmError: compile failed")]
        t = rb.format_table(recs)
        self.assertIn("128x160 s5", t)
        self.assertIn("2.00", t)                  # dgemm / torch on shape 0
        self.assertIn("shapes.csv M <= 128", t)
        self.assertIn("checks: 2 passed, 2 failed, 0 skipped of 4 shapes", t)
        self.assertIn("FAILED m=5 n=16 k=128: DgemmError: compile failed", t)
        self.assertIn("FAILED m=77", t)
        self.assertEqual(rb.status_of(recs[0]), "ok")
        self.assertEqual(rb.status_of(recs[2]), "FAIL")
        self.assertEqual(rb.status_of(recs[3]), "ERROR")
        self.assertEqual(rb.status_of(dict(skipped="budget")), "skipped")

    def test_wrong_peer_output_gives_no_ratio(self):
        good = fake_record(0, 64, 2112, 7168, 13.0, 26.0, 13.0)          # vs torch 2.00
        wrong = fake_record(1, 64, 4096, 7168, 13.0, 13.0, 13.0)         # would be 1.00
        wrong["peers"]["torch_blockwise"]["check"] = dict(ok=False, calc_diff=float("nan"))
        self.assertIsNone(rb.peer_tflops(wrong, "torch_blockwise"))
        self.assertEqual(rb.peer_tflops(wrong, "cublas_per_tensor"),
                         wrong["peers"]["cublas_per_tensor"]["tflops"])
        t = rb.format_table([good, wrong])
        row = next(ln for ln in t.splitlines() if ln.split()[:4] == ["1", "64", "4096", "7168"])
        self.assertIn("wrong", row.split())
        self.assertIn("vs torch blockwise 2.00  vs cuBLAS per-tensor 1.00", t)

    def test_all_passed_line_and_jsonl_roundtrip(self):
        recs = [dict(type="meta"), fake_record(0, 128, 4096, 7168, 60.0, 100.0, 55.0)]
        p = Path(tempfile.mkdtemp()) / "b.jsonl"
        p.write_text("\n".join(json.dumps(r) for r in recs) + "\n{\"cut short")
        back = rb.read_jsonl(p)
        self.assertEqual(len(back), 2)
        self.assertIn("ALL CHECKS PASSED", rb.format_table(back))

    def test_table_from_cli(self):
        import contextlib
        import io
        p = Path(tempfile.mkdtemp()) / "b.jsonl"
        p.write_text(json.dumps(fake_record(0, 64, 2112, 7168, 13.0, 26.0, 13.0)) + "\n")
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            self.assertEqual(rb.main(["--table-from", str(p)]), 0)
        self.assertIn("ALL CHECKS PASSED", buf.getvalue())


@unittest.skipUnless(HAVE_TORCH, "PyTorch not importable: output checks not exercised")
class OutputChecks(unittest.TestCase):
    """check_output and GuardedOutput on the CPU with hand-made operands."""

    def operands(self, m, n, k, seed=0):
        g = torch.Generator().manual_seed(seed)
        a = torch.randn(m, k, generator=g).to(torch.bfloat16).float()  # few bits, like FP8
        b = torch.randn(n, k, generator=g).to(torch.bfloat16).float()
        sfa = torch.exp2(rb.scale_exponents(torch, g, m, k // 128, "cpu"))
        sfb = torch.exp2(rb.scale_exponents(torch, g, (n + 127) // 128, k // 128, "cpu"))
        return dict(a=a, sfa=sfa, b=b, sfb=sfb)

    def kernel(self, inp):
        """What a correct kernel returns: the f32 product rounded to bf16."""
        A = dgemm.per_token_cast_back(inp["a"], inp["sfa"])
        B = dgemm.per_block_cast_back(inp["b"], inp["sfb"])
        return (A @ B.t()).to(torch.bfloat16)

    def test_correct_output_passes(self):
        inp = self.operands(200, 264, 640)
        ref, rms = rb.reference(torch, dgemm, inp)
        chk = rb.check_output(torch, dgemm, self.kernel(inp), ref, rms)
        self.assertTrue(chk["ok"], chk)
        self.assertLess(chk["max_tol_ratio"], 0.5)
        self.assertLess(chk["calc_diff"], 1e-4)

    def test_wrong_tile_fails(self):
        inp = self.operands(256, 320, 512, seed=1)
        ref, rms = rb.reference(torch, dgemm, inp)
        d = self.kernel(inp)
        d[128:256, 160:320] = self.kernel(self.operands(256, 320, 512, seed=2))[128:256, 160:320]
        chk = rb.check_output(torch, dgemm, d, ref, rms)
        self.assertFalse(chk["ok"])
        self.assertEqual(chk["bad_rows"][0] // 128, 1)
        self.assertEqual(chk["bad_cols"][0] // 160, 1)
        self.assertGreater(chk["edge_rows_bad"], 0)
        self.assertGreater(chk["last_col_bad"], 0)

    def test_one_wrong_tile_in_a_large_output_fails(self):
        # One 64x64 tile of 512x1024 negated: the elementwise check finds it
        # whatever the tile's weight in the global metric.
        inp = self.operands(512, 1024, 256, seed=3)
        ref, rms = rb.reference(torch, dgemm, inp)
        d = self.kernel(inp)
        d[64:128, 64:128] *= -1
        chk = rb.check_output(torch, dgemm, d, ref, rms)
        self.assertFalse(chk["ok"])
        self.assertGreater(chk["bad"], 64 * 64 * 0.9)
        self.assertEqual(chk["bad_rows"], [64, 127])

    def test_wrong_scale_block_fails(self):
        inp = self.operands(256, 384, 1024, seed=4)
        ref, rms = rb.reference(torch, dgemm, inp)
        wrong = dict(inp, sfb=inp["sfb"].clone())
        wrong["sfb"][2, 3] *= 2.0  # one 128x128 block of B scaled twice
        chk = rb.check_output(torch, dgemm, self.kernel(wrong), ref, rms)
        self.assertFalse(chk["ok"])
        self.assertEqual(chk["bad_cols"][0] // 128, 2)
        wrong = dict(inp, sfa=inp["sfa"].clone())
        wrong["sfa"][17, 5] *= 0.5  # one 1x128 block of A
        chk = rb.check_output(torch, dgemm, self.kernel(wrong), ref, rms)
        self.assertFalse(chk["ok"])
        self.assertEqual(chk["bad_rows"], [17, 17])

    def test_unwritten_and_guards(self):
        m, n = 130, 136
        out = rb.GuardedOutput(torch, m, n, device="cpu", seed=5)
        out.poison()
        self.assertTrue(torch.isnan(out.d.float()).all())
        inp = self.operands(m, n, 256, seed=6)
        ref, rms = rb.reference(torch, dgemm, inp)
        out.d[:-1].copy_(self.kernel(inp)[:-1])  # the last row is never written
        chk = rb.check_output(torch, dgemm, out.d, ref, rms)
        self.assertFalse(chk["ok"])
        self.assertEqual(chk["nan_left"], n)
        self.assertEqual(chk["last_row_bad"], n)
        self.assertTrue(math.isnan(chk["calc_diff"]))
        self.assertTrue(out.guards_intact())
        out.buf[rb.GUARD_ELEMS + m * n] = 0.0  # one element past the end
        self.assertFalse(out.guards_intact())
        out2 = rb.GuardedOutput(torch, m, n, device="cpu", seed=5)
        out2.buf[rb.GUARD_ELEMS - 1] = 1.0  # one element before the start
        self.assertFalse(out2.guards_intact())


@unittest.skipUnless(HAVE_FP8, "PyTorch without float8 dtypes (needs >= 2.1)")
class Fp8Inputs(unittest.TestCase):
    """make_inputs and the FP8 casts on the CPU (runs where torch >= 2.1)."""

    def test_make_inputs_layouts_and_scales(self):
        m, n, k = 130, 264, 512
        inp = rb.make_inputs(torch, dgemm, m, n, k, seed=3, device="cpu")
        self.assertEqual(inp["a"].dtype, torch.float8_e4m3fn)
        self.assertEqual(tuple(inp["sfa"].shape), (m, 4))
        self.assertEqual(inp["sfa_tma"].stride(), (1, 132))
        self.assertEqual(tuple(inp["sfb"].shape), (3, 4))
        # The block scales spread over many binades (up to 2^-8..2^8).
        l2 = torch.log2(inp["sfa"])
        self.assertGreater(float(l2.max() - l2.min()), 6)
        self.assertLess(float(l2.max() - l2.min()), 16 + 3)  # + the spread of block amax
        # Every block's largest FP8 magnitude is 448.
        amax = inp["a"].float().abs().view(m, 4, 128).amax(dim=2)
        self.assertTrue(torch.equal(amax, torch.full_like(amax, 448.0)))

    def test_cast_roundtrip(self):
        x = torch.randn(256, 384) * 3
        q, s = dgemm.per_token_cast_to_fp8(x)
        self.assertLess(dgemm.calc_diff(dgemm.per_token_cast_back(q, s), x), 2e-3)
        q, s = dgemm.per_block_cast_to_fp8(x[:200, :])
        self.assertEqual(tuple(s.shape), (2, 3))
        self.assertLess(dgemm.calc_diff(dgemm.per_block_cast_back(q, s), x[:200]), 2e-3)

    def test_reference_of_made_inputs(self):
        m, n, k = 64, 136, 384
        inp = rb.make_inputs(torch, dgemm, m, n, k, seed=4, device="cpu")
        ref, rms = rb.reference(torch, dgemm, inp)
        A = dgemm.per_token_cast_back(inp["a"], inp["sfa_tma"])
        B = dgemm.per_block_cast_back(inp["b"], inp["sfb"])
        chk = rb.check_output(torch, dgemm, (A @ B.t()).to(torch.bfloat16), ref, rms)
        self.assertTrue(chk["ok"], chk)


class _Shims:
    """On a CPU-only PyTorch: torch.cuda's events and synchronize, a stand-in
    FP8 dtype (bf16) where torch has none, and a CPU ``_scaled_mm`` that
    asserts the argument layouts PEERS.md gives for the blockwise peer."""

    class Event:
        def __init__(self, enable_timing=False):
            self.t = None

        def record(self):
            import time
            self.t = time.perf_counter()

        def elapsed_time(self, end):
            return (end.t - self.t) * 1e3

    @staticmethod
    def scaled_mm(a, bt, scale_a, scale_b, out_dtype):
        m, k = a.shape
        n = bt.shape[1]
        assert bt.shape[0] == k and bt.stride() == (1, k), "b must be [K, N] column-major"
        if scale_a.dim() == 0:
            prod = (a.float() @ bt.float()) * scale_a * scale_b
        else:
            kb, nb = k // 128, (n + 127) // 128
            assert tuple(scale_a.shape) == (m, kb) and (m == 1 or scale_a.stride() == (1, m))
            assert tuple(scale_b.shape) == (kb, nb) and scale_b.stride() == (1, kb)
            A = a.float() * scale_a.repeat_interleave(128, dim=1)
            sb = scale_b.t().repeat_interleave(128, dim=0)[:n].repeat_interleave(128, dim=1)
            prod = A @ (bt.t().float() * sb).t()
        return prod.to(out_dtype)

    def __enter__(self):
        self.saved = {}
        self._set(torch.cuda, "synchronize", lambda *a: None)
        self._set(torch.cuda, "Event", self.Event)
        self._set(torch.cuda, "empty_cache", lambda: None)
        self._set(torch, "_scaled_mm", self.scaled_mm)
        if not HAVE_FP8:
            self._set(torch, "float8_e4m3fn", torch.bfloat16)
        self._set(rb, "DEVICE", "cpu")
        return self

    def _set(self, obj, name, value):
        self.saved[(obj, name)] = getattr(obj, name, _Shims)
        setattr(obj, name, value)

    def __exit__(self, *exc):
        for (obj, name), v in self.saved.items():
            if v is _Shims:
                delattr(obj, name)
            else:
                setattr(obj, name, v)
        return False


class _FakeDgemm:
    """The dgemm module with the GEMM computed by PyTorch (f32, rounded to
    bf16), optionally followed by a corruption of the output."""

    def __init__(self, corrupt=None):
        self.corrupt = corrupt
        for name in ("per_token_cast_to_fp8", "per_block_cast_to_fp8", "per_token_cast_back",
                     "per_block_cast_back", "get_col_major_tma_aligned_tensor", "calc_diff"):
            setattr(self, name, getattr(dgemm, name))

    def config(self, m, n, k):
        return "#dgemm.config<block_m = 128, block_n = 160, stages = 5>"

    def prepare(self, m, n, k):
        return 12.5, "config=fake"

    def gemm_fp8_fp8_bf16_nt(self, lhs, rhs, out, stream=None):
        (a, sfa), (b, sfb) = lhs, rhs
        A = dgemm.per_token_cast_back(a, sfa)
        B = dgemm.per_block_cast_back(b, sfb)
        out.copy_((A @ B.t()).to(torch.bfloat16))
        if self.corrupt:
            self.corrupt(out)

    def bind_gemm_fp8_fp8_bf16_nt(self, lhs, rhs, out, stream=None, plain=False):
        return lambda: self.gemm_fp8_fp8_bf16_nt(lhs, rhs, out)


@unittest.skipUnless(HAVE_TORCH, "PyTorch not importable: harness not exercised")
class HarnessOnCpu(unittest.TestCase):
    """run_shape end to end on the CPU with a PyTorch stand-in for the GEMM:
    the record is complete and JSON-clean, the peers are called with the
    layouts PEERS.md gives, and stray writes / unwritten rows are caught."""

    # The shims keep everything on the CPU, so these run on the GPU machine
    # as well (the only place with PyTorch).

    def args(self):
        import argparse
        return argparse.Namespace(seed=1, sanitize=False, host_calls=5, no_peers=False,
                                  rounds=2)

    def run_one(self, fake, m=130, n=264, k=512):
        with _Shims():
            timer = rb.Timer(torch, iters=3, warmup=1, flush_bytes=1 << 16)
            rec = dict(type="shape", index=0, source="arg", layout="normal", m=m, n=n, k=k)
            rb.run_shape(torch, fake, dict(m=m, n=n, k=k), 0, self.args(), timer, rec)
        return rec

    def test_correct_kernel_passes(self):
        rec = self.run_one(_FakeDgemm())
        self.assertTrue(rec["ok"], rec["check"])
        chk = rec["check"]
        self.assertTrue(chk["guard_ok"] and chk["deterministic"])
        self.assertEqual(rec["compile_ms"], 12.5)
        for key in ("us", "tflops", "gbps", "first_call_ms", "prepare_wall_ms"):
            self.assertGreater(rec[key], 0, key)
        self.assertEqual(set(rec["host_us"]), {"calls", "dgemm_python", "dgemm_c",
                                               "dgemm_c_bound", "torch_blockwise"})
        # dgemm and both peers timed in turn, once per round.
        self.assertEqual(len(rec["round_us"]), 2)
        tb = rec["peers"]["torch_blockwise"]
        self.assertNotIn("error", tb)
        self.assertEqual(len(tb["round_us"]), 2)
        self.assertEqual(len(rec["peers"]["cublas_per_tensor"]["round_us"]), 2)
        self.assertTrue(tb["check"]["ok"], tb["check"])
        self.assertLess(tb["calc_diff_vs_dgemm"], 1e-5)
        self.assertGreater(rec["peers"]["cublas_per_tensor"]["tflops"], 0)
        text = json.dumps(rb.clean(rec), allow_nan=False)
        self.assertIn("ok", rb.format_table([json.loads(text)]))

    def test_deepgemm_peer(self):
        """--deepgemm: DeepGEMM's fp8_gemm_nt gets the TMA-layout A scales
        and no UE8M0 cast, its output is checked, and it is timed in turn;
        a wrong output is marked, and a missing module is an error."""
        seen = {}

        class FakeDeepGemm:
            def __init__(self, corrupt=None):
                self.corrupt = corrupt

            def fp8_gemm_nt(self, lhs, rhs, d, disable_ue8m0_cast=False):
                seen["no_cast"] = disable_ue8m0_cast
                seen["sfa_stride"] = lhs[1].stride()
                _FakeDgemm(self.corrupt).gemm_fp8_fp8_bf16_nt(lhs, rhs, d)

        def run(module):
            args = self.args()
            args.deepgemm, args.deepgemm_module = True, module
            with _Shims():
                timer = rb.Timer(torch, iters=3, warmup=1, flush_bytes=1 << 16)
                rec = dict(type="shape", index=0, source="csv", layout="normal", m=130, n=264,
                           k=512)
                rb.run_shape(torch, _FakeDgemm(), dict(m=130, n=264, k=512), 0, args, timer,
                             rec)
            return rec

        rec = run(FakeDeepGemm())
        p = rec["peers"]["deepgemm"]
        self.assertTrue(p["check"]["ok"], p["check"])
        self.assertEqual(len(p["round_us"]), 2)
        self.assertGreater(p["tflops"], 0)
        self.assertIn("deepgemm", rec["host_us"])
        self.assertTrue(seen["no_cast"])
        self.assertEqual(seen["sfa_stride"], (1, 132))   # MN-major, M aligned to 4
        self.assertIn("vs DeepGEMM", rb.format_table([rec]))
        rec = run(FakeDeepGemm(lambda d: d[3].fill_(7.0)))
        self.assertFalse(rec["peers"]["deepgemm"]["check"]["ok"])
        self.assertTrue(rec["ok"])   # a wrong peer does not fail dgemm's check
        self.assertTrue(rb.peer_failed(rec, "deepgemm"))
        self.assertNotIn("vs DeepGEMM", rb.format_table([rec]))
        rec = run(None)
        self.assertIn("not importable", rec["peers"]["deepgemm"]["error"])

    def test_grouped_deepgemm_peer(self):
        """run_grouped.py --deepgemm: DeepGEMM's grouped calls get the case's
        operands (TMA-layout A scales, no UE8M0 cast, contiguous alignment
        128) and their own NaN-poisoned D, checked on the valid rows; rows
        past masked_m it writes are counted, not failed; a wrong row fails
        the peer's check; dgemm's D is left as it was."""
        import argparse
        import run_grouped as rg
        seen = {}

        def product(a, sa, b, sb):
            A = dgemm.per_token_cast_back(a, sa)
            return (A @ dgemm.per_block_cast_back(b, sb).t()).to(torch.bfloat16)

        class FakeDeepGemm:
            def __init__(self, corrupt=None):
                self.corrupt = corrupt

            def set_mk_alignment_for_contiguous_layout(self, alignment):
                seen["alignment"] = alignment

            def m_grouped_fp8_gemm_nt_masked(self, lhs, rhs, d, masked_m, expected_m,
                                             disable_ue8m0_cast=False):
                (a, sa), (b, sb) = lhs, rhs
                seen["no_cast"], seen["expected_m"] = disable_ue8m0_cast, expected_m
                for g in range(a.shape[0]):
                    d[g] = product(a[g], sa[g], b[g], sb[g])   # every row, past masked_m too
                if self.corrupt:
                    self.corrupt(d)

            def m_grouped_fp8_gemm_nt_contiguous(self, lhs, rhs, d, m_indices,
                                                 disable_ue8m0_cast=False):
                (a, sa), (b, sb) = lhs, rhs
                for g in range(b.shape[0]):
                    rows = (m_indices == g).nonzero().flatten()
                    if rows.numel():
                        d[rows] = product(a[rows], sa[rows], b[g], sb[g])
                if self.corrupt:
                    self.corrupt(d)

        def run(layout, module):
            shape = dict(layout=layout, groups=3, m=8, n=256, k=256)
            with _Shims():
                case = rg.Case(torch, dgemm, shape, [5, 0, 9], seed=3)
                ours = case.d
                fns, peers = {}, {}
                args = argparse.Namespace(deepgemm=True, deepgemm_module=module)
                rg.add_deepgemm_peer(torch, case, args, fns, peers)
            self.assertIs(case.d, ours)
            return fns, peers["deepgemm"]

        for layout in ("masked", "contiguous"):
            fns, p = run(layout, FakeDeepGemm())
            self.assertTrue(p["check"]["ok"], (layout, p))
            self.assertIn("deepgemm", fns)
            self.assertTrue(seen["no_cast"])
        self.assertEqual(seen["alignment"], 128)
        self.assertEqual(seen["expected_m"], 8)
        _, p = run("masked", FakeDeepGemm())
        self.assertGreater(p["check"]["untouched_written"], 0)   # counted, not failed
        _, p = run("masked", FakeDeepGemm(lambda d: d[2, 4].fill_(3.0)))
        self.assertFalse(p["check"]["ok"])
        _, p = run("contiguous", None)
        self.assertIn("not importable", p["error"])

    def test_grouped_deepgemm_same_work(self):
        """run_grouped.py --deepgemm also times DeepGEMM's normal GEMM on the
        case's total work (dgemm's same-work operands, TMA-layout A scales, no
        UE8M0 cast), its D compared with dgemm's; a different D fails its
        check, a raising call is an error, no module adds nothing."""
        import argparse
        import run_grouped as rg
        seen = {}

        class FakeDeepGemm:
            def __init__(self, corrupt=None, fail=False):
                self.corrupt, self.fail = corrupt, fail

            def fp8_gemm_nt(self, lhs, rhs, d, disable_ue8m0_cast=False):
                if self.fail:
                    raise RuntimeError("no kernel")
                seen["no_cast"] = disable_ue8m0_cast
                _FakeDgemm(self.corrupt).gemm_fp8_fp8_bf16_nt(lhs, rhs, d)

        def run(module):
            with _Shims():
                shape = dict(layout="masked", groups=3, m=8, n=256, k=256)
                case = rg.Case(torch, dgemm, shape, [5, 0, 9], seed=3)
                a, sa = rg.same_work_lhs(torch, dgemm, case)
                ours = torch.empty((case.valid_rows, case.n), dtype=torch.bfloat16)
                _FakeDgemm().gemm_fp8_fp8_bf16_nt((a, sa), (case.b[0], case.sb[0]), ours)
                fns, peers = {}, {}
                args = argparse.Namespace(deepgemm=True, deepgemm_module=module)
                rg.add_deepgemm_same_work(torch, dgemm, args,
                                          (a, sa, case.b[0], case.sb[0], ours), fns, peers)
            return fns, peers.get("deepgemm_normal_same_work")

        fns, p = run(FakeDeepGemm())
        self.assertTrue(p["check"]["ok"], p)
        self.assertLess(p["check"]["calc_diff_vs_dgemm"], 1e-6)
        self.assertIn("deepgemm_normal_same_work", fns)
        self.assertTrue(seen["no_cast"])
        fns, p = run(FakeDeepGemm(lambda d: d.neg_()))
        self.assertFalse(p["check"]["ok"])
        fns, p = run(FakeDeepGemm(fail=True))
        self.assertIn("no kernel", p["error"])
        self.assertNotIn("deepgemm_normal_same_work", fns)
        fns, p = run(None)
        self.assertIsNone(p)
        self.assertEqual(fns, {})

    def test_stray_write_is_caught(self):
        def past_the_end(d):
            try:  # only the guarded output has room past its end
                torch.as_strided(d, (1,), (1,), d.storage_offset() + d.numel()).fill_(1.0)
            except RuntimeError:
                pass
        rec = self.run_one(_FakeDgemm(past_the_end))
        self.assertFalse(rec["check"]["guard_ok"])
        self.assertFalse(rec["ok"])
        self.assertEqual(rb.status_of(rec), "FAIL")

    def test_unwritten_row_is_caught(self):
        rec = self.run_one(_FakeDgemm(lambda d: d[-1].fill_(float("nan"))))
        self.assertEqual(rec["check"]["nan_left"], 264)
        self.assertFalse(rec["ok"])

    def test_sanitize_mode_checks_only(self):
        import argparse
        fake = _FakeDgemm()
        with _Shims():
            rec = dict(type="shape", index=0, m=7, n=24, k=256)
            rb.run_shape(torch, fake, dict(m=7, n=24, k=256), 0,
                         argparse.Namespace(seed=1, sanitize=True), None, rec)
        self.assertTrue(rec["ok"], rec["check"])
        self.assertNotIn("us", rec)


class _ClockTorch:
    """Just enough of torch for Timer without a GPU: each event pair
    measures the next duration of the function that ran between them."""

    def __init__(self):
        self.now = 0.0
        torch_ = self

        class Event:
            def __init__(self, enable_timing=True):
                self.t = None

            def record(self):
                self.t = torch_.now

            def elapsed_time(self, end):
                return end.t - self.t      # milliseconds

        class Cuda:
            pass
        self.cuda = Cuda()
        self.cuda.Event = Event
        self.cuda.synchronize = lambda: None


class TimeAlternately(unittest.TestCase):
    def test_rounds_alternate_and_medians(self):
        clock = _ClockTorch()
        order = []

        def fn(name, ms):
            def run():
                order.append(name)
                clock.now += ms[0]
            return run
        # b slows down over time (drift): its rounds' medians are 2, 3 and 4 ms.
        b_ms = [2.0]

        def b():
            order.append("b")
            clock.now += b_ms[0]
        timer = rb.Timer(clock, iters=3, warmup=1, flush_bytes=0)
        orig = timer.time

        def timed(f):
            t = orig(f)
            if f is b:
                b_ms[0] += 1.0
            return t
        timer.time = timed
        got = timer.time_alternately({"a": fn("a", [1.0]), "b": b}, rounds=3)
        # a, b, a, b, a, b: each turn is 1 warm-up + 3 timed calls.
        self.assertEqual(order, (["a"] * 4 + ["b"] * 4) * 3)
        self.assertEqual(got["a"]["rounds"], 3)
        self.assertAlmostEqual(got["a"]["us"], 1000.0)
        self.assertEqual([round(x) for x in got["b"]["round_us"]], [2000, 3000, 4000])
        self.assertAlmostEqual(got["b"]["us"], 3000.0)
        self.assertAlmostEqual(got["b"]["us_min"], 2000.0)
        self.assertAlmostEqual(got["b"]["us_max"], 4000.0)


if __name__ == "__main__":
    unittest.main()
