//===- JitEnv.cpp - The JIT's environment controls and its stderr log -----===//
//
// Parsing of DGEMM_DISABLE_CACHE, DGEMM_PRINT_CONFIGS, DGEMM_DUMP_IR and
// DGEMM_LOG (once per process), and the one routine that writes dgemm's
// messages to stderr.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/JitEnv.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <mutex>

using namespace dgemm::runtime;

namespace {

std::string lower(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// An integer spelled in full ("2", "-1"); false otherwise.
bool parseInt(const std::string &s, long long &out) {
  if (s.empty())
    return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

/// -1: not understood; 0: false; 1: true. Unset or empty is false.
int parseBool(const char *value, long long *asInt = nullptr) {
  if (!value)
    return 0;
  std::string v = lower(value);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back())))
    v.pop_back();
  if (v.empty() || v == "false" || v == "no" || v == "off")
    return 0;
  if (v == "true" || v == "yes" || v == "on")
    return 1;
  long long n = 0;
  if (parseInt(v, n)) {
    if (asInt)
      *asInt = n;
    return n != 0;
  }
  return -1;
}

std::atomic<const JitSettings *> testSettings{nullptr};

std::mutex &sinkMutex() {
  static std::mutex m;
  return m;
}
std::function<void(const std::string &)> &sink() {
  static auto *s = new std::function<void(const std::string &)>();
  return *s;
}
std::atomic<bool> haveSink{false};

} // namespace

JitSettings JitSettings::parse(const Lookup &lookup) {
  JitSettings s;
  auto flag = [&](const char *name, bool &out) {
    const char *v = lookup(name);
    int b = parseBool(v);
    if (b < 0)
      s.warnings.push_back(std::string(name) + "=" + v +
                           " is not understood (use 1 or 0); ignored");
    out = b == 1;
  };
  flag("DGEMM_DISABLE_CACHE", s.disableCache);
  flag("DGEMM_PRINT_CONFIGS", s.printConfigs);
  if (const char *dir = lookup("DGEMM_DUMP_IR"))
    s.dumpIRDir = dir;
  if (const char *v = lookup("DGEMM_LOG")) {
    long long n = 1;
    int b = parseBool(v, &n);
    if (b < 0) {
      s.warnings.push_back(std::string("DGEMM_LOG=") + v +
                           " is not understood (use 0, 1 or 2); using 1");
      s.logLevel = 1;
    } else if (n < 0) {
      s.warnings.push_back(std::string("DGEMM_LOG=") + v +
                           " is negative (use 0, 1 or 2); using 0");
      s.logLevel = 0;
    } else {
      s.logLevel = b == 0 ? 0 : static_cast<int>(std::min<long long>(n, kLogMax));
    }
  }
  return s;
}

const JitSettings &JitSettings::get() {
  if (const JitSettings *t = testSettings.load(std::memory_order_acquire))
    return *t;
  static const JitSettings *fromEnv = [] {
    auto *s = new JitSettings(parse([](const char *n) { return std::getenv(n); }));
    for (const std::string &w : s->warnings)
      jitMessage("warning: " + w);
    if (s->logLevel >= 1)
      jitMessage("JIT settings: " + s->describe());
    return s;
  }();
  return *fromEnv;
}

void JitSettings::setForTests(const JitSettings *settings) {
  testSettings.store(settings, std::memory_order_release);
}

std::string JitSettings::describe() const {
  return std::string("disable_cache=") + (disableCache ? "1" : "0") +
         "; print_configs=" + (printConfigs ? "1" : "0") +
         "; dump_ir=" + dumpIRDir + "; log=" + std::to_string(logLevel);
}

void dgemm::runtime::jitMessage(const std::string &text) {
  if (haveSink.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(sinkMutex());
    if (sink()) {
      sink()(text);
      return;
    }
  }
  std::string line = "dgemm: " + text + "\n";
  size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::write(2, line.data() + done, line.size() - done);
    if (n <= 0)
      break; // stderr closed or full: messages are best effort
    done += static_cast<size_t>(n);
  }
}

void dgemm::runtime::jitLog(int level, const std::string &text) {
  if (jitLogEnabled(level))
    jitMessage(text);
}

std::string dgemm::runtime::formatMs(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f ms", ms);
  return buf;
}

void dgemm::runtime::setJitMessageSinkForTests(
    std::function<void(const std::string &)> fn) {
  std::lock_guard<std::mutex> lock(sinkMutex());
  sink() = std::move(fn);
  haveSink.store(static_cast<bool>(sink()), std::memory_order_release);
}
