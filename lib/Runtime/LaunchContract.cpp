//===- LaunchContract.cpp - What the runtime needs to launch a kernel -----===//
//
// The contract's validity rules and its text form. The parser reads what
// printContract writes and nothing else: fixed line order, one field per
// line, decimal integers checked for range, a closing `end` line so that a
// truncated file is rejected. Every failure is an INVALID_ARGUMENT naming
// the line.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/LaunchContract.h"

#include "LaunchContractFields.h"

#include <charconv>
#include <set>

using namespace dgemm::runtime;

namespace {

constexpr const char *kHeader = "dgemm-launch-contract 5";

std::string str(int64_t v) { return std::to_string(v); }

bool validSymbol(const std::string &name) {
  if (name.empty() || name.size() > 256)
    return false;
  if (name[0] >= '0' && name[0] <= '9')
    return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.';
    if (!ok)
      return false;
  }
  return true;
}

const char *kindName(ParamKind kind) {
  switch (kind) {
  case ParamKind::TensorMap:
    return "tensor_map";
  case ParamKind::Pointer:
    return "ptr";
  case ParamKind::M:
    return "m";
  case ParamKind::GroupTable:
    return "group_table";
  case ParamKind::Workspace:
    return "workspace";
  }
  return "unknown";
}

std::string checkRange(const char *field, int64_t v, int64_t lo, int64_t hi) {
  if (v < lo || v > hi)
    return std::string(field) + " = " + str(v) + " is not in [" + str(lo) +
           ", " + str(hi) + "]";
  return "";
}

/// Strict decimal integer: optional '-', digits, nothing else.
bool parseInt(std::string_view s, int64_t &out) {
  if (s.empty())
    return false;
  const char *begin = s.data();
  const char *end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(begin, end, out);
  return ec == std::errc() && ptr == end;
}

bool parseIntList(std::string_view s, std::vector<int64_t> &out) {
  out.clear();
  while (true) {
    size_t comma = s.find(',');
    int64_t v = 0;
    if (!parseInt(s.substr(0, comma), v) || out.size() >= 8)
      return false;
    out.push_back(v);
    if (comma == std::string_view::npos)
      return true;
    s = s.substr(comma + 1);
  }
}

std::vector<std::string_view> splitSpaces(std::string_view line) {
  std::vector<std::string_view> tokens;
  size_t i = 0;
  while (i < line.size()) {
    size_t j = line.find(' ', i);
    if (j == std::string_view::npos)
      j = line.size();
    tokens.push_back(line.substr(i, j - i));
    i = j + 1;
  }
  return tokens;
}

/// Reads `key=value` and returns value, or false.
bool keyValue(std::string_view token, std::string_view key,
              std::string_view &value) {
  if (token.size() <= key.size() || token.substr(0, key.size()) != key ||
      token[key.size()] != '=')
    return false;
  value = token.substr(key.size() + 1);
  return true;
}

std::string joinInts(const std::vector<int64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i)
      s += ',';
    s += str(v[i]);
  }
  return s;
}

struct LineReader {
  std::string_view text;
  size_t pos = 0;
  int lineNo = 0;

  /// The next line without its '\n'; false at the end of the text.
  bool next(std::string_view &line) {
    if (pos >= text.size())
      return false;
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos)
      nl = text.size();
    line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++lineNo;
    return true;
  }
};

Status lineError(int lineNo, const std::string &what) {
  return Status::invalidArgument("launch contract text, line " +
                                 std::to_string(lineNo) + ": " + what);
}

