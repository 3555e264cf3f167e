//===- embed-dgemm.cpp - an outside project embedding dgemm ---------------===//
//
// Registers the dgemm dialect in a context of its own, parses a dgemm.gemm,
// runs dgemm-select-config through a PassManager and prints the module.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Dialect/DGEMM/IR/DGEMM.h"
#include "dgemm/Dialect/DGEMM/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

static const char *kModule = R"mlir(
func.func @gemm_m256_n7168_k7168(%a: memref<256x7168xf8E4M3FN>,
    %sa: memref<256x56xf32, strided<[1, 256]>>, %b: memref<7168x7168xf8E4M3FN>,
    %sb: memref<56x56xf32>, %d: memref<256x7168xbf16>) {
  dgemm.gemm ins(%a, %sa, %b, %sb : memref<256x7168xf8E4M3FN>,
      memref<256x56xf32, strided<[1, 256]>>, memref<7168x7168xf8E4M3FN>,
      memref<56x56xf32>) outs(%d : memref<256x7168xbf16>)
  return
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::dgemm::DGEMMDialect, mlir::func::FuncDialect,
                  mlir::memref::MemRefDialect>();
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kModule, &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context);
  pm.addPass(mlir::dgemm::createDGEMMSelectConfig());
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}
