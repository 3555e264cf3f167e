#!/usr/bin/env python3
#===- run_bench.py - check and time dgemm against its peers on the GPU ---===#
"""Checks and times dgemm's normal FP8 GEMM on the GPU machine, with its peers
measured in the same run by the same harness.

  python3 bench/run_bench.py --out bench.jsonl [--random 40] [--seed 1]
  python3 bench/run_bench.py --sanitize          # 6 small shapes, check only
  python3 bench/run_bench.py --prepare-only --out warm.jsonl   # warm start
  python3 bench/run_bench.py --table-from bench.jsonl          # print table

Needs PyTorch with CUDA and libdgemm.so (``$DGEMM_LIB``); ``python/`` is put
on ``sys.path`` when ``dgemm`` is not importable. Nothing but the standard
library is imported at module level, so the CPU tests can import the pure
helpers (shape lists, units, table) without torch.

Shapes: the ``normal`` rows of bench/shapes.csv (DeepSeek-V3), then
``--random N`` seeded shapes: M in 1..8192 (half uniform, half log-uniform,
so small M is well covered), N a multiple of 16 up to 32768, K a multiple of
128 up to 16384.

Inputs (fresh per shape, seeded): A [M, K] and B [N, K] are standard normal
values times 2^e per scale block (each 1x128 block of A: a row, 128 K; each
128x128 block of B), then quantized with per_token_cast_to_fp8 /
per_block_cast_to_fp8, so the block scales span 2^-8..2^8 (times 1/448).
The exponent is the sum of a part per row of A / per 128-row block of B,
uniform in -6..6, and a part per K block, uniform in -2..2. So a kernel that
applies a scale of the wrong row or N block is off by orders of magnitude,
and one that applies the scale of the wrong K block is off by a factor of
2^-4..2^4 in that block's share. (Exponents independent per block over the
full -8..8 would hide most K-block errors: for most elements one or two K
blocks outweigh the rest by 2^10 or more, and an error in the others stays
below any sensible tolerance; test_bench.py checks that a wrong K block
fails.)

Check of dgemm's output D (and, the same way, torch's blockwise output):
- D is allocated inside a larger buffer with 8 KiB guards before and after,
  filled with a random bit pattern, and D itself is filled with NaN before
  the call. After it: the guards must be unchanged (no stray writes) and no
  NaN/Inf may remain (every element written).
- Reference: A and B dequantized in float64 (FP8 value x scale, exact), then
  ``ref = A·Bᵀ`` and ``rms = sqrt((A∘A)·(B∘B)ᵀ)`` in float64 on the GPU.
  ``rms[i, j]`` is the size of the products summed into element (i, j): the
  typical magnitude of D[i, j] for random signs, and the scale of any
  accumulation error.
- ``calc_diff(D, ref) < 1e-3`` (DeepGEMM's global metric), AND elementwise
  ``|D - ref| <= 1e-2·|ref| + 2e-2·rms`` for every element. Why these bounds:
  rounding the f32 result to bf16 costs at most 2^-8 = 3.9e-3 relative
  (1e-2 leaves a 2.5x margin); FP8 wgmma accumulates each 128-long K block
  with limited precision (~2^-13 of the block's terms) before the f32
  promotion, which stays far below 2e-2·rms. A missing or misplaced tile, a
  wrong scale block, or a dropped K block holding more than ~1/2500 of an
  element's energy exceeds it. A global metric alone would miss one bad
  128x128 tile in a 4096x7168 output (0.06% of the elements), so every
  element is checked; the last 256 rows and columns (partial tiles) and the
  last row/column are also reported separately.
- The guards are checked again after all the timed calls.
- D must equal, bit for bit, a second call fed the row-major A-scale tensor
  (which the Python layer copies into the TMA layout): the copy path works
  and the kernel is deterministic (a moving result is a race).

Timing, identical for dgemm and every peer: ``warmup`` calls, then ``iters``
(30) calls, each preceded by a 1 GiB memset (flushes the 50 MB L2 so every
call reads its inputs from HBM) and bracketed by CUDA events recorded on the
current stream right before and after the call; the median of the event
times is reported (plus min/max). TFLOPS = 2·M·N·K / median; GB/s = (bytes of
A, B, their scales and D, each moved once) / median. Because the host issues
the call while the memset runs, launch overhead is hidden except for the gap
the GPU sees between the two kernels (~3-4 us, as in PEERS.md). dgemm and
its peers are timed in turn, ``--rounds`` (3) times, and each reports the
median of its rounds' medians: timed one after the other, whichever ran
first after a pause had the higher clocks (the 700 W power cap throttles a
long run of heavy calls: 178 -> 200 us at 4096x4096x7168 after 4096x7168x
16384 on an H100, bench/results/2026-12-06-db99fd0-powercap-h100-*), which
until f6c0c2c was always dgemm.
Peers: ``torch._scaled_mm`` with DeepSeek blockwise scales (scale_a
[M, K/128] with strides (1, M), scale_b = sfb.t(); cuBLASLt 1x128 x 128x128),
and ``torch._scaled_mm`` with scalar f32 scales (cuBLAS FP8 per-tensor: a
speed reference for a plain FP8 GEMM, not a numerical peer). torch's
blockwise output goes through dgemm's check; where it fails, its time is kept
in the record but shown as "wrong" and left out of every ratio (with PyTorch
2.11 that is every shape with K/128 not a multiple of 4:
bench/probe_torch_scale_layout.py).

Compile and host costs per shape:
- ``compile_ms``: what ``dgemm_gemm_prepare`` reports for the shape's kernel
  (0 when an earlier shape with the same config already compiled it; run
  with an empty DGEMM_CACHE_DIR, and CUDA_CACHE_PATH for a cold driver JIT,
  as scripts/device-run.sh does; ``prepare_info`` has the runtime's
  ``load_ms`` of the driver JIT), ``prepare_wall_ms`` the
  wall time of that call, ``first_call_ms`` the wall time of the first
  launch including a synchronize.
- ``host_us``: host time of one cache-hit call, median of ``--host-calls``
  calls: before each call the device is synchronized (so the launch never
  waits for a full queue), then ``time.perf_counter_ns`` is read immediately
  before and after the call; the sync is outside the interval. Reported for
  the full Python call (argument checks, ctypes structs, C API: config
  lookup, cache hit, tensor maps, cuLaunchKernelEx), for the bare C call on
  prebuilt structs (``bind_gemm_fp8_fp8_bf16_nt(plain=True)``), for the C
  bound call (``bind_gemm_fp8_fp8_bf16_nt``: one cuLaunchKernelEx on
  parameters encoded once), and for torch's blockwise
  ``_scaled_mm`` as a comparison.

Output: JSON lines to ``--out``: a ``meta`` record (date, commit, device,
versions, library hash, arguments), one ``shape`` record per shape (shape,
config, us, tflops, gbps, check, peers, host_us, compile times, error), and
a ``summary`` record; non-finite floats are written as strings "nan"/"inf".
A table is printed last. Exit status: 0 if every dgemm check passed, 1 if
any failed or raised, 2 if the library could not be used, 3 if a shape hung
(watchdog: ``--shape-timeout``).
"""
import argparse
import csv
import datetime
import hashlib
import json
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CSV = ROOT / "bench" / "shapes.csv"

