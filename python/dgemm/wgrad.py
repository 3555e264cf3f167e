#===- wgrad.py - the weight-gradient GEMM (f32 output, accumulated) ------===#
"""DeepGEMM's ``wgrad_gemm_fp8_fp8_fp32_nt``: out (f32) += A · Bᵀ with 1x128
scales for both operands, one launch of dgemm's weight-gradient kernel
(``dgemm.gemm`` with ``#dgemm.recipe<a = 1x128, b = 1x128>`` and f32 D
accumulated in place: each tile is added into D by a TMA reduce-add).

Operands are checked here before any GPU work (DgemmArgumentError naming
the operand and the rule); the C API checks them again.
"""
import ctypes

from . import _lib, dlpack
from .gemm import (_F8, _Launch, _Op, _fail, _fast, _go, _is_torch, _nt_operands, _readable,
                   _sfa_is_tma_ready, _sfa_op, _want, _want_row_major)
from .jit import log_once
from .utils import get_col_major_tma_aligned_tensor, get_tma_aligned_size


class _WgradArgs:
    """Validated operands (A, A scales, B, B scales, D) and their C structs;
    scale layout copies (torch tensors only) are kept alive by this object."""

    def __init__(self, fn, lhs, rhs, out):
        A, SA, B, SB, D, m, n, k, (sfa, sfb) = _nt_operands(fn, lhs, rhs, out, "float32",
                                                            _sfa_op)
        if k < 0 or k % 128 != 0:
            _fail(fn, "K = %d must be a multiple of 128", k)
        if n <= 0 or n % 8 != 0:
            _fail(fn, "N = %d must be a positive multiple of 8", n)
        kb = k // 128
        if SA.shape != (m, kb):
            _fail(fn, "A scales must be [M, K/128] = [%d, %d] (one per row per 128 "
                  "K-values), got %s", m, kb, list(SA.shape))
        if SB.shape != (n, kb):
            _fail(fn, "B scales must be [N, K/128] = [%d, %d] (one per row of B per 128 "
                  "K-values: the 1x128 recipe), got %s", n, kb, list(SB.shape))
        for t in (A, B, D):
            if t.shape[0] and t.shape[1]:
                _want_row_major(fn, t, 4 if t is D else 1)
        for t in (A, SA, B, SB, D):
            if getattr(t.obj, "is_cuda", True) is False:
                _fail(fn, "%s is on %s; all operands must be CUDA tensors",
                      t.what, getattr(t.obj, "device", "the host"))
        devs = [getattr(t.obj, "device", None) for t in (A, SA, B, SB, D)]
        if all(dv is not None for dv in devs) and len({str(dv) for dv in devs}) != 1:
            _fail(fn, "operands are on different devices: %s", [str(dv) for dv in devs])

        # Both scale tensors are read MN-major and TMA-aligned, as DeepGEMM's
        # wgrad reads them; torch tensors in another layout are copied.
        self.copied = False
        fixed = []
        for op, orig, rows in ((SA, sfa, "M"), (SB, sfb, "N")):
            if not _sfa_is_tma_ready(op):
                if not _is_torch(orig):
                    _fail(fn, "%s must be MN-major with strides (1, S), S >= %s, S %% 4 == 0 "
                          "(get_col_major_tma_aligned_tensor makes that layout; only torch "
                          "tensors are converted automatically), got strides %s",
                          op.what, rows, op.strides)
                log_once("wgrad-scale-copy", "%s: %s with strides %s are copied into the "
                         "TMA-aligned MN-major layout (strides (1, %d)) on every call; convert "
                         "them once with get_col_major_tma_aligned_tensor (logged once)"
                         % (fn, op.what, op.strides, get_tma_aligned_size(op.shape[0], 4)))
                op = _sfa_op(get_col_major_tma_aligned_tensor(orig), op.what)
                self.copied = True
            fixed.append(op)
        SA, SB = fixed
        for t in (A, SA, B, SB, D):
            if t.ptr % 16 != 0 and t.shape[0] and t.shape[1]:
                _fail(fn, "%s data address 0x%x is not 16-byte aligned (TMA needs it)",
                      t.what, t.ptr)
        self.m, self.n, self.k = m, n, k
        self.ops = (A, SA, B, SB, D)
        self.launch = _Launch(m if k else 0, self.ops, out)


def wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, out, *, stream=None) -> None:
    """Weight-gradient GEMM, accumulated in place (DeepGEMM's
    ``wgrad_gemm_fp8_fp8_fp32_nt``)::

        out[i, j] += Σ_k A[i, k]·sfa[i, k // 128] · B[j, k]·sfb[j, k // 128]

    Arguments:
        lhs: ``(A, sfa)``. ``A`` [M, K] ``torch.float8_e4m3fn``, row-major
            (rows a multiple of 16 bytes apart). ``sfa`` [M, K/128]
            ``torch.float32``, one scale per row per 128 K-values, read
            MN-major (strides ``(1, S)``, ``S >= M``, ``S % 4 == 0``:
            ``get_col_major_tma_aligned_tensor``); torch tensors in another
            layout are copied into it on each call.
        rhs: ``(B, sfb)``. ``B`` [N, K] ``torch.float8_e4m3fn``, row-major.
            ``sfb`` [N, K/128] ``torch.float32``, one scale per row of B per
            128 K-values (the 1x128 recipe), MN-major like ``sfa``.
        out: ``D`` [M, N] ``torch.float32``, row-major (row stride a multiple
            of 4 elements); the product is added to it (a TMA reduce-add per
            tile: D must not be read or written by other work meanwhile).
        stream: a ``CUstream`` handle (int); default: PyTorch's current
            stream of ``out``'s device.

    Rules: K a multiple of 128 (K = 0 and M = 0 leave out unchanged); N a
    positive multiple of 8; 16-byte aligned addresses; one CUDA device.
    Violations raise :class:`DgemmArgumentError` before any GPU work.
    """
    fn = "wgrad_gemm_fp8_fp8_fp32_nt"
    _wgrad_go(_wgrad_args(fn, lhs, rhs, out, stream), fn, stream)


def _wgrad_args(fn, lhs, rhs, out, stream):
    """Every rule of wgrad_gemm_fp8_fp8_fp32_nt checked (DgemmArgumentError
    naming `fn`); the launch, ready for _wgrad_go."""
    lhs, rhs, out = _readable(lhs, rhs, out, stream)
    return _WgradArgs(fn, lhs, rhs, out)


def _wgrad_go(args, fn, stream):
    if args.launch.m == 0:
        return
    _go(args.launch, _fast().wgrad_gemm_fp8_fp32_nt, fn, stream, args.launch.refs)
    del args  # layout copies live until the launch is queued


def launch_wgrad_kernel_ir(kernel_ir, lhs, rhs, out, *, stream=None) -> None:
    """Compiles the kernel IR of a weight-gradient GEMM (what ``dgemm-opt
    --dgemm-to-kernel`` prints for ``dgemm.gemm`` with
    ``#dgemm.recipe<a = 1x128, b = 1x128>`` and ``acc(%d) outs(%d)`` on an f32
    D, possibly edited) with the rest of the pipeline and launches it on
    operands that follow :func:`wgrad_gemm_fp8_fp8_fp32_nt`'s rules: out +=
    A · Bᵀ. A kernel whose contract computes another GEMM is refused."""
    fn = "launch_wgrad_kernel_ir"
    if not isinstance(kernel_ir, str):
        _fail(fn, "kernel_ir must be a str, got %s", type(kernel_ir).__name__)
    lhs, rhs, out = _readable(lhs, rhs, out, stream)
    args = _WgradArgs(fn, lhs, rhs, out)
    if args.launch.m == 0:
        return
    _go(args.launch, _fast().launch_wgrad_kernel_ir, fn, stream,
        (kernel_ir.encode(),) + tuple(args.launch.refs))
    del args


_MAX_K_GROUPS = 3984


def k_grouped_wgrad_gemm_fp8_fp8_fp32_nt(lhs, rhs, out, ks, ks_tensor=None, *,
                                         stream=None) -> None:
    """k-grouped weight-gradient GEMM of MoE experts, one launch (DeepGEMM's
    ``k_grouped_wgrad_gemm_fp8_fp8_fp32_nt``)::

        out[g] += A_g · B_gᵀ        for g < G,  A_g [M, k_g], B_g [N, k_g]

    Arguments:
        lhs: ``(A, sfa)``. ``A`` 1-D ``torch.float8_e4m3fn`` of M · Σk_g
            values: the K-major A_g [M, k_g] one after another, contiguous.
            ``sfa`` [Σk_g/128, M] ``torch.float32``: group g's K blocks are
            rows Σ_{h<g} k_h/128 ...; each row holds the M rows' scales
            (stride 1 along M, row stride a multiple of 4).
        rhs: ``(B, sfb)``. ``B`` 1-D, N · Σk_g values (the B_g [N, k_g]);
            ``sfb`` [Σk_g/128, N] as ``sfa``.
        out: ``D`` [G, M, N] ``torch.float32``, contiguous; D[g] += A_g·B_gᵀ.
        ks: the G values k_g (host ints), each a non-negative multiple of
            128 (k_g = 0 leaves D[g] unchanged); 1 <= G <= 3984.
        ks_tensor: accepted for DeepGEMM compatibility and not read (the
            kernel takes the k_g from ``ks``, as launch parameters: no
            device-to-host read).
        stream: a ``CUstream`` handle (int); default: PyTorch's current
            stream of ``out``'s device.

    Violations raise :class:`DgemmArgumentError` before any GPU work.
    """
    fn = "k_grouped_wgrad_gemm_fp8_fp8_fp32_nt"
    _k_grouped_go(_k_grouped_args(fn, lhs, rhs, out, ks, stream), fn, stream)


