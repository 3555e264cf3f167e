//===- Status.cpp - Result of a runtime operation -------------------------===//
//
// Names of the C API's status codes, for messages and tests.
//
//===----------------------------------------------------------------------===//
#include "dgemm/Runtime/Status.h"

const char *dgemm::runtime::statusName(dgemm_status code) {
  switch (code) {
  case DGEMM_OK:
    return "DGEMM_OK";
  case DGEMM_ERROR_INVALID_ARGUMENT:
    return "DGEMM_ERROR_INVALID_ARGUMENT";
  case DGEMM_ERROR_NO_DRIVER:
    return "DGEMM_ERROR_NO_DRIVER";
  case DGEMM_ERROR_NO_DEVICE:
    return "DGEMM_ERROR_NO_DEVICE";
  case DGEMM_ERROR_COMPILE:
    return "DGEMM_ERROR_COMPILE";
  case DGEMM_ERROR_CUDA:
    return "DGEMM_ERROR_CUDA";
  case DGEMM_ERROR_CACHE:
    return "DGEMM_ERROR_CACHE";
  case DGEMM_ERROR_INTERNAL:
    return "DGEMM_ERROR_INTERNAL";
  case DGEMM_ERROR_STALE_BINDING:
    return "DGEMM_ERROR_STALE_BINDING";
  }
  return "DGEMM_ERROR_UNKNOWN";
}
