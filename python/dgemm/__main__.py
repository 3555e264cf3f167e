#===- __main__.py - python -m dgemm: warm the kernel cache ---------------===#
"""``python -m dgemm warm``: compiles the kernels of a list of shapes into the
kernel cache ($DGEMM_CACHE_DIR, default ~/.cache/dgemm) before serving: a
result line per shape on stdout and a progress bar on stderr (redrawn in
place on a terminal, a line per step otherwise; ``--no-progress`` hides it);
``python -m dgemm config M,N,K``: the config the runtime chooses;
``python -m dgemm settings``: the JIT's settings (environment controls). Needs
no GPU (kernels are compiled to PTX; the driver turns them into machine code
on first load). A shape that fails is reported and the others go on (exit
status 1).

  python -m dgemm warm --shapes "4096,7168,2048;128,7168,16384"
  python -m dgemm warm --csv bench/shapes.csv      (its normal rows)
"""
import argparse
import csv
import sys
import time

from . import DgemmError, config, jit_settings, prepare


def parse_shape(text):
    """"M,N,K" -> (m, n, k) of non-negative ints; ValueError saying why."""
    parts = text.replace(" ", "").split(",")
    try:
        m, n, k = (int(x) for x in parts)
    except ValueError:
        raise ValueError("%r is not M,N,K (three integers)" % text) from None
    if min(m, n, k) < 0:
        raise ValueError("%r has a negative size" % text)
    return m, n, k


def _shapes(args, ap):
    out = []
    for part in filter(None, (args.shapes or "").replace(" ", "").split(";")):
        try:
            out.append(parse_shape(part))
        except ValueError as e:
            ap.error("--shapes: %s" % e)
    if args.csv:
        try:
            with open(args.csv) as f:
                rows = csv.DictReader(line for line in f if not line.startswith("#"))
                out += [(int(r["m"]), int(r["n"]), int(r["k"])) for r in rows
                        if r.get("layout") == "normal"]
        except (OSError, KeyError, TypeError, ValueError) as e:
            ap.error("--csv %s: %s (want columns layout,m,n,k)" % (args.csv, e))
    return out


class Progress:
    """A plain-text progress bar: ``[#####.....]  3/10  30%  M=.. N=.. K=..
    1.2 s, ~2.8 s left``. On a terminal it is redrawn in place (``\\r``) and
    ends with a newline; elsewhere (a log file, a pipe) each update is a line
    of its own."""

    def __init__(self, total, stream=None, width=30):
        self.total, self.width = max(total, 0), width
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.perf_counter()
        self.drawn = False

    def text(self, done, label, elapsed):
        frac = done / self.total if self.total else 1.0
        filled = int(round(self.width * frac))
        s = "[%s%s] %*d/%d %3d%%" % ("#" * filled, "." * (self.width - filled),
                                     len(str(self.total)), done, self.total, int(frac * 100))
        if label:
            s += "  " + label
        s += "  %.1f s" % elapsed
        if 0 < done < self.total:
            s += ", ~%.1f s left" % (elapsed / done * (self.total - done))
        return s

    def update(self, done, label=""):
        line = self.text(done, label, time.perf_counter() - self.start)
        if self.tty:
            self.stream.write("\r\033[K" + line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
        self.drawn = True

    def close(self):
        if self.tty and self.drawn:
            self.stream.write("\n")
            self.stream.flush()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m dgemm", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    warm = sub.add_parser("warm", help="compile the kernels of these shapes into the cache")
    warm.add_argument("--shapes", help='"m,n,k;m,n,k"')
    warm.add_argument("--csv", help="a shapes CSV (columns layout,groups,m,n,k); its normal rows")
    warm.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    cfg = sub.add_parser("config", help="print the config chosen for M,N,K")
    cfg.add_argument("shape")
    sub.add_parser("settings", help="print the JIT's settings (environment controls)")
    args = ap.parse_args(argv)
    try:
        if args.command == "config":
            try:
                m, n, k = parse_shape(args.shape)
            except ValueError as e:
                ap.error("config: %s" % e)
            print(config(m, n, k))
            return 0
        if args.command == "settings":
            for key, value in jit_settings().items():
                print("%s=%s" % (key, value))
            return 0
    except DgemmError as e:
        print("dgemm: %s" % e, file=sys.stderr)
        return 1
    shapes = _shapes(args, ap)
    if not shapes:
        ap.error("warm: no shapes (give --shapes or --csv)")
    start = time.perf_counter()
    compiled = failed = 0
    bar = None if args.no_progress else Progress(len(shapes))
    if bar:
        bar.update(0, "starting")
    for i, (m, n, k) in enumerate(shapes, 1):
        label = "M=%d N=%d K=%d" % (m, n, k)
        try:
            ms, info = prepare(m, n, k)
        except DgemmError as e:
            failed += 1
            if bar:
                bar.close()
                bar.drawn = False
            print("[%d/%d] %s  error: %s" % (i, len(shapes), label, e), flush=True)
        else:
            compiled += ms > 0
            cache = next((kv.split("=", 1)[1] for kv in info.split("; ")
                          if kv.startswith("cache=")), "?")
            if bar and bar.tty:
                bar.stream.write("\r\033[K")
            print("[%d/%d] %s  %s  %.0f ms" % (i, len(shapes), label, cache, ms), flush=True)
        if bar:
            bar.update(i, label)
    if bar:
        bar.close()
    print("warm: %d shapes, %d kernels compiled, %s%.1f s" % (
        len(shapes), compiled, "%d failed, " % failed if failed else "",
        time.perf_counter() - start))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
