//===- Compiler.cpp - In-process compilation of dgemm kernels -------------===//
//
// One-time setup (NVPTX target, dialect registry, passes and pipelines, the
// fatal error handler), then per job: a fresh single-threaded MLIRContext,
// the module parsed from text, the pipeline parsed from its textual form, a
// pass instrumentation that reads `dgemm.launch` before gpu-module-to-binary,
// and a diagnostic handler collecting messages for the error text.
//
// Fatal errors: LLVM calls the installed handler and then exit()s or
// abort()s. The handler runs on the failing thread; when that thread is
// inside a dgemm compile (a thread-local pointer says so) it records the
// reason and leaves through CrashRecoveryContext::HandleExit, which unwinds
// to RunSafely (LLVM's own, sanctioned, setjmp/longjmp). Objects of the
// abandoned job leak. Crash recovery (its signal handlers) is enabled only
// while at least one compile runs. MLIR multithreading stays off so that
// every pass runs on the thread that owns the recovery context.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/Compiler.h"

#include "dgemm/Support/NestingDepth.h"

#include "dgemm/InitAll.h"
#include "dgemm/Runtime/GemmModule.h"
#include "dgemm/Runtime/IRDump.h"
#include "dgemm/Runtime/JitEnv.h"
#include "dgemm/Runtime/LaunchContractAttr.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

#include <mutex>

using namespace dgemm::runtime;

