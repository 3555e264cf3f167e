#!/usr/bin/env python3
#===- ab_bundle_merge.py - one results file from an A/B bundle run -------===#
"""Merges the <variant>-<round>.jsonl files that scripts/device-ab-bundle.sh
brought back into one JSON-lines file for bench/results: every record in
order (variant, then round), each file's meta record (the first line, or a
new one where a tool writes none) given ab_variant, ab_round and ab_note.

  python3 scripts/ab_bundle_merge.py DIR OUT.jsonl --note "base: ...; new: ..."
"""
import argparse
import json
import sys

from ab_bundle_summary import run_files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("out")
    ap.add_argument("--note", required=True)
    args = ap.parse_args(argv)
    # base first, then the other variants by name, each by round.
    files = sorted(run_files(args.dir), key=lambda f: (f[0] != "base", f[0], f[1]))
    if not files:
        print("ab_bundle_merge: no <variant>-<round>.jsonl in %s" % args.dir, file=sys.stderr)
        return 1
    with open(args.out, "w") as out:
        for variant, rnd, path in files:
            records = [json.loads(line) for line in open(path) if line.strip()]
            tag = dict(ab_variant=variant, ab_round=rnd, ab_note=args.note)
            if records and records[0].get("kind") == "meta":
                records[0].update(tag)
            else:
                records.insert(0, dict(kind="meta", **tag))
            for r in records:
                out.write(json.dumps(r) + "\n")
    print("ab_bundle_merge: %d files -> %s" % (len(files), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
