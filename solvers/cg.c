/*
 * cg.c - (preconditioned) conjugate gradients for symmetric positive definite A.
 *
 * Per iteration: one SpMV, one preconditioner apply, two dots, one norm, three axpby.
 * Bytes moved per iteration (n rows, vectors of s bytes, SpMV reading `plan bytes`):
 * plan bytes + x once + ~14 n s for the vector operations (cuBLAS reductions read
 * their inputs once, axpby reads two vectors and writes one).
 */
#include "solver.h"

#include <math.h>

spira_status spira__cg(spira__solve_env *e, spira_vector b, spira_vector x)
{
    spira_vector r, z, p, q;
    spira_status s = spira__workspace(e, &r, &z, &p, &q, NULL);
    double rnorm, rz = 0, rz_old, pq;
    /* r <- b - A x */
    if (s == SPIRA_OK) s = spira_copy(b, r);
    if (s == SPIRA_OK && e->o.use_initial_guess) s = spira__op(e, -1.0, x, 1.0, r);
    if (s == SPIRA_OK) s = spira_nrm2(r, &rnorm);
    if (s != SPIRA_OK || spira__check(e, 0, rnorm)) goto done;
    /* z <- M^-1 r, p <- z, rz <- (r, z) */
    s = e->M->apply(e->M, r, z);
    if (s == SPIRA_OK) s = spira_copy(z, p);
    if (s == SPIRA_OK) s = spira_dot(r, z, &rz);
    for (int it = 1; s == SPIRA_OK; it++) {
        if (it > e->o.maxit) {
            e->info->reason = SPIRA_STOPPED_MAXIT;
            break;
        }
        if (!isfinite(rz) || rz == 0) {
            s = spira__breakdown(e, it, "rho = (r, M^-1 r)", rz);
            break;
        }
        /* q <- A p; alpha = rz / (p, q) */
        s = spira__op(e, 1.0, p, 0.0, q);
        if (s == SPIRA_OK) s = spira_dot(p, q, &pq);
        if (s != SPIRA_OK) break;
        if (!(pq > 0) || !isfinite(pq)) { /* A not SPD, or NaN */
            s = spira__breakdown(e, it, "(p, A p)", pq);
            break;
        }
        double alpha = rz / pq;
        /* x <- x + alpha p; r <- r - alpha q */
        s = spira_axpy(alpha, p, x);
        if (s == SPIRA_OK) s = spira_axpy(-alpha, q, r);
        if (s == SPIRA_OK) s = spira_nrm2(r, &rnorm);
        if (s != SPIRA_OK || spira__check(e, it, rnorm)) break;
        /* z <- M^-1 r; beta = (r, z)_new / (r, z)_old; p <- z + beta p */
        rz_old = rz;
        s = e->M->apply(e->M, r, z);
        if (s == SPIRA_OK) s = spira_dot(r, z, &rz);
        if (s == SPIRA_OK) s = spira_axpby(1.0, z, rz / rz_old, p);
    }
done:
    spira__workspace_free(&r, &z, &p, &q, NULL);
    return s;
}
