//===- LaunchContractAttr.h - The contract from MLIR ------------*- C++ -*-===//
//
// Reads the `dgemm.launch` dictionary the lowering attaches to a kernel
// (docs/launch-contract.md) into a LaunchContract. The only MLIR-dependent
// part of the contract; it lives in the DGEMMRuntime library with the
// compiler. Malformed attributes give INVALID_ARGUMENT naming the field,
// never an assertion.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_LAUNCHCONTRACTATTR_H
#define DGEMM_RUNTIME_LAUNCHCONTRACTATTR_H

#include "dgemm/Runtime/LaunchContract.h"

namespace mlir {
class DictionaryAttr;
} // namespace mlir

namespace dgemm::runtime {

/// The name of the attribute on the kernel.
constexpr const char *kLaunchAttrName = "dgemm.launch";

/// Reads `attr` (the `dgemm.launch` value) of the kernel symbol
/// `kernelName` into `out` and checks it. A string entry `kernel` in the
/// dictionary, if present, names the kernel instead (for an attribute copied
/// away from the kernel, e.g. onto a gpu.binary).
Status contractFromAttr(mlir::DictionaryAttr attr,
                        const std::string &kernelName, LaunchContract &out);

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_LAUNCHCONTRACTATTR_H
