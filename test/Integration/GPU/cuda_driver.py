"""A minimal ctypes view of the CUDA driver for the GPU step tests: load PTX,
encode tensor maps, launch. Device memory and the context come from torch
(its tensors and its primary context); this file only launches kernels that
dgemm-opt compiled from the step kernel IR in steps/.
"""
import ctypes

CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_FUNC_ATTRIBUTE_NUM_REGS = 4
DTYPE = {"u8": 0, "f32": 7, "bf16": 9}
SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
L2_256B = 3


class CudaError(RuntimeError):
    pass


class Driver:
    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")

    def check(self, res, what):
        if res != 0:
            msg = ctypes.c_char_p()
            self.lib.cuGetErrorString(res, ctypes.byref(msg))
            raise CudaError("%s failed: %d %s" % (what, res, msg.value.decode() if msg.value else ""))

    def load(self, ptx, name):
        """CUfunction of kernel `name` in PTX text `ptx` (JIT by the driver)."""
        mod = ctypes.c_void_p()
        log = ctypes.create_string_buffer(8192)
        # CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
        opts = (ctypes.c_int * 2)(5, 6)
        vals = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(8192))
        res = self.lib.cuModuleLoadDataEx(ctypes.byref(mod), ctypes.c_char_p(ptx.encode()), 2, opts, vals)
        if res != 0:
            raise CudaError("cuModuleLoadDataEx failed (%d): %s" % (res, log.value.decode(errors="replace")))
        fn = ctypes.c_void_p()
        self.check(self.lib.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), "cuModuleGetFunction")
        return fn

    def num_regs(self, fn):
        v = ctypes.c_int()
        self.check(self.lib.cuFuncGetAttribute(ctypes.byref(v), CU_FUNC_ATTRIBUTE_NUM_REGS, fn), "cuFuncGetAttribute")
        return v.value

    def tensor_map(self, ptr, dtype, dims, strides_bytes, box, swizzle):
        """A CUtensorMap (128 bytes) over `ptr`; dims innermost first, strides
        (bytes) for dims[1:]."""
        tmap = (ctypes.c_uint8 * 128)()
        rank = len(dims)
        gdim = (ctypes.c_uint64 * rank)(*dims)
        gstr = (ctypes.c_uint64 * max(1, rank - 1))(*strides_bytes)
        bdim = (ctypes.c_uint32 * rank)(*box)
        estr = (ctypes.c_uint32 * rank)(*([1] * rank))
        self.check(self.lib.cuTensorMapEncodeTiled(
            ctypes.byref(tmap), DTYPE[dtype], rank, ctypes.c_void_p(ptr), gdim, gstr, bdim, estr,
            0, SWIZZLE[swizzle], L2_256B, 0), "cuTensorMapEncodeTiled")
        return tmap

    def launch(self, fn, grid, block, smem, params, stream=0):
        """params: list of ctypes objects (tensor maps by value, c_int32, ...)."""
        if smem > 48 * 1024:
            self.check(self.lib.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem),
                       "cuFuncSetAttribute")
        ptrs = (ctypes.c_void_p * len(params))(*[ctypes.cast(ctypes.byref(p), ctypes.c_void_p) for p in params])
        self.check(self.lib.cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, smem, ctypes.c_void_p(stream), ptrs, None),
                   "cuLaunchKernel")
