//===- BadInputRow.h - One row of docs/bad-inputs.md, run in a child -*- C++ -*-===//
//
// A row is an entry point, a kind of bad input, the input itself and the
// status and message the caller must get. expectRow runs the call in a
// forked child (fresh process state: the driver, the environment and the
// caches are read once per process) with the row's environment, and fails
// the test on a crash (signal), a hang (no answer within the time limit), a
// different status or message, or a kernel launched by a call that failed.
// Messages are exact; "..." in the expected message matches any text.
// scripts/gen_bad_inputs.py reads the expectRow(...) calls of the test
// sources into the table (the first five arguments, literals only).
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_UNITTESTS_BADINPUT_BADINPUTROW_H
#define DGEMM_UNITTESTS_BADINPUT_BADINPUTROW_H

#include "dgemm-c/Runtime.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace dgemm::test {

/// Environment variables set in the child before the call.
using Env = std::vector<std::pair<std::string, std::string>>;

/// What the child reported.
struct Outcome {
  bool answered = false; ///< false: it crashed or hung (see `how`)
  std::string how;       ///< "exit 0", "signal 11", "timeout after 120 s"
  int status = -1;
  std::string message;   ///< dgemm_last_error() after the call
  int launches = 0;      ///< kernels the stand-in driver launched
  std::string note;      ///< what the call chose to report (info text, ...)
};

/// The call: returns the status, may fill `note`.
using Call = std::function<dgemm_status(std::string &note)>;

/// Runs `call` in a forked child with `env` set (on top of the test's base
/// environment: the stand-in driver and a private cache directory).
Outcome runIsolated(const Env &env, const Call &call, int timeoutSec = 120);

/// True when `text` matches `pattern`, where "..." matches any text.
bool messageMatches(const std::string &pattern, const std::string &text);

/// Runs the row and checks it (GoogleTest expectations); returns the
/// outcome for further checks.
Outcome expectRow(const char *entry, const char *category, const char *input,
                  dgemm_status status, const char *message, const Env &env,
                  const Call &call);

/// Paths the CMake build passes in.
std::string standInDriver();            ///< the stand-in libcuda
std::string standInDriverNoTensorMaps(); ///< it, without cuTensorMapEncodeTiled
std::string testDir();                  ///< a fresh directory for this run

} // namespace dgemm::test

#endif // DGEMM_UNITTESTS_BADINPUT_BADINPUTROW_H
