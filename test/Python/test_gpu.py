#===- test_gpu.py - the Python package on a Hopper GPU -------------------===#
"""Runs where PyTorch sees an sm_90 GPU and libdgemm.so exports the C API
(the GPU machine: scripts/device-run.sh); skipped elsewhere with the reason.

Small shapes with partial tiles (also with a fused bias), A's box cut to a small M at its
boundaries, every A-scale layout the package accepts
(bitwise-identical results), a side stream, argument errors with real torch
tensors, config/prepare, and the per-token/per-block casts on the GPU. The
numerical check is run_bench's (guarded, NaN-poisoned output; float64
reference; calc_diff and elementwise bounds).

Serving: a GEMM captured in a CUDA graph on its very first call (compile
and module load inside the capture) and replayed on new inputs; 8 threads
calling at once, each with a shape (and kernel) of its own, on streams of
their own; two processes compiling into one cold DGEMM_CACHE_DIR at once; a
DLPack producer other than a torch tensor (a wrapper exposing only
__dlpack__/__dlpack_device__)."""
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest

import _support as S

import dgemm
from dgemm import DgemmArgumentError

try:
    import torch
    HAVE_GPU = torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)
    WHY = "no sm_90 GPU visible to PyTorch"
except ImportError:
    HAVE_GPU, WHY = False, "PyTorch not installed"

SHAPES = [(1, 128, 128), (7, 24, 256), (129, 136, 384), (200, 392, 640), (256, 2112, 1024),
          (64, 7168, 2048)]


