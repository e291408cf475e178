/*
 * check.cuh - turning CUDA, cuBLAS and cuSPARSE results into spira_status with a message
 * naming the call, the file:line, and the library's error name and string. For .cu files.
 */
#ifndef SPIRA_CUDA_CHECK_CUH
#define SPIRA_CUDA_CHECK_CUH

#include "spira_impl.h"
#include "cuda/gateway.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

static inline spira_status spira__cuda_status(spira_context ctx, cudaError_t e, const char *call,
                                              const char *file, int line)
{
    if (e == cudaSuccess) return SPIRA_OK;
    cudaGetLastError(); /* clear a non-sticky error so the context stays usable */
    spira_status s = e == cudaErrorMemoryAllocation ? SPIRA_ERR_NOMEM : SPIRA_ERR_DEVICE;
    return spira__error(ctx, s, "%s:%d: %s: %s (%s)", file, line, call, cudaGetErrorName(e),
                        cudaGetErrorString(e));
}

static inline spira_status spira__cublas_status(spira_context ctx, cublasStatus_t e,
                                                const char *call, const char *file, int line)
{
    if (e == CUBLAS_STATUS_SUCCESS) return SPIRA_OK;
    spira_status s = e == CUBLAS_STATUS_ALLOC_FAILED ? SPIRA_ERR_NOMEM : SPIRA_ERR_DEVICE;
    return spira__error(ctx, s, "%s:%d: %s: %s (%s)", file, line, call, cublasGetStatusName(e),
                        cublasGetStatusString(e));
}

static inline spira_status spira__cusparse_status(spira_context ctx, cusparseStatus_t e,
                                                  const char *call, const char *file, int line)
{
    if (e == CUSPARSE_STATUS_SUCCESS) return SPIRA_OK;
    spira_status s = e == CUSPARSE_STATUS_ALLOC_FAILED ? SPIRA_ERR_NOMEM : SPIRA_ERR_DEVICE;
    return spira__error(ctx, s, "%s:%d: %s: %s (%s)", file, line, call, cusparseGetErrorName(e),
                        cusparseGetErrorString(e));
}

/* Return from the enclosing function with the status if the call failed. */
#define SPIRA__CUDA(ctx, call)                                                           \
    SPIRA__TRY(spira__cuda_status((ctx), (call), #call, __FILE__, __LINE__))
#define SPIRA__CUBLAS(ctx, call)                                                         \
    SPIRA__TRY(spira__cublas_status((ctx), (call), #call, __FILE__, __LINE__))
#define SPIRA__CUSPARSE(ctx, call)                                                       \
    SPIRA__TRY(spira__cusparse_status((ctx), (call), #call, __FILE__, __LINE__))
/* After a kernel launch: the launch error (bad configuration, no kernel image). */
#define SPIRA__LAUNCHED(ctx) SPIRA__CUDA(ctx, cudaGetLastError())

/* Grid size for n items at b threads each, capped for grid-stride loops. */
static inline unsigned spira__blocks(long long n, int b)
{
    long long g = (n + b - 1) / b;
    if (g < 1) g = 1;
    if (g > 65535LL * 32) g = 65535LL * 32;
    return (unsigned)g;
}

/* The same, capped at a few blocks an SM, for a grid-stride pass whose blocks each end in
 * an atomic or a flag: more blocks would only add those. */
static inline unsigned spira__stride_blocks(long long n, int b)
{
    const unsigned g = spira__blocks(n, b);
    return g < 4096 ? g : 4096;
}

/* The first of n rows a check on the device finds bad (n: none), as the host's loop finds
 * it: a device int set to n, launch(int *bad) (a kernel that lowers it by atomicMin at
 * every bad row; it returns the launch's status), the int back (one wait). what names the
 * int's allocation. */
template <typename Launch>
spira_status spira__cuda_first_bad_row(spira_context ctx, int32_t n, const char *what,
                                       Launch launch, int32_t *bad_row)
{
    int *dbad = NULL;
    *bad_row = n;
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, (void **)&dbad, sizeof *dbad, what));
    spira_status s = spira__cuda_upload(ctx, dbad, bad_row, sizeof *dbad);
    if (s == SPIRA_OK) s = launch(dbad);
    if (s == SPIRA_OK) s = spira__cuda_download(ctx, bad_row, dbad, sizeof *dbad); /* waits */
    spira__cuda_scratch_free(ctx, dbad);
    return s;
}

/* One kernel of this file's module, named for lib/cuda/preload.cu: a context's first use of
 * the device loads the module from it in the background, instead of the first launch of
 * each kernel paying for its loading in the middle of a solve. */
#define SPIRA__MODULE_ANCHOR(name, ...)                                                  \
    extern "C" const void *spira__module_##name(void)                                    \
    {                                                                                    \
        return reinterpret_cast<const void *>(&__VA_ARGS__);                             \
    }

#endif
