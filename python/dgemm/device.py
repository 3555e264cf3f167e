#===- device.py - SM budget and layout constants -------------------------===#
"""DeepGEMM's device helpers: the number of SMs the kernels' persistent grids
may use, and the row alignment of the contiguous grouped layout."""
import ctypes

from . import _lib


def set_num_sms(num_sms: int) -> None:
    """Limits the SMs the persistent grid of the kernels chosen from now on
    may use (0: all of the device), e.g. to leave SMs to communication
    kernels. Process-wide."""
    if not isinstance(num_sms, int) or isinstance(num_sms, bool) or num_sms < 0:
        raise _lib.DgemmArgumentError("set_num_sms: num_sms must be a non-negative int, got %r"
                                      % (num_sms,))
    lib = _lib.load()
    _lib.check(lib.dgemm_set_num_sms(num_sms), "dgemm_set_num_sms", lib)
    # Bound calls keep the grid of the old limit (they would launch the
    # plain call from now on): forget them with the cached launches.
    from .gemm import _clear_caches
    _clear_caches()


def get_num_sms() -> int:
    """The limit set with :func:`set_num_sms`, else the device's SM count
    (132 on an H100/H200; also without a GPU)."""
    lib = _lib.load()
    n = ctypes.c_int64()
    _lib.check(lib.dgemm_get_num_sms(ctypes.byref(n)), "dgemm_get_num_sms", lib)
    return n.value


def get_m_alignment_for_contiguous_layout() -> int:
    """Rows of each group of the contiguous grouped layout are padded to a
    multiple of this (the block M of its kernels): 128."""
    return 128
