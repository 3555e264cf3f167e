//===- TensorMaps.cpp - TMA descriptors from the launch contract ----------===//
//
// Global dimension j of the map is shape[dims[j]]; its stride (j >= 1) is
// strides[dims[j]] * element size. The stride of a dimension of size 1 never
// addresses memory, so it is replaced by the dense value rounded up to 16
// bytes (cuTensorMapEncodeTiled would reject an arbitrary one). Element
// strides are all 1, no interleave, L2 promotion 256B, out-of-bounds fill
// none (zeros), as docs/launch-contract.md specifies.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/TensorMaps.h"

#include "dgemm/Runtime/Validation.h"

using namespace dgemm::runtime;
using namespace dgemm::cuda;

namespace {

constexpr uint64_t kMaxGlobalDim = uint64_t(1) << 32;
constexpr uint64_t kMaxStrideBytes = uint64_t(1) << 40;

std::string str(int64_t v) { return std::to_string(v); }

/// The operand dtypes a contract dtype may describe.
bool dtypeMatches(const std::string &contractDtype, int dtype) {
  if (contractDtype == "u8")
    return dtype == DGEMM_DTYPE_F8E4M3 || dtype == DGEMM_DTYPE_F8E5M2;
  if (contractDtype == "bf16")
    return dtype == DGEMM_DTYPE_BF16;
  if (contractDtype == "f32")
    return dtype == DGEMM_DTYPE_F32;
  return false;
}

CUtensorMapDataType mapDataType(const std::string &contractDtype) {
  if (contractDtype == "bf16")
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  if (contractDtype == "f32")
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

CUtensorMapSwizzle mapSwizzle(int64_t bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

} // namespace

Status dgemm::runtime::deriveTensorMapArgs(const ContractParam &p,
                                           const dgemm_tensor &t,
                                           TensorMapArgs &out) {
  // Built only for an error message (not on the launch path).
  auto who = [&p] { return "operand " + str(p.operand) + " (tensor map)"; };
  if (p.kind != ParamKind::TensorMap)
    return Status::internal(who() + ": the contract entry is not a tensor map");
  if (!p.checked) {
    std::string contractError = checkContractParam(p);
    if (!contractError.empty())
      return Status::internal(who() + ": bad contract entry (" + contractError);
  }
  if (!dtypeMatches(p.dtype, rawDtype(t)))
    return Status::invalidArgument(who() + " is " + dtypeName(rawDtype(t)) +
                                   ", but the kernel reads it as " + p.dtype);
  if (t.rank < 1 || t.rank > 4)
    return Status::invalidArgument(who() + " has rank " + str(t.rank) +
                                   ", not in [1, 4]");
  int64_t bytes = contractDtypeBytes(p.dtype);
  uint32_t rank = static_cast<uint32_t>(p.dims.size());

  TensorMapArgs args;
  args.dataType = mapDataType(p.dtype);
  args.rank = rank;
  args.globalAddress = t.data;
  args.swizzle = mapSwizzle(p.swizzle);
  for (uint32_t j = 0; j < rank; ++j) {
    int64_t dim = p.dims[j];
    if (dim >= t.rank)
      return Status::invalidArgument(who() + ": the kernel maps dimension " +
                                     str(dim) + " of a rank-" + str(t.rank) +
                                     " tensor");
    int64_t size = t.shape[dim];
    if (size < 1 || static_cast<uint64_t>(size) > kMaxGlobalDim)
      return Status::invalidArgument(who() + ": dimension " + str(dim) +
                                     " has size " + str(size) +
                                     ", not in [1, 2^32]");
    args.globalDim[j] = static_cast<uint64_t>(size);
    args.boxDim[j] = static_cast<uint32_t>(p.box[j]);
    args.elementStrides[j] = 1;
    int64_t stride = t.strides[dim];
    if (j == 0) {
      if (size > 1 && stride != 1)
        return Status::invalidArgument(
            who() + ": the innermost mapped dimension " + str(dim) +
            " must be contiguous (stride 1), got stride " + str(stride));
      continue;
    }
    uint64_t strideBytes;
    if (size == 1) {
      // Never used to address memory: the dense stride, 16-byte aligned.
      uint64_t prev = j == 1
                          ? args.globalDim[0] * bytes
                          : args.globalStrides[j - 2] * args.globalDim[j - 1];
      strideBytes = (prev + 15) / 16 * 16;
    } else {
      if (stride < 1)
        return Status::invalidArgument(who() + ": dimension " + str(dim) +
                                       " has stride " + str(stride));
      strideBytes = static_cast<uint64_t>(stride) * bytes;
      if (strideBytes % 16 != 0)
        return Status::invalidArgument(
            who() + ": dimension " + str(dim) + " has a stride of " +
            str(static_cast<int64_t>(strideBytes)) +
            " bytes; TMA needs a multiple of 16 bytes");
    }
    if (strideBytes >= kMaxStrideBytes)
      return Status::invalidArgument(who() + ": dimension " + str(dim) +
                                     " has a stride of 2^40 bytes or more");
    args.globalStrides[j - 1] = strideBytes;
  }
  if (!t.data)
    return Status::invalidArgument(who() + " has a NULL data pointer");
  if (reinterpret_cast<uintptr_t>(t.data) % 16 != 0)
    return Status::invalidArgument(who() +
                                   ": the data address is not 16-byte aligned");
  out = args;
  return Status::success();
}

Status dgemm::runtime::encodeTensorMap(const CudaDriver &driver,
                                       const TensorMapArgs &a,
                                       CUtensorMap &out) {
  return driver.check(
      driver.cuTensorMapEncodeTiled(&out, a.dataType, a.rank, a.globalAddress,
                                    a.globalDim, a.globalStrides, a.boxDim,
                                    a.elementStrides, a.interleave, a.swizzle,
                                    a.l2Promotion, a.oobFill),
      "cuTensorMapEncodeTiled");
}

bool dgemm::runtime::operator==(const TensorMapArgs &x,
                                const TensorMapArgs &y) {
  if (x.dataType != y.dataType || x.rank != y.rank ||
      x.globalAddress != y.globalAddress || x.interleave != y.interleave ||
      x.swizzle != y.swizzle || x.l2Promotion != y.l2Promotion ||
      x.oobFill != y.oobFill)
    return false;
  for (uint32_t j = 0; j < x.rank && j < 5; ++j)
    if (x.globalDim[j] != y.globalDim[j] || x.boxDim[j] != y.boxDim[j] ||
        x.elementStrides[j] != y.elementStrides[j] ||
        (j + 1 < x.rank && x.globalStrides[j] != y.globalStrides[j]))
      return false;
  return true;
}

Status dgemm::runtime::encodeTensorMapCached(const CudaDriver &driver,
                                             const TensorMapArgs &args,
                                             CUtensorMap &out) {
  struct Entry {
    const CudaDriver *driver = nullptr;
    TensorMapArgs args;
    CUtensorMap map;
  };
  constexpr size_t kEntries = 16;
  thread_local Entry entries[kEntries];
  thread_local size_t next = 0;
  for (const Entry &e : entries)
    if (e.driver == &driver && e.args == args) {
      out = e.map;
      return Status::success();
    }
  Status s = encodeTensorMap(driver, args, out);
  if (!s.ok())
    return s;
  Entry &e = entries[next];
  next = (next + 1) % kEntries;
  e.driver = &driver;
  e.args = args;
  e.map = out;
  return Status::success();
}
