#===- test_gen_results.py - RESULTS.md from a small fake run -------------===#
"""scripts/gen_results.py on a fake JSON lines file: every number in the
Markdown is computed from the records (TFLOPS, ratios, geometric means),
failures, errors, unsupported peers and skipped shapes are shown; DeepGEMM
is compared through the cuBLAS figures of both runs (bench/peers-deepgemm.csv
or a fake one)."""
import json
import math
import tempfile
import unittest
from pathlib import Path

import _support  # noqa: F401 - puts scripts/ and bench/ on sys.path
import gen_results as gr
import run_bench as rb


def rec(i, m, n, k, us, torch_us, cublas_us, source="csv", **extra):
    r = dict(type="shape", index=i, source=source, layout="normal", m=m, n=n, k=k,
             config="#dgemm.config<block_m = 128, block_n = 160, stages = 5, cluster = 2, "
                    "multicast = b>",
             us=us, tflops=rb.tflops(m, n, k, us), gbps=rb.gbps(m, n, k, us),
             compile_ms=900.0 + i, host_us=dict(dgemm_python=10.0 + i, dgemm_c=3.0,
                                                torch_blockwise=14.0),
             check=dict(ok=True, calc_diff=1.5e-6, bad=0, nan_left=0, guard_ok=True,
                        deterministic=True),
             peers=dict(torch_blockwise=dict(us=torch_us, tflops=rb.tflops(m, n, k, torch_us),
                                             check=dict(ok=True, calc_diff=1.4e-6)),
                        cublas_per_tensor=dict(us=cublas_us,
                                               tflops=rb.tflops(m, n, k, cublas_us))))
    r.update(extra)
    return r


META = dict(type="meta", date="2026-12-01T10:00:00Z", commit="unknown", device="NVIDIA H200",
            sms=132, memory_gib=139.8, driver="580.95", cuda="13.0", torch="2.11.0",
            python="3.12.3", lib="/tmp/dgemm/dgemm/lib/libdgemm.so", lib_sha256="ab" * 32,
            args=dict(iters=30, warmup=3, seed=1),
            tolerance=dict(rtol=0.01, atol_rms=0.02, calc_diff_max=0.001))