RTOL = 1e-2          # times |ref|
ATOL_RMS = 2e-2      # times rms (sqrt of the sum of squared products)
CALC_DIFF_MAX = 1e-3
GUARD_ELEMS = 4096   # bf16 elements of guard on each side of D (8 KiB)
EDGE = 256           # rows / columns reported separately at the far edges
ROW_SPREAD = 6       # scale exponent: a part per row / N block in -6..6 ...
BLOCK_SPREAD = 2     # ... plus a part per K block in -2..2
# The third takes block M 256 (ragged last M block, 3 K blocks on 3 stages).
# (64, 2112, 7296): block M 64 with an odd number of K blocks (a shape that
# dgemm-lower-to-kernel{consumer-k-split=auto} splits). (20, 2112, 7296): A's
# TMA box cut to 24 rows (a_box_rows), which reads 4 rows past A's last one.
SANITIZE_SHAPES = [(130, 392, 640), (300, 2112, 1536), (1000, 4096, 384), (64, 2112, 7296),
                   (20, 2112, 7296), (2048, 2112, 1024)]
# (2048, 2112, 1024): 128x192 with two consumers that store their own rows,
# 176 tiles on 88 CTAs: a CTA's second tile copies its B scales while the
# other warpgroup may still read the first's (the race fixed in 18fd189,
# docs/kernel.md "Structure").
DEVICE = "cuda"      # where tensors are made (the CPU harness test sets "cpu")
# The peers a shape record may time, in the order they are reported.
PEERS = ("torch_blockwise", "cublas_per_tensor", "deepgemm")


def error_text(e):
    """An exception as a record's "error": its type and the first line of
    its message (300 characters at most; an empty message stays empty)."""
    return "%s: %s" % (type(e).__name__, (str(e).strip().splitlines() or [""])[0][:300])


# ---------------------------------------------------------------------------
# Pure helpers (no torch): shapes, units, config text, the table.
# ---------------------------------------------------------------------------

def ceil_div(a, b):
    return (a + b - 1) // b


def read_shapes(path=DEFAULT_CSV, layouts=("normal",)):
    """The rows of a shapes CSV (``layout,groups,m,n,k``; ``#`` comments)
    whose layout is in ``layouts``, as dicts with source ``csv``."""
    lines = [ln for ln in Path(path).read_text().splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]
    out = []
    for row in csv.DictReader(lines):
        if row["layout"].strip() in layouts:
            out.append(dict(source="csv", layout=row["layout"].strip(),
                            m=int(row["m"]), n=int(row["n"]), k=int(row["k"])))
    return out


