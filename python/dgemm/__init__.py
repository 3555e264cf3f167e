#===- __init__.py - dgemm: FP8 block-scaled GEMMs for Hopper -------------===#
"""dgemm's Python layer: DeepGEMM-compatible FP8 GEMM functions over the
dgemm C API (``include/dgemm-c/Runtime.h``), loaded with ctypes — no compiled
extension. Migrating from DeepGEMM is an import change::

    import dgemm as deep_gemm
    deep_gemm.gemm_fp8_fp8_bf16_nt((a, sfa), (b, sfb), d)
    deep_gemm.fp8_gemm_nt((a, sfa), (b, sfb), d)   # DeepGEMM 2.x's name

Importing needs neither the library, a GPU nor PyTorch: ``libdgemm.so`` is
loaded on first use (``$DGEMM_LIB``, else ``<repo>/build/lib``, else the
unpacked GPU bundle, else beside this package; see ``dgemm._lib``).
"""
from ._lib import DgemmArgumentError, DgemmError, library_path
from .device import get_m_alignment_for_contiguous_layout, get_num_sms, set_num_sms
from .deepgemm_v2 import (fp8_gemm_nt, get_mk_alignment_for_contiguous_layout,
                          get_mn_major_tma_aligned_tensor, k_grouped_fp8_gemm_nt_contiguous,
                          m_grouped_fp8_gemm_nt_contiguous, m_grouped_fp8_gemm_nt_masked)
from .gemm import (bind_gemm_fp8_fp8_bf16_nt, compile_to_ptx, config,
                   gemm_fp8_fp8_bf16_nt, launch_kernel_ir, prepare)
from .jit import jit_settings
from .grouped import (launch_grouped_kernel_ir, m_grouped_gemm_fp8_fp8_bf16_nt_contiguous,
                      m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets,
                      m_grouped_gemm_fp8_fp8_bf16_nt_masked)
from .wgrad import (k_grouped_wgrad_gemm_fp8_fp8_fp32_nt, launch_wgrad_kernel_ir,
                    wgrad_gemm_fp8_fp8_fp32_nt)
from .utils import (align, bench, calc_diff, ceil_div, get_col_major_tma_aligned_tensor,
                    get_tma_aligned_size, per_block_cast_back, per_block_cast_to_fp8,
                    per_token_cast_back, per_token_cast_to_fp8)

__version__ = "0.1.0"

__all__ = [
    "DgemmError", "DgemmArgumentError", "library_path",
    "gemm_fp8_fp8_bf16_nt", "bind_gemm_fp8_fp8_bf16_nt", "launch_kernel_ir",
    "launch_grouped_kernel_ir", "launch_wgrad_kernel_ir",
    "config", "prepare", "compile_to_ptx", "jit_settings",
    "set_num_sms", "get_num_sms", "get_m_alignment_for_contiguous_layout",
    "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous", "m_grouped_gemm_fp8_fp8_bf16_nt_masked",
    "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets",
    "wgrad_gemm_fp8_fp8_fp32_nt", "k_grouped_wgrad_gemm_fp8_fp8_fp32_nt",
    "fp8_gemm_nt", "m_grouped_fp8_gemm_nt_contiguous", "m_grouped_fp8_gemm_nt_masked",
    "k_grouped_fp8_gemm_nt_contiguous", "get_mk_alignment_for_contiguous_layout",
    "get_mn_major_tma_aligned_tensor",
    "align", "bench", "ceil_div", "calc_diff", "get_tma_aligned_size",
    "get_col_major_tma_aligned_tensor", "per_token_cast_to_fp8",
    "per_block_cast_to_fp8", "per_token_cast_back", "per_block_cast_back",
]
