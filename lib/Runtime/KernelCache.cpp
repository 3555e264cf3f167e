//===- KernelCache.cpp - Compiled kernels in memory and on disk -----------===//
//
// The in-memory map holds one slot per key hash; a slot's mutex is held
// while its kernel is read from disk or compiled, so concurrent callers of
// one key wait for a single compile while other keys proceed. Disk entries:
//
//   <hash>.ptx        the PTX, as the compiler produced it
//   <hash>.contract   dgemm-cache-entry 1
//                     key <key line>
//                     ptx_bytes <n>
//                     ptx_fnv1a64 <16 hex digits>
//                     <the launch contract, LaunchContract.h's format>
//
// The PTX is renamed into place before its contract, and the contract
// records the PTX's size and hash, so a reader that sees a new PTX with an
// old contract (or a torn file) rejects the entry and recompiles.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/KernelCache.h"

#include "dgemm/Runtime/JitEnv.h"
#include "dgemm/Runtime/KernelKey.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <chrono>

using namespace dgemm::runtime;

namespace {

constexpr const char *kEntryHeader = "dgemm-cache-entry 1";
constexpr size_t kMaxContractFileBytes = 1 << 20;
constexpr size_t kMaxPtxFileBytes = size_t(256) << 20;

/// Reads a whole regular file of at most `maxBytes`; false with `why` set
/// otherwise.
bool readFile(const std::string &path, size_t maxBytes, std::string &out,
              std::string &why) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    why = "cannot open " + path;
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
      static_cast<size_t>(st.st_size) > maxBytes) {
    ::close(fd);
    why = path + " is not a regular file of at most " +
          std::to_string(maxBytes) + " bytes";
    return false;
  }
  std::string data;
  data.resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::read(fd, &data[done], data.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  if (done != data.size()) {
    why = "short read of " + path;
    return false;
  }
  out = std::move(data);
  return true;
}

/// Writes `data` to a fresh temporary file next to `path` and renames it
/// onto `path`.
bool writeFileAtomic(const std::string &path, const std::string &data) {
  static std::atomic<uint64_t> counter{0};
  std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." +
                    std::to_string(counter.fetch_add(1));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return false;
  size_t done = 0;
  bool ok = true;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0)
    ok = false;
  if (ok && ::rename(tmp.c_str(), path.c_str()) != 0)
    ok = false;
  if (!ok)
    ::unlink(tmp.c_str());
  return ok;
}

/// mkdir -p.
bool makeDirectories(const std::string &dir) {
  if (dir.empty())
    return false;
  std::string partial;
  size_t pos = 0;
  while (pos <= dir.size()) {
    size_t slash = dir.find('/', pos);
    if (slash == std::string::npos)
      slash = dir.size();
    partial = dir.substr(0, slash);
    pos = slash + 1;
    if (partial.empty())
      continue;
    if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST)
      return false;
  }
  struct stat st;
  return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/// The next line of `text` from `pos` (without '\n'); false at the end.
bool nextLine(std::string_view text, size_t &pos, std::string_view &line) {
  if (pos >= text.size())
    return false;
  size_t nl = text.find('\n', pos);
  if (nl == std::string_view::npos)
    return false; // Every line of an entry ends with '\n'.
  line = text.substr(pos, nl - pos);
  pos = nl + 1;
  return true;
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

const char *dgemm::runtime::toString(CacheSource source) {
  switch (source) {
  case CacheSource::Memory:
    return "memory";
  case CacheSource::Disk:
    return "disk";
  case CacheSource::Compiled:
    return "compiled";
  }
  return "unknown";
}

std::string dgemm::runtime::printCacheEntry(const CompiledKernel &k) {
  return std::string(kEntryHeader) + "\nkey " + k.keyText + "\nptx_bytes " +
         std::to_string(k.ptx.size()) + "\nptx_fnv1a64 " +
         hex64(fnv1a64(k.ptx)) + "\n" + printContract(k.contract);
}

Status dgemm::runtime::parseCacheEntry(std::string_view text,
                                       const std::string &ptx,
                                       CompiledKernel &out) {
  auto corrupt = [](const std::string &why) {
    return Status::invalidArgument("corrupt cache entry: " + why);
  };
  size_t pos = 0;
  std::string_view line;
  if (!nextLine(text, pos, line) || line != kEntryHeader)
    return corrupt(std::string("expected '") + kEntryHeader + "'");
  if (!nextLine(text, pos, line) || !startsWith(line, "key "))
    return corrupt("expected 'key <key>'");
  std::string key(line.substr(4));
  if (!nextLine(text, pos, line) || !startsWith(line, "ptx_bytes "))
    return corrupt("expected 'ptx_bytes <n>'");
  uint64_t bytes = 0;
  std::string_view v = line.substr(10);
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), bytes);
  if (ec != std::errc() || p != v.data() + v.size())
    return corrupt("bad ptx_bytes");
  if (bytes != ptx.size())
    return corrupt("the PTX has " + std::to_string(ptx.size()) +
                   " bytes, the entry says " + std::to_string(bytes));
  if (!nextLine(text, pos, line) || !startsWith(line, "ptx_fnv1a64 "))
    return corrupt("expected 'ptx_fnv1a64 <hash>'");
  if (line.substr(12) != hex64(fnv1a64(ptx)))
    return corrupt("the PTX's hash does not match");
  CompiledKernel k;
  Status s = parseContract(text.substr(pos), k.contract);
  if (!s.ok())
    return s.withContext("corrupt cache entry");
  k.keyText = std::move(key);
  k.ptx = ptx;
  out = std::move(k);
  return Status::success();
}

