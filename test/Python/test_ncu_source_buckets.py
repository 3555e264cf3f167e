#===- test_ncu_source_buckets.py - the source-page bucketing -------------===#
"""scripts/ncu_source_buckets.py on a made-up two-kernel source page (the
shape of `ncu --page source --csv` output, ncu's own lines around it):
totals, stall shares and samples grouped by execution count; the hot
loops' opcode mix; xz input."""
import io
import lzma
import os
import tempfile
import unittest

import _support  # noqa: F401 - puts scripts/ and bench/ on sys.path
import ncu_source_buckets as nb

HEADER = ('"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed",'
          '"stall_barrier","stall_long_sb","stall_long_sb (Not Issued)"\n')

PAGE = ('==PROF== Connected to process 1\n'
        '"Kernel Name","kernel_a",\n' + HEADER +
        '"0x10","HGMMA","30","800","20","10","7"\n'
        '"0x20","FFMA","10","800","0","0","0"\n'
        '"0x30","LDC R1","5","12","0","5","5"\n'
        '"Kernel Name","kernel_b",\n' + HEADER +
        '"0x10","HGMMA","40","800","40","0","0"\n'
        '==PROF== Disconnected from process 1\n')


class Buckets(unittest.TestCase):
    def report(self, text):
        out = io.StringIO()
        for name, header, rows in nb.kernels(text):
            nb.report(name, header, rows, top=1, buckets=5, out=out)
        return out.getvalue()

    def test_totals_buckets_and_stalls(self):
        text = self.report(PAGE)
        a, b = text.split("kernel_b")
        self.assertIn("kernel_a: 45 samples, 1612 instructions executed, 3 SASS instructions", a)
        self.assertRegex(a, r"\n\s+800\s+40\s+88\.9%\s+1600\n")
        self.assertRegex(a, r"\n\s+12\s+5\s+11\.1%\s+12\n")
        # Issued and not-issued long_sb are not counted twice.
        self.assertIn("barrier 44.4%, long_sb 33.3%", a)
        self.assertIn("66.7%       800  HGMMA", a)
        self.assertIn(": 40 samples, 800 instructions executed, 1 SASS instructions", b)

    def test_opcode_mix_of_the_hot_loop(self):
        page = ('"Kernel Name","kernel_c",\n' + HEADER +
                '"0x10","@!P0 BRA 0x20","6","400","0","6","0"\n'
                '"0x20","FFMA.FTZ R1, R2, R3, R1","8","800","0","0","0"\n'
                '"0x30","FFMA R4, R2, R3, R4","2","800","0","0","0"\n'
                '"0x40","LDC R1","50","100","0","50","0"\n')
        out = io.StringIO()
        nb.opcode_table(list(nb.kernels(page)), units=100, ratio=2.5, out=out)
        text = out.getvalue()
        # LDC ran 100 times, under 800 / 2.5: outside the loop.
        self.assertIn("[0] kernel_c: 20.0 per unit, 16 samples", text)
        self.assertRegex(text, r"\n\s+FFMA\s+16\.00\s+62\.5%\n")
        self.assertRegex(text, r"\n\s+BRA\s+4\.00\s+37\.5%\n")
        self.assertNotIn("LDC", text)
        self.assertEqual(nb.opcode("@!UP1 SYNCS.ARRIVE.TRANS64 RZ"), "SYNCS")

    def test_reads_xz_and_rejects_a_page_without_kernels(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "page.csv.xz")
            with lzma.open(path, "wt") as f:
                f.write(PAGE)
            self.assertEqual(nb.main([path, "--buckets", "1"]), 0)
            empty = os.path.join(d, "empty.csv")
            with open(empty, "w") as f:
                f.write("==PROF== nothing profiled\n")
            self.assertEqual(nb.main([empty]), 1)


if __name__ == "__main__":
    unittest.main()
