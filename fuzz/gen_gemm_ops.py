#!/usr/bin/env python3
"""Structure-aware generator of dgemm ops, checked against dgemm-opt.

    gen_gemm_ops.py --dgemm-opt BUILD/bin/dgemm-opt [--cases N] [--seed S]
                    [--ptxas PATH] [--max-ptx N] [--work DIR] [--keep]

Deterministic from --seed: N random dgemm.gemm, dgemm.grouped_gemm
(contiguous, masked) and dgemm.k_grouped_gemm ops with random shapes,
element types, strides, recipes, m_hints, configs (with their optional
fields: stream_b, a_box_rows, a second tile shape) and targets; most are
built valid and about half are then mutated once or twice. Each case's
outcome is predicted by `Rules` below, an independent statement of the
rules of docs and verifiers (it never calls dgemm), and compared with what
dgemm-opt does:

  verified   dgemm-opt accepts the case exactly when the rules say valid;
  selected   dgemm-select-config succeeds on a valid case without a config
             exactly when the rules say a config exists, and the config it
             prints is valid by the rules, with A's box cut exactly where
             the rules cut it;
  lowered    dgemm-to-ptx succeeds on a valid case exactly when the rules
             say the lowering supports it;
  ptx        the PTX of every lowered case assembles with
             `ptxas -arch=sm_90a` (skipped, with the reason printed, when
             ptxas is absent). At most --max-ptx lowerable cases go through
             the lowering and ptxas (the slow part).

Prints the counts of each stage and every disagreement (with the case's
text); exit status 1 on any disagreement or ptxas failure.
"""
import argparse
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

DYN = None  # a dynamic size or stride: `?`
F8 = ("f8E4M3FN", "f8E5M2")
BITS = {"f8E4M3FN": 8, "f8E5M2": 8, "f32": 32, "bf16": 16, "f16": 16,
        "i32": 32, "i8": 8, "f64": 64}
INT32_MAX = 2**31 - 1
DEFAULT_TARGET = (132, 232448)


