//===- BoundCallTest.cpp - dgemm_bind_* and dgemm_bound_call_launch ------===//
//
// Bound calls on the stand-in driver, each row in a child: a bind launches
// nothing and its launches launch what the plain call launches (same grid);
// a bad operand fails the bind with the plain call's message and no handle;
// a launch after dgemm_set_num_sms, or under another current context, is
// DGEMM_ERROR_STALE_BINDING and launches nothing; a thread with no current
// context launches in the binding's context and is left without one.
//
//===----------------------------------------------------------------------===//
#include "BadInputRow.h"
#include "ValidOperands.h"

#include "gtest/gtest.h"

#include <dlfcn.h>

#include <string>
#include <thread>

using namespace dgemm::test;

namespace {

/// A function of the stand-in driver loaded in this process (or null).
template <typename Fn> Fn *standIn(const char *name) {
  void *h = dlopen(standInDriver().c_str(), RTLD_NOW | RTLD_NOLOAD);
  return h ? reinterpret_cast<Fn *>(dlsym(h, name)) : nullptr;
}

int launches() {
  auto fn = standIn<int()>("dgemm_standin_launches");
  return fn ? fn() : -1;
}

unsigned lastGrid() {
  auto fn = standIn<unsigned()>("dgemm_standin_last_grid_x");
  return fn ? fn() : 0;
}

/// After a bind that returned `s`: launches the call `times` times (while
/// each succeeds), frees it and returns the last status.
dgemm_status launchAndFree(dgemm_status s, dgemm_bound_call *call, int times) {
  for (int i = 0; i < times && s == DGEMM_OK; ++i)
    s = dgemm_bound_call_launch(call, nullptr);
  dgemm_bound_call_free(call);
  return s;
}

dgemm_status bindGemm(const Gemm &g, dgemm_bound_call **out) {
  return dgemm_bind_gemm_fp8_bf16_nt(&g.a, &g.sa, &g.b, &g.sb, &g.d, out);
}

/// Binds `g`, notes the launches the bind made, launches the call `times`
/// times and notes the launches and grid; returns the last status.
dgemm_status bindAndLaunch(const Gemm &g, int times, std::string &note) {
  dgemm_bound_call *call = nullptr;
  dgemm_status s = bindGemm(g, &call);
  if (s != DGEMM_OK)
    return s;
  note = "bind launched " + std::to_string(launches());
  s = launchAndFree(s, call, times);
  note += ", then " + std::to_string(launches()) + " grid " +
          std::to_string(lastGrid());
  return s;
}

TEST(BoundCall, LaunchesWhatThePlainCallLaunches) {
  Outcome plain = expectRow("dgemm_gemm_fp8_bf16_nt", "none",
                            "valid operands (M=197, N=224, K=256)", DGEMM_OK,
                            "", {}, [](std::string &note) {
                              dgemm_status s = Gemm().run();
                              note = std::to_string(lastGrid());
                              return s;
                            });
  Outcome o = expectRow("dgemm_bind_gemm_fp8_bf16_nt", "none",
                        "valid operands, bound once and launched 3 times",
                        DGEMM_OK, "", {}, [](std::string &note) {
                          return bindAndLaunch(Gemm(), 3, note);
                        });
  EXPECT_EQ(o.launches, 3);
  EXPECT_EQ(o.note, "bind launched 0, then 3 grid " + plain.note);
}

/// dgemm_bind_gemm_fp8_bf16_nt_bias on `g` with an f32 bias [224] at
/// `biasAddress` (ValidOperands.h's Gemm has N = 224).
dgemm_status bindGemmBias(const Gemm &g, uintptr_t biasAddress,
                          dgemm_bound_call **out) {
  dgemm_tensor bias = dense(biasAddress, DGEMM_DTYPE_F32, {224});
  return dgemm_bind_gemm_fp8_bf16_nt_bias(&g.a, &g.sa, &g.b, &g.sb, &bias, &g.d,
                                          out);
}

TEST(BoundCall, BiasCallLaunchesWhatThePlainBiasCallLaunches) {
  Outcome plain =
      expectRow("dgemm_gemm_fp8_bf16_nt_bias", "none",
                "valid operands and bias, grid noted", DGEMM_OK, "", {},
                [](std::string &note) {
                  Gemm g;
                  dgemm_tensor bias = dense(0x600000, DGEMM_DTYPE_F32, {224});
                  dgemm_status s = dgemm_gemm_fp8_bf16_nt_bias(
                      &g.a, &g.sa, &g.b, &g.sb, &bias, &g.d, nullptr);
                  note = std::to_string(lastGrid());
                  return s;
                });
  Outcome o =
      expectRow("dgemm_bind_gemm_fp8_bf16_nt_bias", "none",
                "valid operands and bias, bound once and launched 3 times",
                DGEMM_OK, "", {}, [](std::string &note) {
                  dgemm_bound_call *call = nullptr;
                  dgemm_status s = bindGemmBias(Gemm(), 0x600000, &call);
                  if (s != DGEMM_OK)
                    return s;
                  note = "bind launched " + std::to_string(launches());
                  s = launchAndFree(s, call, 3);
                  note += ", then " + std::to_string(launches()) + " grid " +
                          std::to_string(lastGrid());
                  return s;
                });
  EXPECT_EQ(o.launches, 3);
  EXPECT_EQ(o.note, "bind launched 0, then 3 grid " + plain.note);
  o = expectRow("dgemm_bind_gemm_fp8_bf16_nt_bias", "misaligned",
                "bias's address 4 bytes off", DGEMM_ERROR_INVALID_ARGUMENT,
                "bias data address is not 8-byte aligned", {},
                [](std::string &note) {
                  dgemm_bound_call *call = nullptr;
                  dgemm_status s = bindGemmBias(Gemm(), 0x600004, &call);
                  note = call ? "handle set" : "no handle";
                  return s;
                });
  EXPECT_EQ(o.note, "no handle");
  EXPECT_EQ(o.launches, 0);
}

TEST(BoundCall, EmptyMBindsACallThatLaunchesNothing) {
  Outcome o = expectRow("dgemm_bind_gemm_fp8_bf16_nt", "zero",
                        "M = 0, bound and launched", DGEMM_OK, "", {},
                        [](std::string &note) {
                          Gemm g;
                          g.a.shape[0] = g.sa.shape[0] = g.d.shape[0] = 0;
                          return bindAndLaunch(g, 2, note);
                        });
  EXPECT_EQ(o.launches, 0);
}

TEST(BoundCall, BadOperandsBindNothing) {
  Outcome o = expectRow(
      "dgemm_bind_gemm_fp8_bf16_nt", "null", "a is NULL",
      DGEMM_ERROR_INVALID_ARGUMENT, "a is NULL", {}, [](std::string &note) {
        Gemm g;
        dgemm_bound_call *call = reinterpret_cast<dgemm_bound_call *>(&g);
        dgemm_status s =
            dgemm_bind_gemm_fp8_bf16_nt(nullptr, &g.sa, &g.b, &g.sb, &g.d, &call);
        note = call ? "handle set" : "no handle";
        return s;
      });
  EXPECT_EQ(o.note, "no handle");
  expectRow("dgemm_bind_gemm_fp8_bf16_nt", "null", "out is NULL",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "out (the bound call's handle) is NULL", {}, [](std::string &) {
              return bindGemm(Gemm(), nullptr);
            });
  expectRow("dgemm_bound_call_launch", "null", "call is NULL",
            DGEMM_ERROR_INVALID_ARGUMENT, "call (the bound call) is NULL", {},
            [](std::string &) {
              return dgemm_bound_call_launch(nullptr, nullptr);
            });
  expectRow("dgemm_bind_gemm_fp8_bf16_nt", "k128", "K = 200",
            DGEMM_ERROR_INVALID_ARGUMENT,
            "K must be a positive multiple of 128, got 200", {},
            [](std::string &) {
              Gemm g;
              g.a.shape[1] = g.b.shape[1] = 200;
              dgemm_bound_call *call = nullptr;
              return bindGemm(g, &call);
            });
}

TEST(BoundCall, StaleAfterSetNumSms) {
  Outcome o = expectRow(
      "dgemm_bound_call_launch", "stale", "dgemm_set_num_sms(64) after the bind",
      DGEMM_ERROR_STALE_BINDING,
      "dgemm_set_num_sms changed the SM limit since the call was bound (0, "
      "now 64): bind it again",
      {}, [](std::string &) {
        dgemm_bound_call *call = nullptr;
        dgemm_status s = bindGemm(Gemm(), &call);
        if (s != DGEMM_OK)
          return s;
        dgemm_set_num_sms(64);
        return dgemm_bound_call_launch(call, nullptr);
      });
  EXPECT_EQ(o.launches, 0);
}

TEST(BoundCall, StaleInAnotherContext) {
  Outcome o = expectRow(
      "dgemm_bound_call_launch", "stale",
      "another CUDA context current at the launch", DGEMM_ERROR_STALE_BINDING,
      "the call was bound in another CUDA context than the thread's current "
      "one",
      {}, [](std::string &) {
        dgemm_bound_call *call = nullptr;
        dgemm_status s = bindGemm(Gemm(), &call);
        auto setCurrent = standIn<int(void *)>("cuCtxSetCurrent");
        if (s != DGEMM_OK || !setCurrent)
          return s == DGEMM_OK ? DGEMM_ERROR_INTERNAL : s;
        static int otherContext;
        setCurrent(&otherContext);
        return dgemm_bound_call_launch(call, nullptr);
      });
  EXPECT_EQ(o.launches, 0);
}

TEST(BoundCall, ThreadWithoutAContext) {
  // The bind runs in device 0's primary context and leaves none current; a
  // launch from another thread without a context runs there and leaves the
  // thread without one too.
  Outcome o = expectRow(
      "dgemm_bound_call_launch", "no-context",
      "a thread with no current CUDA context", DGEMM_OK, "", {},
      [](std::string &note) {
        dgemm_bound_call *call = nullptr;
        dgemm_status s = bindGemm(Gemm(), &call);
        if (s != DGEMM_OK)
          return s;
        auto current = standIn<void *()>("dgemm_standin_current_context");
        std::thread t([&] {
          s = dgemm_bound_call_launch(call, nullptr);
          note = !current ? "no stand-in" : current() ? "context left" : "none";
        });
        t.join();
        return s;
      });
  EXPECT_EQ(o.launches, 1);
  EXPECT_EQ(o.note, "none");
}

TEST(BoundCall, GroupedAndWeightGradientCalls) {
  Outcome o = expectRow(
      "dgemm_bind_m_grouped_gemm_fp8_bf16_nt_contiguous", "none",
      "valid contiguous operands, launched twice", DGEMM_OK, "", {},
      [](std::string &) {
        Contiguous c;
        dgemm_bound_call *call = nullptr;
        dgemm_status s = dgemm_bind_m_grouped_gemm_fp8_bf16_nt_contiguous(
            &c.a, &c.sa, &c.b, &c.sb, &c.idx, &c.d, &call);
        return launchAndFree(s, call, 2);
      });
  EXPECT_EQ(o.launches, 2);
  o = expectRow("dgemm_bind_m_grouped_gemm_fp8_bf16_nt_masked", "none",
                "valid masked operands, launched twice", DGEMM_OK, "", {},
                [](std::string &) {
                  Masked m;
                  dgemm_bound_call *call = nullptr;
                  dgemm_status s = dgemm_bind_m_grouped_gemm_fp8_bf16_nt_masked(
                      &m.a, &m.sa, &m.b, &m.sb, &m.mm, m.expectedM, &m.d, &call);
                  return launchAndFree(s, call, 2);
                });
  EXPECT_EQ(o.launches, 2);
  o = expectRow("dgemm_bind_m_grouped_gemm_fp8_bf16_nt_masked", "value",
                "expected_m = 0", DGEMM_ERROR_INVALID_ARGUMENT, "expected_m must be at least 1 (the expected rows per group), got 0",
                {}, [](std::string &) {
                  Masked m;
                  dgemm_bound_call *call = nullptr;
                  return dgemm_bind_m_grouped_gemm_fp8_bf16_nt_masked(
                      &m.a, &m.sa, &m.b, &m.sb, &m.mm, 0, &m.d, &call);
                });
  o = expectRow("dgemm_bind_wgrad_gemm_fp8_fp32_nt", "none",
                "valid weight-gradient operands, launched twice", DGEMM_OK, "",
                {}, [](std::string &) {
                  Wgrad w;
                  dgemm_bound_call *call = nullptr;
                  dgemm_status s = dgemm_bind_wgrad_gemm_fp8_fp32_nt(
                      &w.a, &w.sa, &w.b, &w.sb, &w.d, &call);
                  return launchAndFree(s, call, 2);
                });
  EXPECT_EQ(o.launches, 2);
}

} // namespace
