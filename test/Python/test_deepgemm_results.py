#===- test_deepgemm_results.py - the DeepGEMM section of RESULTS.md ------===#
"""scripts/deepgemm_results.py: rows, ratios, "wrong" and error cells and
geomeans from run_bench.py / run_grouped.py records with a DeepGEMM peer;
gen_results.py adds the section only when one is there (no GPU, no torch)."""
import json
import tempfile
import unittest
from pathlib import Path

import _support  # noqa: F401  (puts scripts/ on sys.path)
import deepgemm_results
import gen_results


def bench_records():
    return [
        dict(type="meta", commit="abc1234", device="NVIDIA H100", date="2026-12-06",
             deepgemm=dict(version="2.6.1", path="/tmp/dg")),
        dict(type="shape", source="csv", m=64, n=2112, k=7168, tflops=150.0, us=10.0,
             check=dict(ok=True), peers=dict(deepgemm=dict(tflops=120.0, check=dict(ok=True)))),
        dict(type="shape", source="csv", m=4096, n=7168, k=2048, tflops=1200.0, us=100.0,
             check=dict(ok=True), peers=dict(deepgemm=dict(tflops=1250.0, check=dict(ok=False)))),
        dict(type="shape", source="csv", m=4096, n=4096, k=7168, tflops=1300.0, us=100.0,
             check=dict(ok=True), peers=dict(deepgemm=dict(tflops=1000.0, check=dict(ok=True)))),
        dict(type="shape", source="random", m=7, n=256, k=512, tflops=5.0, us=9.0,
             check=dict(ok=True), peers=dict(deepgemm=dict(error="RuntimeError: no"))),
        dict(type="summary"),
    ]


def grouped_records():
    return [
        dict(type="meta", commit="abc1234"),
        dict(type="grouped", layout="masked", groups=4, m=256, n=7168, k=2048, kind="equal",
             tflops=800.0, ok=True, peers=dict(
                 deepgemm=dict(tflops=640.0, check=dict(ok=True)),
                 normal_same_work=dict(tflops=1000.0),
                 deepgemm_normal_same_work=dict(tflops=800.0, check=dict(ok=True)))),
        dict(type="grouped", layout="masked", groups=4, m=256, n=7168, k=2048, kind="drawn",
             tflops=700.0, ok=True, peers=dict(
                 deepgemm=dict(tflops=700.0, check=dict(ok=True)),
                 normal_same_work=dict(tflops=1000.0),
                 deepgemm_normal_same_work=dict(tflops=900.0, check=dict(ok=False)))),
        dict(type="grouped", layout="masked", groups=3, m=100, n=392, k=640, kind="random",
             ok=True),
    ]