Status parseParam(std::string_view line, int lineNo, ContractParam &p) {
  std::vector<std::string_view> t = splitSpaces(line);
  if (t.size() < 2 || t[0] != "param")
    return lineError(lineNo, "expected 'param <kind> ...'");
  if (t[1] == "m") {
    if (t.size() != 2)
      return lineError(lineNo, "'param m' takes nothing more");
    p = ContractParam();
    p.kind = ParamKind::M;
    return Status::success();
  }
  std::string_view v;
  if (t[1] == "ptr") {
    if (t.size() != 3 || !keyValue(t[2], "operand", v) ||
        !parseInt(v, p.operand))
      return lineError(lineNo, "expected 'param ptr operand=<i>'");
    p.kind = ParamKind::Pointer;
    return Status::success();
  }
  if (t[1] == "workspace") {
    p = ContractParam();
    p.kind = ParamKind::Workspace;
    if (t.size() != 3 || !keyValue(t[2], "bytes", v) || !parseInt(v, p.bytes))
      return lineError(lineNo, "expected 'param workspace bytes=<n>'");
    return Status::success();
  }
  if (t[1] == "group_table") {
    p.kind = ParamKind::GroupTable;
    if (t.size() != 6 || !keyValue(t[2], "operand", v) ||
        !parseInt(v, p.operand) || !keyValue(t[3], "operand_b", v) ||
        !parseInt(v, p.operandB) || !keyValue(t[4], "swizzle", v) ||
        !parseInt(v, p.swizzle) || !keyValue(t[5], "box", v) ||
        !parseIntList(v, p.box))
      return lineError(lineNo, "expected 'param group_table operand=<i> "
                               "operand_b=<i> swizzle=<n> box=<n,n>'");
    p.dtype = "u8";
    return Status::success();
  }
  if (t[1] != "tensor_map")
    return lineError(lineNo, "unknown param kind '" + std::string(t[1]) + "'");
  p.kind = ParamKind::TensorMap;
  const char *form = "expected 'param tensor_map operand=<i> dtype=<s> "
                     "swizzle=<n> dims=<i,..> box=<n,..>'";
  if (t.size() != 7 || !keyValue(t[2], "operand", v) ||
      !parseInt(v, p.operand) || !keyValue(t[3], "dtype", v))
    return lineError(lineNo, form);
  p.dtype = std::string(v);
  if (!keyValue(t[4], "swizzle", v) || !parseInt(v, p.swizzle) ||
      !keyValue(t[5], "dims", v) || !parseIntList(v, p.dims) ||
      !keyValue(t[6], "box", v) || !parseIntList(v, p.box))
    return lineError(lineNo, form);
  return Status::success();
}

} // namespace

bool ContractParam::operator==(const ContractParam &o) const {
  return kind == o.kind && operand == o.operand && operandB == o.operandB &&
         bytes == o.bytes && dims == o.dims &&
         box == o.box && swizzle == o.swizzle && dtype == o.dtype;
}

bool LaunchContract::operator==(const LaunchContract &o) const {
  return kernelName == o.kernelName && block == o.block &&
         cluster == o.cluster && dynamicSmem == o.dynamicSmem &&
         maxCtas == o.maxCtas && blockM == o.blockM && blockN == o.blockN &&
         n == o.n && k == o.k && layout == o.layout && groups == o.groups &&
         tileCtas == o.tileCtas && maxM == o.maxM &&
         params == o.params;
}

