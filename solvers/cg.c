/*
 * cg.c - (preconditioned) conjugate gradients for symmetric positive definite A.
 *
 * Per iteration: one SpMV, one preconditioner apply, two dots, one norm, three axpby.
 * Without a preconditioner z is r itself and (r, z) = ||r||^2, already known: one dot
 * and one copy fewer, so two reductions (two host round trips) per iteration.
 * Bytes moved per iteration (n rows, vectors of s bytes, SpMV reading `plan bytes`):
 * plan bytes + x once + 12 n s unpreconditioned (dot(p, q) 2, two axpy 3 each, nrm2 1,
 * axpby 3), + 5 n s with Jacobi (apply 3, dot 2). cuBLAS reductions read their inputs
 * once; an axpby reads two vectors and writes one.
 */
#include "solver.h"

#include <math.h>
#include <string.h>

/* z <- M^-1 r and rz <- (r, z); without a preconditioner z aliases r and rz = ||r||^2. */
static spira_status precondition(spira__solve_env *e, spira_vector r, spira_vector z,
                                 double rnorm, double *rz)
{
    if (!z) {
        *rz = rnorm * rnorm;
        return SPIRA_OK;
    }
    SPIRA__TRY(e->M->apply(e->M, r, z));
    return spira_dot(r, z, rz);
}

spira_status spira__cg(spira__solve_env *e, spira_vector b, spira_vector x)
{
    spira_vector r, z = NULL, p, q;
    spira_status s = spira__workspace(e, &r, &p, &q, NULL);
    if (s == SPIRA_OK && strcmp(e->M->name, "none") != 0) s = spira__workspace(e, &z, NULL);
    double rnorm, rz = 0, rz_old, pq;
    /* r <- b - A x */
    if (s == SPIRA_OK) s = spira_copy(b, r);
    if (s == SPIRA_OK && e->o.use_initial_guess) s = spira__op(e, -1.0, x, 1.0, r);
    if (s == SPIRA_OK) s = spira_nrm2(r, &rnorm);
    if (s != SPIRA_OK || spira__check(e, 0, rnorm)) goto done;
    /* z <- M^-1 r, rz <- (r, z), p <- z */
    s = precondition(e, r, z, rnorm, &rz);
    if (s == SPIRA_OK) s = spira_copy(z ? z : r, p);
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
        s = precondition(e, r, z, rnorm, &rz);
        if (s == SPIRA_OK) s = spira_axpby(1.0, z ? z : r, rz / rz_old, p);
    }
done:
    spira__workspace_free(&r, &z, &p, &q, NULL);
    return s;
}
