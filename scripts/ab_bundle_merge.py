#!/usr/bin/env python3
#===- ab_bundle_merge.py - one results file from an A/B bundle run -------===#
"""Merges the <variant>-<round>.jsonl files that scripts/device-ab-bundle.sh
brought back into one JSON-lines file for bench/results: every record in
order (variant, then round), each file's meta record (the first line, or a
new one where a tool writes none) given ab_variant, ab_round and ab_note.

  python3 scripts/ab_bundle_merge.py DIR OUT.jsonl --note "base: ...; new: ..."
"""
import argparse
import glob
import json
import os
import re
import sys


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("out")
    ap.add_argument("--note", required=True)
    args = ap.parse_args(argv)
    files = []
    for path in glob.glob(os.path.join(args.dir, "*-*.jsonl")):
        m = re.fullmatch(r"([A-Za-z0-9_]+)-(\d+)\.jsonl", os.path.basename(path))
        if m:
            files.append((m.group(1) != "base", m.group(1), int(m.group(2)), path))
    if not files:
        print("ab_bundle_merge: no <variant>-<round>.jsonl in %s" % args.dir, file=sys.stderr)
        return 1
    with open(args.out, "w") as out:
        for _, variant, rnd, path in sorted(files):
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
