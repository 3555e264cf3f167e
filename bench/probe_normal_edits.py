#!/usr/bin/env python3
"""Launches and checks the normal GEMM M x N x K once per #dgemm.config edit
(sets separated by ';', fields by ','), printing before and after each launch,
with a watchdog: which config, if any, does not finish.

  PYTHONPATH=python python3 bench/probe_normal_edits.py M N K 'block_m=128,stages=5;...'
"""
import os
import re
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ab_masked_gap as A  # noqa: E402
import run_bench  # noqa: E402

BASE = ("#dgemm.config<block_m = 256, block_n = 128, stages = 3, cluster = 1, multicast = none, "
        "math_warpgroups = 2, swizzle_group = 16, num_sms = 112>")


def main():
    m, n, k = (int(x) for x in sys.argv[1:4])
    import torch
    dgemm = run_bench.import_dgemm()

    def watchdog():
        time.sleep(float(os.environ.get("WATCHDOG_S", "60")))
        print("WATCHDOG: a launch did not finish", flush=True)
        os._exit(3)
    threading.Thread(target=watchdog, daemon=True).start()
    base = None
    for edit in [e for e in sys.argv[4].split(";") if e]:
        cfg = BASE
        for f, v in (x.split("=") for x in edit.split(",")):
            cfg = re.sub(r"\b%s = \w+" % f, "%s = %s" % (f, v), cfg)
        ir = A.lower(A.normal_ir(m, n, k, cfg))
        if base is None:
            base = A.Normal(torch, dgemm, m, n, k, ir, seed=41)
        r = base.with_ir(ir)
        print("launching %s" % edit, flush=True)
        r.check()
        print("  checked", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
