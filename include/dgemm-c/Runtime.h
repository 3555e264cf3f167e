/*===- Runtime.h - dgemm C API: JIT-compile and launch FP8 GEMMs ----*- C -*-===*\
|*                                                                            *|
|* Plain structs, status codes and a readable last-error message; no C++     *|
|* exceptions cross this boundary. Every function returns DGEMM_OK or an     *|
|* error code, and dgemm_last_error() says what went wrong (per thread).     *|
|*                                                                            *|
|* The CUDA driver (libcuda.so.1) is loaded with dlopen on first use: the    *|
|* library loads and compiles on machines without a GPU; only the calls     *|
|* that launch kernels need a driver and an sm_90 device.                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef DGEMM_C_RUNTIME_H
#define DGEMM_C_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dgemm_status {
  DGEMM_OK = 0,
  DGEMM_ERROR_INVALID_ARGUMENT = 1, /* wrong dtype, shape, stride, alignment */
  DGEMM_ERROR_NO_DRIVER = 2,        /* libcuda.so.1 missing or unusable */
  DGEMM_ERROR_NO_DEVICE = 3,        /* no CUDA device, or not sm_90 */
  DGEMM_ERROR_COMPILE = 4,          /* the compiler failed (message says why) */
  DGEMM_ERROR_CUDA = 5,             /* a CUDA driver call failed */
  DGEMM_ERROR_CACHE = 6,            /* reserved: the disk cache never fails a
                                       call (an unusable cache directory means
                                       memory-only caching) */
  DGEMM_ERROR_INTERNAL = 7,
  DGEMM_ERROR_STALE_BINDING = 8 /* a bound call cannot launch here (another
                                   current context, or the SM limit changed
                                   since it was bound): make the plain call */
} dgemm_status;

typedef enum dgemm_dtype {
  DGEMM_DTYPE_F8E4M3 = 0,
  DGEMM_DTYPE_F8E5M2 = 1,
  DGEMM_DTYPE_BF16 = 2,
  DGEMM_DTYPE_F32 = 3,
  DGEMM_DTYPE_I32 = 4
} dgemm_dtype;

/* A tensor in device memory: shape and strides in elements, outermost
 * dimension first (as PyTorch). `rank` is 1..4; entries past it are ignored.
 * The stride of a dimension of size 1 is never used and may be anything. */
typedef struct dgemm_tensor {
  void *data;
  dgemm_dtype dtype;
  int32_t rank;
  int64_t shape[4];
  int64_t strides[4];
} dgemm_tensor;

/* Thread-local description of the last call's error: empty after a call that
 * succeeded. Never NULL; valid until the thread's next dgemm call. */
const char *dgemm_last_error(void);

/* D[M,N] (bf16) = A[M,K] (e4m3) * B[N,K]^T (e4m3), with A scales [M, K/128]
 * f32 MN-major (strides (1, S), S >= M, S % 4 == 0) and B scales
 * [ceil(N/128), K/128] f32 contiguous. A, B and D are row-major with unit
 * inner stride and row strides of a multiple of 16 bytes (>= the row length).
 * K % 128 == 0, N % 8 == 0, all base addresses 16-byte aligned. M == 0 is a
 * no-op that succeeds (null data pointers are fine for empty tensors).
 * Runs on `stream` (a CUstream; NULL = default) in the current CUDA context
 * (or the primary context of device 0 when the thread has none). The config
 * is chosen per call from the actual M and the device (see
 * dgemm_gemm_config); the kernel is compiled on first use of its config and
 * cached in memory and on disk (DGEMM_CACHE_DIR, default ~/.cache/dgemm; an
 * unusable directory means memory-only caching). */
dgemm_status dgemm_gemm_fp8_bf16_nt(const dgemm_tensor *a,
                                    const dgemm_tensor *a_scale,
                                    const dgemm_tensor *b,
                                    const dgemm_tensor *b_scale,
                                    const dgemm_tensor *d, void *stream);

/* Epilogue fusion: D[M,N] (bf16) = A[M,K] * B[N,K]^T + bias[N], one kernel.
 * The operands as for dgemm_gemm_fp8_bf16_nt, plus `bias`: f32 [N], unit
 * stride, 8-byte aligned; bias[n] is added to column n of every row in f32,
 * before the bf16 conversion (no extra pass over D). */
