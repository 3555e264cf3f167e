#===- deepgemm_v2.py - DeepGEMM 2.x's function names ----------------------===#
"""DeepGEMM 2.x's names for the Hopper FP8 GEMMs (FP32 scales), over
dgemm's calls with DeepGEMM 1.x's names, so that code written against
either version runs with ``import dgemm as deep_gemm``::

    fp8_gemm_nt                       gemm_fp8_fp8_bf16_nt (recipe (1, 128, 128))
                                      wgrad_gemm_fp8_fp8_fp32_nt (recipe (1, 1, 128))
    m_grouped_fp8_gemm_nt_contiguous  m_grouped_gemm_fp8_fp8_bf16_nt_contiguous
                                      (use_psum_layout: ..._contiguous_offsets)
    m_grouped_fp8_gemm_nt_masked      m_grouped_gemm_fp8_fp8_bf16_nt_masked
    k_grouped_fp8_gemm_nt_contiguous  k_grouped_wgrad_gemm_fp8_fp8_fp32_nt

The arguments keep DeepGEMM 2.x's names, order and defaults. ``c`` (the
accumulator of ``D = C + A·Bᵀ``) goes with an f32 D and the 1x128 B recipe:
c is D itself (accumulated in place), another tensor (copied into D first,
as DeepGEMM does) or None (D zeroed first: D = A·Bᵀ). ``compiled_dims``,
``disable_ue8m0_cast`` (UE8M0 scales are Blackwell's), ``ensure_zero_padding``
and ``expected_m_for_psum_layout`` are accepted and not needed: every call
compiles for its own shape. As in DeepGEMM, everything runs on PyTorch's
current stream (D's device). Recipes other than those two raise :class:`DgemmArgumentError`; the
transposed layouts (nn, tn, tt: Blackwell's in DeepGEMM) and the BF16 GEMMs
are not provided.
"""
from .device import get_m_alignment_for_contiguous_layout
from .gemm import _fail, gemm_fp8_fp8_bf16_nt
from .grouped import (m_grouped_gemm_fp8_fp8_bf16_nt_contiguous,
                      m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets,
                      m_grouped_gemm_fp8_fp8_bf16_nt_masked)
from .utils import get_col_major_tma_aligned_tensor
from .wgrad import _k_grouped_args, _k_grouped_go, _wgrad_args, _wgrad_go

BLOCK_SCALED_B = (1, 128, 128)  # A 1x128, B 128x128, K granularity 128
ROW_SCALED_B = (1, 1, 128)      # A 1x128, B 1x128 (weight gradients)


def _recipe(fn, recipe, recipe_a, recipe_b, inferred):
    """The (A rows, B rows, K) scale granularity asked for, else `inferred`;
    only the two Hopper recipes pass."""
    if recipe is not None:
        if recipe_a is not None or recipe_b is not None:
            _fail(fn, "give recipe or recipe_a and recipe_b, not both")
        got = recipe
    elif recipe_a is not None or recipe_b is not None:
        if recipe_a is None or recipe_b is None:
            _fail(fn, "recipe_a and recipe_b go together, got recipe_a=%r, recipe_b=%r",
                  recipe_a, recipe_b)
        try:
            (ga, ka), (gb, kb) = recipe_a, recipe_b
        except (TypeError, ValueError):
            _fail(fn, "recipe_a and recipe_b must be (rows, K) pairs, got %r and %r",
                  recipe_a, recipe_b)
        if ka != kb:
            _fail(fn, "recipe_a and recipe_b must scale the same K granularity, got %r and %r",
                  recipe_a, recipe_b)
        got = (ga, gb, ka)
    else:
        return inferred
    try:
        got = tuple(int(x) for x in got)
    except (TypeError, ValueError):
        _fail(fn, "recipe must be a tuple of 3 ints, got %r", recipe)
    if got not in (BLOCK_SCALED_B, ROW_SCALED_B):
        _fail(fn, "recipe %r is not supported on Hopper: (1, 128, 128) (A per row, B per "
              "128x128 block, K blocks of 128) or (1, 1, 128) (A and B per row: weight "
              "gradients, f32 D)", got)
    return got