class GenResults(unittest.TestCase):
    def write(self, records, name="bench.jsonl"):
        d = Path(tempfile.mkdtemp())
        p = d / name
        p.write_text("".join(json.dumps(r) + "\n" for r in records))
        return p

    def run_gen(self, records, *extra, warm=None, deepgemm=None):
        p = self.write(records)
        out = p.parent / "RESULTS.md"
        argv = [str(p), "--out", str(out)] + list(extra)
        if warm is not None:
            argv += ["--warm", str(self.write(warm, "warm.jsonl"))]
        if deepgemm is not None:   # CSV text; default: the committed bench/peers-deepgemm.csv
            dg = p.parent / "deepgemm.csv"
            dg.write_text(deepgemm)
            argv += ["--deepgemm", str(dg)]
        self.assertEqual(gr.main(argv), 0)
        return out.read_text()

    def test_numbers_come_from_the_records(self):
        m, n, k = 4096, 7168, 2048
        r0 = rec(0, 64, 2112, 7168, 20.0, 40.0, 20.0)              # vs torch 2.00, vs cuBLAS 1.00
        r1 = rec(1, m, n, k, 100.0, 125.0, 80.0)                   # 1.25, 0.80
        r2 = rec(2, 1000, 4096, 1024, 50.0, 50.0, 50.0, source="random",
                 peers=dict(torch_blockwise=dict(error="RuntimeError: unsupported"),
                            cublas_per_tensor=dict(error="RuntimeError: mat1 dims")))
        text = self.run_gen([META, r0, r1, r2, dict(type="summary", failed=[])],
                            "--commit", "0123abcd")
        self.assertIn("- Commit: 0123abcd", text)
        self.assertIn("- Date: 2026-12-01T10:00:00Z", text)
        self.assertIn("NVIDIA H200 (132 SMs, 139.8 GiB); driver 580.95; CUDA 13.0; PyTorch 2.11.0",
                      text)
        t1 = 2 * m * n * k / 100e-6 / 1e12
        row1 = next(ln for ln in text.splitlines() if ln.startswith("| 4096 | 7168 | 2048 |"))
        cells = [c.strip() for c in row1.strip("|").split("|")]
        self.assertEqual(cells[3], "128x160 s5 c2b")
        self.assertEqual(cells[4], "100.0")
        self.assertEqual(cells[5], "%.0f" % t1)
        self.assertEqual(cells[7], "%.0f" % (t1 / 1.25))
        self.assertEqual(cells[9], "1.25")
        self.assertEqual(cells[10], "0.80")
        # bench/peers-deepgemm.csv: DeepGEMM 1248, cuBLAS 1357 at 4096x7168x2048.
        self.assertEqual(cells[11], "%.2f" % (1248 / 1357))
        self.assertEqual(cells[12], "%.2f" % (0.80 / (1248 / 1357)))
        self.assertEqual(cells[13], "901")
        self.assertEqual(cells[14], "11.0 / 3.0")
        self.assertEqual(cells[15], "ok (1.5e-06)")
        # Unsupported peers: n/a, no ratio.
        row2 = next(ln for ln in text.splitlines() if ln.startswith("| 1000 | 4096 | 1024 |"))
        cells2 = [c.strip() for c in row2.strip("|").split("|")]
        self.assertEqual((cells2[7], cells2[8], cells2[9]), ("n/a", "n/a", "-"))
        # Summary geometric means.
        small = next(ln for ln in text.splitlines() if ln.startswith("| shapes.csv, M ≤ 128 |"))
        self.assertIn("| 1 | 1 / 1 |", small)
        self.assertIn("| 2.00 | 1.00 |", small)
        allcsv = next(ln for ln in text.splitlines() if ln.startswith("| shapes.csv, all |"))
        self.assertIn("| %.2f | %.2f |" % (math.sqrt(2.0 * 1.25), math.sqrt(1.0 * 0.8)), allcsv)
        self.assertIn("## Random and other shapes (seed 1)", text)
        self.assertIn("Cold compile (shapes whose kernel was not cached yet: 3): 901 ms median, "
                      "902 ms max.", text)
        self.assertIn("11.0 µs through Python, 3.0 µs for the bare C call; torch blockwise 14.0 µs",
                      text)
        self.assertNotIn("## Failures", text)
        self.assertNotIn("without a summary", text)

    def test_rounds_and_their_drift(self):
        # Timed in rounds: the method line says so, and the shapes whose rounds
        # moved by more than 5% (dgemm's or a peer's) are named with the worst.
        meta = dict(META, args=dict(iters=30, warmup=3, seed=1, rounds=3))
        steady = rec(0, 64, 2112, 7168, 20.0, 40.0, 20.0, round_us=[20.0, 20.4, 19.9])
        steady["peers"]["cublas_per_tensor"]["round_us"] = [20.0, 20.1, 20.2]
        moved = rec(1, 4096, 7168, 16384, 700.0, 770.0, 705.0, round_us=[690.0, 790.0, 700.0])
        moved["peers"]["torch_blockwise"]["round_us"] = [760.0, 770.0, 780.0]
        peer_moved = rec(2, 4096, 7168, 2048, 100.0, 110.0, 98.0, round_us=[100.0, 101.0, 99.0])
        peer_moved["peers"]["torch_blockwise"]["round_us"] = [104.0, 110.0, 132.0]
        text = self.run_gen([meta, steady, moved, peer_moved, dict(type="summary", failed=[])])
        self.assertIn("median of 3 rounds' medians of 30 calls", text)
        self.assertIn("Rounds that differ by more than 5% (slowest over fastest round, the worst "
                      "of dgemm and its peers): 2 of 3 shapes: 4096x7168x16384 (dgemm +14%), "
                      "4096x7168x2048 (torch_blockwise +27%).", text)
        # Not timed in rounds (runs before f6c0c2c): no such line, the old method line.
        old = self.run_gen([META, rec(0, 64, 2112, 7168, 20.0, 40.0, 20.0),
                            dict(type="summary", failed=[])])
        self.assertNotIn("Rounds that differ", old)
        self.assertIn("median of 30 calls (dgemm timed first, then each peer", old)

    def test_failures_errors_and_skips(self):
        bad = rec(1, 128, 7168, 16384, 60.0, 70.0, 55.0)
        bad["check"] = dict(ok=False, calc_diff=3e-2, bad=4096, nan_left=128, guard_ok=False,
                            deterministic=True, bad_rows=[0, 127], bad_cols=[7040, 7167],
                            first_bad=[0, 7040, 1.0, 2.0, 0.5])
        err = dict(type="shape", index=2, source="csv", m=4096, n=2112, k=7168,
                   error="Traceback (most recent call last):\n...\n"
                         "dgemm._lib.DgemmError: dgemm_gemm_prepare failed: DGEMM_ERROR_COMPILE: x")
        skip = dict(type="shape", index=3, source="random", m=5, n=16, k=128,
                    skipped="time budget of 300 s spent")
        peer_bad = rec(4, 64, 4096, 7168, 30.0, 30.0, 30.0)
        peer_bad["peers"]["torch_blockwise"]["check"] = dict(ok=False, calc_diff=0.5)
        # K/128 = 25: torch's scale-stride fault, named as such.
        stride_bad = rec(5, 6220, 13760, 3200, 40.0, 20.0, 40.0, source="random")
        stride_bad["peers"]["torch_blockwise"]["check"] = dict(
            ok=False, calc_diff=float("nan"), bad=83926184, bad_cols=[128, 13759])
        text = self.run_gen([META, rec(0, 64, 2112, 7168, 20.0, 40.0, 20.0), bad, err, skip,
                             peer_bad, stride_bad])
        self.assertIn("**FAIL** 4096 bad, 128 unwritten, guard hit", text)
        self.assertIn("**ERROR**", text)
        self.assertIn("## Failures", text)
        self.assertIn("- M=128 N=7168 K=16384: calc_diff 0.03, 4096 bad elements (rows [0, 127], "
                      "cols [7040, 7167]", text)
        self.assertIn("- M=4096 N=2112 K=7168: `dgemm._lib.DgemmError: dgemm_gemm_prepare failed",
                      text)
        self.assertIn("- M=64 N=4096 K=7168: torch blockwise's own output failed the check "
                      "(calc_diff 0.5)\n", text)
        self.assertIn("- M=6220 N=13760 K=3200: torch blockwise's own output failed the check "
                      "(calc_diff nan, 83926184 bad elements, cols [128, 13759]); K/128 = 25 is "
                      "not a multiple of 4", text)
        self.assertIn(gr.TORCH_SCALE_STRIDE_NOTE, text)
        # A wrong peer result is shown as such and gives no ratio: the M <= 128 mean is the
        # first shape's alone (2.00), not pulled toward the wrong one's 1.00.
        for label in ("| 64 | 4096 | 7168 |", "| 6220 | 13760 | 3200 |"):
            row = next(ln for ln in text.splitlines() if ln.startswith(label))
            cells = [c.strip() for c in row.strip("|").split("|")]
            self.assertEqual((cells[7], cells[9]), ("wrong", "-"))
        small = next(ln for ln in text.splitlines() if ln.startswith("| shapes.csv, M ≤ 128 |"))
        self.assertIn("| 1.53 |", small)   # sqrt(2.00 * vs torch of the failed dgemm shape)
        self.assertIn("1 shapes were skipped: time budget of 300 s spent", text)
        self.assertIn("ended without a summary record", text)
        everything = next(ln for ln in text.splitlines() if ln.startswith("| everything |"))
        self.assertIn("| 6 | 3 / 5 |", everything)

    def test_config_label(self):
        self.assertEqual(gr.short_config("#dgemm.config<block_m = 64, block_n = 32, stages = 8, "
                                          "cluster = 1, multicast = none, a_box_rows = 16>"),
                         "64x32 s8 a16")
        self.assertEqual(gr.short_config("#dgemm.config<block_m = 128, block_n = 160, "
                                          "stages = 5, cluster = 2, multicast = b>"),
                         "128x160 s5 c2b")

    def test_warm_column(self):
        warm = [dict(type="meta"), dict(type="shape", m=64, n=2112, k=7168, warm_prepare_ms=3.25,
                                        warm_first_call_ms=1.5)]
        text = self.run_gen([META, rec(0, 64, 2112, 7168, 20.0, 40.0, 20.0),
                             rec(1, 128, 2112, 7168, 20.0, 40.0, 20.0)], warm=warm)
        self.assertIn("| warm load ms | check |", text)
        row = next(ln for ln in text.splitlines() if ln.startswith("| 64 | 2112 | 7168 |"))
        self.assertIn("| 3.2 | ok", row)
        row = next(ln for ln in text.splitlines() if ln.startswith("| 128 | 2112 | 7168 |"))
        self.assertIn("| - | ok", row)
        self.assertIn("Warm start (a new process, disk cache filled): prepare 3.2 ms median", text)

    DEEPGEMM_CSV = (
        "# DeepGEMM vX on a test H200, 2026-01-01\n"
        "# second comment\n"
        "layout,m,n,k,deepgemm_tflops,torch_blockwise_tflops,cublas_per_tensor_tflops\n"
        "normal,64,2112,7168,120,70,150\n"           # DeepGEMM/cuBLAS 0.80
        "normal,4096,7168,2048,900,800,1000\n"       # 0.90
        "normal,128,2112,7168,300,200,\n"            # no cuBLAS figure
        "normal,128,7168,16384,600,500,700\n"        # cuBLAS failed in the run
        "contiguous,1000,4096,1024,500,400,400\n"    # another layout: no match
        "masked,256,4096,7168,1001,605,\n")

    def test_deepgemm_through_cublas(self):
        cub_err = rec(3, 128, 7168, 16384, 50.0, 60.0, 50.0)
        cub_err["peers"]["cublas_per_tensor"] = dict(error="RuntimeError: x")
        records = [META,
                   rec(0, 64, 2112, 7168, 20.0, 40.0, 25.0),      # dgemm/cuBLAS 1.25
                   rec(1, 4096, 7168, 2048, 100.0, 125.0, 80.0),  # 0.80
                   rec(2, 128, 2112, 7168, 20.0, 20.0, 20.0),
                   cub_err,
                   rec(4, 1000, 4096, 1024, 50.0, 50.0, 50.0, source="random")]
        text = self.run_gen(records, deepgemm=self.DEEPGEMM_CSV)
        lines = text.splitlines()

        def cells(prefix):
            row = next(ln for ln in lines if ln.startswith(prefix))
            return [c.strip() for c in row.strip("|").split("|")]

        head = next(i for i, ln in enumerate(lines) if ln.startswith("| M | N | K |"))
        hcells = [c.strip() for c in lines[head].strip("|").split("|")]
        self.assertEqual(hcells[10:13], ["vs cuBLAS", "DeepGEMM/cuBLAS (PEERS)",
                                         "dgemm vs DeepGEMM"])
        sep = lines[head + 1].strip("|").split("|")
        self.assertEqual(len(sep), len(hcells))
        self.assertEqual((sep[3], sep[11], sep[12], sep[-1]), ("---", "--:", "--:", "---"))
        # (dgemm / cuBLAS here) / (DeepGEMM / cuBLAS there).
        c0 = cells("| 64 | 2112 | 7168 |")
        self.assertEqual((c0[10], c0[11], c0[12]), ("1.25", "0.80", "1.56"))  # 1.25 / 0.8
        c1 = cells("| 4096 | 7168 | 2048 |")
        self.assertEqual((c1[10], c1[11], c1[12]), ("0.80", "0.90", "0.89"))  # 0.8 / 0.9
        c2 = cells("| 128 | 2112 | 7168 |")
        self.assertEqual((c2[11], c2[12]), ("-", "-"))
        c3 = cells("| 128 | 7168 | 16384 |")
        self.assertEqual((c3[8], c3[11], c3[12]), ("n/a", "%.2f" % (600 / 700), "-"))
        self.assertEqual(c3[13], "903")                        # compile ms follows them
        # The random table has no DeepGEMM row (the contiguous one does not match).
        rhead = next(ln for ln in lines if ln.startswith("| M | N | K |") and
                     lines.index(ln) > lines.index("## Random and other shapes (seed 1)"))
        self.assertNotIn("DeepGEMM", rhead)
        self.assertEqual(cells("| 1000 | 4096 | 1024 |")[10:12], ["1.00", "904"])
        # Summary: geometric mean over the shapes with both ratios, count in brackets.
        self.assertIn("| dgemm / cuBLAS per-tensor | dgemm vs DeepGEMM, cuBLAS-normalized (shapes) |",
                      text)
        both = math.sqrt((1.25 / 0.8) * (0.8 / 0.9))
        self.assertEqual(cells("| shapes.csv, M ≤ 128 |")[-1], "%.2f (1)" % (1.25 / 0.8))
        self.assertEqual(cells("| shapes.csv, M > 128 |")[-1], "%.2f (1)" % (0.8 / 0.9))
        self.assertEqual(cells("| shapes.csv, all |")[-1], "%.2f (2)" % both)
        self.assertEqual(cells("| random and other shapes |")[-1], "-")
        self.assertEqual(cells("| everything |")[-1], "%.2f (2)" % both)
        self.assertIn("come from `deepgemm.csv`: DeepGEMM vX on a test H200, 2026-01-01. "
                      "Machines differ", text)
        self.assertIn("cuBLAS-normalized", text)
        # Deterministic.
        self.assertEqual(text, self.run_gen(records, deepgemm=self.DEEPGEMM_CSV))

    def test_no_deepgemm_csv(self):
        records = [META, rec(0, 64, 2112, 7168, 20.0, 40.0, 25.0)]
        text = self.run_gen(records, "--deepgemm", "")
        self.assertNotIn("DeepGEMM", text)
        self.assertNotIn("cuBLAS-normalized", text)
        self.assertIn("| vs cuBLAS | compile ms |", text)
        p = self.write(records)
        self.assertEqual(gr.main([str(p), "--out", str(p.parent / "R.md"),
                                  "--deepgemm", str(p.parent / "missing.csv")]), 2)
        dup = p.parent / "dup.csv"
        dup.write_text("layout,m,n,k,deepgemm_tflops,torch_blockwise_tflops,"
                       "cublas_per_tensor_tflops\nnormal,1,2,3,4,5,6\nnormal,1,2,3,4,5,6\n")
        with self.assertRaises(ValueError):
            gr.read_deepgemm(dup)

    def test_committed_deepgemm_csv(self):
        import csv
        dg = gr.read_deepgemm(gr.DEEPGEMM_CSV)
        self.assertEqual(dg["source"], "bench/peers-deepgemm.csv")
        self.assertIn("DeepGEMM v2.6.1", dg["note"])
        self.assertIn("2026-11-30", dg["note"])
        self.assertIn("PEERS.md", dg["note"])
        shapes = gr.ROOT / "bench" / "shapes.csv"
        want = {(r["layout"], int(r["m"]), int(r["n"]), int(r["k"])) for r in csv.DictReader(
            ln for ln in shapes.read_text().splitlines() if not ln.startswith("#"))}
        self.assertEqual(set(dg["rows"]), want)
        rows = dg["rows"]
        normal = [k for k in rows if k[0] == "normal"]
        self.assertEqual(len(normal), 18)
        for k, r in rows.items():
            self.assertIsNotNone(r["deepgemm_tflops"])
            self.assertIsNotNone(r["torch_blockwise_tflops"])
            self.assertEqual(r["cublas_per_tensor_tflops"] is None, k[0] != "normal", k)
        self.assertEqual(rows[("normal", 4096, 7168, 16384)],
                         dict(deepgemm_tflops=1479.0, torch_blockwise_tflops=1331.0,
                              cublas_per_tensor_tflops=1562.0))
        self.assertEqual(rows[("masked", 256, 4096, 7168)]["deepgemm_tflops"], 1001.0)

    def test_no_shapes_is_an_error(self):
        p = self.write([META])
        self.assertEqual(gr.main([str(p), "--out", str(p.parent / "R.md")]), 1)


if __name__ == "__main__":
    unittest.main()


class Chart(unittest.TestCase):
    def test_svg_has_one_bar_per_series_and_csv_shape(self):
        records = [rec(0, 64, 2112, 7168, 10.0, 20.0, 8.0),
                   rec(1, 4096, 7168, 2048, 100.0, 120.0, 90.0),
                   rec(2, 300, 512, 256, 5.0, 6.0, 4.0, source="random")]
        svg = gr.render_svg(records)
        # Background + 2 csv shapes x 3 series + 3 legend boxes; the random
        # shape is not drawn.
        self.assertEqual(svg.count("<rect"), 1 + 2 * 3 + 3)
        self.assertIn(">64, 2112, 7168<", svg)
        self.assertNotIn("300, 512, 256", svg)
        # The longest bar is the fastest series of the fastest shape: cuBLAS
        # at 4096x7168x2048 (90 us), drawn 560 px wide.
        self.assertIn('width="560.0"', svg)
