/*
 * power.c - spira_power: the power method for the dominant eigenpair (largest |lambda|).
 *
 *   w = A v_k,  lambda_k = (v_k, w)  (Rayleigh quotient, ||v_k|| = 1),
 *   res_k = ||w - lambda_k v_k||,    v_{k+1} = w / ||w||.
 *
 * Stops when res_k <= tol |lambda_k|: (lambda_k, v_k) is then an exact eigenpair of a
 * matrix within res_k of A (in 2-norm), a backward-error test that needs no knowledge of
 * the gap. The eigenvector error shrinks like |lambda_2 / lambda_1|^k; for symmetric A
 * the Rayleigh quotient's like its square. A negative dominant eigenvalue is found too
 * (v then flips sign every step; the residual is still that of v_k).
 *
 * Only lib/'s BLAS-1 and the cached SpMV plan: runs on any backend and format. Per
 * iteration: one SpMV, two reductions ((v, w) with ||w||^2, then ||r||), so two waits for
 * the device, a copy, an axpy and a scale (~10 n values moved besides the matrix); no
 * allocation. Distributed (dist/power.c), the same code over each rank's rows: the SpMV
 * exchanges its halo and each reduction is one allreduce, so two an iteration.
 */
#include "solver.h"
#include "reorder.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* The LCG's state `skip` steps after st: its affine map x -> a x + c raised to the power
 * skip by squaring (mod 2^32; the powers of one map commute, so the order is free). */
static uint32_t lcg_skip(uint32_t st, int64_t skip)
{
    uint32_t a = 1664525u, c = 1013904223u, A = 1, C = 0;
    for (; skip > 0; skip >>= 1) {
        if (skip & 1) {
            A *= a;
            C = C * a + c;
        }
        c *= a + 1;
        a *= a;
    }
    return A * st + C;
}

/* A fixed start that is almost surely not orthogonal to the dominant eigenvector:
 * values in [-1, 1) from a 32-bit LCG, the same on every backend; v holds rows first.. of
 * it (a rank's rows of a distributed one), so every layout starts from the same vector. */
static spira_status random_start(spira_vector v, int64_t first)
{
    double *h = NULL;
    SPIRA__TRY(spira__alloc(v->ctx, (void **)&h, (size_t)v->n, sizeof *h, "power start vector"));
    uint32_t st = lcg_skip(12345u, first);
    for (int32_t i = 0; i < v->n; i++) {
        st = st * 1664525u + 1013904223u;
        h[i] = (double)(st >> 8) / (double)(1u << 23) - 1.0;
    }
    spira_status s = spira_vector_set_f64(v, h);
    spira__free(h);
    return s;
}

static spira_status check_args(spira_matrix A, const spira__solve_comm *comm, spira_vector v,
                               spira_power_opts *o)
{
    if (!A || !v) return SPIRA_ERR_INVALID_ARG;
    const char *name = "v";
    SPIRA__TRY(spira__check_operands("power iteration", A, "A", 1, &v, &name));
    if ((comm ? comm->global_rows : A->csr.nrows) == 0)
        return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "power iteration on a 0 x 0 matrix");
    SPIRA__TRY(spira__opt_tol(A->ctx, "spira_power_opts.tol", &o->tol, 1e-8));
    if (!spira__reorder_name(o->reorder))
        return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "spira_power_opts.reorder = %d: want "
                            "SPIRA_REORDER_NONE (0), SPIRA_REORDER_RCM (%d) or "
                            "SPIRA_REORDER_DEGREE (%d)", (int)o->reorder, SPIRA_REORDER_RCM,
                            SPIRA_REORDER_DEGREE);
    if (comm && o->reorder != SPIRA_REORDER_NONE)
        return spira__error(A->ctx, SPIRA_ERR_UNSUPPORTED, "spira_power_opts.reorder: a "
                            "distributed power iteration is not reordered");
    return spira__opt_count(A->ctx, "spira_power_opts.maxit", &o->maxit, 10000, INT_MAX);
}

/* w <- A v, and ||x|| (one allreduce when distributed) */
static spira_status mult(const spira__solve_comm *comm, spira__spmv_plan *plan, spira_vector v,
                         spira_vector w)
{
    if (comm) return comm->op(comm->data, 1.0, v, 0.0, w);
    return spira__spmv_apply(plan, 1.0, v->data, 0.0, w->data);
}

static spira_status norm(const spira__solve_comm *comm, spira_vector x, double *out)
{
    if (!comm) return spira_nrm2(x, out);
    double ss;
    SPIRA__TRY(spira__dots(1, &x, &x, &ss));
    SPIRA__TRY(spira__comm_sum(comm, 1, &ss));
    *out = sqrt(ss);
    return SPIRA_OK;
}

/* spira_power, and with comm over a distributed operator (A its local block, whose plans
 * the caller prepared: comm->op multiplies). */