def _dtype(t):
    return str(getattr(t, "dtype", ""))


def _same_memory(c, d):
    try:
        return c.data_ptr() == d.data_ptr()
    except (AttributeError, TypeError):
        return c is d


def _start_from(fn, d, c):
    """Makes D hold what the in-place accumulation starts from: c (c is D:
    as it is), zeros when c is None."""
    if c is not None and _same_memory(c, d):
        if tuple(c.shape) != tuple(d.shape) or tuple(c.stride()) != tuple(d.stride()):
            _fail(fn, "c shares d's memory but not its shape and strides (c %s strides %s, "
                  "d %s strides %s)", list(c.shape), tuple(c.stride()), list(d.shape),
                  tuple(d.stride()))
        return
    if c is not None:
        if tuple(getattr(c, "shape", ())) != tuple(getattr(d, "shape", ())):
            _fail(fn, "c must have d's shape %s, got %s", list(getattr(d, "shape", ())),
                  list(getattr(c, "shape", ())))
        if _dtype(c) != _dtype(d):
            _fail(fn, "c must have d's dtype %s, got %s", _dtype(d), _dtype(c))
    if not hasattr(d, "zero_") or not hasattr(d, "copy_"):
        _fail(fn, "d must be a torch tensor unless c is d itself (D is zeroed, or c copied "
              "into it, before the accumulation)")
    if c is None:
        d.zero_()
    else:
        d.copy_(c)


def fp8_gemm_nt(a, b, d, c=None, recipe=None, recipe_a=None, recipe_b=None,
                compiled_dims="nk", disable_ue8m0_cast=False) -> None:
    """D = C + A · Bᵀ, both operands K-major (DeepGEMM 2.x's ``fp8_gemm_nt``).

    ``a`` = (A [M, K] e4m3, sfa [M, K/128] f32), ``b`` = (B [N, K] e4m3, sfb).
    The recipe comes from ``recipe`` / ``recipe_a`` + ``recipe_b``, else from
    sfb's shape: [ceil(N/128), K/128] is (1, 128, 128): bf16 D, no c
    (:func:`dgemm.gemm_fp8_fp8_bf16_nt`); [N, K/128] is (1, 1, 128): f32 D,
    accumulated from c (:func:`dgemm.wgrad_gemm_fp8_fp8_fp32_nt`, see the
    module for c). The rules of those calls apply, checked before D is
    zeroed or c copied into it."""
    fn = "fp8_gemm_nt"
    if not (isinstance(a, (tuple, list)) and len(a) == 2 and
            isinstance(b, (tuple, list)) and len(b) == 2):
        _fail(fn, "a and b must be (fp8 tensor, scale tensor) pairs")
    inferred = BLOCK_SCALED_B
    try:
        n = int(b[0].shape[0])
        if n > 1 and int(b[1].shape[0]) == n:
            inferred = ROW_SCALED_B
    except (AttributeError, TypeError, IndexError, ValueError):
        pass  # the call's own checks say what is wrong
    r = _recipe(fn, recipe, recipe_a, recipe_b, inferred)
    if r == BLOCK_SCALED_B:
        if c is not None:
            _fail(fn, "c (D = C + A·Bᵀ) needs an f32 D and the (1, 1, 128) recipe; the "
                  "(1, 128, 128) recipe writes a bf16 D")
        if _dtype(d) == "torch.float32":
            _fail(fn, "an f32 D goes with the (1, 1, 128) recipe (sfb [N, K/128]); the "
                  "(1, 128, 128) recipe writes torch.bfloat16")
        gemm_fp8_fp8_bf16_nt(a, b, d)
        return
    args = _wgrad_args(fn, a, b, d, None)  # every rule before D is touched
    _start_from(fn, d, c)
    _wgrad_go(args, fn, None)


