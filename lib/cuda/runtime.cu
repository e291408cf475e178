/*
 * runtime.cu - the CUDA side of a context: device selection, stream, cuBLAS and cuSPARSE
 * handles, device memory and transfers, event timers.
 */
#include "cuda/gateway.h"
#include "cuda/check.cuh"

#include <stdio.h>
#include <string.h>

/* Uploads from STAGE_MIN_BYTES up go through two pinned staging buffers of STAGE_BYTES:
 * host threads (spira__memcpy_parallel) copy a chunk into one while the copy engine moves
 * the other, where a pageable copy runs at what the driver's own staging and one core
 * allow (4.4-7.2 GB/s on the H100, bench/results/2026-11-23-h100-spmv). 16 MB chunks (copied in parts of 512 KB)
 * uploaded a 27-point stencil's 162 MB in 6.1-6.6 ms on the H100 machine, 4 MB ones in
 * 7.3-9.3 (bench/results/2026-11-26-h100-session13). They are pinned with the context:
 * pinned at the first large upload instead, they put 10-17 ms into the setup of every
 * problem of the time-to-solution suite (bench/results/2026-11-26-h100-session14). */
#define STAGE_BYTES ((size_t)16 << 20)
#define STAGE_MIN_BYTES ((size_t)2 << 20)

/* Scratch (spira__cuda_scratch_malloc) comes from a pool of the context's own that keeps up
 * to this much device memory mapped between uses: a conversion waits on the device for the
 * sizes it reads back, and a pool that kept nothing would give its memory back at each
 * wait and map it again for the next temporary. What stays mapped is freed with the
 * context. */
#define SCRATCH_KEEP_BYTES ((uint64_t)256 << 20)

struct spira_cuda_ctx {
    cudaStream_t stream;
    cudaStream_t side;         /* a second stream, made on first use (spira__cuda_side) */
    cudaEvent_t fork, join;    /* spira__cuda_fork's and spira__cuda_join's, made on first use */
    cublasHandle_t cublas;
    cusparseHandle_t cusparse; /* created on first use */
    void *scratch;             /* SPIRA__CUDA_SCRATCH_BYTES, for fused.cu's reductions */
    void *stage[2];            /* pinned, STAGE_BYTES each; NULL: uploads are pageable */
    cudaEvent_t staged[2];     /* stage[i]'s last copy to the device is done */
    cudaMemPool_t pool;        /* scratch; NULL: the device's default pool */
    void *preload;             /* the thread loading the kernels (preload.cu), or NULL */
};

struct spira_cuda_timer {
    cudaEvent_t start, stop;
};

extern "C" int spira__cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

static void stage_fini(spira_cuda_ctx *c)
{
    for (int i = 0; i < 2; i++) {
        if (c->staged[i]) cudaEventDestroy(c->staged[i]);
        if (c->stage[i]) cudaFreeHost(c->stage[i]);
        c->staged[i] = NULL;
        c->stage[i] = NULL;
    }
}

/* The scratch pool, or none (then scratch comes from the device's default pool, which keeps
 * nothing between waits: slower, not wrong). Its first allocation is made here, so that
 * what a pool costs once is paid with the context, not by whichever conversion comes
 * first. */
