import sys, time, threading, os, re
sys.path.insert(0, "bench")
import ab_masked_gap as A, run_grouped, sweep_grouped, run_bench
import torch
def watchdog():
    time.sleep(140); print("WATCHDOG: still running after 140 s", flush=True); os._exit(3)
threading.Thread(target=watchdog, daemon=True).start()
dgemm = run_bench.import_dgemm()
drawn = {(s["layout"], s["groups"], s["m"], s["n"], s["k"]): sz for s, sz in run_grouped.reference_cases(1) if s["kind"] == "drawn"}
shape = [s for s in run_grouped.read_grouped_shapes() if s["layout"] == "masked" and s["groups"] == 4 and s["k"] == 2048][0]
sizes = drawn[("masked", 4, 256, 7168, 2048)]
config = sweep_grouped.selected_config(shape)
text = sweep_grouped.grouped_ir(shape, config)
base = None
for edit in sys.argv[1].split(";"):
    fields, _, opts = edit.partition("@")
    ed = config
    for f, v in (x.split("=") for x in fields.split(",")):
        ed = re.sub(r"\b%s = \w+" % f, "%s = %s" % (f, v), ed)
    t = time.time()
    ir = A.lower(text.replace(config, ed), opts)
    if base is None:
        base = A.Grouped(torch, dgemm, shape, ir, seed=31, sizes=sizes)
    r = base.with_ir(ir)
    print("launching", edit, flush=True)
    r.check()
    print("checked %s in %.1f s" % (edit, time.time() - t), flush=True)
    ts = [run_bench.Timer(torch, iters=15, warmup=3).time(r.call)["us"] for _ in range(2)]
    print("  %.1f us -> %.0f TFLOPS" % (min(ts), r.flops / min(ts) / 1e6), flush=True)
