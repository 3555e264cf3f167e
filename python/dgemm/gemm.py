#===- gemm.py - FP8 GEMMs over the dgemm C API ---------------------------===#
"""The normal FP8 GEMM with DeepGEMM's name and argument conventions, plus
the runtime's config / prepare / kernel-IR entry points.

Tensors are PyTorch tensors, any DLPack tensor (an object with
``__dlpack__`` and ``__dlpack_device__``: CuPy, JAX, ...; see
:mod:`dgemm.dlpack`), or any object with ``shape``, ``stride()``,
``data_ptr()`` and ``dtype`` (``str(dtype)`` a PyTorch dtype name such as
``torch.float8_e4m3fn``); memory must be on the GPU. Arguments are checked
here, before any GPU work, and violations raise :class:`DgemmArgumentError`
(a ``ValueError``) naming the operand and the rule; the C API checks them
again. PyTorch is imported only when a torch tensor needs it (the current
stream, a device guard, a layout copy). Scale tensors in another layout than
the kernels read are copied into it (as DeepGEMM does), which costs an extra
small kernel per call: with ``DGEMM_LOG=1`` the first such copy of each
kind is reported on stderr.

Host overhead: a call whose operands have the same data pointers, shapes,
strides, dtypes and devices as an earlier one reuses that call's validated
C structs (the warm path: those 25 attribute reads, one cache lookup,
PyTorch's current stream and device, and the C call through a ctypes
function without argtypes); any other value of any of them, also changed in
place on the same tensor objects, is validated in full again. The stream
is read on every call, never cached. Measured on the CPU with the stand-in
libcuda (bench/py_overhead.py, PyTorch 1.13 CPU tensors passed off as CUDA
ones; not GPU figures): a warm call 3.4 us against 1.3 us for the bare C
call (``bind_gemm_fp8_fp8_bf16_nt``), of which the attribute reads are
about 1.3 us; a full validation about 30 us.
"""
import ctypes

from . import _lib, dlpack, jit
from ._lib import DgemmArgumentError, Tensor
from .utils import ceil_div, get_col_major_tma_aligned_tensor, get_tma_aligned_size

_F8 = ("float8_e4m3fn",)


class _Op:
    """What the C API needs of one operand, read once from the tensor."""
    __slots__ = ("what", "obj", "dtype_name", "shape", "strides", "ptr")

    def __init__(self, obj, what):
        try:
            self.shape = tuple(int(s) for s in obj.shape)
            self.strides = tuple(int(s) for s in obj.stride())
            self.ptr = int(obj.data_ptr())
            dt = str(obj.dtype)
        except (AttributeError, TypeError):
            raise DgemmArgumentError(
                "%s must be a tensor (with shape, stride(), data_ptr() and dtype), got %s"
                % (what, type(obj).__name__)) from None
        self.what, self.obj = what, obj
        self.dtype_name = dt[6:] if dt.startswith("torch.") else dt
        # A stride along a dimension of size 1 never multiplies a nonzero
        # index: give it the contiguous value so layout checks ignore it.
        st, inner = list(self.strides), 1
        for i in range(len(self.shape) - 1, -1, -1):
            if self.shape[i] == 1:
                st[i] = inner
            inner *= max(self.shape[i], 1)
        self.strides = tuple(st)

    def tensor(self):
        return Tensor.make(self.ptr, _lib.DTYPES[self.dtype_name], self.shape, self.strides)


def _is_torch(t):
    return type(t).__module__.split(".")[0] == "torch"


def _fail(fn, msg, *args):
    raise DgemmArgumentError("%s: %s" % (fn, msg % args if args else msg))


def _dtype_text(name):
    """"torch.<name>" for dtype names, a DLPack description as it is."""
    return name if "(" in name else "torch." + name


def _want(fn, op, dtypes, rank):
    if op.dtype_name not in dtypes:
        _fail(fn, "%s must be %s, got %s", op.what,
              " or ".join("torch." + d for d in dtypes), _dtype_text(op.dtype_name))
    if len(op.shape) != rank:
        _fail(fn, "%s must be %d-D, got shape %s", op.what, rank, list(op.shape))


def _want_row_major(fn, op, esize):
    """K-major / row-major 2-D operand whose rows TMA can address: unit inner
    stride, row pitch >= row length and a multiple of 16 bytes."""
    rows, cols = op.shape
    s0, s1 = op.strides
    if s1 != 1 or s0 < cols or (s0 * esize) % 16 != 0:
        _fail(fn, "%s [%d, %d] must be row-major (strides (S, 1), S >= %d, S*%d bytes a "
              "multiple of 16; contiguous is (%d, 1)), got strides %s",
              op.what, rows, cols, cols, esize, cols, op.strides)


