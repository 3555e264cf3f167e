//===- LaunchContractTest.cpp - The launch contract and its text form -----===//
//
// Round trips of printContract/parseContract, the exact text, rejection of
// every truncation and of corrupted bytes (never a crash), and the messages
// of checkContract's rules.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/LaunchContract.h"

#include "TestHelpers.h"

#include "gtest/gtest.h"

#include <random>

using namespace dgemm::runtime;
using namespace dgemm::test;

namespace {

ContractParam mParam() { return ContractParam(); }

/// The contract dgemm-lower-to-kernel writes for block 128 x 112.
LaunchContract sample() {
  LaunchContract c;
  c.kernelName = "dgemm_gemm_n7168_k2048_bm128_bn112_s6_g16_c128";
  c.block = 384;
  c.cluster = 1;
  c.dynamicSmem = 217216;
  c.maxCtas = 128;
  c.blockM = 128;
  c.blockN = 112;
  c.n = 7168;
  c.k = 2048;
  c.params = {tensorMap(0, {1, 0}, {128, 128}, 128, "u8"),
              tensorMap(1, {0, 1}, {128, 1}, 0, "f32"),
              tensorMap(2, {1, 0}, {128, 112}, 128, "u8"),
              tensorMap(4, {1, 0}, {112, 128}, 0, "bf16"),
              pointer(3),
              mParam()};
  return c;
}

const char *kSampleText =
    "dgemm-launch-contract 5\n"
    "kernel dgemm_gemm_n7168_k2048_bm128_bn112_s6_g16_c128\n"
    "block 384\n"
    "cluster 1\n"
    "dynamic_smem 217216\n"
    "max_ctas 128\n"
    "block_m 128\n"
    "block_n 112\n"
    "n 7168\n"
    "k 2048\n"
    "layout 0\n"
    "groups 1\n"
    "tile_ctas 1\n"
    "max_m 0\n"
    "params 6\n"
    "param tensor_map operand=0 dtype=u8 swizzle=128 dims=1,0 box=128,128\n"
    "param tensor_map operand=1 dtype=f32 swizzle=0 dims=0,1 box=128,1\n"
    "param tensor_map operand=2 dtype=u8 swizzle=128 dims=1,0 box=128,112\n"
    "param tensor_map operand=4 dtype=bf16 swizzle=0 dims=1,0 box=112,128\n"
    "param ptr operand=3\n"
    "param m\n"
    "end\n";

std::string parseError(const std::string &text) {
  LaunchContract c;
  Status s = parseContract(text, c);
  EXPECT_FALSE(s.ok()) << text;
  EXPECT_EQ(s.code(), DGEMM_ERROR_INVALID_ARGUMENT);
  return s.message();
}

/// kSampleText with line `line` (0-based) replaced.
std::string withLine(size_t line, const std::string &replacement) {
  std::string text = kSampleText;
  size_t start = 0;
  for (size_t i = 0; i < line; ++i)
    start = text.find('\n', start) + 1;
  size_t end = text.find('\n', start);
  return text.substr(0, start) + replacement + text.substr(end);
}

TEST(LaunchContract, SampleIsValid) { EXPECT_EQ(checkContract(sample()), ""); }

TEST(LaunchContract, PrintsTheDocumentedFormat) {
  EXPECT_EQ(printContract(sample()), kSampleText);
}

TEST(LaunchContract, RoundTrip) {
  LaunchContract parsed;
  ASSERT_TRUE(parseContract(printContract(sample()), parsed).ok());
  EXPECT_EQ(parsed, sample());

  LaunchContract cluster = sample();
  cluster.cluster = 2;
  cluster.params = {mParam()};
  ASSERT_TRUE(parseContract(printContract(cluster), parsed).ok());
  EXPECT_EQ(parsed, cluster);

  LaunchContract unknownSizes = sample();
  unknownSizes.n = unknownSizes.k = 0;
  ASSERT_TRUE(parseContract(printContract(unknownSizes), parsed).ok());
  EXPECT_EQ(parsed, unknownSizes);

  LaunchContract smallM = sample();
  smallM.maxM = 8;
  ASSERT_TRUE(parseContract(printContract(smallM), parsed).ok());
  EXPECT_EQ(parsed, smallM);
  EXPECT_FALSE(parsed == sample());

  LaunchContract noParams = sample();
  noParams.params.clear();
  ASSERT_TRUE(parseContract(printContract(noParams), parsed).ok());
  EXPECT_EQ(parsed, noParams);
}

TEST(LaunchContract, EveryTruncationIsRejected) {
  std::string text = kSampleText;
  // All but the final newline (a file ending in "end" is complete).
  for (size_t len = 0; len + 1 < text.size(); ++len) {
    LaunchContract c;
    EXPECT_FALSE(parseContract(text.substr(0, len), c).ok()) << len;
  }
}

TEST(LaunchContract, CorruptedBytesNeverCrash) {
  std::string text = kSampleText;
  const char replacements[] = {'x', '\0', '9', ' ', '\n', '-', ',', '\xff'};
  for (size_t i = 0; i < text.size(); ++i)
    for (char r : replacements) {
      if (text[i] == r)
        continue;
      std::string bad = text;
      bad[i] = r;
      LaunchContract c;
      Status s = parseContract(bad, c);
      // Some edits keep a valid contract (a digit in a number); then it
      // must still satisfy the rules.
      if (s.ok())
        EXPECT_EQ(checkContract(c), "") << bad;
    }
  std::mt19937 rng(42);
  for (int round = 0; round < 2000; ++round) {
    std::string junk(rng() % 200, '\0');
    for (char &ch : junk)
      ch = static_cast<char>(rng() % 256);
    LaunchContract c;
    EXPECT_FALSE(parseContract(junk, c).ok());
  }
}

TEST(LaunchContract, ParseMessages) {
  EXPECT_EQ(parseError(""),
            "launch contract text, line 1: expected 'dgemm-launch-contract 5'");
  // Versions 1 (no layout and groups lines), 3 (no tile_ctas line) and 4
  // (no max_m line) are not read: recompiled.
  EXPECT_EQ(parseError(withLine(0, "dgemm-launch-contract 4")),
            "launch contract text, line 1: expected 'dgemm-launch-contract 5'");
  EXPECT_EQ(parseError(withLine(0, "dgemm-launch-contract 3")),
            "launch contract text, line 1: expected 'dgemm-launch-contract 5'");
  EXPECT_EQ(parseError(withLine(0, "dgemm-launch-contract 1")),
            "launch contract text, line 1: expected 'dgemm-launch-contract 5'");
  EXPECT_EQ(parseError(withLine(2, "block 38x")),
            "launch contract text, line 3: expected 'block <n>'");
  EXPECT_EQ(parseError(withLine(2, "block 99999999999999999999")),
            "launch contract text, line 3: expected 'block <n>'");
  EXPECT_EQ(parseError(withLine(3, "clusters 1")),
            "launch contract text, line 4: expected 'cluster <n>'");
  EXPECT_EQ(parseError(withLine(9, "k")),
            "launch contract text, line 10: expected 'k <n>'");
  EXPECT_EQ(parseError(withLine(10, "layout")),
            "launch contract text, line 11: expected 'layout <n>'");
  EXPECT_EQ(parseError(withLine(11, "group 1")),
            "launch contract text, line 12: expected 'groups <n>'");
  EXPECT_EQ(parseError(withLine(12, "tile_ctas")),
            "launch contract text, line 13: expected 'tile_ctas <n>'");
  EXPECT_EQ(parseError(withLine(13, "max_m")),
            "launch contract text, line 14: expected 'max_m <n>'");
  EXPECT_EQ(parseError(withLine(13, "max_m -1")),
            "launch contract text: max_m = -1 is not in [0, 2147483647]");
  EXPECT_EQ(parseError(withLine(14, "params 7")),
            "launch contract text, line 22: expected 'param <kind> ...'");
  EXPECT_EQ(parseError(withLine(14, "params 5")),
            "launch contract text, line 21: expected 'end'");
  EXPECT_EQ(parseError(withLine(14, "params 65")),
            "launch contract text, line 15: expected 'params <count>' with "
            "count in [0, 64]");
  EXPECT_EQ(parseError(withLine(20, "param stream")),
            "launch contract text, line 21: unknown param kind 'stream'");
  EXPECT_EQ(parseError(withLine(19, "param ptr operand=x")),
            "launch contract text, line 20: expected 'param ptr operand=<i>'");
  EXPECT_EQ(
      parseError(withLine(15, "param tensor_map operand=0 dtype=u8 "
                              "swizzle=128 dims=1,0")),
      "launch contract text, line 16: expected 'param tensor_map operand=<i> "
      "dtype=<s> swizzle=<n> dims=<i,..> box=<n,..>'");
  EXPECT_EQ(parseError(std::string(kSampleText) + "x\n"),
            "launch contract text, line 23: unexpected text after 'end'");
  // Well-formed text, invalid values: checkContract's messages.
  EXPECT_EQ(parseError(withLine(2, "block 0")),
            "launch contract text: block = 0 is not in [1, 1024]");
  EXPECT_EQ(parseError(withLine(10, "layout 8")),
            "launch contract text: layout = 8 is not in [0, 7]");
  EXPECT_EQ(parseError(withLine(
                15, "param tensor_map operand=0 dtype=u8 swizzle=128 dims=1,0 "
                    "box=256,128")),
            "launch contract text: param 0 (tensor_map): the inner box extent "
            "of 256 bytes exceeds the 128-byte swizzle span");
  EXPECT_EQ(parseError(withLine(12, "tile_ctas 2")),
            "launch contract text: tile_ctas 2 does not divide cluster 1 (a "
            "tile's CTAs are one cluster's)");
  EXPECT_EQ(parseError(withLine(1, "kernel bad name")),
            "launch contract text: kernel name 'bad name' is not a symbol "
            "(letters, digits, '_', '$', '.')");
}

TEST(LaunchContract, CheckMessages) {
  LaunchContract c = sample();
  c.cluster = 9;
  EXPECT_EQ(checkContract(c), "cluster = 9 is not in [1, 8]");
  c = sample();
  c.n = -1;
  EXPECT_EQ(checkContract(c), "n = -1 is not in [0, 2147483647]");
  c = sample();
  c.dynamicSmem = 232449;
  EXPECT_EQ(checkContract(c), "dynamic_smem = 232449 is not in [0, 232448]");
  c = sample();
  c.kernelName = "";
  EXPECT_EQ(checkContract(c), "kernel name '' is not a symbol (letters, "
                              "digits, '_', '$', '.')");
  c = sample();
  c.params[0].box = {128, 300};
  EXPECT_EQ(checkContract(c),
            "param 0 (tensor_map): box extent 300 is not in [1, 256]");
  c = sample();
  c.params[0].dims = {1, 1};
  EXPECT_EQ(checkContract(c),
            "param 0 (tensor_map): dim index 1 appears twice");
  c = sample();
  c.params[0].dims = {4, 0};
  EXPECT_EQ(checkContract(c), "param 0 (tensor_map): dim index 4 is not in "
                              "[0, 3] (tensors have rank <= 4)");
  c = sample();
  c.params[0].box = {128};
  EXPECT_EQ(checkContract(c),
            "param 0 (tensor_map): box has 1 entries for 2 dims");
  c = sample();
  c.params[1].swizzle = 96;
  EXPECT_EQ(checkContract(c),
            "param 1 (tensor_map): swizzle 96 is not 0, 32, 64 or 128");
  c = sample();
  c.params[1].dtype = "f16";
  EXPECT_EQ(checkContract(c),
            "param 1 (tensor_map): dtype 'f16' is not u8, bf16 or f32");
  c = sample();
  c.params[3].box = {4, 128};
  EXPECT_EQ(checkContract(c), "param 3 (tensor_map): the inner box extent is "
                              "8 bytes, not a multiple of 16");
  c = sample();
  c.params[4].operand = 8;
  EXPECT_EQ(checkContract(c), "param 4 (ptr): operand = 8 is not in [0, 7]");
  c = sample();
  c.params[5].operand = 0;
  EXPECT_EQ(checkContract(c), "param 5 (m): takes no operand, dims or box");
  c = sample();
  c.params.assign(65, mParam());
  EXPECT_EQ(checkContract(c), "more than 64 params");
}

TEST(LaunchContract, DtypeBytes) {
  EXPECT_EQ(contractDtypeBytes("u8"), 1);
  EXPECT_EQ(contractDtypeBytes("bf16"), 2);
  EXPECT_EQ(contractDtypeBytes("f32"), 4);
  EXPECT_EQ(contractDtypeBytes("f64"), 0);
}

} // namespace

