//===- DGEMMDialect.td - dgemm dialect definition ----------*- tablegen -*-===//
//
// The dgemm dialect states *what* to multiply: FP8 block-scaled GEMMs and the
// Mixture-of-Experts layouts, with scale recipes, the target and (once chosen)
// the kernel config as attributes.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_DIALECT_TD
#define DGEMM_DIALECT_TD

include "mlir/IR/OpBase.td"

def DGEMM_Dialect : Dialect {
  let name = "dgemm";
  let cppNamespace = "::mlir::dgemm";
  let summary = "FP8 block-scaled GEMMs for NVIDIA Hopper";
  let description = [{
    The `dgemm` dialect describes FP8 matrix multiplications with fine-grained
    (DeepSeek-V3 style) scaling: A scaled per row per 128 K-values (1x128), B
    per 128x128 block (or per row for the weight-gradient recipe), f32
    accumulation, bf16 or f32 output. Ops work on memrefs in destination-passing
    style; M is usually dynamic, N and K static. Passes attach a
    `#dgemm.config` chosen for a `#dgemm.target` and lower the ops to Hopper
    kernels (wgmma, TMA, mbarrier).
  }];
  let useDefaultAttributePrinterParser = 1;
  // The kernel-level ops use LLVM types (shared-memory pointers, fragment
  // structs): parsing one builds them, so the LLVM dialect must be loaded
  // with this one (else the parser dereferences an unregistered type).
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // DGEMM_DIALECT_TD
