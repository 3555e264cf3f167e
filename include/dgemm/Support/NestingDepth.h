//===- NestingDepth.h - bound the parser's recursion ------------*- C++ -*-===//
//
// MLIR's parser recurses once per nesting level of brackets, so text nested
// deep enough overflows the stack (found by the fuzzer, docs/fuzzing.md).
// Everything in dgemm that parses text it was given (dgemm-opt, the
// runtime's kernel-IR and dgemm-IR entry points) first measures the nesting
// and rejects more than kMaxNesting levels with an error.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_SUPPORT_NESTINGDEPTH_H
#define DGEMM_SUPPORT_NESTINGDEPTH_H

#include "llvm/ADT/StringRef.h"

#include <algorithm>

namespace dgemm {

/// Deepest bracket nesting dgemm parses: far beyond any real IR, far below
/// what overflows an 8 MiB stack (about 7000 levels were seen to).
constexpr int kMaxNesting = 1000;

/// How deep `([{<` nest in `text` (string literals are not skipped: this only
/// bounds the parser's recursion, it need not be exact).
inline int maxNesting(llvm::StringRef text) {
  int depth = 0, deepest = 0;
  for (char c : text) {
    if (c == '(' || c == '[' || c == '{' || c == '<')
      deepest = std::max(deepest, ++depth);
    else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0)
      --depth;
  }
  return deepest;
}

} // namespace dgemm

#endif // DGEMM_SUPPORT_NESTINGDEPTH_H
