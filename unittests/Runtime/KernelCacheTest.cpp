//===- KernelCacheTest.cpp - Compiled kernels in memory and on disk -------===//
//
// The cache with a fake compile callback: compile once, then memory; a new
// cache over the same directory loads from disk; corrupt, truncated or
// foreign entries are recompiled and overwritten; temporary files never
// remain; an unusable directory means memory-only caching without an error;
// compile errors are not cached; concurrent callers share one compile (many
// threads, many keys, several caches over one directory); forked processes
// compiling and rewriting one entry at once never read a partial or mixed
// entry; a key differing in config, target, pipeline or compiler version
// misses; DGEMM_LOG's cache messages.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/KernelCache.h"

#include "dgemm/Runtime/JitEnv.h"
#include "dgemm/Runtime/KernelKey.h"

#include "FileTestHelpers.h"

#include "gtest/gtest.h"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

using namespace dgemm::runtime;
using namespace dgemm::test;

namespace {


void writeAll(const std::string &path, const std::string &data) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << data;
}

LaunchContract contract(const std::string &name) {
  LaunchContract c;
  c.kernelName = name;
  c.block = 384;
  c.cluster = 1;
  c.dynamicSmem = 1024;
  c.maxCtas = 132;
  c.blockM = 128;
  c.blockN = 128;
  ContractParam m;
  c.params = {m};
  return c;
}

/// A compile callback that counts its calls.
struct FakeCompiler {
  std::atomic<int> calls{0};
  std::string ptx = "// PTX\n.entry kernel_a()\n{\n}\n";

  KernelCache::CompileFn fn() {
    return [this](CompiledKernel &out) {
      ++calls;
      out.ptx = ptx;
      out.contract = contract("kernel_a");
      return Status::success();
    };
  }
};

const std::string kKey = "gemm_fp8_bf16_nt n=256 k=512 config=test";

TEST(KernelCache, CompilesOnceThenServesFromMemory) {
  TempDir dir("dgemm-cache-test");
  KernelCache cache(dir.path() + "/sub/dir");
  FakeCompiler compiler;
  std::shared_ptr<const CompiledKernel> k;
  CacheSource source;
  ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k, &source).ok());
  EXPECT_EQ(source, CacheSource::Compiled);
  EXPECT_EQ(k->keyText, kKey);
  EXPECT_EQ(k->ptx, compiler.ptx);
  EXPECT_EQ(k->contract, contract("kernel_a"));
  std::shared_ptr<const CompiledKernel> again;
  ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), again, &source).ok());
  EXPECT_EQ(source, CacheSource::Memory);
  EXPECT_EQ(again.get(), k.get());
  EXPECT_EQ(compiler.calls, 1);

  // Exactly the two entry files, no temporaries.
  std::string hash = hex64(fnv1a64(kKey));
  EXPECT_EQ(listDir(dir.path() + "/sub/dir"),
            (std::vector<std::string>{hash + ".contract", hash + ".ptx"}));
  EXPECT_EQ(readAll(cache.entryPath(kKey, ".ptx")), compiler.ptx);
  EXPECT_EQ(readAll(cache.entryPath(kKey, ".contract")), printCacheEntry(*k));
}

TEST(KernelCache, NewCacheLoadsFromDisk) {
  TempDir dir("dgemm-cache-test");
  FakeCompiler compiler;
  std::shared_ptr<const CompiledKernel> first, second;
  {
    KernelCache cache(dir.path());
    ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), first).ok());
  }
  KernelCache cache(dir.path());
  CacheSource source;
  ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), second, &source).ok());
  EXPECT_EQ(source, CacheSource::Disk);
  EXPECT_EQ(compiler.calls, 1);
  EXPECT_EQ(second->ptx, first->ptx);
  EXPECT_EQ(second->contract, first->contract);
  EXPECT_EQ(second->keyText, kKey);
}

/// Damages the disk entry of kKey with `damage`, then expects a fresh cache
/// to recompile, overwrite, and a third cache to load the repaired entry.
void expectRecompiled(void (*damage)(const KernelCache &)) {
  TempDir dir("dgemm-cache-test");
  FakeCompiler compiler;
  std::shared_ptr<const CompiledKernel> k;
  {
    KernelCache cache(dir.path());
    ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k).ok());
    damage(cache);
    CompiledKernel unused;
    EXPECT_FALSE(cache.readEntry(kKey, unused).ok());
  }
  CacheSource source;
  {
    KernelCache cache(dir.path());
    ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k, &source).ok());
    EXPECT_EQ(source, CacheSource::Compiled);
    EXPECT_EQ(compiler.calls, 2);
    EXPECT_EQ(k->ptx, compiler.ptx);
  }
  KernelCache cache(dir.path());
  ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k, &source).ok());
  EXPECT_EQ(source, CacheSource::Disk);
  EXPECT_EQ(compiler.calls, 2);
  std::string hash = hex64(fnv1a64(kKey));
  EXPECT_EQ(listDir(dir.path()),
            (std::vector<std::string>{hash + ".contract", hash + ".ptx"}));
}

