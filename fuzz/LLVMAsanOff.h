//===- LLVMAsanOff.h - no LLVM ASan annotations in the fuzzer ---*- C++ -*-===//
//
// Force-included (-include) in every source of dgemm-fuzz-ir. Under ASan,
// llvm/Support/Compiler.h turns on LLVM's own annotations: BumpPtrAllocator,
// Recycler and friends poison the memory they hand out until it is
// allocated. The target's sources are instrumented but Debian's MLIR/LLVM
// libraries are not, so an inline allocator function instantiated here could
// poison a slab that an uninstrumented copy in libMLIRIR then writes to
// without unpoisoning it (a false use-after-poison in Dialect::addType). With
// the annotations off on both sides, ASan still checks every access of the
// instrumented code against real heap bounds.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_FUZZ_LLVMASANOFF_H
#define DGEMM_FUZZ_LLVMASANOFF_H

#include "llvm/Support/Compiler.h"

#undef LLVM_ADDRESS_SANITIZER_BUILD
#define LLVM_ADDRESS_SANITIZER_BUILD 0
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))

#endif // DGEMM_FUZZ_LLVMASANOFF_H
