//===- KernelCacheTest.cpp - Compiled kernels in memory and on disk -------===//
//
// The cache with a fake compile callback: compile once, then memory; a new
// cache over the same directory loads from disk; corrupt, truncated or
// foreign entries are recompiled and overwritten; temporary files never
// remain; an unusable directory means memory-only caching without an error;
// compile errors are not cached; concurrent callers share one compile.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/KernelCache.h"

#include "dgemm/Runtime/KernelKey.h"

#include "gtest/gtest.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

using namespace dgemm::runtime;

namespace {

class TempDir {
public:
  TempDir() {
    char pattern[] = "/tmp/dgemm-cache-test-XXXXXX";
    const char *p = mkdtemp(pattern);
    path_ = p ? p : "";
  }
  ~TempDir() {
    std::string cmd = "rm -rf '" + path_ + "'";
    (void)std::system(cmd.c_str());
  }
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

std::vector<std::string> listDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..")
        names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string readAll(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

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
  TempDir dir;
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
  TempDir dir;
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
  TempDir dir;
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
  TempDir dir;
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
  TempDir dir;
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
  TempDir dir;
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

} // namespace
