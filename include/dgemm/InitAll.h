//===- InitAll.h - register everything dgemm tools use ----------*- C++ -*-===//
//
// One place that lists the dialects, passes and LLVM IR translations dgemm's
// tools and runtime register: the dgemm dialect and passes, and the upstream
// pieces the lowering to PTX needs (gpu, nvgpu, nvvm, llvm, scf, cf, ... and
// gpu-module-to-binary with the NVVM target).
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_INITALL_H
#define DGEMM_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace dgemm {
/// Dialects, their external models and LLVM IR translations.
void registerAllDialects(mlir::DialectRegistry &registry);
/// dgemm passes and the upstream passes of the lowering pipeline.
void registerAllPasses();
} // namespace dgemm

#endif // DGEMM_INITALL_H
