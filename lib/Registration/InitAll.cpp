//===- InitAll.cpp - register everything dgemm tools use -------------------===//
//
// Registers the dgemm dialect and passes and only the upstream dialects,
// passes and translations the lowering needs (not mlir/InitAll*.h: that
// links every dialect of MLIR and costs build time and bundle size).
//
//===----------------------------------------------------------------------===//
#include "dgemm/InitAll.h"

#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"
#include "dgemm/Conversion/Passes.h"
#include "dgemm/Dialect/DGEMM/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

void dgemm::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::dgemm::DGEMMDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::gpu::GPUDialect, mlir::index::IndexDialect,
                  mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect,
                  mlir::memref::MemRefDialect, mlir::nvgpu::NVGPUDialect,
                  mlir::scf::SCFDialect, mlir::vector::VectorDialect>();
  // gpu-module-to-binary: the NVVM target and the translations to LLVM IR.
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  mlir::registerGPUDialectTranslation(registry);
  // ConvertToLLVM interfaces used by convert-nvvm-to-llvm and friends.
  mlir::registerConvertNVVMToLLVMInterface(registry);
  mlir::arith::registerConvertArithToLLVMInterface(registry);
  mlir::cf::registerConvertControlFlowToLLVMInterface(registry);
  mlir::registerConvertFuncToLLVMInterface(registry);
  mlir::index::registerConvertIndexToLLVMInterface(registry);
  mlir::registerConvertMemRefToLLVMInterface(registry);
}

void dgemm::registerAllPasses() {
  mlir::dgemm::registerDGEMMPasses();
  mlir::dgemm::registerDGEMMConversionPasses();
  mlir::dgemm::registerDGEMMPipelines();
  mlir::registerPass([] { return mlir::createConvertToLLVMPass(); });
  // Upstream passes of the lowering pipeline.
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
  mlir::registerGPUPasses();
  mlir::memref::registerExpandStridedMetadataPass();
  mlir::registerPass([] { return mlir::createConvertNVGPUToNVVMPass(); });
  mlir::registerPass([] { return mlir::createSCFToControlFlowPass(); });
  mlir::registerPass([] { return mlir::createConvertGpuOpsToNVVMOps(); });
  mlir::registerPass([] { return mlir::createConvertNVVMToLLVMPass(); });
  mlir::registerPass(
      [] { return mlir::createReconcileUnrealizedCastsPass(); });
  mlir::registerPass([] { return mlir::createArithToLLVMConversionPass(); });
  mlir::registerPass([] { return mlir::createConvertFuncToLLVMPass(); });
  mlir::registerPass(
      [] { return mlir::createConvertControlFlowToLLVMPass(); });
  mlir::registerPass(
      [] { return mlir::createFinalizeMemRefToLLVMConversionPass(); });
  mlir::registerPass([] { return mlir::createConvertIndexToLLVMPass(); });
}
