#!/usr/bin/env python3
#===- probe_masked_edits.py - one masked shape, config edits one by one -----===#
"""Launches the masked G=4 m=256 N=7168 K=2048 shape with the benchmark's
drawn group sizes once per #dgemm.config edit, in turn: check against the
float reference, then twice 15 timed launches after 3 warm-up ones
(run_bench's harness, the smaller median), printing
before and after each, under a watchdog (WATCHDOG_S, default 140 s) that
ends the process when a launch does not return. Where bench/ab_masked_gap.py
alternates every variant in rounds, this tells which one hangs, and gives
each one's time alone.

  DGEMM_OPT=.../dgemm-opt PYTHONPATH=python python3 bench/probe_masked_edits.py \\
      'num_sms=132;block_m=128,stages=5,lower.masked-walk=cost'

Edits are separated by ';', fields by ','; a field lower.<option>=<value> is a
dgemm-lower-to-kernel option (sweep.edit_config).
"""
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ab_masked_gap  # noqa: E402
import run_bench  # noqa: E402
import run_grouped  # noqa: E402
import sweep  # noqa: E402
import sweep_grouped  # noqa: E402


def main(argv):
    import torch
    limit = float(os.environ.get("WATCHDOG_S", "140"))

    def watchdog():
        time.sleep(limit)
        print("WATCHDOG: still running after %.0f s" % limit, flush=True)
        os._exit(3)
    threading.Thread(target=watchdog, daemon=True).start()
    dgemm = run_bench.import_dgemm()
    key = ("masked", 4, 256, 7168, 2048)
    sizes = {(s["layout"], s["groups"], s["m"], s["n"], s["k"]): sz
             for s, sz in run_grouped.reference_cases(1) if s["kind"] == "drawn"}[key]
    shape = [s for s in run_grouped.read_grouped_shapes()
             if (s["layout"], s["groups"], s["m"], s["n"], s["k"]) == key][0]
    config = sweep_grouped.selected_config(shape)
    text = sweep_grouped.grouped_ir(shape, config)
    base = None
    for edit in [e for e in argv[0].split(";") if e]:
        edited, options = sweep.edit_config(config, edit)
        ir = ab_masked_gap.lower(text.replace(config, edited), options)
        if base is None:
            base = ab_masked_gap.Grouped(torch, dgemm, shape, ir, seed=31, sizes=sizes)
        run = base.with_ir(ir)
        print("launching", edit, flush=True)
        run.check()
        times = [run_bench.Timer(torch, iters=15, warmup=3).time(run.call)["us"]
                 for _ in range(2)]
        print("  %.1f us -> %.0f TFLOPS" % (min(times), run.flops / min(times) / 1e6), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
