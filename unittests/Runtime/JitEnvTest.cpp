//===- JitEnvTest.cpp - The JIT's environment controls and its log --------===//
//
// Parsing of DGEMM_DISABLE_CACHE, DGEMM_PRINT_CONFIGS, DGEMM_DUMP_IR and
// DGEMM_LOG (every spelling, bad values as warnings), the test override,
// and the message sink.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/JitEnv.h"

#include "gtest/gtest.h"

#include <map>

using namespace dgemm::runtime;

namespace {

JitSettings parseWith(const std::map<std::string, std::string> &env) {
  return JitSettings::parse([&](const char *name) -> const char * {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(JitEnv, DefaultsWhenUnset) {
  JitSettings s = parseWith({});
  EXPECT_FALSE(s.disableCache);
  EXPECT_FALSE(s.printConfigs);
  EXPECT_EQ(s.dumpIRDir, "");
  EXPECT_EQ(s.logLevel, 0);
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_EQ(s.describe(),
            "disable_cache=0; print_configs=0; dump_ir=; log=0");
}

TEST(JitEnv, BooleanSpellings) {
  for (const char *on : {"1", "true", "TRUE", "yes", "On", "2", "1 "}) {
    JitSettings s = parseWith({{"DGEMM_DISABLE_CACHE", on},
                               {"DGEMM_PRINT_CONFIGS", on}});
    EXPECT_TRUE(s.disableCache) << on;
    EXPECT_TRUE(s.printConfigs) << on;
    EXPECT_TRUE(s.warnings.empty()) << on;
  }
  for (const char *off : {"", "0", "false", "No", "OFF", "00"}) {
    JitSettings s = parseWith({{"DGEMM_DISABLE_CACHE", off},
                               {"DGEMM_PRINT_CONFIGS", off}});
    EXPECT_FALSE(s.disableCache) << off;
    EXPECT_FALSE(s.printConfigs) << off;
    EXPECT_TRUE(s.warnings.empty()) << off;
  }
}

TEST(JitEnv, BadBooleanIsAWarningAndOff) {
  JitSettings s = parseWith({{"DGEMM_DISABLE_CACHE", "please"}});
  EXPECT_FALSE(s.disableCache);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0], "DGEMM_DISABLE_CACHE=please is not understood "
                           "(use 1 or 0); ignored");
}

TEST(JitEnv, LogLevels) {
  std::map<std::string, int> want = {{"0", 0},    {"1", 1},     {"2", 2},
                                     {"7", 2},    {"true", 1},  {"off", 0},
                                     {"", 0}};
  for (const auto &[text, level] : want) {
    JitSettings s = parseWith({{"DGEMM_LOG", text}});
    EXPECT_EQ(s.logLevel, level) << text;
    EXPECT_TRUE(s.warnings.empty()) << text;
  }
  JitSettings verbose = parseWith({{"DGEMM_LOG", "verbose"}});
  EXPECT_EQ(verbose.logLevel, 1);
  ASSERT_EQ(verbose.warnings.size(), 1u);
  EXPECT_EQ(verbose.warnings[0], "DGEMM_LOG=verbose is not understood (use 0, "
                                 "1 or 2); using 1");
  JitSettings negative = parseWith({{"DGEMM_LOG", "-3"}});
  EXPECT_EQ(negative.logLevel, 0);
  ASSERT_EQ(negative.warnings.size(), 1u);
  EXPECT_NE(negative.warnings[0].find("is negative"), std::string::npos);
}

TEST(JitEnv, DumpDirectoryAndDescribe) {
  JitSettings s = parseWith({{"DGEMM_DUMP_IR", "/tmp/ir dumps"},
                             {"DGEMM_LOG", "2"},
                             {"DGEMM_PRINT_CONFIGS", "1"}});
  EXPECT_EQ(s.dumpIRDir, "/tmp/ir dumps");
  EXPECT_EQ(s.describe(), "disable_cache=0; print_configs=1; dump_ir=/tmp/ir "
                          "dumps; log=2");
}

TEST(JitEnv, TestOverrideAndSink) {
  std::vector<std::string> lines;
  setJitMessageSinkForTests(
      [&](const std::string &line) { lines.push_back(line); });
  JitSettings quiet;
  JitSettings::setForTests(&quiet);
  EXPECT_FALSE(jitLogEnabled(1));
  jitLog(1, "not shown");
  JitSettings loud;
  loud.logLevel = 1;
  JitSettings::setForTests(&loud);
  EXPECT_EQ(&JitSettings::get(), &loud);
  EXPECT_TRUE(jitLogEnabled(1));
  EXPECT_FALSE(jitLogEnabled(2));
  jitLog(1, "shown");
  jitLog(2, "too detailed");
  jitMessage("always");
  JitSettings::setForTests(nullptr);
  setJitMessageSinkForTests({});
  EXPECT_EQ(lines, (std::vector<std::string>{"shown", "always"}));
  EXPECT_EQ(formatMs(57.25), "57.2 ms");
  EXPECT_EQ(formatMs(0), "0.0 ms");
}

} // namespace
