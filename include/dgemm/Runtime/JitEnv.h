//===- JitEnv.h - The JIT's environment controls and its stderr log -*- C++ -*-===//
//
// The environment variables that steer the JIT, read once per process (at
// the first dgemm call that needs them; set them before):
//
//   DGEMM_DISABLE_CACHE=1   no disk cache: entries are neither read nor
//                           written (kernels are still kept in memory, so a
//                           process compiles each kernel once)
//   DGEMM_PRINT_CONFIGS=1   one line per distinct kernel when it is first
//                           compiled or loaded: shape, config, kernel name
//   DGEMM_DUMP_IR=<dir>     every stage's IR and the PTX of each compiled
//                           kernel, as files in <dir> (IRDump.h)
//   DGEMM_LOG=<level>       0 off; 1 cache misses, disk hits, compiles,
//                           module loads, with times; 2 also every memory
//                           hit (one line per call)
//
// Booleans take 1/0, true/false, yes/no, on/off (any case) or an integer; a
// value not understood is a warning (printed once), never an error. Messages
// go to stderr as "dgemm: ..." lines, each written with one write() so the
// lines of concurrent threads never interleave.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_JITENV_H
#define DGEMM_RUNTIME_JITENV_H

#include <functional>
#include <string>
#include <vector>

namespace dgemm::runtime {

struct JitSettings {
  bool disableCache = false; // DGEMM_DISABLE_CACHE
  bool printConfigs = false; // DGEMM_PRINT_CONFIGS
  std::string dumpIRDir;     // DGEMM_DUMP_IR ("" = no dump)
  int logLevel = 0;          // DGEMM_LOG, 0..2
  /// One message per variable whose value was not understood.
  std::vector<std::string> warnings;

  /// Reads the variables through `lookup` (getenv's contract: null when
  /// unset).
  using Lookup = std::function<const char *(const char *name)>;
  static JitSettings parse(const Lookup &lookup);

  /// The process's settings: parsed from the environment on first use (its
  /// warnings printed then), or what setForTests installed.
  static const JitSettings &get();

  /// Replaces get()'s answer until called again with null (tests). The
  /// object must outlive its use.
  static void setForTests(const JitSettings *settings);

  /// "disable_cache=0; print_configs=1; dump_ir=/x; log=2".
  std::string describe() const;
};

/// The highest level of DGEMM_LOG a message is printed at.
constexpr int kLogMax = 2;

/// True when DGEMM_LOG is at least `level` (cheap: test before building a
/// message).
inline bool jitLogEnabled(int level) {
  return JitSettings::get().logLevel >= level;
}

/// Writes "dgemm: <text>\n" to stderr (or the test sink) in one write.
void jitMessage(const std::string &text);

/// jitMessage(text) when DGEMM_LOG >= level.
void jitLog(int level, const std::string &text);

/// Milliseconds as text with one decimal ("57.3 ms").
std::string formatMs(double ms);

/// Sends jitMessage's lines to `sink` instead of stderr until called again
/// with an empty function (tests).
void setJitMessageSinkForTests(std::function<void(const std::string &)> sink);

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_JITENV_H
