#===- test_ab_bundle_merge.py - scripts/ab_bundle_merge.py ---------------===#
"""One results file from a two-bundle A/B directory: files in variant and
round order (base first), each file's meta record tagged, a meta record
added where a tool wrote none, other files ignored (no GPU)."""
import json
import os
import tempfile
import unittest

import _support  # noqa: F401  (puts scripts/ on sys.path)
import ab_bundle_merge as M


def write(d, name, recs):
    with open(os.path.join(d, name), "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")


class Merge(unittest.TestCase):
    def test_order_and_tags(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "new-1.jsonl", [dict(kind="meta", commit="b"), dict(x=3)])
            write(d, "base-2.jsonl", [dict(kind="meta", commit="a"), dict(x=2)])
            write(d, "base-1.jsonl", [dict(kind="meta", commit="a"), dict(x=1)])
            write(d, "p3-1.jsonl", [dict(x=4)])  # no meta line: one is added
            write(d, "commits.jsonl", [dict(x=99)])  # not <variant>-<round>
            out = os.path.join(d, "merged.out")
            self.assertEqual(M.main([d, out, "--note", "why"]), 0)
            recs = [json.loads(line) for line in open(out)]
        self.assertEqual([r.get("x") for r in recs], [None, 1, None, 2, None, 3, None, 4])
        metas = [r for r in recs if r.get("kind") == "meta"]
        self.assertEqual([(m["ab_variant"], m["ab_round"]) for m in metas],
                         [("base", 1), ("base", 2), ("new", 1), ("p3", 1)])
        self.assertTrue(all(m["ab_note"] == "why" for m in metas))
        self.assertEqual(metas[2]["commit"], "b")

    def test_empty_directory(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(M.main([d, os.path.join(d, "out.jsonl"), "--note", "n"]), 1)


if __name__ == "__main__":
    unittest.main()
