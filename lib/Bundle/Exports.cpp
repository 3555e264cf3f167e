//===- Exports.cpp - libdgemm's exported surface ---------------------------===//
//
// libdgemm is linked from the static dgemm libraries (whole archive) and
// MLIR/LLVM; libdgemm.map exports only the dgemm_* C functions declared in
// include/dgemm-c/. This file is the library's one own source so that CMake
// has something to compile for it.
//
//===----------------------------------------------------------------------===//
#include "dgemm-c/Tools.h"