def _block_scaled_only(fn, recipe, recipe_a, recipe_b):
    if _recipe(fn, recipe, recipe_a, recipe_b, BLOCK_SCALED_B) != BLOCK_SCALED_B:
        _fail(fn, "the m-grouped GEMMs take the (1, 128, 128) recipe only")


def m_grouped_fp8_gemm_nt_contiguous(a, b, d, grouped_layout, recipe=None, recipe_a=None,
                                     recipe_b=None, compiled_dims="nk",
                                     disable_ue8m0_cast=False, use_psum_layout=False,
                                     ensure_zero_padding=True,
                                     expected_m_for_psum_layout=None) -> None:
    """The contiguous m-grouped GEMM (DeepGEMM 2.x's name): grouped_layout is
    m_indices [M_sum] (:func:`dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_contiguous`),
    or with ``use_psum_layout`` each group's end row [G], groups starting at
    128-aligned rows (:func:`dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets`)."""
    fn = "m_grouped_fp8_gemm_nt_contiguous"
    _block_scaled_only(fn, recipe, recipe_a, recipe_b)
    if use_psum_layout:
        m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets(a, b, d, grouped_layout)
    else:
        m_grouped_gemm_fp8_fp8_bf16_nt_contiguous(a, b, d, grouped_layout)


def m_grouped_fp8_gemm_nt_masked(a, b, d, masked_m, expected_m, recipe=None, recipe_a=None,
                                 recipe_b=None, compiled_dims="nk",
                                 disable_ue8m0_cast=False) -> None:
    """The masked m-grouped GEMM (DeepGEMM 2.x's name):
    :func:`dgemm.m_grouped_gemm_fp8_fp8_bf16_nt_masked`."""
    fn = "m_grouped_fp8_gemm_nt_masked"
    _block_scaled_only(fn, recipe, recipe_a, recipe_b)
    m_grouped_gemm_fp8_fp8_bf16_nt_masked(a, b, d, masked_m, expected_m)


def k_grouped_fp8_gemm_nt_contiguous(a, b, d, ks_cpu, grouped_layout=None, c=None,
                                     recipe=ROW_SCALED_B, compiled_dims="mn",
                                     use_psum_layout=False) -> None:
    """The k-grouped weight-gradient GEMM, D[g] = C[g] + A_g · B_gᵀ (DeepGEMM
    2.x's name): :func:`dgemm.k_grouped_wgrad_gemm_fp8_fp8_fp32_nt` with the
    operands in its layout, ``ks_cpu`` its ks; grouped_layout (the k_g on the
    GPU) is not read. c as in the module's notes."""
    fn = "k_grouped_fp8_gemm_nt_contiguous"
    if _recipe(fn, recipe, None, None, ROW_SCALED_B) != ROW_SCALED_B:
        _fail(fn, "the k-grouped GEMM takes the (1, 1, 128) recipe only")
    if use_psum_layout:
        _fail(fn, "use_psum_layout is not supported: give each group's K in ks_cpu")
    if ks_cpu is None:
        _fail(fn, "ks_cpu (each group's K, host ints) is required")
    prepared = _k_grouped_args(fn, a, b, d, ks_cpu, None)  # before D is touched
    _start_from(fn, d, c)
    _k_grouped_go(prepared, fn, None)


def get_mk_alignment_for_contiguous_layout() -> int:
    """DeepGEMM 2.x's name of :func:`dgemm.get_m_alignment_for_contiguous_layout`
    (128)."""
    return get_m_alignment_for_contiguous_layout()


def get_mn_major_tma_aligned_tensor(x):
    """DeepGEMM 2.x's name of :func:`dgemm.get_col_major_tma_aligned_tensor`."""
    return get_col_major_tma_aligned_tensor(x)
