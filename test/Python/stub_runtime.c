/*===- stub_runtime.c - a stand-in libdgemm for the Python tests ----------===*\
|*                                                                            *|
|* Implements include/dgemm-c/Runtime.h without MLIR or a GPU: it records    *|
|* what each call received and returns a status the test chose, so the       *|
|* tests check the ctypes declarations across the real C ABI (struct         *|
|* layout, pointers, strings, out-parameters). Built by test_lib.py with the *|
|* system C compiler; the stub_* functions are for the tests only.           *|
\*===----------------------------------------------------------------------===*/
#include "dgemm-c/Runtime.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static __thread char last_error[512] = "";
static dgemm_tensor last_tensors[6];
static int64_t last_expected_m;
static void *last_stream;
static int calls;
static int next_status;
static char next_message[256];
static char last_ir[4096];

static dgemm_status finish(void) {
  dgemm_status s = (dgemm_status)next_status;
  snprintf(last_error, sizeof last_error, "%s", s ? next_message : "");
  next_status = 0;
  return s;
}

void stub_set_next_status(int status, const char *message) {
  next_status = status;
  snprintf(next_message, sizeof next_message, "%s", message ? message : "");
}
int stub_calls(void) { return calls; }
const dgemm_tensor *stub_last_tensor(int i) { return &last_tensors[i]; }
void *stub_last_stream(void) { return last_stream; }
const char *stub_last_ir(void) { return last_ir; }
/* sizeof(dgemm_tensor) and the offsets of its fields, in declaration order. */
void stub_layout(int64_t out[6]) {
  out[0] = (int64_t)sizeof(dgemm_tensor);
  out[1] = (int64_t)offsetof(dgemm_tensor, data);
  out[2] = (int64_t)offsetof(dgemm_tensor, dtype);
  out[3] = (int64_t)offsetof(dgemm_tensor, rank);
  out[4] = (int64_t)offsetof(dgemm_tensor, shape);
  out[5] = (int64_t)offsetof(dgemm_tensor, strides);
}

const char *dgemm_last_error(void) { return last_error; }

static void record(const dgemm_tensor *a, const dgemm_tensor *sa,
                   const dgemm_tensor *b, const dgemm_tensor *sb,
                   const dgemm_tensor *d, void *stream) {
  last_tensors[0] = *a;
  last_tensors[1] = *sa;
  last_tensors[2] = *b;
  last_tensors[3] = *sb;
  last_tensors[4] = *d;
  last_stream = stream;
  ++calls;
}

dgemm_status dgemm_gemm_fp8_bf16_nt(const dgemm_tensor *a, const dgemm_tensor *sa,
                                    const dgemm_tensor *b, const dgemm_tensor *sb,
                                    const dgemm_tensor *d, void *stream) {
  record(a, sa, b, sb, d, stream);
  return finish();
}

/* The bias lands in slot 5 (after D in slot 4). */
dgemm_status dgemm_gemm_fp8_bf16_nt_bias(const dgemm_tensor *a, const dgemm_tensor *sa,
                                         const dgemm_tensor *b, const dgemm_tensor *sb,
                                         const dgemm_tensor *bias, const dgemm_tensor *d,
                                         void *stream) {
  record(a, sa, b, sb, d, stream);
  last_tensors[5] = *bias;
  return finish();
}

dgemm_status dgemm_wgrad_gemm_fp8_fp32_nt(const dgemm_tensor *a, const dgemm_tensor *sa,
                                          const dgemm_tensor *b, const dgemm_tensor *sb,
                                          const dgemm_tensor *d, void *stream) {
  record(a, sa, b, sb, d, stream);
  return finish();
}

dgemm_status dgemm_launch_wgrad_kernel_ir(const char *ir, const dgemm_tensor *a,
                                          const dgemm_tensor *sa, const dgemm_tensor *b,
                                          const dgemm_tensor *sb, const dgemm_tensor *d,
                                          void *stream) {
  (void)ir;
  record(a, sa, b, sb, d, stream);
  return finish();
}

static int64_t last_ks[128];
static int64_t last_num_groups;
int64_t stub_last_k(int i) { return last_ks[i]; }
int64_t stub_last_num_groups(void) { return last_num_groups; }

dgemm_status dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt(
    const dgemm_tensor *a, const dgemm_tensor *sa, const dgemm_tensor *b,
    const dgemm_tensor *sb, const dgemm_tensor *d, const int64_t *ks,
    int64_t num_groups, void *stream) {
  record(a, sa, b, sb, d, stream);
  last_num_groups = num_groups;
  for (int64_t i = 0; i < num_groups && i < 128; ++i)
    last_ks[i] = ks[i];
  return finish();
}

/* Grouped calls record A, A scales, B, B scales, groups, D as tensors 0-5. */
static void recordGrouped(const dgemm_tensor *a, const dgemm_tensor *sa,
                          const dgemm_tensor *b, const dgemm_tensor *sb,
                          const dgemm_tensor *groups, const dgemm_tensor *d,
                          void *stream) {
  record(a, sa, b, sb, groups, stream);
  last_tensors[5] = *d;
}

