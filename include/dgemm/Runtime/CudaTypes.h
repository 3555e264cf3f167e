//===- CudaTypes.h - The CUDA driver types dgemm uses -----------*- C++ -*-===//
//
// The few CUDA driver API types, enumerators and structs the runtime needs,
// declared here so that dgemm builds without the CUDA toolkit: the driver is
// loaded with dlopen at run time (CudaDriver.h). Values and layouts are those
// of CUDA 13's cuda.h (checked against /usr/local/cuda/include/cuda.h). They
// live in namespace dgemm::cuda; do not include cuda.h in the same file.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_CUDATYPES_H
#define DGEMM_RUNTIME_CUDATYPES_H

#include <cstdint>

namespace dgemm::cuda {

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUdeviceptr = unsigned long long;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
constexpr CUresult CUDA_ERROR_INSUFFICIENT_DRIVER = 35;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;

enum CUdevice_attribute : int {
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

enum CUfunction_attribute : int {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

enum CUjit_option : int {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_LOG_VERBOSE = 12,
};

enum CUtensorMapDataType : int {
  CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7,
  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9,
};

enum CUtensorMapInterleave : int {
  CU_TENSOR_MAP_INTERLEAVE_NONE = 0,
};

enum CUtensorMapSwizzle : int {
  CU_TENSOR_MAP_SWIZZLE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_32B = 1,
  CU_TENSOR_MAP_SWIZZLE_64B = 2,
  CU_TENSOR_MAP_SWIZZLE_128B = 3,
};

enum CUtensorMapL2promotion : int {
  CU_TENSOR_MAP_L2_PROMOTION_NONE = 0,
  CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3,
};

enum CUtensorMapFloatOOBfill : int {
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
};

/// The opaque 128-byte TMA descriptor (CU_TENSOR_MAP_NUM_QWORDS = 16),
/// aligned as CUDA 13 declares it.
struct alignas(128) CUtensorMap {
  uint64_t opaque[16];
};
static_assert(sizeof(CUtensorMap) == 128, "CUtensorMap is 128 bytes");

/// cuThreadExchangeStreamCaptureMode's modes.
enum CUstreamCaptureMode : int {
  CU_STREAM_CAPTURE_MODE_GLOBAL = 0,
  CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
  CU_STREAM_CAPTURE_MODE_RELAXED = 2,
};

enum CUlaunchAttributeID : int {
  CU_LAUNCH_ATTRIBUTE_IGNORE = 0,
  CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
};

/// CUlaunchAttributeValue: a 64-byte union; dgemm only sets clusterDim.
union CUlaunchAttributeValue {
  char pad[64];
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } clusterDim;
};

struct CUlaunchAttribute {
  CUlaunchAttributeID id;
  char pad[8 - sizeof(CUlaunchAttributeID)];
  CUlaunchAttributeValue value;
};
static_assert(sizeof(CUlaunchAttribute) == 72, "CUlaunchAttribute layout");

struct CUlaunchConfig {
  unsigned int gridDimX;
  unsigned int gridDimY;
  unsigned int gridDimZ;
  unsigned int blockDimX;
  unsigned int blockDimY;
  unsigned int blockDimZ;
  unsigned int sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned int numAttrs;
};

} // namespace dgemm::cuda

#endif // DGEMM_RUNTIME_CUDATYPES_H
