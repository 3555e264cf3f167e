#===- test_grouped_results.py - the m-grouped bench's pure parts ---------===#
"""bench/run_grouped.py's case lists and scripts/grouped_results.py's
Markdown from fake records: TFLOPS ratios and the DeepGEMM comparison are
computed from the records, failures and the graph replay are shown."""
import os
import unittest

import _support  # noqa: F401 - puts scripts/ and bench/ on sys.path
import grouped_results as gr
import run_grouped as rg


class CaseLists(unittest.TestCase):
    def test_reference_shapes(self):
        shapes = rg.read_grouped_shapes()
        self.assertEqual(sum(s["layout"] == "contiguous" for s in shapes), 4)
        self.assertEqual(sum(s["layout"] == "masked" for s in shapes), 6)
        # The label --only matches, one per shape and layout.
        self.assertEqual(rg.shape_label(dict(groups=4, m=256, n=7168, k=2048)),
                         "G4-m256-n7168-k2048")
        masked = [rg.shape_label(s) for s in shapes if s["layout"] == "masked"]
        self.assertEqual(len(set(masked)), 6)

    def test_random_cases_cover_the_edges(self):
        cases = rg.random_cases(40, seed=3)
        self.assertEqual(len(cases), 80)
        sizes = [s for c in cases for s in c["sizes"]]
        self.assertIn(0, sizes)
        self.assertIn(1, sizes)
        self.assertTrue(any(s % 128 for s in sizes))
        self.assertTrue(any(c["groups"] == 1 for c in cases))
        for c in cases:
            self.assertEqual(c["n"] % 16, 0)
            self.assertEqual(c["k"] % 128, 0)
            self.assertEqual(c["skip_blocks"], c["layout"] == "contiguous")
        self.assertEqual(cases, rg.random_cases(40, seed=3))  # seeded

    def test_many_group_cases(self):
        # More than 8 groups (the two-shape entry's loop), one list at the
        # expected rows and one mostly past them, with 0 and 1.
        first, second = rg.many_group_cases()
        for c in (first, second):
            self.assertEqual(c["layout"], "masked")
            self.assertEqual(len(c["sizes"]), c["groups"])
            self.assertGreater(c["groups"], 8)
            self.assertEqual(c["kind"], "random")
        self.assertEqual(first["sizes"], [first["m"]] * first["groups"])
        self.assertGreater(sum(s > second["m"] for s in second["sizes"]), 8)
        self.assertIn(0, second["sizes"])
        self.assertIn(1, second["sizes"])

    def test_drawn_sizes(self):
        import random
        shape = dict(layout="masked", groups=4, m=256, n=4096, k=7168)
        self.assertEqual(rg.sizes_for(shape, "equal", random.Random(1)), [256] * 4)
        drawn = rg.sizes_for(shape, "drawn", random.Random(1))
        self.assertEqual(len(drawn), 4)
        self.assertTrue(all(0.7 * 256 - 1 <= s <= 1.3 * 256 + 1 for s in drawn))
        with self.assertRaises(ValueError):
            rg.sizes_for(shape, "random", random.Random(1))


def case(layout, m, n, k, tflops, normal, loop, kind="equal", ok=True, **extra):
    r = dict(type="grouped", layout=layout, groups=4, m=m, n=n, k=k, kind=kind, ok=ok,
             tflops=tflops, sizes=[m] * 4,
             check=dict(ok=ok, bad=0 if ok else 7, calc_diff=1e-6, untouched_rows=128,
                        untouched_written=0),
             peers=dict(normal_same_work=dict(tflops=normal),
                        torch_blockwise_loop=dict(tflops=loop),
                        cublas_per_tensor=dict(tflops=1300.0)))
    r.update(extra)
    return r


