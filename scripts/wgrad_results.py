#===- wgrad_results.py - the weight-gradient section of bench/RESULTS.md --===#
"""Renders the JSON lines of bench/run_wgrad.py as a Markdown section: the
weight-gradient GEMM (out += A·Bᵀ, f32, 1x128 scales for both operands) per
weight shape beside, in the same run, dgemm's normal bf16 GEMM and
torch._scaled_mm with 1x128 scales on both operands (cuBLASLt, bf16 output:
it neither reads nor writes an f32 D, so it moves less memory); the
k-grouped GEMM beside dgemm's weight-gradient GEMM on the same total work
(K = sum(k_g)); and the checks of every case. Used by scripts/gen_results.py
(``--wgrad``); pure functions, no torch.
"""
from grouped_results import _f, _geomean, _t


def _ratio(a, b):
    return a / b if a and b else None


def render(records, source_name):
    meta = next((r for r in records if r.get("kind") == "meta"), {})
    wgrad = [r for r in records if r.get("kind") == "wgrad"]
    kgrp = [r for r in records if r.get("kind") == "k_grouped"]
    out = ["## Weight-gradient GEMMs", "",
           "Generated from `%s` (`bench/run_wgrad.py`; %s, commit %s, %s). D (f32) += A·Bᵀ "
           "with 1x128 scales on both operands, accumulated in place (TMA reduce-add). "
           "*normal bf16* is dgemm's normal GEMM (128x128 B scales, bf16 D) on the same M, N, "
           "K; *torch 1x128* is torch._scaled_mm with 1x128 scales on both operands and a "
           "bf16 output (it does not read or write an f32 D)." % (
               source_name, meta.get("date", "?"), meta.get("commit", "?"),
               meta.get("device", "?")), ""]
    timed = [r for r in wgrad if _t(r, "dgemm", "tflops")]
    out += ["| M | N | K | dgemm wgrad TFLOPS | normal bf16 TFLOPS | vs normal | torch 1x128 "
            "TFLOPS | vs torch | check |",
            "|--:|--:|--:|--:|--:|--:|--:|--:|---|"]
    for r in timed:
        here = _t(r, "dgemm", "tflops")
        normal = _t(r, "dgemm_normal_bf16", "tflops")
        torch1 = _t(r, "torch_1x128_both", "tflops")
        out.append("| %d | %d | %d | %s | %s | %s | %s | %s | %s |" % (
            r["m"], r["n"], r["k"], _f(here), _f(normal), _f(_ratio(here, normal), 2),
            _f(torch1), _f(_ratio(here, torch1), 2), "ok" if r.get("ok") else "**FAIL**"))
    out.append("")
    if timed:
        out.append("- Geomean over %d shapes: %s x the normal bf16 GEMM, %s x torch 1x128." % (
            len(timed),
            _f(_geomean([_ratio(_t(r, "dgemm", "tflops"), _t(r, "dgemm_normal_bf16", "tflops"))
                         for r in timed]), 2),
            _f(_geomean([_ratio(_t(r, "dgemm", "tflops"), _t(r, "torch_1x128_both", "tflops"))
                         for r in timed]), 2)))
    small = [r for r in wgrad if not _t(r, "dgemm", "tflops")]
    if wgrad:
        out.append("- Checks: %d of %d cases pass (%d of them small shapes with partial tiles); "
                   "each checks D0 + A·Bᵀ after one call and D0 + 2·A·Bᵀ after a second, guard "
                   "rows around D untouched, and a K = 0 call leaving D bit-for-bit unchanged." % (
                       sum(1 for r in wgrad if r.get("ok")), len(wgrad), len(small)))
    ktimed = [r for r in kgrp if _t(r, "dgemm", "tflops")]
    loops = any(_t(r, "wgrad_loop", "tflops") for r in ktimed)
    out += ["", "### k-grouped (MoE weight gradients)", "",
            "TFLOPS = 2·M·N·Σk_g / time. *wgrad same work* is dgemm's weight-gradient GEMM with "
            "K = Σk_g (one D instead of G: the k-grouped kernel also reads and writes G times "
            "as much f32 output)." + (
                " *wgrad loop* is what the k-grouped call replaces: one weight-gradient "
                "GEMM per group from the host, into the same D[g]." if loops else ""), "",
            "| M | N | G | k_g | dgemm TFLOPS | wgrad same work TFLOPS | vs same work |"
            + (" wgrad loop TFLOPS | vs loop |" if loops else "") + " check |",
            "|--:|--:|--:|---|--:|--:|--:|" + ("--:|--:|" if loops else "") + "---|"]
    for r in ktimed:
        here = _t(r, "dgemm", "tflops")
        same = _t(r, "wgrad_same_work", "tflops")
        loop = _t(r, "wgrad_loop", "tflops")
        out.append("| %d | %d | %d | %s | %s | %s | %s |%s %s |" % (
            r["m"], r["n"], r["groups"], ",".join(str(k) for k in r["ks"]), _f(here),
            _f(same), _f(_ratio(here, same), 2),
            " %s | %s |" % (_f(loop), _f(_ratio(here, loop), 2)) if loops else "",
            "ok" if r.get("ok") else "**FAIL**"))
    out.append("")
    if ktimed:
        out.append("- Geomean vs the weight-gradient GEMM on the same total work: %s (%d cases)."
                   % (_f(_geomean([_ratio(_t(r, "dgemm", "tflops"),
                                          _t(r, "wgrad_same_work", "tflops"))
                                   for r in ktimed]), 2), len(ktimed)))
    if loops:
        out.append("- Geomean vs the host loop of weight-gradient GEMMs: %s." % _f(_geomean(
            [_ratio(_t(r, "dgemm", "tflops"), _t(r, "wgrad_loop", "tflops")) for r in ktimed]), 2))
    if kgrp:
        empty = sum(1 for r in kgrp for k in r.get("ks", []) if k == 0)
        many = sorted({len(r.get("ks", [])) for r in kgrp if len(r.get("ks", [])) > 8})
        out.append("- Checks: %d of %d cases pass (random ones with 1-8 groups, empty groups "
                   "(%d in all, each bit-for-bit unchanged), one-block groups, M and N not "
                   "multiples of the block%s); each group against its own float64 reference." % (
                       sum(1 for r in kgrp if r.get("ok")), len(kgrp), empty,
                       (", and cases of %s groups" % " and ".join(str(g) for g in many))
                       if many else ""))
    for r in wgrad + kgrp:
        if not r.get("ok"):
            out.append("- **FAIL** %s M=%s N=%s %s: %s" % (
                r.get("kind"), r.get("m"), r.get("n"), r.get("k", r.get("ks")),
                (r.get("error") or str(r.get("check_1") or r.get("first_bad_check")))[-300:]))
    out.append("")
    return "\n".join(out)