def _k_grouped_args(fn, lhs, rhs, out, ks, stream):
    """Every rule of k_grouped_wgrad_gemm_fp8_fp8_fp32_nt checked
    (DgemmArgumentError naming `fn`); the launch and the k_g for
    _k_grouped_go, or None when there is nothing to compute (M = 0 or every
    k_g = 0)."""
    try:
        a, sfa = lhs
        b, sfb = rhs
    except (TypeError, ValueError):
        _fail(fn, "lhs and rhs must be (fp8 tensor, scale tensor) pairs")
    try:
        ks = [int(k) for k in ks]
    except (TypeError, ValueError):
        _fail(fn, "ks must be a sequence of ints (the K of each group), got %r", ks)
    names = ("lhs[0] (A)", "lhs[1] (A scales)", "rhs[0] (B)", "rhs[1] (B scales)", "out (D)")
    objs = [dlpack.as_operand(o, stream, w) for o, w in zip((a, sfa, b, sfb, out), names)]
    A, SA, B, SB, D = (_Op(o, w) for o, w in zip(objs, names))
    _want(fn, A, _F8, 1)
    _want(fn, B, _F8, 1)
    _want(fn, SA, ("float32",), 2)
    _want(fn, SB, ("float32",), 2)
    _want(fn, D, ("float32",), 3)
    g, m, n = D.shape
    if len(ks) != g:
        _fail(fn, "ks has %d entries but out is [G, M, N] = %s", len(ks), list(D.shape))
    if not 1 <= g <= _MAX_K_GROUPS:
        _fail(fn, "G = %d must be in [1, %d] (the groups' tensor maps are kernel parameters)",
              g, _MAX_K_GROUPS)
    for i, k in enumerate(ks):
        if k < 0 or k % 128:
            _fail(fn, "ks[%d] = %d must be a non-negative multiple of 128", i, k)
    if n <= 0 or n % 8:
        _fail(fn, "N = %d must be a positive multiple of 8", n)
    total = sum(ks)
    kb = total // 128
    if A.shape != (m * total,):
        _fail(fn, "A must hold M * sum(ks) = %d values, got shape %s", m * total, list(A.shape))
    if B.shape != (n * total,):
        _fail(fn, "B must hold N * sum(ks) = %d values, got shape %s", n * total, list(B.shape))
    if SA.shape != (kb, m):
        _fail(fn, "A scales must be [sum(ks)/128, M] = [%d, %d], got %s", kb, m, list(SA.shape))
    if SB.shape != (kb, n):
        _fail(fn, "B scales must be [sum(ks)/128, N] = [%d, %d], got %s", kb, n, list(SB.shape))
    for t in (A, B):
        if t.shape[0] > 1 and t.strides[0] != 1:
            _fail(fn, "%s must be contiguous, got strides %s", t.what, t.strides)
    # Rows of scales a multiple of 16 bytes apart (TMA): torch tensors whose
    # rows are not are copied into rows padded to a multiple of 4 floats.
    fixed = []
    for t, orig, rows in ((SA, objs[1], m), (SB, objs[3], n)):
        if kb and rows and (t.strides[1] != 1 or t.strides[0] < rows or t.strides[0] % 4):
            if not _is_torch(orig):
                _want_row_major(fn, t, 4)
            import torch
            padded = torch.empty((kb, get_tma_aligned_size(rows, 4)), dtype=torch.float32,
                                 device=orig.device)[:, :rows]
            padded.copy_(orig)
            log_once("kgrouped-scale-copy", "%s: %s [%d, %d] with strides %s are copied into "
                     "rows padded to %d floats (16-byte rows for TMA) on every call (logged "
                     "once)" % (fn, t.what, kb, rows, t.strides, padded.stride(0)))
            t = _Op(padded, t.what)
        fixed.append(t)
    SA, SB = fixed
    if m and n and D.strides != (m * n, n, 1):
        _fail(fn, "out [G, M, N] must be contiguous, got strides %s", D.strides)
    for t in (A, SA, B, SB, D):
        if getattr(t.obj, "is_cuda", True) is False:
            _fail(fn, "%s is on %s; all operands must be CUDA tensors",
                  t.what, getattr(t.obj, "device", "the host"))
        if all(t.shape) and t.ptr % 16 != 0:
            _fail(fn, "%s data address 0x%x is not 16-byte aligned (TMA needs it)",
                  t.what, t.ptr)
    if m == 0 or total == 0:
        return None
    ops = (A, SA, B, SB, D)
    # The operands (layout copies among them) stay alive with the launch.
    return _Launch(m, ops, objs[4]), ks, ops


def _k_grouped_go(prepared, fn, stream):
    if prepared is None:
        return
    launch, ks, _ops = prepared
    r = launch.refs
    g = len(ks)
    karr = (ctypes.c_int64 * g)(*ks)
    lib = _lib.load()

    def call(*args):
        return lib.dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt(*args[:-1], karr, g, args[-1])
    _go(launch, call, fn, stream, (r[0], r[1], r[2], r[3], r[4]))
