//===- BadInputMain.cpp - main() of the bad-input rows --------------------===//
//
// Makes one fresh directory for the run (the rows' shared kernel cache and
// their scratch files) and removes it afterwards. The parent process never
// calls the C API itself: every row runs in a forked child.
//
//===----------------------------------------------------------------------===//
#include "BadInputRow.h"

#include "gtest/gtest.h"

#include <stdlib.h>

#include <cstdlib>
#include <string>

namespace {
std::string runDir;
} // namespace

std::string dgemm::test::standInDriver() { return DGEMM_STANDIN_DRIVER; }
std::string dgemm::test::standInDriverNoTensorMaps() {
  return DGEMM_STANDIN_DRIVER_NO_TENSOR_MAPS;
}
std::string dgemm::test::testDir() { return runDir; }

int main(int argc, char **argv) {
  char pattern[] = "/tmp/dgemm-bad-input-XXXXXX";
  const char *dir = mkdtemp(pattern);
  if (!dir)
    return 1;
  runDir = dir;
  ::testing::InitGoogleTest(&argc, argv);
  int result = RUN_ALL_TESTS();
  std::string cmd = "rm -rf '" + runDir + "'";
  (void)std::system(cmd.c_str());
  return result;
}
