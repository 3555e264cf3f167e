#===- test_bias_results.py - the epilogue-fusion section of RESULTS.md ---===#
"""scripts/bias_results.py: rows, ratios, geomeans and failures from
run_bias.py records (no GPU, no torch)."""
import unittest

import _support  # noqa: F401  (puts scripts/ on sys.path)
import bias_results


def records():
    return [
        dict(type="meta", commit="abc1234", device="NVIDIA H100", date="2026-12-06"),
        dict(type="bias", m=4096, n=7168, k=2048, source="csv",
             config="#dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, "
             "multicast = none, math_warpgroups = 2, swizzle_group = 16, num_sms = 128>", check=dict(ok=True),
             dgemm_bias=dict(us=101.0, tflops=1190.0), dgemm=dict(us=100.0),
             dgemm_then_add=dict(us=120.0), torch_blockwise_then_add=dict(us=130.0),
             host_us=dict(bias_python=8.4, plain_python=8.1),
             torch_blockwise_bias=dict(error="bias not supported\nmore")),
        dict(type="bias", m=7, n=200, k=256, source="random", check=dict(ok=True)),
        dict(type="bias", m=9, n=16, k=128, source="random", error="boom",
             check=dict(ok=False)),
        dict(type="summary", passed=2, failed=1),
    ]


class BiasResults(unittest.TestCase):
    def test_render(self):
        text = bias_results.render(records(), "b.jsonl")
        self.assertIn("commit abc1234, NVIDIA H100", text)
        self.assertIn("| 4096 | 7168 | 2048 | 256x128 s3 | 101.0 | 1190 | 100.0 | 1.010 | 120.0 "
                      "| 130.0 | 1.29 | ok |", text)
        self.assertIn("Geomean over 1 shapes: time with the bias 1.010 x without it; 1.19 x "
                      "faster than the GEMM then an add; 1.29 x faster than torch blockwise then an add (1 "
                      "shapes).", text)
        self.assertIn("torch._scaled_mm blockwise refused a bias (bias not supported", text)
        self.assertIn("Host time of a cache-hit call through Python, median over 1 shapes: "
                      "8.4 µs with the bias, 8.1 µs without.", text)
        self.assertIn("Checks: 2 of 3 cases pass (2 random shapes", text)
        self.assertIn("**FAIL** M=9 N=16 K=128: boom", text)

    def test_torch_refused(self):
        recs = records()
        recs[1]["torch_blockwise_then_add"] = dict(error="Invalid scaling configuration.")
        text = bias_results.render(recs, "b.jsonl")
        self.assertIn("1.19 x faster than the GEMM then an add; torch blockwise then an add "
                      "did not run.", text)
        self.assertIn("torch._scaled_mm blockwise refused 1 shapes (Invalid scaling", text)

    def test_torch_bias_ran(self):
        recs = records()
        recs[1]["torch_blockwise_bias"] = dict(us=202.0)
        text = bias_results.render(recs, "b.jsonl")
        self.assertIn("with its own bias= ran on 1 shapes: geomean 2.00 x dgemm's time", text)


if __name__ == "__main__":
    unittest.main()
