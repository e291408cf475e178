/*
 * gateway.h - the only door from C into the CUDA backend (the .cu files in lib/cuda).
 *
 * Every function returns a spira_status and records the CUDA/cuBLAS error name and string
 * in the context. Built without CUDA, lib/cuda_stub.c supplies the same functions
 * returning SPIRA_ERR_UNSUPPORTED ("built without CUDA"). Pointers named d* are device
 * memory; n counts values of dtype t.
 */
#ifndef SPIRA_CUDA_GATEWAY_H
#define SPIRA_CUDA_GATEWAY_H

#include "spira_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What every CUDA entry point returns in a build without CUDA (lib/cuda_stub.c): a
 * SPIRA_ERR_UNSUPPORTED saying so. Stubs of upper layers' entry points return it too. */
spira_status spira__no_cuda(spira_context ctx);

/* Select ctx->device, create stream, cuBLAS handle; fill ctx->device_name. */
spira_status spira__cuda_init(spira_context ctx);
void spira__cuda_fini(spira_context ctx);
/* The thread that loads the library's kernels in the background (preload.cu): started by
 * spira__cuda_init for the first context on a device (NULL: none), joined by fini. */
void *spira__cuda_preload_start(int device);
void spira__cuda_preload_join(void *thread);
/* Number of usable devices (0 when there is no driver or no GPU). */
int spira__cuda_device_count(void);
/* Several devices (lib/devices.c): make ctx's device the current one; let a and b read
 * and write each other's memory where the hardware allows (else copies between them go
 * through the host, slower, not wrong); events (opaque cudaEvent_t without timing) made on
 * ctx's device, recorded on and waited for by one of ctx's streams (side 0: the context's
 * stream, 1: its side stream, spira__cuda_side); a copy between two devices' memory
 * queued on one of ctx's streams. */
spira_status spira__cuda_activate(spira_context ctx);
spira_status spira__cuda_peer_enable(spira_context a, spira_context b);
spira_status spira__cuda_event_create(spira_context ctx, void **e);
void spira__cuda_event_destroy(void *e);
spira_status spira__cuda_event_record(spira_context ctx, int side, void *e);
spira_status spira__cuda_event_wait(spira_context ctx, int side, void *e);
spira_status spira__cuda_copy_peer(spira_context ctx, int side, void *dst, int dst_device,
                                   const void *src, int src_device, size_t bytes);

spira_status spira__cuda_malloc(spira_context ctx, void **dp, size_t bytes, const char *what);
void spira__cuda_free(spira_context ctx, void *dp);
/* Scratch of one call (a conversion's temporaries): allocated and freed in the order of the
 * context's stream (from the context's memory pool, runtime.cu), so that neither waits for
 * the device as cudaFree does, and freeing right after enqueueing the work that reads it is
 * safe on every path, failures included. Budget-checked, counted and failure-injected as
 * spira__cuda_malloc. */
spira_status spira__cuda_scratch_malloc(spira_context ctx, void **dp, size_t bytes,
                                        const char *what);
void spira__cuda_scratch_free(spira_context ctx, void *dp); /* NULL is fine */
spira_status spira__cuda_upload(spira_context ctx, void *dst, const void *src, size_t bytes);
/* *dst = a new device copy of bytes at src (malloc, then upload): what every format's
 * upload does per array. On failure *dst is NULL or allocated (free it with the rest). */
spira_status spira__cuda_clone(spira_context ctx, void **dst, const void *src, size_t bytes,
                               const char *what);
spira_status spira__cuda_download(spira_context ctx, void *dst, const void *src, size_t bytes);
spira_status spira__cuda_copy(spira_context ctx, void *ddst, const void *dsrc, size_t bytes);
spira_status spira__cuda_zero(spira_context ctx, void *d, size_t bytes); /* on the stream */
/* Every byte of d set to SPIRA__POISON_BYTE, on the stream (ctx->poison_builds): as an int32
 * it is negative but not the -1 of padding, as a float or double neither 0 nor a value a
 * test draws. */
