#===- grouped.py - the MoE GEMMs (m-grouped) and the weight-gradient ones ===#
"""DeepGEMM's grouped GEMMs under their names and argument conventions.

The m-grouped layouts run dgemm's grouped kernels (one launch, no host
synchronisation): ``m_grouped_gemm_fp8_fp8_bf16_nt_contiguous`` (MoE
prefill / training forward) and ``m_grouped_gemm_fp8_fp8_bf16_nt_masked``
(MoE decode; CUDA-graph friendly). The weight-gradient GEMMs (normal and
k-grouped) are in :mod:`dgemm.wgrad`.

Operands are checked here before any GPU work (DgemmArgumentError naming
the operand and the rule); the C API checks strides and alignment again.
"""
import ctypes

from . import _lib
from ._lib import DgemmArgumentError
from .gemm import (_CACHE_MAX, _Launch, _Op, _all_cuda, _bind, _fail, _fast, _go, _is_torch,
                   _operand_key,
                   _sfa_op, _want)
from .utils import ceil_div, get_col_major_tma_aligned_tensor, is_col_major_tma_aligned

_F8 = ("float8_e4m3fn",)


class _GroupedArgs:
    """Validated operands of an m-grouped GEMM, in the C API's order (A, A
    scales, B, B scales, groups, D), with layout copies of the scales where
    needed (torch tensors only), kept alive by this object."""

    def __init__(self, fn, lhs, rhs, out, groups, masked, offsets=False):
        try:
            a, sfa = lhs
            b, sfb = rhs
        except (TypeError, ValueError):
            _fail(fn, "lhs and rhs must be (fp8 tensor, scale tensor) pairs")
        rank = 3 if masked else 2
        gname = "masked_m" if masked else "offsets" if offsets else "m_indices"
        A = _Op(a, "lhs[0] (A)")
        SA = _Op(sfa, "lhs[1] (A scales)") if masked else _sfa_op(sfa, "lhs[1] (A scales)")
        B, SB = _Op(b, "rhs[0] (B)"), _Op(sfb, "rhs[1] (B scales)")
        G, D = _Op(groups, gname), _Op(out, "out (D)")
        _want(fn, A, _F8, rank)
        _want(fn, SA, ("float32",), rank)
        _want(fn, B, _F8, 3)
        _want(fn, SB, ("float32",), 3)
        _want(fn, G, ("int32",), 1)
        _want(fn, D, ("bfloat16",), rank)
        g, n, k = B.shape
        m = A.shape[1] if masked else A.shape[0]
        if A.shape[-1] != k:
            _fail(fn, "K differs: A is %s but B is [G, N, K] = %s", list(A.shape), list(B.shape))
        if masked and A.shape[0] != g:
            _fail(fn, "A must be [G, M_max, K] with G = %d (B's groups), got %s", g,
                  list(A.shape))
        if k <= 0 or k % 128 != 0:
            _fail(fn, "K = %d must be a positive multiple of 128", k)
        if n <= 0 or n % 8 != 0:
            _fail(fn, "N = %d must be a positive multiple of 8", n)
        if not masked and m % 128 != 0:
            _fail(fn, "A has M_sum = %d rows: each group is padded to a multiple of 128 rows "
                  "(get_m_alignment_for_contiguous_layout()), so M_sum must be one", m)
        kb = k // 128
        want_d = (g, m, n) if masked else (m, n)
        if D.shape != want_d:
            _fail(fn, "out must be %s, got %s", list(want_d), list(D.shape))
        want_sa = (g, m, kb) if masked else (m, kb)
        if SA.shape != want_sa:
            _fail(fn, "A scales must be %s (one per row per 128 K-values), got %s",
                  list(want_sa), list(SA.shape))
        if SB.shape != (g, ceil_div(n, 128), kb):
            _fail(fn, "B scales must be [G, ceil(N/128), K/128] = %s, got %s",
                  [g, ceil_div(n, 128), kb], list(SB.shape))
        want_g = g if masked or offsets else m
        if G.shape != (want_g,):
            _fail(fn, "%s must be [%s] = [%d], got %s", gname,
                  "G" if masked or offsets else "M_sum", want_g, list(G.shape))
        for t in (A, SA, B, SB, G, D):
            if getattr(t.obj, "is_cuda", True) is False:
                _fail(fn, "%s is on %s; all operands must be CUDA tensors",
                      t.what, getattr(t.obj, "device", "the host"))
        devs = [getattr(t.obj, "device", None) for t in (A, SA, B, SB, G, D)]
        if all(dv is not None for dv in devs) and len({str(dv) for dv in devs}) != 1:
            _fail(fn, "operands are on different devices: %s", [str(dv) for dv in devs])

        # Scales in another layout than the kernels' are copied (torch only).
        self.copied = False
        if m > 0 and not is_col_major_tma_aligned(SA.shape, SA.strides, 4):
            if not _is_torch(sfa):
                _fail(fn, "A scales must be MN-major and TMA-aligned "
                      "(get_col_major_tma_aligned_tensor makes that layout; only torch "
                      "tensors are converted automatically), got strides %s", SA.strides)
            conv = get_col_major_tma_aligned_tensor(sfa)
            SA = _Op(conv, SA.what) if masked else _sfa_op(conv, SA.what)
            self.copied = True
        if not _is_dense(SB):
            if not _is_torch(sfb):
                _fail(fn, "B scales must be contiguous, got strides %s", SB.strides)
            SB = _Op(sfb.contiguous(), SB.what)
            self.copied = True
        self.m, self.n, self.k, self.g = m, n, k, g
        self.ops = (A, SA, B, SB, G, D)
        self.launch = _Launch(m, self.ops, out)