class Render(unittest.TestCase):
    def test_table_and_ratios(self):
        rows = {("contiguous", 8192, 4096, 7168): dict(deepgemm_tflops=1434.0,
                                                       torch_blockwise_tflops=1293.0),
                ("normal", 4096, 4096, 7168): dict(deepgemm_tflops=1365.0,
                                                   torch_blockwise_tflops=1263.0,
                                                   cublas_per_tensor_tflops=1520.0)}
        bench = [dict(m=4096, n=4096, k=7168, peers=dict(cublas_per_tensor=dict(tflops=1300.0))),
                 dict(m=128, n=4096, k=7168, peers=dict(cublas_per_tensor=dict(tflops=400.0)))]
        recs = [dict(type="meta", date="2026-12-01", commit="abc"),
                case("contiguous", 8192, 4096, 7168, 1200.0, 1250.0, 1100.0),
                case("masked", 256, 7168, 2048, 500.0, 600.0, 400.0, kind="drawn"),
                case("masked", 256, 7168, 2048, 0, 0, 0, kind="random"),
                case("masked", 300, 512, 256, 0, 0, 0, kind="random", ok=False,
                     graph_replay=dict(ok=True, replays=[dict(sizes=[1, 2], ok=True)]))]
        text = gr.render(recs, "g.jsonl", rows, bench)
        self.assertIn("| contiguous | 4 | 8192 | 4096 | 7168 | equal | 1200 | 1250 | 0.96 | "
                      "1100 | 1300 | 1434 | 0.98 | 0.98 | ok |", text)
        # (1200 / 1100) / (1434 / 1293) = 0.98
        self.assertAlmostEqual(gr.vs_deepgemm(recs[1], rows), (1200 / 1100) / (1434 / 1293))
        # 1200 / (1434 * 1300 / 1520) = 0.978
        self.assertAlmostEqual(gr.vs_deepgemm_cublas(recs[1], rows, gr.cublas_at_4096(bench)),
                               1200 / (1434 * 1300 / 1520))
        # Without this run's cuBLAS at M = 4096 (or PEERS' row): no ratio.
        self.assertIsNone(gr.vs_deepgemm_cublas(recs[1], rows, {}))
        self.assertIn("| 1434 | 0.98 | - | ok |", gr.render(recs, "g.jsonl", rows))
        # Drawn sizes are timed rows; random cases are counted, not tabled.
        self.assertIn("| masked | 4 | 256 | 7168 | 2048 | x U(0.7,1.3) | 500 | 600 | 0.83 |", text)
        self.assertIn("masked, sizes drawn as m x U(0.7,1.3): geomean vs normal GEMM 0.83 "
                      "(1 shapes)", text)
        self.assertIn("1 of 2 pass the strict check", text)
        self.assertIn("replayed 1 times", text)
        self.assertIn("**FAIL** masked G=4 m=300", text)
        self.assertIn("contiguous, equal sizes: geomean vs normal GEMM 0.96, vs DeepGEMM 0.98 "
                      "through the torch loop, 0.98 through cuBLAS (1 shapes)", text)



class SanitizerSection(unittest.TestCase):
    def test_summaries_and_planted_lines(self):
        import tempfile
        from pathlib import Path
        import sanitizer_results as sr
        d = Path(tempfile.mkdtemp())
        (d / "x-memcheck.log").write_text("run\n========= ERROR SUMMARY: 0 errors\n")
        (d / "x-racecheck-grouped.log").write_text(
            "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n")
        (d / "x-initcheck.log").write_text("========= ERROR SUMMARY: 0 errors\n"
                                           "========= ERROR SUMMARY: 3 errors\n")
        (d / "x-planted.log").write_text(
            "oob-store         memcheck  ok  : 5 errors/hazards reported, some expected\n"
            "sanitizer_planted: every planted bug caught, clean kernel clean\n")
        text = sr.render(sorted(d.iterdir()))
        self.assertIn("| `x-memcheck.log` | memcheck | normal | ERROR SUMMARY: 0 errors |", text)
        self.assertIn("| `x-racecheck-grouped.log` | racecheck | grouped | RACECHECK SUMMARY: "
                      "2 hazards displayed (2 errors, 0 warnings) |", text)
        self.assertIn("| `x-initcheck.log` | initcheck | grouped | ERROR SUMMARY: 3 errors |", text)
        self.assertIn("oob-store         memcheck  ok", text)
        self.assertIn("sanitizer_planted: every planted bug caught", text)