std::string dgemm::runtime::checkContractParam(const ContractParam &p) {
  std::string where = std::string(kindName(p.kind)) + "): ";
  if (p.kind == ParamKind::M) {
    if (p.operand != -1 || !p.dims.empty() || !p.box.empty())
      return where + "takes no operand, dims or box";
    return "";
  }
  if (p.kind == ParamKind::Workspace) {
    if (p.operand != -1 || !p.dims.empty() || !p.box.empty())
      return where + "takes no operand, dims or box";
    std::string e = checkRange("bytes", p.bytes, 1, kMaxWorkspacePerCta);
    return e.empty() ? "" : where + e;
  }
  std::string e = checkRange("operand", p.operand, 0, kMaxOperands - 1);
  if (!e.empty())
    return where + e;
  if (p.kind == ParamKind::Pointer) {
    if (!p.dims.empty() || !p.box.empty())
      return where + "takes no dims or box";
    return "";
  }
  if (p.kind == ParamKind::GroupTable) {
    if ((e = checkRange("operand_b", p.operandB, 0, kMaxOperands - 1)) != "")
      return where + e;
    if (p.box.size() != 2 || !p.dims.empty())
      return where + "takes two box extents (rows of A's and B's boxes) and "
                     "no dims";
    for (int64_t b : p.box)
      if (b < 1 || b > 256)
        return where + "box extent " + str(b) + " is not in [1, 256]";
    if (p.swizzle != 128)
      return where + "swizzle must be 128 (boxes of 128 K bytes)";
    return "";
  }
  int64_t rank = static_cast<int64_t>(p.dims.size());
  if (rank < 1 || rank > kMaxTensorMapRank)
    return where + "rank " + str(rank) + " is not in [1, " +
           str(kMaxTensorMapRank) + "]";
  if (p.box.size() != p.dims.size())
    return where + "box has " + str(p.box.size()) + " entries for " +
           str(rank) + " dims";
  std::set<int64_t> seen;
  for (int64_t d : p.dims) {
    if (d < 0 || d > 3)
      return where + "dim index " + str(d) +
             " is not in [0, 3] (tensors have rank <= 4)";
    if (!seen.insert(d).second)
      return where + "dim index " + str(d) + " appears twice";
  }
  for (int64_t b : p.box)
    if (b < 1 || b > 256)
      return where + "box extent " + str(b) + " is not in [1, 256]";
  int64_t bytes = contractDtypeBytes(p.dtype);
  if (bytes == 0)
    return where + "dtype '" + p.dtype + "' is not u8, bf16 or f32";
  if (p.swizzle != 0 && p.swizzle != 32 && p.swizzle != 64 && p.swizzle != 128)
    return where + "swizzle " + str(p.swizzle) + " is not 0, 32, 64 or 128";
  int64_t innerBytes = p.box[0] * bytes;
  if (innerBytes % 16 != 0)
    return where + "the inner box extent is " + str(innerBytes) +
           " bytes, not a multiple of 16";
  if (p.swizzle != 0 && innerBytes > p.swizzle)
    return where + "the inner box extent of " + str(innerBytes) +
           " bytes exceeds the " + str(p.swizzle) + "-byte swizzle span";
  return "";
}

int64_t dgemm::runtime::contractDtypeBytes(std::string_view dtype) {
  if (dtype == "u8")
    return 1;
  if (dtype == "bf16")
    return 2;
  if (dtype == "f32")
    return 4;
  return 0;
}

std::string dgemm::runtime::checkContract(const LaunchContract &c) {
  if (!validSymbol(c.kernelName))
    return "kernel name '" + c.kernelName +
           "' is not a symbol (letters, digits, '_', '$', '.')";
  struct {
    const char *name;
    int64_t value, lo, hi;
  } fields[] = {
      {"block", c.block, 1, 1024},
      {"cluster", c.cluster, 1, kMaxClusterSize},
      {"dynamic_smem", c.dynamicSmem, 0, kMaxDynamicSmem},
      {"max_ctas", c.maxCtas, 1, 1 << 20},
      {"block_m", c.blockM, 1, 4096},
      {"block_n", c.blockN, 1, 4096},
      {"n", c.n, 0, 2147483647},
      {"k", c.k, 0, 2147483647},
      {"layout", c.layout, kLayoutNormal, kLayoutMax},
      {"groups", c.groups, 1, 1 << 20},
      {"tile_ctas", c.tileCtas, 1, kMaxClusterSize},
      {"max_m", c.maxM, 0, 2147483647},
  };
  for (auto &f : fields) {
    std::string e = checkRange(f.name, f.value, f.lo, f.hi);
    if (!e.empty())
      return e;
  }
  if (c.cluster % c.tileCtas != 0)
    return "tile_ctas " + str(c.tileCtas) + " does not divide cluster " +
           str(c.cluster) + " (a tile's CTAs are one cluster's)";
  if (c.params.size() > static_cast<size_t>(kMaxParams))
    return "more than " + str(kMaxParams) + " params";
  for (size_t i = 0; i < c.params.size(); ++i) {
    std::string e = checkContractParam(c.params[i]);
    if (!e.empty())
      return "param " + std::to_string(i) + " (" + e;
  }
  return "";
}