namespace {

//===----------------------------------------------------------------------===//
// One-time setup and fatal errors
//===----------------------------------------------------------------------===//

/// Where the current thread's compile wants a fatal error's reason; null
/// outside a compile.
thread_local std::string *tlsFatalReason = nullptr;

void onFatalError(void *, const char *reason, bool) {
  if (tlsFatalReason) {
    *tlsFatalReason = reason ? reason : "unknown reason";
    if (llvm::CrashRecoveryContext *crc =
            llvm::CrashRecoveryContext::GetCurrent())
      crc->HandleExit(1);
  }
  // Not in a compile: report as LLVM would; LLVM then ends the process.
  std::string text =
      std::string("LLVM ERROR: ") + (reason ? reason : "") + "\n";
  ssize_t ignored = ::write(2, text.data(), text.size());
  (void)ignored;
}

const mlir::DialectRegistry &registry() {
  static mlir::DialectRegistry *reg = [] {
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    dgemm::registerAllPasses();
    llvm::install_fatal_error_handler(onFatalError, nullptr);
    auto *r = new mlir::DialectRegistry();
    dgemm::registerAllDialects(*r);
    return r;
  }();
  return *reg;
}

/// Crash recovery on while any compile runs (it installs signal handlers).
class CrashRecoveryScope {
public:
  CrashRecoveryScope() {
    std::lock_guard<std::mutex> lock(mutex());
    ++count();
    // Idempotent; re-enables after LLVM disabled it for a signal elsewhere.
    llvm::CrashRecoveryContext::Enable();
  }
  ~CrashRecoveryScope() {
    std::lock_guard<std::mutex> lock(mutex());
    if (--count() == 0)
      llvm::CrashRecoveryContext::Disable();
  }

private:
  static std::mutex &mutex() {
    static std::mutex m;
    return m;
  }
  static int &count() {
    static int c = 0;
    return c;
  }
};

/// Routes fatal errors of this thread into `reason` while alive.
class FatalReasonScope {
public:
  explicit FatalReasonScope(std::string *reason) : previous_(tlsFatalReason) {
    tlsFatalReason = reason;
  }
  ~FatalReasonScope() { tlsFatalReason = previous_; }

private:
  std::string *previous_;
};

//===----------------------------------------------------------------------===//
// The contract and the PTX
//===----------------------------------------------------------------------===//

struct FoundContract {
  std::string kernel;
  Status status;
  LaunchContract contract;
};

/// Every op carrying `dgemm.launch`, read into contracts.
std::vector<FoundContract> findContracts(mlir::Operation *root) {
  std::vector<FoundContract> found;
  root->walk([&](mlir::Operation *op) {
    mlir::Attribute attr = op->getAttr(kLaunchAttrName);
    if (!attr)
      return;
    FoundContract f;
    if (auto name = op->getAttrOfType<mlir::StringAttr>(
            mlir::SymbolTable::getSymbolAttrName()))
      f.kernel = name.getValue().str();
    auto dict = mlir::dyn_cast<mlir::DictionaryAttr>(attr);
    if (!dict)
      f.status = Status::invalidArgument("dgemm.launch on " + f.kernel +
                                         " is not a dictionary");
    else
      f.status = contractFromAttr(dict, f.kernel, f.contract);
    found.push_back(std::move(f));
  });
  return found;
}

/// Reads the contracts just before gpu-module-to-binary replaces the
/// kernels by a binary.
class ContractCapture : public mlir::PassInstrumentation {
public:
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override {
    if (pass->getArgument() != "gpu-module-to-binary")
      return;
    found = findContracts(op);
    captured = true;
  }
  bool captured = false;
  std::vector<FoundContract> found;
};

/// The largest N of the "+ptxN" features in a comma-separated list.
int ptxFeature(llvm::StringRef features) {
  int best = 0;
  llvm::SmallVector<llvm::StringRef> parts;
  features.split(parts, ',');
  for (llvm::StringRef p : parts) {
    p = p.trim();
    int v = 0;
    if (p.consume_front("+ptx") && !p.getAsInteger(10, v))
      best = std::max(best, v);
  }
  return best;
}

/// Empty unless an sm_9x NVVM target asks for a PTX version below 8.0, which
/// makes the NVPTX backend end the process ("PTX version 6.0 does not support
/// target 'sm_90a'"). Without a +ptx feature LLVM 22 picks 8.0 itself.
std::string checkNVVMTargets(mlir::ModuleOp module) {
  std::string error;
  module.walk([&](mlir::gpu::GPUModuleOp gpuModule) {
    mlir::ArrayAttr targets = gpuModule.getTargetsAttr();
    if (!targets || !error.empty())
      return;
    for (mlir::Attribute a : targets) {
      auto t = mlir::dyn_cast<mlir::NVVM::NVVMTargetAttr>(a);
      if (!t || !t.getChip().starts_with("sm_9"))
        continue;
      int ptx = ptxFeature(t.getFeatures());
      if (ptx != 0 && ptx < 80)
        error = "gpu.module @" + gpuModule.getName().str() + " targets " +
                t.getChip().str() + " with features \"" +
                t.getFeatures().str() +
                "\": sm_90a needs PTX 8.0 or newer (+ptx80; dgemm uses "
                "+ptx86); the NVPTX backend would reject this target";
    }
  });
  return error;
}

//===----------------------------------------------------------------------===//
// One compile job
//===----------------------------------------------------------------------===//

Status compileError(const std::string &what, const std::string &message) {
  return Status::error(DGEMM_ERROR_COMPILE,
                       "cannot compile " + what + ": " + message);
}

/// Parse, run, collect. Runs inside the crash recovery context.
Status runJob(std::string_view text, const std::string &pipeline,
              const std::string &what, const CompileOptions &options,
              CompiledKernel &out, IRDump *dump) {
  if (dump)
    dump->add("0-input.mlir", std::string(text));
  mlir::MLIRContext ctx(registry(), mlir::MLIRContext::Threading::DISABLED);
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  // "file:line:col" for file locations, MLIR's form for others.
  auto where = [](mlir::Location loc) {
    std::string text;
    llvm::raw_string_ostream w(text);
    if (auto file = loc->findInstanceOf<mlir::FileLineColLoc>())
      w << file.getFilename().getValue() << ":" << file.getLine() << ":"
        << file.getColumn();
    else
      w << loc;
    return text;
  };
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    if (d.getSeverity() != mlir::DiagnosticSeverity::Error &&
        d.getSeverity() != mlir::DiagnosticSeverity::Warning)
      return mlir::success();
    if (!diagnostics.empty())
      os << "\n";
    os << where(d.getLocation()) << ": "
       << (d.getSeverity() == mlir::DiagnosticSeverity::Error ? "error"
                                                              : "warning")
       << ": " << d;
    for (const mlir::Diagnostic &note : d.getNotes())
      os << "\n" << where(note.getLocation()) << ": note: " << note;
    return mlir::success();
  });

  if (int depth = dgemm::maxNesting(llvm::StringRef(text.data(), text.size()));
      depth > dgemm::kMaxNesting)
    return compileError(what, "the module's brackets nest " +
                                  std::to_string(depth) +
                                  " levels deep, more than the " +
                                  std::to_string(dgemm::kMaxNesting) +
                                  " dgemm parses");
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(
          llvm::StringRef(text.data(), text.size()), mlir::ParserConfig(&ctx),
          "input.mlir");
  if (!module)
    return compileError(what, "the module does not parse:\n" + diagnostics);
  if (options.checkTargets) {
    std::string bad = checkNVVMTargets(*module);
    if (!bad.empty())
      return compileError(what, bad);
  }

  mlir::PassManager pm(&ctx);
  std::string pipelineErrors;
  llvm::raw_string_ostream perr(pipelineErrors);
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm, perr)))
    return compileError(what, "the pass pipeline '" + pipeline +
                                  "' is not available: " + pipelineErrors);
  auto capture = std::make_unique<ContractCapture>();
  ContractCapture *captured = capture.get();
  pm.addInstrumentation(std::move(capture));
  if (dump)
    pm.addInstrumentation(dump->instrumentation());
  if (mlir::failed(pm.run(*module)))
    return compileError(what,
                        "pipeline '" + pipeline + "' failed:\n" + diagnostics);

  if (options.outputIR) {
    options.outputIR->clear();
    llvm::raw_string_ostream irStream(*options.outputIR);
    module->print(irStream);
  }

  CompiledKernel result;
  if (options.needPtx) {
    int binaries = 0;
    module->walk([&](mlir::gpu::BinaryOp binary) {
      ++binaries;
      for (mlir::Attribute a : binary.getObjects()) {
        auto object = mlir::dyn_cast<mlir::gpu::ObjectAttr>(a);
        if (object &&
            object.getFormat() == mlir::gpu::CompilationTarget::Assembly)
          result.ptx += object.getObject().getValue().str();
      }
    });
    if (dump)
      dump->add("5-ptx.ptx", result.ptx);
    if (result.ptx.empty())
      return compileError(what, "pipeline '" + pipeline +
                                    "' produced no gpu.binary holding PTX "
                                    "(gpu-module-to-binary{format=isa})");
    if (options.needContract && binaries != 1)
      return compileError(what, "expected one gpu.binary, got " +
                                    std::to_string(binaries));
  }

  if (options.needContract) {
    std::vector<FoundContract> found =
        captured->captured ? std::move(captured->found)
                           : findContracts(module->getOperation());
    if (found.empty())
      return compileError(what, "no kernel carries a dgemm.launch attribute "
                                "(docs/launch-contract.md)");
    if (found.size() > 1)
      return compileError(what, std::to_string(found.size()) +
                                    " kernels carry dgemm.launch; the "
                                    "runtime launches one kernel per module");
    if (!found[0].status.ok())
      return compileError(what, found[0].status.message());
    result.contract = std::move(found[0].contract);
    if (options.needPtx &&
        result.ptx.find(".entry " + result.contract.kernelName) ==
            std::string::npos)
      return compileError(what, "the PTX has no kernel entry named " +
                                    result.contract.kernelName);
  }
  out = std::move(result);
  return Status::success();
}

} // namespace

