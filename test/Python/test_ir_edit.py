#===- test_ir_edit.py - bench/ir_edit.py (the A/B tools' --ir-sub) -------===#
"""Regex edits of kernel IR text: every match, the N-th only, groups in the
replacement, and the error without '=>' (no GPU)."""
import unittest

import _support  # noqa: F401  (puts bench/ on sys.path)
import ir_edit

TEXT = """  nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
  llvm.load %a
  nvvm.barrier id = %c2_i32_17 number_of_threads = %c256_i32_18
"""
BARRIER = r"\n?\s*nvvm\.barrier id = %c([12])_i32(_\d+)? number_of_threads = %c256_i32(_\d+)?(?=\n)"


class IrEditTest(unittest.TestCase):
    def test_every_match(self):
        edited, count = ir_edit.substitute(TEXT, BARRIER + "=>")
        self.assertEqual(count, 2)
        self.assertNotIn("nvvm.barrier", edited)
        self.assertIn("llvm.load %a", edited)

    def test_nth_match_only(self):
        edited, count = ir_edit.substitute(TEXT, "@1:" + BARRIER + "=>")
        self.assertEqual(count, 1)
        self.assertIn("id = %c1_i32", edited)
        self.assertNotIn("id = %c2_i32", edited)

    def test_groups_expand(self):
        edited, count = ir_edit.substitute(TEXT, r"id = %c(\d)_i32=>id = %c\g<1>0_i32")
        self.assertEqual(count, 2)
        self.assertIn("id = %c10_i32 number", edited)
        self.assertIn("id = %c20_i32_17", edited)

    def test_no_match_leaves_text(self):
        self.assertEqual(ir_edit.substitute(TEXT, "nvvm.fence=>x"), (TEXT, 0))
        self.assertEqual(ir_edit.substitute(TEXT, "@5:" + BARRIER + "=>")[1], 0)

    def test_missing_arrow(self):
        with self.assertRaises(ValueError):
            ir_edit.parse("nvvm.barrier")


if __name__ == "__main__":
    unittest.main()
