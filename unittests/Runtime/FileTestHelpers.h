//===- FileTestHelpers.h - Temporary folders and files for tests -*- C++ -*-===//
//
// A temporary folder removed with its contents at scope exit, a sorted
// listing of a folder and a whole-file read: what the cache and IR-dump
// tests need to look at what the runtime wrote.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_UNITTESTS_RUNTIME_FILETESTHELPERS_H
#define DGEMM_UNITTESTS_RUNTIME_FILETESTHELPERS_H

#include <dirent.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dgemm::test {

/// mkdtemp("/tmp/<prefix>-XXXXXX"), removed (rm -rf) by the destructor.
class TempDir {
public:
  explicit TempDir(const std::string &prefix) {
    std::string pattern = "/tmp/" + prefix + "-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    const char *p = mkdtemp(buf.data());
    path_ = p ? p : "";
  }
  ~TempDir() {
    if (path_.empty())
      return;
    std::string cmd = "rm -rf '" + path_ + "'";
    (void)std::system(cmd.c_str());
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

/// The names in `dir` (without . and ..), sorted.
inline std::vector<std::string> listDir(const std::string &dir) {
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

/// The bytes of `path` ("" when it cannot be read).
inline std::string readAll(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

} // namespace dgemm::test

#endif // DGEMM_UNITTESTS_RUNTIME_FILETESTHELPERS_H