def _is_dense(op):
    want = 1
    for size, stride in zip(reversed(op.shape), reversed(op.strides)):
        if size > 1 and stride != want:
            return False
        want *= size
    return True


# Validated launches of the m-grouped GEMMs, one table per layout, keyed as
# the normal GEMM's (gemm._launch_cache): data pointer, shape, strides,
# dtype and device of the six operands. expected_m is not in the key (it is
# checked and passed per call). Launches that needed a scale copy are not
# cached.
_contiguous_cache = {}
_masked_cache = {}


def _full(fn, cache, lhs, rhs, out, groups, masked, offsets=False, expected_m=None):
    """Every rule checked; the launch cached (and bound: gemm._bind, except
    for the offsets form) when no scale needed a copy. A masked launch is
    keyed with ``expected_m`` too (its binding chose the config for it).
    Returns (launch, args): args keeps any copies alive until the call."""
    args = _GroupedArgs(fn, lhs, rhs, out, groups, masked, offsets)
    key = _operand_key(lhs, rhs, out, groups) if not args.copied else None
    if key is not None:
        if masked:
            key += (expected_m,)
        if len(cache) >= _CACHE_MAX:
            cache.clear()
        launch = args.launch
        cache[key] = launch
        r = launch.refs
        if masked:
            _bind(launch, "dgemm_bind_m_grouped_gemm_fp8_bf16_nt_masked",
                  (r[0], r[1], r[2], r[3], r[4], expected_m, r[5]))
        elif not offsets:
            _bind(launch, "dgemm_bind_m_grouped_gemm_fp8_bf16_nt_contiguous", r)
    return args.launch, args


