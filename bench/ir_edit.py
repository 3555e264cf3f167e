#!/usr/bin/env python3
#===- ir_edit.py - regex edits of kernel IR for the A/B tools -------------===#
"""One edit of a kernel IR text, as the A/B tools' --ir-sub options take it:
'[@N:]REGEX=>REPLACEMENT' replaces every match of REGEX (Python re, groups
expandable in REPLACEMENT as in re.sub), or with '@N:' only the N-th
(from 0). Used by bench/ab_masked_gap.py and bench/ab_kernel_ir.py."""
import re


def parse(spec):
    """(regex, replacement, which) of an edit; which is None for every
    match. Raises ValueError without '=>'."""
    which = None
    at = re.match(r"@(\d+):", spec)
    if at:
        which = int(at.group(1))
        spec = spec[at.end():]
    if "=>" not in spec:
        raise ValueError("an IR edit is [@N:]REGEX=>REPLACEMENT, got %r" % spec)
    pattern, repl = spec.split("=>", 1)
    return pattern, repl, which


def substitute(text, spec):
    """(edited text, number of replacements) of one edit of ``text``."""
    pattern, repl, which = parse(spec)
    matches = list(re.finditer(pattern, text))
    if which is not None:
        matches = matches[which:which + 1]
    for mt in reversed(matches):
        text = text[:mt.start()] + mt.expand(repl) + text[mt.end():]
    return text, len(matches)