def cdiv(a, b):
    return -(-a // b)


def round_up(a, b):
    return cdiv(a, b) * b


# --------------------------------------------------------------------------
# Memref types
# --------------------------------------------------------------------------

class MemRef:
    """shape: sizes (DYN for `?`); strides: None for the identity layout,
    else a list (DYN entries allowed) with an offset (int or DYN)."""

    def __init__(self, shape, elem, strides=None, offset=0):
        self.shape = list(shape)
        self.elem = elem
        self.strides = None if strides is None else list(strides)
        self.offset = offset

    def copy(self):
        return MemRef(self.shape, self.elem, self.strides, self.offset)

    @property
    def rank(self):
        return len(self.shape)

    def effective_strides(self):
        """The strides MLIR derives: the written ones, or the row-major
        ones of the identity layout (dynamic once a dynamic size is inside;
        zero once a zero size is)."""
        if self.strides is not None:
            return list(self.strides)
        out, acc = [], 1
        for size in reversed(self.shape):
            out.append(acc)
            if acc is DYN:
                continue
            if size is DYN:
                acc = 0 if acc == 0 else DYN
            else:
                acc = acc * size
        return list(reversed(out))

    def text(self):
        dims = "".join(("?" if d is DYN else str(d)) + "x" for d in self.shape)
        s = "memref<%s%s" % (dims, self.elem)
        if self.strides is not None:
            st = ", ".join("?" if x is DYN else str(x) for x in self.strides)
            if self.offset == 0:
                s += ", strided<[%s]>" % st
            else:
                s += ", strided<[%s], offset: %s>" % (
                    st, "?" if self.offset is DYN else self.offset)
        return s + ">"


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------

class Case:
    """One op. kind: gemm | contiguous | masked | kgrouped. operands: name ->
    MemRef, in the op's order; c_is_d: the accumulate input is D itself."""

    def __init__(self, kind):
        self.kind = kind
        self.operands = {}
        self.c_is_d = False
        self.recipe = None      # (a_rows, a_cols, b_rows, b_cols) or None
        self.config = None      # dict or None
        self.target = None      # (chip, sms, smem) or None
        self.m_hint = None
        self.mutations = []

    @staticmethod
    def optional_fields(c):
        """The config's optional fields, each written only when set (the
        parser's defaults: false and 0), in the attribute's order."""
        s = ""
        if c.get("stream_b"):
            s += ", stream_b = true"
        for key, name in (("alt_bm", "alt_block_m"), ("alt_bn", "alt_block_n"),
                          ("alt_stages", "alt_stages"),
                          ("alt_sms", "alt_num_sms"), ("abox", "a_box_rows")):
            if c.get(key, 0) != 0:
                s += ", %s = %d" % (name, c[key])
        return s

    def text(self, name):
        ops = self.operands
        args, seen = [], set()
        for key, ty in ops.items():
            if key == "c" and self.c_is_d:
                continue
            args.append("%%%s: %s" % (key, ty.text()))
        attrs = []
        if self.recipe is not None:
            attrs.append("recipe = #dgemm.recipe<a = %dx%d, b = %dx%d>" % self.recipe)
        if self.config is not None:
            c = self.config
            attrs.append(
                "config = #dgemm.config<block_m = %d, block_n = %d, stages = %d, "
                "cluster = %d, multicast = %s, math_warpgroups = %d, "
                "swizzle_group = %d, num_sms = %d%s>" % (
                    c["bm"], c["bn"], c["stages"], c["cluster"], c["mc"],
                    c["mwg"], c["swizzle"], c["sms"], Case.optional_fields(c)))
        if self.target is not None:
            attrs.append('target = #dgemm.target<"%s", sms = %d, smem = %d>'
                         % self.target)
        if self.m_hint is not None:
            attrs.append("m_hint = %d : i64" % self.m_hint)
        attr = (" {" + ", ".join(attrs) + "}") if attrs else ""
        t = {k: v.text() for k, v in ops.items()}
        ins = "ins(%%a, %%sa, %%b, %%sb : %s, %s, %s, %s)" % (
            t["a"], t["sa"], t["b"], t["sb"])
        if self.kind == "gemm":
            acc = ""
            if "c" in ops:
                cname = "%d" if self.c_is_d else "%c"
                acc = " acc(%s : %s)" % (cname, t["c"])
            if "bias" in ops:
                acc += " bias(%%bias : %s)" % t["bias"]
            op = "dgemm.gemm %s%s outs(%%d : %s)%s" % (ins, acc, t["d"], attr)
        elif self.kind in ("contiguous", "masked"):
            op = ("dgemm.grouped_gemm #dgemm.grouped<%s> %s groups(%%g : %s) "
                  "outs(%%d : %s)%s" % (self.kind, ins, t["g"], t["d"], attr))
        else:
            op = ("dgemm.k_grouped_gemm %s ks(%%g : %s) outs(%%d : %s)%s"
                  % (ins, t["g"], t["d"], attr))
        return ("func.func @%s(%s) {\n  %s\n  return\n}\n"
                % (name, ", ".join(args), op))


# --------------------------------------------------------------------------
# The rules (an independent statement; see include/dgemm/Dialect/DGEMM/IR)
# --------------------------------------------------------------------------

class Invalid(Exception):
    pass


def need(cond, why):
    if not cond:
        raise Invalid(why)


def static(v):
    return v is not DYN


def eq(got, want):
    """A size rule holds when either side is dynamic."""
    return got is DYN or want is DYN or got == want


def contiguous_along(t, dim):
    """Unit stride along `dim` (a dimension of size 1 needs none)."""
    return t.effective_strides()[dim] == 1 or t.shape[dim] == 1


def tma_rows_aligned(t, inner):
    """Every other dimension of more than one element (dynamic sizes count)
    with a static stride steps a multiple of 16 bytes."""
    for d, s in enumerate(t.effective_strides()):
        if d == inner or s is DYN or t.shape[d] == 1:
            continue
        if (s * BITS[t.elem] // 8) % 16 != 0:
            return False
    return True


def stride_at_least(t, dim, minimum):
    s = t.effective_strides()[dim]
    return s is DYN or minimum is DYN or t.shape[dim] == 1 or s >= minimum


def not_self_overlapping(t):
    """A written operand: ordering its dimensions of more than one element
    by stride (ties: the later dimension inside), each steps past what the
    one inside it spans. Unknowable (accepted) with a dynamic stride."""
    if 0 in t.shape:
        return True
    st = t.effective_strides()
    dims = []
    for d in range(t.rank):
        if t.shape[d] == 1:
            continue
        if st[d] is DYN:
            return True
        if st[d] == 0:
            return False
        dims.append(d)
    dims.sort(key=lambda d: (st[d], -d))
    for inner, outer in zip(dims, dims[1:]):
        if t.shape[inner] is DYN:
            continue
        if st[outer] < st[inner] * t.shape[inner]:
            return False
    return True


class Rules:
    """What dgemm must do with a case: valid (verifies), selectable (a
    config is chosen when none is attached), lowerable (dgemm-to-ptx)."""

    # -- attributes (checked by the parser) --
    @staticmethod
    def attributes(c):
        if c.recipe is not None:
            ar, ac, br, bc = c.recipe
            need(ar == 1 and ac == 128, "recipe: A is 1x128")
            need(bc == 128 and br in (1, 128), "recipe: B is 128x128 or 1x128")
        if c.target is not None:
            chip, sms, smem = c.target
            need(chip == "sm_90a", "target chip")
            need(1 <= sms <= 1024, "target sms")
            need(1024 <= smem <= 232448, "target smem")
        if c.config is not None:
            k = c.config
            need(k["bm"] in (64, 128, 256), "config block_m")
            need(8 <= k["bn"] <= 256 and k["bn"] % 8 == 0, "config block_n")
            need(1 <= k["stages"] <= 32, "config stages")
            need(k["cluster"] in (1, 2), "config cluster")
            need((k["cluster"] == 2) == (k["mc"] != "none"),
                 "config cluster/multicast")
            need(k["mwg"] in (1, 2), "config math_warpgroups")
            need(k["swizzle"] >= 1, "config swizzle_group")
            need(k["sms"] >= 1 and k["sms"] % k["cluster"] == 0,
                 "config num_sms")
            if Rules.has_alt(k):
                need(k.get("alt_bm", 0) in (64, 128), "config alt_block_m")
                abn = k.get("alt_bn", 0)
                need(8 <= abn <= 256 and abn % 8 == 0, "config alt_block_n")
                need(1 <= k.get("alt_stages", 0) <= 32, "config alt_stages")
                need(k.get("alt_sms", 0) >= 1, "config alt_num_sms")
            abox = k.get("abox", 0)
            need(abox == 0 or (abox >= 8 and abox % 8 == 0 and abox < k["bm"]),
                 "config a_box_rows")

    @staticmethod
    def has_alt(k):
        return any(k.get(x, 0) != 0
                   for x in ("alt_bm", "alt_bn", "alt_stages", "alt_sms"))

    @staticmethod
    def per_row_b(c):
        return c.recipe is not None and c.recipe[2] == 1

    # -- the problem the config selection sees --
    @staticmethod
    def problem(c, default_m):
        o = c.operands
        p = {"kind": c.kind, "groups": 1, "out": "bf16",
             "per_row": Rules.per_row_b(c)}
        if c.kind == "gemm":
            a = o["a"]
            p["m"] = a.shape[0] if static(a.shape[0]) else (
                c.m_hint if c.m_hint is not None else default_m)
            p["n"], p["k"] = o["b"].shape[0], a.shape[1]
            p["out"] = "f32" if o["d"].elem == "f32" else "bf16"
        elif c.kind in ("contiguous", "masked"):
            mdim = 1 if c.kind == "masked" else 0
            a, b = o["a"], o["b"]
            if c.m_hint is not None:
                p["m"] = c.m_hint
            else:
                p["m"] = a.shape[mdim] if static(a.shape[mdim]) else default_m
            # K is A's (static; B's may be dynamic), N is B's (static).
            p["n"], p["k"] = b.shape[1], a.shape[mdim + 1]
            p["groups"] = b.shape[0] if static(b.shape[0]) else 1
            p["per_row"] = False
        else:
            d, sa = o["d"], o["sa"]
            p["groups"], p["m"], p["n"] = d.shape
            kb = sa.shape[0] if static(sa.shape[0]) else p["groups"]
            p["k"] = 128 * max(1, kb // max(1, p["groups"]))
            p["out"], p["per_row"] = "f32", True
        return p

    @staticmethod
    def problem_error(p):
        if not 1 <= p["m"] <= INT32_MAX:
            return "M out of range"
        align = 8 if p["out"] == "bf16" else 4
        if p["n"] < align or p["n"] % align or p["n"] > INT32_MAX:
            return "N not a positive multiple of 16 bytes / too large"
        if p["k"] < 128 or p["k"] % 128 or p["k"] > INT32_MAX:
            return "K"
        if not 1 <= p["groups"] <= INT32_MAX:
            return "groups"
        if p["kind"] == "gemm" and p["groups"] != 1:
            return "normal groups"
        return None

    # -- shared memory, registers and scale blocks of a tile --
    @staticmethod
    def stage_bytes(bm, bn, p):
        extra = round_up(4 * bn, 128) if p["per_row"] else 0
        return 128 * bm + 128 * bn + 4 * bm + 16 + extra

    @staticmethod
    def fixed_bytes(bm, bn, p):
        out = 2 if p["out"] == "bf16" else 4
        sfb = 0 if p["per_row"] else round_up(
            4 * Rules.scale_rows(bn) * max(p["k"] // 128, 1), 128)
        counts = 4 * max(p["groups"], 1) if p["kind"] == "masked" else 0  # masked_m copy
        return out * bm * bn + 1024 + sfb + counts

    @staticmethod
    def stages_that_fit(bm, bn, p, smem):
        left = smem - Rules.fixed_bytes(bm, bn, p)
        return 0 if left <= 0 else left // Rules.stage_bytes(bm, bn, p)

    @staticmethod
    def registers_ok(bm, bn, mwg, per_row=False):
        """One fresh tile, a total per m64 row wave (two at block M 256), a
        reserve of 40, and (what the selection asks of 1x128 B scales, early
        release) the columns' scales of a K block (bn / 4); a config is
        valid without the latter (late release)."""
        rows = bm // mwg
        waves = cdiv(max(rows, 1), 64)
        need = (1 + waves) * bn // 2 + 40 + (bn // 4 if per_row else 0)
        return need <= {1: 240, 2: 232}[mwg]

    @staticmethod
    def scale_rows(bn):
        """128-wide B-scale blocks a tile can span (rows the kernel copies)."""
        return 2 if bn <= 128 + math.gcd(bn, 128) else 3

    @staticmethod
    def config_error(k, p, target):
        err = Rules.problem_error(p)
        if err:
            return err
        bm, bn = k["bm"], k["bn"]
        if bm == 256 and p["kind"] == "contiguous":
            return "block_m 256 contiguous"
        if bm == 256 and (p["kind"] not in ("gemm", "masked") or p["out"] != "bf16" or
                          p["per_row"]):
            return "block_m 256 only for the normal and masked bf16 GEMMs, 128x128 B scales"
        if k["mwg"] != (1 if bm == 64 else 2):
            return "math_warpgroups"
        if not Rules.registers_ok(bm, bn, k["mwg"]):
            return "registers"
        if k["stages"] > Rules.stages_that_fit(bm, bn, p, target[1]):
            return "shared memory"
        if k["mc"] != "none" and p["kind"] == "kgrouped":
            return "multicast k-grouped"
        if k["mc"] == "b" and p["kind"] not in ("gemm", "contiguous"):
            return "multicast b masked"
        if k["mc"] == "b" and bn % 16:
            return "multicast b half atoms"
        if k["mc"] == "a" and cdiv(p["n"], bn) % 2:
            return "multicast a odd N blocks"
        if k["sms"] > target[0]:
            return "num_sms"
        abox = k.get("abox", 0)
        if abox:
            # A's box cut to a_box_rows rows: normal GEMM, one CTA per
            # cluster, and a static M (or hint) that fits the box.
            if p["kind"] != "gemm":
                return "a_box_rows normal only"
            if k["cluster"] != 1:
                return "a_box_rows cluster"
            if p["m"] > abox:
                return "a_box_rows below M"
        if Rules.has_alt(k):
            # A second tile shape: masked only, one CTA per cluster, a
            # smaller block M with the same consumer count, and itself a
            # valid config of the problem.
            if p["kind"] != "masked":
                return "second shape masked only"
            if k["cluster"] != 1:
                return "second shape cluster"
            if k["alt_bm"] >= bm or (1 if k["alt_bm"] == 64 else 2) != k["mwg"]:
                return "second shape block_m"
            alt = dict(k, bm=k["alt_bm"], bn=k["alt_bn"],
                       stages=k["alt_stages"], sms=k["alt_sms"], alt_bm=0,
                       alt_bn=0, alt_stages=0, alt_sms=0, abox=0)
            err = Rules.config_error(alt, p, target)
            if err:
                return "second shape: " + err
        return None

    # -- operands --
    @staticmethod
    def gemm_operands(c, ga, gb, out_types):
        o = c.operands
        a, sa, b, sb, d = o["a"], o["sa"], o["b"], o["sb"], o["d"]
        per_row = Rules.per_row_b(c)
        need(a.rank == 2 + ga and sa.rank == 2 + ga and b.rank == 2 + gb and
             sb.rank == 2 + gb and d.rank == 2 + ga, "ranks")
        need(a.elem in F8 and b.elem in F8, "A/B element type")
        need(sa.elem == "f32" and sb.elem == "f32", "scale element type")
        need(d.elem in out_types, "D element type")
        m, k, n = a.shape[ga], a.shape[ga + 1], b.shape[gb]
        need(static(k) and static(n), "K and N static")
        need(k > 0 and k % 128 == 0, "K multiple of 128")
        kb = k // 128
        need(eq(b.shape[gb + 1], k) and eq(d.shape[ga], m) and
             eq(d.shape[ga + 1], n) and eq(sa.shape[ga], m) and
             eq(sa.shape[ga + 1], kb), "sizes agree")
        if per_row:
            need(eq(sb.shape[gb], n) and eq(sb.shape[gb + 1], kb), "B scales 1x128")
        else:
            need(eq(sb.shape[gb], cdiv(n, 128)) and eq(sb.shape[gb + 1], kb),
                 "B scales 128x128")
        g = 1
        if gb:
            g = b.shape[0]
            need(eq(sb.shape[0], g), "B scales G")
            if ga:
                need(eq(a.shape[0], g) and eq(sa.shape[0], g) and
                     eq(d.shape[0], g), "A/D G")
        need(contiguous_along(a, ga + 1) and tma_rows_aligned(a, ga + 1),
             "A K-major, rows aligned")
        need(contiguous_along(b, gb + 1) and tma_rows_aligned(b, gb + 1),
             "B K-major, rows aligned")
        need(contiguous_along(d, ga + 1) and tma_rows_aligned(d, ga + 1) and
             not_self_overlapping(d), "D row-major, aligned, no overlap")
        need(contiguous_along(sa, ga) and stride_at_least(sa, ga + 1, m) and
             tma_rows_aligned(sa, ga), "A scales MN-major")
        if per_row:
            need(contiguous_along(sb, gb) and stride_at_least(sb, gb + 1, n) and
                 tma_rows_aligned(sb, gb), "B scales MN-major")
        else:
            need(contiguous_along(sb, gb + 1), "B scales K-block-major")
        return m, n, g

    @staticmethod
    def check(c):
        """Raises Invalid when the case must be rejected."""
        Rules.attributes(c)
        o = c.operands
        if c.kind == "gemm":
            m, n, _ = Rules.gemm_operands(c, 0, 0, ("bf16", "f32"))
            if "c" in o:
                cc, d = o["c"], o["d"]
                need(d.elem == "f32", "C needs an f32 D")
                need(cc.rank == 2 and cc.elem == "f32" and eq(cc.shape[0], m)
                     and eq(cc.shape[1], n) and contiguous_along(cc, 1) and
                     tma_rows_aligned(cc, 1) and not_self_overlapping(cc), "C")
            if "bias" in o:
                bias = o["bias"]
                need(o["d"].elem == "bf16", "a bias needs a bf16 D")
                need(bias.rank == 1 and bias.elem == "f32" and eq(bias.shape[0], n)
                     and contiguous_along(bias, 0), "bias")
        elif c.kind in ("contiguous", "masked"):
            need(not Rules.per_row_b(c), "grouped recipe")
            masked = c.kind == "masked"
            m, n, g = Rules.gemm_operands(c, 1 if masked else 0, 1, ("bf16",))
            grp = o["g"]
            need(grp.rank == 1 and grp.elem == "i32", "groups operand")
            if masked:
                need(eq(grp.shape[0], g), "masked_m G")
            else:
                need(eq(grp.shape[0], m), "m_indices M_sum")
                need(m is DYN or m % 128 == 0, "M_sum multiple of 128")
        else:
            need(c.recipe is not None and Rules.per_row_b(c), "k-grouped recipe")
            a, sa, b, sb, ks, d = (o[x] for x in ("a", "sa", "b", "sb", "g", "d"))
            need(a.rank == 1 and b.rank == 1 and sa.rank == 2 and sb.rank == 2
                 and ks.rank == 1 and d.rank == 3, "ranks")
            need(a.elem in F8 and b.elem in F8 and sa.elem == "f32" and
                 sb.elem == "f32" and ks.elem == "i32" and d.elem == "f32",
                 "element types")
            need(all(static(x) for x in d.shape), "D static")
            g, m, n = d.shape
            need(eq(ks.shape[0], g) and eq(sa.shape[1], m) and
                 eq(sb.shape[1], n) and eq(sb.shape[0], sa.shape[0]), "sizes")
            kb = sa.shape[0]
            if static(kb):
                need(eq(a.shape[0], m * 128 * kb) and
                     eq(b.shape[0], n * 128 * kb), "flat sizes")
            need(contiguous_along(a, 0) and contiguous_along(b, 0) and
                 contiguous_along(sa, 1) and tma_rows_aligned(sa, 1) and
                 contiguous_along(sb, 1) and tma_rows_aligned(sb, 1) and
                 contiguous_along(d, 2) and tma_rows_aligned(d, 2) and
                 not_self_overlapping(d), "layouts")
        if c.kind != "kgrouped" and c.m_hint is not None:
            need(c.m_hint >= 1, "m_hint positive")
        if c.config is not None:
            err = Rules.config_error(c.config, Rules.problem(c, 1),
                                     c.target[1:] if c.target else DEFAULT_TARGET)
            need(err is None, "config: %s" % err)

    @staticmethod
    def valid(c):
        try:
            Rules.check(c)
            return True, ""
        except Invalid as e:
            return False, str(e)

    @staticmethod
    def selectable(c, max_block_m=256):
        """A valid case without a config gets one: the problem is one
        configs are chosen for and the smallest tile (64 x min(16, N)) fits
        three stages (every allowed tile needs more shared memory)."""
        p = Rules.problem(c, 4096)
        if Rules.problem_error(p):
            return False
        target = c.target[1:] if c.target else DEFAULT_TARGET
        n8 = max(8, round_up(p["n"], 8))
        # The smallest block N the selection takes: 16; f32 outputs a
        # multiple of 32, bf16 with K <= 4096 a multiple of 64 (or N).
        bn = min(16, n8)
        if p["out"] == "f32":
            bn = min(32, n8)
        elif p["k"] <= 4096:
            bn = min(64, n8)
        return Rules.stages_that_fit(64, bn, p, target[1]) >= 3

    @staticmethod
    def selected_error(c, k):
        """What is wrong with config `k` that dgemm-select-config chose for
        valid case `c`, or None: it must be a valid config of the problem
        the verifier sees, and A's box is cut (to M rounded up to 8) exactly
        for a static M that leaves rows of a block M 64 or 128 spare, in the bf16
        normal GEMM with 128x128 B scales and no cluster. With its default
        options the pass allows what the runtime allows: multicast from
        8192 rows (M, its hint, or 4096 without either) at K >= 2048 on an
        even SM count with more tiles than SMs, not k-grouped, not a weight-gradient form (1x128 B
        scales, f32 D); B (block N a multiple of 16; the normal GEMM with
        even M blocks, the contiguous layout with any) where A cannot pair
        (odd N blocks) or block N exceeds block M, else A where the N
        blocks are even."""
        target = c.target[1:] if c.target else DEFAULT_TARGET
        err = Rules.config_error(k, Rules.problem(c, 1), target)
        if err:
            return "selected config: " + err
        p = Rules.problem(c, 4096)
        want_mc = "none"
        tiles = cdiv(p["m"], k["bm"]) * cdiv(p["n"], k["bn"]) * (
            p["groups"] if c.kind == "masked" else 1)
        if (p["m"] >= 8192 and p["k"] >= 2048 and target[0] % 2 == 0 and
                tiles > target[0] and
                c.kind != "kgrouped" and not p["per_row"] and p["out"] == "bf16"):
            can_a = cdiv(p["n"], k["bn"]) % 2 == 0
            can_b = k["bn"] % 16 == 0 and (
                (c.kind == "gemm" and cdiv(p["m"], k["bm"]) % 2 == 0) or
                c.kind == "contiguous")
            if can_b and (not can_a or k["bn"] > k["bm"]):
                want_mc = "b"
            elif can_a:
                want_mc = "a"
        if k["mc"] != want_mc or k["cluster"] != (1 if want_mc == "none" else 2):
            return ("cluster %d, multicast %s: the default selection's rules "
                    "(as the runtime's) say multicast %s" % (k["cluster"], k["mc"], want_mc))
        a = c.operands["a"]
        want = 0
        if (c.kind == "gemm" and static(a.shape[0]) and
                c.operands["d"].elem == "bf16" and not Rules.per_row_b(c) and
                k["bm"] <= 128 and k["cluster"] == 1 and
                round_up(a.shape[0], 8) < k["bm"]):
            want = round_up(a.shape[0], 8)
        if k.get("abox", 0) != want:
            return "a_box_rows %d, the rules say %d" % (k.get("abox", 0), want)
        return None

    @staticmethod
    def lowerable(c):
        """What dgemm-lower-to-kernel builds: f8E4M3FN operands; block M 64,
        128 or (normal or masked bf16 GEMM, 128x128 B scales: the config
        rules) 256; normal: either recipe, a bf16 or f32 D,
        an accumulate input only when it is D itself, and no cluster for the
        weight-gradient forms (1x128 B scales or an f32 D); grouped: a
        static group count; masked: an identity-layout D; k-grouped: at
        most 3984 groups, no cluster. Without a config the
        pipeline selects one within those bounds."""
        o = c.operands
        if o["a"].elem != "f8E4M3FN" or o["b"].elem != "f8E4M3FN":
            return False
        wgrad_form = False
        if c.kind == "kgrouped":
            if o["d"].shape[0] > 3984:
                return False
            wgrad_form = True
        elif c.kind == "gemm":
            if "c" in o and not c.c_is_d:
                return False
            wgrad_form = Rules.per_row_b(c) or o["d"].elem == "f32"
        else:
            if o["b"].shape[0] is DYN:
                return False
            if c.kind == "masked" and o["d"].strides is not None:
                return False
        if c.config is None:
            return Rules.selectable(c, max_block_m=256)
        k = c.config
        if k["bm"] not in (64, 128, 256):
            return False
        if wgrad_form and k["cluster"] != 1:
            return False
        return True


# --------------------------------------------------------------------------
# Generating cases
# --------------------------------------------------------------------------

class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def pick(self, *choices):
        return self.r.choice(choices)

    def k_blocks(self):
        return self.r.choice([1, 1, 2, 4, 7, 8, 16, 32, 56, 64, 128, 3, 5])

    def n_size(self, align=8):
        n = self.r.choice([align, 16, 24, 64, 96, 112, 128, 136, 256, 576,
                           1536, 2048, 2112, 4096, 7168, 24576])
        if self.r.random() < 0.3:
            n = align * self.r.randint(1, 1024)
        return n

    def m_size(self):
        if self.r.random() < 0.25:
            # About A's box at small M: rounding to 8 and block M 64's end.
            return self.r.choice([8, 9, 16, 33, 55, 56, 57, 63])
        return self.r.choice([1, 7, 64, 100, 128, 256, 1000, 4096, 8192])

    def row_stride(self, inner, elem_bytes, min_stride):
        """A row stride at least `min_stride`, 16-byte aligned."""
        unit = max(1, 16 // elem_bytes)
        return round_up(min_stride, unit) + unit * self.r.choice([0, 0, 1, 3, 64])

    def dense_or_strided(self, shape, elem, unit_dim_last=True):
        """Row-major: identity or an equivalent/padded strided layout."""
        t = MemRef(shape, elem)
        if self.r.random() < 0.3 and all(static(x) for x in shape[1:]):
            eb = max(1, BITS[elem] // 8)
            strides = [1]
            span = shape[-1]
            for size in reversed(shape[:-1]):
                s = self.row_stride(None, eb, span)
                strides.append(s)
                span = s * (size if static(size) else 1)
            t.strides = list(reversed(strides))
            t.offset = self.r.choice([0, 0, DYN, 16])
        return t

    def mn_major(self, lead, rows, kb, elem="f32"):
        """[lead..., rows, kb] with stride 1 along rows and a row stride
        (along kb) >= rows, a multiple of 4 floats; leading dims outside."""
        s = DYN if (rows is DYN or self.r.random() < 0.3) else round_up(rows, 4) + 4 * self.r.choice([0, 0, 1, 8])
        strides = [1, s]
        if lead:
            inner_span = DYN if s is DYN else s * kb
            strides = [DYN if inner_span is DYN or self.r.random() < 0.3 else inner_span] + strides
        return MemRef(list(lead) + [rows, kb], elem, strides, self.pick(0, 0, DYN))

    def config(self, c):
        bm = self.pick(64, 128, 128, 256)
        mwg = 1 if bm == 64 else 2
        bn = self.r.choice(self.block_ns_that_fit(bm))
        mc = self.pick("none", "none", "none", "a", "b")
        smem = c.target[2] if c.target else DEFAULT_TARGET[1]
        sms = max(1, c.target[1] if c.target else DEFAULT_TARGET[0])
        k = {"bm": bm, "bn": bn, "stages": self.r.randint(1, 8),
             "cluster": 1 if mc == "none" else 2, "mc": mc, "mwg": mwg,
             "swizzle": self.pick(1, 2, 8, 16, 1000),
             "sms": max(1, (self.r.randint(1, sms) // 2) * 2) if mc != "none"
             else self.r.randint(1, sms)}
        k["stream_b"] = self.r.random() < 0.2
        if c.kind == "gemm" and self.r.random() < 0.3:
            # A's box: mostly a multiple of 8 below block M, without a
            # cluster, above the static M when there is one.
            k["abox"] = self.a_box_rows(bm)
            m = c.operands["a"].shape[0]
            if static(m) and 0 < m < bm and self.r.random() < 0.7:
                k["abox"] = round_up(m, 8) if m < bm - 8 else bm - 8
            if self.r.random() < 0.8:
                k["cluster"], k["mc"] = 1, "none"
        if c.kind == "masked" and self.r.random() < 0.35:
            # A second tile shape; valid mostly at block M 256 with 128.
            if self.r.random() < 0.8:
                k.update(bm=256, mwg=2, cluster=1, mc="none",
                         stages=self.r.randint(1, 4))
                k["bn"] = self.r.choice([bn for bn in range(8, 129, 8)])
            k["alt_bm"] = self.pick(128, 128, 128, 64)
            k["alt_bn"] = self.r.choice(self.block_ns_that_fit(k["alt_bm"]))
            k["alt_stages"] = self.r.randint(1, 5)
            k["alt_sms"] = self.r.randint(1, sms)
        return k

    @staticmethod
    def block_ns_that_fit(bm):
        """Block N values (multiples of 8 up to 256) whose accumulators fit a
        consumer's registers at block M `bm` (one consumer at 64 rows, two
        otherwise), from which the generator draws."""
        mwg = 1 if bm == 64 else 2
        waves = cdiv(bm // mwg, 64)
        budget = 240 if mwg == 1 else 232
        return [bn for bn in range(8, 257, 8) if waves * bn + 40 <= budget]

    def a_box_rows(self, bm):
        if self.r.random() < 0.85:
            return 8 * self.r.randint(1, max(1, bm // 8 - 1))
        return self.pick(4, 12, bm, bm + 8, -8)

    def common_attrs(self, c, hint_ok=True):
        if self.r.random() < 0.2:
            c.target = ("sm_90a", self.pick(132, 132, 78, 114, 1, 1024),
                        self.pick(232448, 232448, 200000, 100000, 65536, 1024))
        if hint_ok and self.r.random() < 0.4:
            c.m_hint = self.pick(1, 64, 128, 4096, 100000)
        if self.r.random() < 0.35:
            c.config = self.config(c)

    def gemm(self):
        c = Case("gemm")
        kb, n = self.k_blocks(), self.n_size()
        k = 128 * kb
        m = DYN if self.r.random() < 0.4 else self.m_size()
        fa, fb = self.pick(*(F8 * 3 + ("f8E4M3FN",) * 4)), self.pick(*(F8 * 3 + ("f8E4M3FN",) * 4))
        per_row = self.r.random() < 0.2
        out = "f32" if self.r.random() < 0.25 else "bf16"
        if out == "f32":
            n = 4 * self.r.randint(1, 512) if self.r.random() < 0.3 else n
        c.operands["a"] = self.dense_or_strided([m, k], fa)
        c.operands["sa"] = self.mn_major([], m, kb)
        c.operands["b"] = self.dense_or_strided([n, k], fb)
        if per_row:
            c.recipe = (1, 128, 1, 128)
            c.operands["sb"] = self.mn_major([], n, kb)
        else:
            if self.r.random() < 0.3:
                c.recipe = (1, 128, 128, 128)
            c.operands["sb"] = MemRef([cdiv(n, 128), kb], "f32")
        if out == "f32" and self.r.random() < 0.4:
            c.operands["c"] = MemRef([m, n], "f32")
            c.c_is_d = self.r.random() < 0.5
        if out == "bf16" and self.r.random() < 0.25:
            # Epilogue fusion: an f32 bias [N].
            c.operands["bias"] = self.dense_or_strided([n], "f32")
        c.operands["d"] = self.dense_or_strided([m, n], out)
        if "c" in c.operands:
            d = c.operands.pop("d")
            if c.c_is_d:
                c.operands["c"] = d.copy()
            c.operands["d"] = d
        self.common_attrs(c)
        return c

    def grouped(self, masked):
        c = Case("masked" if masked else "contiguous")
        kb, n = self.k_blocks(), self.n_size()
        k = 128 * kb
        g = self.pick(1, 2, 4, 8, 32) if self.r.random() < 0.9 else DYN
        fe = "f8E4M3FN" if self.r.random() < 0.85 else "f8E5M2"
        if masked:
            mm = self.pick(64, 128, 256, 1024, 7, DYN)
            c.operands["a"] = self.dense_or_strided([g, mm, k], fe)
            c.operands["sa"] = self.mn_major([g], mm, kb)
        else:
            mm = DYN if self.r.random() < 0.4 else 128 * self.r.randint(1, 64)
            c.operands["a"] = self.dense_or_strided([mm, k], fe)
            c.operands["sa"] = self.mn_major([], mm, kb)
        c.operands["b"] = self.dense_or_strided([g, n, k], fe)
        c.operands["sb"] = MemRef([g, cdiv(n, 128), kb], "f32")
        if self.r.random() < 0.2:
            c.recipe = (1, 128, 128, 128)
        c.operands["g"] = MemRef([g if masked else mm], "i32")
        if masked:
            c.operands["d"] = (MemRef([g, mm, n], "bf16") if self.r.random() < 0.8
                               else self.dense_or_strided([g, mm, n], "bf16"))
        else:
            c.operands["d"] = self.dense_or_strided([mm, n], "bf16")
        self.common_attrs(c)
        return c

    def kgrouped(self):
        c = Case("kgrouped")
        g, m, n = self.pick(1, 4, 8), self.pick(128, 256, 4096, 7168, 100), self.n_size(4)
        kb = self.pick(4, 8, 16, 32) if self.r.random() < 0.7 else DYN
        fe = self.pick(*F8)
        c.recipe = (1, 128, 1, 128)
        flat_a = DYN if kb is DYN else m * 128 * kb
        flat_b = DYN if kb is DYN else n * 128 * kb
        c.operands["a"] = MemRef([self.pick(flat_a, DYN)], fe)
        c.operands["sa"] = MemRef([kb, m], "f32")
        c.operands["b"] = MemRef([self.pick(flat_b, DYN)], fe)
        c.operands["sb"] = MemRef([kb, n], "f32")
        c.operands["g"] = MemRef([self.pick(g, DYN)], "i32")
        c.operands["d"] = MemRef([g, m, n], "f32")
        self.common_attrs(c, hint_ok=False)
        return c

    # -- mutations: any rule may or may not break; Rules decides --
    def mutate(self, c):
        what = self.r.choice(["elem", "dim", "dim", "dim", "stride", "stride",
                              "layout", "rank", "recipe", "hint", "config",
                              "config", "target", "kind"])
        keys = [k for k in c.operands if not (k == "c" and c.c_is_d)]
        key = self.r.choice(keys)
        t = c.operands[key]
        if c.c_is_d and key == "d":
            t = c.operands["c"] = t.copy()  # C stops being D
            c.c_is_d = False
        c.mutations.append("%s(%s)" % (what, key))
        if what == "elem":
            t.elem = self.r.choice(list(BITS))
        elif what == "dim":
            i = self.r.randrange(t.rank)
            v = t.shape[i]
            t.shape[i] = self.r.choice([
                DYN, 0, 1, 2**33, (v or 128) + 1, (v or 128) * 2,
                max(1, (v or 128) - 8), (v or 128) + 128])
            if t.strides is not None and self.r.random() < 0.5:
                t.strides = None
        elif what == "stride":
            st = t.effective_strides()
            i = self.r.randrange(t.rank)
            st[i] = self.r.choice([DYN, 0, 1, 2, 3, 4, 8, 16,
                                   (st[i] or 1) + 1, (st[i] or 1) * 2])
            t.strides, t.offset = st, self.pick(0, DYN)
        elif what == "layout":
            t.strides = None
        elif what == "rank":
            if t.rank > 1 and self.r.random() < 0.5:
                t.shape.pop(self.r.randrange(t.rank))
            else:
                t.shape.insert(0, self.pick(1, 2, DYN))
            t.strides = None
        elif what == "recipe":
            c.recipe = self.r.choice([(1, 128, 128, 128), (1, 128, 1, 128),
                                      (128, 128, 128, 128), (1, 64, 1, 128),
                                      (1, 128, 1, 64), None])
        elif what == "hint":
            c.m_hint = self.r.choice([0, -1, 1, 2**40, None, 64])
        elif what == "config":
            if c.config is None:
                c.config = self.config(c)
            field = self.r.choice(["bm", "bn", "stages", "cluster", "mwg",
                                   "swizzle", "sms", "mc", "abox", "alt_bm",
                                   "alt_bn", "alt_stages", "alt_sms"])
            c.config[field] = {
                "bm": lambda: self.pick(64, 128, 256, 32),
                "bn": lambda: self.pick(8, 16, 112, 136, 152, 192, 200, 256, 12, 264),
                "stages": lambda: self.pick(0, 1, 3, 8, 12, 32, 33),
                "cluster": lambda: self.pick(1, 2, 3),
                "mwg": lambda: self.pick(1, 2, 3),
                "swizzle": lambda: self.pick(0, 1, 16),
                "sms": lambda: self.pick(0, 1, 2, 131, 132, 133, 1024),
                "mc": lambda: self.pick("none", "a", "b"),
                "abox": lambda: self.a_box_rows(c.config["bm"]),
                "alt_bm": lambda: self.pick(0, 64, 96, 128, 256),
                "alt_bn": lambda: self.pick(0, 8, 100, 192, 256, 264),
                "alt_stages": lambda: self.pick(0, 1, 4, 33),
                "alt_sms": lambda: self.pick(0, 1, 132, 1024),
            }[field]()
        elif what == "target":
            c.target = (self.pick("sm_90a", "sm_90a", "sm_80"),
                        self.pick(0, 1, 132, 1024, 1025),
                        self.pick(1023, 1024, 40000, 100000, 232448, 232449))
        elif what == "kind" and c.kind in ("contiguous", "masked"):
            c.kind = "masked" if c.kind == "contiguous" else "contiguous"

    def case(self):
        kind = self.r.random()
        if kind < 0.45:
            c = self.gemm()
        elif kind < 0.65:
            c = self.grouped(masked=False)
        elif kind < 0.85:
            c = self.grouped(masked=True)
        else:
            c = self.kgrouped()
        if self.r.random() < 0.5:
            self.mutate(c)
            if self.r.random() < 0.3:
                self.mutate(c)
        return c


# --------------------------------------------------------------------------
# Running dgemm-opt
# --------------------------------------------------------------------------

def write_split(path, cases):
    """One chunk per case (`// -----` between); returns each case's first
    and last line (1-based) so diagnostics can be attributed."""
    lines, spans = [], []
    for name, case in cases:
        if lines:
            lines.append("// -----")
        first = len(lines) + 1
        lines.extend(case.text(name).rstrip("\n").split("\n"))
        spans.append((name, first, len(lines)))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return spans


def failed_chunks(stderr, path, spans):
    """Names of the cases with an error diagnostic in their lines."""
    bad = set()
    base = os.path.basename(path)
    for m in re.finditer(r"^(\S+?):(\d+):\d+: error", stderr, re.M):
        if os.path.basename(m.group(1)) != base:
            continue
        line = int(m.group(2))
        for name, first, last in spans:
            if first <= line <= last:
                bad.add(name)
    return bad


def run_opt(opt, args, path):
    return subprocess.run([opt, path] + args, capture_output=True, text=True,
                          timeout=3600)


def per_case(opt, args, path, spans, output_has_name, outputs=None):
    """Runs dgemm-opt over the split file; returns {name: succeeded}. With
    `outputs` (a dict), fills it with each named function's printed text."""
    r = run_opt(opt, ["--split-input-file"] + args, path)
    failed = failed_chunks(r.stderr, path, spans)
    result = {}
    for name, _, _ in spans:
        ok = name not in failed
        if output_has_name:
            ok = ok and re.search(r"@%s\(" % name, r.stdout) is not None
        result[name] = ok
    if r.returncode != 0 and all(result.values()):
        raise RuntimeError("dgemm-opt failed without attributable errors:\n"
                           + r.stderr[-4000:])
    if outputs is not None:
        for chunk in re.split(r"^// -----$", r.stdout, flags=re.M):
            m = re.search(r"func\.func @(\w+)\(", chunk)
            if m:
                outputs[m.group(1)] = chunk
    return result


CONFIG_FIELDS = {"block_m": "bm", "block_n": "bn", "stages": "stages",
                 "cluster": "cluster", "multicast": "mc",
                 "math_warpgroups": "mwg", "swizzle_group": "swizzle",
                 "num_sms": "sms", "stream_b": "stream_b",
                 "alt_block_m": "alt_bm", "alt_block_n": "alt_bn",
                 "alt_stages": "alt_stages", "alt_num_sms": "alt_sms",
                 "a_box_rows": "abox"}


def parse_config(text):
    """The generator's dict of the first #dgemm.config in `text`, or None."""
    m = re.search(r"#dgemm\.config<([^>]*)>", text)
    if not m:
        return None
    k = {}
    for part in m.group(1).split(","):
        key, value = (x.strip() for x in part.split("="))
        value = {"true": True, "false": False}.get(value, value)
        if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
            value = int(value)
        k[CONFIG_FIELDS[key]] = value
    return k


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dgemm-opt", required=True)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or
                    "/usr/local/cuda/bin/ptxas")
    ap.add_argument("--max-ptx", type=int, default=1000000)
    ap.add_argument("--work", default=None)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()

    gen = Gen(args.seed)
    cases = [("case_%d" % i, gen.case()) for i in range(args.cases)]
    work = args.work or tempfile.mkdtemp(prefix="dgemm-gen-")
    os.makedirs(work, exist_ok=True)
    problems = []

    def report(kind, name, case, expected, why=""):
        problems.append("%s: %s expected %s (%s; mutations %s)\n%s" % (
            kind, name, expected, why, case.mutations,
            case.text(name)))

    # 1. Verification.
    path = os.path.join(work, "all.mlir")
    spans = write_split(path, cases)
    verified = per_case(args.dgemm_opt, [], path, spans, True)
    expect = {name: Rules.valid(c) for name, c in cases}
    for name, c in cases:
        ok, why = expect[name]
        if ok != verified[name]:
            report("verify", name, c, "valid" if ok else "invalid", why)
    valid = [(n, c) for n, c in cases if expect[n][0] and verified[n]]

    # 2. Config selection (dgemm-select-config, default options) on the
    #    valid cases without a config.
    unconfigured = [(n, c) for n, c in valid if c.config is None]
    selected = {}
    checked_selections, selected_boxes = 0, 0
    if unconfigured:
        path = os.path.join(work, "select.mlir")
        spans = write_split(path, unconfigured)
        printed = {}
        selected = per_case(args.dgemm_opt, ["--dgemm-select-config"], path,
                            spans, True, printed)
        for name, c in unconfigured:
            if Rules.selectable(c) != selected[name]:
                report("select", name, c, "selectable" if Rules.selectable(c)
                       else "no config")
            elif selected[name]:
                k = parse_config(printed.get(name, ""))
                why = "no config printed" if k is None else Rules.selected_error(c, k)
                checked_selections += 1
                selected_boxes += 1 if k and k.get("abox", 0) else 0
                if why:
                    report("select", name, c, "a config by the rules", why)

    # 3. The lowering to PTX: the cases the rules call lowerable (at most
    #    --max-ptx) in one module, so ptxas runs once; the valid others must
    #    fail, each in its own chunk.
    lowerable = [(n, c) for n, c in valid if Rules.lowerable(c)]
    rest = [(n, c) for n, c in valid if not Rules.lowerable(c)]
    if rest:
        path = os.path.join(work, "not-lowerable.mlir")
        spans = write_split(path, rest)
        lowered = per_case(args.dgemm_opt, ["--dgemm-to-ptx"], path, spans,
                           False)
        for name, c in rest:
            if lowered[name]:
                report("lower", name, c, "a lowering error")
    all_lowerable = len(lowerable)
    lowerable = lowerable[:args.max_ptx]
    ptx_dir = os.path.join(work, "ptx")
    lowered_ok, assembled = 0, None
    if lowerable:
        path = os.path.join(work, "lowerable.mlir")
        with open(path, "w") as f:
            f.write("".join(c.text(n) for n, c in lowerable))
        shutil.rmtree(ptx_dir, ignore_errors=True)
        r = run_opt(args.dgemm_opt, ["--dgemm-to-ptx",
                                     "--dgemm-dump-ptx=dir=" + ptx_dir,
                                     "-o", os.devnull], path)
        if r.returncode == 0:
            lowered_ok = len(lowerable)
        else:
            # Find the culprits one chunk each.
            path = os.path.join(work, "lowerable-split.mlir")
            spans = write_split(path, lowerable)
            each = per_case(args.dgemm_opt, ["--dgemm-to-ptx"], path, spans,
                            False)
            for name, c in lowerable:
                if each[name]:
                    lowered_ok += 1
                else:
                    report("lower", name, c, "to lower")
            problems.append("lowering the lowerable cases in one module "
                            "failed:\n" + r.stderr[-3000:])
        if r.returncode == 0:
            if os.path.exists(args.ptxas):
                ptxas_failed = False
                for f in sorted(os.listdir(ptx_dir)):
                    p = subprocess.run([args.ptxas, "-arch=sm_90a",
                                        os.path.join(ptx_dir, f), "-o",
                                        os.devnull], capture_output=True,
                                       text=True)
                    if p.returncode != 0:
                        ptxas_failed = True
                        problems.append("ptxas failed on %s:\n%s" % (
                            f, (p.stdout + p.stderr)[-3000:]))
                assembled = 0 if ptxas_failed else lowered_ok
            else:
                print("gen: ptxas not found at %s: PTX not assembled"
                      % args.ptxas)

    kernels = 0
    if os.path.isdir(ptx_dir):
        for f in os.listdir(ptx_dir):
            kernels += open(os.path.join(ptx_dir, f)).read().count(".entry ")
    n = len(cases)
    pct = lambda x: "%d (%.1f%%)" % (x, 100.0 * x / max(n, 1))
    by_kind = {}
    for _, c in cases:
        by_kind[c.kind] = by_kind.get(c.kind, 0) + 1
    print("gen: seed %d, %d cases (%s), %d mutated" % (
        args.seed, n, ", ".join("%s %d" % kv for kv in sorted(by_kind.items())),
        sum(1 for _, c in cases if c.mutations)))
    print("gen: stages: generated %d, verified %s, config selected %s of %d "
          "without a config, lowerable %s (the first %d tried), lowered %s, "
          "ptx assembled %s "
          "(%d distinct kernels)" % (
              n, pct(sum(verified.values())),
              sum(selected.values()), len(unconfigured),
              pct(all_lowerable), len(lowerable), pct(lowered_ok),
              "skipped" if assembled is None else pct(assembled), kernels))
    def with_field(test):
        names = [nm for nm, c in cases if c.config is not None and test(c.config)]
        low = set(nm for nm, _ in lowerable)
        return "%d generated, %d verified, %d lowered" % (
            len(names), sum(1 for nm in names if verified[nm]),
            sum(1 for nm in names if nm in low) if lowered_ok == len(lowerable)
            else 0)
    print("gen: selected configs checked against the rules: %d (%d with "
          "a_box_rows)" % (checked_selections, selected_boxes))
    print("gen: configs with a_box_rows: %s; with a second tile shape: %s; "
          "with stream_b: %s" % (
              with_field(lambda k: k.get("abox", 0) != 0),
              with_field(Rules.has_alt),
              with_field(lambda k: k.get("stream_b", False))))
    for p in problems:
        print("gen: DISAGREEMENT " + p)
    print("gen: %d disagreements" % len(problems))
    if not args.keep and not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