dgemm_status dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets(
    const dgemm_tensor *a, const dgemm_tensor *sa, const dgemm_tensor *b,
    const dgemm_tensor *sb, const dgemm_tensor *offsets, const dgemm_tensor *d,
    void *stream) {
  recordGrouped(a, sa, b, sb, offsets, d, stream);
  return finish();
}

dgemm_status dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous(
    const dgemm_tensor *a, const dgemm_tensor *sa, const dgemm_tensor *b,
    const dgemm_tensor *sb, const dgemm_tensor *m_indices,
    const dgemm_tensor *d, void *stream) {
  recordGrouped(a, sa, b, sb, m_indices, d, stream);
  return finish();
}

dgemm_status dgemm_m_grouped_gemm_fp8_bf16_nt_masked(
    const dgemm_tensor *a, const dgemm_tensor *sa, const dgemm_tensor *b,
    const dgemm_tensor *sb, const dgemm_tensor *masked_m, int64_t expected_m,
    const dgemm_tensor *d, void *stream) {
  recordGrouped(a, sa, b, sb, masked_m, d, stream);
  last_expected_m = expected_m;
  return finish();
}

int64_t stub_last_expected_m(void) { return last_expected_m; }

/* Bound calls: the bind copies the operand structs (every bind succeeds
 * unless stub_set_bind_status chose otherwise) and each launch records them
 * as the plain call would; stub_set_stale(1) makes launches stale. */
struct dgemm_bound_call {
  int kind; /* 0 normal, 1 contiguous, 2 masked, 3 wgrad, 4 with a bias */
  dgemm_tensor t[6];
  int64_t expected_m;
};
static int binds, bound_launches, stale, bind_status, bound_frees;
int stub_binds(void) { return binds; }
int stub_bound_launches(void) { return bound_launches; }
int stub_bound_frees(void) { return bound_frees; }
void stub_set_stale(int on) { stale = on; }
void stub_set_bind_status(int status) { bind_status = status; }

static dgemm_status bind(int kind, const dgemm_tensor *const *ts, int n,
                         int64_t expected_m, dgemm_bound_call **out) {
  ++binds;
  if (bind_status) {
    snprintf(last_error, sizeof last_error, "stub: bind failed");
    return (dgemm_status)bind_status;
  }
  dgemm_bound_call *c = calloc(1, sizeof *c);
  c->kind = kind;
  for (int i = 0; i < n; ++i)
    c->t[i] = *ts[i];
  c->expected_m = expected_m;
  *out = c;
  return DGEMM_OK;
}

dgemm_status dgemm_bind_gemm_fp8_bf16_nt(const dgemm_tensor *a, const dgemm_tensor *sa,
                                         const dgemm_tensor *b, const dgemm_tensor *sb,
                                         const dgemm_tensor *d, dgemm_bound_call **out) {
  const dgemm_tensor *ts[] = {a, sa, b, sb, d};
  return bind(0, ts, 5, 0, out);
}

/* Kept as a, sa, b, sb, bias, d (the call's order). */
dgemm_status dgemm_bind_gemm_fp8_bf16_nt_bias(
    const dgemm_tensor *a, const dgemm_tensor *sa, const dgemm_tensor *b,
    const dgemm_tensor *sb, const dgemm_tensor *bias, const dgemm_tensor *d,
    dgemm_bound_call **out) {
  const dgemm_tensor *ts[] = {a, sa, b, sb, bias, d};
  return bind(4, ts, 6, 0, out);
}

dgemm_status dgemm_bind_wgrad_gemm_fp8_fp32_nt(const dgemm_tensor *a, const dgemm_tensor *sa,
                                               const dgemm_tensor *b, const dgemm_tensor *sb,
                                               const dgemm_tensor *d, dgemm_bound_call **out) {
  const dgemm_tensor *ts[] = {a, sa, b, sb, d};
  return bind(3, ts, 5, 0, out);
}

dgemm_status dgemm_bind_m_grouped_gemm_fp8_bf16_nt_contiguous(
    const dgemm_tensor *a, const dgemm_tensor *sa, const dgemm_tensor *b,
    const dgemm_tensor *sb, const dgemm_tensor *m_indices, const dgemm_tensor *d,
    dgemm_bound_call **out) {
  const dgemm_tensor *ts[] = {a, sa, b, sb, m_indices, d};
  return bind(1, ts, 6, 0, out);
}

dgemm_status dgemm_bind_m_grouped_gemm_fp8_bf16_nt_masked(
    const dgemm_tensor *a, const dgemm_tensor *sa, const dgemm_tensor *b,
    const dgemm_tensor *sb, const dgemm_tensor *masked_m, int64_t expected_m,
    const dgemm_tensor *d, dgemm_bound_call **out) {
  const dgemm_tensor *ts[] = {a, sa, b, sb, masked_m, d};
  return bind(2, ts, 6, expected_m, out);
}

