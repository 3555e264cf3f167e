#===- __main__.py - python -m dgemm: warm the kernel cache ---------------===#
"""``python -m dgemm warm``: compiles the kernels of a list of shapes into the
kernel cache ($DGEMM_CACHE_DIR, default ~/.cache/dgemm) before serving, with
a progress line per shape; ``python -m dgemm config M,N,K``: the config the
runtime chooses. Needs no GPU (kernels are compiled to PTX; the driver turns
them into machine code on first load).

  python -m dgemm warm --shapes "4096,7168,2048;128,7168,16384"
  python -m dgemm warm --csv bench/shapes.csv      (its normal rows)
"""
import argparse
import csv
import sys
import time

from . import config, prepare


def _shapes(args):
    out = []
    for part in filter(None, (args.shapes or "").replace(" ", "").split(";")):
        m, n, k = (int(x) for x in part.split(","))
        out.append((m, n, k))
    if args.csv:
        with open(args.csv) as f:
            rows = csv.DictReader(line for line in f if not line.startswith("#"))
            out += [(int(r["m"]), int(r["n"]), int(r["k"])) for r in rows if r["layout"] == "normal"]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m dgemm", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    warm = sub.add_parser("warm", help="compile the kernels of these shapes into the cache")
    warm.add_argument("--shapes", help='"m,n,k;m,n,k"')
    warm.add_argument("--csv", help="a shapes CSV (columns layout,groups,m,n,k); its normal rows")
    cfg = sub.add_parser("config", help="print the config chosen for M,N,K")
    cfg.add_argument("shape")
    args = ap.parse_args(argv)
    if args.command == "config":
        m, n, k = (int(x) for x in args.shape.split(","))
        print(config(m, n, k))
        return 0
    shapes = _shapes(args)
    if not shapes:
        ap.error("warm: no shapes (give --shapes or --csv)")
    start = time.perf_counter()
    compiled = 0
    for i, (m, n, k) in enumerate(shapes, 1):
        ms, info = prepare(m, n, k)
        compiled += ms > 0
        cache = next((kv.split("=", 1)[1] for kv in info.split("; ") if kv.startswith("cache=")), "?")
        print("[%d/%d] M=%d N=%d K=%d  %s  %.0f ms" % (i, len(shapes), m, n, k, cache, ms), flush=True)
    print("warm: %d shapes, %d kernels compiled, %.1f s" % (len(shapes), compiled,
                                                            time.perf_counter() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