def _sfa_op(obj, what):
    """The A-scale operand, with the strides of size-1 dimensions set to
    values the MN-major rule accepts (they never address anything)."""
    op = _Op(obj, what)
    if len(op.shape) == 2:
        m, kb = op.shape
        s0, s1 = op.strides
        op.strides = (1 if m == 1 else s0,
                      get_tma_aligned_size(m, 4) if kb == 1 else s1)
    return op


def _sfa_is_tma_ready(op):
    """Strides (1, S), S >= M, S % 4 == 0: the MN-major, 16-byte padded A
    scale layout the C API takes (get_col_major_tma_aligned_tensor's)."""
    m = op.shape[0]
    s0, s1 = op.strides
    return m == 0 or (s0 == 1 and s1 >= m and s1 % 4 == 0)


def _nt_operands(fn, lhs, rhs, out, out_dtype, sfb_op):
    """The operands of an NT GEMM read from (A, sfa), (B, sfb), D: their
    ranks, dtypes (D's `out_dtype`), a common K and D [M, N]. `sfb_op`
    reads B's scales (_Op, or _sfa_op for MN-major ones). Returns (A, SA,
    B, SB, D, m, n, k, (sfa, sfb)): the scale objects for layout copies."""
    try:
        a, sfa = lhs
        b, sfb = rhs
    except (TypeError, ValueError):
        _fail(fn, "lhs and rhs must be (fp8 tensor, scale tensor) pairs")
    A, SA = _Op(a, "lhs[0] (A)"), _sfa_op(sfa, "lhs[1] (A scales)")
    B, SB = _Op(b, "rhs[0] (B)"), sfb_op(sfb, "rhs[1] (B scales)")
    D = _Op(out, "out (D)")
    _want(fn, A, _F8, 2)
    _want(fn, B, _F8, 2)
    _want(fn, SA, ("float32",), 2)
    _want(fn, SB, ("float32",), 2)
    _want(fn, D, (out_dtype,), 2)
    (m, k), (n, kb_) = A.shape, B.shape
    if k != kb_:
        _fail(fn, "K differs: A is [M, K] = %s but B is [N, K] = %s",
              list(A.shape), list(B.shape))
    if D.shape != (m, n):
        _fail(fn, "out must be [M, N] = [%d, %d], got %s", m, n, list(D.shape))
    return A, SA, B, SB, D, m, n, k, (sfa, sfb)


class _GemmArgs:
    """Validated operands of a normal GEMM and the C structs to pass."""

    def __init__(self, fn, lhs, rhs, out):
        A, SA, B, SB, D, m, n, k, (sfa, sfb) = _nt_operands(fn, lhs, rhs, out, "bfloat16",
                                                            _Op)
        if k <= 0 or k % 128 != 0:
            _fail(fn, "K = %d must be a positive multiple of 128", k)
        if n <= 0 or n % 8 != 0:
            _fail(fn, "N = %d must be a positive multiple of 8", n)
        kb = k // 128
        if SA.shape != (m, kb):
            _fail(fn, "A scales must be [M, K/128] = [%d, %d] (one per row per 128 "
                  "K-values), got %s", m, kb, list(SA.shape))
        if SB.shape != (ceil_div(n, 128), kb):
            _fail(fn, "B scales must be [ceil(N/128), K/128] = [%d, %d] (one per "
                  "128x128 block), got %s", ceil_div(n, 128), kb, list(SB.shape))
        _want_row_major(fn, A, 1)
        _want_row_major(fn, B, 1)
        _want_row_major(fn, D, 2)

        devs = [getattr(t.obj, "device", None) for t in (A, SA, B, SB, D)]
        for t in (A, SA, B, SB, D):
            if getattr(t.obj, "is_cuda", True) is False:
                _fail(fn, "%s is on %s; all operands must be CUDA tensors",
                      t.what, getattr(t.obj, "device", "the host"))
        if all(dv is not None for dv in devs) and len({str(dv) for dv in devs}) != 1:
            _fail(fn, "operands are on different devices: %s", [str(dv) for dv in devs])

        # Layout fix-ups DeepGEMM also does: copies, stream-ordered on the
        # current stream, kept alive by this object until the call returns.
        self.copied = False
        if not _sfa_is_tma_ready(SA):
            if not _is_torch(sfa):
                _fail(fn, "A scales must be MN-major with strides (1, S), S >= M, S %% 4 "
                      "== 0 (get_col_major_tma_aligned_tensor makes that layout; only "
                      "torch tensors are converted automatically), got strides %s",
                      SA.strides)
            jit.log_once("sfa-copy", "%s: A scales [%d, %d] with strides %s are copied "
                         "into the TMA-aligned MN-major layout (strides (1, %d)) on every "
                         "call; convert them once with get_col_major_tma_aligned_tensor "
                         "(logged once)" % (fn, m, kb, SA.strides, get_tma_aligned_size(m, 4)))
            SA = _sfa_op(get_col_major_tma_aligned_tensor(sfa), SA.what)
            self.copied = True
        if SB.strides != (kb, 1):
            if not _is_torch(sfb):
                _fail(fn, "B scales must be contiguous (strides (%d, 1)), got %s",
                      kb, SB.strides)
            jit.log_once("sfb-copy", "%s: B scales [%d, %d] with strides %s are copied "
                         "into a contiguous tensor on every call; pass them contiguous "
                         "(logged once)" % (fn, SB.shape[0], kb, SB.strides))
            SB = _Op(sfb.contiguous(), SB.what)
            self.copied = True
        for t in (A, SA, B, SB, D):
            if t.ptr % 16 != 0:
                _fail(fn, "%s data address 0x%x is not 16-byte aligned (TMA needs it)",
                      t.what, t.ptr)

        self.m, self.n, self.k = m, n, k
        self.ops = (A, SA, B, SB, D)  # keeps any copies alive until the call returns
        self.launch = _Launch(m, self.ops, out)


