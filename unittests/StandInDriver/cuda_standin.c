/*===- cuda_standin.c - A stand-in libcuda for tests without a GPU --------===*\
|*                                                                            *|
|* Implements the CUDA driver entry points dgemm resolves (CudaDriver.cpp),  *|
|* with the signatures of cuda.h, over no hardware: one sm_90 device with    *|
|* 132 SMs, modules that load any text, launches that run nothing and are   *|
|* only counted. Chosen with DGEMM_CUDA_DRIVER=<path of this library>.       *|
|*                                                                            *|
|* DGEMM_STANDIN_FAULTS (read at every call, a comma-separated list) makes   *|
|* it fail as a real driver does:                                            *|
|*   init-fails     cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)          *|
|*   no-device      cuInit: CUDA_ERROR_NO_DEVICE (100)                       *|
|*   zero-devices   cuInit succeeds, cuDeviceGetCount reports 0              *|
|*   sm80           the device is compute capability 8.0 (an A100)           *|
|*   retain-fails   cuDevicePrimaryCtxRetain: CUDA_ERROR_DEVICE_UNAVAILABLE  *|
|*   oom-on-load    cuModuleLoadDataEx: CUDA_ERROR_OUT_OF_MEMORY (2), with   *|
|*                  a line in the JIT error log                              *|
|*   launch-fails   cuLaunchKernelEx: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES     *|
|*   alloc-fails    cuMemAllocAsync: CUDA_ERROR_OUT_OF_MEMORY (2)            *|
|* Built twice: with -DSTANDIN_NO_TENSOR_MAPS it lacks cuTensorMapEncodeTiled *|
|* (a driver older than CUDA 12). cuTensorMapEncodeTiled checks the rules   *|
|* the real one does (address, sizes, strides, box), so the runtime's own   *|
|* validation gaps show up as CUDA errors. The dgemm_standin_* functions    *|
|* are for tests (dlopen the same path; the handle is shared).              *|
\*===----------------------------------------------------------------------===*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;

/* What tests read back. */
static int launches;
static unsigned last_grid_x, last_cluster_x;
static int modules_loaded;
static int tensor_maps_encoded;
static int workspaces_live, workspaces_allocated;
static unsigned long long last_workspace_bytes;
static __thread CUcontext current;

/* Distinct non-null handles. */
static char primary_ctx_storage, module_storage, function_storage;

static int fault(const char *name) {
  const char *list = getenv("DGEMM_STANDIN_FAULTS");
  size_t n = strlen(name);
  while (list && *list) {
    const char *end = strchr(list, ',');
    size_t len = end ? (size_t)(end - list) : strlen(list);
    if (len == n && strncmp(list, name, n) == 0)
      return 1;
    list = end ? end + 1 : NULL;
  }
  return 0;
}

int dgemm_standin_launches(void) { return launches; }
unsigned dgemm_standin_last_grid_x(void) { return last_grid_x; }
int dgemm_standin_workspaces_live(void) { return workspaces_live; }
int dgemm_standin_workspaces_allocated(void) { return workspaces_allocated; }
unsigned long long dgemm_standin_last_workspace_bytes(void) {
  return last_workspace_bytes;
}
unsigned dgemm_standin_last_cluster_x(void) { return last_cluster_x; }
int dgemm_standin_modules_loaded(void) { return modules_loaded; }
int dgemm_standin_tensor_maps_encoded(void) { return tensor_maps_encoded; }
void *dgemm_standin_current_context(void) { return current; }

CUresult cuInit(unsigned flags) {
  if (flags != 0)
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  if (fault("init-fails"))
    return 803;
  if (fault("no-device"))
    return 100;
  return 0;
}

CUresult cuDriverGetVersion(int *v) {
  if (!v)
    return 1;
  *v = 12080;
  return 0;
}

static const char *error_name(CUresult r) {
  switch (r) {
  case 0:
    return "CUDA_SUCCESS";
  case 1:
    return "CUDA_ERROR_INVALID_VALUE";
  case 2:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case 46:
    return "CUDA_ERROR_DEVICE_UNAVAILABLE";
  case 100:
    return "CUDA_ERROR_NO_DEVICE";
  case 701:
    return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  case 803:
    return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
  default:
    return NULL;
  }
}

CUresult cuGetErrorName(CUresult r, const char **out) {
  const char *n = error_name(r);
  if (!out || !n)
    return 1;
  *out = n;
  return 0;
}

CUresult cuGetErrorString(CUresult r, const char **out) {
  if (!out || !error_name(r))
    return 1;
  *out = "(stand-in driver)";
  return 0;
}

CUresult cuDeviceGetCount(int *count) {
  if (!count)
    return 1;
  *count = fault("zero-devices") ? 0 : 1;
  return 0;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  if (!d)
    return 1;
  if (ordinal != 0 || fault("zero-devices"))
    return 101; /* CUDA_ERROR_INVALID_DEVICE */
  *d = 0;
  return 0;
}

CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d) {
  if (!v || d != 0)
    return 1;
  switch (attr) {
  case 16: /* MULTIPROCESSOR_COUNT */
    *v = 132;
    return 0;
  case 75: /* COMPUTE_CAPABILITY_MAJOR */
    *v = fault("sm80") ? 8 : 9;
    return 0;
  case 76: /* COMPUTE_CAPABILITY_MINOR */
    *v = 0;
    return 0;
  case 97: /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
    *v = fault("sm80") ? 166912 : 232448;
    return 0;
  default:
    return 1;
  }
}

CUresult cuCtxGetCurrent(CUcontext *c) {
  if (!c)
    return 1;
  *c = current;
  return 0;
}