std::string dgemm::runtime::llvmVersion() { return LLVM_VERSION_STRING; }

bool dgemm::runtime::isPipelineRegistered(const std::string &name) {
  (void)registry();
  return mlir::PassPipelineInfo::lookup(name) != nullptr;
}

GemmKernelKey dgemm::runtime::makeGemmKernelKey(int64_t n, int64_t k,
                                                const KernelConfig &config,
                                                const TargetDesc &target) {
  GemmKernelKey key;
  key.n = n;
  key.k = k;
  key.config = config;
  key.target = target;
  key.pipeline = kGemmPipeline;
  key.dgemmVersion = dgemmBuildId();
  key.llvmVersion = llvmVersion();
  return key;
}

Status dgemm::runtime::compileModule(std::string_view moduleText,
                                     const std::string &pipeline,
                                     const std::string &what,
                                     const CompileOptions &options,
                                     CompiledKernel &out) {
  (void)registry();
  IRDump dump(options.dumpIRDir ? *options.dumpIRDir
                                : JitSettings::get().dumpIRDir);
  Status status;
  std::string fatalReason;
  bool finished;
  {
    CrashRecoveryScope recovery;
    FatalReasonScope reason(&fatalReason);
    llvm::CrashRecoveryContext crc;
    finished = crc.RunSafely(
        [&] {
          status = runJob(moduleText, pipeline, what, options, out,
                          dump.enabled() ? &dump : nullptr);
        });
    if (!finished)
      status = compileError(what, fatalReason.empty()
                                      ? "the compiler crashed (exit code " +
                                            std::to_string(crc.RetCode) + ")"
                                      : "LLVM fatal error: " + fatalReason);
  }
  (void)dump.write(what, status.ok() ? out.contract.kernelName : "", status);
  return status;
}

Status dgemm::runtime::compileGemm(const GemmKernelKey &key,
                                   CompiledKernel &out) {
  return compileModule(gemmModuleText(key), key.pipeline, key.text(),
                       CompileOptions(), out);
}

Status dgemm::runtime::compileKernelIR(std::string_view kernelIR,
                                       CompiledKernel &out) {
  std::string what = "kernel IR (" + std::to_string(kernelIR.size()) +
                     " bytes, fnv1a64 " + hex64(fnv1a64(kernelIR)) + ")";
  return compileModule(kernelIR, kKernelIRPipeline, what, CompileOptions(),
                       out);
}

Status dgemm::runtime::compileToPtx(std::string_view dgemmIR,
                                    std::string &ptx) {
  CompileOptions options;
  options.needContract = false;
  CompiledKernel k;
  Status s = compileModule(dgemmIR, kGemmPipeline, "dgemm IR", options, k);
  if (s.ok())
    ptx = std::move(k.ptx);
  return s;
}
