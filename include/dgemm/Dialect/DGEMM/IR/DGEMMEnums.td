//===- DGEMMEnums.td - dgemm enumerations ------------------*- tablegen -*-===//
//
// Enumerations used by dgemm attributes: the grouped (MoE) layout, the
// operand a 2-CTA cluster multicasts, and scale granularities.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_ENUMS_TD
#define DGEMM_ENUMS_TD

include "mlir/IR/EnumAttr.td"

def DGEMM_GroupedLayout : I32EnumAttr<"GroupedLayout",
    "layout of an m-grouped GEMM", [
      I32EnumAttrCase<"Contiguous", 0, "contiguous">,
      I32EnumAttrCase<"Masked", 1, "masked">,
      I32EnumAttrCase<"ContiguousOffsets", 2, "contiguous_offsets">
    ]> {
  let cppNamespace = "::mlir::dgemm";
  let genSpecializedAttr = 0;
}

def DGEMM_MulticastOperand : I32EnumAttr<"MulticastOperand",
    "operand shared by the CTAs of a cluster through TMA multicast", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"A", 1, "a">,
      I32EnumAttrCase<"B", 2, "b">
    ]> {
  let cppNamespace = "::mlir::dgemm";
  let genSpecializedAttr = 0;
}

#endif // DGEMM_ENUMS_TD