TEST(KernelCache, GarbageContractIsRecompiled) {
  expectRecompiled([](const KernelCache &c) {
    writeAll(c.entryPath(kKey, ".contract"), "\x01\x02garbage\n\xff");
  });
}

TEST(KernelCache, TruncatedContractIsRecompiled) {
  expectRecompiled([](const KernelCache &c) {
    std::string path = c.entryPath(kKey, ".contract");
    std::string text = readAll(path);
    writeAll(path, text.substr(0, text.size() - 5));
  });
}

TEST(KernelCache, EmptyContractIsRecompiled) {
  expectRecompiled([](const KernelCache &c) {
    writeAll(c.entryPath(kKey, ".contract"), "");
  });
}

TEST(KernelCache, ChangedPtxIsRecompiled) {
  expectRecompiled([](const KernelCache &c) {
    std::string path = c.entryPath(kKey, ".ptx");
    std::string ptx = readAll(path);
    ptx[3] ^= 1;
    writeAll(path, ptx);
  });
}

TEST(KernelCache, TruncatedPtxIsRecompiled) {
  expectRecompiled([](const KernelCache &c) {
    std::string path = c.entryPath(kKey, ".ptx");
    writeAll(path, readAll(path).substr(0, 4));
  });
}

TEST(KernelCache, MissingPtxIsRecompiled) {
  expectRecompiled(
      [](const KernelCache &c) { unlink(c.entryPath(kKey, ".ptx").c_str()); });
}

TEST(KernelCache, EntryOfAnotherKeyIsRecompiled) {
  expectRecompiled([](const KernelCache &c) {
    std::string path = c.entryPath(kKey, ".contract");
    std::string text = readAll(path);
    size_t at = text.find(kKey);
    text.replace(at, kKey.size(), "gemm_fp8_bf16_nt n=256 k=1024 config=test");
    writeAll(path, text);
  });
}

TEST(KernelCache, ContractWithBadValuesIsRecompiled) {
  expectRecompiled([](const KernelCache &c) {
    std::string path = c.entryPath(kKey, ".contract");
    std::string text = readAll(path);
    size_t at = text.find("block 384");
    text.replace(at, 9, "block 0");
    writeAll(path, text);
  });
}

TEST(KernelCache, EntryParserMessages) {
  CompiledKernel k;
  k.keyText = kKey;
  k.ptx = "ptx";
  k.contract = contract("kernel_a");
  std::string text = printCacheEntry(k);
  CompiledKernel out;
  ASSERT_TRUE(parseCacheEntry(text, "ptx", out).ok());
  EXPECT_EQ(out.keyText, kKey);
  EXPECT_EQ(parseCacheEntry(text, "ptx!", out).message(),
            "corrupt cache entry: the PTX has 4 bytes, the entry says 3");
  EXPECT_EQ(parseCacheEntry(text, "PTX", out).message(),
            "corrupt cache entry: the PTX's hash does not match");
  EXPECT_EQ(parseCacheEntry("dgemm-cache-entry 2\n", "ptx", out).message(),
            "corrupt cache entry: expected 'dgemm-cache-entry 1'");
}

TEST(KernelCache, UnwritableDirectoryMeansMemoryOnly) {
  TempDir dir("dgemm-cache-test");
  // A regular file where a directory should be: mkdir fails even for root.
  writeAll(dir.path() + "/file", "x");
  KernelCache cache(dir.path() + "/file/cache");
  FakeCompiler compiler;
  std::shared_ptr<const CompiledKernel> k;
  CacheSource source;
  ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k, &source).ok());
  EXPECT_EQ(source, CacheSource::Compiled);
  ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k, &source).ok());
  EXPECT_EQ(source, CacheSource::Memory);
  EXPECT_EQ(compiler.calls, 1);
  EXPECT_FALSE(cache.writeEntry(*k));
  EXPECT_EQ(listDir(dir.path()), (std::vector<std::string>{"file"}));
}