std::string dgemm::runtime::printContract(const LaunchContract &c) {
  std::string s = std::string(kHeader) + "\n";
  s += "kernel " + c.kernelName + "\n";
  s += "block " + str(c.block) + "\n";
  s += "cluster " + str(c.cluster) + "\n";
  s += "dynamic_smem " + str(c.dynamicSmem) + "\n";
  s += "max_ctas " + str(c.maxCtas) + "\n";
  s += "block_m " + str(c.blockM) + "\n";
  s += "block_n " + str(c.blockN) + "\n";
  s += "n " + str(c.n) + "\n";
  s += "k " + str(c.k) + "\n";
  s += "layout " + str(c.layout) + "\n";
  s += "groups " + str(c.groups) + "\n";
  s += "tile_ctas " + str(c.tileCtas) + "\n";
  s += "max_m " + str(c.maxM) + "\n";
  s += "params " + str(c.params.size()) + "\n";
  for (const ContractParam &p : c.params) {
    switch (p.kind) {
    case ParamKind::M:
      s += "param m\n";
      break;
    case ParamKind::Pointer:
      s += "param ptr operand=" + str(p.operand) + "\n";
      break;
    case ParamKind::Workspace:
      s += "param workspace bytes=" + str(p.bytes) + "\n";
      break;
    case ParamKind::GroupTable:
      s += "param group_table operand=" + str(p.operand) +
           " operand_b=" + str(p.operandB) + " swizzle=" + str(p.swizzle) +
           " box=" + joinInts(p.box) + "\n";
      break;
    case ParamKind::TensorMap:
      s += "param tensor_map operand=" + str(p.operand) + " dtype=" + p.dtype +
           " swizzle=" + str(p.swizzle) + " dims=" + joinInts(p.dims) +
           " box=" + joinInts(p.box) + "\n";
      break;
    }
  }
  s += "end\n";
  return s;
}

Status dgemm::runtime::parseContract(std::string_view text,
                                     LaunchContract &out) {
  LineReader r{text};
  std::string_view line;
  if (!r.next(line) || line != kHeader)
    return lineError(1, std::string("expected '") + kHeader + "'");

  LaunchContract c;
  if (!r.next(line) || line.substr(0, 7) != "kernel ")
    return lineError(r.lineNo, "expected 'kernel <name>'");
  c.kernelName = std::string(line.substr(7));

  for (const detail::ContractIntField &f : detail::contractIntFields(c)) {
    std::vector<std::string_view> t;
    if (r.next(line))
      t = splitSpaces(line);
    if (t.size() != 2 || t[0] != f.name || !parseInt(t[1], *f.value))
      return lineError(r.lineNo, std::string("expected '") + f.name + " <n>'");
  }

  int64_t count = 0;
  {
    std::vector<std::string_view> t;
    if (r.next(line))
      t = splitSpaces(line);
    if (t.size() != 2 || t[0] != "params" || !parseInt(t[1], count) ||
        count < 0 || count > kMaxParams)
      return lineError(r.lineNo,
                       "expected 'params <count>' with count in [0, " +
                           str(kMaxParams) + "]");
  }
  for (int64_t i = 0; i < count; ++i) {
    if (!r.next(line))
      return lineError(r.lineNo + 1, "missing param " + str(i));
    ContractParam p;
    Status s = parseParam(line, r.lineNo, p);
    if (!s.ok())
      return s;
    c.params.push_back(std::move(p));
  }
  if (!r.next(line) || line != "end")
    return lineError(r.lineNo, "expected 'end'");
  if (r.pos < text.size())
    return lineError(r.lineNo + 1, "unexpected text after 'end'");

  std::string why = checkContract(c);
  if (!why.empty())
    return Status::invalidArgument("launch contract text: " + why);
  c.markChecked();
  out = std::move(c);
  return Status::success();
}
