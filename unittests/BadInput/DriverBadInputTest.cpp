//===- DriverBadInputTest.cpp - No driver, the wrong GPU, driver faults ---===//
//
// The rows of docs/bad-inputs.md about the machine rather than the tensors,
// for every C API entry point that touches the driver: a missing or
// unusable libcuda, no device, a device that is not sm_90, and faults of
// the stand-in driver (DGEMM_STANDIN_FAULTS, unittests/StandInDriver/) at
// each step of a call; and a thread without a CUDA context.
//
//===----------------------------------------------------------------------===//
#include "BadInputRow.h"
#include "TensorTestHelpers.h"

#include "gtest/gtest.h"

#include <dlfcn.h>

using namespace dgemm::test;

namespace {

/// Valid normal-GEMM operands (M = 197, N = 224, K = 256).
dgemm_status gemm(std::string &) {
  dgemm_tensor a = matrix(0x100000, DGEMM_DTYPE_F8E4M3, 197, 256, 256);
  dgemm_tensor sa = matrix(0x200000, DGEMM_DTYPE_F32, 197, 2, 1, 200);
  dgemm_tensor b = matrix(0x300000, DGEMM_DTYPE_F8E4M3, 224, 256, 256);
  dgemm_tensor sb = matrix(0x400000, DGEMM_DTYPE_F32, 2, 2, 2);
  dgemm_tensor d = matrix(0x500000, DGEMM_DTYPE_BF16, 197, 224, 224);
  return dgemm_gemm_fp8_bf16_nt(&a, &sa, &b, &sb, &d, nullptr);
}

/// Valid contiguous operands (G = 1, M_sum = 128, N = 128, K = 128).
dgemm_status contiguous(std::string &) {
  dgemm_tensor a = matrix(0x100000, DGEMM_DTYPE_F8E4M3, 128, 128, 128);
  dgemm_tensor sa = matrix(0x200000, DGEMM_DTYPE_F32, 128, 1, 1, 128);
  dgemm_tensor b{};
  b.data = reinterpret_cast<void *>(0x300000);
  b.dtype = DGEMM_DTYPE_F8E4M3;
  b.rank = 3;
  b.shape[0] = 1, b.shape[1] = 128, b.shape[2] = 128;
  b.strides[0] = 128 * 128, b.strides[1] = 128, b.strides[2] = 1;
  dgemm_tensor sb = b;
  sb.data = reinterpret_cast<void *>(0x400000);
  sb.dtype = DGEMM_DTYPE_F32;
  sb.shape[1] = sb.shape[2] = 1;
  sb.strides[0] = sb.strides[1] = sb.strides[2] = 1;
  dgemm_tensor idx{};
  idx.data = reinterpret_cast<void *>(0x500000);
  idx.dtype = DGEMM_DTYPE_I32;
  idx.rank = 1;
  idx.shape[0] = 128;
  idx.strides[0] = 1;
  dgemm_tensor d = matrix(0x600000, DGEMM_DTYPE_BF16, 128, 128, 128);
  return dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous(&a, &sa, &b, &sb, &idx,
                                                     &d, nullptr);
}

/// dgemm_gemm_prepare with its info text as the note.
dgemm_status prepare(std::string &note) {
  char info[1024] = "";
  dgemm_status s = dgemm_gemm_prepare(256, 7168, 2048, nullptr, info,
                                      sizeof info);
  note = info;
  return s;
}

/// dgemm_gemm_config with the config text as the note.
dgemm_status config(std::string &note) {
  char buf[256] = "";
  dgemm_status s = dgemm_gemm_config(256, 7168, 7168, buf, sizeof buf);
  note = buf;
  return s;
}

Env faults(const char *list) { return {{"DGEMM_STANDIN_FAULTS", list}}; }

const Env kNoDriver = {{"DGEMM_CUDA_DRIVER", "/nonexistent/libcuda.so.1"}};

TEST(DriverBadInput, NoDriver) {
  expectRow("dgemm_gemm_fp8_bf16_nt", "no-driver",
            "libcuda.so.1 missing (DGEMM_CUDA_DRIVER=/nonexistent/libcuda.so.1)",
            DGEMM_ERROR_NO_DRIVER,
            "cannot load the CUDA driver library /nonexistent/libcuda.so.1 "
            "(...): launching dgemm kernels needs the NVIDIA driver and a GPU; "
            "compiling to PTX works without them",
            kNoDriver, gemm);
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "no-driver",
            "libcuda.so.1 missing", DGEMM_ERROR_NO_DRIVER,
            "cannot load the CUDA driver library /nonexistent/libcuda.so.1 "
            "(...): launching dgemm kernels needs the NVIDIA driver and a GPU; "
            "compiling to PTX works without them",
            kNoDriver, contiguous);
  expectRow("dgemm_gemm_fp8_bf16_nt", "no-driver",
            "cuInit fails (CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)",
            DGEMM_ERROR_NO_DRIVER,
            "cuInit failed with CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803): "
            "(stand-in driver) (driver library ...)",
            faults("init-fails"), gemm);
  expectRow("dgemm_gemm_fp8_bf16_nt", "no-driver",
            "a driver older than CUDA 12 (no cuTensorMapEncodeTiled)",
            DGEMM_ERROR_NO_DRIVER,
            "the CUDA driver library ... lacks cuTensorMapEncodeTiled: dgemm "
            "needs a driver for CUDA 12.0 or newer",
            {{"DGEMM_CUDA_DRIVER", standInDriverNoTensorMaps()}}, gemm);
  Outcome o = expectRow("dgemm_gemm_config", "no-driver",
                        "libcuda.so.1 missing: the default target's config",
                        DGEMM_OK, "", kNoDriver, config);
  EXPECT_EQ(o.note.rfind("#dgemm.config<block_m = 128, block_n = 112, ", 0), 0u)
      << o.note;
  o = expectRow("dgemm_gemm_prepare", "no-driver",
                "libcuda.so.1 missing: compiled, not loaded", DGEMM_OK, "",
                kNoDriver, prepare);
  EXPECT_NE(o.note.find("; device=none"), std::string::npos) << o.note;
  o = expectRow("dgemm_get_num_sms", "no-driver",
                "libcuda.so.1 missing: the default target's 132", DGEMM_OK, "",
                kNoDriver, [](std::string &note) {
                  int64_t n = 0;
                  dgemm_status s = dgemm_get_num_sms(&n);
                  note = std::to_string(n);
                  return s;
                });
  EXPECT_EQ(o.note, "132");
}

