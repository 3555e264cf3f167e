#===- test_compile_times.py - bench/compile_times.py and its section -----===#
"""bench/compile_times.py over the built library (no GPU needed: compile
only; the host phase is skipped with its reason, or measured where PyTorch
sees a GPU): shapes collapse to distinct kernels, each phase has the cache
source it should, the summary and goal flags; and the RESULTS.md section
gen_results.py renders from the records."""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import _support as S

import compile_times as ct
import gen_results


class Summary(unittest.TestCase):
    def test_goals(self):
        recs = [dict(type="kernel", phase="cold", m=1, n=8, k=128, compile_ms=300.0,
                     load_ms=250.0),
                dict(type="kernel", phase="cold", m=2, n=8, k=128, compile_ms=40.0,
                     load_ms=60.0),
                dict(type="kernel", phase="host", m=1, n=8, k=128, host_us_python=12.0,
                     host_us_c=5.0)]
        s = ct.summarize(recs)
        self.assertEqual(s["kernels"], 2)
        self.assertEqual(s["cold_total_ms_max"], 550.0)
        self.assertFalse(s["goal_cold_met"])     # 550 ms > 500 ms
        self.assertFalse(s["goal_host_met"])     # 12 us > 10 us
        recs[0]["load_ms"] = 100.0
        recs[2]["host_us_python"] = 8.0
        s = ct.summarize(recs)
        self.assertTrue(s["goal_cold_met"] and s["goal_host_met"])
        self.assertNotIn("goal_host_met", ct.summarize(recs[:2]))

    def test_info_fields(self):
        self.assertEqual(ct.info_fields("config=#dgemm.config<a = 1, b = 2>; cache=disk; "
                                        "load_ms=0.5"),
                         {"config": "#dgemm.config<a = 1, b = 2>", "cache": "disk",
                          "load_ms": "0.5"})


class OnRealLibrary(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        path, why = S.find_real_library()
        if path is None:
            raise unittest.SkipTest(why)
        cls.lib = path

    def test_run(self):
        import os
        out = Path(tempfile.mkdtemp(prefix="dgemm-ct-")) / "ct.jsonl"
        env = dict(os.environ, DGEMM_LIB=str(self.lib), PYTHONPATH=str(S.PYTHON_DIR))
        r = subprocess.run([sys.executable, str(S.ROOT / "bench" / "compile_times.py"),
                            "--no-csv", "--shapes", "256,2112,1024;255,2112,1024;64,2112,1024",
                            "--out", str(out), "--host-calls", "20"],
                           env=env, capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        recs = [json.loads(l) for l in out.read_text().splitlines()]
        self.assertEqual(recs[0]["type"], "meta")
        self.assertEqual(recs[-1]["type"], "summary")
        by = {}
        for rec in recs:
            if rec.get("type") == "kernel" and "m" in rec:
                by.setdefault(rec["phase"], []).append(rec)
        # 255 and 256 share a kernel: two distinct kernels.
        self.assertEqual([(x["m"], x["n"], x["k"]) for x in by["cold"]],
                         [(256, 2112, 1024), (64, 2112, 1024)])
        for x in by["cold"]:
            self.assertEqual(x["cache"], "compiled", x)
            self.assertGreater(x["compile_ms"], 0)
            self.assertGreaterEqual(x["prepare_ms"], x["compile_ms"])
            self.assertIn("init_ms", x)
            self.assertTrue(x["kernel"].startswith("dgemm_gemm_n2112_k1024_"), x)
        self.assertNotEqual(by["cold"][0]["kernel"], by["cold"][1]["kernel"])
        self.assertEqual([x["cache"] for x in by["batch"]], ["compiled", "compiled"])
        for phase in ("warm", "warm_driver_cache"):
            self.assertEqual([(x["cache"], x["compile_ms"]) for x in by[phase]],
                             [("disk", 0.0), ("disk", 0.0)], phase)
        host = [rec for rec in recs if rec.get("phase") == "host"]
        self.assertTrue(host)
        if host[0].get("skipped"):
            self.assertIn("host phase needs PyTorch and a GPU", host[0]["skipped"])
        else:
            self.assertGreater(host[0]["host_us_python"], 0)
        s = recs[-1]
        self.assertEqual((s["kernels"], s["errors"]), (2, 0))
        self.assertIn("goal_cold_met", s)
        text = "\n".join(gen_results.render_compile_times(recs))
        self.assertIn("## Compile times (bench/compile_times.py)", text)
        self.assertIn("| 256 | 2112 | 1024 | `%s` |" % by["cold"][0]["kernel"], text)
        self.assertIn("Medians over 2 kernels: cold compile", text)


if __name__ == "__main__":
    unittest.main()
