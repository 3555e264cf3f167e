//===- TestHelpers.h - Contracts and tensors for runtime tests --*- C++ -*-===//
//
// Builders shared by the host-side runtime tests: launch contract entries
// (tensor maps, pointers) and, from TensorTestHelpers.h, the tensors passed
// to the runtime. Uses DGEMMRuntimeCore's C++ types, so only tests linking
// that library include it.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_UNITTESTS_RUNTIME_TESTHELPERS_H
#define DGEMM_UNITTESTS_RUNTIME_TESTHELPERS_H

#include "TensorTestHelpers.h"

#include "dgemm/Runtime/LaunchContract.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dgemm::test {

/// A tensor_map entry of a launch contract.
inline runtime::ContractParam tensorMap(int64_t operand,
                                        std::vector<int64_t> dims,
                                        std::vector<int64_t> box,
                                        int64_t swizzle, std::string dtype) {
  runtime::ContractParam p;
  p.kind = runtime::ParamKind::TensorMap;
  p.operand = operand;
  p.dims = std::move(dims);
  p.box = std::move(box);
  p.swizzle = swizzle;
  p.dtype = std::move(dtype);
  return p;
}

/// A ptr entry of a launch contract.
inline runtime::ContractParam pointer(int64_t operand) {
  runtime::ContractParam p;
  p.kind = runtime::ParamKind::Pointer;
  p.operand = operand;
  return p;
}

} // namespace dgemm::test

#endif // DGEMM_UNITTESTS_RUNTIME_TESTHELPERS_H