TEST(DriverBadInput, NoDevice) {
  expectRow("dgemm_gemm_fp8_bf16_nt", "no-driver",
            "no device (cuInit: CUDA_ERROR_NO_DEVICE)", DGEMM_ERROR_NO_DEVICE,
            "cuInit failed with CUDA_ERROR_NO_DEVICE (100): (stand-in driver) "
            "(driver library ...)",
            faults("no-device"), gemm);
  expectRow("dgemm_gemm_fp8_bf16_nt", "no-driver",
            "no visible device (cuDeviceGetCount: 0)", DGEMM_ERROR_NO_DEVICE,
            "no CUDA device is visible (check CUDA_VISIBLE_DEVICES)",
            faults("zero-devices"), gemm);
}

TEST(DriverBadInput, NotSm90) {
  expectRow("dgemm_gemm_fp8_bf16_nt", "not-sm90", "an sm_80 device (A100)",
            DGEMM_ERROR_NO_DEVICE,
            "the device has compute capability 8.0 (sm_80); dgemm kernels "
            "need an sm_90 GPU (H100, H200, H800)",
            faults("sm80"), gemm);
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "not-sm90",
            "an sm_80 device (A100)", DGEMM_ERROR_NO_DEVICE,
            "the device has compute capability 8.0 (sm_80); dgemm kernels "
            "need an sm_90 GPU (H100, H200, H800)",
            faults("sm80"), contiguous);
  expectRow("dgemm_launch_kernel_ir", "not-sm90", "an sm_80 device (A100)",
            DGEMM_ERROR_NO_DEVICE,
            "the device has compute capability 8.0 (sm_80); dgemm kernels "
            "need an sm_90 GPU (H100, H200, H800)",
            faults("sm80"), [](std::string &) {
              dgemm_tensor a = matrix(0x100000, DGEMM_DTYPE_F8E4M3, 197, 256, 256);
              dgemm_tensor sa = matrix(0x200000, DGEMM_DTYPE_F32, 197, 2, 1, 200);
              dgemm_tensor b = matrix(0x300000, DGEMM_DTYPE_F8E4M3, 224, 256, 256);
              dgemm_tensor sb = matrix(0x400000, DGEMM_DTYPE_F32, 2, 2, 2);
              dgemm_tensor d = matrix(0x500000, DGEMM_DTYPE_BF16, 197, 224, 224);
              return dgemm_launch_kernel_ir("module {}", &a, &sa, &b, &sb, &d,
                                            nullptr);
            });
  Outcome o = expectRow("dgemm_gemm_prepare", "not-sm90",
                        "an sm_80 device: compiled for sm_90a, not loaded",
                        DGEMM_OK, "", faults("sm80"), prepare);
  EXPECT_NE(o.note.find("; device=none"), std::string::npos) << o.note;
}