class _Launch:
    """What a launch needs once the operands are validated: M, the C
    structs, and the CUDA device index of a torch output (None otherwise).
    Holds no reference to the tensors, so it can be cached. ``duck`` is True
    when an operand is not a torch tensor: a cached launch of such operands
    reads their ``is_cuda`` again on a hit (for torch tensors the device in
    the cache key says it)."""
    __slots__ = ("m", "structs", "refs", "device", "duck", "bound")

    def __init__(self, m, ops, out):
        self.m = m
        self.structs = tuple(t.tensor() for t in ops)
        self.refs = tuple(ctypes.byref(t) for t in self.structs)
        self.duck = not all(_is_torch(t.obj) for t in ops)
        self.bound = None  # a _Bound once _bind made one
        self.device = None
        if _is_torch(out):
            self.device = out.device.index
            if _raw_stream is None:
                _load_torch_hooks()

    def stream(self, stream):
        """The CUstream (an int) to launch on: the caller's, else PyTorch's
        current stream of the output's device, else 0 (the legacy default
        stream)."""
        if stream is not None:
            return int(stream)
        if self.device is None:
            return 0
        return _raw_stream(self.device)


class _Bound:
    """A dgemm_bound_call handle (include/dgemm-c/Runtime.h), freed with the
    object."""
    __slots__ = ("handle", "free")

    def __init__(self, handle, free):
        self.handle = handle
        self.free = free

    def __del__(self):
        try:
            self.free(self.handle)
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


def _bind(launch, bind_name, args):
    """Binds a validated launch of a torch output that is being cached
    (``bind_name``, a dgemm_bind_* function, called with
    ``args`` and the handle's address, with the output's device current):
    a later hit launches it with one C call (dgemm_bound_call_launch), no
    operand structs, no checks, no kernel lookup. A bind that fails leaves
    the launch unbound: the plain call then raises the library's error."""
    dev = launch.device
    if dev is None or not launch.m:
        return
    lib = _lib.load()
    bind_fn = getattr(lib, bind_name)
    handle = ctypes.c_void_p()
    if _current_device() == dev:
        status = bind_fn(*args, ctypes.byref(handle))
    else:
        import torch
        with torch.cuda.device(dev):
            status = bind_fn(*args, ctypes.byref(handle))
    if status == _lib.OK and handle.value:
        launch.bound = _Bound(handle, lib.dgemm_bound_call_free)


# PyTorch's current-stream and current-device queries, looked up once, when
# the first launch of a torch output is built (torch._C's raw queries cost
# about a microsecond less than torch.cuda.current_stream(d).cuda_stream).
_raw_stream = None
_current_device = None


