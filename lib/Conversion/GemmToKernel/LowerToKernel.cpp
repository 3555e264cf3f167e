//===- LowerToKernel.cpp - the dgemm-lower-to-kernel pass ------------------===//
//
// Replaces every configured dgemm.gemm by a kernel in gpu.module
// @dgemm_kernels (built by buildGemmKernel) and drops host functions that
// are left with nothing to do. One kernel per distinct (N, K, config).
//
//===----------------------------------------------------------------------===//
#include "GemmKernel.h"

#include "dgemm/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::dgemm {
#define GEN_PASS_DEF_DGEMMLOWERTOKERNEL
#include "dgemm/Conversion/Passes.h.inc"
} // namespace mlir::dgemm

using namespace mlir;
using namespace mlir::dgemm;

static constexpr StringLiteral kKernelModule = "dgemm_kernels";
static constexpr StringLiteral kSmemSymbol = "dgemm_smem";

/// Why the lowering cannot take this op yet, or empty.
static std::string unsupported(GemmOp op, const ::dgemm::KernelConfig &c) {
  auto a = cast<MemRefType>(op.getA().getType());
  auto b = cast<MemRefType>(op.getB().getType());
  auto d = cast<MemRefType>(op.getD().getType());
  if (!isa<Float8E4M3FNType>(a.getElementType()) ||
      !isa<Float8E4M3FNType>(b.getElementType()))
    return "only f8E4M3FN operands are lowered so far";
  if (op.getRecipe().isPerRowB())
    return "only the 1x128 x 128x128 recipe is lowered so far";
  if (!d.getElementType().isBF16() || op.getC())
    return "only a bf16 output without an accumulate input is lowered so far";
  if (c.multicast == ::dgemm::Multicast::B)
    return "multicast of B is not lowered yet; choose multicast = a or none";
  if (c.blockM != 64 && c.blockM != 128)
    return "block_m 256 is not lowered yet (dgemm-select-config{max-block-m=128})";
  return "";
}

static std::string kernelName(const KernelLayout &l) {
  return "dgemm_gemm_n" + std::to_string(l.n) + "_k" + std::to_string(l.k) +
         "_bm" + std::to_string(l.blockM) + "_bn" + std::to_string(l.blockN) +
         "_s" + std::to_string(l.stages) + "_g" +
         std::to_string(l.swizzleGroup) + "_c" + std::to_string(l.maxCtas) +
         (l.cluster > 1 ? "_mca" : "") +
         (l.nParts > 1 ? "_p" + std::to_string(l.nParts) : "");
}

/// The module's kernel container, created on first use with the sm_90a
/// target and the dynamic shared memory symbol.
static gpu::GPUModuleOp getKernelModule(ModuleOp module) {
  if (auto existing = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModule))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  MLIRContext *ctx = module.getContext();
  // PTX 8.6: older PTX features make the NVPTX backend abort on sm_90a.
  auto target = NVVM::NVVMTargetAttr::get(ctx, /*optLevel=*/3,
                                          "nvptx64-nvidia-cuda", "sm_90a",
                                          "+ptx86");
  auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), kKernelModule,
                                            b.getArrayAttr({target}));
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  b.getUnitAttr());
  b.setInsertionPointToStart(gpuModule.getBody());
  LLVM::GlobalOp::create(b, module.getLoc(),
                         LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                         /*isConstant=*/false, LLVM::Linkage::External,
                         kSmemSymbol, Attribute(), /*alignment=*/1024,
                         /*addrSpace=*/3);
  return gpuModule;
}

namespace {
struct LowerToKernelPass
    : public mlir::dgemm::impl::DGEMMLowerToKernelBase<LowerToKernelPass> {
  using Base::Base;
  void runOnOperation() override {
    if (wgmmaParts < 1 || wgmmaParts > 8) {
      getOperation().emitError()
          << "wgmma-parts must be in [1, 8], got "
          << static_cast<int64_t>(wgmmaParts);
      return signalPassFailure();
    }
    ModuleOp module = getOperation();
    SmallVector<GemmOp> gemms;
    module.walk([&](GemmOp op) { gemms.push_back(op); });
    bool failedAny = false;
    for (GemmOp op : gemms) {
      ConfigAttr attr = op.getKernelConfig();
      if (!attr) {
        op.emitOpError() << "has no #dgemm.config: run dgemm-select-config "
                            "before dgemm-lower-to-kernel";
        failedAny = true;
        continue;
      }
      ::dgemm::KernelConfig config = toKernelConfig(attr);
      std::string why = unsupported(op, config);
      if (!why.empty()) {
        op.emitOpError() << "cannot be lowered: " << why;
        failedAny = true;
        continue;
      }
      ::dgemm::ProblemDesc p = op.getProblem(/*defaultM=*/1);
      KernelLayout layout = KernelLayout::get(config, p.n, p.k, wgmmaParts);
      gpu::GPUModuleOp kernels = getKernelModule(module);
      std::string name = kernelName(layout);
      if (!kernels.lookupSymbol(name)) {
        OpBuilder b = OpBuilder::atBlockEnd(kernels.getBody());
        buildGemmKernel(b, op.getLoc(), name, layout, kSmemSymbol);
      }
      func::FuncOp host = op->getParentOfType<func::FuncOp>();
      op.erase();
      // A host function left with only its return has nothing to launch
      // from IR: the runtime launches the kernel by its contract.
      if (host && host.getBody().hasOneBlock() &&
          llvm::hasSingleElement(host.getBody().front()))
        host.erase();
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