TEST(KernelCache, NoDirectoryMeansMemoryOnly) {
  KernelCache cache("");
  FakeCompiler compiler;
  std::shared_ptr<const CompiledKernel> k;
  CacheSource source;
  ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k, &source).ok());
  EXPECT_EQ(source, CacheSource::Compiled);
  cache.clearMemory();
  ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k, &source).ok());
  EXPECT_EQ(source, CacheSource::Compiled);
  EXPECT_EQ(compiler.calls, 2);
}

TEST(KernelCache, CompileErrorsAreNotCached) {
  TempDir dir("dgemm-cache-test");
  KernelCache cache(dir.path());
  int calls = 0;
  auto flaky = [&](CompiledKernel &out) {
    if (++calls == 1)
      return Status::error(DGEMM_ERROR_COMPILE, "cannot compile it");
    out.ptx = "ptx";
    out.contract = contract("kernel_b");
    return Status::success();
  };
  std::shared_ptr<const CompiledKernel> k;
  Status s = cache.getOrCompile(kKey, flaky, k);
  EXPECT_EQ(s.code(), DGEMM_ERROR_COMPILE);
  EXPECT_EQ(s.message(), "cannot compile it");
  EXPECT_TRUE(listDir(dir.path()).empty());
  ASSERT_TRUE(cache.getOrCompile(kKey, flaky, k).ok());
  EXPECT_EQ(k->contract.kernelName, "kernel_b");
  EXPECT_EQ(calls, 2);
}

TEST(KernelCache, InvalidContractFromTheCompilerIsAnError) {
  KernelCache cache("");
  auto bad = [](CompiledKernel &out) {
    out.ptx = "ptx";
    out.contract = contract("kernel_c");
    out.contract.block = 0;
    return Status::success();
  };
  std::shared_ptr<const CompiledKernel> k;
  Status s = cache.getOrCompile(kKey, bad, k);
  EXPECT_EQ(s.code(), DGEMM_ERROR_INTERNAL);
  EXPECT_EQ(s.message(), "the compiler produced an invalid launch contract: "
                         "block = 0 is not in [1, 1024]");
}

TEST(KernelCache, ConcurrentCallersShareOneCompile) {
  TempDir dir("dgemm-cache-test");
  KernelCache cache(dir.path());
  std::atomic<int> calls{0};
  auto slow = [&](CompiledKernel &out) {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    out.ptx = "ptx";
    out.contract = contract("kernel_d");
    return Status::success();
  };
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      std::shared_ptr<const CompiledKernel> k;
      // Two keys, four threads each.
      std::string key = kKey + (i % 2 ? " a" : " b");
      if (cache.getOrCompile(key, slow, k).ok() && k->keyText == key)
        ++ok;
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(ok, 8);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(listDir(dir.path()).size(), 4u);
}

TEST(KernelCache, DefaultDirectory) {
  const char *oldCache = std::getenv("DGEMM_CACHE_DIR");
  std::string savedCache = oldCache ? oldCache : "";
  const char *oldHome = std::getenv("HOME");
  std::string savedHome = oldHome ? oldHome : "";

  setenv("DGEMM_CACHE_DIR", "/some/where", 1);
  EXPECT_EQ(KernelCache::defaultDirectory(), "/some/where");
  setenv("DGEMM_CACHE_DIR", "", 1);
  setenv("HOME", "/home/u", 1);
  EXPECT_EQ(KernelCache::defaultDirectory(), "/home/u/.cache/dgemm");
  unsetenv("DGEMM_CACHE_DIR");
  unsetenv("HOME");
  EXPECT_EQ(KernelCache::defaultDirectory(), "");

  if (oldCache)
    setenv("DGEMM_CACHE_DIR", savedCache.c_str(), 1);
  if (oldHome)
    setenv("HOME", savedHome.c_str(), 1);
}

TEST(KernelCache, SourceNames) {
  EXPECT_STREQ(toString(CacheSource::Memory), "memory");
  EXPECT_STREQ(toString(CacheSource::Disk), "disk");
  EXPECT_STREQ(toString(CacheSource::Compiled), "compiled");
}

//===----------------------------------------------------------------------===//
// Concurrency: threads and processes
//===----------------------------------------------------------------------===//