def random_shapes(count, seed):
    """``count`` reproducible shapes: M in 1..8192 (even draws uniform, odd
    draws log-uniform), N = 16·U(1..2048), K = 128·U(1..128)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 2 == 0:
            m = rng.randint(1, 8192)
        else:
            m = min(8192, max(1, int(round(2.0 ** rng.uniform(0.0, 13.0)))))
        n = 16 * rng.randint(1, 2048)
        k = 128 * rng.randint(1, 128)
        out.append(dict(source="random", layout="normal", m=m, n=n, k=k))
    return out


def parse_shapes_arg(text):
    """``"m,n,k;m,n,k"`` -> shapes with source ``arg``."""
    out = []
    for part in text.replace(" ", "").split(";"):
        if part:
            m, n, k = (int(v) for v in part.split(","))
            out.append(dict(source="arg", layout="normal", m=m, n=n, k=k))
    return out


def flops(m, n, k):
    return 2.0 * m * n * k


def bytes_moved(m, n, k, scales=True):
    """Bytes each operand moves once: FP8 A and B, bf16 D, and (blockwise)
    the f32 scales."""
    b = m * k + n * k + 2 * m * n
    if scales:
        kb = ceil_div(k, 128)
        b += 4 * m * kb + 4 * ceil_div(n, 128) * kb
    return b


def tflops(m, n, k, us):
    return flops(m, n, k) / (us * 1e-6) / 1e12 if us and us > 0 else None


def gbps(m, n, k, us, scales=True):
    return bytes_moved(m, n, k, scales) / (us * 1e-6) / 1e9 if us and us > 0 else None


def parse_config(text):
    """``#dgemm.config<block_m = 128, multicast = b, ...>`` -> dict (ints
    where the value is an integer)."""
    import re
    if not text:
        return {}
    body = text[text.find("<") + 1:text.rfind(">")] if "<" in text else text
    out = {}
    for key, val in re.findall(r'(\w+)\s*=\s*("[^"]*"|[\w.+-]+)', body):
        val = val.strip('"')
        try:
            out[key] = int(val)
        except ValueError:
            out[key] = val
    return out


def short_config(text):
    """A compact config label: ``128x160 s5 c2b`` (block M x N, stages,
    cluster and multicast operand; ``a8``: A's box cut to 8 rows); the raw
    text when unparseable."""
    c = parse_config(text)
    if "block_m" not in c or "block_n" not in c:
        return (text or "-")[:24]
    s = "%sx%s" % (c["block_m"], c["block_n"])
    if "stages" in c:
        s += " s%s" % c["stages"]
    if c.get("cluster", 1) not in (1, "1"):
        s += " c%s%s" % (c["cluster"], c.get("multicast", "") if c.get("multicast") not in
                         (None, "none") else "")
    if c.get("a_box_rows") not in (None, 0, "0"):
        s += " a%s" % c["a_box_rows"]
    return s


def geomean(values):
    vals = [v for v in values if isinstance(v, (int, float)) and v > 0 and math.isfinite(v)]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def json_emitter(out):
    """A function that prints a record as one JSON line (clean()'d) and, when
    `out` (an open file) is given, writes it there too, flushed."""
    def emit(rec):
        line = json.dumps(clean(rec))
        print(line, flush=True)
        if out:
            out.write(line + "\n")
            out.flush()
    return emit


def clean(obj):
    """JSON-safe copy: non-finite floats become "nan" / "inf" / "-inf"."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return "nan" if math.isnan(obj) else ("inf" if obj > 0 else "-inf")
    if isinstance(obj, dict):
        return {str(k): clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean(v) for v in obj]
    return obj


def _num(rec, *path):
    cur = rec
    for p in path:
        if not isinstance(cur, dict) or p not in cur:
            return None
        cur = cur[p]
    return cur if isinstance(cur, (int, float)) and not isinstance(cur, bool) else None


def status_of(rec):
    """ok / FAIL / ERROR / skipped for a shape record."""
    if rec.get("skipped"):
        return "skipped"
    if rec.get("error"):
        return "ERROR"
    if (rec.get("check") or {}).get("ok") is True:
        return "ok"
    return "FAIL"


def _fmt(v, nd=0):
    if v is None:
        return "-"
    return ("%%.%df" % nd) % v


def peer_failed(rec, peer):
    """Whether the peer's own output failed the check dgemm's passes."""
    return ((rec.get("peers") or {}).get(peer) or {}).get("check", {}).get("ok", True) is False


def peer_tflops(rec, peer):
    """A peer's TFLOPS, or None where it has none or its own output failed
    the check (a wrong result's speed is not compared with)."""
    return None if peer_failed(rec, peer) else _num(rec, "peers", peer, "tflops")


def format_table(records):
    """The closing table: one row per shape record, then geometric means."""
    hdr = ("#", "M", "N", "K", "config", "dgemm us", "TFLOPS", "GB/s", "torch TF",
           "cuBLAS TF", "vs torch", "vs cuBLAS", "compile ms", "host us", "check")
    rows = []
    shapes = [r for r in records if r.get("type") == "shape"]
    for r in shapes:
        t = _num(r, "tflops")
        tt = peer_tflops(r, "torch_blockwise")
        tc = peer_tflops(r, "cublas_per_tensor")
        rows.append((str(r.get("index", "")), str(r["m"]), str(r["n"]), str(r["k"]),
                     short_config(r.get("config")), _fmt(_num(r, "us"), 1), _fmt(t),
                     _fmt(_num(r, "gbps")),
                     "wrong" if peer_failed(r, "torch_blockwise") else _fmt(tt), _fmt(tc),
                     _fmt(t / tt, 2) if t and tt else "-", _fmt(t / tc, 2) if t and tc else "-",
                     _fmt(_num(r, "compile_ms"), 0), _fmt(_num(r, "host_us", "dgemm_python"), 1),
                     status_of(r)))
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
              for i, h in enumerate(hdr)]
    line = lambda cells: "  ".join(c.rjust(w) for c, w in zip(cells, widths))  # noqa: E731
    out = [line(hdr)]
    out += [line(r) for r in rows]

    def gm(sel, label):
        t = [_num(r, "tflops") for r in sel]
        rt = [_num(r, "tflops") / peer_tflops(r, "torch_blockwise")
              for r in sel if _num(r, "tflops") and peer_tflops(r, "torch_blockwise")]
        rc = [_num(r, "tflops") / peer_tflops(r, "cublas_per_tensor")
              for r in sel if _num(r, "tflops") and peer_tflops(r, "cublas_per_tensor")]
        rd = [_num(r, "tflops") / peer_tflops(r, "deepgemm")
              for r in sel if _num(r, "tflops") and peer_tflops(r, "deepgemm")]
        return "%-22s %3d shapes  dgemm %s TFLOPS  vs torch blockwise %s  vs cuBLAS per-tensor %s%s" % (
            label, len(sel), _fmt(geomean(t)), _fmt(geomean(rt), 2), _fmt(geomean(rc), 2),
            "  vs DeepGEMM %s (%d)" % (_fmt(geomean(rd), 2), len(rd)) if rd else "")

    csv_small = [r for r in shapes if r.get("source") == "csv" and r["m"] <= 128]
    csv_large = [r for r in shapes if r.get("source") == "csv" and r["m"] > 128]
    rnd = [r for r in shapes if r.get("source") != "csv"]
    out.append("geometric means:")
    for sel, label in ((csv_small, "shapes.csv M <= 128"), (csv_large, "shapes.csv M > 128"),
                       (rnd, "random/other shapes")):
        if sel:
            out.append("  " + gm(sel, label))
    bad = [r for r in shapes if status_of(r) in ("FAIL", "ERROR")]
    skipped = [r for r in shapes if status_of(r) == "skipped"]
    out.append("checks: %d passed, %d failed, %d skipped of %d shapes%s" % (
        len(shapes) - len(bad) - len(skipped), len(bad), len(skipped), len(shapes),
        "" if bad else ("  -- ALL CHECKS PASSED" if shapes and not skipped else "")))
    for r in bad:
        chk = r.get("check") or {}
        why = r.get("error") or "bad=%s nan=%s calc_diff=%s guard_ok=%s deterministic=%s first_bad=%s" % (
            chk.get("bad"), chk.get("nan_left"), chk.get("calc_diff"), chk.get("guard_ok"),
            chk.get("deterministic"), chk.get("first_bad"))
        out.append("  FAILED m=%d n=%d k=%d: %s" % (r["m"], r["n"], r["k"],
                                                  str(why).strip().splitlines()[-1][:300]))
    return "\n".join(out)


def read_jsonl(path):
    recs = []
    for ln in Path(path).read_text().splitlines():
        ln = ln.strip()
        if ln:
            try:
                recs.append(json.loads(ln))
            except json.JSONDecodeError:
                pass  # a line cut short by a kill
    return recs


def commit_id():
    """DGEMM_COMMIT, else .bundle/COMMIT, else git (with -dirty), else
    "unknown" (the GPU machine gets no .git)."""
    if os.environ.get("DGEMM_COMMIT"):
        return os.environ["DGEMM_COMMIT"]
    f = ROOT / ".bundle" / "COMMIT"
    if f.is_file():
        return f.read_text().strip()
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=10)
        if head.returncode == 0:
            dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain",
                                    "--untracked-files=no"], capture_output=True, text=True,
                                   timeout=10).stdout.strip()
            return head.stdout.strip() + ("-dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return "unknown"


def sha256_file(path, limit=1 << 30):
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            while True:
                chunk = f.read(1 << 20)
                if not chunk:
                    break
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


# ---------------------------------------------------------------------------
# GPU parts (torch imported inside).
# ---------------------------------------------------------------------------

def import_dgemm():
    import importlib
    try:
        return importlib.import_module("dgemm")
    except ImportError:
        sys.path.insert(0, str(ROOT / "python"))
        return importlib.import_module("dgemm")


def scale_exponents(torch, g, rows, kb, device):
    """[rows, kb] integer exponents: a part per row in -ROW_SPREAD..ROW_SPREAD
    plus a part per (row, K block) in -BLOCK_SPREAD..BLOCK_SPREAD."""
    r = torch.randint(-ROW_SPREAD, ROW_SPREAD + 1, (rows, 1), generator=g, device=device)
    b = torch.randint(-BLOCK_SPREAD, BLOCK_SPREAD + 1, (rows, kb), generator=g, device=device)
    return (r + b).float()


def make_inputs(torch, dgemm, m, n, k, seed, device=None):
    """Random FP8 operands with spread block scales (see the module
    docstring). Returns a dict: a, sfa (row-major [M, K/128]), sfa_tma (the
    TMA layout), b, sfb."""
    device = device or DEVICE
    g = torch.Generator(device=device)
    g.manual_seed(seed)
    kb, nb = k // 128, ceil_div(n, 128)
    ea = scale_exponents(torch, g, m, kb, device)
    a = torch.randn((m, k), generator=g, device=device)
    a *= torch.exp2(ea).repeat_interleave(128, dim=1)
    eb = scale_exponents(torch, g, nb, kb, device)
    b = torch.randn((n, k), generator=g, device=device)
    b *= torch.exp2(eb).repeat_interleave(128, dim=0)[:n].repeat_interleave(128, dim=1)
    a8, sfa = dgemm.per_token_cast_to_fp8(a)
    del a
    b8, sfb = dgemm.per_block_cast_to_fp8(b)
    del b
    return dict(a=a8, sfa=sfa, sfa_tma=dgemm.get_col_major_tma_aligned_tensor(sfa), b=b8, sfb=sfb)


def reference(torch, dgemm, inp):
    """(ref, rms) as float32 [M, N]: the exact-input product A·Bᵀ and
    sqrt((A∘A)·(B∘B)ᵀ), both computed in float64."""
    A = dgemm.per_token_cast_back(inp["a"], inp["sfa"], dtype=torch.float64)
    B = dgemm.per_block_cast_back(inp["b"], inp["sfb"], dtype=torch.float64)
    ref = (A @ B.t()).float()
    A.mul_(A)
    B.mul_(B)
    rms = (A @ B.t()).sqrt_().float()
    return ref, rms


def check_output(torch, dgemm, d, ref, rms):
    """The elementwise and global checks of one output (module docstring)."""
    m, n = ref.shape
    df = d.float()
    finite = torch.isfinite(df)
    nan_left = int((~finite).sum())
    err = (df - ref).abs_()
    tol = ref.abs().mul_(RTOL).add_(rms, alpha=ATOL_RMS)
    bad = ~(err <= tol)                       # NaN compares false: bad
    ratio = err.div_(tol.clamp_(min=1e-30))
    ratio = torch.where(finite, ratio, torch.zeros_like(ratio))
    out = dict(
        calc_diff=dgemm.calc_diff(df, ref),
        bad=int(bad.sum()),
        nan_left=nan_left,
        max_tol_ratio=float(ratio.max()) if m and n else 0.0,
        edge_rows_bad=int(bad[-min(m, EDGE):, :].sum()) if m else 0,
        edge_cols_bad=int(bad[:, -min(n, EDGE):].sum()) if m else 0,
        last_row_bad=int(bad[-1, :].sum()) if m else 0,
        last_col_bad=int(bad[:, -1].sum()) if m else 0,
    )
    if out["bad"]:
        rows = bad.any(dim=1).nonzero().flatten()
        cols = bad.any(dim=0).nonzero().flatten()
        i = int(rows[0])
        j = int(bad[i].nonzero()[0, 0])
        out["first_bad"] = [i, j, float(df[i, j]), float(ref[i, j]), float(rms[i, j])]
        out["bad_rows"] = [i, int(rows[-1])]
        out["bad_cols"] = [int(cols[0]), int(cols[-1])]
    cd = out["calc_diff"]
    out["ok"] = bool(out["bad"] == 0 and nan_left == 0 and cd == cd and cd < CALC_DIFF_MAX)
    return out


class GuardedOutput:
    """D [M, N] bf16 inside a buffer with random-pattern guards on both
    sides; ``poison()`` fills D with NaN, ``guards_intact()`` compares the
    guards with their saved pattern."""

    def __init__(self, torch, m, n, device=None, seed=0):
        self.torch = torch
        device = device or DEVICE
        g = GUARD_ELEMS
        self.buf = torch.empty(g + m * n + g, dtype=torch.bfloat16, device=device)
        bits = self.buf.view(torch.int16)
        gen = torch.Generator(device=device)
        gen.manual_seed(seed)
        self.pattern = torch.randint(-32768, 32768, (2, g), generator=gen, device=device,
                                     dtype=torch.int32).to(torch.int16)
        bits[:g].copy_(self.pattern[0])
        bits[g + m * n:].copy_(self.pattern[1])
        self.d = self.buf[g:g + m * n].view(m, n)

    def poison(self):
        self.d.fill_(float("nan"))

    def guards_intact(self):
        g = GUARD_ELEMS
        bits = self.buf.view(self.torch.int16)
        return bool(self.torch.equal(bits[:g], self.pattern[0]) and
                    self.torch.equal(bits[bits.numel() - g:], self.pattern[1]))


class Timer:
    """The one timing harness for every kernel (module docstring)."""

    def __init__(self, torch, iters=30, warmup=3, flush_bytes=1 << 30):
        self.torch = torch
        self.iters, self.warmup = iters, warmup
        self.flush = torch.empty(flush_bytes, dtype=torch.uint8, device=DEVICE) if flush_bytes \
            else None

    def flush_l2(self):
        """Before each timed call: the 1 GiB memset (none when flush_bytes
        is 0)."""
        if self.flush is not None:
            self.flush.zero_()

    def time(self, fn):
        torch = self.torch
        for _ in range(self.warmup):
            fn()
        torch.cuda.synchronize()
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(self.iters)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(self.iters)]
        for i in range(self.iters):
            self.flush_l2()
            starts[i].record()
            fn()
            ends[i].record()
        torch.cuda.synchronize()
        ts = sorted(s.elapsed_time(e) * 1e3 for s, e in zip(starts, ends))
        return dict(us=statistics.median(ts), us_min=ts[0], us_max=ts[-1], iters=self.iters)

    def time_alternately(self, fns, rounds=3):
        """``fns`` ({name: fn}) timed in turn, ``rounds`` times, each turn
        as ``time`` does; per name the median of the rounds' medians (and
        every round's), so that clock drift (the power cap) hits all alike."""
        got = {name: [] for name in fns}
        for _ in range(rounds):
            for name, fn in fns.items():
                got[name].append(self.time(fn))
        out = {}
        for name, ts in got.items():
            us = [t["us"] for t in ts]
            out[name] = dict(us=statistics.median(us), us_min=min(t["us_min"] for t in ts),
                             us_max=max(t["us_max"] for t in ts), iters=self.iters,
                             rounds=len(ts), round_us=us)
        return out

    def host_us(self, fn, calls):
        """Median host time of ``fn()`` with an idle device (see the module
        docstring), in microseconds."""
        torch = self.torch
        fn()
        ts = []
        for _ in range(calls):
            torch.cuda.synchronize()
            t0 = time.perf_counter_ns()
            fn()
            t1 = time.perf_counter_ns()
            ts.append((t1 - t0) / 1e3)
        torch.cuda.synchronize()
        return statistics.median(ts)