static spira_status power(spira_matrix A, const spira__solve_comm *comm, spira_vector v,
                          const spira_power_opts *opts, spira_power_info *info)
{
    spira_power_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    info->reason = SPIRA_STOPPED_ERROR;
    spira_power_opts o = {0};
    if (opts) o = *opts;
    SPIRA__TRY(check_args(A, comm, v, &o));
    spira_context ctx = A->ctx;
    info->format = spira__matrix_format(A);

    double t0 = spira__now_ms(), vn = 0;
    spira__spmv_plan *plan = NULL;
    spira_vector w = NULL, r = NULL;
    /* the gap |lambda_2 / lambda_1| that sets the rate is unknown: the iteration limit */
    spira_status s = comm ? SPIRA_OK : spira__spmv_plan_expect(A, o.maxit, &plan);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, v->n, v->dtype, &w);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, v->n, v->dtype, &r);
    if (s == SPIRA_OK && !o.use_initial_guess) s = random_start(v, comm ? comm->first_row : 0);
    s = spira__comm_agree(comm, s);
    if (s == SPIRA_OK) s = norm(comm, v, &vn);
    if (s == SPIRA_OK && !isfinite(vn))
        s = spira__error(ctx, SPIRA_ERR_NONFINITE, "start vector contains NaN or Inf (||v|| = %g)",
                         vn);
    if (s == SPIRA_OK && vn == 0)
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "power iteration start vector is zero");
    if (s == SPIRA_OK) s = spira_scal(1.0 / vn, v);
    if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
    double t1 = spira__now_ms();
    info->setup_ms = t1 - t0;
    for (int it = 1; s == SPIRA_OK; it++) {
        double res, sum[2] = {0, 0}; /* (v, w), (w, w) */
        spira_vector left[2] = {v, w}, right[2] = {w, w};
        /* w <- A v; lambda = (v, w) and ||w|| in one pass; r <- w - lambda v. (||r||^2 =
         * ||w||^2 - lambda^2 would save the second wait but cancels to nothing near
         * convergence, where the test needs it most.) */
        s = mult(comm, plan, v, w);
        if (s == SPIRA_OK) s = spira__dots(2, left, right, sum);
        if (s == SPIRA_OK) s = spira__comm_sum(comm, 2, sum);
        const double lambda = sum[0], wn = sqrt(sum[1]);
        if (s == SPIRA_OK) s = spira_copy(w, r);
        if (s == SPIRA_OK) s = spira_axpy(-lambda, v, r);
        if (s == SPIRA_OK) s = norm(comm, r, &res);
        if (s != SPIRA_OK) break;
        info->iterations = it;
        info->eigenvalue = lambda;
        info->residual = res;
        if (!isfinite(lambda) || !isfinite(res) || !isfinite(wn)) {
            info->reason = SPIRA_STOPPED_NONFINITE;
            s = spira__error(ctx, SPIRA_ERR_NONFINITE,
                             "power iteration %d: lambda = %g, ||A v|| = %g (NaN or Inf in A "
                             "or v, or overflow)", it, lambda, wn);
            break;
        }
        if (res <= o.tol * fabs(lambda)) { /* includes A v = 0 exactly: lambda 0, v exact */
            info->reason = SPIRA_CONVERGED_RTOL;
            break;
        }
        if (it >= o.maxit) {
            info->reason = SPIRA_STOPPED_MAXIT;
            s = spira__error(ctx, SPIRA_ERR_NOT_CONVERGED,
                             "power iteration not converged in %d iterations: "
                             "||A v - lambda v|| = %.3e > %.3e |lambda| (lambda = %.6g)",
                             it, res, o.tol, lambda);
            break;
        }
        /* v <- w / ||w|| (w != 0 here: w = 0 gives res = 0 and stops above) */
        s = spira_axpby(1.0 / wn, w, 0.0, v);
    }
    if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
    info->solve_ms = spira__now_ms() - t1;
    spira__spmv_account(A, info->solve_ms);
    if (s == SPIRA_ERR_NONFINITE) info->reason = SPIRA_STOPPED_NONFINITE; /* start vector too */
    spira_vector_destroy(w);
    spira_vector_destroy(r);
    return s;
}

/* The power method in ordering opts->reorder: on P A P^T from P v_0, v_0 the plain call's
 * start (the caller's, or the fixed one made here in A's numbering), so the iterates are
 * the plain ones permuted; v comes back through iperm. The checks are the plain call's. */
static spira_status power_reordered(spira_matrix A, spira_vector v, const spira_power_opts *opts,
                                    spira_power_info *info)
{
    spira_power_opts o = *opts;
    SPIRA__TRY(check_args(A, NULL, v, &o));
    spira__reordered *R = NULL;
    spira_vector pv = NULL;
    double paid = 0, t0 = spira__now_ms();
    spira_status s = spira__reordered_get(A, opts->reorder, &R, &paid);
    if (s == SPIRA_OK) s = spira_vector_create(A->ctx, v->n, v->dtype, &pv);
    if (s == SPIRA_OK && !opts->use_initial_guess) s = random_start(v, 0);
    if (s == SPIRA_OK) s = spira__vector_gather(v, R->perm, pv);
    const double setup = spira__now_ms() - t0;
    if (s == SPIRA_OK) {
        o = *opts;
        o.reorder = SPIRA_REORDER_NONE;
        o.use_initial_guess = 1;
        s = power(R->PA, NULL, pv, &o, info);
        s = spira__reordered_back(R, s, &info->reason, pv, v);
        SPIRA__REORDER_REPORT(info, R, paid);
        info->setup_ms += setup;
    }
    spira_vector_destroy(pv);
    return s;
}

spira_status spira_power(spira_matrix A, spira_vector v, const spira_power_opts *opts,
                         spira_power_info *info)
{
    if (opts && opts->reorder != SPIRA_REORDER_NONE) {
        spira_power_info local;
        if (!info) info = &local;
        memset(info, 0, sizeof *info);
        info->reason = SPIRA_STOPPED_ERROR;
        return power_reordered(A, v, opts, info);
    }
    return power(A, NULL, v, opts, info);
}

spira_status spira__power_comm(spira_matrix local, const spira__solve_comm *comm, spira_vector v,
                               const spira_power_opts *opts, spira_power_info *info)
{
    return power(local, comm, v, opts, info);
}