/// A PTX text that names its key and is `bytes` long (large enough that a
/// write takes several system calls' worth of pages).
std::string ptxFor(const std::string &key, size_t bytes) {
  std::string ptx = "// PTX of " + key + "\n.entry kernel_a()\n{\n";
  while (ptx.size() + 2 < bytes)
    ptx += "// filler line of a big kernel, to make writes take a while\n";
  ptx.resize(bytes - 2);
  return ptx + "}\n";
}

TEST(KernelCache, ManyThreadsManyKeysSeveralCaches) {
  TempDir dir("dgemm-cache-test");
  // Two caches over one directory stand for two processes' caches.
  KernelCache first(dir.path()), second(dir.path());
  constexpr int kKeys = 6, kThreads = 24, kRounds = 20;
  std::atomic<int> compiles{0}, bad{0};
  std::mutex compiledMutex;
  std::multiset<std::string> compiled; // per cache and key
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      KernelCache &cache = t % 2 ? second : first;
      for (int r = 0; r < kRounds; ++r) {
        std::string key = kKey + " #" + std::to_string(rng() % kKeys);
        std::shared_ptr<const CompiledKernel> k;
        CacheSource source;
        Status s = cache.getOrCompile(
            key,
            [&](CompiledKernel &out) {
              ++compiles;
              std::this_thread::sleep_for(std::chrono::milliseconds(2));
              out.ptx = ptxFor(key, 4096 + key.size());
              out.contract = contract("kernel_a");
              std::lock_guard<std::mutex> lock(compiledMutex);
              compiled.insert((t % 2 ? "second " : "first ") + key);
              return Status::success();
            },
            k, &source);
        if (!s.ok() || k->keyText != key ||
            k->ptx != ptxFor(key, 4096 + key.size()))
          ++bad;
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(bad, 0);
  // Each cache compiles a key at most once (the other cache may have
  // written it to disk first); together at least once per key used.
  for (const std::string &c : compiled)
    EXPECT_EQ(compiled.count(c), 1u) << c;
  EXPECT_LE(compiles, 2 * kKeys);
  EXPECT_GE(compiles, 1);
  std::vector<std::string> files = listDir(dir.path());
  for (const std::string &f : files)
    EXPECT_EQ(f.find(".tmp."), std::string::npos) << f;
  EXPECT_LE(files.size(), size_t(2 * kKeys));
  EXPECT_EQ(files.size() % 2, 0u);
}

/// Runs `body` in `n` forked children that start together; returns how many
/// exited with status 0.
int runChildren(int n, const std::function<int(int)> &body) {
  int go[2];
  if (pipe(go) != 0)
    return -1;
  std::vector<pid_t> pids;
  for (int i = 0; i < n; ++i) {
    pid_t pid = fork();
    if (pid == 0) {
      close(go[1]);
      char c;
      // Start when the parent closes the pipe.
      while (read(go[0], &c, 1) > 0) {
      }
      _exit(body(i));
    }
    if (pid > 0)
      pids.push_back(pid);
  }
  close(go[0]);
  close(go[1]);
  int ok = 0;
  for (pid_t pid : pids) {
    int status = 0;
    if (waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0)
      ++ok;
  }
  return ok;
}

TEST(KernelCache, ProcessesCompilingOneKernelAtOnceAgree) {
  TempDir dir("dgemm-cache-test");
  const std::string ptx = ptxFor(kKey, 3 << 20);
  constexpr int kChildren = 6;
  int ok = runChildren(kChildren, [&](int) {
    KernelCache cache(dir.path());
    std::shared_ptr<const CompiledKernel> k;
    Status s = cache.getOrCompile(
        kKey,
        [&](CompiledKernel &out) {
          out.ptx = ptx;
          out.contract = contract("kernel_a");
          return Status::success();
        },
        k);
    return s.ok() && k->ptx == ptx && k->contract == contract("kernel_a") ? 0
                                                                          : 1;
  });
  EXPECT_EQ(ok, kChildren);
  KernelCache cache(dir.path());
  CompiledKernel k;
  ASSERT_TRUE(cache.readEntry(kKey, k).ok());
  EXPECT_EQ(k.ptx, ptx);
  std::string hash = hex64(fnv1a64(kKey));
  EXPECT_EQ(listDir(dir.path()),
            (std::vector<std::string>{hash + ".contract", hash + ".ptx"}));
}

TEST(KernelCache, ReadersNeverSeeAPartialOrMixedEntry) {
  // Writers keep replacing the entry with one of two PTX texts of different
  // sizes while readers keep reading it: a read either fails (and the
  // runtime would recompile) or returns one of the two texts, whole, with
  // its own contract.
  TempDir dir("dgemm-cache-test");
  const std::string v1 = ptxFor(kKey, 1 << 20), v2 = ptxFor(kKey, 3 << 19);
  {
    KernelCache cache(dir.path());
    CompiledKernel k;
    k.keyText = kKey;
    k.ptx = v1;
    k.contract = contract("kernel_a");
    ASSERT_TRUE(cache.writeEntry(k));
  }
  constexpr int kWriters = 2, kReaders = 4;
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
  int ok = runChildren(kWriters + kReaders, [&](int i) {
    KernelCache cache(dir.path());
    int reads = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      if (i < kWriters) {
        CompiledKernel k;
        k.keyText = kKey;
        k.ptx = (reads++ % 2) ? v1 : v2;
        k.contract = contract(k.ptx.size() == v1.size() ? "kernel_a"
                                                        : "kernel_b");
        if (!cache.writeEntry(k))
          return 2;
        continue;
      }
      CompiledKernel k;
      if (!cache.readEntry(kKey, k).ok())
        continue;
      ++reads;
      bool whole = (k.ptx == v1 && k.contract.kernelName == "kernel_a") ||
                   (k.ptx == v2 && k.contract.kernelName == "kernel_b");
      if (!whole)
        return 3;
    }
    return i < kWriters || reads > 0 ? 0 : 4;
  });
  EXPECT_EQ(ok, kWriters + kReaders);
  for (const std::string &f : listDir(dir.path()))
    EXPECT_EQ(f.find(".tmp."), std::string::npos) << f;
}

