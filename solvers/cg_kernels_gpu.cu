/*
 * cg_kernels_gpu.cu - CG's fused update on the device (solver_kernels.h): four vector
 * updates in one pass; and the kernels of CG's CUDA graph (cg_graph.c) beside the SpMV:
 * the sums with the iteration's scalar work and the update reading its scalars from device
 * memory (cg_graph.cuh). Both paths share the update's and the sums' expressions, so they
 * round alike.
 */
#include "cg_graph.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#define THREADS 256

template <typename T>
__global__ void cg_update_kernel(int n, T alpha, T beta, const T *u, const T *__restrict__ w,
                                 T *__restrict__ p, T *__restrict__ s, T *__restrict__ x, T *r)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        spira__cg_update_at(i, alpha, beta, u, w, p, s, x, r);
}

extern "C" spira_status spira__cuda_cg_update(spira_context ctx, int32_t n, spira_dtype t,
                                              double alpha, double beta, const void *u,
                                              const void *w, void *p, void *s, void *x, void *r)
{
    if (n == 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    unsigned g = spira__blocks(n, THREADS);
    if (t == SPIRA_R64)
        cg_update_kernel<<<g, THREADS, 0, st>>>(n, alpha, beta, (const double *)u,
                                                (const double *)w, (double *)p, (double *)s,
                                                (double *)x, (double *)r);
    else
        cg_update_kernel<<<g, THREADS, 0, st>>>(n, (float)alpha, (float)beta, (const float *)u,
                                                (const float *)w, (float *)p, (float *)s,
                                                (float *)x, (float *)r);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

/* ---- the graph's kernels (cg_graph.cuh) ------------------------------------------------ */

__global__ void cg_graph_step_kernel(const spira__reduce_scratch *sc, spira__cg_dev *g, int precond)
{
    if (!g->stop) spira__cg_step(g, sc->out, precond);
}

extern "C" spira_status spira__cuda_cg_graph_sums(spira_context ctx, int32_t n, spira_dtype t,
                                                  const void *r, void *w, const void *z,
                                                  int with_dinv, const spira__row_add *add,
                                                  spira__device_sum_fn ranks_sum,
                                                  void *ranks_data, spira__cg_dev *g)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    spira__reduce_scratch *sc = spira__reduce_scratch_of(ctx);
    const spira__one_rank one = {};
    if (!ranks_sum) { /* one process */
        if (add && add->bits)
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "CG's sums: a deferred add without "
                                "a distributed sum (a bug)");
        if (t == SPIRA_R64) spira__cg_sums_launch<double, true>(n, st, r, w, z, with_dinv, NULL, sc, g, one);
        else spira__cg_sums_launch<float, true>(n, st, r, w, z, with_dinv, NULL, sc, g, one);
        SPIRA__LAUNCHED(ctx);
        return SPIRA_OK;
    }
    /* a distributed solve whose sum over the ranks is a call between kernels: sums, the
     * sum, then the step in a kernel of its own */
    if (t == SPIRA_R64) spira__cg_sums_launch<double, false>(n, st, r, w, z, with_dinv, add, sc, g, one);
    else spira__cg_sums_launch<float, false>(n, st, r, w, z, with_dinv, add, sc, g, one);
    SPIRA__LAUNCHED(ctx);
    /* a rank that has stopped sums stale values with the others, which have stopped too:
     * the step kernel leaves them unread */
    SPIRA__TRY(ranks_sum(ranks_data, with_dinv ? 3 : 2, sc->out));
    cg_graph_step_kernel<<<1, 1, 0, st>>>(sc, g, with_dinv);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_cg_graph_update(spira_context ctx, int32_t n, spira_dtype t,
                                                    const spira__cg_dev *g, void *z,
                                                    const void *w, void *p, void *s, void *r,
                                                    const void *dinv)
{
    if (n == 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    if (t == SPIRA_R64)
        spira__cg_update_launch<double>(n, st, g, z, w, p, s, r, dinv, 0, spira__no_post());
    else
        spira__cg_update_launch<float>(n, st, g, z, w, p, s, r, dinv, 0, spira__no_post());
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

SPIRA__MODULE_ANCHOR(cg, cg_update_kernel<double>)
