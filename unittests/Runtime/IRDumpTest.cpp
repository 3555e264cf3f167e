//===- IRDumpTest.cpp - DGEMM_DUMP_IR: every stage's IR, to files ---------===//
//
// A GEMM kernel compiled with a dump folder leaves one file per stage (dgemm
// IR, configured, kernel IR, NVVM, LLVM, PTX) named by kernel and key hash,
// each holding what that stage should; a kernel IR job starts at the NVVM
// stage; a failed job leaves its input and the error; an unwritable folder
// is one warning and a successful compile; no folder, no files.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/Compiler.h"
#include "dgemm/Runtime/GemmModule.h"
#include "dgemm/Runtime/IRDump.h"
#include "dgemm/Runtime/JitEnv.h"

#include "FileTestHelpers.h"

#include "gtest/gtest.h"

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace dgemm;
using namespace dgemm::runtime;
using namespace dgemm::test;

namespace {


GemmKernelKey key(int64_t m, int64_t n, int64_t k) {
  ProblemDesc p;
  p.m = m;
  p.n = n;
  p.k = k;
  TargetDesc t;
  return makeGemmKernelKey(n, k, selectConfig(p, t, kernelCapabilities()), t);
}

bool contains(const std::string &text, const std::string &what) {
  return text.find(what) != std::string::npos;
}

TEST(IRDump, EveryStageOfAGemmKernel) {
  if (!isPipelineRegistered("dgemm-to-ptx"))
    GTEST_SKIP() << "dgemm-to-ptx is not registered in this build";
  TempDir dir("dgemm-dump-test");
  std::string folder = dir.path() + "/new/sub";
  GemmKernelKey k = key(256, 2112, 1024);
  CompileOptions options;
  options.dumpIRDir = folder;
  CompiledKernel out;
  Status s = compileModule(gemmModuleText(k), k.pipeline, k.text(), options,
                           out);
  ASSERT_TRUE(s.ok()) << s.message();
  std::string base = out.contract.kernelName + "-" + hex64(fnv1a64(k.text()));
  std::vector<std::string> want = {
      base + ".0-input.mlir",
      base + ".1-dgemm-select-config.mlir",
      base + ".2-dgemm-lower-to-kernel.mlir",
      base + ".3-convert-dgemm-to-nvvm.mlir",
      base + ".4-llvm.mlir",
      base + ".5-ptx.ptx"};
  ASSERT_EQ(listDir(folder), want);
  auto stage = [&](int i) { return readAll(folder + "/" + want[i]); };
  EXPECT_EQ(stage(0), gemmModuleText(k));
  EXPECT_TRUE(contains(stage(1), "dgemm.gemm")) << stage(1);
  EXPECT_TRUE(contains(stage(1), "#dgemm.config<"));
  EXPECT_FALSE(contains(stage(2), "dgemm.gemm ins"));
  EXPECT_TRUE(contains(stage(2), "dgemm.launch"));
  EXPECT_TRUE(contains(stage(2), "dgemm.wgmma_tile"));
  EXPECT_FALSE(contains(stage(3), "dgemm.wgmma_tile"));
  EXPECT_TRUE(contains(stage(3), "nvvm."));
  EXPECT_TRUE(contains(stage(4), "llvm.func @" + out.contract.kernelName));
  EXPECT_FALSE(contains(stage(4), "scf."));
  EXPECT_EQ(stage(5), out.ptx);
}

TEST(IRDump, KernelIRJobAndFailedJob) {
  if (!isPipelineRegistered("dgemm-to-kernel") ||
      !isPipelineRegistered("dgemm-kernel-to-ptx"))
    GTEST_SKIP() << "the kernel pipelines are not registered in this build";
  GemmKernelKey k = key(64, 256, 512);
  std::string kernelIR;
  CompileOptions lower;
  lower.needPtx = false;
  lower.needContract = false;
  lower.outputIR = &kernelIR;
  lower.dumpIRDir = "";
  CompiledKernel unused;
  ASSERT_TRUE(compileModule(gemmModuleText(k), "dgemm-to-kernel", "lower",
                            lower, unused)
                  .ok());

  TempDir dir("dgemm-dump-test");
  CompileOptions options;
  options.dumpIRDir = dir.path();
  CompiledKernel out;
  ASSERT_TRUE(compileModule(kernelIR, kKernelIRPipeline, "kernel IR job",
                            options, out)
                  .ok());
  std::string base =
      out.contract.kernelName + "-" + hex64(fnv1a64("kernel IR job"));
  EXPECT_EQ(listDir(dir.path()),
            (std::vector<std::string>{base + ".0-input.mlir",
                                      base + ".3-convert-dgemm-to-nvvm.mlir",
                                      base + ".4-llvm.mlir",
                                      base + ".5-ptx.ptx"}));
  EXPECT_EQ(readAll(dir.path() + "/" + base + ".0-input.mlir"), kernelIR);

  TempDir failed("dgemm-dump-test");
  options.dumpIRDir = failed.path();
  Status s = compileModule("module { bad", kGemmPipeline, "broken job",
                           options, out);
  ASSERT_FALSE(s.ok());
  std::string fbase = "failed-" + hex64(fnv1a64("broken job"));
  EXPECT_EQ(listDir(failed.path()),
            (std::vector<std::string>{fbase + ".0-input.mlir",
                                      fbase + ".error.txt"}));
  EXPECT_EQ(readAll(failed.path() + "/" + fbase + ".error.txt"),
            "broken job\n" + s.message() + "\n");
}

TEST(IRDump, UnwritableFolderIsOneWarning) {
  if (!isPipelineRegistered("dgemm-to-ptx"))
    GTEST_SKIP() << "dgemm-to-ptx is not registered in this build";
  TempDir dir("dgemm-dump-test");
  std::ofstream(dir.path() + "/file") << "x";
  std::vector<std::string> lines;
  setJitMessageSinkForTests(
      [&](const std::string &line) { lines.push_back(line); });
  GemmKernelKey k = key(128, 256, 256);
  CompileOptions options;
  options.dumpIRDir = dir.path() + "/file/ir";
  for (int i = 0; i < 2; ++i) {
    CompiledKernel out;
    Status s = compileModule(gemmModuleText(k), k.pipeline, k.text(), options,
                             out);
    EXPECT_TRUE(s.ok()) << s.message();
    EXPECT_FALSE(out.ptx.empty());
  }
  setJitMessageSinkForTests({});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("warning: DGEMM_DUMP_IR: cannot create " +
                               dir.path() + "/file/ir: ",
                           0),
            0u)
      << lines[0];
  EXPECT_TRUE(contains(lines[0], "IR is not dumped (compiling goes on)"));
  EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"file"});
}

TEST(IRDump, DisabledWritesNothing) {
  IRDump off("");
  EXPECT_FALSE(off.enabled());
  off.add("0-input.mlir", "text");
  EXPECT_TRUE(off.stages().empty());
  EXPECT_TRUE(off.write("job", "kernel", Status::success()).empty());
}

TEST(IRDump, SafeFileNames) {
  EXPECT_EQ(safeFileName("dgemm_gemm_n7168-0123abcd.x"),
            "dgemm_gemm_n7168-0123abcd.x");
  EXPECT_EQ(safeFileName("../etc/passwd"), ".._etc_passwd");
  EXPECT_EQ(safeFileName("a b/c"), "a_b_c");
  EXPECT_EQ(safeFileName(""), "_");
  EXPECT_EQ(safeFileName(".."), "_..");
  EXPECT_EQ(safeFileName(std::string(300, 'x')).size(), 128u);
}

} // namespace