static void pool_init(spira_context ctx, spira_cuda_ctx *c)
{
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = ctx->device;
    uint64_t keep = SCRATCH_KEEP_BYTES;
    void *p = NULL;
    if (cudaMemPoolCreate(&c->pool, &props) != cudaSuccess) {
        cudaGetLastError();
        c->pool = NULL;
        return;
    }
    if (cudaMemPoolSetAttribute(c->pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess ||
        cudaMallocFromPoolAsync(&p, 1, c->pool, c->stream) != cudaSuccess ||
        cudaFreeAsync(p, c->stream) != cudaSuccess ||
        cudaStreamSynchronize(c->stream) != cudaSuccess) {
        cudaGetLastError();
        cudaStreamSynchronize(c->stream);
        cudaGetLastError();
        cudaMemPoolDestroy(c->pool);
        c->pool = NULL;
    }
}

/* The staging buffers, or none: without them uploads are slower, not wrong, so a failure
 * here (pinned memory is a limited resource) is not the context's. */
static void stage_init(spira_cuda_ctx *c)
{
    for (int i = 0; i < 2; i++) {
        if (cudaHostAlloc(&c->stage[i], STAGE_BYTES, cudaHostAllocDefault) != cudaSuccess ||
            cudaEventCreateWithFlags(&c->staged[i], cudaEventDisableTiming) != cudaSuccess) {
            cudaGetLastError();
            stage_fini(c);
            return;
        }
    }
}

extern "C" spira_status spira__cuda_init(spira_context ctx)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return spira__error(ctx, SPIRA_ERR_DEVICE, "no usable CUDA device: %s (%s)",
                            cudaGetErrorName(e), cudaGetErrorString(e));
    }
    if (ctx->device < 0 || ctx->device >= n)
        return spira__error(ctx, SPIRA_ERR_DEVICE, "CUDA device %d requested, %d present",
                            ctx->device, n);
    SPIRA__CUDA(ctx, cudaSetDevice(ctx->device));
    if (!ctx->lite) { /* a builder's name and budget are its parent's */
        cudaDeviceProp p;
        SPIRA__CUDA(ctx, cudaGetDeviceProperties(&p, ctx->device));
        snprintf(ctx->device_name, sizeof ctx->device_name, "%s (device %d, sm_%d%d)", p.name,
                 ctx->device, p.major, p.minor);
    }
    spira_cuda_ctx *c = (spira_cuda_ctx *)spira__calloc(1, sizeof *c);
    if (!c) return spira__nomem(ctx, "CUDA context", sizeof *c);
    ctx->cuda = c;
    /* A builder's stream has the greatest priority: its conversion's kernels are few and
     * short, and the solve beside it keeps the GPU's queue full of its own (session 24: on
     * the kNN Laplacian at equal priority sell's build took 1.4-4.5 ms beside CG, 0.5-0.8
     * alone, as each of its kernels and each size it read back waited behind CG's blocks) */
    int least = 0, greatest = 0;
    if (ctx->lite && cudaDeviceGetStreamPriorityRange(&least, &greatest) != cudaSuccess) {
        cudaGetLastError();
        greatest = 0;
    }
    spira_status s = spira__cuda_status(
        ctx, cudaStreamCreateWithPriority(&c->stream, cudaStreamNonBlocking, ctx->lite ? greatest : 0),
        "cudaStreamCreateWithPriority", __FILE__, __LINE__);
    if (s == SPIRA_OK && !ctx->lite)
        s = spira__cublas_status(ctx, cublasCreate(&c->cublas), "cublasCreate", __FILE__, __LINE__);
    if (s == SPIRA_OK && !ctx->lite)
        s = spira__cublas_status(ctx, cublasSetStream(c->cublas, c->stream), "cublasSetStream",
                                 __FILE__, __LINE__);
    if (s == SPIRA_OK && !ctx->lite && ctx->deterministic)
        s = spira__cublas_status(ctx, cublasSetAtomicsMode(c->cublas, CUBLAS_ATOMICS_NOT_ALLOWED),
                                 "cublasSetAtomicsMode", __FILE__, __LINE__);
    if (s == SPIRA_OK)
        s = spira__cuda_malloc(ctx, &c->scratch, SPIRA__CUDA_SCRATCH_BYTES, "reduction scratch");
    if (s == SPIRA_OK) s = spira__cuda_zero(ctx, c->scratch, SPIRA__CUDA_SCRATCH_BYTES);
    if (s == SPIRA_OK && !ctx->device_budget) { /* the budget's default: what is free now */
        size_t free_b = 0, total_b = 0;
        s = spira__cuda_status(ctx, cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo",
                               __FILE__, __LINE__);
        ctx->device_budget = free_b;
    }
    if (s == SPIRA_OK && !ctx->lite) stage_init(c);
    if (s == SPIRA_OK) pool_init(ctx, c);
    if (s == SPIRA_OK && !ctx->lite) c->preload = spira__cuda_preload_start(ctx->device);
    if (s != SPIRA_OK) spira__cuda_fini(ctx);
    return s;
}

extern "C" void spira__cuda_fini(spira_context ctx)
{
    spira_cuda_ctx *c = ctx->cuda;
    if (!c) return;
    spira__cuda_preload_join(c->preload);
    cudaSetDevice(ctx->device); /* a part's context may go after another device's work */
    cudaGetLastError();
    spira__cuda_free(ctx, c->scratch);
    stage_fini(c);
    if (c->pool) { /* scratch freed in stream order is back in the pool once the stream is */
        cudaStreamSynchronize(c->stream);
        cudaGetLastError();
        cudaMemPoolDestroy(c->pool);
    }
    if (c->cusparse) cusparseDestroy(c->cusparse);
    if (c->cublas) cublasDestroy(c->cublas);
    if (c->fork) cudaEventDestroy(c->fork);
    if (c->join) cudaEventDestroy(c->join);
    if (c->side) cudaStreamDestroy(c->side);
    if (c->stream) cudaStreamDestroy(c->stream);
    spira__free(c);
    ctx->cuda = NULL;
}

