//===- GemmModule.h - The dgemm IR the runtime compiles ---------*- C++ -*-===//
//
// For a GEMM kernel key, the module the compiler lowers: one function with
// one `dgemm.gemm` of dynamic M and static N, K, carrying the key's config
// (`config = #dgemm.config<...>`) and target. Written as text and parsed by
// the compiler, so that it is exactly what a user would feed dgemm-opt.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_GEMMMODULE_H
#define DGEMM_RUNTIME_GEMMMODULE_H

#include "dgemm/Runtime/KernelKey.h"

#include <string>

namespace dgemm::runtime {

/// The dgemm IR module of a bf16 GEMM kernel key (normal or m-grouped).
std::string gemmModuleText(const GemmKernelKey &key);

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_GEMMMODULE_H
