/*
 * kernels_stub.c - the solvers' CUDA kernels (solver_kernels.h) in a build without CUDA:
 * they say so, so no algorithm needs an #ifdef (the dispatchers never reach them there).
 */
#include "solver_kernels.h"
#include "cuda/gateway.h"

spira_status spira__cuda_cg_update(spira_context ctx, int32_t n, spira_dtype t, double alpha,
                                   double beta, const void *du, const void *dw, void *dp,
                                   void *ds, void *dx, void *dr)
{
    return spira__no_cuda(ctx);
}

spira_status spira__cuda_pagerank_update(spira_context ctx, int32_t n, spira_dtype t, double c,
                                         const void *dv, void *dy, void *dx, const void *dd,
                                         double *out)
{
    return spira__no_cuda(ctx);
}

spira_status spira__cuda_pagerank_scales(spira_context ctx, const spira__csr_dev *G, double *inv,
                                         void *d, int32_t *bad_row)
{
    return spira__no_cuda(ctx);
}

spira_status spira__cuda_cg_graph_sums(spira_context ctx, int32_t n, spira_dtype t,
                                       const void *dr, void *dw, const void *dz,
                                       int with_dinv, const spira__row_add *add,
                                       spira__device_sum_fn ranks_sum, void *ranks_data,
                                       spira__cg_dev *dg)
{
    return spira__no_cuda(ctx);
}

spira_status spira__cuda_cg_graph_update(spira_context ctx, int32_t n, spira_dtype t,
                                         const spira__cg_dev *dg, void *dz, const void *dw,
                                         void *dp, void *ds, void *dr, const void *ddinv)
{
    return spira__no_cuda(ctx);
}