namespace {
/// The k-grouped kernel's contract: a group table, scale maps, D's map.
LaunchContract kGroupedSample() {
  LaunchContract c = sample();
  c.kernelName = "dgemm_k_grouped_m512_g3_n1024_bm128_bn128_s4_g4_c132";
  c.k = 0;
  c.layout = kLayoutKGrouped;
  c.groups = 3;
  ContractParam table;
  table.kind = ParamKind::GroupTable;
  table.operand = 0;
  table.operandB = 2;
  table.box = {128, 128};
  table.swizzle = 128;
  table.dtype = "u8";
  ContractParam workspace;
  workspace.kind = ParamKind::Workspace;
  workspace.bytes = 1280;
  c.params = {table,
              tensorMap(1, {1, 0}, {128, 1}, 0, "f32"),
              tensorMap(3, {1, 0}, {128, 1}, 0, "f32"),
              tensorMap(5, {2, 1, 0}, {32, 128, 1}, 128, "f32"),
              pointer(0),
              pointer(2),
              workspace};
  return c;
}

/// checkContract of kGroupedSample() with its param `index` edited.
template <typename Edit>
std::string checkKGroupedEdited(size_t index, Edit edit) {
  LaunchContract c = kGroupedSample();
  edit(c.params[index]);
  return checkContract(c);
}
} // namespace

