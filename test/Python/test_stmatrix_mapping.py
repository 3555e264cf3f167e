"""The stmatrix staging of the bf16 epilogue (DGEMMToNVVM.cpp,
writeStagingStmatrix) against the 4-byte shared stores (writeStaging): a
model of both, from the formulas in their comments and HOPPER-FACTS.md's
stmatrix fragment, must put every register pair of every thread at the same
byte of the staging tile, for the tile shapes the kernels use. It checks the
arithmetic the lowering implements (the lit tests check that the lowering
emits it); no GPU needed."""
import unittest


def staging_offset(row, group, bm, bn, swizzled):
    """Byte offset of column 8 * group of tile row `row` (bf16)."""
    if not swizzled:
        return (row * bn + 8 * group) * 2
    return (group // 8) * bm * 128 + row * 128 + ((group % 8) ^ (row % 8)) * 16


def shared_stores(bm, bn, consumers, swizzled):
    """(thread, wave, group j, half h) -> byte of the pair's first element."""
    wave_rows = 64 * consumers
    out = {}
    for t in range(128 * consumers):
        warp, lane = divmod(t, 32)
        for w in range(bm // wave_rows):
            for j in range(bn // 8):
                for h in range(2):
                    row = 16 * warp + lane // 4 + 8 * h + w * wave_rows
                    out[(t, w, j, h)] = staging_offset(row, j, bm, bn, swizzled) + 4 * (lane % 4)
    return out


def stmatrix_stores(bm, bn, consumers, swizzled):
    """The same map for stmatrix: with one row wave, groups in pairs (g, g +
    1), g even, sources (g, 0), (g, 1), (g + 1, 0), (g + 1, 1) as matrices
    0-3 of an .x4; a last odd group, and every group at two row waves, as an
    .x2 of its two packs. Lane l addresses row l % 8 of matrix l / 8; in
    matrix q, lane l's source holds row l / 4, bytes 4 * (l % 4). Addresses
    as the lowering computes them."""
    wave_rows = 64 * consumers
    waves = bm // wave_rows
    groups = bn // 8
    out = {}
    for w in range(waves):
        g = 0
        while g < groups:
            x4 = waves == 1 and g + 1 < groups
            for warp in range(4 * consumers):
                addr = []
                for lane in range(32):
                    second = lane // 16 if x4 else 0
                    row = 16 * warp + 8 * ((lane // 8) & 1) + lane % 8
                    if swizzled:
                        piece = ((g % 8) * 16) ^ ((second ^ (lane % 8)) * 16)
                        a = row * 128 + piece + (g // 8) * bm * 128 + w * wave_rows * 128
                    else:
                        a = row * 2 * bn + 16 * second + 16 * g + w * wave_rows * bn * 2
                    addr.append(a)
                for q in range(4 if x4 else 2):
                    for lane in range(32):
                        key = (32 * warp + lane, w, g + q // 2, q & 1)
                        out[key] = addr[8 * q + lane // 4] + 4 * (lane % 4)
            g += 2 if x4 else 1
    return out


class StmatrixMappingTest(unittest.TestCase):
    def test_same_bytes_as_the_shared_stores(self):
        cases = 0
        for bm, consumers in ((64, 1), (128, 2), (256, 2)):
            for bn in range(16, 257, 8):
                for swizzled in ((False, True) if bn % 64 == 0 else (False,)):
                    with self.subTest(bm=bm, bn=bn, consumers=consumers, swizzled=swizzled):
                        self.assertEqual(stmatrix_stores(bm, bn, consumers, swizzled),
                                         shared_stores(bm, bn, consumers, swizzled))
                        cases += 1
        self.assertEqual(cases, 3 * (31 + 4))

    def test_a_wrong_mapping_is_caught(self):
        # Matrices 1 and 2 swapped (sources in the wrong order): rows 8-15
        # of group 2p land where group 2p + 1's rows 0-7 go.
        good = shared_stores(64, 32, 1, True)
        bad = dict(stmatrix_stores(64, 32, 1, True))
        for key in list(bad):
            t, w, j, h = key
            if j % 2 == 0 and h == 1:
                bad[key], bad[(t, w, j + 1, 0)] = bad[(t, w, j + 1, 0)], bad[key]
        self.assertNotEqual(bad, good)


if __name__ == "__main__":
    unittest.main()
