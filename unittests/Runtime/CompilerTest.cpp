//===- CompilerTest.cpp - In-process compilation of dgemm kernels ---------===//
//
// The compiler on a CPU machine: an LLVM fatal error inside a pipeline
// becomes DGEMM_ERROR_COMPILE carrying the job's name (and the process
// lives on to compile again); the NVVM target check; the contract read
// before gpu-module-to-binary; diagnostics in messages; the dgemm IR of a
// kernel key verifies; and, with dgemm's lowering, GEMM kernels and kernel
// IR compile to PTX with the contract the lowering wrote.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/Compiler.h"
#include "dgemm/Runtime/GemmModule.h"

#include "gtest/gtest.h"

using namespace dgemm;
using namespace dgemm::runtime;

namespace {

/// A kernel module: one llvm.func kernel in a gpu.module with `target`,
/// carrying `launch` as its dgemm.launch attribute (omitted when empty).
std::string kernelModule(const std::string &target, const std::string &launch) {
  std::string attrs = "nvvm.kernel";
  if (!launch.empty())
    attrs += ", dgemm.launch = " + launch;
  return "module attributes {gpu.container_module} {\n"
         "  gpu.module @kernels [" +
         target +
         "] {\n"
         "    llvm.func @tiny(%p: !llvm.ptr, %m: i32) attributes {" +
         attrs +
         "} {\n"
         "      llvm.return\n"
         "    }\n"
         "  }\n"
         "}\n";
}

const char *kGoodTarget =
    "#nvvm.target<chip = \"sm_90a\", features = \"+ptx86\", O = 3>";
const char *kOldPtx =
    "#nvvm.target<chip = \"sm_90a\", features = \"+ptx60\", O = 3>";
const char *kNoPtxFeature = "#nvvm.target<chip = \"sm_90a\", O = 3>";
const char *kLaunch =
    "{block = 128 : i64, cluster = 1 : i64, dynamic_smem = 1024 : i64, "
    "max_ctas = 132 : i64, block_m = 64 : i64, block_n = 64 : i64, "
    "params = [{kind = \"ptr\", operand = 0 : i64}, {kind = \"m\"}]}";
const char *kBinary = "gpu-module-to-binary{format=isa}";

Status compile(const std::string &text, const std::string &pipeline,
               CompileOptions options, CompiledKernel &out) {
  return compileModule(text, pipeline, "test job", options, out);
}

TEST(Compiler, FatalErrorBecomesCompileError) {
  CompileOptions noCheck;
  noCheck.checkTargets = false;
  for (int round = 0; round < 2; ++round) {
    CompiledKernel k;
    Status s = compile(kernelModule(kOldPtx, kLaunch), kBinary, noCheck, k);
    EXPECT_EQ(s.code(), DGEMM_ERROR_COMPILE);
    EXPECT_EQ(s.message(),
              "cannot compile test job: LLVM fatal error: PTX version 6.0 does "
              "not support target 'sm_90a'. Minimum required PTX version is "
              "8.0. Either remove the PTX version to use the default, or "
              "increase it to at least 8.0.");

    // The process lives on and compiles the next module.
    s = compile(kernelModule(kGoodTarget, kLaunch), kBinary, CompileOptions(),
                k);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_NE(k.ptx.find(".entry tiny"), std::string::npos);
  }
}

TEST(Compiler, TargetsAreCheckedBeforeLowering) {
  CompiledKernel k;
  Status s =
      compile(kernelModule(kOldPtx, kLaunch), kBinary, CompileOptions(), k);
  EXPECT_EQ(s.code(), DGEMM_ERROR_COMPILE);
  EXPECT_EQ(s.message(),
            "cannot compile test job: gpu.module @kernels targets sm_90a with "
            "features \"+ptx60\": sm_90a needs PTX 8.0 or newer (+ptx80; "
            "dgemm uses +ptx86); the NVPTX backend would reject this target");
  // Without a PTX feature LLVM picks a version sm_90a accepts.
  s = compile(kernelModule(kNoPtxFeature, kLaunch), kBinary, CompileOptions(),
              k);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_NE(k.ptx.find(".version 8."), std::string::npos);
}

TEST(Compiler, ContractIsReadBeforeBinary) {
  CompiledKernel k;
  Status s =
      compile(kernelModule(kGoodTarget, kLaunch), kBinary, CompileOptions(), k);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(k.contract.kernelName, "tiny");
  EXPECT_EQ(k.contract.block, 128);
  EXPECT_EQ(k.contract.dynamicSmem, 1024);
  EXPECT_EQ(k.contract.maxCtas, 132);
  ASSERT_EQ(k.contract.params.size(), 2u);
  EXPECT_EQ(k.contract.params[0].kind, ParamKind::Pointer);
  EXPECT_EQ(k.contract.params[0].operand, 0);
  EXPECT_EQ(k.contract.params[1].kind, ParamKind::M);
  EXPECT_NE(k.ptx.find(".target sm_90a"), std::string::npos);
}

TEST(Compiler, OptionalContractEntries) {
  std::string launch = kLaunch;
  launch.insert(1, "n = 256 : i64, k = 512 : i64, kernel = \"tiny\", "
                   "future_field = 1 : i64, ");
  CompiledKernel k;
  Status s =
      compile(kernelModule(kGoodTarget, launch), kBinary, CompileOptions(), k);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(k.contract.n, 256);
  EXPECT_EQ(k.contract.k, 512);
  EXPECT_EQ(k.contract.kernelName, "tiny");
  // Dense arrays are accepted for dims and box.
  launch = "{block = 128 : i64, cluster = 1 : i64, dynamic_smem = 0 : i64, "
           "max_ctas = 1 : i64, block_m = 64 : i64, block_n = 64 : i64, "
           "params = [{kind = \"tensor_map\", operand = 0 : i64, dims = "
           "array<i64: 1, 0>, box = array<i32: 128, 64>, swizzle = 128 : i64, "
           "dtype = \"u8\"}]}";
  s = compile(kernelModule(kGoodTarget, launch), kBinary, CompileOptions(), k);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(k.contract.params.size(), 1u);
  EXPECT_EQ(k.contract.params[0].dims, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(k.contract.params[0].box, (std::vector<int64_t>{128, 64}));
}

TEST(Compiler, ContractErrors) {
  CompiledKernel k;
  Status s =
      compile(kernelModule(kGoodTarget, ""), kBinary, CompileOptions(), k);
  EXPECT_EQ(s.message(), "cannot compile test job: no kernel carries a "
                         "dgemm.launch attribute (docs/launch-contract.md)");
  std::string noBlock = kLaunch;
  noBlock.replace(noBlock.find("block = 128 : i64, "), 19, "");
  s = compile(kernelModule(kGoodTarget, noBlock), kBinary, CompileOptions(), k);
  EXPECT_EQ(s.message(),
            "cannot compile test job: dgemm.launch: the contract: missing "
            "'block'");
  std::string badKind = kLaunch;
  badKind.replace(badKind.find("\"m\""), 3, "\"stream\"");
  s = compile(kernelModule(kGoodTarget, badKind), kBinary, CompileOptions(), k);
  EXPECT_EQ(s.message(), "cannot compile test job: dgemm.launch: params[1]: "
                         "unknown kind 'stream'");
  std::string badBlock = kLaunch;
  badBlock.replace(badBlock.find("block = 128"), 11, "block = 2048");
  s = compile(kernelModule(kGoodTarget, badBlock), kBinary, CompileOptions(),
              k);
  EXPECT_EQ(s.message(), "cannot compile test job: dgemm.launch of tiny: "
                         "block = 2048 is not in [1, 1024]");
  s = compile(kernelModule(kGoodTarget, "5 : i64"), kBinary, CompileOptions(),
              k);
  EXPECT_EQ(s.message(), "cannot compile test job: dgemm.launch on tiny is "
                         "not a dictionary");
}

TEST(Compiler, Diagnostics) {
  CompiledKernel k;
  Status s = compile("module { func.func @f( }", kBinary, CompileOptions(), k);
  EXPECT_EQ(s.code(), DGEMM_ERROR_COMPILE);
  EXPECT_EQ(s.message().rfind("cannot compile test job: the module does not "
                              "parse:\ninput.mlir:1:",
                              0),
            0u)
      << s.message();
  s = compile(kernelModule(kGoodTarget, kLaunch), "no-such-pipeline",
              CompileOptions(), k);
  EXPECT_EQ(s.message().rfind("cannot compile test job: the pass pipeline "
                              "'no-such-pipeline' is not available: ",
                              0),
            0u)
      << s.message();
  // A pass that fails: its diagnostics make the message.
  s = compile("module { func.func @f() { \"test.unknown\"() : () -> () "
              "return } }",
              "dgemm-to-ptx", CompileOptions(), k);
  EXPECT_EQ(s.code(), DGEMM_ERROR_COMPILE);
  CompileOptions ptxOnly;
  ptxOnly.needContract = false;
  s = compile("module {}", kBinary, ptxOnly, k);
  EXPECT_EQ(s.message(), "cannot compile test job: pipeline "
                         "'gpu-module-to-binary{format=isa}' produced no "
                         "gpu.binary holding PTX "
                         "(gpu-module-to-binary{format=isa})");
}

GemmKernelKey exampleKey(int64_t m, int64_t n, int64_t k) {
  ProblemDesc p;
  p.m = m;
  p.n = n;
  p.k = k;
  TargetDesc t;
  KernelConfig c = selectConfig(p, t, kernelCapabilities());
  EXPECT_EQ(checkConfig(c, p, t), "");
  return makeGemmKernelKey(n, k, c, t);
}

TEST(Compiler, GemmModuleVerifies) {
  CompileOptions parseOnly;
  parseOnly.needPtx = false;
  parseOnly.needContract = false;
  CompiledKernel k;
  Status s = compile(gemmModuleText(exampleKey(4096, 7168, 2048)),
                     "dgemm-select-config", parseOnly, k);
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(Compiler, Versions) {
  EXPECT_EQ(llvmVersion().rfind("22.", 0), 0u);
  GemmKernelKey key = exampleKey(256, 7168, 7168);
  EXPECT_EQ(key.pipeline, "dgemm-to-ptx");
  EXPECT_EQ(key.llvmVersion, llvmVersion());
  EXPECT_EQ(key.dgemmVersion, dgemmBuildId());
}

TEST(Compiler, GemmKernelsCompile) {
  if (!isPipelineRegistered("dgemm-to-ptx"))
    GTEST_SKIP() << "dgemm-to-ptx is not registered in this build";
  struct Shape {
    int64_t m, n, k;
  } shapes[] = {{64, 2112, 7168}, {8, 4096, 7168}, {256, 7168, 7168},
                {4096, 7168, 2048}};
  for (const Shape &sh : shapes) {
    GemmKernelKey key = exampleKey(sh.m, sh.n, sh.k);
    SCOPED_TRACE(key.text());
    CompiledKernel k;
    Status s = compileGemm(key, k);
    ASSERT_TRUE(s.ok()) << s.message();
    const LaunchContract &c = k.contract;
    EXPECT_NE(k.ptx.find(".entry " + c.kernelName), std::string::npos);
    // Block M 64 with block N <= 56 and at least 56 K blocks (64x2112x7168)
    // runs the K split over two consumer warpgroups (dgemm-lower-to-kernel
    // {consumer-k-split=auto}): 384 threads, the kernel name ends in _ks.
    const bool kSplit = c.kernelName.find("_ks") != std::string::npos;
    EXPECT_EQ(kSplit, sh.m <= 64);
    EXPECT_EQ(c.block, kSplit ? 384 : 128 * (key.config.mathWarpgroups + 1));
    EXPECT_EQ(c.cluster, 1);
    EXPECT_EQ(c.maxCtas, key.config.numSMs);
    EXPECT_EQ(c.blockM, key.config.blockM);
    EXPECT_EQ(c.blockN, key.config.blockN);
    EXPECT_LE(c.dynamicSmem, 232448);
    // A, A scales, B, D maps; B-scale pointer; M.
    ASSERT_EQ(c.params.size(), 6u);
    EXPECT_EQ(c.params[0].operand, 0);
    EXPECT_EQ(c.params[1].operand, 1);
    EXPECT_EQ(c.params[2].operand, 2);
    EXPECT_EQ(c.params[3].operand, 4);
    EXPECT_EQ(c.params[4].kind, ParamKind::Pointer);
    EXPECT_EQ(c.params[4].operand, 3);
    EXPECT_EQ(c.params[5].kind, ParamKind::M);
    // M = 8: A's box of 8 rows, and the contract says the kernel serves no
    // more.
    EXPECT_EQ(key.config.aBoxRows, sh.m == 8 ? 8 : 0);
    EXPECT_EQ(c.maxM, key.config.aBoxRows);
    EXPECT_EQ(c.params[0].box[1],
              key.config.aBoxRows ? key.config.aBoxRows : key.config.blockM);
    EXPECT_EQ(c.kernelName.find("_ar8") != std::string::npos, sh.m == 8);
  }
}

TEST(Compiler, BiasKernelsCompile) {
  // Epilogue fusion: the kernel of a GEMM with a bias takes the bias's
  // address seventh, and its contract says layout 7 (bias = operand 4, D =
  // operand 5), for the tile shapes of a K split, 128x192 and 256x128.
  if (!isPipelineRegistered("dgemm-to-ptx"))
    GTEST_SKIP() << "dgemm-to-ptx is not registered in this build";
  struct Shape {
    int64_t m, n, k;
  } shapes[] = {{64, 2112, 7168}, {4096, 2112, 7168}, {4096, 7168, 2048}};
  for (const Shape &sh : shapes) {
    GemmKernelKey key = exampleKey(sh.m, sh.n, sh.k);
    key.bias = true;
    SCOPED_TRACE(key.text());
    CompiledKernel k;
    Status s = compileGemm(key, k);
    ASSERT_TRUE(s.ok()) << s.message();
    const LaunchContract &c = k.contract;
    EXPECT_NE(c.kernelName.find("_bias"), std::string::npos) << c.kernelName;
    EXPECT_NE(k.ptx.find(".entry " + c.kernelName), std::string::npos);
    EXPECT_NE(k.ptx.find("ld.global.v2.b32"), std::string::npos);
    EXPECT_EQ(c.layout, kLayoutBias);
    ASSERT_EQ(c.params.size(), 7u);
    EXPECT_EQ(c.params[3].kind, ParamKind::TensorMap);
    EXPECT_EQ(c.params[3].operand, 5); // D
    EXPECT_EQ(c.params[4].operand, 3); // B scales
    EXPECT_EQ(c.params[5].kind, ParamKind::M);
    EXPECT_EQ(c.params[6].kind, ParamKind::Pointer);
    EXPECT_EQ(c.params[6].operand, 4); // the bias
  }
}

/// The key of an m-grouped kernel, its config chosen as the runtime does.
GemmKernelKey groupedKey(GemmKind kind, int64_t groups, int64_t m, int64_t n,
                         int64_t k) {
  ProblemDesc p;
  p.kind = kind;
  p.groups = groups;
  p.m = m;
  p.n = n;
  p.k = k;
  TargetDesc t;
  KernelConfig c = selectConfig(p, t, kernelCapabilities());
  EXPECT_EQ(checkConfig(c, p, t), "");
  GemmKernelKey key = makeGemmKernelKey(n, k, c, t);
  key.kind = kind;
  key.groups = groups;
  return key;
}

TEST(Compiler, GroupedKernelsCompile) {
  if (!isPipelineRegistered("dgemm-to-ptx"))
    GTEST_SKIP() << "dgemm-to-ptx is not registered in this build";
  for (bool masked : {false, true}) {
    GemmKernelKey key =
        masked ? groupedKey(GemmKind::GroupedMasked, 4, 256, 7168, 2048)
               : groupedKey(GemmKind::GroupedContiguous, 8, 32768, 4096, 7168);
    SCOPED_TRACE(key.text());
    EXPECT_NE(key.text().find(masked ? "m_grouped_masked_fp8_bf16_nt groups=4"
                                     : "m_grouped_contiguous_fp8_bf16_nt "
                                       "groups=8"),
              std::string::npos);
    CompiledKernel k;
    Status s = compileGemm(key, k);
    ASSERT_TRUE(s.ok()) << s.message();
    const LaunchContract &c = k.contract;
    EXPECT_EQ(c.kernelName.rfind(masked ? "dgemm_grouped_masked_g4_"
                                        : "dgemm_grouped_contiguous_g8_",
                                 0),
              0u);
    EXPECT_NE(k.ptx.find(".entry " + c.kernelName), std::string::npos);
    EXPECT_EQ(c.layout, masked ? kLayoutMasked : kLayoutContiguous);
    EXPECT_EQ(c.groups, masked ? 4 : 8);
    // 32768 contiguous rows at K = 7168: the runtime multicasts A on 2-CTA
    // clusters (kernelCapabilities); 4 x 256 masked rows: single CTAs.
    EXPECT_EQ(c.cluster, masked ? 1 : 2);
    // A, A scales, B and D maps (masked: A, its scales and D 3-D); B-scale
    // pointer; M; the groups tensor's address; masked: D's address, then
    // (4 groups of 256 rows: the selection adds a 128x192 tile shape) that
    // shape's maps of A, A scales, B and D, on all 132 CTAs.
    ASSERT_EQ(c.params.size(), masked ? 12u : 7u);
    if (masked) {
      EXPECT_NE(c.kernelName.find("_alt128x192s4c132"), std::string::npos);
      EXPECT_EQ(c.maxCtas, 132);
      EXPECT_EQ(c.params[8].box, (std::vector<int64_t>{128, 128, 1}));
      EXPECT_EQ(c.params[0].box, (std::vector<int64_t>{128, 256, 1}));
      EXPECT_EQ(c.params[10].box, (std::vector<int64_t>{128, 192, 1}));
      EXPECT_EQ(c.params[11].operand, 5);
    }
    EXPECT_EQ(c.params[0].dims.size(), masked ? 3u : 2u);
    EXPECT_EQ(c.params[2].dims, (std::vector<int64_t>{2, 1, 0}));
    EXPECT_EQ(c.params[3].kind, ParamKind::TensorMap);
    EXPECT_EQ(c.params[3].dims.size(), masked ? 3u : 2u);
    EXPECT_EQ(c.params[3].operand, 5);
    EXPECT_EQ(c.params[6].kind, ParamKind::Pointer);
    EXPECT_EQ(c.params[6].operand, 4);
    if (masked) {
      EXPECT_EQ(c.params[7].kind, ParamKind::Pointer);
      EXPECT_EQ(c.params[7].operand, 5);
    }
    // The contract survives the disk cache's text form.
    LaunchContract parsed;
    ASSERT_TRUE(parseContract(printContract(c), parsed).ok());
    EXPECT_TRUE(parsed == c);
  }
}

TEST(Compiler, KernelIRRoundTrip) {
  if (!isPipelineRegistered("dgemm-to-kernel") ||
      !isPipelineRegistered("dgemm-kernel-to-ptx"))
    GTEST_SKIP() << "the kernel pipelines are not registered in this build";
  GemmKernelKey key = exampleKey(256, 7168, 7168);
  CompiledKernel direct;
  Status s = compileGemm(key, direct);
  ASSERT_TRUE(s.ok()) << s.message();

  // What `dgemm-opt --dgemm-to-kernel` prints, compiled back.
  std::string kernelIR;
  CompileOptions lower;
  lower.needPtx = false;
  lower.needContract = false;
  lower.outputIR = &kernelIR;
  CompiledKernel unused;
  s = compileModule(gemmModuleText(key), "dgemm-to-kernel", "lower", lower,
                    unused);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_NE(kernelIR.find("dgemm.launch"), std::string::npos);

  CompiledKernel viaIR;
  s = compileKernelIR(kernelIR, viaIR);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(viaIR.contract, direct.contract);
  EXPECT_EQ(viaIR.ptx, direct.ptx);

  s = compileKernelIR("module {}", viaIR);
  EXPECT_EQ(s.code(), DGEMM_ERROR_COMPILE);
  EXPECT_EQ(s.message().rfind("cannot compile kernel IR (9 bytes, fnv1a64 ", 0),
            0u)
      << s.message();
}

TEST(Compiler, CompileToPtx) {
  if (!isPipelineRegistered("dgemm-to-ptx"))
    GTEST_SKIP() << "dgemm-to-ptx is not registered in this build";
  std::string ptx;
  Status s = compileToPtx(gemmModuleText(exampleKey(128, 4096, 512)), ptx);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_NE(ptx.find(".entry "), std::string::npos);
  s = compileToPtx("not mlir", ptx);
  EXPECT_EQ(s.code(), DGEMM_ERROR_COMPILE);
  EXPECT_EQ(s.message().rfind("cannot compile dgemm IR: the module does not "
                              "parse:",
                              0),
            0u);
}

} // namespace
