#===- bias_results.py - the epilogue-fusion section of bench/RESULTS.md ---===#
"""Renders the JSON lines of bench/run_bias.py as a Markdown section: the
normal GEMM with a bias fused into its epilogue (D = A·Bᵀ + bias, one
kernel) per shape beside, timed alternately in the same run, the same GEMM
without the bias (what the fusion costs), the GEMM then a torch add (what
it saves), and torch._scaled_mm blockwise then the add; and the checks of
every case. The section states its own run (date, commit, device), which
may differ from the main run's. Used by scripts/gen_results.py
(``--bias``); pure functions, no torch.
"""
import statistics

from gen_results import short_config
from grouped_results import _f, _geomean, _t
from wgrad_results import _ratio


def render(records, source_name):
    meta = next((r for r in records if r.get("type") == "meta"), {})
    cases = [r for r in records if r.get("type") == "bias"]
    timed = [r for r in cases if _t(r, "dgemm_bias", "us")]
    out = ["## Epilogue fusion: a bias", "",
           "Generated from `%s` (`bench/run_bias.py`; %s, commit %s, %s). D (bf16) = A·Bᵀ + "
           "bias (f32 [N]) in one kernel (`gemm_fp8_fp8_bf16_nt(..., bias=)`). Timed "
           "alternately, 3 rounds of 30 cold-L2 calls each, the median of the rounds' medians: "
           "*plain* is the same GEMM without the bias, *plain + add* the GEMM then a torch add "
           "of the bias (two kernels), *torch + add* torch._scaled_mm blockwise then the add. "
           "TFLOPS = 2·M·N·K / time." % (
               source_name, meta.get("date", "?"), meta.get("commit", "?"),
               meta.get("device", "?")), ""]
    out += ["| M | N | K | config | bias µs | TFLOPS | plain µs | bias / plain | plain + add µs "
            "| torch + add µs | vs torch + add | check |",
            "|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|---|"]
    for r in timed:
        us = _t(r, "dgemm_bias", "us")
        plain = _t(r, "dgemm", "us")
        torch_add = _t(r, "torch_blockwise_then_add", "us")
        out.append("| %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["m"], r["n"], r["k"], short_config(r.get("config")), _f(us, 1),
            _f(_t(r, "dgemm_bias", "tflops")), _f(plain, 1), _f(_ratio(us, plain), 3),
            _f(_t(r, "dgemm_then_add", "us"), 1), _f(torch_add, 1),
            _f(_ratio(torch_add, us), 2),
            "ok" if r.get("check", {}).get("ok") else "**FAIL**"))
    out.append("")
    if timed:
        with_torch = [r for r in timed if _t(r, "torch_blockwise_then_add", "us")]
        line = ("- Geomean over %d shapes: time with the bias %s x without it; %s x faster "
                "than the GEMM then an add" % (
                    len(timed),
                    _f(_geomean([_ratio(_t(r, "dgemm_bias", "us"), _t(r, "dgemm", "us"))
                                 for r in timed]), 3),
                    _f(_geomean([_ratio(_t(r, "dgemm_then_add", "us"),
                                        _t(r, "dgemm_bias", "us")) for r in timed]), 2)))
        if with_torch:
            line += "; %s x faster than torch blockwise then an add (%d shapes)" % (
                _f(_geomean([_ratio(_t(r, "torch_blockwise_then_add", "us"),
                                    _t(r, "dgemm_bias", "us")) for r in with_torch]), 2),
                len(with_torch))
        else:
            line += "; torch blockwise then an add did not run"
        out.append(line + ".")
        errors = [r["torch_blockwise_then_add"]["error"] for r in timed
                  if isinstance(r.get("torch_blockwise_then_add"), dict)
                  and "error" in r["torch_blockwise_then_add"]]
        if errors:
            out.append("- torch._scaled_mm blockwise refused %d shapes (%s)." % (
                len(errors), errors[0][:160]))
    hosted = [r for r in timed if _t(r, "host_us", "bias_python")]
    if hosted:
        out.append("- Host time of a cache-hit call through Python, median over %d shapes: "
                   "%s µs with the bias, %s µs without." % (
                       len(hosted),
                       _f(statistics.median([_t(r, "host_us", "bias_python") for r in hosted]), 1),
                       _f(statistics.median([_t(r, "host_us", "plain_python") for r in hosted]),
                          1)))
    fused = [r for r in timed if _t(r, "torch_blockwise_bias", "us")]
    refused = [r for r in timed if isinstance(r.get("torch_blockwise_bias"), dict)
               and "error" in r["torch_blockwise_bias"]]
    if fused:
        out.append("- torch._scaled_mm blockwise with its own bias= ran on %d shapes: geomean "
                   "%s x dgemm's time." % (len(fused), _f(_geomean(
                       [_ratio(_t(r, "torch_blockwise_bias", "us"), _t(r, "dgemm_bias", "us"))
                        for r in fused]), 2)))
    elif refused:
        out.append("- torch._scaled_mm blockwise refused a bias (%s)." % (
            refused[0]["torch_blockwise_bias"]["error"][:160]))
    if cases:
        out.append("- Checks: %d of %d cases pass (%d random shapes with partial tiles); each "
                   "against the float64 A·Bᵀ + bias (run_bench's element-wise rule), guards "
                   "around D intact, a second call's bits equal, and D - bias within bf16 "
                   "rounding of the call without the bias (the bias lands once, on its "
                   "columns)." % (sum(1 for r in cases if r.get("check", {}).get("ok")),
                                  len(cases), sum(1 for r in cases if r.get("source") ==
                                                  "random")))
    for r in cases:
        if not r.get("check", {}).get("ok"):
            out.append("- **FAIL** M=%d N=%d K=%d: %s" % (
                r["m"], r["n"], r["k"], str(r.get("error") or {
                    k: v for k, v in r.get("check", {}).items() if k != "ok"})[:300]))
    return "\n".join(out) + "\n"
