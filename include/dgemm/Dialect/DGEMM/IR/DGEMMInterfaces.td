//===- DGEMMInterfaces.td - dgemm op interfaces ------------*- tablegen -*-===//
//
// GemmOpInterface: what passes need of every dgemm GEMM op (its problem for
// config selection, its config and target attributes) without knowing which
// op it is.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_INTERFACES_TD
#define DGEMM_INTERFACES_TD

include "mlir/IR/OpBase.td"

def DGEMM_GemmOpInterface : OpInterface<"GemmOpInterface"> {
  let cppNamespace = "::mlir::dgemm";
  let description = [{
    A dgemm GEMM op: it describes one kernel's problem (layout, M or an M hint,
    N, K, groups, output type, scale recipe) and carries an optional
    `#dgemm.config` and `#dgemm.target`.
  }];
  let methods = [
    InterfaceMethod<[{
        The problem a config is chosen for. M is the static row count, else
        the op's `m_hint`, else `defaultM`.
      }], "::dgemm::ProblemDesc", "getProblem", (ins "int64_t":$defaultM)>,
    InterfaceMethod<"True when M is dynamic and no m_hint is given.",
      "bool", "needsMHint", (ins)>,
  ];
  let extraSharedClassDeclaration = [{
    ::mlir::dgemm::ConfigAttr getKernelConfig() {
      return $_op->template getAttrOfType<::mlir::dgemm::ConfigAttr>("config");
    }
    void setKernelConfig(::mlir::dgemm::ConfigAttr c) {
      $_op->setAttr("config", c);
    }
    /// The op's target, else the enclosing module's `dgemm.target`, else the
    /// default H100/H200 target.
    ::mlir::dgemm::TargetAttr getEffectiveTarget() {
      if (auto t = $_op->template getAttrOfType<::mlir::dgemm::TargetAttr>("target"))
        return t;
      for (::mlir::Operation *p = $_op->getParentOp(); p; p = p->getParentOp())
        if (auto t = p->template getAttrOfType<::mlir::dgemm::TargetAttr>("dgemm.target"))
          return t;
      return ::mlir::dgemm::TargetAttr::getDefault($_op->getContext());
    }
  }];
}

#endif // DGEMM_INTERFACES_TD
