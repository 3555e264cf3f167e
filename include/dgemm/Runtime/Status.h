//===- Status.h - Result of a runtime operation -----------------*- C++ -*-===//
//
// The runtime reports failures as values, never as exceptions or aborts: a
// Status is a dgemm_status code (the C API's, include/dgemm-c/Runtime.h) and
// a sentence saying what went wrong. Functions that can fail return a Status
// and write their results through reference parameters.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_RUNTIME_STATUS_H
#define DGEMM_RUNTIME_STATUS_H

#include "dgemm-c/Runtime.h"

#include <string>
#include <utility>

namespace dgemm::runtime {

class [[nodiscard]] Status {
public:
  /// Success.
  Status() = default;
  static Status success() { return Status(); }
  static Status error(dgemm_status code, std::string message) {
    Status s;
    s.code_ = code == DGEMM_OK ? DGEMM_ERROR_INTERNAL : code;
    s.message_ = std::move(message);
    return s;
  }
  static Status invalidArgument(std::string message) {
    return error(DGEMM_ERROR_INVALID_ARGUMENT, std::move(message));
  }
  static Status internal(std::string message) {
    return error(DGEMM_ERROR_INTERNAL, std::move(message));
  }

  bool ok() const { return code_ == DGEMM_OK; }
  dgemm_status code() const { return code_; }
  const std::string &message() const { return message_; }

  /// The same error with `context + ": "` in front of its message.
  Status withContext(const std::string &context) const {
    if (ok())
      return *this;
    return error(code_, context + ": " + message_);
  }

private:
  dgemm_status code_ = DGEMM_OK;
  std::string message_;
};

/// Name of a status code ("DGEMM_ERROR_NO_DRIVER", ...).
const char *statusName(dgemm_status code);

} // namespace dgemm::runtime

#endif // DGEMM_RUNTIME_STATUS_H