class Watchdog(threading.Thread):
    """Ends the process (status 3) when a shape runs past its deadline: a
    hung kernel never returns, and the CUDA context is lost anyway. The hang
    is written to the JSON lines first."""

    def __init__(self, emit):
        super().__init__(daemon=True)
        self.emit = emit
        self.deadline = None
        self.record = None
        self.lock = threading.Lock()

    def arm(self, seconds, record):
        with self.lock:
            self.deadline = time.monotonic() + seconds
            self.record = record

    def disarm(self):
        with self.lock:
            self.deadline = None

    def run(self):
        while True:
            time.sleep(1.0)
            with self.lock:
                late = self.deadline is not None and time.monotonic() > self.deadline
                rec = self.record
            if late:
                rec = dict(rec, error="hang: no result within the shape timeout (watchdog)")
                print("\nWATCHDOG: m=%s n=%s k=%s did not finish; giving up" % (
                    rec.get("m"), rec.get("n"), rec.get("k")), flush=True)
                try:
                    self.emit(rec)
                    self.emit(dict(type="summary", aborted="hang", hung_shape=rec.get("index")))
                finally:
                    os._exit(3)


def device_meta(torch, dgemm, args):
    props = torch.cuda.get_device_properties(0)
    meta = dict(
        type="meta",
        date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        commit=commit_id(),
        device=props.name,
        sms=props.multi_processor_count,
        capability="%d.%d" % (props.major, props.minor),
        memory_gib=round(props.total_memory / 2 ** 30, 1),
        torch=torch.__version__,
        cuda=torch.version.cuda,
        python=platform.python_version(),
        host=platform.node(),
        args={k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()
              if k != "deepgemm_module"},
        tolerance=dict(rtol=RTOL, atol_rms=ATOL_RMS, calc_diff_max=CALC_DIFF_MAX,
                       scale_exponents="row/N-block part in +-%d plus K-block part in +-%d"
                       % (ROW_SPREAD, BLOCK_SPREAD)),
    )
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=driver_version,clocks.max.sm,"
                            "clocks.max.mem,power.limit", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=20)
        if r.returncode == 0:
            meta["nvidia_smi"] = r.stdout.strip().splitlines()[0]
            meta["driver"] = meta["nvidia_smi"].split(",")[0].strip()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        p = dgemm.library_path()
        meta["lib"] = str(p)
        meta["lib_sha256"] = sha256_file(p)
    except Exception as e:  # noqa: BLE001 - reported, then preflight fails
        meta["lib_error"] = str(e)
    return meta


