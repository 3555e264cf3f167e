//===- Pipelines.cpp - dgemm-to-kernel, dgemm-kernel-to-ptx, dgemm-to-ptx --===//
//
// The one lowering pipeline, in two halves so that the kernel IR between
// them can be printed, edited and fed back:
//
//   dgemm-to-kernel      dgemm-select-config (its defaults: the lowering's
//                        capabilities, no multicast, block M up to 256)
//                        dgemm-lower-to-kernel
//   dgemm-kernel-to-ptx  gpu.module(convert-dgemm-to-nvvm, convert-scf-to-cf,
//                        convert-to-llvm, convert-nvvm-to-llvm, canonicalize,
//                        cse, reconcile-unrealized-casts),
//                        gpu-module-to-binary{format=isa}
//   dgemm-to-ptx         both
//
// The runtime runs the very same functions.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Conversion/Passes.h"

#include "dgemm/Dialect/DGEMM/Transforms/Passes.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::dgemm::buildDGEMMToKernelPipeline(OpPassManager &pm) {
  // The pass's option defaults are the lowering's capabilities
  // (::dgemm::kernelCapabilities()), which the runtime selects with too.
  pm.addPass(createDGEMMSelectConfig());
  pm.addPass(createDGEMMLowerToKernel());
}

void mlir::dgemm::buildKernelToPTXPipeline(OpPassManager &pm) {
  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  gpu.addPass(createConvertDGEMMToNVVM());
  gpu.addPass(createSCFToControlFlowPass());
  gpu.addPass(createConvertToLLVMPass());
  gpu.addPass(createConvertNVVMToLLVMPass());
  gpu.addPass(createCanonicalizerPass());
  gpu.addPass(createCSEPass());
  gpu.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::dgemm::buildDGEMMToPTXPipeline(OpPassManager &pm) {
  buildDGEMMToKernelPipeline(pm);
  buildKernelToPTXPipeline(pm);
}

void mlir::dgemm::registerDGEMMPipelines() {
  PassPipelineRegistration<>("dgemm-to-kernel",
                             "dgemm IR to kernel IR (configs chosen)",
                             buildDGEMMToKernelPipeline);
  PassPipelineRegistration<>("dgemm-kernel-to-ptx",
                             "kernel IR to gpu.binary holding sm_90a PTX",
                             buildKernelToPTXPipeline);
  PassPipelineRegistration<>("dgemm-to-ptx",
                             "dgemm IR to sm_90a PTX (what the runtime runs)",
                             buildDGEMMToPTXPipeline);
}