//===----------------------------------------------------------------------===//
// The key covers what changes the code
//===----------------------------------------------------------------------===//

GemmKernelKey baseKey() {
  GemmKernelKey k;
  k.n = 7168;
  k.k = 2048;
  k.config.blockM = 128;
  k.config.blockN = 160;
  k.config.stages = 5;
  k.config.clusterSize = 1;
  k.config.mathWarpgroups = 2;
  k.config.swizzleGroup = 16;
  k.config.numSMs = 132;
  k.dgemmVersion = "0.1.0+b1.2.3";
  k.llvmVersion = "22.1.8";
  return k;
}

TEST(KernelCache, AnyChangeThatChangesTheCodeMisses) {
  TempDir dir("dgemm-cache-test");
  FakeCompiler compiler;
  std::shared_ptr<const CompiledKernel> k;
  CacheSource source;
  {
    KernelCache cache(dir.path());
    ASSERT_TRUE(
        cache.getOrCompile(baseKey().text(), compiler.fn(), k, &source).ok());
    ASSERT_EQ(source, CacheSource::Compiled);
  }
  std::vector<std::pair<std::string, GemmKernelKey>> variants;
  auto variant = [&](const char *what, auto change) {
    GemmKernelKey key = baseKey();
    change(key);
    variants.emplace_back(what, key);
  };
  variant("config: stages", [](GemmKernelKey &k) { k.config.stages = 4; });
  variant("config: block_n", [](GemmKernelKey &k) { k.config.blockN = 128; });
  variant("config: cluster", [](GemmKernelKey &k) { k.config.clusterSize = 2; });
  variant("config: multicast",
          [](GemmKernelKey &k) { k.config.multicast = dgemm::Multicast::B; });
  variant("config: num_sms", [](GemmKernelKey &k) { k.config.numSMs = 100; });
  variant("config: swizzle",
          [](GemmKernelKey &k) { k.config.swizzleGroup = 8; });
  variant("config: math warpgroups",
          [](GemmKernelKey &k) { k.config.mathWarpgroups = 1; });
  variant("target: chip", [](GemmKernelKey &k) { k.chip = "sm_90"; });
  variant("target: SMs", [](GemmKernelKey &k) { k.target.numSMs = 114; });
  variant("target: shared memory",
          [](GemmKernelKey &k) { k.target.smemPerBlock = 200000; });
  variant("pipeline", [](GemmKernelKey &k) { k.pipeline = "dgemm-to-ptx-2"; });
  variant("dgemm version",
          [](GemmKernelKey &k) { k.dgemmVersion = "0.1.0+b1.2.4"; });
  variant("LLVM version", [](GemmKernelKey &k) { k.llvmVersion = "22.1.9"; });
  variant("N", [](GemmKernelKey &k) { k.n = 7040; });
  variant("K", [](GemmKernelKey &k) { k.k = 2176; });
  int calls = compiler.calls;
  for (const auto &[what, key] : variants) {
    KernelCache cache(dir.path());
    ASSERT_TRUE(cache.getOrCompile(key.text(), compiler.fn(), k, &source).ok());
    EXPECT_EQ(source, CacheSource::Compiled) << what;
    EXPECT_EQ(compiler.calls, ++calls) << what;
  }
  // The original is still a hit, and so is every variant now.
  KernelCache cache(dir.path());
  ASSERT_TRUE(
      cache.getOrCompile(baseKey().text(), compiler.fn(), k, &source).ok());
  EXPECT_EQ(source, CacheSource::Disk);
  for (const auto &[what, key] : variants) {
    ASSERT_TRUE(cache.getOrCompile(key.text(), compiler.fn(), k, &source).ok());
    EXPECT_EQ(source, CacheSource::Disk) << what;
  }
  EXPECT_EQ(compiler.calls, calls);
  EXPECT_EQ(listDir(dir.path()).size(), 2 * (variants.size() + 1));
}

