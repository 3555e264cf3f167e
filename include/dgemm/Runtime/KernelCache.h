//===- KernelCache.h - Compiled kernels in memory and on disk ---*- C++ -*-===//
//
// A kernel is compiled once per key: the cache answers from memory
// (thread-safe; concurrent requests for one key wait for one compile), else
// from disk, else compiles and stores. On disk ($DGEMM_CACHE_DIR, default
// ~/.cache/dgemm) an entry is `<hash>.ptx` plus `<hash>.contract` (the key
// line, the PTX's size and hash, the launch contract as text), each written
// to a temporary name in the same directory and renamed into place, so a
// concurrent process never reads half a file. An entry that is unreadable,
// truncated, corrupt or for another key is recompiled and overwritten. A
// directory that cannot be created or written leaves the cache memory-only
// (said under DGEMM_LOG=1, JitEnv.h): the disk cache never fails a call.
// global() honours DGEMM_DISABLE_CACHE (memory only).
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_KERNELCACHE_H
#define DGEMM_RUNTIME_KERNELCACHE_H

#include "dgemm/Runtime/LaunchContract.h"
#include "dgemm/Runtime/Status.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace dgemm::runtime {

/// What the compiler produces for a key.
struct CompiledKernel {
  std::string keyText;
  std::string ptx;
  LaunchContract contract;
};

/// Where getOrCompile found the kernel.
enum class CacheSource { Memory, Disk, Compiled };

const char *toString(CacheSource source);

class KernelCache {
public:
  /// A cache over `directory`; an empty directory means memory only.
  explicit KernelCache(std::string directory);

  /// $DGEMM_CACHE_DIR when set and non-empty, else $HOME/.cache/dgemm, else
  /// empty (memory only).
  static std::string defaultDirectory();

  /// The process-wide cache over defaultDirectory(), or memory-only when
  /// DGEMM_DISABLE_CACHE is set.
  static KernelCache &global();

  /// Fills `out` with the kernel (ptx + contract) and sets `keyText` on it.
  using CompileFn = std::function<Status(CompiledKernel &out)>;

  /// The kernel of `keyText`, from memory, disk or `compile`. A compile
  /// error is returned as is (and nothing is cached).
  Status getOrCompile(const std::string &keyText, const CompileFn &compile,
                      std::shared_ptr<const CompiledKernel> &out,
                      CacheSource *source = nullptr);

  const std::string &directory() const { return directory_; }

  /// `<directory>/<hex hash of keyText><extension>`.
  std::string entryPath(const std::string &keyText,
                        const char *extension) const;

  /// Reads and checks the disk entry of `keyText`: an error saying why it
  /// cannot be used (missing, corrupt, another key) or OK.
  Status readEntry(const std::string &keyText, CompiledKernel &out) const;

  /// Writes the entry of `kernel` (temporary file + rename). False when the
  /// directory cannot be created or written (the cache is then memory-only
  /// for this entry).
  bool writeEntry(const CompiledKernel &kernel) const;

  /// Forgets the in-memory entries (tests; a process never needs it).
  void clearMemory();

private:
  struct Slot {
    std::mutex mutex;
    std::shared_ptr<const CompiledKernel> value;
  };
  std::shared_ptr<Slot> slotFor(uint64_t hash);

  std::string directory_;
  std::mutex mutex_;
  std::map<uint64_t, std::shared_ptr<Slot>> slots_;
};

/// The text of a `.contract` entry file.
std::string printCacheEntry(const CompiledKernel &kernel);

/// Parses a `.contract` entry file and checks it against `ptx`.
Status parseCacheEntry(std::string_view text, const std::string &ptx,
                       CompiledKernel &out);

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_KERNELCACHE_H