dgemm_status dgemm_gemm_fp8_bf16_nt_bias(const dgemm_tensor *a,
                                         const dgemm_tensor *a_scale,
                                         const dgemm_tensor *b,
                                         const dgemm_tensor *b_scale,
                                         const dgemm_tensor *bias,
                                         const dgemm_tensor *d, void *stream);

/* Weight-gradient GEMM: D[M,N] (f32) += A[M,K] (e4m3) * B[N,K]^T (e4m3),
 * accumulated in place, with 1x128 scales for both operands: A scales
 * [M, K/128] and B scales [N, K/128], f32, MN-major (strides (1, S), S >= the
 * row count, S % 4 == 0). A, B and D row-major as for dgemm_gemm_fp8_bf16_nt
 * (D's row stride a multiple of 4 elements); K % 128 == 0 (K == 0 and M == 0
 * are no-ops), N % 8 == 0. Same stream, context and caching rules as
 * dgemm_gemm_fp8_bf16_nt. */
dgemm_status dgemm_wgrad_gemm_fp8_fp32_nt(const dgemm_tensor *a,
                                          const dgemm_tensor *a_scale,
                                          const dgemm_tensor *b,
                                          const dgemm_tensor *b_scale,
                                          const dgemm_tensor *d, void *stream);

/* k-grouped weight-gradient GEMM of MoE experts, one launch: for each group
 * g < num_groups, D[g] (f32 [M, N]) += A_g * B_g^T, where A_g [M, k_g] and
 * B_g [N, k_g] (e4m3, K-major) are stored one after another in the flat,
 * contiguous a [M * sum(k_g)] and b [N * sum(k_g)]; scales 1x128 for both,
 * a_scale [sum(k_g)/128, M] and b_scale [sum(k_g)/128, N] f32, rows of M (N)
 * scales with unit stride and row strides a multiple of 4 (16-byte rows);
 * D [G, M, N] contiguous. `ks` (host memory) holds the num_groups k_g, each
 * a non-negative multiple of 128 (empty groups add nothing); 1 <= G <= 3984;
 * N % 8 == 0. Accumulates in place like dgemm_wgrad_gemm_fp8_fp32_nt. */
dgemm_status dgemm_k_grouped_wgrad_gemm_fp8_fp32_nt(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *d, const int64_t *ks,
    int64_t num_groups, void *stream);

/* The contiguous layout with its groups given by their end rows instead of
 * m_indices: offsets [G] i32 (device memory, contiguous), offsets[g] the
 * end row (exclusive) of group g; group g starts at the first multiple of
 * 128 at or after offsets[g-1] (row 0 for g = 0), rows between a group's end
 * and the next group's start are padding. M blocks past the last group's
 * end are skipped (D untouched there); other rules as
 * dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous. */
dgemm_status dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous_offsets(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *offsets,
    const dgemm_tensor *d, void *stream);

/* m-grouped GEMM, contiguous layout (MoE prefill / training forward): for
 * each row r of A [M_sum, K], D[r, :] = A[r, :] * B[g]^T with g =
 * m_indices[r] (i32 [M_sum], contiguous), B [G, N, K] e4m3 with B scales
 * [G, ceil(N/128), K/128] f32 contiguous, A scales [M_sum, K/128] f32
 * MN-major (as dgemm_gemm_fp8_bf16_nt), D [M_sum, N] bf16. Each group's rows
 * are contiguous and padded to a multiple of 128 (so M_sum % 128 == 0);
 * a 128-row block (64 with block M 64) takes the group of its first row,
 * and a block whose first row has m_indices -1 is skipped: not loaded, not
 * computed, D left untouched there. Rows of a computed block that carry -1
 * (padding after a group's last row) are computed with that group's B.
 * B is read through a 3-D tensor map: row strides multiple of 16 bytes.
 * m_indices are read on the device (no host synchronisation). M_sum == 0 is
 * a no-op that succeeds. */
dgemm_status dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *m_indices,
    const dgemm_tensor *d, void *stream);

/* m-grouped GEMM, masked layout (MoE decode, CUDA-graph friendly): for each
 * group g, D[g, :masked_m[g], :] = A[g, :masked_m[g], :] * B[g]^T with A
 * [G, M_max, K] e4m3, A scales [G, M_max, K/128] f32 MN-major within each
 * group (strides (S0, 1, S), S >= M_max, S % 4 == 0, S0 % 4 == 0), B and
 * its scales as in the contiguous layout, masked_m i32 [G] read on the
 * device, D [G, M_max, N] bf16 contiguous. Rows at or past masked_m[g]
 * (clamped to [0, M_max]) are not written; tiles wholly past it are not
 * computed. The launch (grid, parameters) does not depend on masked_m, so
 * a captured CUDA graph can be replayed with new counts. expected_m (>= 1)
 * is the expected rows per group the config is chosen for. */