def _load_torch_hooks():
    global _raw_stream, _current_device
    import torch
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    cur = getattr(torch._C, "_cuda_getDevice", None) or torch.cuda.current_device
    _current_device = cur
    _raw_stream = raw if raw is not None else \
        (lambda d: torch.cuda.current_stream(d).cuda_stream)


# The C call's stream argument per CUstream handle: None for 0 (NULL), else
# a c_void_p made once and never changed (so threads share it). The launch
# functions are called without argtypes (_lib.Fast): an int would be passed
# as a C int.
_stream_args = {0: None}


def _stream_arg(handle):
    """The stream argument for a CUstream handle (an int)."""
    try:
        return _stream_args[handle]
    except KeyError:
        pass
    arg = ctypes.c_void_p(handle)  # raises for what is no pointer value
    if len(_stream_args) >= 256:
        _stream_args.clear()
        _stream_args[0] = None
    _stream_args[handle] = arg
    return arg


def _fast():
    """_lib.Fast of the loaded library (loads it)."""
    return _lib._fast or (_lib.load() and _lib._fast)


def _go(launch, c_fn, fn, stream, args):
    """Calls ``c_fn(*args, stream)`` (a _lib.Fast function) for a validated
    launch, or its bound call when it has one: the stream is the caller's,
    else PyTorch's current stream of the output's device (0 for non-torch
    outputs); the output's device is made current for the plain call when it
    is not (a bound call launches only in its own context: elsewhere it is
    stale, and the plain call is made)."""
    dev = launch.device
    if stream is not None:
        s = _stream_arg(int(stream))
    elif dev is None:
        s = None
    else:
        raw = _raw_stream(dev)
        s = _stream_args.get(raw) if raw else None
        if s is None and raw:
            s = _stream_arg(raw)
    b = launch.bound
    if b is not None:
        status = (_lib._fast or _fast()).bound_call_launch(b.handle, s)
        if status != _lib.ERROR_STALE_BINDING:
            if status:
                _lib.check(status, fn, _lib._lib)
            return
    if dev is None or _current_device() == dev:
        status = c_fn(*args, s)
    else:
        import torch
        with torch.cuda.device(dev):
            status = c_fn(*args, s)
    if status:
        _lib.check(status, fn, _lib._lib)


def _all_cuda(*objs):
    """No operand says it is off the GPU (the full path's is_cuda rule), for
    cache hits of non-torch operands."""
    for o in objs:
        if getattr(o, "is_cuda", True) is False:
            return False
    return True


# Validated launches of gemm_fp8_fp8_bf16_nt keyed by what goes into the C
# structs and the device rule: data pointer, shape, strides, dtype and
# device of each operand (the key gemm_fp8_fp8_bf16_nt builds). A repeated
# call with the same tensors skips the Python checks; any other value of any
# of these misses and is validated in full. Launches that needed a layout copy are not cached (the
# copy's address changes). Cleared when full.
_CACHE_MAX = 1024
_launch_cache = {}
# In front of it, the latest (key, launch) per output data pointer.
_recent = {}


def _clear_caches():
    """Forgets every cached launch (tests)."""
    from . import grouped
    for c in (_launch_cache, _recent, _bias_cache, grouped._contiguous_cache,
              grouped._masked_cache, grouped._offsets_cache):
        c.clear()


def _cache_put(cache, key, launch):
    if len(cache) >= _CACHE_MAX:
        cache.clear()
    cache[key] = launch


def _readable(lhs, rhs, out, stream):
    """The operands with DLPack objects made readable (dlpack.as_operand);
    anything else unchanged (the checks say what is wrong with it)."""
    def pair(p, names):
        if isinstance(p, (tuple, list)) and len(p) == 2:
            return (dlpack.as_operand(p[0], stream, names[0]),
                    dlpack.as_operand(p[1], stream, names[1]))
        return p
    return (pair(lhs, ("lhs[0] (A)", "lhs[1] (A scales)")),
            pair(rhs, ("rhs[0] (B)", "rhs[1] (B scales)")),
            dlpack.as_operand(out, stream, "out (D)"))


