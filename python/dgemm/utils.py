#===- utils.py - FP8 casts, TMA-aligned layouts, accuracy metric ---------===#
"""Helpers users of DeepGEMM-style FP8 GEMMs need, with DeepGEMM's names:

- :func:`ceil_div`, :func:`align`, :func:`get_tma_aligned_size`;
- :func:`get_col_major_tma_aligned_tensor`: the A-scale layout the kernels
  read with TMA (MN-major, M padded to 16 bytes);
- :func:`per_token_cast_to_fp8` (1x128 scales, for A) and
  :func:`per_block_cast_to_fp8` (128x128 scales, for B), and their inverses
  :func:`per_token_cast_back` / :func:`per_block_cast_back`;
- :func:`calc_diff`: DeepGEMM's accuracy metric ``1 - 2·Σxy / Σ(x²+y²)``.

PyTorch is imported only inside the functions that need it; the layout and
metric helpers also accept numpy arrays (so they are testable without torch).
"""

FP8_E4M3_MAX = 448.0
TMA_ALIGNMENT_BYTES = 16
SCALE_BLOCK = 128


def ceil_div(x: int, y: int) -> int:
    """⌈x / y⌉ for integers (y > 0)."""
    return (x + y - 1) // y


def align(x: int, y: int) -> int:
    """x rounded up to a multiple of y."""
    return ceil_div(x, y) * y