TEST(LaunchContract, WorkspaceRoundTripAndChecks) {
  LaunchContract c = kGroupedSample();
  ASSERT_EQ(checkContract(c), "");
  std::string text = printContract(c);
  EXPECT_NE(text.find("param workspace bytes=1280\n"), std::string::npos)
      << text;
  LaunchContract back;
  ASSERT_TRUE(parseContract(text, back).ok()) << text;
  EXPECT_EQ(back, c);
  back.params[6].bytes = 256;
  EXPECT_FALSE(back == c);

  auto check = [](auto edit) { return checkKGroupedEdited(6, edit); };
  EXPECT_EQ(check([](ContractParam &p) { p.bytes = 0; }),
            "param 6 (workspace): bytes = 0 is not in [1, 1048576]");
  EXPECT_EQ(check([](ContractParam &p) { p.operand = 1; }),
            "param 6 (workspace): takes no operand, dims or box");
  std::string broken = text;
  broken.replace(broken.find("bytes=1280"), 10, "bytes=12x0");
  Status s = parseContract(broken, back);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("expected 'param workspace bytes=<n>'"),
            std::string::npos)
      << s.message();
}

TEST(LaunchContract, GroupTableRoundTrip) {
  LaunchContract c = kGroupedSample();
  ASSERT_EQ(checkContract(c), "");
  std::string text = printContract(c);
  EXPECT_NE(text.find("param group_table operand=0 operand_b=2 swizzle=128 "
                      "box=128,128\n"),
            std::string::npos)
      << text;
  LaunchContract back;
  ASSERT_TRUE(parseContract(text, back).ok()) << text;
  EXPECT_EQ(back, c);
}

TEST(LaunchContract, GroupTableCheckMessages) {
  auto check = [](auto edit) { return checkKGroupedEdited(0, edit); };
  EXPECT_EQ(check([](ContractParam &p) { p.operandB = 9; }),
            "param 0 (group_table): operand_b = 9 is not in [0, 7]");
  EXPECT_EQ(check([](ContractParam &p) { p.box = {128}; }),
            "param 0 (group_table): takes two box extents (rows of A's and "
            "B's boxes) and no dims");
  EXPECT_EQ(check([](ContractParam &p) { p.box = {128, 300}; }),
            "param 0 (group_table): box extent 300 is not in [1, 256]");
  EXPECT_EQ(check([](ContractParam &p) { p.swizzle = 64; }),
            "param 0 (group_table): swizzle must be 128 (boxes of 128 K bytes)");
  LaunchContract bad;
  std::string text = printContract(kGroupedSample());
  std::string broken = text;
  broken.replace(broken.find("operand_b=2"), 11, "operandb=2");
  Status s = parseContract(broken, bad);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("expected 'param group_table operand=<i> "
                             "operand_b=<i> swizzle=<n> box=<n,n>'"),
            std::string::npos)
      << s.message();
}