class GroupedSweep(unittest.TestCase):
    def test_candidates_and_ir(self):
        import sweep_grouped as sg
        masked = dict(layout="masked", groups=4, m=256, n=7168, k=2048)
        cands = sg.candidates(masked)
        # block M 64/128 x block N 16..256, block M 256 x block N 16..128
        self.assertEqual(len(cands), 2 * 31 + 15)
        bm, bn, group, ctas = cands[2 * 31 - 1]
        self.assertEqual((bm, bn), (128, 256))
        self.assertEqual(ctas, 112)                   # 4 x 2 x 28 = 224 tiles: 2 waves of 112
        bm, bn, group, ctas = cands[-1]
        self.assertEqual((bm, bn), (256, 128))
        self.assertEqual(ctas, 112)                   # 4 x 1 x 56 = 224 tiles
        # The contiguous layout has no block M 256 (groups aligned to 128 rows).
        contiguous = dict(layout="contiguous", groups=4, m=8192, n=4096, k=7168)
        self.assertEqual({c[0] for c in sg.candidates(contiguous)}, {64, 128})
        cfg = sg.sweep.config_text(128, 160, 5, 16, 120)
        ir = sg.grouped_ir(masked, cfg)
        self.assertIn("{config = %s, m_hint = 256 : i64}" % cfg, ir)
        contiguous = dict(layout="contiguous", groups=4, m=8192, n=4096, k=7168)
        self.assertIn("{config = %s}" % cfg, sg.grouped_ir(contiguous, cfg))
        self.assertEqual(sg.candidates(contiguous)[0][3], 132)

    def test_multicast_variants(self):
        # A where the N blocks pair (even count, an even CTA count and tile
        # group), B where block N halves into whole 8-row atoms.
        import sweep_grouped as sg
        got = sg.with_multicast([(128, 192, 16, 131), (128, 120, 15, 132)], 4096, a=True, b=True)
        self.assertEqual(got, [(128, 192, 16, 131, ""), (128, 192, 16, 132, "a"),
                               (128, 192, 16, 132, "b"), (128, 120, 15, 132, "")])
        self.assertEqual(sg.with_multicast([(128, 192, 16, 132)], 4096, a=False, b=False),
                         [(128, 192, 16, 132, "")])

    def test_config_edits(self):
        # The A/B tools' edit syntax (sweep.edit_config): config fields, and
        # lower.<option> fields as dgemm-lower-to-kernel options.
        import sweep
        cfg = sweep.config_text(256, 128, 3, 16, 112)
        edited, options = sweep.edit_config(
            cfg, "block_m=128,stages=5,lower.masked-walk=cost,lower.k-unroll=1")
        self.assertEqual(edited, sweep.config_text(128, 128, 5, 16, 112))
        self.assertEqual(options, "masked-walk=cost k-unroll=1")
        self.assertEqual(sweep.edit_config(cfg, "num_sms=132"),
                         (sweep.config_text(256, 128, 3, 16, 132), ""))
        # `field=-` removes a field: a two-shape masked config's first shape.
        two = cfg[:-1] + ", alt_block_m = 128, alt_block_n = 192, alt_stages = 4, alt_num_sms = 132>"
        self.assertEqual(sweep.edit_config(
            two, "alt_block_m=-,alt_block_n=-,alt_stages=-,alt_num_sms=-"), (cfg, ""))
        self.assertEqual(sweep.edit_config(two, "alt_stages=-")[0],
                         two.replace(", alt_stages = 4", ""))
        # A field the config does not print is added (it used to be left
        # out silently, so an A/B compared a kernel with itself), in a config
        # and in IR holding one.
        self.assertEqual(sweep.edit_config(cfg, "a_box_rows=88")[0],
                         cfg[:-1] + ", a_box_rows = 88>")
        ir = "dgemm.gemm ... {config = %s}\n  return\n" % cfg
        self.assertEqual(sweep.edit_config(ir, "stream_b=true,stages=4")[0],
                         "dgemm.gemm ... {config = %s, stream_b = true>}\n  return\n"
                         % sweep.config_text(256, 128, 4, 16, 112)[:-1])

    def test_check_sweep_leaves_out_drawn_lowering_and_grid_records(self):
        # A drawn-size sweep, or one with lowering options, is not what the
        # selection is checked against: check_sweep reads past it.
        import contextlib
        import io
        import json
        import tempfile
        import check_sweep
        rec = dict(layout="masked", groups=4, m=256, n=7168, k=2048, sizes=[224, 183, 308, 265],
                   kind="drawn", candidates=[dict(config="#dgemm.config<x>", us=50.0)])
        other = dict(rec, kind=None, lower="masked-walk=cost")
        grid = dict(rec, kind=None, num_sms=132)
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write("".join(json.dumps(r) + "\n" for r in (rec, other, grid)))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = check_sweep.main([f.name, "--min-within", "0"])
        self.assertEqual(rc, 0)
        self.assertIn("3 drawn-size, lowering-option or fixed-grid records left out",
                      out.getvalue())
        self.assertIn("0 of 0 shapes", out.getvalue())
        with contextlib.redirect_stdout(io.StringIO()):
            # Without the markers the same records are checked (and fail:
            # the selected config was never swept).
            plain = dict(rec, kind=None)
            with open(f.name, "w") as g:
                g.write(json.dumps(plain) + "\n")
            with self.assertRaises(OSError):
                check_sweep.main([f.name, "--dgemm-opt", "/nonexistent/dgemm-opt"])
        os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