def get_tma_aligned_size(x: int, element_size: int) -> int:
    """The number of elements of ``element_size`` bytes that ``x`` elements
    occupy once padded to TMA's 16-byte alignment (the leading stride of an
    MN-major scale tensor: ``get_tma_aligned_size(M, 4)`` = align(M, 4))."""
    if element_size <= 0 or TMA_ALIGNMENT_BYTES % element_size != 0:
        raise ValueError("element size %r does not divide the TMA alignment of %d bytes"
                         % (element_size, TMA_ALIGNMENT_BYTES))
    return align(x, TMA_ALIGNMENT_BYTES // element_size)


def _is_numpy(x):
    return type(x).__module__.split(".")[0] == "numpy"


def is_col_major_tma_aligned(shape, strides, element_size=4):
    """True if a scale tensor of this shape/strides (in elements) is already
    in the layout :func:`get_col_major_tma_aligned_tensor` makes: for
    ``[M, S]`` strides ``(1, aligned_M)``; for ``[G, M, S]`` strides
    ``(aligned_M * S, 1, aligned_M)``."""
    m = shape[-2]
    am = get_tma_aligned_size(m, element_size)
    if len(shape) == 2:
        return tuple(strides) == (1, am)
    if len(shape) == 3:
        return tuple(strides) == (am * shape[2], 1, am)
    return False


def get_col_major_tma_aligned_tensor(x):
    """The A-scale tensor ``x`` ([M, S] or [G, M, S], f32) in the layout the
    kernels load with TMA: MN-major (stride 1 along M) with M padded to a
    multiple of 16 bytes, i.e. strides ``(1, align(M, 4))`` (and
    ``align(M, 4) * S`` between groups). Same logical shape and values; ``x``
    itself is returned when it already has that layout, otherwise a copy (a
    small PyTorch kernel, stream-ordered on the current stream).

    Accepts torch tensors and, for tests, numpy arrays."""
    if x.ndim not in (2, 3):
        raise ValueError("expected a 2-D or 3-D scale tensor, got %d-D" % x.ndim)
    if _is_numpy(x):
        import numpy as np
        es = x.itemsize
        strides = tuple(s // es for s in x.strides)
        if is_col_major_tma_aligned(x.shape, strides, es):
            return x
        m, s = x.shape[-2], x.shape[-1]
        am = get_tma_aligned_size(m, es)
        buf = np.empty(x.shape[:-2] + (s, am), dtype=x.dtype)
        out = np.swapaxes(buf, -1, -2)[..., :m, :]
        out[...] = x
        return out
    import torch
    if is_col_major_tma_aligned(tuple(x.shape), x.stride(), x.element_size()):
        return x
    m, s = x.shape[-2], x.shape[-1]
    am = get_tma_aligned_size(m, x.element_size())
    buf = torch.empty(tuple(x.shape[:-2]) + (s, am), dtype=x.dtype, device=x.device)
    out = buf.transpose(-1, -2)[..., :m, :]
    out.copy_(x)
    return out


def per_token_cast_to_fp8(x):
    """Quantizes ``x`` [M, K] (K % 128 == 0, any float dtype) to FP8 E4M3 with
    one f32 scale per row per 128 columns (the A operand's 1x128 recipe).
    Returns ``(x_fp8 [M, K] float8_e4m3fn contiguous, sf [M, K/128] float32
    contiguous)`` with ``x ≈ x_fp8 * sf`` broadcast over each 128-wide block;
    the block's largest magnitude maps to 448 (amax clamped to 1e-4). Pass
    ``sf`` to the GEMM as is (it makes the TMA-aligned copy) or convert it
    once with :func:`get_col_major_tma_aligned_tensor`."""
    import torch
    if x.dim() != 2 or x.size(1) % SCALE_BLOCK != 0:
        raise ValueError("per_token_cast_to_fp8 wants [M, K] with K %% 128 == 0, got %s"
                         % (tuple(x.shape),))
    m, k = x.shape
    xv = x.reshape(m, -1, SCALE_BLOCK).float()
    amax = xv.abs().amax(dim=2).clamp(min=1e-4)
    q = (xv * (FP8_E4M3_MAX / amax.unsqueeze(2))).to(torch.float8_e4m3fn)
    return q.view(m, k), (amax / FP8_E4M3_MAX).contiguous()


def per_block_cast_to_fp8(x):
    """Quantizes ``x`` [N, K] to FP8 E4M3 with one f32 scale per 128x128 block
    (the B operand's recipe; partial edge blocks are scaled by their own
    amax). Returns ``(x_fp8 [N, K] float8_e4m3fn contiguous,
    sf [⌈N/128⌉, ⌈K/128⌉] float32 contiguous)``."""
    import torch
    if x.dim() != 2:
        raise ValueError("per_block_cast_to_fp8 wants a 2-D tensor, got %s"
                         % (tuple(x.shape),))
    n, k = x.shape
    nb, kb = ceil_div(n, SCALE_BLOCK), ceil_div(k, SCALE_BLOCK)
    padded = torch.zeros((nb * SCALE_BLOCK, kb * SCALE_BLOCK), dtype=torch.float32,
                         device=x.device)
    padded[:n, :k] = x
    v = padded.view(nb, SCALE_BLOCK, kb, SCALE_BLOCK)
    amax = v.abs().amax(dim=(1, 3), keepdim=True).clamp(min=1e-4)
    q = (v * (FP8_E4M3_MAX / amax)).to(torch.float8_e4m3fn)
    q = q.view(nb * SCALE_BLOCK, kb * SCALE_BLOCK)[:n, :k].contiguous()
    return q, (amax / FP8_E4M3_MAX).view(nb, kb).contiguous()


def per_token_cast_back(x_fp8, sf, dtype=None):
    """Dequantizes FP8 [M, K] with 1x128 scales [M, ⌈K/128⌉] (any strides)
    to ``dtype`` (default float32; float64 makes each product exact)."""
    import torch
    dtype = dtype or torch.float32
    k = x_fp8.shape[1]
    return x_fp8.float().to(dtype) * sf.to(dtype).repeat_interleave(SCALE_BLOCK, dim=1)[:, :k]


def per_block_cast_back(x_fp8, sf, dtype=None):
    """Dequantizes FP8 [N, K] with 128x128 scales [⌈N/128⌉, ⌈K/128⌉] to
    ``dtype`` (default float32)."""
    import torch
    dtype = dtype or torch.float32
    n, k = x_fp8.shape
    full = sf.to(dtype).repeat_interleave(SCALE_BLOCK, dim=0)[:n]
    return x_fp8.float().to(dtype) * full.repeat_interleave(SCALE_BLOCK, dim=1)[:, :k]


def calc_diff(x, y) -> float:
    """DeepGEMM's accuracy metric, ``1 - 2·Σxy / Σ(x² + y²)``, computed in
    float64: 0 for identical tensors, 1 for orthogonal ones, 2 for ``y = -x``;
    about ``|x - y|² / (2|x|²)`` for close ones (so 1e-3 ~ 4.5% RMS error).
    FP8 GEMMs pass with < 1e-3. Returns a Python float (NaN if either input
    holds NaN, or both are all zeros). Accepts torch tensors or numpy arrays."""
    if _is_numpy(x) or _is_numpy(y):
        import numpy as np
        x = np.asarray(x, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        den = float((x * x + y * y).sum())
        num = float((x * y).sum())
    else:
        x, y = x.double(), y.double()
        den = float((x * x + y * y).sum())
        num = float((x * y).sum())
    if den == 0.0:
        return float("nan")
    return 1.0 - 2.0 * num / den


def bench(fn, num_warmups=5, num_tests=10, high_precision=False, flush_l2=True):
    """Mean GPU time of ``fn()`` in seconds (DeepGEMM's ``bench``):
    ``num_warmups`` calls, then ``num_tests`` calls each timed with CUDA
    events on the current stream, each preceded (with ``flush_l2``) by a
    256 MB memset so its inputs come from HBM. ``high_precision``: 10x more
    timed calls. Needs PyTorch with CUDA (raises RuntimeError saying so)."""
    try:
        import torch
    except ImportError:
        raise RuntimeError("dgemm.bench needs PyTorch with CUDA (it times with "
                           "torch.cuda.Event)") from None
    if not torch.cuda.is_available():
        raise RuntimeError("dgemm.bench needs a CUDA device; torch.cuda.is_available() "
                           "is False")
    if num_tests < 1 or num_warmups < 0:
        raise ValueError("bench needs num_tests >= 1 and num_warmups >= 0, got %d and %d"
                         % (num_tests, num_warmups))
    tests = num_tests * (10 if high_precision else 1)
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda") if flush_l2 else None
    for _ in range(num_warmups):
        fn()
    torch.cuda.synchronize()
    total = 0.0
    for _ in range(tests):
        if flush is not None:
            flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        total += start.elapsed_time(end) / 1e3
    return total / tests
