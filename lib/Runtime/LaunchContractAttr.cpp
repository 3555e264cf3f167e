//===- LaunchContractAttr.cpp - The contract from its MLIR attribute ------===//
//
// Integers may be any IntegerAttr that fits 64 bits; integer lists an
// ArrayAttr of IntegerAttrs (what `[1, 0]` parses to, and what the lowering
// builds) or a dense i32/i64 array (`array<i64: 1, 0>`). `n`, `k` (the
// static sizes) and `kernel` are optional. Unknown keys are ignored so that
// a newer lowering can add fields an older runtime does not need.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/LaunchContractAttr.h"

#include "LaunchContractFields.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace dgemm::runtime;

namespace {

Status fieldError(const std::string &where, const std::string &what) {
  return Status::invalidArgument("dgemm.launch: " + where + ": " + what);
}

Status getInt(mlir::DictionaryAttr dict, const char *name,
              const std::string &where, int64_t &out) {
  mlir::Attribute a = dict.get(name);
  if (!a)
    return fieldError(where, std::string("missing '") + name + "'");
  auto i = mlir::dyn_cast<mlir::IntegerAttr>(a);
  if (!i || i.getValue().getSignificantBits() > 64)
    return fieldError(where,
                      std::string("'") + name + "' is not a 64-bit integer");
  out = i.getValue().getSExtValue();
  return Status::success();
}

Status getString(mlir::DictionaryAttr dict, const char *name,
                 const std::string &where, std::string &out) {
  mlir::Attribute a = dict.get(name);
  if (!a)
    return fieldError(where, std::string("missing '") + name + "'");
  auto s = mlir::dyn_cast<mlir::StringAttr>(a);
  if (!s)
    return fieldError(where, std::string("'") + name + "' is not a string");
  out = s.getValue().str();
  return Status::success();
}

Status getIntList(mlir::DictionaryAttr dict, const char *name,
                  const std::string &where, std::vector<int64_t> &out) {
  mlir::Attribute a = dict.get(name);
  if (!a)
    return fieldError(where, std::string("missing '") + name + "'");
  out.clear();
  if (auto dense = mlir::dyn_cast<mlir::DenseI64ArrayAttr>(a)) {
    out.assign(dense.asArrayRef().begin(), dense.asArrayRef().end());
    return Status::success();
  }
  if (auto dense = mlir::dyn_cast<mlir::DenseI32ArrayAttr>(a)) {
    out.assign(dense.asArrayRef().begin(), dense.asArrayRef().end());
    return Status::success();
  }
  auto array = mlir::dyn_cast<mlir::ArrayAttr>(a);
  if (!array)
    return fieldError(where,
                      std::string("'") + name + "' is not a list of integers");
  for (mlir::Attribute e : array) {
    auto i = mlir::dyn_cast<mlir::IntegerAttr>(e);
    if (!i || i.getValue().getSignificantBits() > 64)
      return fieldError(where,
                        std::string("'") + name + "' holds a non-integer");
    out.push_back(i.getValue().getSExtValue());
  }
  return Status::success();
}

Status readParam(mlir::Attribute a, size_t index, ContractParam &p) {
  std::string where = "params[" + std::to_string(index) + "]";
  auto dict = mlir::dyn_cast<mlir::DictionaryAttr>(a);
  if (!dict)
    return fieldError(where, "is not a dictionary");
  std::string kind;
  Status s = getString(dict, "kind", where, kind);
  if (!s.ok())
    return s;
  if (kind == "m") {
    p.kind = ParamKind::M;
    return Status::success();
  }
  if (kind == "ptr") {
    p.kind = ParamKind::Pointer;
    return getInt(dict, "operand", where, p.operand);
  }
  if (kind == "workspace") {
    p.kind = ParamKind::Workspace;
    return getInt(dict, "bytes", where, p.bytes);
  }
  if (kind == "group_table") {
    p.kind = ParamKind::GroupTable;
    p.dtype = "u8";
    if (!(s = getInt(dict, "operand", where, p.operand)).ok() ||
        !(s = getInt(dict, "operand_b", where, p.operandB)).ok() ||
        !(s = getIntList(dict, "box", where, p.box)).ok())
      return s;
    return getInt(dict, "swizzle", where, p.swizzle);
  }
  if (kind != "tensor_map")
    return fieldError(where, "unknown kind '" + kind + "'");
  p.kind = ParamKind::TensorMap;
  if (!(s = getInt(dict, "operand", where, p.operand)).ok() ||
      !(s = getIntList(dict, "dims", where, p.dims)).ok() ||
      !(s = getIntList(dict, "box", where, p.box)).ok() ||
      !(s = getInt(dict, "swizzle", where, p.swizzle)).ok())
    return s;
  return getString(dict, "dtype", where, p.dtype);
}

} // namespace

Status dgemm::runtime::contractFromAttr(mlir::DictionaryAttr attr,
                                        const std::string &kernelName,
                                        LaunchContract &out) {
  if (!attr)
    return Status::invalidArgument("dgemm.launch: not a dictionary");
  LaunchContract c;
  c.kernelName = kernelName;
  if (attr.get("kernel")) {
    Status s = getString(attr, "kernel", "the contract", c.kernelName);
    if (!s.ok())
      return s;
  }
  // n and k, the static sizes the kernel was compiled for, are optional.
  auto fields = detail::contractIntFields(c);
  for (size_t i = 0; i < fields.size(); ++i) {
    const detail::ContractIntField &f = fields[i];
    if (i >= detail::kRequiredContractIntFields && !attr.get(f.name))
      continue;
    Status s = getInt(attr, f.name, "the contract", *f.value);
    if (!s.ok())
      return s;
  }
  auto params = mlir::dyn_cast_or_null<mlir::ArrayAttr>(attr.get("params"));
  if (!params)
    return fieldError("the contract", "'params' is missing or not a list");
  for (size_t i = 0; i < params.size(); ++i) {
    ContractParam p;
    Status s = readParam(params[i], i, p);
    if (!s.ok())
      return s;
    c.params.push_back(std::move(p));
  }
  std::string why = checkContract(c);
  if (!why.empty())
    return Status::invalidArgument("dgemm.launch of " + c.kernelName + ": " +
                                   why);
  c.markChecked();
  out = std::move(c);
  return Status::success();
}
