#===- sanitizer_results.py - the sanitizer section of bench/RESULTS.md ---===#
"""Renders compute-sanitizer logs (scripts/device-run.sh with SANITIZE=1)
as a Markdown section: per log, the tool, what ran under it and the summary
line compute-sanitizer printed; and bench/sanitizer_planted.py's lines
(each planted bug must be reported, the clean kernel must not). Used by
scripts/gen_results.py (``--sanitizer-logs``); pure functions."""
import re
from pathlib import Path

_TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")


def summaries(text):
    """The summary lines compute-sanitizer printed, in order."""
    return [m.group(0).strip() for m in
            re.finditer(r"(ERROR SUMMARY: \d+ errors?|RACECHECK SUMMARY: [^\n]*)", text)]


def render(paths):
    out = ["## compute-sanitizer", "",
           "From the logs of `scripts/device-run.sh` with `SANITIZE=1` (raw logs in "
           "`bench/results/`). Normal kernels: `bench/run_bench.py --sanitize` (4 small "
           "shapes, one with block M 256, one with block M 64 and an odd number of K blocks); grouped: `bench/run_grouped.py --sanitize` (a contiguous and two masked "
           "cases with an empty group, one with block M 256); weight gradient: `bench/run_wgrad.py --sanitize` (small "
           "wgrad and k-grouped cases, empty groups included); fused bias: `bench/run_bias.py "
           "--no-csv --no-time --random 3` (3 random shapes, no timing). Planted bugs: "
           "`bench/sanitizer_planted.py`.", "",
           "| log | tool | run | summary |", "|---|---|---|---|"]
    planted = []
    for p in paths:
        p = Path(p)
        text = p.read_text(errors="replace")
        if "sanitizer_planted:" in text:
            planted += [l.rstrip() for l in text.splitlines()
                        if re.match(r"^\S+\s+(memcheck|racecheck|synccheck|initcheck)\s", l)
                        or l.startswith("sanitizer_planted:")]
            continue
        tool = next((t for t in _TOOLS if t in p.name), "?")
        runs = ("every reference shape (18 normal, 4 contiguous, 6 masked)"
                if "memcheck-all" in p.name
                else "weight gradient (wgrad and k-grouped, small cases)"
                if "wgrad" in p.name
                else "fused bias (3 random shapes)"
                if "bias" in p.name
                else "grouped" if "grouped" in p.name else "normal")
        sums = summaries(text)
        if tool in ("synccheck", "initcheck") and len(sums) == 2 and "wgrad" not in p.name:
            out.append("| `%s` | %s | normal | %s |" % (p.name, tool, sums[0]))
            out.append("| `%s` | %s | grouped | %s |" % (p.name, tool, sums[1]))
            continue
        out.append("| `%s` | %s | %s | %s |" % (p.name, tool, runs,
                                                "; ".join(sums) or "**no summary**"))
    if planted:
        out += ["", "Planted bugs:", "", "```"] + planted + ["```"]
    out.append("")
    return "\n".join(out)
