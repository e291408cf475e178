/*
 * cg_steps.c - the pieces of CG that both ways of iterating it call on the host: cg.c's
 * loop an iteration at a time, and cg_graph.c's CUDA graph where it hands back (a
 * (p, A p) that lost its sign, a breakdown). Apart from both, so that neither calls the
 * other back.
 */
#include "cg.h"

#include <math.h>
#include <stdio.h>

/* One step the classic way, with (p, A p) from p and A p themselves: the recurrence's value
 * can lose its sign to rounding late in a long solve while the true one has not (bcsstk13
 * with ILU(0) did at iteration 2715). Only a (p, A p) measured so is called a breakdown.
 * This also sets s = A p afresh. */
spira_status spira__cg_classic_step(spira__solve_env *e, int it, double beta, double gamma,
                                    spira_vector z, spira_vector p, spira_vector s,
                                    spira_vector x, spira_vector r, double *alpha)
{
    double pq;
    SPIRA__TRY(spira_axpby(1.0, z, beta, p));
    SPIRA__TRY(spira__op(e, 1.0, p, 0.0, s));
    SPIRA__TRY(spira__env_dot(e, p, s, &pq));
    if (!isfinite(pq)) return spira__breakdown(e, it, "(p, A p)", pq);
    if (!(pq > 0)) /* p != 0 (gamma = (r, M^-1 r) > 0), so A is not SPD */
        return spira__breakdown(e, it, "(p, A p) <= 0: A is not symmetric positive definite: "
                                "try BiCGSTAB; (p, A p)", pq);
    *alpha = gamma / pq;
    SPIRA__TRY(spira_axpy(*alpha, p, x));
    return spira_axpy(-*alpha, s, r);
}

spira_status spira__cg_gamma_breakdown(spira__solve_env *e, int it, double gamma)
{
    if (!isfinite(gamma) || gamma == 0) return spira__breakdown(e, it, "rho = (r, M^-1 r)", gamma);
    /* r != 0 here, so M is not positive definite */
    char what[160];
    snprintf(what, sizeof what, "(r, M^-1 r) < 0: the preconditioner %s is not positive "
             "definite, which CG needs; (r, M^-1 r)", e->M->ops->name);
    return spira__breakdown(e, it, what, gamma);
}

int spira__cg_forced_classic(const spira__solve_env *e, int it)
{
    const int at = e->ctx->cg_classic_at;
    return at > 0 && (long long)it + e->it0 + 1 == at;
}