class DeepGemmResults(unittest.TestCase):
    def test_render(self):
        text = deepgemm_results.render(bench_records(), grouped_records())
        self.assertIn("DeepGEMM 2.6.1, built on the GPU machine", text)
        self.assertIn("(NVIDIA H100, commit abc1234)", text)
        self.assertIn("| 64 | 2112 | 7168 | 150 | 120 | 1.25 |", text)
        self.assertIn("| 4096 | 7168 | 2048 | 1200 | wrong | - |", text)
        self.assertIn("| 7 | 256 | 512 | 5 | error | - |", text)
        self.assertIn("| masked | 4 | 256 | 7168 | 2048 | equal | 800 | 0.80 | 640 | 0.80 | 1.25 |",
                      text)
        # DeepGEMM's normal GEMM failed its comparison: no ratio to it.
        self.assertIn("| masked | 4 | 256 | 7168 | 2048 | x U(0.7,1.3) | 700 | 0.70 | 700 | - "
                      "| 1.00 |", text)
        self.assertIn("- shapes.csv, M <= 128: dgemm / DeepGEMM geomean 1.25 over 1 of 1 shapes",
                      text)
        self.assertIn("- shapes.csv, M > 128: dgemm / DeepGEMM geomean 1.30 over 1 of 2 shapes "
                      "(1 DeepGEMM wrong or failed)", text)
        self.assertIn("- other shapes: dgemm / DeepGEMM geomean - over 0 of 1 shapes", text)
        self.assertIn("- masked, equal sizes: dgemm / DeepGEMM geomean 1.25 over 1 of 1 shapes; "
                      "vs its own normal GEMM: dgemm 0.80 (1), DeepGEMM 0.80 (1)", text)
        self.assertIn("- masked, drawn sizes: dgemm / DeepGEMM geomean 1.00 over 1 of 1 shapes\n",
                      text)

    def test_reference_shapes_by_shape_not_source(self):
        recs = bench_records()
        recs[3]["source"] = "arg"   # 4096x4096x7168 given with --shapes
        text = deepgemm_results.render(recs, reference={(4096, 4096, 7168)})
        self.assertIn("- shapes.csv, M > 128: dgemm / DeepGEMM geomean 1.30 over 1 of 1", text)
        self.assertIn("- other shapes: dgemm / DeepGEMM geomean 1.25 over 1 of 3 shapes "
                      "(2 DeepGEMM wrong or failed)", text)
        self.assertIn((64, 2112, 7168), deepgemm_results.reference_shapes())

    def test_gen_results_deepgemm_runs(self):
        with tempfile.TemporaryDirectory() as tmp:
            main, run, out = (Path(tmp) / x for x in ("b.jsonl", "dg.jsonl", "R.md"))
            main.write_text("".join(json.dumps(r) + "\n" for r in [
                dict(type="meta", commit="abc1234"),
                dict(type="shape", index=0, source="csv", layout="normal", m=64, n=2112,
                     k=7168, us=10.0, tflops=150.0, ok=True, check=dict(ok=True))]))
            run.write_text("".join(json.dumps(r) + "\n" for r in bench_records()))
            grouped = Path(tmp) / "dg-grouped.jsonl"
            grouped.write_text("".join(json.dumps(r) + "\n" for r in grouped_records()))
            self.assertEqual(gen_results.main([str(main), "--out", str(out), "--svg", "",
                                               "--deepgemm-runs", str(run), str(grouped)]), 0)
            text = out.read_text()
            self.assertIn("Records: `dg.jsonl`, `dg-grouped.jsonl`.", text)
            self.assertIn("| 4096 | 4096 | 7168 | 1300 | 1000 | 1.30 |", text)
            # The grouped records of a run file make the grouped table.
            self.assertIn("| masked | 4 | 256 | 7168 | 2048 | equal | 800 | 0.80 | 640 | 0.80 | 1.25 |",
                          text)

    def test_version_error(self):
        recs = bench_records()
        recs[0]["deepgemm"] = dict(error="ModuleNotFoundError: No module named 'deep_gemm'")
        self.assertIn("DeepGEMM ModuleNotFoundError", deepgemm_results.render(recs))

    def test_gen_results_adds_the_section_only_with_a_peer(self):
        base = [dict(type="meta", commit="abc1234", device="NVIDIA H100"),
                dict(type="shape", index=0, source="csv", layout="normal", m=64, n=2112,
                     k=7168, us=10.0, tflops=150.0, ok=True, check=dict(ok=True),
                     peers=dict(cublas_per_tensor=dict(tflops=140.0))),
                dict(type="summary")]
        with tempfile.TemporaryDirectory() as tmp:
            def run(recs):
                src, out = Path(tmp) / "b.jsonl", Path(tmp) / "R.md"
                src.write_text("".join(json.dumps(r) + "\n" for r in recs))
                self.assertEqual(gen_results.main([str(src), "--out", str(out), "--svg", ""]), 0)
                return out.read_text()
            self.assertNotIn("## DeepGEMM in the same run", run(base))
            base[1]["peers"]["deepgemm"] = dict(tflops=100.0, check=dict(ok=True))
            text = run(base)
            self.assertIn("## DeepGEMM in the same run", text)
            self.assertIn("| 64 | 2112 | 7168 | 150 | 100 | 1.50 |", text)


if __name__ == "__main__":
    unittest.main()
