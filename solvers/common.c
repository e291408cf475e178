/*
 * common.c - what the solvers share: the operator, the convergence test, breakdown, and the
 * operand check of spira_solve, spira_power and spira_pagerank.
 */
#include "solver.h"
#include "background.h"

#include <math.h>
#include <stdio.h>

spira_status spira__op(spira__solve_env *e, double alpha, spira_vector x, double beta,
                       spira_vector y)
{
    if (e->comm) return e->comm->op(e->comm->data, alpha, x, beta, y);
    return spira__spmv_apply(e->plan, alpha, x->data, beta, y->data);
}

/* ---- reductions: local sums, then one sum over the ranks ---- */

spira_status spira__comm_sum(const spira__solve_comm *comm, int k, double *v)
{
    return comm ? comm->sum(comm->data, k, v) : SPIRA_OK;
}

spira_status spira__comm_agree(const spira__solve_comm *comm, spira_status s)
{
    return comm ? comm->agree(comm->data, s) : s;
}

/* Where the comm sums device partials (the GPU path), the reduction's own wait brings the
 * sum over the ranks: the hook is set for the one reduction and runs before its read. A
 * reduction that did not reach the hook (an error before it) still takes part in the sum,
 * with zeros on the host, so no rank is left waiting in the collective. */
static void hook_set(spira__solve_env *e)
{
    if (e->comm && e->comm->dsum && e->ctx->backend == SPIRA_BACKEND_CUDA) {
        e->ctx->sum_hook = e->comm->dsum;
        e->ctx->sum_hook_data = e->comm->data;
    }
}

static spira_status hook_done(spira__solve_env *e, spira_status s, int k, double *out)
{
    if (!e->comm) return s;
    if (e->comm->dsum && e->ctx->backend == SPIRA_BACKEND_CUDA && !e->ctx->sum_hook) return s;
    e->ctx->sum_hook = NULL;
    if (s != SPIRA_OK) {
        double zero[SPIRA__DOTS_MAX] = {0};
        spira__comm_sum(e->comm, k, zero);
        return s;
    }
    return spira__comm_sum(e->comm, k, out);
}

spira_status spira__env_dots(spira__solve_env *e, int k, const spira_vector *x,
                             const spira_vector *y, double *out)
{
    hook_set(e);
    return hook_done(e, spira__dots(k, x, y, out), k, out);
}

spira_status spira__env_dot(spira__solve_env *e, spira_vector x, spira_vector y, double *out)
{
    if (!e->comm) return spira_dot(x, y, out);
    return spira__env_dots(e, 1, &x, &y, out);
}

spira_status spira__env_nrm2(spira__solve_env *e, spira_vector x, double *out)
{
    if (!e->comm) return spira_nrm2(x, out);
    double ss;
    SPIRA__TRY(spira__env_dots(e, 1, &x, &x, &ss));
    *out = sqrt(ss);
    return SPIRA_OK;
}

spira_status spira__env_axpby_dots(spira__solve_env *e, double a, spira_vector x, double b,
                                   spira_vector y, int k, const spira_vector *z, double *out)
{
    hook_set(e);
    return hook_done(e, spira__axpby_dots(a, x, b, y, k, z, out), k, out);
}

/* The reason a residual norm stops the solve as converged, or -1. */
static int converged(const spira__solve_env *e, double rnorm)
{
    if (rnorm <= e->o.rtol * e->bnorm) return SPIRA_CONVERGED_RTOL;
    if (e->o.atol > 0 && rnorm <= e->o.atol) return SPIRA_CONVERGED_ATOL;
    return -1;
}

int spira__meets_tolerance(const spira__solve_env *e, double rnorm)
{
    return converged(e, rnorm) >= 0;
}

void spira__stage_take(spira__solve_env *e)
{
    if (!e->stage.job) return;
    double wait_ms;
    spira__plan_job_finish(e->stage.job, &wait_ms, e->stage.note, sizeof e->stage.note);
    e->stage.job = NULL;
    e->stage.ms += wait_ms;
}

/* The format weighed again at iteration it for `left` more iterations (source says why),
 * and the solve goes on with its plan; where it could not be built (no memory for it), with
 * the plan it had. What building took is setup, not iterations. */
static void choose_again(spira__solve_env *e, double left, const char *source)
{
    spira_matrix A = e->A;
    char was[sizeof A->format];
    snprintf(was, sizeof was, "%s", A->format);
    const double t0 = spira__now_ms();
    spira__spmv_plan *plan;
    if (spira__spmv_plan_said(A, left * e->stage.per_it, source, &plan) == SPIRA_OK) {
        e->plan = plan;
    } else {
        snprintf(A->format, sizeof A->format, "%s", was);
        e->ctx->err[0] = '\0';
    }
    e->stage.ms += spira__now_ms() - t0;
}

/* auto's second look in a staged solve (solve.c's choose_plan), at iteration it: the
 * multiplies left at the rate the residual fell so far, and the format for them; a plan
 * built beside the first iterations (waited for if need be) is in A's cache by then, free
 * to take. */
