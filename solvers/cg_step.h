/*
 * cg_step.h - the scalar work of one CG iteration on its scalars in a spira__cg_dev
 * (solver_kernels.h), for CG's graph: in a kernel on the device (cg_kernels_gpu.cu) and
 * on the host where the CPU backend stands in for the graph (cg_graph.c), one source for
 * both. It is cg.c's loop body after the sums and common.c's spira__check, operation for
 * operation in double (the monitor aside: a solve with one takes no graph), so that it
 * stops where the per-iteration path stops, with the same alpha and beta. On the device
 * the roundings are spelled out (__d*_rn), so that no contraction into a fused
 * multiply-add can make them differ from the host's.
 */
#ifndef SPIRA_CG_STEP_H
#define SPIRA_CG_STEP_H

#include "solver_kernels.h"

#include <math.h>

#ifdef __CUDACC__
#define SPIRA__CG_HD __host__ __device__
#else
#define SPIRA__CG_HD
#endif
#ifdef __CUDA_ARCH__
#define SPIRA__CG_MUL(a, b) __dmul_rn(a, b)
#define SPIRA__CG_DIV(a, b) __ddiv_rn(a, b)
#define SPIRA__CG_SUB(a, b) __dsub_rn(a, b)
#define SPIRA__CG_SQRT(a) __dsqrt_rn(a)
#else
#define SPIRA__CG_MUL(a, b) ((a) * (b))
#define SPIRA__CG_DIV(a, b) ((a) / (b))
#define SPIRA__CG_SUB(a, b) ((a) - (b))
#define SPIRA__CG_SQRT(a) sqrt(a)
#endif

/* spira__check's tests of ||r|| = rn at iteration git (earlier rounds' added): 1 to stop. */
static SPIRA__CG_HD inline int spira__cg_check_stops(spira__cg_dev *g, int git, double rn)
{
    if (!isfinite(rn)) return 1;
    if (rn <= g->rtol_bnorm) return 1;
    if (g->atol > 0 && rn <= g->atol) return 1;
    if (git == 0) {
        g->rref = rn > g->bnorm ? rn : g->bnorm;
        g->best = rn;
        g->best_it = 0;
        return 0;
    }
    if (rn > SPIRA__CG_MUL(g->dtol, g->rref)) return 1;
    if (rn < SPIRA__CG_MUL(0.99, g->best)) {
        g->best = rn;
        g->best_it = git;
    } else if (git - g->best_it >= g->window) {
        return 1;
    }
    return 0;
}

/* The iteration g->it from its sums (r, r), (w, z) and, with a preconditioner, (r, z): the
 * check, maxit, the breakdowns of gamma, then beta, (p, A p) from the recurrence and alpha,
 * and it + 1; or g->stop set, it left at the iteration. */
static SPIRA__CG_HD inline void spira__cg_step(spira__cg_dev *g, const double *sum, int precond)
{
    const int it = g->it;
    const double rn = SPIRA__CG_SQRT(sum[0]);
    g->hist[it % SPIRA__CG_GRAPH_MAX] = rn;
    if (spira__cg_check_stops(g, it + g->it0, rn)) {
        g->stop = SPIRA__CG_CHECKED;
        return;
    }
    if ((long long)it + 1 > g->maxit) {
        g->stop = SPIRA__CG_MAXIT;
        return;
    }
    const double gamma = precond ? sum[2] : sum[0];
    g->gamma = gamma;
    if (!isfinite(gamma) || gamma == 0) {
        g->stop = SPIRA__CG_RHO;
        return;
    }
    if (gamma < 0) {
        g->stop = SPIRA__CG_RHO_NEG;
        return;
    }
    /* beta = gamma / gamma_old; (p, A p) = (w, u) - beta gamma / alpha_old */
    const double beta = it ? SPIRA__CG_DIV(gamma, g->gamma_old) : 0;
    const double pq =
        it ? SPIRA__CG_SUB(sum[1], SPIRA__CG_DIV(SPIRA__CG_MUL(beta, gamma), g->alpha)) : sum[1];
    g->gamma_old = gamma;
    g->beta = beta;
    const int forced = g->classic_at > 0 && (long long)it + g->it0 + 1 == g->classic_at;
    if (pq > 0 && isfinite(pq) && !forced) {
        g->alpha = SPIRA__CG_DIV(gamma, pq);
        g->it = it + 1;
    } else {
        g->stop = SPIRA__CG_CLASSIC;
    }
}

#endif