//===----------------------------------------------------------------------===//
// DGEMM_LOG
//===----------------------------------------------------------------------===//

/// Captures jitMessage lines with DGEMM_LOG at `level` while alive.
class LogCapture {
public:
  explicit LogCapture(int level) {
    settings_.logLevel = level;
    JitSettings::setForTests(&settings_);
    setJitMessageSinkForTests([this](const std::string &line) {
      std::lock_guard<std::mutex> lock(mutex_);
      lines_.push_back(line);
    });
  }
  ~LogCapture() {
    setJitMessageSinkForTests({});
    JitSettings::setForTests(nullptr);
  }
  /// The lines so far, forgotten.
  std::vector<std::string> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(lines_, {});
  }

private:
  JitSettings settings_;
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

bool startsWith(const std::string &s, const std::string &prefix) {
  return s.rfind(prefix, 0) == 0;
}

TEST(KernelCache, LogsMissesCompilesAndHits) {
  TempDir dir("dgemm-cache-test");
  FakeCompiler compiler;
  std::shared_ptr<const CompiledKernel> k;
  std::string hash = hex64(fnv1a64(kKey));
  LogCapture log(2);
  {
    KernelCache cache(dir.path());
    ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k).ok());
    std::vector<std::string> lines = log.take();
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_TRUE(startsWith(lines[0], "cache: disk miss " + hash + ": cannot open "))
        << lines[0];
    EXPECT_TRUE(startsWith(lines[1], "cache: compiled " + hash +
                                         " (kernel_a) in "))
        << lines[1];
    EXPECT_NE(lines[1].find(" ms: " + kKey), std::string::npos) << lines[1];
    ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k).ok());
    lines = log.take();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_TRUE(startsWith(lines[0], "cache: memory hit " + hash)) << lines[0];
  }
  {
    KernelCache cache(dir.path());
    ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k).ok());
    std::vector<std::string> lines = log.take();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_TRUE(startsWith(lines[0], "cache: disk hit " + dir.path() + "/" +
                                         hash + ".ptx ("))
        << lines[0];
  }
  writeAll(dir.path() + "/" + hash + ".ptx", "truncated");
  {
    KernelCache cache(dir.path());
    ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k).ok());
    std::vector<std::string> lines = log.take();
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "cache: disk miss " + hash +
                            ": corrupt cache entry: the PTX has 9 bytes, the "
                            "entry says " +
                            std::to_string(compiler.ptx.size()));
    EXPECT_TRUE(startsWith(lines[1], "cache: compiled " + hash)) << lines[1];
  }
  {
    // Level 1: no memory hits.
    KernelCache cache("");
    LogCapture quieter(1);
    ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k).ok());
    ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k).ok());
    std::vector<std::string> lines = quieter.take();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_TRUE(startsWith(lines[0], "cache: compiled " + hash)) << lines[0];
  }
}

TEST(KernelCache, LogsAnUnwritableDirectory) {
  TempDir dir("dgemm-cache-test");
  writeAll(dir.path() + "/file", "x");
  KernelCache cache(dir.path() + "/file/cache");
  FakeCompiler compiler;
  std::shared_ptr<const CompiledKernel> k;
  LogCapture log(1);
  ASSERT_TRUE(cache.getOrCompile(kKey, compiler.fn(), k).ok());
  std::vector<std::string> lines = log.take();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], "cache: cannot write the entry " +
                          hex64(fnv1a64(kKey)) + " to " + dir.path() +
                          "/file/cache: kept in memory only");
}

} // namespace