def m_grouped_gemm_fp8_fp8_bf16_nt_contiguous(lhs, rhs, out, m_indices, *, stream=None):
    """Contiguous m-grouped GEMM (MoE prefill / training forward)::

        out[r, :] = A[r, :] · B[m_indices[r]]ᵀ      (scaled as gemm_fp8_fp8_bf16_nt)

    Arguments:
        lhs: ``(A, sfa)``: ``A`` [M_sum, K] ``torch.float8_e4m3fn`` row-major,
            every expert's rows together, each expert's segment padded to a
            multiple of 128 rows (``get_m_alignment_for_contiguous_layout()``),
            so M_sum % 128 == 0; ``sfa`` [M_sum, K/128] ``torch.float32``, one
            scale per row per 128 K-values (copied to the MN-major TMA-aligned
            layout when it is in another one).
        rhs: ``(B, sfb)``: ``B`` [G, N, K] ``torch.float8_e4m3fn`` (rows
            16-byte aligned); ``sfb`` [G, ⌈N/128⌉, K/128] ``torch.float32``,
            one per 128x128 block (copied when not contiguous).
        out: [M_sum, N] ``torch.bfloat16``, row-major.
        m_indices: [M_sum] ``torch.int32``, contiguous: each row's expert, -1
            for padding rows. Read on the GPU (no synchronisation).

    Each 128-row block (64 when the config's block M is 64) takes the expert
    of its first row; a block whose first row is -1 is skipped (no loads, no
    math, ``out`` left untouched there). Rows marked -1 inside a computed
    block (a segment's padding) are computed with that block's expert.
    K a positive multiple of 128, N a positive multiple of 8, 16-byte
    aligned base addresses. Asynchronous on ``stream`` (default: PyTorch's
    current stream)."""
    try:  # warm path, as gemm_fp8_fp8_bf16_nt's
        a, sfa = lhs
        b, sfb = rhs
        g = m_indices
        launch = _contiguous_cache[
            a.data_ptr(), a.shape, a.stride(), a.dtype, a.device,
            sfa.data_ptr(), sfa.shape, sfa.stride(), sfa.dtype, sfa.device,
            b.data_ptr(), b.shape, b.stride(), b.dtype, b.device,
            sfb.data_ptr(), sfb.shape, sfb.stride(), sfb.dtype, sfb.device,
            g.data_ptr(), g.shape, g.stride(), g.dtype, g.device,
            out.data_ptr(), out.shape, out.stride(), out.dtype, out.device]
        keep = None
    except Exception:  # noqa: BLE001 - a miss, or not tensors
        launch = None
    if launch is None or (launch.duck and not _all_cuda(a, sfa, b, sfb, g, out)):
        launch, keep = _full("m_grouped_gemm_fp8_fp8_bf16_nt_contiguous", _contiguous_cache,
                             lhs, rhs, out, m_indices, False)
    if launch.m:
        _go(launch, (_lib._fast or _fast()).m_grouped_gemm_fp8_bf16_nt_contiguous,
            "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous", stream, launch.refs)
    del keep


_offsets_cache = {}


def m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets(lhs, rhs, out, offsets, *, stream=None):
    """The contiguous m-grouped GEMM with the experts given by their end rows
    instead of m_indices (same operands and rules as
    :func:`m_grouped_gemm_fp8_fp8_bf16_nt_contiguous` otherwise)::

        offsets: [G] ``torch.int32``, contiguous, on the GPU: offsets[g] is
            expert g's end row (exclusive, cumulative); expert g's rows start
            at the first multiple of 128 at or after offsets[g-1] (row 0 for
            g = 0); rows between an expert's end and the next one's start
            are padding, and 128-row blocks past the last expert's end are
            skipped (``out`` untouched there). Read on the GPU.

    A padding row inside a computed block is computed with that block's
    expert, as with m_indices."""
    fn = "m_grouped_gemm_fp8_fp8_bf16_nt_contiguous_offsets"
    key = _operand_key(lhs, rhs, out, offsets)
    launch = _offsets_cache.get(key) if key is not None else None
    keep = None
    if launch is None or (launch.duck and not _all_cuda(*lhs, *rhs, offsets, out)):
        launch, keep = _full(fn, _offsets_cache, lhs, rhs, out, offsets, False, True)
    if launch.m:
        _go(launch, (_lib._fast or _fast()).m_grouped_gemm_fp8_bf16_nt_contiguous_offsets,
            fn, stream, launch.refs)
    del keep