def gemm_fp8_fp8_bf16_nt(lhs, rhs, out, *, bias=None, stream=None) -> None:
    """D = A · Bᵀ with FP8 inputs, 1x128 A scaling, 128x128 B scaling and a
    BF16 output (DeepGEMM's ``gemm_fp8_fp8_bf16_nt``; "NT": both operands
    K-major)::

        D[i, j] = Σ_k A[i, k]·sfa[i, k // 128] · B[j, k]·sfb[j // 128, k // 128]

    Arguments:
        lhs: ``(A, sfa)``. ``A`` [M, K] ``torch.float8_e4m3fn``, row-major
            (contiguous, or rows padded to a multiple of 16 bytes). ``sfa``
            [M, K/128] ``torch.float32``: one scale per row per 128 K-values.
            The kernel reads it MN-major with strides ``(1, S)``, ``S >= M``,
            ``S % 4 == 0`` (``get_col_major_tma_aligned_tensor(sfa)``); any
            other layout of a torch tensor is copied into that one on each call
            (a small extra kernel: convert once ahead for speed).
        rhs: ``(B, sfb)``. ``B`` [N, K] ``torch.float8_e4m3fn``, row-major
            (i.e. the [K, N] operand transposed). ``sfb`` [⌈N/128⌉, K/128]
            ``torch.float32``, one scale per 128x128 block, contiguous (a torch
            tensor in another layout is copied).
        out: ``D`` [M, N] ``torch.bfloat16``, row-major; overwritten.
        bias: optional ``torch.float32`` [N], contiguous, 8-byte aligned:
            epilogue fusion, ``D = A · Bᵀ + bias`` in one kernel (bias[j] is
            added to column j of every row in f32, before the bf16
            conversion; ``dgemm_gemm_fp8_bf16_nt_bias``). Not in DeepGEMM.
        stream: a ``CUstream`` handle (int) to run on; default: PyTorch's
            current stream of ``out``'s device (0, the legacy default stream,
            for non-torch tensors).

    Every tensor may also be a DLPack tensor of the same dtype and layout
    (``__dlpack__``/``__dlpack_device__``: CuPy, JAX, ...): zero-copy, through
    ``torch.from_dlpack`` when PyTorch is imported, else read directly
    (:mod:`dgemm.dlpack`).

    Rules: K a positive multiple of 128; N a positive multiple of 8; M >= 0
    (M = 0 does nothing); row strides of A, B (bytes) and D (2 bytes per
    element) multiples of 16 bytes; every base address 16-byte aligned (TMA);
    all tensors on one CUDA device. Violations raise
    :class:`DgemmArgumentError` before any GPU work.

    The call is asynchronous (stream-ordered) like a PyTorch op. The first
    call with a new kernel config compiles that kernel (see :func:`prepare`);
    later calls reuse it from the in-memory and disk caches
    (``DGEMM_CACHE_DIR``, default ``~/.cache/dgemm``).
    Runtime errors raise :class:`DgemmError` with the library's message.
    """
    if bias is not None:
        return _gemm_bias(lhs, rhs, bias, out, stream)
    # Warm path, written out inline (each torch attribute read costs 30-80
    # ns, a Python call about as much): the cache key, and on a hit the
    # stream, the device check and the C call.
    key = None
    try:
        a, sfa = lhs
        b, sfb = rhs
        d_ptr = out.data_ptr()
        key = (a.data_ptr(), a.shape, a.stride(), a.dtype, a.device,
               sfa.data_ptr(), sfa.shape, sfa.stride(), sfa.dtype, sfa.device,
               b.data_ptr(), b.shape, b.stride(), b.dtype, b.device,
               sfb.data_ptr(), sfb.shape, sfb.stride(), sfb.dtype, sfb.device,
               d_ptr, out.shape, out.stride(), out.dtype, out.device)
        # The latest launch into this output first: comparing the key costs
        # half of hashing it.
        hit = _recent.get(d_ptr)
        if hit is not None and hit[0] == key:
            launch = hit[1]
        else:
            launch = _launch_cache[key]
            if len(_recent) >= _CACHE_MAX:
                _recent.clear()
            _recent[d_ptr] = (key, launch)
    except Exception:  # noqa: BLE001 - a miss, or not tensors: the full path
        return _gemm_full("gemm_fp8_fp8_bf16_nt", lhs, rhs, out, stream, key)
    if launch.duck and not _all_cuda(a, sfa, b, sfb, out):
        return _gemm_full("gemm_fp8_fp8_bf16_nt", lhs, rhs, out, stream, key)
    if not launch.m:
        return
    dev = launch.device
    if stream is not None:
        s = _stream_arg(int(stream))
    elif dev is None:
        s = None
    else:
        s = _raw_stream(dev)
        s = (_stream_args.get(s) or _stream_arg(s)) if s else None
    b = launch.bound
    if b is not None:  # one C call; stale (another context, a new SM limit): the plain one
        status = (_lib._fast or _fast()).bound_call_launch(b.handle, s)
        if status != _lib.ERROR_STALE_BINDING:
            if status:
                _lib.check(status, "gemm_fp8_fp8_bf16_nt", _lib._lib)
            return
    if dev is None or _current_device() == dev:
        status = (_lib._fast or _fast()).gemm_fp8_bf16_nt(*launch.refs, s)
    else:
        import torch
        with torch.cuda.device(dev):
            status = (_lib._fast or _fast()).gemm_fp8_bf16_nt(*launch.refs, s)
    if status:
        _lib.check(status, "gemm_fp8_fp8_bf16_nt", _lib._lib)