@unittest.skipUnless(HAVE_GPU, WHY)
class Gpu(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        path, why = S.find_real_library()
        if path is None:
            raise unittest.SkipTest(why)
        import run_bench
        cls.rb = run_bench
        cls.env = S.LibEnv(path)
        cls.env.__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.env.__exit__(None, None, None)

    def run_checked(self, m, n, k, seed, sfa_key="sfa_tma", stream=None):
        rb = self.rb
        inp = rb.make_inputs(torch, dgemm, m, n, k, seed=seed)
        ref, rms = rb.reference(torch, dgemm, inp)
        out = rb.GuardedOutput(torch, m, n, seed=seed)
        out.poison()
        torch.cuda.synchronize()  # inputs are ready whatever stream the GEMM runs on
        dgemm.gemm_fp8_fp8_bf16_nt((inp["a"], inp[sfa_key]), (inp["b"], inp["sfb"]), out.d,
                                   stream=stream)
        torch.cuda.synchronize()
        chk = rb.check_output(torch, dgemm, out.d, ref, rms)
        chk["guard_ok"] = out.guards_intact()
        return inp, out.d, chk

    def test_bias_is_added_in_the_epilogue(self):
        # Epilogue fusion: D = A * B^T + bias against the float64 reference,
        # on small shapes with partial tiles (columns past N take the
        # clamped bias pair) and a K split (64 x 2112 x 7168 is one of
        # run_bias.py's), and with a bias in a torch tensor's storage at
        # an 8-byte offset.
        rb = self.rb
        for i, (m, n, k) in enumerate(SHAPES + [(64, 2112, 7168)]):
            with self.subTest(m=m, n=n, k=k):
                inp = rb.make_inputs(torch, dgemm, m, n, k, seed=300 + i)
                ref, rms = rb.reference(torch, dgemm, inp)
                store = torch.randn(n + 2, device="cuda") * float(rms.mean())
                bias = store[2:] if i % 2 else store[:n]
                out = rb.GuardedOutput(torch, m, n, seed=i)
                out.poison()
                torch.cuda.synchronize()
                dgemm.gemm_fp8_fp8_bf16_nt((inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"]),
                                           out.d, bias=bias)
                torch.cuda.synchronize()
                chk = rb.check_output(torch, dgemm, out.d, ref + bias[None, :], rms)
                self.assertTrue(chk["ok"] and out.guards_intact(), chk)

    def test_small_shapes(self):
        for i, (m, n, k) in enumerate(SHAPES):
            with self.subTest(m=m, n=n, k=k):
                _, _, chk = self.run_checked(m, n, k, seed=100 + i)
                self.assertTrue(chk["ok"] and chk["guard_ok"], chk)

    def test_a_box_cut_to_small_m(self):
        # M of at most 56 (one block of 64 rows) or 65-120 (one of 128, two
        # consumers): A's TMA box holds M rounded up to 8 rows (a_box_rows;
        # docs/config-selection.md "A's box at small M"). The boundaries: a
        # box of exactly M rows (8, 16, 56, 120), one of more rows than M
        # (1, 9, 55, 65, 81: the box reads past A's last row, which TMA
        # fills with zeros), and M past the cut (57, 64, 121, 128).
        cases = ((64, 2112, (1, 8, 9, 16, 55, 56, 57, 64)),
                 (128, 13312, (65, 81, 120, 121, 128)))
        k, seed = 1024, 300
        for block_m, n, ms in cases:
            for m in ms:
                seed += 1
                with self.subTest(m=m, n=n):
                    text = dgemm.config(m, n, k)
                    self.assertIn("block_m = %d," % block_m, text)
                    rows = -(-m // 8) * 8
                    if rows < block_m:
                        self.assertIn("a_box_rows = %d" % rows, text)
                    else:
                        self.assertNotIn("a_box_rows", text)
                    _, _, chk = self.run_checked(m, n, k, seed=seed)
                    self.assertTrue(chk["ok"] and chk["guard_ok"], chk)

    def test_launches_write_the_same_bits(self):
        # No split-K, no atomics: every launch of a kernel writes the same
        # output. Block M 128 with two consumers that store their own rows,
        # on 8 SMs (22 tiles per CTA), where each tile's B scales are copied
        # while the other warpgroup may still be on the previous tile (the
        # barrier of docs/kernel.md "Structure"), and the 128x192 shape of
        # the reference set.
        try:
            for sms, (m, n, k) in ((8, (2048, 2112, 1024)), (0, (4096, 2112, 7168))):
                with self.subTest(m=m, n=n, k=k, sms=sms):
                    dgemm.set_num_sms(sms)
                    self.assertIn("block_m = 128", dgemm.config(m, n, k))
                    inp, first, chk = self.run_checked(m, n, k, seed=340)
                    self.assertTrue(chk["ok"], chk)
                    first = first.clone()
                    for _ in range(4):
                        d = torch.full_like(first, float("nan"))
                        dgemm.gemm_fp8_fp8_bf16_nt((inp["a"], inp["sfa_tma"]),
                                                   (inp["b"], inp["sfb"]), d)
                        torch.cuda.synchronize()
                        self.assertTrue(torch.equal(d.view(torch.int16), first.view(torch.int16)))
        finally:
            dgemm.set_num_sms(0)

    def test_scale_layouts_give_identical_results(self):
        m, n, k = 130, 264, 512
        inp, d0, chk = self.run_checked(m, n, k, seed=7)
        self.assertTrue(chk["ok"], chk)
        kb = k // 128
        layouts = {
            "row-major (copied)": inp["sfa"],
            "strides (1, M) (copied: M % 4 != 0)": inp["sfa"].t().contiguous().t(),
            "padded beyond align(M, 4)": torch.empty(kb, 140, device="cuda").t()[:m].copy_(inp["sfa"]),
        }
        for name, sfa in layouts.items():
            with self.subTest(layout=name):
                d = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
                dgemm.gemm_fp8_fp8_bf16_nt((inp["a"], sfa), (inp["b"], inp["sfb"]), d)
                torch.cuda.synchronize()
                self.assertTrue(torch.equal(d.view(torch.int16), d0.view(torch.int16)))

    def test_non_contiguous_sfb_is_copied(self):
        m, n, k = 64, 256, 384
        inp, d0, _ = self.run_checked(m, n, k, seed=8)
        sfb_t = inp["sfb"].t().contiguous().t()  # same values, column-major
        d = torch.empty_like(d0)
        dgemm.gemm_fp8_fp8_bf16_nt((inp["a"], inp["sfa_tma"]), (inp["b"], sfb_t), d)
        torch.cuda.synchronize()
        self.assertTrue(torch.equal(d.view(torch.int16), d0.view(torch.int16)))

    def test_bound_calls_see_new_contents_and_limits(self):
        # Warm calls launch C bound calls: new input values are read, the
        # plain and bound callables of bind_gemm_fp8_fp8_bf16_nt agree bit
        # for bit, and after set_num_sms (which forgets the bindings) the
        # result is unchanged.
        m, n, k = 256, 384, 512
        inp, d0, chk = self.run_checked(m, n, k, seed=11)
        self.assertTrue(chk["ok"], chk)
        lhs, rhs = (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"])
        d = torch.empty_like(d0)
        for _ in range(2):
            d.fill_(float("nan"))
            dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d)  # the full path, then a hit
            torch.cuda.synchronize()
            self.assertTrue(torch.equal(d.view(torch.int16), d0.view(torch.int16)))
        inp["sfa_tma"].mul_(2)  # same tensors, new values: D doubles exactly
        dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d)
        torch.cuda.synchronize()
        self.assertTrue(torch.equal(d.float(), 2 * d0.float()))
        inp["sfa_tma"].div_(2)
        for plain in (False, True):
            call = dgemm.bind_gemm_fp8_fp8_bf16_nt(lhs, rhs, d, plain=plain)
            d.fill_(float("nan"))
            call()
            torch.cuda.synchronize()
            self.assertTrue(torch.equal(d.view(torch.int16), d0.view(torch.int16)), plain)
        dgemm.set_num_sms(64)  # may choose another config: checked against the reference
        try:
            d.fill_(float("nan"))
            dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d)
            torch.cuda.synchronize()
            ref, rms = self.rb.reference(torch, dgemm, inp)
            chk = self.rb.check_output(torch, dgemm, d, ref, rms)
            self.assertTrue(chk["ok"], chk)
        finally:
            dgemm.set_num_sms(0)

    def test_side_stream(self):
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            _, _, chk = self.run_checked(256, 512, 1024, seed=9)
        self.assertTrue(chk["ok"], chk)
        _, _, chk = self.run_checked(256, 512, 1024, seed=10, stream=s.cuda_stream)
        self.assertTrue(chk["ok"], chk)

    def test_errors_with_torch_tensors(self):
        a = torch.empty(128, 256, dtype=torch.float8_e4m3fn, device="cuda")
        b = torch.empty(256, 256, dtype=torch.float8_e4m3fn, device="cuda")
        sfa = torch.ones(128, 2, device="cuda")
        sfb = torch.ones(2, 2, device="cuda")
        d = torch.empty(128, 256, dtype=torch.bfloat16, device="cuda")
        with self.assertRaisesRegex(DgemmArgumentError, "must be torch.bfloat16, got torch.float32"):
            dgemm.gemm_fp8_fp8_bf16_nt((a, sfa), (b, sfb), d.float())
        with self.assertRaisesRegex(DgemmArgumentError, "all operands must be CUDA tensors"):
            dgemm.gemm_fp8_fp8_bf16_nt((a, sfa), (b, sfb), d.cpu())
        with self.assertRaisesRegex(DgemmArgumentError, r"lhs\[0\] \(A\) \[128, 256\] must be row-major"):
            a_mn = torch.empty(256, 128, dtype=torch.float8_e4m3fn, device="cuda").t()
            dgemm.gemm_fp8_fp8_bf16_nt((a_mn, sfa), (b, sfb), d)
        with self.assertRaisesRegex(DgemmArgumentError, "not 16-byte aligned"):
            buf = torch.empty(128 * 256 + 1, dtype=torch.float8_e4m3fn, device="cuda")
            dgemm.gemm_fp8_fp8_bf16_nt((buf[1:].view(128, 256), sfa), (b, sfb), d)

    def test_config_and_prepare(self):
        text = dgemm.config(4096, 7168, 2048)
        self.assertTrue(text.startswith("#dgemm.config<"), text)
        ms, info = dgemm.prepare(4096, 7168, 2048)
        self.assertGreaterEqual(ms, 0.0)
        ms2, _ = dgemm.prepare(4096, 7168, 2048)
        self.assertEqual(ms2, 0.0)  # cached now

    def check(self, inp, d, seed=0):
        ref, rms = self.rb.reference(torch, dgemm, inp)
        return self.rb.check_output(torch, dgemm, d, ref, rms)

    def test_cuda_graph_first_call_captured_and_replayed(self):
        # A shape no other test uses: its kernel is compiled and loaded
        # inside the capture.
        m, n, k = 96, 3072, 1536
        inp = self.rb.make_inputs(torch, dgemm, m, n, k, seed=21)
        d = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
        a, sfa, b, sfb = inp["a"], inp["sfa_tma"], inp["b"], inp["sfb"]
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            dgemm.gemm_fp8_fp8_bf16_nt((a, sfa), (b, sfb), d)
        torch.cuda.synchronize()
        self.assertTrue(torch.isnan(d.float()).all().item(), "capture must not run the GEMM")
        g.replay()
        torch.cuda.synchronize()
        chk = self.check(inp, d)
        self.assertTrue(chk["ok"], chk)
        # New values in the captured buffers: the replay computes them.
        new = self.rb.make_inputs(torch, dgemm, m, n, k, seed=22)
        for name, dst in (("a", a), ("sfa_tma", sfa), ("b", b), ("sfb", sfb)):
            dst.copy_(new[name])
        d.fill_(float("nan"))
        g.replay()
        torch.cuda.synchronize()
        chk = self.check(dict(new, a=a, sfa_tma=sfa, b=b, sfb=sfb), d)
        self.assertTrue(chk["ok"], chk)
        # A second graph with the kernel already loaded, row-major A scales
        # (the layout copy is captured too).
        d2 = torch.empty_like(d)
        g2 = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g2):
            dgemm.gemm_fp8_fp8_bf16_nt((a, new["sfa"]), (b, sfb), d2)
        g2.replay()
        torch.cuda.synchronize()
        self.assertTrue(torch.equal(d2.view(torch.int16), d.view(torch.int16)))

    def test_eight_threads_at_once(self):
        shapes = [(64 + 40 * i, 1024 + 256 * i, 512 + 128 * (i % 3)) for i in range(8)]
        inputs = [self.rb.make_inputs(torch, dgemm, m, n, k, seed=30 + i)
                  for i, (m, n, k) in enumerate(shapes)]
        outs = [torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
                for m, n, _ in shapes]
        streams = [torch.cuda.Stream() for _ in shapes]
        torch.cuda.synchronize()
        start = threading.Barrier(len(shapes))
        errors = [None] * len(shapes)

        def work(i):
            try:
                inp = inputs[i]
                start.wait()
                with torch.cuda.stream(streams[i]):
                    for _ in range(3):
                        dgemm.gemm_fp8_fp8_bf16_nt((inp["a"], inp["sfa_tma"]),
                                                   (inp["b"], inp["sfb"]), outs[i])
                streams[i].synchronize()
            except Exception as e:  # noqa: BLE001 - reported by the main thread
                errors[i] = e

        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(shapes))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        self.assertEqual(errors, [None] * len(shapes))
        for i, (m, n, k) in enumerate(shapes):
            with self.subTest(m=m, n=n, k=k):
                chk = self.check(inputs[i], outs[i])
                self.assertTrue(chk["ok"], chk)

    def test_two_processes_share_a_cold_cache(self):
        cache = tempfile.mkdtemp(prefix="dgemm-gpu-shared-")
        go = os.path.join(cache, "..", os.path.basename(cache) + ".go")
        code = (
            "import json, os, sys, time\n"
            "sys.path.insert(0, %r)\n"
            "import torch, dgemm, run_bench as rb\n"
            "m, n, k = 200, 2560, 1792\n"
            "inp = rb.make_inputs(torch, dgemm, m, n, k, seed=5)\n"
            "ref, rms = rb.reference(torch, dgemm, inp)\n"
            "d = torch.empty((m, n), dtype=torch.bfloat16, device='cuda')\n"
            "torch.cuda.synchronize()\n"
            "while not os.path.exists(%r): time.sleep(0.005)\n"
            "ms, info = dgemm.prepare(m, n, k)\n"
            "dgemm.gemm_fp8_fp8_bf16_nt((inp['a'], inp['sfa_tma']), (inp['b'], inp['sfb']), d)\n"
            "torch.cuda.synchronize()\n"
            "chk = rb.check_output(torch, dgemm, d, ref, rms)\n"
            "print(json.dumps(dict(ok=bool(chk['ok']), info=info)))\n"
        ) % (str(S.ROOT / "bench"), go)
        env = dict(os.environ, DGEMM_CACHE_DIR=cache, PYTHONPATH=str(S.PYTHON_DIR),
                   DGEMM_LIB=str(self.env.path))
        procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        import time
        time.sleep(8)  # both have imported torch and made their inputs
        open(go, "w").close()
        results = []
        for p in procs:
            out, err = p.communicate(timeout=120)
            self.assertEqual(p.returncode, 0, err)
            results.append(json.loads(out.strip().splitlines()[-1]))
        self.assertTrue(all(r["ok"] for r in results), results)
        caches = sorted(kv for r in results for kv in r["info"].split("; ")
                        if kv.startswith("cache="))
        self.assertTrue(set(caches) <= {"cache=compiled", "cache=disk"}, caches)
        names = sorted(os.listdir(cache))
        self.assertEqual(len(names), 2, names)  # one entry, no temporaries left
        self.assertEqual({os.path.splitext(x)[1] for x in names}, {".ptx", ".contract"})
        # A third process finds the entry whole.
        r = subprocess.run([sys.executable, "-c", "import dgemm; print(dgemm.prepare(200, 2560, "
                            "1792)[1])"], env=env, capture_output=True, text=True, timeout=120)
        self.assertIn("cache=disk", r.stdout, r.stderr)
        os.unlink(go)

    def test_dlpack_producer_other_than_a_torch_tensor(self):
        class Producer:
            """Only the DLPack protocol, over a torch tensor."""

            def __init__(self, t):
                self.t = t

            def __dlpack__(self, **kwargs):
                return self.t.__dlpack__(**kwargs)

            def __dlpack_device__(self):
                return self.t.__dlpack_device__()

        m, n, k = 128, 512, 512
        inp = self.rb.make_inputs(torch, dgemm, m, n, k, seed=40)
        d = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
        torch.cuda.synchronize()
        dgemm.gemm_fp8_fp8_bf16_nt((Producer(inp["a"]), Producer(inp["sfa_tma"])),
                                   (Producer(inp["b"]), Producer(inp["sfb"])), Producer(d))
        torch.cuda.synchronize()
        chk = self.check(inp, d)
        self.assertTrue(chk["ok"], chk)

    def test_casts_on_gpu(self):
        x = torch.randn(300, 512, device="cuda") * 5
        q, s = dgemm.per_token_cast_to_fp8(x)
        self.assertEqual((q.dtype, tuple(s.shape)), (torch.float8_e4m3fn, (300, 4)))
        self.assertLess(dgemm.calc_diff(dgemm.per_token_cast_back(q, s), x), 2e-3)
        q, s = dgemm.per_block_cast_to_fp8(x)
        self.assertEqual(tuple(s.shape), (3, 4))
        self.assertLess(dgemm.calc_diff(dgemm.per_block_cast_back(q, s), x), 2e-3)
        t = dgemm.get_col_major_tma_aligned_tensor(torch.randn(5, 3, device="cuda"))
        self.assertEqual(t.stride(), (1, 8))

    def _gemm(self, inp, m, n):
        d = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
        dgemm.gemm_fp8_fp8_bf16_nt((inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"]), d)
        torch.cuda.synchronize()
        return d

    def test_extreme_scales(self):
        # Scales 2^-60 on A's rows and 2^+60 on B's blocks (and the other way
        # round): the products stay in f32 range only if every factor is
        # applied exactly once; checked against the float64 reference.
        rb = self.rb
        m, n, k = 200, 384, 512
        for e in (60, -60):
            inp = rb.make_inputs(torch, dgemm, m, n, k, seed=11)
            inp["sfa"] = inp["sfa"] * 2.0 ** -e
            inp["sfa_tma"] = dgemm.get_col_major_tma_aligned_tensor(inp["sfa"])
            inp["sfb"] = inp["sfb"] * 2.0 ** e
            ref, rms = rb.reference(torch, dgemm, inp)
            chk = rb.check_output(torch, dgemm, self._gemm(inp, m, n), ref, rms)
            self.assertTrue(chk["ok"], (e, chk))

    def test_zero_rows_and_nan_inputs(self):
        # Documented behaviour (docs/runtime.md): zero rows give exact zeros;
        # a NaN in A's row i (or its scale) makes D's row i NaN and nothing
        # else; an Inf scale does the same (Inf * 0 = NaN in the promotion).
        rb = self.rb
        m, n, k = 192, 256, 384
        inp = rb.make_inputs(torch, dgemm, m, n, k, seed=12)
        inp["a"][7].zero_()
        a_bits = inp["a"].view(torch.uint8)
        a_bits[20, 5] = 0x7F                      # e4m3fn NaN
        inp["sfa"][33, 1] = float("inf")
        inp["sfa_tma"] = dgemm.get_col_major_tma_aligned_tensor(inp["sfa"])
        d = self._gemm(inp, m, n).float()
        self.assertTrue(bool((d[7] == 0).all()))
        self.assertTrue(bool(torch.isnan(d[20]).all()))
        self.assertFalse(bool(torch.isfinite(d[33]).any()))
        others = [i for i in range(m) if i not in (20, 33)]
        self.assertTrue(bool(torch.isfinite(d[others]).all()))
        # The other rows are still right.
        clean = dict(inp)
        clean["a"] = inp["a"].clone()
        clean["a"].view(torch.uint8)[20, 5] = 0
        clean["sfa"] = inp["sfa"].clone()
        clean["sfa"][33, 1] = 1.0
        ref, rms = rb.reference(torch, dgemm, clean)
        keep = torch.tensor(others, device="cuda")
        chk = rb.check_output(torch, dgemm, d[keep].to(torch.bfloat16), ref[keep], rms[keep])
        self.assertTrue(chk["ok"], chk)

    def test_bench_times_a_gemm(self):
        # DeepGEMM's bench: mean seconds per call; a 4096x4096x4096 GEMM takes
        # between 20 us and 10 ms on any Hopper GPU.
        a = torch.randn(4096, 4096, device="cuda")
        (a8, sa), (b8, sb) = dgemm.per_token_cast_to_fp8(a), dgemm.per_block_cast_to_fp8(a)
        d = torch.empty(4096, 4096, dtype=torch.bfloat16, device="cuda")
        sa = dgemm.get_col_major_tma_aligned_tensor(sa)
        t = dgemm.bench(lambda: dgemm.gemm_fp8_fp8_bf16_nt((a8, sa), (b8, sb), d),
                        num_warmups=2, num_tests=5)
        self.assertIsInstance(t, float)
        self.assertGreater(t, 20e-6)
        self.assertLess(t, 10e-3)
        with self.assertRaises(ValueError):
            dgemm.bench(lambda: None, num_tests=0)

    def test_wgrad_accumulates(self):
        # out += A·Bᵀ with 1x128 scales on both sides: twice, with guard rows
        # around out, partial tiles, and K = 0 leaving out unchanged
        # (run_wgrad.check_case).
        import run_wgrad
        for i, (m, n, k) in enumerate([(1, 8, 128), (131, 200, 384), (256, 512, 1024)]):
            with self.subTest(m=m, n=n, k=k):
                rec, _ = run_wgrad.check_case(torch, dgemm, m, n, k, seed=i)
                self.assertTrue(rec["ok"], rec)

    def test_k_grouped_wgrad(self):
        # Each group checked against its own reference; empty groups stay
        # bit-for-bit unchanged; scales with rows that are not 16-byte
        # aligned (M = 197) are copied into padded rows.
        import run_wgrad
        # More groups than CTAs, tiles of one K block: each CTA rewrites its
        # ring of tensor-map slots several times.
        many = [128 * (i % 4 != 1) for i in range(600)]
        for i, (m, n, ks) in enumerate([(128, 256, [256, 0, 128]), (197, 136, [384]),
                                        (64, 8, [0, 128, 0, 1280]), (64, 128, many)]):
            with self.subTest(m=m, n=n, ks=ks):
                rec, _ = run_wgrad.check_kgrouped(torch, dgemm, m, n, ks, seed=i)
                self.assertTrue(rec["ok"], rec)

    def test_deepgemm_v2_names(self):
        # DeepGEMM 2.x's names give the 1.x-named calls' results bit for bit
        # (the same kernels); the accumulator c: D zeroed (D filled with NaN
        # before), c copied into D (c unchanged), c = D.
        import run_grouped
        import run_wgrad
        cuda, bf16 = "cuda", torch.bfloat16

        def same(x, y):
            torch.cuda.synchronize()
            self.assertTrue(torch.equal(x, y))

        inp = self.rb.make_inputs(torch, dgemm, 129, 136, 384, seed=5)
        lhs, rhs = (inp["a"], inp["sfa"]), (inp["b"], inp["sfb"])
        d1, d2 = (torch.zeros((129, 136), dtype=bf16, device=cuda) for _ in range(2))
        dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d1)
        dgemm.fp8_gemm_nt(lhs, rhs, d2)
        same(d1, d2)

        w = run_wgrad.make_wgrad_inputs(torch, dgemm, 131, 200, 384, seed=6)
        lhs, rhs, d0 = (w["a"], w["sa"]), (w["b"], w["sb"]), w["d0"]
        want_acc, want = d0.clone(), torch.zeros_like(d0)
        dgemm.wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, want_acc)
        dgemm.wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, want)
        d = torch.full_like(d0, float("nan"))
        dgemm.fp8_gemm_nt(lhs, rhs, d)
        same(d, want)
        kept = d0.clone()
        d = torch.full_like(d0, float("nan"))
        dgemm.fp8_gemm_nt(lhs, rhs, d, c=d0, recipe=(1, 1, 128))
        same(d, want_acc)
        same(d0, kept)
        d = d0.clone()
        dgemm.fp8_gemm_nt(lhs, rhs, d, c=d)
        same(d, want_acc)

        g = torch.Generator(device=cuda)
        g.manual_seed(7)
        n, k = 256, 256
        a8, sa = run_grouped.quantized(torch, dgemm, 384, k, g, cuda, False)
        bq = [run_grouped.quantized(torch, dgemm, n, k, g, cuda, True) for _ in range(2)]
        b8, sb = torch.stack([x for x, _ in bq]), torch.stack([s for _, s in bq])
        idx = torch.tensor([0] * 128 + [1] * 256, dtype=torch.int32, device=cuda)
        ends = torch.tensor([128, 384], dtype=torch.int32, device=cuda)
        d1, d2, d3 = (torch.zeros((384, n), dtype=bf16, device=cuda) for _ in range(3))
        dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_contiguous((a8, sa), (b8, sb), d1, idx)
        dgemm.m_grouped_fp8_gemm_nt_contiguous((a8, sa), (b8, sb), d2, idx)
        dgemm.m_grouped_fp8_gemm_nt_contiguous((a8, sa), (b8, sb), d3, ends,
                                               use_psum_layout=True)
        same(d1, d2)
        same(d1, d3)

        aq = [run_grouped.quantized(torch, dgemm, 192, k, g, cuda, False) for _ in range(2)]
        am, sam = torch.stack([x for x, _ in aq]), torch.stack([s for _, s in aq])
        counts = torch.tensor([100, 192], dtype=torch.int32, device=cuda)
        d1, d2 = (torch.zeros((2, 192, n), dtype=bf16, device=cuda) for _ in range(2))
        dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_masked((am, sam), (b8, sb), d1, counts, 150)
        dgemm.m_grouped_fp8_gemm_nt_masked((am, sam), (b8, sb), d2, counts, 150)
        same(d1, d2)

        ks = [256, 0, 128]
        kin, _ = run_wgrad.make_kgrouped_inputs(torch, dgemm, 128, 256, ks, seed=8)
        lhs, rhs, d0 = (kin["a"], kin["sa"]), (kin["b"], kin["sb"]), kin["d0"]
        layout = torch.tensor(ks, dtype=torch.int32, device=cuda)
        want_acc, want = d0.clone(), torch.zeros_like(d0)
        dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, want_acc, ks)
        dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, want, ks)
        d = torch.full_like(d0, float("nan"))
        dgemm.k_grouped_fp8_gemm_nt_contiguous(lhs, rhs, d, ks, layout, c=d0)
        same(d, want_acc)
        d = torch.full_like(d0, float("nan"))
        dgemm.k_grouped_fp8_gemm_nt_contiguous(lhs, rhs, d, ks, layout)
        same(d, want)

    def test_k_grouped_in_cuda_graph_and_on_two_streams(self):
        # The k-grouped launch allocates its workspace on the stream
        # (cuMemAllocAsync) and frees it after: captured into a graph as
        # allocation and free nodes; two streams at once get their own.
        import run_wgrad
        m, n, ks = 96, 256, [128 * (i % 3) for i in range(200)]
        inp, deq = run_wgrad.make_kgrouped_inputs(torch, dgemm, m, n, ks, seed=40)
        lhs, rhs = (inp["a"], inp["sa"]), (inp["b"], inp["sb"])

        def expect(d, times):
            for i, (pa, pb) in enumerate(deq):
                want = inp["d0"][i].double()
                if pa is not None:
                    want = want + times * (pa @ pb.t())
                err = (d[i].double() - want).abs().max().item()
                scale = want.abs().max().item() + 1.0
                self.assertLess(err / scale, 2e-2, "group %d after %d adds" % (i, times))

        d = inp["d0"].clone()
        dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, d, ks)  # compiled, loaded
        torch.cuda.synchronize()
        d.copy_(inp["d0"])
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, d, ks)
        torch.cuda.synchronize()
        self.assertTrue(torch.equal(d, inp["d0"]), "capture must not run the GEMM")
        g.replay()
        g.replay()
        torch.cuda.synchronize()
        expect(d, 2)
        outs = [inp["d0"].clone() for _ in range(2)]
        streams = [torch.cuda.Stream() for _ in range(2)]
        torch.cuda.synchronize()
        for out, st in zip(outs, streams):
            with torch.cuda.stream(st):
                for _ in range(3):
                    dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, out, ks)
        torch.cuda.synchronize()
        for out in outs:
            expect(out, 3)


if __name__ == "__main__":
    unittest.main()
