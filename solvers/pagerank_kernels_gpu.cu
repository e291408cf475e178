/*
 * pagerank_kernels_gpu.cu - PageRank's fused update on the device (solver_kernels.h): the
 * teleport axpy, the difference, its 1-norm and the next (d, x) in one pass and one wait,
 * summed by lib/cuda/reduce.cuh (double, the same bits run to run).
 */
#include "solver_kernels.h"
#include "cuda/reduce.cuh"

#define THREADS SPIRA__REDUCE_THREADS

/* y <- y + c v; x <- y - x; sums ||x||_1 and (d, y). */
template <typename T>
__global__ void __launch_bounds__(THREADS)
pagerank_kernel(int n, T c, const T *__restrict__ v, T *__restrict__ y, T *__restrict__ x,
                const T *__restrict__ d, spira__reduce_scratch *sc)
{
    double sum[2] = {0, 0};
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
        T yi = y[i] + c * v[i];
        T xi = yi - x[i];
        y[i] = yi;
        x[i] = xi;
        sum[0] += fabs((double)xi);
        sum[1] += (double)d[i] * (double)yi;
    }
    spira__grid_sums(sum, sc);
}

extern "C" spira_status spira__cuda_pagerank_update(spira_context ctx, int32_t n, spira_dtype t,
                                                    double c, const void *v, void *y, void *x,
                                                    const void *d, double *out)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    spira__reduce_scratch *sc = spira__reduce_scratch_of(ctx);
    unsigned g = spira__reduce_blocks(n);
    if (t == SPIRA_R64)
        pagerank_kernel<<<g, THREADS, 0, st>>>(n, c, (const double *)v, (double *)y,
                                               (double *)x, (const double *)d, sc);
    else
        pagerank_kernel<<<g, THREADS, 0, st>>>(n, (float)c, (const float *)v, (float *)y,
                                               (float *)x, (const float *)d, sc);
    return spira__read_sums(ctx, st, sc, 2, out);
}

SPIRA__MODULE_ANCHOR(pagerank, pagerank_kernel<double>)