def _gemm_full(fn, lhs, rhs, out, stream, key):
    """The full path: DLPack operands read, every rule checked, the launch
    cached under ``key`` (unless a scale needed a copy or key is None)."""
    lhs, rhs, out = _readable(lhs, rhs, out, stream)
    if key is not None:
        try:
            hash(key)
        except TypeError:  # an unhashable stand-in attribute: not cached
            key = None
    args = _GemmArgs(fn, lhs, rhs, out)
    launch = args.launch
    if key is not None and not args.copied:
        _cache_put(_launch_cache, key, launch)
        _bind(launch, "dgemm_bind_gemm_fp8_bf16_nt", launch.refs)
    if launch.m:
        _go(launch, _fast().gemm_fp8_bf16_nt, fn, stream, launch.refs)
    del args  # layout copies live until the launch is queued


# Validated launches of the GEMM with a fused bias, keyed as _launch_cache
# plus the bias's data pointer, shape, strides, dtype and device.
_bias_cache = {}


def _operand_key(lhs, rhs, out, extra):
    """A cache key of a call with a fifth operand ``extra`` (the bias, the
    m-grouped calls' m_indices, offsets or masked_m): data pointer, shape,
    strides, dtype and device of A, its scales, B, its scales, ``extra`` and
    D; None when they are not tensors or an attribute is unhashable."""
    try:
        a, sfa = lhs
        b, sfb = rhs
        key = (a.data_ptr(), a.shape, a.stride(), a.dtype, a.device,
               sfa.data_ptr(), sfa.shape, sfa.stride(), sfa.dtype, sfa.device,
               b.data_ptr(), b.shape, b.stride(), b.dtype, b.device,
               sfb.data_ptr(), sfb.shape, sfb.stride(), sfb.dtype, sfb.device,
               extra.data_ptr(), extra.shape, extra.stride(), extra.dtype, extra.device,
               out.data_ptr(), out.shape, out.stride(), out.dtype, out.device)
        hash(key)
        return key
    except Exception:  # noqa: BLE001 - not tensors, or an unhashable attribute
        return None


def _gemm_bias(lhs, rhs, bias, out, stream):
    """gemm_fp8_fp8_bf16_nt with a bias fused into the epilogue. Warm path
    as the plain call's: a cached launch (bound where it could be) of the
    same operands goes out with one C call; otherwise the full path."""
    key = _operand_key(lhs, rhs, out, bias)
    launch = _bias_cache.get(key) if key is not None else None
    if launch is None or (launch.duck and not _all_cuda(*lhs, *rhs, bias, out)):
        return _gemm_bias_full(lhs, rhs, bias, out, stream, key)
    if launch.m:
        _go(launch, (_lib._fast or _fast()).gemm_fp8_bf16_nt_bias, "gemm_fp8_fp8_bf16_nt",
            stream, launch.refs)


def _bias_launch(fn, args, bias, out):
    """The launch of a validated call (``args``, a _GemmArgs) with ``bias``
    fused: the bias checked (f32 [N], unit stride, 8-byte aligned, on the
    operands' device) and put between B's scales and D."""
    BIAS = _Op(bias, "bias")
    _want(fn, BIAS, ("float32",), 1)
    if BIAS.shape != (args.n,):
        _fail(fn, "bias must be [N] = [%d] (one per output column), got %s", args.n,
              list(BIAS.shape))
    if BIAS.strides != (1,):
        _fail(fn, "bias must be contiguous (stride 1), got strides %s", BIAS.strides)
    if getattr(bias, "is_cuda", True) is False:
        _fail(fn, "bias is on %s; all operands must be CUDA tensors",
              getattr(bias, "device", "the host"))
    dev_bias, dev_out = getattr(bias, "device", None), getattr(out, "device", None)
    if dev_bias is not None and dev_out is not None and str(dev_bias) != str(dev_out):
        _fail(fn, "bias is on %s but out (D) on %s: all operands must be on one device",
              dev_bias, dev_out)
    if BIAS.ptr % 8 != 0:
        _fail(fn, "bias data address 0x%x is not 8-byte aligned (the kernel reads column "
              "pairs)", BIAS.ptr)
    A, SA, B, SB, D = args.ops
    return _Launch(args.m, (A, SA, B, SB, BIAS, D), out)


