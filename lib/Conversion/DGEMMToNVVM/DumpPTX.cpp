//===- DumpPTX.cpp - the dgemm-dump-ptx pass -------------------------------===//
//
// Writes the PTX in each gpu.binary (format=isa) to <dir>/<name>.ptx, where
// the ptxas checks of the test suite pick it up.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Conversion/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::dgemm {
#define GEN_PASS_DEF_DGEMMDUMPPTX
#include "dgemm/Conversion/Passes.h.inc"
} // namespace mlir::dgemm

using namespace mlir;

namespace {
struct DumpPTXPass
    : public mlir::dgemm::impl::DGEMMDumpPTXBase<DumpPTXPass> {
  using Base::Base;
  void runOnOperation() override {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      getOperation().emitError() << "cannot create '" << dir
                                 << "': " << ec.message();
      return signalPassFailure();
    }
    getOperation().walk([&](gpu::BinaryOp binary) {
      for (Attribute a : binary.getObjects()) {
        auto object = dyn_cast<gpu::ObjectAttr>(a);
        if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
          continue;
        llvm::SmallString<256> path(dir.getValue());
        llvm::sys::path::append(path, binary.getName() + ".ptx");
        std::error_code ec;
        llvm::raw_fd_ostream os(path, ec);
        if (ec) {
          binary.emitError() << "cannot write '" << path
                             << "': " << ec.message();
          return signalPassFailure();
        }
        os << object.getObject().getValue();
      }
    });
  }
};
} // namespace