#define SPIRA__POISON_BYTE 0xa5
spira_status spira__cuda_poison(spira_context ctx, void *d, size_t bytes);
spira_status spira__cuda_synchronize(spira_context ctx);

/* A CSR matrix on the device: the CSR-family formats' handle (spmv/csr_gpu.cuh) and the ILU
 * factor's triangles (precond/ilu_gpu.cu) are both this. */
typedef struct spira__csr_dev {
    int32_t nrows, ncols, nnz;
    spira_dtype dtype;
    int32_t *row_ptr, *col_idx; /* device */
    void *val;                  /* device */
    double mean_row;            /* nnz / nrows, for kernels that size work by it */
    /* every value exactly 1: 1, not: -1, not known yet: 0 (a zeroed struct); set by the
     * matrix's upload, else found once by spira__rows_dev_values_one (rows_gpu.cuh) */
    int8_t values_one;
    /* whether sell would gather hub columns (spmv/sell.h), the same three states: found by
     * auto's statistics (spira__sell_dev_hubs_of), so sell's build skips its count when
     * there are none */
    int8_t hubs;
} spira__csr_dev;
/* *d = a device copy of A of its own, outside any format (NULL on failure, nothing left). */
spira_status spira__cuda_csr_upload(spira_context ctx, const spira__csr *A, spira__csr_dev **d);
void spira__cuda_csr_free(spira_context ctx, spira__csr_dev *d); /* NULL is fine */

/* dd[i] = 1 / A(i,i) in A's type for every row of the device CSR dA (precond/diagonal_gpu.cu);
 * *bad_row = the first row whose diagonal is zero, missing or not finite, else nrows. */
spira_status spira__cuda_inverse_diagonal(spira_context ctx, const spira__csr_dev *dA, void *dd,
                                          int32_t *bad_row);

/* BLAS-1 (blas.cu; the reductions dot, nrm2 and asum in fused.cu). */
spira_status spira__cuda_fill(spira_context ctx, int32_t n, spira_dtype t, void *dx, double v);
spira_status spira__cuda_dot(spira_context ctx, int32_t n, spira_dtype t, const void *dx,
                             const void *dy, double *r);
spira_status spira__cuda_nrm2(spira_context ctx, int32_t n, spira_dtype t, const void *dx,
                              double *r);
spira_status spira__cuda_asum(spira_context ctx, int32_t n, spira_dtype t, const void *dx,
                              double *r);
spira_status spira__cuda_axpby(spira_context ctx, int32_t n, spira_dtype t, double a,
                               const void *dx, double b, void *dy);
spira_status spira__cuda_scal(spira_context ctx, int32_t n, spira_dtype t, double a, void *dx);
spira_status spira__cuda_pmul(spira_context ctx, int32_t n, spira_dtype t, const void *dx,
                              const void *dy, void *dw);
/* y[i] = x[idx[i]] for i < n (didx device int32); x and y distinct (spira__vector_gather). */
spira_status spira__cuda_gather(spira_context ctx, int32_t n, spira_dtype t, const int32_t *didx,
                                const void *dx, void *dy);

/* Fused BLAS-1 (fused.cu): out[i] = (x[i], y[i]) for i < k <= SPIRA__DOTS_MAX, summed in
 * double in a fixed order, in one pass and one wait (spira__dots). */
spira_status spira__cuda_dots(spira_context ctx, int k, int32_t n, spira_dtype t,
                              const void *const *dx, const void *const *dy, double *out);
/* y <- a x + b y, then out[i] = (y, z[i]) for i < k <= 2 (spira__axpby_dots). */
spira_status spira__cuda_axpby_dots(spira_context ctx, int k, int32_t n, spira_dtype t, double a,
                                    const void *dx, double b, void *dy, const void *const *dz,
                                    double *out);

/* GF(2) words (gf2_blas.cu), n words of device memory, on the stream without waiting:
 * y ^= x & mask; *dout ^= XOR_i (x[i] & y[i]); *dout |= OR_i x[i] (dout: device). */