def _gemm_bias_full(lhs, rhs, bias, out, stream, key):
    """The bias call's full path: the operands checked as by the plain
    call's, plus the bias (_bias_launch); the launch cached and bound under
    ``key`` unless a scale needed a copy (or key is None)."""
    fn = "gemm_fp8_fp8_bf16_nt"
    lhs, rhs, out = _readable(lhs, rhs, out, stream)
    bias = dlpack.as_operand(bias, stream, "bias")
    args = _GemmArgs(fn, lhs, rhs, out)
    launch = _bias_launch(fn, args, bias, out)
    if key is not None and not args.copied:
        _cache_put(_bias_cache, key, launch)
        _bind(launch, "dgemm_bind_gemm_fp8_bf16_nt_bias", launch.refs)
    if launch.m:
        _go(launch, _fast().gemm_fp8_bf16_nt_bias, fn, stream, launch.refs)
    del args  # layout copies live until the launch is queued


def bind_gemm_fp8_fp8_bf16_nt(lhs, rhs, out, *, bias=None, stream=None, plain=False):
    """Validates the operands once (shapes, dtypes and alignment as
    :func:`gemm_fp8_fp8_bf16_nt`, ``bias`` included) and returns a
    no-argument callable that launches the same GEMM again with no Python
    checks and no stream or device lookup (the stream is fixed at bind
    time). By default the callable launches a C bound call
    (``dgemm_bind_gemm_fp8_bf16_nt``, or ``..._bias`` with a bias: the
    kernel, its grid and its encoded parameters made once; launching is one
    driver call, in the context current at bind time); ``plain=True`` makes
    it call ``dgemm_gemm_fp8_bf16_nt`` (``..._bias``) each time instead
    (validation, kernel lookup and parameters redone in C: how the two C
    paths compare). The caller's current device must be the operands'. A
    scale tensor that needs a layout copy is copied once, here: later
    changes to the original are not seen, so bind TMA-aligned scales. The
    callable keeps the tensors alive; their contents may change between
    calls. For tight loops and for measuring the C API's own host
    overhead."""
    fn = "gemm_fp8_fp8_bf16_nt"
    lhs, rhs, out = _readable(lhs, rhs, out, stream)
    args = _GemmArgs(fn, lhs, rhs, out)
    launch = args.launch
    if bias is not None:
        bias = dlpack.as_operand(bias, stream, "bias")
        launch = _bias_launch(fn, args, bias, out)
    if args.m == 0:
        return lambda: None
    lib = _lib.load()
    s = _stream_arg(launch.stream(stream))
    check = _lib.check
    refs = launch.refs
    if plain and bias is None:
        r0, r1, r2, r3, r4 = refs  # locals: no argument tuple built per call
        c_fn = _fast().gemm_fp8_bf16_nt

        def call():
            status = c_fn(r0, r1, r2, r3, r4, s)
            if status:
                check(status, fn, lib)
    elif plain:
        r0, r1, r2, r3, r4, r5 = refs
        c_fn = _fast().gemm_fp8_bf16_nt_bias

        def call():
            status = c_fn(r0, r1, r2, r3, r4, r5, s)
            if status:
                check(status, fn, lib)
    else:
        bind_name = ("dgemm_bind_gemm_fp8_bf16_nt_bias" if bias is not None
                     else "dgemm_bind_gemm_fp8_bf16_nt")
        handle = ctypes.c_void_p()
        check(getattr(lib, bind_name)(*refs, ctypes.byref(handle)), bind_name, lib)
        bound = _Bound(handle, lib.dgemm_bound_call_free)
        c_fn = _fast().bound_call_launch

        def call():
            status = c_fn(handle, s)
            if status:
                check(status, fn, lib)

        call.bound = bound  # freed with the callable
    call.args = (args, bias)  # keeps the operands (and copies) alive
    return call


