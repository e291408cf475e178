/*
 * cg.c - (preconditioned) conjugate gradients for symmetric positive definite A, arranged
 * as Chronopoulos and Gear's s-step CG with s = 1 (J. Comput. Appl. Math. 25, 1989).
 *
 * Classic CG waits for two reductions an iteration: (p, Ap) before it can update r, and
 * (r, z) after. Here the vector the SpMV multiplies is u = M^-1 r, w = A u, and the three
 * sums an iteration needs, (r, r), (w, u) and (r, u), come from one pass and one wait
 * (spira__dots). A p is carried by its own recurrence s <- w + beta s, and
 *     (p, A p) = (w, u) - beta (r, u) / alpha_old,
 * which follows from p = u + beta p_old and the orthogonality of r to the old directions.
 * Exact arithmetic gives classic CG's iterates; the rounding differs a little.
 *
 * Per iteration: one preconditioner apply, one SpMV, one fused reduction, one fused update
 * (spira__cg_update). Without a preconditioner u is r and (r, u) = (r, r): two sums.
 * Bytes moved per iteration beside the SpMV's and the apply's (n rows, s bytes a value):
 * the sums read r and w (2 n s; with M also u: 3), the update reads u, w, p, s, x, r and
 * writes p, s, x, r (9 n s with u = r, 10 with M). The residual checked is the recurrence's
 * ||r_k||, known one SpMV after r_k: the last iteration's apply and SpMV are spent to find
 * that r_k is small enough.
 *
 * On the CUDA backend the iteration runs as a CUDA graph where it can (cg_graph.c): the same
 * kernels and scalar work, with no wait on the host between iterations.
 */
#include "cg.h"

#include <math.h>
#include <stdio.h>

static spira_status cg(spira__solve_env *e, spira_vector b, spira_vector x)
{
    int graph;
    spira_status st = spira__cg_graph_run(e, b, x, &graph);
    if (graph) return st;
    spira_vector r = e->work[0], w = e->work[1], p = e->work[2], s = e->work[3];
    spira_vector u = e->M->ops->is_identity ? NULL : e->work[4];
    /* r <- b - A x */
    st = spira_copy(b, r);
    if (st == SPIRA_OK && e->o.use_initial_guess) st = spira__op(e, -1.0, x, 1.0, r);
    spira_vector z = u ? u : r; /* M^-1 r */
    double alpha = 0, gamma_old = 0;
    for (int it = 0; st == SPIRA_OK; it++) {
        /* u <- M^-1 r; w <- A u; (r, r), (w, u), (r, u) */
        if (u) st = spira__precond_apply(e->M, r, u);
        if (st == SPIRA_OK) st = spira__op(e, 1.0, z, 0.0, w);
        double sum[3];
        spira_vector left[3] = {r, w, r}, right[3] = {r, z, z};
        if (st == SPIRA_OK) st = spira__env_dots(e, u ? 3 : 2, left, right, sum);
        if (st != SPIRA_OK || spira__check(e, it, sqrt(sum[0]))) break;
        if (it + 1 > e->o.maxit) {
            e->info->reason = SPIRA_STOPPED_MAXIT;
            break;
        }
        double gamma = u ? sum[2] : sum[0];
        if (!isfinite(gamma) || gamma <= 0) {
            st = spira__cg_gamma_breakdown(e, it + 1, gamma);
            break;
        }
        double beta = it ? gamma / gamma_old : 0;
        double pq = it ? sum[1] - beta * gamma / alpha : sum[1];
        gamma_old = gamma;
        if (pq > 0 && isfinite(pq) && !spira__cg_forced_classic(e, it)) {
            alpha = gamma / pq;
            /* p <- u + beta p; s <- w + beta s (= A p); x <- x + alpha p; r <- r - alpha s */
            st = spira__cg_update(alpha, beta, z, w, p, s, x, r);
        } else {
            st = spira__cg_classic_step(e, it + 1, beta, gamma, z, p, s, x, r, &alpha);
        }
    }
    return st;
}

/* r, w, p, s; u = M^-1 r unless M is the identity */
const spira__solver spira__cg_solver = {
    .type = SPIRA_SOLVER_CG,
    .name = "CG",
    .run = cg,
    .work = 4,
    .work_precond = 1,
    .symmetric_precond = 1,
    .needs_spd = 1,
    .prepare = spira__cg_graph_prepare,
    .release = spira__cg_graph_release,
};
