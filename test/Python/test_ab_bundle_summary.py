#===- test_ab_bundle_summary.py - scripts/ab_bundle_summary.py ----------===#
"""Medians, ratios and the same-process reference geomean of a two-bundle
A/B directory (no GPU)."""
import json
import os
import tempfile
import unittest

import _support  # noqa: F401  (puts scripts/ on sys.path)
import ab_bundle_summary as S


def write(d, name, recs):
    with open(os.path.join(d, name), "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")


def case(tflops, ref):
    return dict(kind="k_grouped", m=64, n=128, groups=2, dgemm=dict(tflops=tflops),
                wgrad_same_work=dict(tflops=ref))


class Summary(unittest.TestCase):
    def test_summary(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "base-1.jsonl", [dict(kind="meta"), case(100.0, 200.0)])
            write(d, "base-2.jsonl", [case(120.0, 200.0)])
            write(d, "new-1.jsonl", [case(121.0, 220.0), dict(kind="k_grouped", m=1, ok=True)])
            write(d, "new-2.jsonl", [case(143.0, 220.0)])
            write(d, "p3-1.jsonl", [case(90.0, 200.0)])
            write(d, "base-1.log", [])
            lines = S.summarise(S.load(d), "wgrad_same_work")
        self.assertEqual(len(lines), 2)
        self.assertIn("k_grouped 64 128 2 base [100, 120] new [121, 143] new/base 1.200 p3 [90] p3/base 0.818", lines[0])
        self.assertIn("vs wgrad_same_work: base 0.550 new 0.600 p3 0.450", lines[0])
        self.assertIn("base 0.548 new 0.598", lines[1])

    def test_run_bench_records(self):
        # run_bench.py's shape records: tflops at the top, no "dgemm" key;
        # a failed shape (no tflops) and its meta record are not timed cases.
        def shape(tflops):
            return dict(type="shape", layout="normal", m=4096, n=2112, k=7168,
                        tflops=tflops)
        with tempfile.TemporaryDirectory() as d:
            write(d, "base-1.jsonl", [dict(type="meta", tflops=5.0), shape(1000.0)])
            write(d, "new-1.jsonl", [shape(1010.0), dict(type="shape", m=1, n=1, k=1)])
            lines = S.summarise(S.load(d))
        self.assertEqual(lines, ["normal 4096 2112 7168 base [1000] new [1010] new/base 1.010"])

    def test_grouped_records(self):
        # run_grouped.py: equal and drawn sizes of one shape are two cases;
        # the same-work normal GEMM is a dotted reference.
        def grouped(kind, tflops, normal):
            return dict(type="grouped", layout="masked", kind=kind, groups=4, m=256,
                        n=7168, k=2048, tflops=tflops,
                        peers=dict(normal_same_work=dict(tflops=normal)))
        with tempfile.TemporaryDirectory() as d:
            write(d, "base-1.jsonl", [grouped("equal", 800.0, 1000.0),
                                      grouped("drawn", 700.0, 1000.0)])
            write(d, "new-1.jsonl", [grouped("equal", 880.0, 1000.0),
                                     grouped("drawn", 770.0, 1100.0)])
            lines = S.summarise(S.load(d), "peers.normal_same_work")
        self.assertEqual(lines[:2], [
            "masked equal 256 7168 2048 4 base [800] new [880] new/base 1.100"
            " vs peers.normal_same_work: base 0.800 new 0.880",
            "masked drawn 256 7168 2048 4 base [700] new [770] new/base 1.100"
            " vs peers.normal_same_work: base 0.700 new 0.700"])

    def test_subject(self):
        # run_bias.py: the bias call (dgemm_bias) is the subject, the same
        # GEMM without it (dgemm) the reference.
        def bias(with_bias, plain):
            return dict(type="bias", m=4096, n=32768, k=512,
                        dgemm_bias=dict(tflops=with_bias), dgemm=dict(tflops=plain))
        with tempfile.TemporaryDirectory() as d:
            write(d, "base-1.jsonl", [bias(800.0, 1000.0)])
            write(d, "new-1.jsonl", [bias(900.0, 1000.0)])
            lines = S.summarise(S.load(d, "dgemm_bias"), "dgemm", "dgemm_bias")
        self.assertEqual(lines[0], "4096 32768 512 base [800] new [900] new/base 1.125"
                         " vs dgemm: base 0.800 new 0.900")

    def test_no_pairs(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "base-1.jsonl", [case(100.0, 200.0)])
            self.assertEqual(S.summarise(S.load(d)), [])


if __name__ == "__main__":
    unittest.main()
