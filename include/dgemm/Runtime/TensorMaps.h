//===- TensorMaps.h - TMA descriptors from the launch contract --*- C++ -*-===//
//
// A contract `tensor_map` entry and the operand it names give every argument
// of cuTensorMapEncodeTiled: global dims (the operand's shape at the entry's
// dims, innermost first), global strides in bytes, box, swizzle, element
// type. deriveTensorMapArgs computes and checks them without the driver
// (16-byte aligned base, strides multiples of 16 bytes below 2^40, dims in
// [1, 2^32], a contiguous innermost dim, dtypes that agree);
// encodeTensorMap is the driver call.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_TENSORMAPS_H
#define DGEMM_RUNTIME_TENSORMAPS_H

#include "dgemm/Runtime/CudaDriver.h"
#include "dgemm/Runtime/LaunchContract.h"

namespace dgemm::runtime {

/// The arguments of one cuTensorMapEncodeTiled call.
struct TensorMapArgs {
  cuda::CUtensorMapDataType dataType = cuda::CU_TENSOR_MAP_DATA_TYPE_UINT8;
  uint32_t rank = 0;
  void *globalAddress = nullptr;
  uint64_t globalDim[5] = {};
  /// Bytes; entry j is the stride of dimension j + 1.
  uint64_t globalStrides[4] = {};
  uint32_t boxDim[5] = {};
  uint32_t elementStrides[5] = {};
  cuda::CUtensorMapInterleave interleave = cuda::CU_TENSOR_MAP_INTERLEAVE_NONE;
  cuda::CUtensorMapSwizzle swizzle = cuda::CU_TENSOR_MAP_SWIZZLE_NONE;
  cuda::CUtensorMapL2promotion l2Promotion =
      cuda::CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  cuda::CUtensorMapFloatOOBfill oobFill =
      cuda::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

/// Derives the encode arguments of contract entry `param` (a tensor map)
/// for `tensor`. INVALID_ARGUMENT when the tensor cannot be described by
/// such a map (the message names the operand and the rule).
Status deriveTensorMapArgs(const ContractParam &param,
                           const dgemm_tensor &tensor, TensorMapArgs &out);

/// Encodes `args` into `out` with cuTensorMapEncodeTiled.
Status encodeTensorMap(const CudaDriver &driver, const TensorMapArgs &args,
                       cuda::CUtensorMap &out);

/// The same, remembering the last 16 encodings of the calling thread (and
/// driver): a map depends on nothing but its arguments, and a serving loop
/// passes the same tensors again and again.
Status encodeTensorMapCached(const CudaDriver &driver,
                             const TensorMapArgs &args,
                             cuda::CUtensorMap &out);

bool operator==(const TensorMapArgs &x, const TensorMapArgs &y);

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_TENSORMAPS_H
