//===- FuzzStages.h - how far each fuzz input got ---------------*- C++ -*-===//
//
// Counts, per fuzz target, the executions that reached each stage (parsed,
// verified, config selected, lowered, PTX, ...) and prints the counts with
// their fraction of all executions when the process exits (libFuzzer exits
// through exit() at the end of -max_total_time / -runs), as one line:
//
//   dgemm-fuzz-stages: dgemm-fuzz-ir executions=N parsed=P (12.3%) ...
//
// scripts/fuzz-run.sh reads that line; docs/fuzzing.md reports it.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_FUZZ_FUZZSTAGES_H
#define DGEMM_FUZZ_FUZZSTAGES_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace dgemm::fuzz {

/// Stage counters of one target; stage 0 is "executions". Names are static
/// strings; at most kMaxStages stages.
class FuzzStages {
public:
  static constexpr int kMaxStages = 12;

  /// The target's name and its stages' names after "executions"; registers
  /// the printer with atexit (call once, from LLVMFuzzerInitialize).
  static void init(const char *target, const char *const *names, int count) {
    FuzzStages &s = get();
    s.target_ = target;
    s.count_ = count + 1 > kMaxStages ? kMaxStages : count + 1;
    s.names_[0] = "executions";
    for (int i = 1; i < s.count_; ++i)
      s.names_[i] = names[i - 1];
    std::atexit([] { get().print(); });
  }

  /// Input reached `stage` (1-based, in the order given to init); stage 0
  /// counts executions.
  static void reach(int stage) {
    FuzzStages &s = get();
    if (stage >= 0 && stage < s.count_)
      ++s.counts_[stage];
  }

private:
  static FuzzStages &get() {
    static FuzzStages s;
    return s;
  }

  void print() const {
    if (!target_)
      return;
    double all = counts_[0] ? static_cast<double>(counts_[0]) : 1.0;
    std::fprintf(stderr, "dgemm-fuzz-stages: %s", target_);
    for (int i = 0; i < count_; ++i) {
      std::fprintf(stderr, " %s=%llu", names_[i],
                   static_cast<unsigned long long>(counts_[i]));
      if (i > 0)
        std::fprintf(stderr, " (%.2f%%)", 100.0 * counts_[i] / all);
    }
    std::fprintf(stderr, "\n");
  }

  const char *target_ = nullptr;
  const char *names_[kMaxStages] = {};
  uint64_t counts_[kMaxStages] = {};
  int count_ = 0;
};

} // namespace dgemm::fuzz

#endif // DGEMM_FUZZ_FUZZSTAGES_H
