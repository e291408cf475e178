/*
 * bicgstab.c - right-preconditioned BiCGSTAB (van der Vorst 1992; Saad, "Iterative Methods
 * for Sparse Linear Systems", 2nd ed., Alg. 7.7 with right preconditioning) for general
 * square A.
 *
 * Right preconditioning solves A M^-1 u = b, x = M^-1 u: the residual the recurrence
 * carries is the true one, b - A x, not M^-1 (b - A x), so the tolerance means the same
 * thing with and without a preconditioner and spira__check monitors ||b - A x||.
 *
 * When rho = (r0hat, r) becomes negligible against ||r0hat|| ||r|| (the classic
 * breakdown, common on hard nonsymmetric systems such as west0067 or bayer10), the shadow
 * residual restarts: r0hat <- r. Breakdown (message names the quantity): (r0hat, v) = 0,
 * (t, t) = 0 or omega = 0; a NaN or Inf in any of them is SPIRA_ERR_NONFINITE. After
 * the half step, when ||s|| already meets the tolerance, x <- x + alpha phat and stop
 * (the standard early exit; it also avoids (t, t) = 0 on an exactly solved system).
 *
 * Per iteration: two SpMVs, two preconditioner applies, six inner products in four
 * reductions, so four waits for the device: (r0hat, v); ||s||^2, summed by the pass that
 * makes s (spira__axpby_dots); (t, t) with (t, s) (spira__dots); and ||r||^2 with the
 * next iteration's rho = (r0hat, r), summed by the pass that makes r. Besides, four
 * axpy/axpby. Bytes moved (vectors of n values of s bytes): 2 x plan bytes + ~26 n s
 * (each reduction reads its inputs once, an axpby reads two vectors and writes one).
 * With no preconditioner phat and shat alias p and s, saving two copies.
 */
#include "solver.h"

#include <math.h>

/* |cos(r0hat, r)| below which the shadow residual is restarted (see the loop). */
#define RESTART_COSINE 1e-12

