/*
 * cg_kernels.c - CG's fused update (solver_kernels.h): the CPU loop, and the dispatch to the
 * CUDA kernel (cg_kernels_gpu.cu) on the CUDA backend.
 */
#include "solver_kernels.h"

#define CG_UPDATE(T, S)                                                                  \
    static void cg_update_##S(int32_t n, double alpha, double beta, const T *u,            \
                              const T *w, T *p, T *s, T *x, T *r)                        \
    {                                                                                    \
        _Pragma("omp parallel for if (n > SPIRA__PARALLEL_ITEMS)")                       \
        for (int32_t i = 0; i < n; i++) {                                                \
            T pi = beta == 0 ? u[i] : (T)(u[i] + beta * p[i]);                           \
            T si = beta == 0 ? w[i] : (T)(w[i] + beta * s[i]);                           \
            p[i] = pi, s[i] = si;                                                        \
            x[i] = (T)(x[i] + alpha * pi);                                               \
            r[i] = (T)(r[i] - alpha * si);                                               \
        }                                                                                \
    }

CG_UPDATE(float, s)
CG_UPDATE(double, d)

spira_status spira__cg_update(double alpha, double beta, spira_vector u, spira_vector w,
                              spira_vector p, spira_vector s, spira_vector x, spira_vector r)
{
    if (!u || !w || !p || !s || !x || !r) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__vectors_match(u, w, p));
    SPIRA__TRY(spira__vectors_match(u, s, x));
    SPIRA__TRY(spira__vectors_match(u, r, NULL));
    if (u->ctx->backend == SPIRA_BACKEND_CUDA)
        return spira__cuda_cg_update(u->ctx, u->n, u->dtype, alpha, beta, u->data, w->data,
                                     p->data, s->data, x->data, r->data);
    if (u->dtype == SPIRA_R64)
        cg_update_d(u->n, alpha, beta, u->data, w->data, p->data, s->data, x->data, r->data);
    else
        cg_update_s(u->n, alpha, beta, u->data, w->data, p->data, s->data, x->data, r->data);
    return SPIRA_OK;
}