static void restage(spira__solve_env *e, int it)
{
    e->stage.at = 0; /* once a solve */
    spira__stage_take(e);
    double target = e->o.rtol * e->bnorm;
    if (e->o.atol > target) target = e->o.atol;
    /* what maxit leaves (e->o.maxit is this round's: the rounds before took it0) */
    const double most = (double)e->it0 + e->o.maxit - it;
    /* the rate from the least residual of iterations 1..it/2 to that of the rest, so that
     * neither ||r_0|| (CG's residual may rise fivefold before it falls) nor one lucky step
     * (BiCGSTAB's wanders) sets it; none (a stagnating solve): what maxit leaves. A rate
     * that speeds up later (CG on a Laplacian) predicts too many, whose cost is bounded by
     * the faster format's setup; too few would cost more */
    const double *low = e->stage.low, span = it - it / 2.0;
    double left = most;
    if (low[1] < low[0] && low[1] > target && target > 0) {
        left = ceil(log(target / low[1]) / (log(low[1] / low[0]) / span));
        if (left > most) left = most;
    }
    char source[160 + sizeof e->stage.note];
    snprintf(source, sizeof source, "%.0f predicted at iteration %d (%.0f iterations left at "
             "the rate its residual fell so far%s%s)", left * e->stage.per_it, it, left,
             e->stage.note[0] ? "; " : "", e->stage.note);
    choose_again(e, left, source);
}

/* The plan built beside the solve is ready at iteration it, before the second look: the
 * format weighed again at once, for the iterations the solve's expectation leaves, with that
 * plan free to take; this is the second look (none follows). */
static void switch_early(spira__solve_env *e, int it)
{
    e->stage.at = 0;
    spira__stage_take(e);
    double left = e->stage.expect - it;
    if (left < 1) left = 1;
    char source[160 + sizeof e->stage.note];
    snprintf(source, sizeof source, "%.0f expected at iteration %d (%.0f of the %.0f iterations "
             "expected left; %s)", left * e->stage.per_it, it, left, e->stage.expect,
             e->stage.note);
    choose_again(e, left, source);
}

int spira__check(spira__solve_env *e, int it, double rnorm)
{
    it += e->it0;
    e->info->iterations = it;
    e->info->recurrence_residual = rnorm / e->bnorm;
    if (e->o.history && it < e->o.history_len) e->o.history[it] = rnorm;
    if (!isfinite(rnorm)) {
        e->info->reason = SPIRA_STOPPED_NONFINITE;
        spira__error(e->ctx, SPIRA_ERR_NONFINITE,
                     "residual norm became %g at iteration %d (NaN or Inf in A, b or x0, "
                     "or overflow)", rnorm, it);
        return 1;
    }
    if (e->o.monitor && e->o.monitor(it, rnorm, e->o.monitor_data)) {
        e->info->reason = SPIRA_STOPPED_BY_MONITOR;
        return 1;
    }
    int why = converged(e, rnorm);
    if (why >= 0) {
        e->info->reason = (spira_reason)why;
        return 1;
    }
    if (it == 0) {
        e->rref = rnorm > e->bnorm ? rnorm : e->bnorm;
        e->best = rnorm;
        e->best_it = 0;
        return 0;
    }
    if (rnorm > e->o.dtol * e->rref) {
        e->info->reason = SPIRA_STOPPED_DIVERGED;
        spira__error(e->ctx, SPIRA_ERR_NOT_CONVERGED,
                     "diverged at iteration %d: ||r|| = %.3e > dtol %g x %.3e (max(||b||, "
                     "||r_0||)); the method cannot win on this system: try another solver or "
                     "a preconditioner", it, rnorm, e->o.dtol, e->rref);
        return 1;
    }
    if (rnorm < 0.99 * e->best) {
        e->best = rnorm;
        e->best_it = it;
    } else if (it - e->best_it >= e->o.stagnation_window) {
        e->info->reason = SPIRA_STOPPED_STAGNATION;
        spira__error(e->ctx, SPIRA_ERR_NOT_CONVERGED,
                     "stagnation: in %d iterations (%d to %d) ||r|| never went below 0.99 x "
                     "%.3e (relative %.3e), its best; the method makes no progress on this "
                     "system: try another solver or preconditioner", it - e->best_it,
                     e->best_it, it, e->best, e->best / e->bnorm);
        return 1;
    }
    if (e->stage.at) {
        double *low = &e->stage.low[2 * it > e->stage.at];
        if (rnorm < *low) *low = rnorm;
        if (it >= e->stage.at) restage(e, it);
        else if (e->stage.job && spira__plan_job_done(e->stage.job)) switch_early(e, it);
    }
    return 0;
}

spira_status spira__breakdown(spira__solve_env *e, int it, const char *what, double value)
{
    it += e->it0;
    e->info->iterations = it;
    e->info->reason = isfinite(value) ? SPIRA_STOPPED_BREAKDOWN : SPIRA_STOPPED_NONFINITE;
    return spira__error(e->ctx, isfinite(value) ? SPIRA_ERR_BREAKDOWN : SPIRA_ERR_NONFINITE,
                        "breakdown at iteration %d: %s = %g", it, what, value);
}

spira_status spira__check_operands(const char *who, spira_matrix A, const char *a_name, int k,
                                   const spira_vector *v, const char *const *names)
{
    spira_context ctx = A->ctx;
    const spira__csr *c = &A->csr;
    if (c->nrows != c->ncols)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "%s needs a square matrix; %s is %d x %d",
                            who, a_name, c->nrows, c->ncols);
    for (int i = 0; i < k; i++) {
        if (!v[i]) continue;
        if (v[i]->ctx != ctx)
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                                "%s and %s belong to different contexts", a_name, names[i]);
        if (v[i]->n != c->nrows)
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                                "size mismatch: %s is %d x %d, %s has %d values", a_name,
                                c->nrows, c->ncols, names[i], v[i]->n);
        if (v[i]->dtype != c->dtype)
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                                "precision mismatch: %s and %s must share float or double",
                                a_name, names[i]);
    }
    return SPIRA_OK;
}