def launch_kernel_ir(kernel_ir, lhs, rhs, out, *, stream=None) -> None:
    """Compiles kernel-level IR text (what ``dgemm-opt --dgemm-select-config
    --dgemm-lower-to-kernel`` prints, possibly edited by hand) with the rest
    of the pipeline and launches it on a normal GEMM's operands, which follow
    the rules of :func:`gemm_fp8_fp8_bf16_nt` (A [M, K] e4m3 with sfa
    [M, K/128] f32, B [N, K] e4m3 with sfb [⌈N/128⌉, K/128] f32, D [M, N]
    bf16; K % 128 == 0, N % 8 == 0, 16-byte aligned rows and addresses); the
    kernel's N and K must be those its IR was lowered for. Cached by the
    text's hash."""
    fn = "launch_kernel_ir"
    if not isinstance(kernel_ir, str):
        _fail(fn, "kernel_ir must be the kernel IR text (str), got %s", type(kernel_ir).__name__)
    lhs, rhs, out = _readable(lhs, rhs, out, stream)
    args = _GemmArgs(fn, lhs, rhs, out)
    if args.m == 0:
        return
    _go(args.launch, _fast().launch_kernel_ir, fn, stream,
        (kernel_ir.encode(),) + args.launch.refs)


def _check_mnk(fn, m, n, k):
    for name, v in (("m", m), ("n", n), ("k", k)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            _fail(fn, "%s must be a non-negative int, got %r", name, v)


def config(m: int, n: int, k: int) -> str:
    """The kernel config the runtime chooses for a normal GEMM of this shape
    (M >= 0 rows of A and D, N a positive multiple of 8, K a positive
    multiple of 128), as text (``#dgemm.config<block_m = ..., block_n = ...,
    ...>``), for the current device (or, without one, an H100/H200: sm_90a,
    132 SMs) within the :func:`set_num_sms` limit. Needs no GPU."""
    fn = "config"
    _check_mnk(fn, m, n, k)
    lib = _lib.load()
    size = 1024
    while True:
        buf = ctypes.create_string_buffer(size)
        status = lib.dgemm_gemm_config(m, n, k, buf, size)
        # A buffer too small is INVALID_ARGUMENT with buf[0] = 0 (or, from
        # older libraries, silently truncated text): ask again with more room.
        small = (status == _lib.ERROR_INVALID_ARGUMENT and "bytes" in _lib.last_error(lib)) \
            or (status == _lib.OK and len(buf.value) >= size - 1)
        if small and size < 1 << 20:
            size *= 16
            continue
        _lib.check(status, "dgemm_gemm_config", lib)
        return buf.value.decode("utf-8", "replace")


def prepare(m: int, n: int, k: int):
    """Compiles (or fetches from the caches) the normal GEMM kernel for this
    shape (M, N, K as in :func:`config`) without launching it; on a GPU also
    loads it into the current context. Returns ``(compile_ms, info)``: the
    time the runtime spent compiling (0.0 on a cache hit) and its
    ``"config=...; kernel=...; cache=memory|disk|compiled; ...;
    load_ms=...; registers=..."`` text."""
    fn = "prepare"
    _check_mnk(fn, m, n, k)
    lib = _lib.load()
    ms = ctypes.c_double(0.0)
    info = ctypes.create_string_buffer(4096)
    _lib.check(lib.dgemm_gemm_prepare(m, n, k, ctypes.byref(ms), info, len(info)),
               "dgemm_gemm_prepare", lib)
    return ms.value, info.value.decode("utf-8", "replace")


def compile_to_ptx(dgemm_ir: str) -> str:
    """Compiles dgemm IR text (a module of dgemm ops, whose operand types
    state the shapes, dtypes and scale layouts; the dialect's verifier checks
    them) to sm_90a PTX with the dgemm-to-ptx pipeline. Needs no GPU. Not
    cached."""
    if not isinstance(dgemm_ir, str):
        raise DgemmArgumentError("compile_to_ptx: dgemm_ir must be the dgemm IR text (str), "
                                 "got %s" % type(dgemm_ir).__name__)
    lib = _lib.load()
    ptr = ctypes.c_void_p()
    _lib.check(lib.dgemm_compile_to_ptx(dgemm_ir.encode(), ctypes.byref(ptr)),
               "dgemm_compile_to_ptx", lib)
    try:
        return ctypes.string_at(ptr.value).decode("utf-8", "replace") if ptr.value else ""
    finally:
        if ptr.value:
            lib.dgemm_free(ptr)


__all__ = ["gemm_fp8_fp8_bf16_nt", "bind_gemm_fp8_fp8_bf16_nt", "launch_kernel_ir",
           "config", "prepare", "compile_to_ptx"]