CUresult cuCtxSetCurrent(CUcontext c) {
  current = c;
  return 0;
}

CUresult cuCtxGetDevice(CUdevice *d) {
  if (!d)
    return 1;
  if (!current)
    return 201; /* CUDA_ERROR_INVALID_CONTEXT */
  *d = 0;
  return 0;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
  if (!c || d != 0)
    return 1;
  if (fault("retain-fails"))
    return 46;
  *c = (CUcontext)&primary_ctx_storage;
  return 0;
}

/* The JIT options dgemm passes: error log buffer (5) and its size (6). */
CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n,
                            const int *options, void **values) {
  if (!m || !image)
    return 1;
  if (!current)
    return 201;
  if (fault("oom-on-load")) {
    char *log = NULL;
    size_t size = 0;
    for (unsigned i = 0; i < n; ++i) {
      if (options[i] == 5)
        log = (char *)values[i];
      if (options[i] == 6)
        size = (size_t)(uintptr_t)values[i];
    }
    if (log && size > 0)
      snprintf(log, size, "stand-in: out of memory loading the module");
    return 2;
  }
  ++modules_loaded;
  *m = (CUmodule)&module_storage;
  return 0;
}

CUresult cuModuleUnload(CUmodule m) { return m ? 0 : 1; }

CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  if (!f || !m || !name)
    return 1;
  *f = (CUfunction)&function_storage;
  return 0;
}

CUresult cuFuncSetAttribute(CUfunction f, int attr, int value) {
  if (!f)
    return 1;
  /* MAX_DYNAMIC_SHARED_SIZE_BYTES beyond the opt-in limit. */
  if (attr == 8 && (value < 0 || value > 232448 - 1024))
    return 1;
  return 0;
}

CUresult cuFuncGetAttribute(int *v, int attr, CUfunction f) {
  if (!v || !f)
    return 1;
  switch (attr) {
  case 0: /* MAX_THREADS_PER_BLOCK */
    *v = 1024;
    return 0;
  case 3: /* LOCAL_SIZE_BYTES */
    *v = 0;
    return 0;
  case 4: /* NUM_REGS */
    *v = 128;
    return 0;
  default:
    return 1;
  }
}

/* CUlaunchConfig and CUlaunchAttribute as cuda.h lays them out. */
typedef struct {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
} LaunchAttribute;

typedef struct {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  void *hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
} LaunchConfig;

static unsigned cluster_of(const LaunchConfig *c) {
  for (unsigned i = 0; i < c->numAttrs; ++i)
    if (c->attrs[i].id == 4)
      return c->attrs[i].value.clusterDim.x;
  return 1;
}

CUresult cuOccupancyMaxActiveClusters(int *n, CUfunction f,
                                      const LaunchConfig *c) {
  if (!n || !f || !c)
    return 1;
  *n = (int)(132 / cluster_of(c));
  return 0;
}

CUresult cuLaunchKernelEx(const LaunchConfig *c, CUfunction f, void **params,
                          void **extra) {
  (void)extra;
  if (!c || !f || !params)
    return 1;
  if (!current)
    return 201;
  if (c->gridDimX == 0 || c->blockDimX == 0 || c->blockDimX > 1024)
    return 1;
  if (fault("launch-fails"))
    return 701;
  ++launches;
  last_grid_x = c->gridDimX;
  last_cluster_x = cluster_of(c);
  return 0;
}

#ifndef STANDIN_NO_TENSOR_MAPS
/* The rules cuda.h documents for cuTensorMapEncodeTiled. */
CUresult cuTensorMapEncodeTiled(void *map, int dtype, uint32_t rank,
                                void *address, const uint64_t *dims,
                                const uint64_t *strides, const uint32_t *box,
                                const uint32_t *elementStrides, int interleave,
                                int swizzle, int l2, int oob) {
  (void)dtype, (void)interleave, (void)swizzle, (void)l2, (void)oob;
  if (!map || ((uintptr_t)map % 64) != 0 || rank < 1 || rank > 5 || !dims ||
      !box || !elementStrides)
    return 1;
  if (!address || ((uintptr_t)address % 16) != 0)
    return 1;
  for (uint32_t i = 0; i < rank; ++i) {
    if (dims[i] == 0 || dims[i] > ((uint64_t)1 << 32))
      return 1;
    if (box[i] == 0 || box[i] > 256)
      return 1;
    if (elementStrides[i] == 0 || elementStrides[i] > 8)
      return 1;
  }
  for (uint32_t i = 0; i + 1 < rank; ++i)
    if (!strides || strides[i] % 16 != 0 || strides[i] >= ((uint64_t)1 << 40))
      return 1;
  memset(map, 0, 128);
  ++tensor_maps_encoded;
  return 0;
}
#endif

/* Stream-ordered memory: counted, never touched (nothing runs). */
CUresult cuMemAllocAsync(unsigned long long *ptr, size_t bytes, void *stream) {
  (void)stream;
  if (!ptr || bytes == 0)
    return 1;
  if (!current)
    return 201;
  if (fault("alloc-fails"))
    return 2;
  *ptr = 0x7f0000000000ull + 0x100000ull * (unsigned long long)(++workspaces_allocated);
  ++workspaces_live;
  last_workspace_bytes = bytes;
  return 0;
}

CUresult cuMemFreeAsync(unsigned long long ptr, void *stream) {
  (void)stream;
  if (!ptr || workspaces_live < 1)
    return 1;
  --workspaces_live;
  return 0;
}

CUresult cuThreadExchangeStreamCaptureMode(int *mode) {
  if (!mode)
    return 1;
  return 0;
}
