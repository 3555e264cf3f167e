//===- BadInputRow.cpp - Running one bad-input row in a child process -----===//
//
// The child writes its status, dgemm_last_error(), the stand-in driver's
// launch count and a note into a pipe, each field length-prefixed, and
// exits with _exit (no atexit handlers of the parent's copy). The parent
// waits with poll for the answer, kills a child that does not answer in
// time, and reads how it ended with waitpid.
//
//===----------------------------------------------------------------------===//
#include "BadInputRow.h"

#include "gtest/gtest.h"

#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

using namespace dgemm::test;

namespace {

void writeAll(int fd, const void *data, size_t size) {
  const char *p = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t n = write(fd, p, size);
    if (n <= 0)
      return;
    p += n;
    size -= static_cast<size_t>(n);
  }
}

void writeField(int fd, const std::string &s) {
  uint32_t n = static_cast<uint32_t>(s.size());
  writeAll(fd, &n, sizeof n);
  writeAll(fd, s.data(), s.size());
}

/// Reads up to EOF, waiting at most `timeoutSec` in all; false on timeout.
bool readAll(int fd, std::string &out, int timeoutSec) {
  int waitedMs = 0;
  char buf[4096];
  while (true) {
    pollfd p{fd, POLLIN, 0};
    int r = poll(&p, 1, 100);
    if (r == 0) {
      waitedMs += 100;
      if (waitedMs >= timeoutSec * 1000)
        return false;
      continue;
    }
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0)
      return true;
    out.append(buf, static_cast<size_t>(n));
  }
}

bool takeField(const std::string &data, size_t &pos, std::string &out) {
  uint32_t n;
  if (pos + sizeof n > data.size())
    return false;
  std::memcpy(&n, data.data() + pos, sizeof n);
  pos += sizeof n;
  if (pos + n > data.size())
    return false;
  out.assign(data, pos, n);
  pos += n;
  return true;
}

/// The stand-in driver's launch count, when this process loaded it.
int standInLaunches() {
  void *h = dlopen(standInDriver().c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (!h)
    return 0;
  auto fn = reinterpret_cast<int (*)()>(dlsym(h, "dgemm_standin_launches"));
  int n = fn ? fn() : 0;
  dlclose(h);
  return n;
}

} // namespace

bool dgemm::test::messageMatches(const std::string &pattern,
                                 const std::string &text) {
  size_t star = pattern.find("...");
  if (star == std::string::npos)
    return pattern == text;
  std::string head = pattern.substr(0, star);
  if (text.compare(0, head.size(), head) != 0)
    return false;
  std::string rest = pattern.substr(star + 3);
  // Try every split point for the remainder (patterns are short).
  for (size_t at = head.size(); at <= text.size(); ++at)
    if (messageMatches(rest, text.substr(at)))
      return true;
  return false;
}

Outcome dgemm::test::runIsolated(const Env &env, const Call &call,
                                 int timeoutSec) {
  Outcome o;
  int fds[2];
  if (pipe(fds) != 0) {
    o.how = "pipe failed";
    return o;
  }
  fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    o.how = "fork failed";
    return o;
  }
  if (pid == 0) {
    close(fds[0]);
    setenv("DGEMM_CUDA_DRIVER", standInDriver().c_str(), 1);
    setenv("DGEMM_CACHE_DIR", (testDir() + "/cache").c_str(), 1);
    unsetenv("DGEMM_STANDIN_FAULTS");
    for (const auto &[name, value] : env)
      setenv(name.c_str(), value.c_str(), 1);
    std::string note;
    int status = call(note);
    int launches = standInLaunches();
    writeField(fds[1], std::to_string(status));
    writeField(fds[1], dgemm_last_error());
    writeField(fds[1], std::to_string(launches));
    writeField(fds[1], note);
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string data;
  bool done = readAll(fds[0], data, timeoutSec);
  close(fds[0]);
  if (!done)
    kill(pid, SIGKILL);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  if (!done) {
    o.how = "timeout after " + std::to_string(timeoutSec) + " s";
    return o;
  }
  if (WIFSIGNALED(wstatus)) {
    o.how = "signal " + std::to_string(WTERMSIG(wstatus));
    return o;
  }
  o.how = "exit " + std::to_string(WEXITSTATUS(wstatus));
  size_t pos = 0;
  std::string status, launches;
  if (!takeField(data, pos, status) || !takeField(data, pos, o.message) ||
      !takeField(data, pos, launches) || !takeField(data, pos, o.note))
    return o;
  o.answered = WEXITSTATUS(wstatus) == 0;
  o.status = std::stoi(status);
  o.launches = std::stoi(launches);
  return o;
}

Outcome dgemm::test::expectRow(const char *entry, const char *category,
                               const char *input, dgemm_status status,
                               const char *message, const Env &env,
                               const Call &call) {
  SCOPED_TRACE(std::string(entry) + " [" + category + "] " + input);
  Outcome o = runIsolated(env, call);
  EXPECT_TRUE(o.answered) << "the call did not return: " << o.how;
  if (!o.answered)
    return o;
  EXPECT_EQ(o.status, status) << o.message;
  EXPECT_TRUE(messageMatches(message, o.message))
      << "expected: " << message << "\n     got: " << o.message;
  if (status != DGEMM_OK)
    EXPECT_EQ(o.launches, 0) << "a call that failed launched a kernel";
  return o;
}
