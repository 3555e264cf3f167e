#!/usr/bin/env python3
"""Seed corpus for dgemm-fuzz-ir: every test/**/*.mlir split on `// -----`.

    make_corpus.py TEST_DIR OUT_DIR

Each chunk (as dgemm-opt -split-input-file sees it) becomes one file in
OUT_DIR, named by its source file and index; OUT_DIR is emptied first. Lit
RUN/CHECK lines are kept: they are comments to the parser and cost nothing.
"""
import pathlib
import re
import sys

SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    test_dir, out_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("*.mlir"):
        old.unlink()
    count = 0
    for path in sorted(test_dir.rglob("*.mlir")):
        stem = "_".join(path.relative_to(test_dir).with_suffix("").parts)
        for i, chunk in enumerate(SPLIT.split(path.read_text())):
            if not chunk.strip():
                continue
            (out_dir / f"{stem}.{i:03d}.mlir").write_text(chunk)
            count += 1
    print(f"make_corpus: {count} inputs in {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
