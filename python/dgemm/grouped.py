#===- grouped.py - the MoE and weight-gradient GEMMs (not yet lowered) ---===#
"""DeepGEMM's grouped and weight-gradient GEMMs under their names. The dgemm
dialect describes them (dgemm.grouped_gemm, dgemm.k_grouped_gemm, f32 output
with an accumulate input), but no kernel is lowered for them yet: each raises
NotImplementedError saying so, rather than computing something else."""

_WHY = ("%s is not available yet: dgemm describes this GEMM in its dialect (%s) but does "
        "not lower it to a kernel yet; only gemm_fp8_fp8_bf16_nt runs")


def m_grouped_gemm_fp8_fp8_bf16_nt_contiguous(lhs, rhs, out, m_indices):
    """Contiguous m-grouped GEMM (MoE prefill): lhs (A [M_sum, K] e4m3, sfa),
    rhs (B [G, N, K] e4m3, sfb [G, ceil(N/128), K/128]), out [M_sum, N] bf16,
    m_indices [M_sum] int32 (-1 for padding rows). Not lowered yet."""
    raise NotImplementedError(_WHY % ("m_grouped_gemm_fp8_fp8_bf16_nt_contiguous",
                                      "dgemm.grouped_gemm #dgemm.grouped<contiguous>"))


def m_grouped_gemm_fp8_fp8_bf16_nt_masked(lhs, rhs, out, masked_m, expected_m):
    """Masked m-grouped GEMM (MoE decode): lhs (A [G, M_max, K], sfa), rhs
    (B [G, N, K], sfb), out [G, M_max, N] bf16, masked_m [G] int32, expected_m
    the expected rows per group. Not lowered yet."""
    raise NotImplementedError(_WHY % ("m_grouped_gemm_fp8_fp8_bf16_nt_masked",
                                      "dgemm.grouped_gemm #dgemm.grouped<masked>"))


def wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, out):
    """Weight-gradient GEMM: out (f32 [M, N]) += A [M, K] * B [N, K]^T with
    1x128 scales for both operands. Not lowered yet."""
    raise NotImplementedError(_WHY % ("wgrad_gemm_fp8_fp8_fp32_nt",
                                      "dgemm.gemm with #dgemm.recipe<a = 1x128, b = 1x128> and f32 D"))


def k_grouped_wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, out, ks, ks_tensor=None):
    """k-grouped weight-gradient GEMM of MoE experts: out[g] (f32 [M, N]) +=
    A_g * B_g^T for K blocks ks[g]. Not lowered yet."""
    raise NotImplementedError(_WHY % ("k_grouped_wgrad_gemm_fp8_fp8_fp32_nt",
                                      "dgemm.k_grouped_gemm"))
