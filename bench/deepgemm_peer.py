#===- deepgemm_peer.py - DeepGEMM as a peer in the benchmarks -------------===#
"""DeepGEMM as a peer timed in the same run as dgemm, on a GPU machine where
it is built (scripts/device-deepgemm.sh builds it there from the source
tarball that scripts/pack-deepgemm.sh puts in .peers/). Used by
run_bench.py and run_grouped.py with ``--deepgemm``.

The calls are DeepGEMM v2's SM90 entry points as its own tests make them
for the 1x128 / 128x128 recipe: float32 scales, ``disable_ue8m0_cast=True``
(its tests turn the power-of-two scale cast off on SM90), the A scales
already in the TMA-aligned MN-major layout (the layout dgemm takes too), so
no scale copy runs inside a timed call. Each builder returns a callable of
no arguments for the harness; the first call JIT-compiles the kernel.
"""


def load():
    """(deep_gemm module, None) or (None, why it is not there)."""
    try:
        import deep_gemm
    except Exception as e:  # noqa: BLE001 - reported in the record
        from run_bench import error_text
        return None, error_text(e)
    return deep_gemm, None


def describe(dg):
    """What the records say about the DeepGEMM they timed."""
    return dict(version=getattr(dg, "__version__", "?"), path=getattr(dg, "__file__", "?"))


def normal(dg, a, sfa_tma, b, sfb, d):
    """D[M, N] = A · Bᵀ: fp8_gemm_nt."""
    return lambda: dg.fp8_gemm_nt((a, sfa_tma), (b, sfb), d, disable_ue8m0_cast=True)


def contiguous(dg, a, sa_tma, b, sb, d, m_indices):
    """The m-grouped contiguous layout, each group's rows padded to 128 with
    -1 rows (the alignment DeepGEMM is told to expect)."""
    if hasattr(dg, "set_mk_alignment_for_contiguous_layout"):
        dg.set_mk_alignment_for_contiguous_layout(128)
    return lambda: dg.m_grouped_fp8_gemm_nt_contiguous((a, sa_tma), (b, sb), d, m_indices,
                                                       disable_ue8m0_cast=True)


def masked(dg, a, sa_tma, b, sb, d, masked_m, expected_m):
    """The m-grouped masked layout, A [G, M_max, K], D [G, M_max, N]."""
    return lambda: dg.m_grouped_fp8_gemm_nt_masked((a, sa_tma), (b, sb), d, masked_m,
                                                   expected_m, disable_ue8m0_cast=True)
