#!/usr/bin/env python3
#===- compile_times.py - cold compile, warm start, warm-call overhead ----===#
"""Measures what the JIT costs a serving process, each figure in fresh
processes:

  python3 bench/compile_times.py --out compile-times.jsonl [--csv bench/shapes.csv]
         [--shapes "m,n,k;..."] [--limit N] [--host-calls 200]

Phases (one JSON line per kernel and phase, then a summary):

- ``cold``: per distinct kernel (the shapes are deduplicated by the config
  the runtime chooses), a new process with an empty DGEMM_CACHE_DIR of its
  own and ``CUDA_CACHE_DISABLE=1`` (no driver compute cache) times
  ``dgemm.prepare``: dgemm IR built -> PTX (``compile_ms``, the runtime's
  compiler, one-time MLIR set-up included, as a cold process pays it) ->
  module loaded by the driver's JIT (``load_ms``); ``prepare_ms`` is the
  wall time of the whole call. ``init_ms`` is what the process spent before
  (importing dgemm, loading libdgemm.so, cuInit and the context).
- ``batch``: one new process compiles every kernel in a row into an empty
  cache (what ``python -m dgemm warm`` does): ``compile_ms`` without the
  one-time set-up.
- ``warm``: per kernel, a new process over the cache the cold phase filled,
  still with ``CUDA_CACHE_DISABLE=1``: the PTX comes from disk, the driver
  JITs it again (``warm_driver_cache``: the same with the driver's compute
  cache on and already filled, as a restarted server has it).
- ``host``: one process with PyTorch: per kernel, after a first call, the
  median host time of a warm call through Python and of the bare C call
  (run_bench's ``Timer.host_us``: device idle before each call).

Without a GPU the cold/batch/warm phases still run (compile only:
``load_ms`` absent) and the host phase is recorded as skipped with the
reason. Children are this script with ``--child``; their records go to
stdout as JSON. scripts/gen_results.py renders the file (``--compile-times``)
into bench/RESULTS.md; scripts/device-run.sh runs it on the GPU machine.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run_bench  # noqa: E402  (shape lists, harness, commit id; stdlib only at import)

# Goals of issue 5: a cold compile under 0.5 s per kernel, a warm call's host
# overhead under 10 us.
GOAL_COLD_MS = 500.0
GOAL_HOST_US = 10.0


def info_fields(info):
    """dgemm.prepare's "k=v; k=v" text as a dict."""
    out = {}
    for part in (info or "").split("; "):
        k, sep, v = part.partition("=")
        if sep:
            out[k] = v
    return out


def _num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------------------
# Children
# ---------------------------------------------------------------------------

def child_prepare(shapes):
    """Times import + first contact with the runtime, then prepare per shape;
    prints one JSON record per shape."""
    t0 = time.perf_counter()
    dgemm = run_bench.import_dgemm()
    dgemm.library_path()
    dgemm.get_num_sms()  # driver, device and context, when there is a GPU
    init_ms = (time.perf_counter() - t0) * 1e3
    for i, (m, n, k) in enumerate(shapes):
        rec = dict(m=m, n=n, k=k)
        if i == 0:
            rec["init_ms"] = init_ms
        try:
            t = time.perf_counter()
            ms, info = dgemm.prepare(m, n, k)
            rec["prepare_ms"] = (time.perf_counter() - t) * 1e3
            f = info_fields(info)
            rec.update(compile_ms=ms, cache=f.get("cache"), kernel=f.get("kernel"),
                       config=f.get("config"), load_ms=_num(f.get("load_ms")),
                       registers=_num(f.get("registers")), device="device" not in f)
        except Exception as e:  # noqa: BLE001 - recorded
            rec["error"] = "%s: %s" % (type(e).__name__, e)
        print(json.dumps(run_bench.clean(rec)), flush=True)
    return 0


def child_host(shapes, calls):
    """Host overhead of warm calls, with PyTorch on a GPU."""
    try:
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("no GPU visible to PyTorch")
    except Exception as e:  # noqa: BLE001
        print(json.dumps({"skipped": "host phase needs PyTorch and a GPU: %s" % e}))
        return 0
    dgemm = run_bench.import_dgemm()
    timer = run_bench.Timer(torch, iters=1, warmup=0, flush_bytes=0)
    for i, (m, n, k) in enumerate(shapes):
        rec = dict(m=m, n=n, k=k)
        try:
            inp = run_bench.make_inputs(torch, dgemm, m, n, k, seed=i)
            d = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")
            lhs, rhs = (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"])
            call = lambda: dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d)  # noqa: E731
            t = time.perf_counter()
            call()
            torch.cuda.synchronize()
            rec["first_call_ms"] = (time.perf_counter() - t) * 1e3
            rec["host_us_python"] = timer.host_us(call, calls)
            rec["host_us_c"] = timer.host_us(
                dgemm.bind_gemm_fp8_fp8_bf16_nt(lhs, rhs, d, plain=True), calls)
            rec["host_us_c_bound"] = timer.host_us(
                dgemm.bind_gemm_fp8_fp8_bf16_nt(lhs, rhs, d), calls)
            rec["calls"] = calls
        except Exception as e:  # noqa: BLE001
            rec["error"] = "%s: %s" % (type(e).__name__, e)
        print(json.dumps(run_bench.clean(rec)), flush=True)
    return 0