extern "C" void *spira__cuda_stream(spira_context ctx)
{
    return ctx->cuda ? (void *)ctx->cuda->stream : NULL;
}

extern "C" spira_status spira__cuda_side(spira_context ctx, void **stream)
{
    spira_cuda_ctx *c = ctx->cuda;
    if (!c->side) {
        SPIRA__CUDA(ctx, cudaSetDevice(ctx->device));
        SPIRA__CUDA(ctx, cudaStreamCreateWithFlags(&c->side, cudaStreamNonBlocking));
    }
    *stream = c->side;
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_fork(spira_context ctx, void **side)
{
    spira_cuda_ctx *c = ctx->cuda;
    SPIRA__TRY(spira__cuda_side(ctx, side));
    if (!c->fork || !c->join) { /* on the context's device, as its streams */
        SPIRA__CUDA(ctx, cudaSetDevice(ctx->device));
        if (!c->fork) SPIRA__CUDA(ctx, cudaEventCreateWithFlags(&c->fork, cudaEventDisableTiming));
        if (!c->join) SPIRA__CUDA(ctx, cudaEventCreateWithFlags(&c->join, cudaEventDisableTiming));
    }
    SPIRA__CUDA(ctx, cudaEventRecord(c->fork, c->stream));
    SPIRA__CUDA(ctx, cudaStreamWaitEvent(c->side, c->fork, 0));
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_join(spira_context ctx)
{
    spira_cuda_ctx *c = ctx->cuda;
    SPIRA__CUDA(ctx, cudaEventRecord(c->join, c->side));
    SPIRA__CUDA(ctx, cudaStreamWaitEvent(c->stream, c->join, 0));
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_stream_swap(spira_context ctx, void *stream, void **old)
{
    spira_cuda_ctx *c = ctx->cuda;
    cudaStream_t st = (cudaStream_t)stream;
    *old = c->stream;
    spira_status s = c->cublas ? spira__cublas_status(ctx, cublasSetStream(c->cublas, st),
                                                      "cublasSetStream", __FILE__, __LINE__)
                               : SPIRA_OK; /* a builder has none */
    if (s == SPIRA_OK && c->cusparse)
        s = spira__cusparse_status(ctx, cusparseSetStream(c->cusparse, st), "cusparseSetStream",
                                   __FILE__, __LINE__);
    if (s != SPIRA_OK) { /* all or nothing: the handles back on the stream they had */
        if (c->cublas) cublasSetStream(c->cublas, c->stream);
        return s;
    }
    c->stream = st;
    return SPIRA_OK;
}

extern "C" void *spira__cuda_cublas(spira_context ctx)
{
    return ctx->cuda ? (void *)ctx->cuda->cublas : NULL;
}

extern "C" void *spira__cuda_scratch(spira_context ctx)
{
    return ctx->cuda ? ctx->cuda->scratch : NULL;
}

extern "C" spira_status spira__cuda_cusparse(spira_context ctx, void **h)
{
    spira_cuda_ctx *c = ctx->cuda;
    if (!c->cusparse) {
        SPIRA__CUSPARSE(ctx, cusparseCreate(&c->cusparse));
        SPIRA__CUSPARSE(ctx, cusparseSetStream(c->cusparse, c->stream));
    }
    *h = c->cusparse;
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_malloc(spira_context ctx, void **dp, size_t bytes,
                                           const char *what)
{
    *dp = NULL;
    SPIRA__TRY(spira__budget_check_device(ctx, bytes, 1, what));
    cudaError_t e = spira__alloc_should_fail() ? cudaErrorMemoryAllocation
                                               : cudaMalloc(dp, bytes ? bytes : 1);
    if (e == cudaSuccess) {
        spira__alloc_track(1);
        return SPIRA_OK;
    }
    cudaGetLastError();
    *dp = NULL;
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    cudaGetLastError();
    spira_status s = e == cudaErrorMemoryAllocation ? SPIRA_ERR_NOMEM : SPIRA_ERR_DEVICE;
    return spira__error(ctx, s,
                        "out of device memory allocating %s: %zu bytes requested, %zu of %zu "
                        "free (%s)",
                        what, bytes, free_b, total_b, cudaGetErrorString(e));
}

extern "C" void spira__cuda_free(spira_context ctx, void *dp)
{
    (void)ctx;
    if (!dp) return;
    cudaFree(dp);
    spira__alloc_track(-1);
}

extern "C" spira_status spira__cuda_scratch_malloc(spira_context ctx, void **dp, size_t bytes,
                                                   const char *what)
{
    *dp = NULL;
    SPIRA__TRY(spira__budget_check_device(ctx, bytes, 1, what));
    spira_cuda_ctx *c = ctx->cuda;
    cudaError_t e = spira__alloc_should_fail() ? cudaErrorMemoryAllocation
                    : c->pool ? cudaMallocFromPoolAsync(dp, bytes ? bytes : 1, c->pool, c->stream)
                              : cudaMallocAsync(dp, bytes ? bytes : 1, c->stream);
    if (e == cudaSuccess) {
        spira__alloc_track(1);
        return SPIRA_OK;
    }
    cudaGetLastError();
    *dp = NULL;
    spira_status s = e == cudaErrorMemoryAllocation ? SPIRA_ERR_NOMEM : SPIRA_ERR_DEVICE;
    return spira__error(ctx, s, "out of device memory allocating %s: %zu bytes requested (%s)",
                        what, bytes, cudaGetErrorString(e));
}

extern "C" void spira__cuda_scratch_free(spira_context ctx, void *dp)
{
    if (!dp) return;
    if (cudaFreeAsync(dp, ctx->cuda->stream) != cudaSuccess) cudaGetLastError();
    spira__alloc_track(-1);
}

extern "C" spira_status spira__cuda_upload(spira_context ctx, void *d, const void *s, size_t b)
{
    /* synchronous with respect to the host buffer, which the caller may free at once */
    spira_cuda_ctx *c = ctx->cuda;
    if (!c->stage[0] || b < STAGE_MIN_BYTES) {
        SPIRA__CUDA(ctx, cudaMemcpyAsync(d, s, b, cudaMemcpyHostToDevice, c->stream));
        SPIRA__CUDA(ctx, cudaStreamSynchronize(c->stream));
        return SPIRA_OK;
    }
    spira_status st = SPIRA_OK;
    for (size_t at = 0, i = 0; at < b && st == SPIRA_OK; at += STAGE_BYTES, i ^= 1) {
        const size_t n = b - at < STAGE_BYTES ? b - at : STAGE_BYTES;
        /* the copy that last read this buffer, two chunks ago, must be done */
        st = spira__cuda_status(ctx, cudaEventSynchronize(c->staged[i]), "cudaEventSynchronize",
                                __FILE__, __LINE__);
        if (st != SPIRA_OK) break;
        spira__memcpy_parallel(c->stage[i], (const char *)s + at, n);
        st = spira__cuda_status(ctx, cudaMemcpyAsync((char *)d + at, c->stage[i], n,
                                                     cudaMemcpyHostToDevice, c->stream),
                                "cudaMemcpyAsync", __FILE__, __LINE__);
        if (st == SPIRA_OK)
            st = spira__cuda_status(ctx, cudaEventRecord(c->staged[i], c->stream),
                                    "cudaEventRecord", __FILE__, __LINE__);
    }
    /* also on failure: nothing may still be reading the buffers when this returns */
    cudaError_t e = cudaStreamSynchronize(c->stream);
    if (e != cudaSuccess) cudaGetLastError();
    if (st == SPIRA_OK) st = spira__cuda_status(ctx, e, "cudaStreamSynchronize", __FILE__, __LINE__);
    return st;
}

extern "C" spira_status spira__cuda_clone(spira_context ctx, void **dst, const void *src,
                                          size_t bytes, const char *what)
{
    SPIRA__TRY(spira__cuda_malloc(ctx, dst, bytes, what));
    return bytes ? spira__cuda_upload(ctx, *dst, src, bytes) : SPIRA_OK;
}

extern "C" void spira__cuda_csr_free(spira_context ctx, spira__csr_dev *d)
{
    if (!d) return;
    spira__cuda_free(ctx, d->row_ptr);
    spira__cuda_free(ctx, d->col_idx);
    spira__cuda_free(ctx, d->val);
    spira__free(d);
}

extern "C" spira_status spira__cuda_csr_upload(spira_context ctx, const spira__csr *A,
                                               spira__csr_dev **out)
{
    *out = NULL;
    spira__csr_dev *d = (spira__csr_dev *)spira__calloc(1, sizeof *d);
    if (!d) return spira__nomem(ctx, "device CSR", sizeof *d);
    d->nrows = A->nrows;
    d->ncols = A->ncols;
    d->nnz = A->nnz;
    d->dtype = A->dtype;
    d->mean_row = A->nrows ? (double)A->nnz / A->nrows : 0;
    const size_t vb = (size_t)A->nnz * spira_dtype_size(A->dtype);
    spira_status s = spira__cuda_clone(ctx, (void **)&d->row_ptr, A->row_ptr,
                                       ((size_t)A->nrows + 1) * sizeof(int32_t), "CSR row pointers");
    if (s == SPIRA_OK)
        s = spira__cuda_clone(ctx, (void **)&d->col_idx, A->col_idx,
                              (size_t)A->nnz * sizeof(int32_t), "CSR column indices");
    if (s == SPIRA_OK)
        s = A->val ? spira__cuda_clone(ctx, &d->val, A->val, vb, "CSR values")
                   : spira__cuda_malloc(ctx, &d->val, vb, "CSR values");
    if (s != SPIRA_OK) {
        spira__cuda_csr_free(ctx, d);
        return s;
    }
    *out = d;
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_download(spira_context ctx, void *d, const void *s, size_t b)
{
    SPIRA__CUDA(ctx, cudaMemcpyAsync(d, s, b, cudaMemcpyDeviceToHost, ctx->cuda->stream));
    SPIRA__CUDA(ctx, cudaStreamSynchronize(ctx->cuda->stream));
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_copy(spira_context ctx, void *d, const void *s, size_t b)
{
    SPIRA__CUDA(ctx, cudaMemcpyAsync(d, s, b, cudaMemcpyDeviceToDevice, ctx->cuda->stream));
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_zero(spira_context ctx, void *d, size_t b)
{
    SPIRA__CUDA(ctx, cudaMemsetAsync(d, 0, b, ctx->cuda->stream));
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_poison(spira_context ctx, void *d, size_t b)
{
    SPIRA__CUDA(ctx, cudaMemsetAsync(d, SPIRA__POISON_BYTE, b, ctx->cuda->stream));
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_synchronize(spira_context ctx)
{
    if (ctx->cuda->side) SPIRA__CUDA(ctx, cudaStreamSynchronize(ctx->cuda->side));
    SPIRA__CUDA(ctx, cudaStreamSynchronize(ctx->cuda->stream));
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_timer_create(spira_context ctx, spira_cuda_timer **t)
{
    *t = (spira_cuda_timer *)spira__calloc(1, sizeof **t);
    if (!*t) return spira__nomem(ctx, "timer", sizeof **t);
    spira_status s = spira__cuda_status(ctx, cudaEventCreate(&(*t)->start), "cudaEventCreate",
                                        __FILE__, __LINE__);
    if (s == SPIRA_OK)
        s = spira__cuda_status(ctx, cudaEventCreate(&(*t)->stop), "cudaEventCreate", __FILE__,
                               __LINE__);
    if (s != SPIRA_OK) {
        spira__cuda_timer_destroy(*t);
        *t = NULL;
    }
    return s;
}

extern "C" spira_status spira__cuda_timer_start(spira_context ctx, spira_cuda_timer *t)
{
    SPIRA__CUDA(ctx, cudaEventRecord(t->start, ctx->cuda->stream));
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_timer_stop(spira_context ctx, spira_cuda_timer *t, double *ms)
{
    float f = 0;
    SPIRA__CUDA(ctx, cudaEventRecord(t->stop, ctx->cuda->stream));
    SPIRA__CUDA(ctx, cudaEventSynchronize(t->stop));
    SPIRA__CUDA(ctx, cudaEventElapsedTime(&f, t->start, t->stop));
    *ms = f;
    return SPIRA_OK;
}

extern "C" void spira__cuda_timer_destroy(spira_cuda_timer *t)
{
    if (!t) return;
    if (t->start) cudaEventDestroy(t->start);
    if (t->stop) cudaEventDestroy(t->stop);
    spira__free(t);
}