TEST(DriverBadInput, DriverFaults) {
  expectRow("dgemm_gemm_fp8_bf16_nt", "driver-fault",
            "the primary context cannot be retained (device unavailable)",
            DGEMM_ERROR_CUDA,
            "cuDevicePrimaryCtxRetain failed: CUDA_ERROR_DEVICE_UNAVAILABLE "
            "(46): (stand-in driver)",
            faults("retain-fails"), gemm);
  expectRow("dgemm_gemm_fp8_bf16_nt", "driver-fault",
            "out of memory loading the module", DGEMM_ERROR_CUDA,
            "...cuModuleLoadDataEx failed: CUDA_ERROR_OUT_OF_MEMORY (2): "
            "(stand-in driver)\nstand-in: out of memory loading the module",
            faults("oom-on-load"), gemm);
  expectRow("dgemm_gemm_prepare", "driver-fault",
            "out of memory loading the module", DGEMM_ERROR_CUDA,
            "...cuModuleLoadDataEx failed: CUDA_ERROR_OUT_OF_MEMORY (2): "
            "(stand-in driver)\nstand-in: out of memory loading the module",
            faults("oom-on-load"), prepare);
  expectRow("dgemm_gemm_fp8_bf16_nt", "driver-fault", "the launch fails",
            DGEMM_ERROR_CUDA,
            "...cuLaunchKernelEx failed: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES "
            "(701): (stand-in driver)",
            faults("launch-fails"), gemm);
  expectRow("dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous", "driver-fault",
            "the launch fails", DGEMM_ERROR_CUDA,
            "...cuLaunchKernelEx failed: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES "
            "(701): (stand-in driver)",
            faults("launch-fails"), contiguous);
}

TEST(DriverBadInput, ThreadWithoutAContext) {
  // The stand-in's threads start without a current context: the call runs
  // in device 0's primary context and leaves the thread as it found it.
  Outcome o = expectRow(
      "dgemm_gemm_fp8_bf16_nt", "no-context",
      "a thread with no current CUDA context", DGEMM_OK, "", {},
      [](std::string &note) {
        dgemm_status s = gemm(note);
        void *h = dlopen(standInDriver().c_str(), RTLD_NOW | RTLD_NOLOAD);
        auto current = h ? reinterpret_cast<void *(*)()>(
                               dlsym(h, "dgemm_standin_current_context"))
                         : nullptr;
        note = !current ? "no stand-in" : current() ? "context left" : "none";
        return s;
      });
  EXPECT_EQ(o.launches, 1);
  EXPECT_EQ(o.note, "none");
}

} // namespace