dgemm_status dgemm_m_grouped_gemm_fp8_bf16_nt_masked(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *masked_m,
    int64_t expected_m, const dgemm_tensor *d, void *stream);

/* Bound calls: a GEMM call validated, compiled, loaded and with its kernel
 * parameters encoded once, for a hot loop on the same tensors. Each
 * dgemm_bind_* function takes the arguments of the call of the same name
 * without the stream, checks them as that call does, and on success stores
 * in *out a handle whose launch does what that call would do (including
 * nothing, for M == 0). Nothing is launched by the bind itself; it compiles
 * and loads the kernel in the current context (or device 0's primary
 * context) as the first call would. The handle holds the tensors' addresses
 * and sizes, not the tensors: their contents may change between launches,
 * their storage must outlive the handle's use. A masked call reads masked_m
 * on the device at each launch, as the plain call does. */
typedef struct dgemm_bound_call dgemm_bound_call;

dgemm_status dgemm_bind_gemm_fp8_bf16_nt(const dgemm_tensor *a,
                                         const dgemm_tensor *a_scale,
                                         const dgemm_tensor *b,
                                         const dgemm_tensor *b_scale,
                                         const dgemm_tensor *d,
                                         dgemm_bound_call **out);
dgemm_status dgemm_bind_gemm_fp8_bf16_nt_bias(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *bias,
    const dgemm_tensor *d, dgemm_bound_call **out);
dgemm_status dgemm_bind_wgrad_gemm_fp8_fp32_nt(const dgemm_tensor *a,
                                               const dgemm_tensor *a_scale,
                                               const dgemm_tensor *b,
                                               const dgemm_tensor *b_scale,
                                               const dgemm_tensor *d,
                                               dgemm_bound_call **out);
dgemm_status dgemm_bind_m_grouped_gemm_fp8_bf16_nt_contiguous(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *m_indices,
    const dgemm_tensor *d, dgemm_bound_call **out);
dgemm_status dgemm_bind_m_grouped_gemm_fp8_bf16_nt_masked(
    const dgemm_tensor *a, const dgemm_tensor *a_scale, const dgemm_tensor *b,
    const dgemm_tensor *b_scale, const dgemm_tensor *masked_m,
    int64_t expected_m, const dgemm_tensor *d, dgemm_bound_call **out);

/* Launches a bound call on `stream` (NULL = default): one driver launch, no
 * checks of the tensors. It runs in the context it was bound in; on a thread
 * with another current context, or after dgemm_set_num_sms changed the
 * limit, it returns DGEMM_ERROR_STALE_BINDING and launches nothing. On a
 * thread with no current context it makes the binding's context current for
 * the launch. Safe to call from several threads at once. */
dgemm_status dgemm_bound_call_launch(dgemm_bound_call *call, void *stream);

/* Frees a bound call (NULL is a no-op). */
void dgemm_bound_call_free(dgemm_bound_call *call);

/* The kernel config the runtime will use for a normal GEMM of this shape, as
 * text ("#dgemm.config<...>", NUL-terminated). Uses the device of the current
 * context (or device 0) when a driver and an sm_90 device are present, else
 * the default target (sm_90a, 132 SMs, 232448 bytes of shared memory). A
 * buffer too small gives DGEMM_ERROR_INVALID_ARGUMENT naming the size needed
 * (256 bytes are always enough). */
dgemm_status dgemm_gemm_config(int64_t m, int64_t n, int64_t k, char *buf,
                               int64_t buf_size);

/* Compile (or fetch from cache) the normal GEMM kernel for (m, n, k) without
 * launching it. Needs no GPU: without a usable driver/device the kernel is
 * compiled for the default target and not loaded. `*compile_ms` (may be
 * NULL) receives the time spent in the compiler (0 on a cache hit).
 * `info` (may be NULL) receives "key=value; ..." text: config, kernel,
 * cache (memory|disk|compiled), block, cluster, dynamic_smem, max_ctas and,
 * when loaded on a device, load_ms, registers, local_bytes (spills). */
