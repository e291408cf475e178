/*
 * jacobi.c - the (damped) Jacobi iteration x_{k+1} = x_k + w D^-1 (b - A x_k), D = diag(A),
 * w = opts.damping (default 1).
 *
 * The dispatcher always builds the Jacobi preconditioner for this solver (so D^-1 is set
 * up, and timed, with the SpMV plan, and a zero diagonal is refused naming its row); the
 * precond option is therefore ignored here. It converges when the spectral radius of
 * I - w D^-1 A is below 1 (e.g. A strictly diagonally dominant, or SPD with 0 < w < 2 /
 * lambda_max(D^-1 A)); otherwise the residual grows until the iteration limit
 * (SPIRA_ERR_NOT_CONVERGED) or until it overflows (SPIRA_ERR_NONFINITE), never a hang.
 *
 * Per iteration: one SpMV, one copy, one norm, one pmul, one axpy. Bytes moved: plan
 * bytes + x once + ~9 n s (vectors of n values of s bytes).
 */
#include "solver.h"

static spira_status jacobi(spira__solve_env *e, spira_vector b, spira_vector x)
{
    spira_vector r = e->work[0], z = e->work[1];
    spira_status s = SPIRA_OK;
    const double w = e->o.damping;
    double rnorm;
    for (int it = 0; s == SPIRA_OK; it++) {
        /* r <- b - A x_it (x_0 = 0 unless an initial guess was given) */
        s = spira_copy(b, r);
        if (s == SPIRA_OK && (it > 0 || e->o.use_initial_guess)) s = spira__op(e, -1.0, x, 1.0, r);
        if (s == SPIRA_OK) s = spira__env_nrm2(e, r, &rnorm);
        if (s != SPIRA_OK || spira__check(e, it, rnorm)) break;
        if (it == e->o.maxit) {
            e->info->reason = SPIRA_STOPPED_MAXIT;
            break;
        }
        /* x <- x + w D^-1 r */
        s = spira__precond_apply(e->M, r, z);
        if (s == SPIRA_OK) s = spira_axpy(w, z, x);
    }
    return s;
}

/* r, z = D^-1 r; M is always Jacobi's D^-1 */
const spira__solver spira__jacobi_solver = {
    .type = SPIRA_SOLVER_JACOBI,
    .name = "Jacobi",
    .run = jacobi,
    .work = 2,
    .has_own_precond = 1,
    .own_precond = SPIRA_PRECOND_JACOBI,
};