def run_shape(torch, dgemm, shape, idx, args, timer, rec):
    """Fills ``rec`` for one shape: check, peers, timing, host overhead."""
    m, n, k = shape["m"], shape["n"], shape["k"]
    rec["config"] = dgemm.config(m, n, k)
    rec["config_fields"] = parse_config(rec["config"])
    t0 = time.perf_counter()
    rec["compile_ms"], rec["prepare_info"] = dgemm.prepare(m, n, k)
    rec["prepare_wall_ms"] = (time.perf_counter() - t0) * 1e3

    inp = make_inputs(torch, dgemm, m, n, k, seed=args.seed * 1000003 + idx)
    ref, rms = reference(torch, dgemm, inp)
    out = GuardedOutput(torch, m, n, seed=idx)
    out.poison()
    torch.cuda.synchronize()
    lhs, rhs = (inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"])
    t0 = time.perf_counter()
    dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, out.d)
    torch.cuda.synchronize()
    rec["first_call_ms"] = (time.perf_counter() - t0) * 1e3
    chk = check_output(torch, dgemm, out.d, ref, rms)
    chk["guard_ok"] = out.guards_intact()
    # Same operands with the row-major A scales: the Python layer copies them
    # into the TMA layout; the result must be identical (and deterministic).
    d2 = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device=DEVICE)
    dgemm.gemm_fp8_fp8_bf16_nt((inp["a"], inp["sfa"]), rhs, d2)
    torch.cuda.synchronize()
    chk["deterministic"] = bool(torch.equal(d2.view(torch.int16), out.d.view(torch.int16)))
    chk["ok"] = bool(chk["ok"] and chk["guard_ok"] and chk["deterministic"])
    rec["check"] = chk
    rec["ok"] = chk["ok"]
    del d2

    if args.sanitize:
        return

    d = out.d
    call = lambda: dgemm.gemm_fp8_fp8_bf16_nt(lhs, rhs, d)  # noqa: E731
    # The peers' calls, each tried once first (a shape torch refuses is an
    # error in the record, not a timing).
    fns, peers = {"dgemm": call}, {}
    if not args.no_peers:
        sa_t = inp["sfa"].t().contiguous().t()   # [M, K/128], strides (1, M)
        sb_t = inp["sfb"].t()                    # [K/128, ceil(N/128)]
        a, bt = inp["a"], inp["b"].t()
        blockwise = lambda: torch._scaled_mm(a, bt, scale_a=sa_t, scale_b=sb_t,  # noqa: E731
                                             out_dtype=torch.bfloat16)
        p = peers["torch_blockwise"] = {}
        try:
            y = blockwise()
            torch.cuda.synchronize()
            p["check"] = check_output(torch, dgemm, y, ref, rms)
            p["calc_diff_vs_dgemm"] = dgemm.calc_diff(y.float(), d.float())
            del y
            fns["torch_blockwise"] = blockwise
        except Exception as e:  # noqa: BLE001 - recorded; unsupported shapes are expected
            p["error"] = error_text(e)

        one = torch.ones((), dtype=torch.float32, device=DEVICE)
        per_tensor = lambda: torch._scaled_mm(a, bt, scale_a=one, scale_b=one,  # noqa: E731
                                              out_dtype=torch.bfloat16)
        p = peers["cublas_per_tensor"] = {}
        try:
            per_tensor()
            torch.cuda.synchronize()
            fns["cublas_per_tensor"] = per_tensor
        except Exception as e:  # noqa: BLE001
            p["error"] = error_text(e)

        if getattr(args, "deepgemm", False):
            add_deepgemm_peer(torch, dgemm, args, inp, ref, rms, m, n, fns, peers)

    # dgemm and its peers in turn, args.rounds times: a drift of the clocks
    # (the power cap after a heavy shape) hits them alike.
    times = timer.time_alternately(fns, rounds=args.rounds)
    tm = times["dgemm"]
    rec["us"], rec["us_min"], rec["us_max"] = tm["us"], tm["us_min"], tm["us_max"]
    rec["round_us"] = tm["round_us"]
    rec["tflops"], rec["gbps"] = tflops(m, n, k, tm["us"]), gbps(m, n, k, tm["us"])
    for name in PEERS:
        if name in times:
            tm = times[name]
            peers[name].update(us=tm["us"], us_min=tm["us_min"], us_max=tm["us_max"],
                               round_us=tm["round_us"], tflops=tflops(m, n, k, tm["us"]),
                               gbps=gbps(m, n, k, tm["us"], scales=name != "cublas_per_tensor"))

    calls = max(20, min(args.host_calls, int(0.25 / max(rec["us"] * 1e-6, 1e-6))))
    host = dict(calls=calls)
    host["dgemm_python"] = timer.host_us(call, calls)
    host["dgemm_c"] = timer.host_us(dgemm.bind_gemm_fp8_fp8_bf16_nt(lhs, rhs, d, plain=True),
                                    calls)
    host["dgemm_c_bound"] = timer.host_us(dgemm.bind_gemm_fp8_fp8_bf16_nt(lhs, rhs, d), calls)
    for name in ("torch_blockwise", "deepgemm"):
        if name in fns:
            host[name] = timer.host_us(fns[name], calls)
    rec["host_us"] = host
    # Every timed call wrote D again: the guards must still hold.
    chk["guard_ok_after_timing"] = out.guards_intact()
    chk["ok"] = rec["ok"] = bool(chk["ok"] and chk["guard_ok_after_timing"])
    rec["peers"] = peers