spira_status spira__cuda_gf2_xor_masked(spira_context ctx, int32_t n, const uint64_t *x,
                                        uint64_t mask, uint64_t *y);
spira_status spira__cuda_gf2_dot_into(spira_context ctx, int32_t n, const uint64_t *x,
                                      const uint64_t *y, uint64_t *dout);
spira_status spira__cuda_gf2_or_into(spira_context ctx, int32_t n, const uint64_t *x,
                                     uint64_t *dout);
/* out ^= X^T Z and y ^= x S (lib/gf2_inner.h; gf2_inner.cu), all in device memory. */
spira_status spira__cuda_gf2_inner_into(spira_context ctx, int32_t n, int words,
                                        const uint64_t *x, const uint64_t *z, uint64_t *dout);
spira_status spira__cuda_gf2_mul_small(spira_context ctx, int32_t n, int wi, int wo,
                                       const uint64_t *x, const uint64_t *dS, uint64_t *y);

/* CUDA graphs (graph.cu): between capture_begin and capture_end, what the library's calls
 * enqueue on the context's stream is recorded, not run (thread-local: a call that cannot be
 * captured, a synchronization or an allocation, fails). capture_end always ends the
 * capture; given the calls' status `captured`, it returns the first failure (the calls',
 * the capture's, the instantiation's) or *exec, an executable graph to launch `times`
 * times in a row on the stream, and destroy (NULL is fine; launches still queued finish
 * first). */
spira_status spira__cuda_capture_begin(spira_context ctx);
spira_status spira__cuda_capture_end(spira_context ctx, spira_status captured, void **exec);
spira_status spira__cuda_graph_launch(spira_context ctx, void *exec, int times);
void spira__cuda_graph_destroy(spira_context ctx, void *exec);

/* Events on the context's stream, for benchmarks: *ms between two recorded points. */
typedef struct spira_cuda_timer spira_cuda_timer;
spira_status spira__cuda_timer_create(spira_context ctx, spira_cuda_timer **t);
spira_status spira__cuda_timer_start(spira_context ctx, spira_cuda_timer *t);
spira_status spira__cuda_timer_stop(spira_context ctx, spira_cuda_timer *t, double *ms);
void spira__cuda_timer_destroy(spira_cuda_timer *t);

/* The context's stream (cudaStream_t) and library handles, for .cu files in other layers. */
void *spira__cuda_stream(spira_context ctx);
/* A second stream of the context, made on first use (its device current), destroyed with
 * it: copies that overlap the first stream's kernels. */
spira_status spira__cuda_side(spira_context ctx, void **stream);
/* Work beside the context's stream: fork makes the side stream (*side) wait for what the
 * context's stream has queued so far; join makes the context's stream wait for what the
 * side stream has queued since (events of the context's, made on first use). Between them
 * a caller queues work on both, that runs side by side; a CUDA graph captures the pair. */
spira_status spira__cuda_fork(spira_context ctx, void **side);
spira_status spira__cuda_join(spira_context ctx);
/* Make stream (a cudaStream_t of ctx's device) the context's stream until swapped back,
 * cuBLAS's and cuSPARSE's included; *old gets the one it replaces. For a caller that wants
 * code which enqueues on the context's stream to run on another one (the distributed SpMV's
 * off-diagonal block on the halo's stream, behind the ghosts). */
spira_status spira__cuda_stream_swap(spira_context ctx, void *stream, void **old);
void *spira__cuda_cublas(spira_context ctx);
/* Device scratch of SPIRA__CUDA_SCRATCH_BYTES made with the context, zeroed, for the fused
 * reductions (fused.cu says how they use it; they leave it as they found it). */
#define SPIRA__CUDA_SCRATCH_BYTES (64 * 1024)
void *spira__cuda_scratch(spira_context ctx);
/* cuSPARSE handle, created on first use. */
spira_status spira__cuda_cusparse(spira_context ctx, void **handle);

#ifdef __cplusplus
}
#endif
#endif