# ---------------------------------------------------------------------------
# Parent
# ---------------------------------------------------------------------------

def spawn(kind, shapes, env, timeout, extra=()):
    """Runs a child; returns (records, error text or None)."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", kind,
           "--shapes", ";".join("%d,%d,%d" % s for s in shapes)] + list(extra)
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [], "timed out after %.0f s" % timeout
    recs = []
    for line in r.stdout.splitlines():
        try:
            recs.append(json.loads(line))
        except ValueError:
            pass
    err = None if r.returncode == 0 else "exit %d: %s" % (
        r.returncode, (r.stderr.strip().splitlines() or ["?"])[-1][:300])
    return recs, err


def child_env(cache_dir, driver_cache=None):
    env = dict(os.environ)
    for k in ("DGEMM_DISABLE_CACHE", "DGEMM_DUMP_IR", "DGEMM_LOG", "DGEMM_PRINT_CONFIGS"):
        env.pop(k, None)
    env["DGEMM_CACHE_DIR"] = str(cache_dir)
    if driver_cache is None:
        env["CUDA_CACHE_DISABLE"] = "1"
    else:
        env.pop("CUDA_CACHE_DISABLE", None)
        env["CUDA_CACHE_PATH"] = str(driver_cache)
    py = str(HERE.parent / "python")
    env["PYTHONPATH"] = py + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def distinct_kernels(shapes):
    """The shapes, one per config the runtime chooses (first wins), with the
    config text."""
    dgemm = run_bench.import_dgemm()
    seen, out = set(), []
    for m, n, k in shapes:
        cfg = dgemm.config(m, n, k)
        if (n, k, cfg) not in seen:
            seen.add((n, k, cfg))
            out.append(((m, n, k), cfg))
    return out


def median(xs):
    xs = [x for x in xs if isinstance(x, (int, float))]
    return statistics.median(xs) if xs else None


def summarize(recs):
    def of(phase, key):
        return [r.get(key) for r in recs if r.get("phase") == phase and not r.get("error")]

    cold_total = [r["compile_ms"] + (r.get("load_ms") or 0.0) for r in recs
                  if r.get("phase") == "cold" and isinstance(r.get("compile_ms"), (int, float))]
    s = {"type": "summary",
         "kernels": sum(1 for r in recs if r.get("phase") == "cold"),
         "cold_compile_ms_median": median(of("cold", "compile_ms")),
         "cold_compile_ms_max": max([x for x in of("cold", "compile_ms") if x is not None],
                                    default=None),
         "cold_load_ms_median": median(of("cold", "load_ms")),
         "cold_total_ms_median": median(cold_total),
         "cold_total_ms_max": max(cold_total, default=None),
         "cold_prepare_ms_median": median(of("cold", "prepare_ms")),
         "cold_init_ms_median": median(of("cold", "init_ms")),
         "batch_compile_ms_median": median(of("batch", "compile_ms")),
         "warm_prepare_ms_median": median(of("warm", "prepare_ms")),
         "warm_driver_cache_prepare_ms_median": median(of("warm_driver_cache", "prepare_ms")),
         "host_us_python_median": median(of("host", "host_us_python")),
         "host_us_c_median": median(of("host", "host_us_c")),
         "host_us_c_bound_median": median(of("host", "host_us_c_bound")),
         "errors": sum(1 for r in recs if r.get("error"))}
    if s["cold_total_ms_max"] is not None:
        s["goal_cold_under_ms"] = GOAL_COLD_MS
        s["goal_cold_met"] = s["cold_total_ms_max"] < GOAL_COLD_MS
    if s["host_us_python_median"] is not None:
        s["goal_host_under_us"] = GOAL_HOST_US
        s["goal_host_met"] = s["host_us_python_median"] < GOAL_HOST_US
    return s


def run(args):
    shapes = []
    if not args.no_csv:
        shapes += [(s["m"], s["n"], s["k"]) for s in run_bench.read_shapes(args.csv)]
    if args.shapes:
        shapes += [(s["m"], s["n"], s["k"]) for s in run_bench.parse_shapes_arg(args.shapes)]
    kernels = distinct_kernels(shapes)
    if args.limit:
        kernels = kernels[:args.limit]
    if not kernels:
        print("compile_times: no shapes", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="dgemm-compile-times-"))
    out = open(args.out, "w") if args.out else None
    recs = []

    def emit(rec):
        rec = run_bench.clean(rec)
        recs.append(rec)
        if out:
            out.write(json.dumps(rec) + "\n")
            out.flush()

    dgemm = run_bench.import_dgemm()
    emit({"type": "meta", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
          "commit": run_bench.commit_id(), "lib": str(dgemm.library_path()),
          "lib_sha256": run_bench.sha256_file(dgemm.library_path()),
          "python": sys.version.split()[0], "kernels": len(kernels),
          "env": {"CUDA_CACHE_DISABLE": "1 (cold, batch, warm)"}})
    try:
        for i, ((m, n, k), cfg) in enumerate(kernels):
            cache = work / ("cache-%d" % i)
            got, err = spawn("prepare", [(m, n, k)], child_env(cache), args.timeout)
            rec = dict(got[0]) if got else dict(m=m, n=n, k=k)
            rec.update(type="kernel", phase="cold", config=rec.get("config") or cfg)
            if err:
                rec["error"] = rec.get("error") or err
            emit(rec)
            print("cold  [%d/%d] M=%d N=%d K=%d  compile %s ms  load %s ms  (process init %s ms)"
                  % (i + 1, len(kernels), m, n, k, run_bench._fmt(rec.get("compile_ms"), 1),
                     run_bench._fmt(rec.get("load_ms"), 1),
                     run_bench._fmt(rec.get("init_ms"), 0)), flush=True)
        got, err = spawn("prepare", [s for s, _ in kernels], child_env(work / "batch"),
                         args.timeout * len(kernels))
        for rec in got:
            rec.update(type="kernel", phase="batch")
            emit(rec)
        if err:
            emit({"type": "kernel", "phase": "batch", "error": err})
        print("batch %d kernels in one process: compile %s ms median" % (
            len(got), run_bench._fmt(median([r.get("compile_ms") for r in got]), 1)), flush=True)
        for i, ((m, n, k), cfg) in enumerate(kernels):
            cache = work / ("cache-%d" % i)
            for phase, driver in (("warm", None), ("warm_driver_cache", work / ("nv-%d" % i))):
                if driver is not None:  # fill the driver's cache first
                    spawn("prepare", [(m, n, k)], child_env(cache, driver), args.timeout)
                got, err = spawn("prepare", [(m, n, k)], child_env(cache, driver), args.timeout)
                rec = dict(got[0]) if got else dict(m=m, n=n, k=k)
                rec.update(type="kernel", phase=phase, config=rec.get("config") or cfg)
                if err:
                    rec["error"] = rec.get("error") or err
                emit(rec)
            print("warm  [%d/%d] M=%d N=%d K=%d  prepare %s ms (%s), with the driver cache %s ms"
                  % (i + 1, len(kernels), m, n, k,
                     run_bench._fmt(recs[-2].get("prepare_ms"), 2), recs[-2].get("cache"),
                     run_bench._fmt(recs[-1].get("prepare_ms"), 2)), flush=True)
        got, err = spawn("host", [s for s, _ in kernels], child_env(work / "host"),
                         args.timeout * len(kernels), ["--host-calls", str(args.host_calls)])
        if got and got[0].get("skipped"):
            emit({"type": "kernel", "phase": "host", "skipped": got[0]["skipped"]})
            print("host  skipped: %s" % got[0]["skipped"])
        else:
            for rec in got:
                rec.update(type="kernel", phase="host")
                emit(rec)
            if err:
                emit({"type": "kernel", "phase": "host", "error": err})
            print("host  warm call: %s us through Python, %s us bare C (medians)" % (
                run_bench._fmt(median([r.get("host_us_python") for r in got]), 1),
                run_bench._fmt(median([r.get("host_us_c") for r in got]), 1)))
        s = summarize(recs)
        emit(s)
        print("summary: " + json.dumps(s))
    finally:
        if out:
            out.close()
        shutil.rmtree(work, ignore_errors=True)
    return 1 if s.get("errors") else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, help="JSON lines output file")
    ap.add_argument("--csv", type=Path, default=run_bench.DEFAULT_CSV)
    ap.add_argument("--no-csv", action="store_true")
    ap.add_argument("--shapes", default="", help='extra shapes "m,n,k;m,n,k"')
    ap.add_argument("--limit", type=int, default=0, help="only the first N distinct kernels")
    ap.add_argument("--host-calls", type=int, default=200)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per child and kernel")
    ap.add_argument("--child", choices=("prepare", "host"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        shapes = [(s["m"], s["n"], s["k"]) for s in run_bench.parse_shapes_arg(args.shapes)]
        return child_prepare(shapes) if args.child == "prepare" else \
            child_host(shapes, args.host_calls)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