def add_deepgemm_peer(torch, dgemm, args, inp, ref, rms, m, n, fns, peers):
    """DeepGEMM's fp8_gemm_nt on the same operands into its own D, checked
    like torch's output; its callable joins ``fns`` when it ran."""
    import deepgemm_peer
    p = peers["deepgemm"] = {}
    dg = getattr(args, "deepgemm_module", None)
    if dg is None:
        p["error"] = "DeepGEMM not importable (see the meta record)"
        return
    try:
        d_dg = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device=DEVICE)
        call = deepgemm_peer.normal(dg, inp["a"], inp["sfa_tma"], inp["b"], inp["sfb"], d_dg)
        t0 = time.perf_counter()
        call()
        torch.cuda.synchronize()
        p["first_call_ms"] = (time.perf_counter() - t0) * 1e3
        p["check"] = check_output(torch, dgemm, d_dg, ref, rms)
        fns["deepgemm"] = call
    except Exception as e:  # noqa: BLE001 - recorded, like torch's refusals
        p["error"] = error_text(e)


def prepare_only(torch, dgemm, shape, idx, args, rec):
    """Warm start: prepare (from the disk cache of an earlier process) and
    the first launch, both as host wall time."""
    m, n, k = shape["m"], shape["n"], shape["k"]
    inp = make_inputs(torch, dgemm, m, n, k, seed=idx)
    d = torch.empty((m, n), dtype=torch.bfloat16, device=DEVICE)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    rec["compile_ms"], rec["prepare_info"] = dgemm.prepare(m, n, k)
    rec["warm_prepare_ms"] = (time.perf_counter() - t0) * 1e3
    t0 = time.perf_counter()
    dgemm.gemm_fp8_fp8_bf16_nt((inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"]), d)
    torch.cuda.synchronize()
    rec["warm_first_call_ms"] = (time.perf_counter() - t0) * 1e3
    rec["config"] = dgemm.config(m, n, k)


def progress_line(rec, total):
    s = "[%d/%d] m=%d n=%d k=%d %s" % (rec["index"] + 1, total, rec["m"], rec["n"], rec["k"],
                                       short_config(rec.get("config")))
    if rec.get("us") is not None:
        s += "  dgemm %.1f us %.0f TFLOPS" % (rec["us"], rec["tflops"])
    for name in PEERS:
        t = _num(rec, "peers", name, "tflops")
        if t is not None:
            s += "  %s %.0f%s" % (name.split("_")[0], t,
                                  " (wrong)" if peer_failed(rec, name) else "")
    chk = rec.get("check")
    if chk:
        s += "  check %s (diff %.1e, tol use %.2f)" % ("ok" if chk["ok"] else "FAIL",
                                                       chk["calc_diff"], chk["max_tol_ratio"])
    if rec.get("compile_ms"):
        s += "  compile %.0f ms" % rec["compile_ms"]
    if rec.get("error"):
        s += "  ERROR " + rec["error"].strip().splitlines()[-1][:200]
    return s


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, help="JSON lines output file")
    ap.add_argument("--csv", type=Path, default=DEFAULT_CSV, help="shapes CSV (normal rows)")
    ap.add_argument("--no-csv", action="store_true", help="skip the CSV shapes")
    ap.add_argument("--shapes", default="", help='extra shapes "m,n,k;m,n,k"')
    ap.add_argument("--random", type=int, default=0, help="add N random shapes")
    ap.add_argument("--seed", type=int, default=1, help="seed of random shapes and inputs")
    ap.add_argument("--limit", type=int, default=0, help="run only the first N shapes")
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3,
                    help="dgemm and its peers timed in turn this many times (median of the "
                         "rounds' medians)")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--host-calls", type=int, default=100)
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--deepgemm", action="store_true",
                    help="also time DeepGEMM (import deep_gemm; bench/deepgemm_peer.py) as a "
                         "peer, checked like torch's output")
    ap.add_argument("--time-budget", type=float, default=0.0,
                    help="seconds; start no new shape after this (0: none)")
    ap.add_argument("--shape-timeout", type=float, default=0.0,
                    help="seconds per shape before the watchdog ends the run "
                         "(default 180, 900 with --sanitize)")
    ap.add_argument("--sanitize", action="store_true",
                    help="6 small shapes (one with block M 256, one with block M 64 and an odd number of K blocks, one with A's box cut to 24 rows, one with two tiles per CTA at block M 128), one checked call each, no timing or peers "
                         "(run under compute-sanitizer)")
    ap.add_argument("--prepare-only", action="store_true",
                    help="warm-start probe: prepare + first call per shape")
    ap.add_argument("--table-from", type=Path, help="print the table of a JSON lines file and exit")
    args = ap.parse_args(argv)

    if args.table_from:
        print(format_table(read_jsonl(args.table_from)))
        return 0

    if args.sanitize:
        shapes = [dict(source="sanitize", layout="normal", m=m, n=n, k=k)
                  for m, n, k in SANITIZE_SHAPES]
    else:
        shapes = [] if args.no_csv else read_shapes(args.csv)
        shapes += parse_shapes_arg(args.shapes) + random_shapes(args.random, args.seed)
    if args.limit:
        shapes = shapes[:args.limit]
    shape_timeout = args.shape_timeout or (900.0 if args.sanitize else 180.0)

    out_f = open(args.out, "w") if args.out else None
    emit_lock = threading.Lock()

    def emit(rec):
        with emit_lock:
            if out_f:
                out_f.write(json.dumps(clean(rec)) + "\n")
                out_f.flush()
                os.fsync(out_f.fileno())

    import torch
    # DeepGEMM first: whether it loads is known before anything is timed.
    if args.deepgemm:
        import deepgemm_peer
        args.deepgemm_module, deepgemm_why = deepgemm_peer.load()
    dgemm = import_dgemm()
    torch.backends.cuda.matmul.allow_tf32 = False
    if not torch.cuda.is_available():
        print("run_bench: no CUDA device visible to PyTorch", file=sys.stderr)
        return 2
    meta = device_meta(torch, dgemm, args)
    if args.deepgemm:
        meta["deepgemm"] = deepgemm_peer.describe(args.deepgemm_module) \
            if args.deepgemm_module else dict(error=deepgemm_why)
        print("run_bench: DeepGEMM %s" % meta["deepgemm"])
    emit(meta)
    print("run_bench: %s (%s SMs, driver %s), torch %s, CUDA %s, commit %s" % (
        meta["device"], meta["sms"], meta.get("driver", "?"), meta["torch"], meta["cuda"],
        meta["commit"]))
    print("run_bench: library %s" % meta.get("lib", meta.get("lib_error")))
    try:
        dgemm.config(128, 256, 512)  # preflight: the C API answers
    except Exception as e:  # noqa: BLE001
        print("run_bench: the dgemm library cannot be used: %s" % e, file=sys.stderr)
        emit(dict(type="summary", aborted="library", error=str(e)))
        return 2

    timer = None if args.prepare_only else Timer(
        torch, iters=args.iters, warmup=args.warmup,
        flush_bytes=0 if args.sanitize else 1 << 30)
    watchdog = Watchdog(emit)
    watchdog.start()
    t_start = time.monotonic()
    records, context_lost = [], None
    for idx, shape in enumerate(shapes):
        rec = dict(type="shape", index=idx, **shape)
        if context_lost or (args.time_budget and time.monotonic() - t_start > args.time_budget):
            rec["skipped"] = context_lost or "time budget of %.0f s spent" % args.time_budget
            records.append(rec)
            emit(rec)
            continue
        t0 = time.monotonic()
        watchdog.arm(shape_timeout, rec)
        try:
            if args.prepare_only:
                prepare_only(torch, dgemm, shape, idx, args, rec)
            else:
                run_shape(torch, dgemm, shape, idx, args, timer, rec)
        except Exception:  # noqa: BLE001 - one shape's failure must not end the run
            rec["error"] = traceback.format_exc(limit=6)
            rec["ok"] = False
            try:
                torch.cuda.synchronize()
            except Exception as e:  # noqa: BLE001 - a sticky CUDA error: stop here
                context_lost = "CUDA context lost after shape %d: %s" % (idx, str(e)[:200])
        watchdog.disarm()
        rec["wall_s"] = time.monotonic() - t0
        records.append(rec)
        emit(rec)
        print(progress_line(rec, len(shapes)), flush=True)
        torch.cuda.empty_cache()

    failed = [r["index"] for r in records
              if not args.prepare_only and not r.get("skipped") and status_of(r) != "ok"]
    errors = [r["index"] for r in records if r.get("error")]
    skipped = [r["index"] for r in records if r.get("skipped")]
    peer_fail = [r["index"] for r in records if peer_failed(r, "torch_blockwise")]
    dg_fail = [r["index"] for r in records if peer_failed(r, "deepgemm")]
    emit(dict(type="summary", shapes=len(records), failed=failed, errors=errors,
              skipped=skipped, torch_check_failed=peer_fail, deepgemm_check_failed=dg_fail,
              context_lost=context_lost,
              wall_s=time.monotonic() - t_start))
    if out_f:
        out_f.close()

    print()
    if args.prepare_only:
        for r in records:
            print("m=%d n=%d k=%d  warm prepare %s ms  first call %s ms%s" % (
                r["m"], r["n"], r["k"], _fmt(r.get("warm_prepare_ms"), 1),
                _fmt(r.get("warm_first_call_ms"), 1),
                "  ERROR " + r["error"].splitlines()[-1] if r.get("error") else ""))
        return 1 if errors else 0
    if peer_fail:
        stride = [r["index"] for r in records if r["index"] in peer_fail and (r["k"] // 128) % 4]
        print("WARNING: torch blockwise's own output failed the check on shapes %s; its "
              "figures there are left out of the ratios%s" % (peer_fail, (
                  " (%s: K/128 not a multiple of 4, the scale_b stride fault that "
                  "bench/probe_torch_scale_layout.py shows)" % stride) if stride else ""))
    print(format_table(records))
    return 1 if failed or errors else 0


if __name__ == "__main__":
    sys.exit(main())