def m_grouped_gemm_fp8_fp8_bf16_nt_masked(lhs, rhs, out, masked_m, expected_m, *, stream=None):
    """Masked m-grouped GEMM (MoE decode, CUDA graphs)::

        out[g, :masked_m[g], :] = A[g, :masked_m[g], :] · B[g]ᵀ

    Arguments:
        lhs: ``(A, sfa)``: ``A`` [G, M_max, K] ``torch.float8_e4m3fn``;
            ``sfa`` [G, M_max, K/128] ``torch.float32`` (copied to the
            MN-major, TMA-aligned layout of
            ``get_col_major_tma_aligned_tensor`` when in another one).
        rhs: ``(B, sfb)``: ``B`` [G, N, K] ``torch.float8_e4m3fn``; ``sfb``
            [G, ⌈N/128⌉, K/128] ``torch.float32``.
        out: [G, M_max, N] ``torch.bfloat16``, contiguous.
        masked_m: [G] ``torch.int32``: valid rows of each group, read on the
            GPU (values clamped to [0, M_max]).
        expected_m: int >= 1, the expected rows per group; chooses the
            kernel config (not a bound).

    Rows at or past ``masked_m[g]`` are not written; tiles wholly past it
    are not computed. The launch does not depend on ``masked_m``'s values,
    so a CUDA graph captured once can be replayed with new counts."""
    fn = "m_grouped_gemm_fp8_fp8_bf16_nt_masked"
    if type(expected_m) is not int:
        try:
            expected_m = int(expected_m)
        except (TypeError, ValueError):
            raise DgemmArgumentError("%s: expected_m must be an int, got %r"
                                     % (fn, expected_m)) from None
    if expected_m < 1:
        raise DgemmArgumentError("%s: expected_m must be >= 1, got %d" % (fn, expected_m))
    try:  # warm path, as gemm_fp8_fp8_bf16_nt's
        a, sfa = lhs
        b, sfb = rhs
        g = masked_m
        launch = _masked_cache[
            a.data_ptr(), a.shape, a.stride(), a.dtype, a.device,
            sfa.data_ptr(), sfa.shape, sfa.stride(), sfa.dtype, sfa.device,
            b.data_ptr(), b.shape, b.stride(), b.dtype, b.device,
            sfb.data_ptr(), sfb.shape, sfb.stride(), sfb.dtype, sfb.device,
            g.data_ptr(), g.shape, g.stride(), g.dtype, g.device,
            out.data_ptr(), out.shape, out.stride(), out.dtype, out.device, expected_m]
        keep = None
    except Exception:  # noqa: BLE001 - a miss, or not tensors
        launch = None
    if launch is None or (launch.duck and not _all_cuda(a, sfa, b, sfb, g, out)):
        launch, keep = _full(fn, _masked_cache, lhs, rhs, out, masked_m, True,
                             expected_m=expected_m)
    if launch.m:
        r = launch.refs
        _go(launch, (_lib._fast or _fast()).m_grouped_gemm_fp8_bf16_nt_masked, fn, stream,
            (r[0], r[1], r[2], r[3], r[4], ctypes.c_int64(expected_m), r[5]))
    del keep


def launch_grouped_kernel_ir(kernel_ir, lhs, rhs, out, groups, *, stream=None) -> None:
    """Compiles the kernel IR of an m-grouped kernel (what ``dgemm-opt
    --dgemm-select-config --dgemm-lower-to-kernel`` prints for a
    ``dgemm.grouped_gemm``, possibly edited) and launches it on grouped
    operands: the contiguous layout's when ``out`` is 2-D (``groups`` =
    m_indices), the masked layout's when it is 3-D (``groups`` = masked_m),
    with the rules of the two functions above; the kernel's own layout,
    group count, N and K must match (checked by the library). Cached by the
    text's hash. For config sweeps."""
    fn = "launch_grouped_kernel_ir"
    if not isinstance(kernel_ir, str):
        _fail(fn, "kernel_ir must be the kernel IR text (str), got %s", type(kernel_ir).__name__)
    try:
        masked = len(out.shape) == 3
    except (AttributeError, TypeError):
        masked = False  # the checks say what is wrong with `out`
    args = _GroupedArgs(fn, lhs, rhs, out, groups, masked=masked)
    launch = args.launch
    if launch.m == 0:
        return
    _go(launch, _fast().launch_grouped_kernel_ir, fn, stream, (kernel_ir.encode(),) + launch.refs)
