#===- test_wgrad_results.py - the weight-gradient section of RESULTS.md --===#
"""scripts/wgrad_results.py: rows, ratios, geomeans and failures from
run_wgrad.py records (no GPU, no torch)."""
import unittest

import _support  # noqa: F401  (puts scripts/ on sys.path)
import wgrad_results


def records():
    return [
        dict(kind="meta", commit="abc1234", device="NVIDIA H200", date="2026-12-01"),
        dict(kind="wgrad", m=4096, n=7168, k=4096, ok=True,
             dgemm=dict(tflops=800.0), dgemm_normal_bf16=dict(tflops=1200.0),
             torch_1x128_both=dict(tflops=1000.0)),
        dict(kind="wgrad", m=7, n=24, k=256, ok=True),
        dict(kind="wgrad", m=9, n=16, k=128, ok=False, error="boom"),
        dict(kind="k_grouped", m=4096, n=7168, ks=[4096, 0], groups=2, ok=True,
             dgemm=dict(tflops=720.0), wgrad_same_work=dict(tflops=800.0)),
        dict(kind="k_grouped", m=64, n=8, ks=[0, 128], groups=2, ok=True),
        dict(kind="summary", cases=5, failed=1),
    ]


class WgradResults(unittest.TestCase):
    def test_render(self):
        text = wgrad_results.render(records(), "w.jsonl")
        self.assertIn("commit abc1234", text)
        self.assertIn("| 4096 | 7168 | 4096 | 800 | 1200 | 0.67 | 1000 | 0.80 | ok |", text)
        self.assertIn("| 4096 | 7168 | 2 | 4096,0 | 720 | 800 | 0.90 | ok |", text)
        self.assertIn("Geomean over 1 shapes: 0.67 x the normal bf16 GEMM, 0.80 x torch", text)
        self.assertIn("Checks: 2 of 3 cases pass (2 of them small shapes", text)
        self.assertIn("empty groups (2 in all", text)
        self.assertIn("**FAIL** wgrad M=9 N=16 128: boom", text)
        self.assertNotIn("wgrad loop", text)

    def test_loop_column(self):
        recs = records()
        recs[4]["wgrad_loop"] = dict(tflops=600.0)
        text = wgrad_results.render(recs, "w.jsonl")
        self.assertIn("| vs same work | wgrad loop TFLOPS | vs loop | check |", text)
        self.assertIn("| 4096 | 7168 | 2 | 4096,0 | 720 | 800 | 0.90 | 600 | 1.20 | ok |", text)
        self.assertIn("Geomean vs the host loop of weight-gradient GEMMs: 1.20.", text)


if __name__ == "__main__":
    unittest.main()
