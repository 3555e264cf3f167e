//===- LaunchContractFields.h - The contract's integer fields ---*- C++ -*-===//
//
// The integer fields of a launch contract by the names both of its forms
// use: the disk cache's text (parseContract) and the kernel's dgemm.launch
// attribute (contractFromAttr). Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_LIB_RUNTIME_LAUNCHCONTRACTFIELDS_H
#define DGEMM_LIB_RUNTIME_LAUNCHCONTRACTFIELDS_H

#include "dgemm/Runtime/LaunchContract.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace dgemm::runtime::detail {

struct ContractIntField {
  const char *name;
  int64_t *value;
};

/// How many of contractIntFields' entries every contract states; the rest
/// (n, k, layout, groups, tile_ctas, max_m) are optional in the attribute (the
/// text form always has them).
constexpr size_t kRequiredContractIntFields = 6;

/// The integer fields of `c` in the text form's order: block, cluster,
/// dynamic_smem, max_ctas, block_m, block_n, then n, k, layout, groups,
/// tile_ctas, max_m.
inline std::array<ContractIntField, 12> contractIntFields(LaunchContract &c) {
  return {{{"block", &c.block},
           {"cluster", &c.cluster},
           {"dynamic_smem", &c.dynamicSmem},
           {"max_ctas", &c.maxCtas},
           {"block_m", &c.blockM},
           {"block_n", &c.blockN},
           {"n", &c.n},
           {"k", &c.k},
           {"layout", &c.layout},
           {"groups", &c.groups},
           {"tile_ctas", &c.tileCtas},
           {"max_m", &c.maxM}}};
}

} // namespace dgemm::runtime::detail

#endif // DGEMM_LIB_RUNTIME_LAUNCHCONTRACTFIELDS_H