dgemm_status dgemm_bound_call_launch(dgemm_bound_call *c, void *stream) {
  if (stale) {
    snprintf(last_error, sizeof last_error, "stub: stale");
    return DGEMM_ERROR_STALE_BINDING;
  }
  ++bound_launches;
  if (c->kind == 1 || c->kind == 2)
    recordGrouped(&c->t[0], &c->t[1], &c->t[2], &c->t[3], &c->t[4], &c->t[5], stream);
  else if (c->kind == 4) { /* as dgemm_gemm_fp8_bf16_nt_bias records it */
    record(&c->t[0], &c->t[1], &c->t[2], &c->t[3], &c->t[5], stream);
    last_tensors[5] = c->t[4];
  } else
    record(&c->t[0], &c->t[1], &c->t[2], &c->t[3], &c->t[4], stream);
  if (c->kind == 2)
    last_expected_m = c->expected_m;
  return finish();
}

void dgemm_bound_call_free(dgemm_bound_call *c) {
  if (c)
    ++bound_frees;
  free(c);
}

dgemm_status dgemm_launch_grouped_kernel_ir(
    const char *kernel_ir, const dgemm_tensor *a, const dgemm_tensor *sa,
    const dgemm_tensor *b, const dgemm_tensor *sb, const dgemm_tensor *groups,
    const dgemm_tensor *d, void *stream) {
  snprintf(last_ir, sizeof last_ir, "%s", kernel_ir ? kernel_ir : "");
  recordGrouped(a, sa, b, sb, groups, d, stream);
  return finish();
}

dgemm_status dgemm_gemm_config(int64_t m, int64_t n, int64_t k, char *buf,
                               int64_t buf_size) {
  ++calls;
  if (next_status)
    return finish();
  char text[4096];
  int len = snprintf(text, sizeof text,
                     "#dgemm.config<block_m = 128, block_n = 160, stages = 5, "
                     "m = %lld, n = %lld, k = %lld",
                     (long long)m, (long long)n, (long long)k);
  if (m >= 100000) /* a long text: more than the Python layer's first buffer */
    for (int i = 0; i < 300; ++i)
      len += snprintf(text + len, sizeof text - len, ", x%d = 1", i % 10);
  snprintf(text + len, sizeof text - len, ">");
  if ((int64_t)strlen(text) >= buf_size) { /* as the real library does */
    buf[0] = '\0';
    char msg[128];
    snprintf(msg, sizeof msg, "the config text needs %zu bytes, buf_size is %lld",
             strlen(text) + 1, (long long)buf_size);
    stub_set_next_status(DGEMM_ERROR_INVALID_ARGUMENT, msg);
    return finish();
  }
  snprintf(buf, (size_t)buf_size, "%s", text);
  return finish();
}

dgemm_status dgemm_gemm_prepare(int64_t m, int64_t n, int64_t k, double *compile_ms,
                                char *info, int64_t info_size) {
  ++calls;
  if (next_status)
    return finish();
  *compile_ms = 12.5;
  if (info)
    snprintf(info, (size_t)info_size, "config=stub %lldx%lldx%lld; registers=168",
             (long long)m, (long long)n, (long long)k);
  return finish();
}

dgemm_status dgemm_launch_kernel_ir(const char *kernel_ir, const dgemm_tensor *a,
                                    const dgemm_tensor *sa, const dgemm_tensor *b,
                                    const dgemm_tensor *sb, const dgemm_tensor *d,
                                    void *stream) {
  snprintf(last_ir, sizeof last_ir, "%s", kernel_ir);
  record(a, sa, b, sb, d, stream);
  return finish();
}

dgemm_status dgemm_compile_to_ptx(const char *dgemm_ir, char **ptx) {
  ++calls;
  if (!strstr(dgemm_ir, "dgemm.gemm")) {
    stub_set_next_status(DGEMM_ERROR_COMPILE, "stub: no dgemm.gemm op in the module");
    return finish();
  }
  const char *text = ".version 8.6\n.target sm_90a\n// stub\n";
  *ptx = (char *)malloc(strlen(text) + 1);
  strcpy(*ptx, text);
  return finish();
}

void dgemm_free(void *p) { free(p); }

static int64_t stub_num_sms = 0;

dgemm_status dgemm_set_num_sms(int64_t n) {
  if (n < 0) {
    stub_set_next_status(DGEMM_ERROR_INVALID_ARGUMENT, "stub: n must be >= 0");
    return finish();
  }
  stub_num_sms = n;
  return finish();
}

dgemm_status dgemm_get_num_sms(int64_t *n) {
  *n = stub_num_sms > 0 ? stub_num_sms : 132;
  return finish();
}

dgemm_status dgemm_jit_settings(char *buf, int64_t buf_size) {
  if (buf && buf_size > 0)
    snprintf(buf, (size_t)buf_size,
             "cache_dir=/stub/cache; disable_cache=0; print_configs=1; "
             "dump_ir=; log=2");
  return finish();
}