dgemm_status dgemm_gemm_prepare(int64_t m, int64_t n, int64_t k,
                                double *compile_ms, char *info,
                                int64_t info_size);

/* Kernel IR round trip: compile the kernel-IR module text (what
 * `dgemm-opt --dgemm-select-config --dgemm-lower-to-kernel` prints, possibly
 * edited) with the rest of the pipeline (dgemm-kernel-to-ptx) and launch the
 * kernel that carries a `dgemm.launch` contract with these operands (checked
 * as for dgemm_gemm_fp8_bf16_nt). Cached by the text's hash. */
dgemm_status dgemm_launch_kernel_ir(const char *kernel_ir,
                                    const dgemm_tensor *a,
                                    const dgemm_tensor *a_scale,
                                    const dgemm_tensor *b,
                                    const dgemm_tensor *b_scale,
                                    const dgemm_tensor *d, void *stream);

/* The same round trip for the kernel IR of a weight-gradient GEMM (what the
 * lowering writes for dgemm.gemm with 1x128 B scales and an f32 D
 * accumulated in place): operands checked as for
 * dgemm_wgrad_gemm_fp8_fp32_nt; D += A * B^T. */
dgemm_status dgemm_launch_wgrad_kernel_ir(
    const char *kernel_ir, const dgemm_tensor *a, const dgemm_tensor *a_scale,
    const dgemm_tensor *b, const dgemm_tensor *b_scale, const dgemm_tensor *d,
    void *stream);

/* The same round trip for an m-grouped kernel's IR (what the lowering writes
 * for dgemm.grouped_gemm): compiled first, then the operands are checked as
 * for dgemm_m_grouped_gemm_fp8_bf16_nt_contiguous or _masked, whichever
 * layout the kernel's contract states (groups: m_indices or masked_m), and
 * the kernel is launched. A kernel of another layout is
 * DGEMM_ERROR_INVALID_ARGUMENT. For config sweeps of the grouped kernels. */
dgemm_status dgemm_launch_grouped_kernel_ir(
    const char *kernel_ir, const dgemm_tensor *a, const dgemm_tensor *a_scale,
    const dgemm_tensor *b, const dgemm_tensor *b_scale,
    const dgemm_tensor *groups, const dgemm_tensor *d, void *stream);

/* Compile dgemm IR text (a module of dgemm ops) to PTX with the dgemm-to-ptx
 * pipeline; no GPU needed. `*ptx` is malloc'ed; free with dgemm_free. */
dgemm_status dgemm_compile_to_ptx(const char *dgemm_ir, char **ptx);

/* Limits the SMs the persistent grid of the kernels chosen from now on may
 * use (DeepGEMM's set_num_sms), e.g. to leave SMs to communication kernels;
 * 0 removes the limit. A negative n is DGEMM_ERROR_INVALID_ARGUMENT.
 * Process-wide; the limit is part of the chosen config, so kernels compiled
 * under different limits are cached apart. */
dgemm_status dgemm_set_num_sms(int64_t n);

/* The limit set with dgemm_set_num_sms, else the SMs of the current device,
 * else (no driver or no sm_90 device) the default target's 132. */
dgemm_status dgemm_get_num_sms(int64_t *n);

void dgemm_free(void *p);

/* The JIT's settings as "key=value; ..." text (NUL-terminated):
 * cache_dir (empty: memory-only caching), disable_cache, print_configs,
 * dump_ir, log. The runtime reads its environment once, at first use:
 *   DGEMM_CACHE_DIR       the disk cache (default ~/.cache/dgemm)
 *   DGEMM_DISABLE_CACHE=1 no disk cache reads or writes (memory cache only)
 *   DGEMM_PRINT_CONFIGS=1 a stderr line per distinct kernel when it is first
 *                         compiled or loaded: shape, config, kernel name
 *   DGEMM_DUMP_IR=<dir>   each compiled kernel's IR after every pipeline
 *                         stage, and its PTX, as files in <dir>
 *   DGEMM_LOG=1|2         cache misses, disk hits, compiles and module loads
 *                         with times on stderr (2: also memory hits)
 * A value not understood is a warning on stderr, never an error. A buffer
 * too small gives DGEMM_ERROR_INVALID_ARGUMENT naming the size needed. */
dgemm_status dgemm_jit_settings(char *buf, int64_t buf_size);

#ifdef __cplusplus
}
#endif

#endif /* DGEMM_C_RUNTIME_H */