static spira_status bicgstab(spira__solve_env *e, spira_vector b, spira_vector x)
{
    /* r doubles as s (s = r - alpha v overwrites r; r = s - omega t likewise) */
    spira_vector r = e->work[0], rh = e->work[1], p = e->work[2], v = e->work[3],
                 t = e->work[4];
    const int ident = e->M->ops->is_identity;
    spira_vector ph = ident ? p : e->work[5], sh = ident ? r : e->work[6];
    double rnorm, snorm, rho = 1, rho_old = 1, alpha = 1, omega = 1, rv, rhnorm;
    double sum[2]; /* from the last pass that made r: ||r||^2 and (r0hat, r) */
    int fresh = 1; /* p starts over from r: the first step, or after a restart */
    /* r <- b - A x; r0hat <- r */
    spira_status s = spira_copy(b, r);
    if (s == SPIRA_OK && e->o.use_initial_guess) s = spira__op(e, -1.0, x, 1.0, r);
    if (s == SPIRA_OK) s = spira__env_dots(e, 1, &r, &r, sum);
    if (s != SPIRA_OK || spira__check(e, 0, rnorm = sqrt(sum[0]))) return s;
    s = spira_copy(r, rh);
    rhnorm = rnorm;
    sum[1] = sum[0]; /* (r0hat, r) = ||r||^2 */
    for (int it = 1; s == SPIRA_OK; it++) {
        if (it > e->o.maxit) {
            e->info->reason = SPIRA_STOPPED_MAXIT;
            break;
        }
        /* rho = (r0hat, r), summed with ||r||^2 at the end of the last iteration */
        rho_old = rho;
        rho = sum[1];
        if (!isfinite(rho)) {
            s = spira__breakdown(e, it, "rho = (r0hat, r)", rho);
            break;
        }
        if (fabs(rho) <= RESTART_COSINE * rhnorm * rnorm) {
            /* r has become (nearly) orthogonal to r0hat, the classic BiCGSTAB breakdown:
             * restart the shadow residual, r0hat <- r, so rho = ||r||^2 > 0 (r != 0, or
             * the solve would have stopped converged). Costs one copy, no reduction. */
            s = spira_copy(r, rh);
            if (s != SPIRA_OK) break;
            rhnorm = rnorm;
            rho = sum[0];
            fresh = 1;
        }
        if (fresh) {
            fresh = 0;
            s = spira_copy(r, p); /* p <- r */
        } else {
            /* p <- r + beta (p - omega v), beta = (rho / rho_old) (alpha / omega) */
            double beta = (rho / rho_old) * (alpha / omega);
            s = spira_axpy(-omega, v, p);
            if (s == SPIRA_OK) s = spira_axpby(1.0, r, beta, p);
        }
        /* phat <- M^-1 p; v <- A phat; alpha = rho / (r0hat, v) */
        if (s == SPIRA_OK && !ident) s = spira__precond_apply(e->M, p, ph);
        if (s == SPIRA_OK) s = spira__op(e, 1.0, ph, 0.0, v);
        if (s == SPIRA_OK) s = spira__env_dot(e, rh, v, &rv);
        if (s != SPIRA_OK) break;
        if (rv == 0 || !isfinite(rv)) {
            s = spira__breakdown(e, it, "(r0hat, v)", rv);
            break;
        }
        alpha = rho / rv;
        /* s <- r - alpha v (in r), and ||s||^2 in the same pass */
        double ss;
        if ((s = spira__env_axpby_dots(e, -alpha, v, 1.0, r, 1, &r, &ss)) != SPIRA_OK) break;
        snorm = sqrt(ss);
        if (!isfinite(snorm) || spira__meets_tolerance(e, snorm)) {
            /* half step suffices: x <- x + alpha phat */
            if (isfinite(snorm)) s = spira_axpy(alpha, ph, x);
            if (s == SPIRA_OK) spira__check(e, it, snorm);
            break;
        }
        /* shat <- M^-1 s; t <- A shat; omega = (t, s) / (t, t) */
        if (!ident) s = spira__precond_apply(e->M, r, sh);
        spira_vector ts_left[2] = {t, t}, ts_right[2] = {t, r};
        double tts[2]; /* (t, t), (t, s) */
        if (s == SPIRA_OK) s = spira__op(e, 1.0, sh, 0.0, t);
        if (s == SPIRA_OK) s = spira__env_dots(e, 2, ts_left, ts_right, tts);
        if (s != SPIRA_OK) break;
        double tt = tts[0], ts = tts[1];
        if (tt == 0 || !isfinite(tt)) {
            s = spira__breakdown(e, it, "(t, t) with t = A M^-1 s", tt);
            break;
        }
        omega = ts / tt;
        if (omega == 0 || !isfinite(omega)) {
            s = spira__breakdown(e, it, "omega = (t, s) / (t, t)", omega);
            break;
        }
        /* x <- x + alpha phat + omega shat; r <- s - omega t */
        s = spira_axpy(alpha, ph, x);
        if (s == SPIRA_OK) s = spira_axpy(omega, sh, x);
        /* r <- s - omega t, with ||r||^2 and the next rho = (r0hat, r) in the same pass */
        spira_vector rr[2] = {r, rh};
        if (s == SPIRA_OK) s = spira__env_axpby_dots(e, -omega, t, 1.0, r, 2, rr, sum);
        if (s != SPIRA_OK || spira__check(e, it, rnorm = sqrt(sum[0]))) break;
    }
    return s;
}

/* r (also s), r0hat, p, v, t; phat = M^-1 p and shat = M^-1 s unless M is the identity
 * (then they are p and s themselves) */
const spira__solver spira__bicgstab_solver = {
    .type = SPIRA_SOLVER_BICGSTAB,
    .name = "BiCGSTAB",
    .run = bicgstab,
    .work = 5,
    .work_precond = 2,
};
