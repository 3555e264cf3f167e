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
// The runtime runs the very same functions. On the command line the
// pipelines that select and lower take the two passes' options as nested
// strings, e.g. --dgemm-to-ptx="lower={full-rounds=on tile-order=m}
// select={max-block-m=128}"; a malformed one is an error, not a silent exit.
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

/// The select-and-lower half, its two passes given (with the options the
/// command line set, or their defaults): the one place that says which
/// passes it runs, for the runtime and for dgemm-opt alike.
static void addToKernelPasses(OpPassManager &pm, std::unique_ptr<Pass> select,
                              std::unique_ptr<Pass> lower) {
  pm.addPass(std::move(select));
  pm.addPass(std::move(lower));
}

void mlir::dgemm::buildDGEMMToKernelPipeline(OpPassManager &pm) {
  // The pass's option defaults are the lowering's capabilities
  // (::dgemm::kernelCapabilities()), which the runtime selects with too.
  addToKernelPasses(pm, createDGEMMSelectConfig(), createDGEMMLowerToKernel());
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

namespace {
/// The command-line options of the pipelines that select and lower: each
/// pass's own option string, handed to it unchanged.
struct SelectAndLowerOptions : PassPipelineOptions<SelectAndLowerOptions> {
  Option<std::string> select{
      *this, "select",
      llvm::cl::desc("dgemm-select-config's options, e.g. {max-block-m=128}"),
      llvm::cl::init("")};
  Option<std::string> lower{
      *this, "lower",
      llvm::cl::desc("dgemm-lower-to-kernel's options, e.g. "
                     "{full-rounds=on tile-order=m}"),
      llvm::cl::init("")};
};

using ErrorHandler = function_ref<LogicalResult(const Twine &)>;

/// The select-and-lower half with `options`' pass options, or the error.
LogicalResult buildToKernel(OpPassManager &pm, StringRef text,
                            ErrorHandler error) {
  SelectAndLowerOptions options;
  if (failed(options.parseFromString(text)))
    return error("cannot parse the pipeline's options '" + text +
                 "' (select={...} and lower={...} take the passes' own)");
  std::unique_ptr<Pass> select = mlir::dgemm::createDGEMMSelectConfig();
  if (failed(select->initializeOptions(options.select, error)))
    return failure();
  std::unique_ptr<Pass> lower = mlir::dgemm::createDGEMMLowerToKernel();
  if (failed(lower->initializeOptions(options.lower, error)))
    return failure();
  addToKernelPasses(pm, std::move(select), std::move(lower));
  return success();
}
} // namespace

void mlir::dgemm::registerDGEMMPipelines() {
  auto describe = [](function_ref<void(const mlir::detail::PassOptions &)> show) {
    show(SelectAndLowerOptions());
  };
  registerPassPipeline(
      "dgemm-to-kernel", "dgemm IR to kernel IR (configs chosen)",
      [](OpPassManager &pm, StringRef text, ErrorHandler error) {
        return buildToKernel(pm, text, error);
      },
      describe);
  registerPassPipeline(
      "dgemm-kernel-to-ptx", "kernel IR to gpu.binary holding sm_90a PTX",
      [](OpPassManager &pm, StringRef text, ErrorHandler error) {
        if (!text.trim().empty())
          return error("dgemm-kernel-to-ptx takes no options, got '" + text +
                       "'");
        buildKernelToPTXPipeline(pm);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)>) {});
  registerPassPipeline(
      "dgemm-to-ptx", "dgemm IR to sm_90a PTX (what the runtime runs)",
      [](OpPassManager &pm, StringRef text, ErrorHandler error) {
        if (failed(buildToKernel(pm, text, error)))
          return failure();
        buildKernelToPTXPipeline(pm);
        return success();
      },
      describe);
}