KernelCache::KernelCache(std::string directory)
    : directory_(std::move(directory)) {}

std::string KernelCache::defaultDirectory() {
  const char *env = std::getenv("DGEMM_CACHE_DIR");
  if (env && *env)
    return env;
  const char *home = std::getenv("HOME");
  if (home && *home)
    return std::string(home) + "/.cache/dgemm";
  return "";
}

KernelCache &KernelCache::global() {
  // Never destroyed: callers may run during static destruction.
  static KernelCache *cache = [] {
    const JitSettings &settings = JitSettings::get();
    std::string dir = settings.disableCache ? "" : defaultDirectory();
    if (settings.disableCache)
      jitLog(1, "kernel cache: memory only (DGEMM_DISABLE_CACHE is set: the "
                "disk cache is neither read nor written)");
    else if (dir.empty())
      jitLog(1, "kernel cache: memory only (neither DGEMM_CACHE_DIR nor "
                "HOME is set)");
    else
      jitLog(1, "kernel cache: " + dir);
    return new KernelCache(dir);
  }();
  return *cache;
}

std::string KernelCache::entryPath(const std::string &keyText,
                                   const char *extension) const {
  return directory_ + "/" + hex64(fnv1a64(keyText)) + extension;
}

Status KernelCache::readEntry(const std::string &keyText,
                              CompiledKernel &out) const {
  if (directory_.empty())
    return Status::invalidArgument("no disk cache");
  std::string contractText, ptx, why;
  if (!readFile(entryPath(keyText, ".contract"), kMaxContractFileBytes,
                contractText, why) ||
      !readFile(entryPath(keyText, ".ptx"), kMaxPtxFileBytes, ptx, why))
    return Status::invalidArgument(why);
  CompiledKernel k;
  Status s = parseCacheEntry(contractText, ptx, k);
  if (!s.ok())
    return s;
  if (k.keyText != keyText)
    return Status::invalidArgument("the cache entry is for another key");
  out = std::move(k);
  return Status::success();
}

bool KernelCache::writeEntry(const CompiledKernel &kernel) const {
  // The key is one line of the entry file.
  if (directory_.empty() || kernel.keyText.find('\n') != std::string::npos ||
      !makeDirectories(directory_))
    return false;
  return writeFileAtomic(entryPath(kernel.keyText, ".ptx"), kernel.ptx) &&
         writeFileAtomic(entryPath(kernel.keyText, ".contract"),
                         printCacheEntry(kernel));
}

std::shared_ptr<KernelCache::Slot> KernelCache::slotFor(uint64_t hash) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<Slot> &slot = slots_[hash];
  if (!slot)
    slot = std::make_shared<Slot>();
  return slot;
}

void KernelCache::clearMemory() {
  std::lock_guard<std::mutex> lock(mutex_);
  slots_.clear();
}

Status KernelCache::getOrCompile(const std::string &keyText,
                                 const CompileFn &compile,
                                 std::shared_ptr<const CompiledKernel> &out,
                                 CacheSource *source) {
  auto start = std::chrono::steady_clock::now();
  uint64_t hash = fnv1a64(keyText);
  std::shared_ptr<Slot> slot = slotFor(hash);
  std::lock_guard<std::mutex> lock(slot->mutex);
  if (slot->value && slot->value->keyText == keyText) {
    out = slot->value;
    if (source)
      *source = CacheSource::Memory;
    if (jitLogEnabled(2))
      jitLog(2, "cache: memory hit " + hex64(hash) + " (" +
                    formatMs(msSince(start)) + ")");
    return Status::success();
  }
  // A different key with the same hash keeps its slot; this one is served
  // uncached (a 64-bit collision: practically never).
  bool collision = slot->value != nullptr;

  auto kernel = std::make_shared<CompiledKernel>();
  if (!collision && !directory_.empty()) {
    auto readStart = std::chrono::steady_clock::now();
    Status disk = readEntry(keyText, *kernel);
    if (disk.ok()) {
      slot->value = kernel;
      out = kernel;
      if (source)
        *source = CacheSource::Disk;
      if (jitLogEnabled(1))
        jitLog(1, "cache: disk hit " + entryPath(keyText, ".ptx") + " (" +
                      formatMs(msSince(readStart)) + "): " + keyText);
      return Status::success();
    }
    if (jitLogEnabled(1))
      jitLog(1, "cache: disk miss " + hex64(hash) + ": " + disk.message());
  } else if (collision) {
    jitLog(1, "cache: hash collision on " + hex64(hash) +
                  ": compiling without caching " + keyText);
  }

  auto compileStart = std::chrono::steady_clock::now();
  CompiledKernel compiled;
  Status s = compile(compiled);
  if (!s.ok()) {
    jitLog(1, "cache: compile failed after " +
                  formatMs(msSince(compileStart)) + ": " + keyText);
    return s;
  }
  compiled.keyText = keyText;
  std::string why = checkContract(compiled.contract);
  if (!why.empty())
    return Status::internal("the compiler produced an invalid launch "
                            "contract: " +
                            why);
  *kernel = std::move(compiled);
  double compileMs = msSince(compileStart);
  if (!collision) {
    bool written = writeEntry(*kernel);
    if (!written && !directory_.empty())
      jitLog(1, "cache: cannot write the entry " + hex64(hash) + " to " +
                    directory_ + ": kept in memory only");
    slot->value = kernel;
  }
  out = kernel;
  if (source)
    *source = CacheSource::Compiled;
  if (jitLogEnabled(1))
    jitLog(1, "cache: compiled " + hex64(hash) + " (" + kernel->contract.kernelName +
                  ") in " + formatMs(compileMs) + ": " + keyText);
  return Status::success();
}
