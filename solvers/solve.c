/*
 * solve.c - the solver registry and dispatcher: spira_solver_create (argument checks,
 * defaults, setup: SpMV plan, preconditioner, workspace), spira_solver_solve (the b = 0
 * shortcut, the call into one solver, the final true residual b - A x and the restarts
 * from it), and spira_solve, which is the two around one right-hand side.
 */
#include "solver.h"
#include "host_solve.h"
#include "reorder.h"
#include "auto.h"
#include "background.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const spira__solver *const registry[] = {
    &spira__cg_solver,
    &spira__bicgstab_solver,
    &spira__jacobi_solver,
};

/* Restarts from the true residual when the recurrence converged but b - A x did not. */
#define TRUE_RESIDUAL_RESTARTS 3

struct spira_solver_s {
    spira__solve_env e; /* ctx, A, type, plan, M, work: what the solver runs with */
    spira_solve_opts o; /* the caller's options, defaults filled in */
    int nwork;          /* vectors of e.work made */
    spira_vector r;     /* b - A x after each round */
    double setup_ms;    /* the setup not yet reported by a solve (the first one reports it) */
    int on_host;        /* the solves run on the host beside a CUDA context (host_solve.c) */
    spira__host_solver host;
    const char *where;  /* why they run where they do (static) */
    spira__solve_comm comm; /* a distributed solve's (e.comm points here), else unused */
    /* opts.reorder: inner is the solver of R->PA = P A P^T, which does all the work; b and x
     * go in through pb and px (x[i] = px[iperm[i]] on the way out) */
    spira_solver inner;
    spira__reordered *R; /* A's cache owns it */
    spira_vector pb, px;
    double reorder_ms;   /* building R, paid by this solver and not yet reported */
    const int32_t *rows; /* the solver of a reordered one: A's row of each of its rows, for
                            the messages (else NULL) */
};

const char *spira_reason_string(spira_reason r)
{
    switch (r) {
    case SPIRA_CONVERGED_RTOL: return "converged (relative tolerance)";
    case SPIRA_CONVERGED_ATOL: return "converged (absolute tolerance)";
    case SPIRA_CONVERGED_ZERO_RHS: return "converged (b = 0, x = 0)";
    case SPIRA_STOPPED_MAXIT: return "stopped: iteration limit reached";
    case SPIRA_STOPPED_BREAKDOWN: return "stopped: breakdown";
    case SPIRA_STOPPED_NONFINITE: return "stopped: NaN or Inf";
    case SPIRA_STOPPED_STAGNATION: return "stopped: stagnation";
    case SPIRA_STOPPED_BY_MONITOR: return "stopped by the monitor";
    case SPIRA_STOPPED_ERROR: return "stopped: error";
    case SPIRA_STOPPED_DIVERGED: return "stopped: diverged";
    }
    return "unknown";
}

/* The multiplies a solve expects, for "auto" (spmv/auto.h) to weigh setup against: CG's
 * iterations on a Poisson-like problem, 0.16 ln(2/rtol) n^(1/3) (the 3-D Laplacian's
 * sqrt(kappa) is about 0.64 n^(1/3), and CG takes about half its bound sqrt(kappa)/2
 * ln(2/rtol): 458 on 150^3 at 1e-8, where it takes about 500), capped by maxit. BiCGSTAB
 * makes two a step; a Neumann preconditioner adds its degree per apply; the Jacobi
 * iteration converges as kappa, not its root, and is expected to run to maxit. */
static double expected_iterations(const spira_solver S)
{
    const spira_solve_opts *o = &S->o;
    const int64_t n = S->e.comm ? S->e.comm->global_rows : S->e.A->csr.nrows;
    double its = S->e.type->type == SPIRA_SOLVER_JACOBI
                     ? o->maxit
                     : ceil(0.16 * log(2 / o->rtol) * cbrt((double)(n > 1 ? n : 1)));
    if (its > o->maxit) its = o->maxit;
    return its < 1 ? 1 : its;
}

static int neumann(const spira_solver S)
{
    return !S->e.type->has_own_precond && S->o.precond == SPIRA_PRECOND_NEUMANN;
}

static double multiplies_per_iteration(const spira_solver S)
{
    const spira_solve_opts *o = &S->o;
    const double per_apply = neumann(S) ? 1 + (o->precond_degree > 0 ? o->precond_degree : 2) : 1;
    return per_apply * (S->e.type->type == SPIRA_SOLVER_BICGSTAB ? 2 : 1);
}

static double expected_multiplies(const spira_solver S)
{
    return expected_iterations(S) * multiplies_per_iteration(S);
}

/* The plan a solve starts with. Where auto chooses A's format and the solve expects more
 * than SPIRA__AUTO_STAGE multiplies (spmv/auto.h), it chooses for that many first (taking
 * the format the whole expectation would choose where that costs the stage little more:
 * spira__auto_rule's prefer) and sets the iteration at which spira__check (common.c) weighs
 * the choice again; not in a distributed solve (its plans are the caller's), nor in a
 * deterministic context (the choice made up front, whatever the convergence), nor with
 * Neumann's preconditioner (whose multiplies hold the plan they were built with). */
static spira_status choose_plan(spira_solver S, spira__spmv_plan **plan)
{
    spira__solve_env *e = &S->e;
    const double per_it = multiplies_per_iteration(S), expect = expected_iterations(S) * per_it;
    e->stage.at = 0;
    e->stage.ms = 0;
    if (!e->A->autosel.on || e->comm || e->ctx->deterministic || neumann(S) ||
        expect <= SPIRA__AUTO_STAGE)
        return spira__spmv_plan_expect(e->A, expect, plan);
    e->stage.at = (int)ceil(SPIRA__AUTO_STAGE / per_it);
    e->stage.per_it = per_it;
    e->stage.low[0] = e->stage.low[1] = INFINITY;
    char source[128];
    snprintf(source, sizeof source, "the first %d of the %.0f expected by this solve (weighed "
             "again at iteration %d)", SPIRA__AUTO_STAGE, expect, e->stage.at);
    return spira__spmv_plan_staged(e->A, SPIRA__AUTO_STAGE, expect, source, plan);
}

/* In a staged solve with ctx->background, the plan of the format its expected multiplies
 * choose, handed to the context's worker to build beside the first iterations
 * (background.h) and switched to once built; where that format is the first stage's, or
 * built already, nothing. After the setup: its CUDA graph is captured by then. */
static void stage_beside(spira_solver S)
{
    spira__solve_env *e = &S->e;
    e->stage.job = NULL;
    e->stage.note[0] = '\0';
    if (!e->stage.at || !e->ctx->background) return;
    e->stage.expect = expected_iterations(S);
    const char *f = e->ctx->background_format
                        ? e->ctx->background_format
                        : spira__auto_foresee(e->A, e->stage.expect * e->stage.per_it);
    if (!f || !strcmp(f, e->A->format)) return;
    if (spira__plan_job_start(e->A, f, &e->stage.job) != SPIRA_OK) {
        e->stage.job = NULL; /* no memory for it: the solve goes on without */
        e->ctx->err[0] = '\0';
    }
}

/* Drop what setup made (plan excepted: A's cache owns it). */
static void teardown(spira_solver S)
{
    if (S->e.type->release) S->e.type->release(&S->e);
    for (int i = 0; i < S->nwork; i++) {
        spira_vector_destroy(S->e.work[i]);
        S->e.work[i] = NULL;
    }
    S->nwork = 0;
    spira_vector_destroy(S->r);
    S->r = NULL;
    spira__precond_destroy(S->e.M);
    S->e.M = NULL;
}

/* The SpMV plan of A's format, the preconditioner and the workspace; timed into setup_ms.
 * On failure nothing is left but the plan. */
static spira_status setup(spira_solver S)
{
    spira__solve_env *e = &S->e;
    const spira__solver *t = e->type;
    spira_matrix A = e->A;
    double t0 = spira__now_ms();
    spira__worker_wait(e->ctx); /* no other thread's calls beside the graph's capture */
    spira_status s = choose_plan(S, &e->plan);
    if (s == SPIRA_OK)
        s = spira__precond_create(t->has_own_precond ? t->own_precond : S->o.precond, &S->o, A,
                                  &e->M);
    if (s == SPIRA_OK && t->symmetric_precond && e->M->unsymmetric)
        s = spira__error(e->ctx, SPIRA_ERR_INVALID_ARG,
                         "%s needs a symmetric preconditioner and %s is not (%s); use "
                         "BiCGSTAB, or ILU(0) on a matrix with a nonzero diagonal",
                         t->name, e->M->ops->name, e->M->unsymmetric);
    int want = t->work + (s == SPIRA_OK && !e->M->ops->is_identity ? t->work_precond : 0);
    for (; s == SPIRA_OK && S->nwork < want; S->nwork++)
        s = spira_vector_create(e->ctx, A->csr.nrows, A->csr.dtype, &e->work[S->nwork]);
    if (s == SPIRA_OK) s = spira_vector_create(e->ctx, A->csr.nrows, A->csr.dtype, &S->r);
    if (s == SPIRA_OK && t->prepare) s = t->prepare(e, &S->o);
    if (s == SPIRA_OK) s = spira_context_synchronize(e->ctx);
    S->setup_ms += spira__now_ms() - t0;
    if (s != SPIRA_OK) teardown(S);
    return s;
}

static const spira__solver *find(spira_solver_type type)
{
    for (size_t i = 0; i < sizeof registry / sizeof *registry; i++)
        if (registry[i]->type == type) return registry[i];
    return NULL;
}

/* b and x for solver t on A. */
static spira_status check_vectors(const spira__solver *t, spira_matrix A, spira_vector b,
                                  spira_vector x)
{
    if (!b || !x) return SPIRA_ERR_INVALID_ARG;
    const spira_vector v[2] = {b, x};
    const char *const names[2] = {"b", "x"};
    SPIRA__TRY(spira__check_operands(t->name, A, "A", 2, v, names));
    if (b == x) return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "b and x must be distinct");
    return SPIRA_OK;
}

/* Every field checked and its default (0) filled in, before any work; n is A's (global)
 * rows. */
static spira_status resolve_opts(spira_context ctx, int64_t n, spira_solve_opts *o)
{
    SPIRA__TRY(spira__opt_tol(ctx, "spira_solve_opts.rtol", &o->rtol, 1e-8));
    SPIRA__TRY(spira__opt_tol(ctx, "spira_solve_opts.atol", &o->atol, 0));
    SPIRA__TRY(spira__opt_count(ctx, "spira_solve_opts.maxit", &o->maxit, 10000, INT_MAX));
    if ((unsigned)o->precond > SPIRA_PRECOND_ILUT)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "spira_solve_opts.precond = %d: unknown "
                            "preconditioner", (int)o->precond);
    SPIRA__TRY(spira__opt_count(ctx, "spira_solve_opts.precond_degree", &o->precond_degree,
                                SPIRA_NEUMANN_DEFAULT_DEGREE, 64));
    SPIRA__TRY(spira__opt_real(ctx, "spira_solve_opts.precond_drop_tol", &o->precond_drop_tol,
                               SPIRA_ILUT_DEFAULT_DROP_TOL, 0, 1, 1, 1));
    SPIRA__TRY(spira__opt_real(ctx, "spira_solve_opts.precond_fill", &o->precond_fill,
                               SPIRA_ILUT_DEFAULT_FILL, 1, 0, 1000, 0));
    if (o->trisolve_sweeps < 0 || o->trisolve_sweeps > SPIRA_TRISOLVE_MAX_SWEEPS)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "spira_solve_opts.trisolve_sweeps = %d: "
                            "want an integer from 0 (exact triangular solves) to %d",
                            o->trisolve_sweeps, SPIRA_TRISOLVE_MAX_SWEEPS);
    if (o->trisolve != SPIRA_TRISOLVE_DEFAULT && o->trisolve != SPIRA_TRISOLVE_ISAI)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "spira_solve_opts.trisolve = %d: "
                            "unknown (DEFAULT or ISAI)", (int)o->trisolve);
    if (o->trisolve == SPIRA_TRISOLVE_ISAI && o->trisolve_sweeps)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "spira_solve_opts: trisolve ISAI and "
                            "trisolve_sweeps = %d: approximate inverses or Jacobi sweeps, not "
                            "both", o->trisolve_sweeps);
    SPIRA__TRY(spira__opt_real(ctx, "spira_solve_opts.damping", &o->damping, 1, 0, 1, INFINITY, 1));
    if (o->history_len < 0)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "spira_solve_opts.history_len = %d: want >= 0", o->history_len);
    if (o->dtol == 0) o->dtol = 1e5;
    if (!(o->dtol > 1) || isnan(o->dtol))
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "spira_solve_opts.dtol = %g: want a "
                            "number > 1, or INFINITY (0: the default 1e5)", o->dtol);
    /* A Krylov method in exact arithmetic ends within n steps, so a plateau shorter than n
     * is no proof that it cannot win: BiCGSTAB on sherman5 (n = 3312) has sat 1000
     * iterations above its best, in one rounding order, and converged 1200 later. */
    const int64_t window = n > 1000 ? n : 1000;
    SPIRA__TRY(spira__opt_count(ctx, "spira_solve_opts.stagnation_window",
                                &o->stagnation_window, window > INT_MAX ? INT_MAX : (int)window,
                                INT_MAX));
    if (!spira__reorder_name(o->reorder))
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "spira_solve_opts.reorder = %d: want "
                            "SPIRA_REORDER_NONE (0), SPIRA_REORDER_RCM (%d) or "
                            "SPIRA_REORDER_DEGREE (%d)", (int)o->reorder, SPIRA_REORDER_RCM,
                            SPIRA_REORDER_DEGREE);
    return SPIRA_OK;
}

static spira_status create(spira_solver_type type, spira_matrix A, const spira__solve_comm *comm,
                           const spira_solve_opts *opts, spira_solver *out);

/* A solver that runs the caller's solver of type on P A P^T (A's cached reordering for
 * o->reorder), moving b and x across: S->inner and its two vectors. opts: the caller's. */
static spira_status create_reordered(const spira__solver *t, spira_matrix A,
                                     const spira_solve_opts *o, const spira_solve_opts *opts,
                                     spira_solver *out)
{
    spira_solver S = spira__calloc(1, sizeof *S);
    if (!S) return spira__nomem(A->ctx, "solver", sizeof *S);
    S->e.ctx = A->ctx;
    S->e.A = A;
    S->e.type = t;
    S->o = *o;
    double t0 = spira__now_ms();
    spira_status s = spira__reordered_get(A, o->reorder, &S->R, &S->reorder_ms);
    /* the first solve's setup: the reordering (with PA's format choice), and the inner
     * solver's own, which that solver reports */
    S->setup_ms = spira__now_ms() - t0;
    /* the caller's options but the ordering (resolving them twice would turn
     * SPIRA_TOL_ZERO's 0 into the default tolerance) */
    spira_solve_opts io = *opts;
    io.reorder = SPIRA_REORDER_NONE;
    if (s == SPIRA_OK) s = create(t->type, S->R->PA, NULL, &io, &S->inner);
    if (s == SPIRA_OK) S->inner->rows = S->R->host_perm;
    if (S->R && !S->inner && s != SPIRA_ERR_NOMEM && s != SPIRA_ERR_DEVICE) {
        /* P A P^T refused (a zero diagonal entry, a zero pivot): its message names P A P^T's
         * rows. The plain setup's refusal, when it refuses too, is the one the caller would
         * get without the reordering and names A's; else the reordered one stands. */
        char why[sizeof A->ctx->err];
        snprintf(why, sizeof why, "%s", A->ctx->err);
        spira_solver P = NULL;
        spira_status p = create(t->type, A, NULL, &io, &P);
        spira_solver_destroy(P);
        if (p != SPIRA_OK && p != SPIRA_ERR_NOMEM) s = p;
        else spira__error(A->ctx, s, "%s", why);
    }
    if (s == SPIRA_OK) s = spira_vector_create(A->ctx, A->csr.nrows, A->csr.dtype, &S->pb);
    if (s == SPIRA_OK) s = spira_vector_create(A->ctx, A->csr.nrows, A->csr.dtype, &S->px);
    if (s != SPIRA_OK) {
        spira_solver_destroy(S);
        return s;
    }
    *out = S;
    return SPIRA_OK;
}

/* A solver of type on A's twin on the host, beside a CUDA context (host_solve.c makes the
 * twin and carries b and x; the inner solver is made here, as every solver is). o: the
 * caller's options as given. On failure h is left empty. */
static spira_status host_create(spira_solver_type type, spira_matrix A,
                                const spira_solve_opts *o, spira__host_solver *h)
{
    memset(h, 0, sizeof *h);
    spira_context host;
    spira_matrix T;
    spira_solve_opts ho;
    spira_status s = spira__host_twin(A, o, &host, &T, &ho);
    if (s == SPIRA_OK) s = spira_solver_create(type, T, &ho, &h->inner);
    if (s == SPIRA_OK) s = spira__host_vectors(host, A, h);
    if (s != SPIRA_OK) {
        spira__host_failed(A->ctx, host, s);
        spira_solver_destroy(h->inner);
        spira__host_vectors_free(h);
    }
    return s;
}

/* Where the trial's verdict on A is kept: what sets the host's iteration time is the solver,
 * the preconditioner and its options (o resolved), not b or the tolerance. */
static void trial_key(spira_solver_type type, const spira_solve_opts *o, char *key, size_t len)
{
    snprintf(key, len, "host-trial:%d:%d:%d:%d:%d:%.17g:%.17g", (int)type, (int)o->precond,
             o->precond_degree, o->trisolve_sweeps, (int)o->trisolve, o->precond_drop_tol,
             o->precond_fill);
}

/* Where the model could not tell (host_solve.c): the host solver made, and timed on a few
 * iterations from b = 1, x = 0 with no tolerance (the first two untimed; the time of 12
 * less that of 4, over 8), kept when it beats the GPU's predicted gpu_us an iteration, else
 * freed for the GPU's setup. Only a failure to make it is an error: a solve that breaks
 * down in the trial (as one may in 12 iterations) or fails otherwise sends the solver to
 * the GPU, where the real solve will say why. The time is kept in A's cache under key
 * (a matrix never changes): a later solver of A with the same options decides from it
 * and makes no trial, so solving many right-hand sides pays for one. */
static spira_status host_or_gpu(spira_solver_type type, spira_matrix A,
                                const spira_solve_opts *opts, const char *key, double gpu_us,
                                spira_solver S)
{
    spira__cache_entry *e = spira__matrix_cache_find(A, key);
    if (e) {
        spira__host_decide(*(const double *)e->plan, gpu_us, &S->on_host, &S->where);
        return S->on_host ? host_create(type, A, opts, &S->host) : SPIRA_OK;
    }
    double *kept = NULL;
    SPIRA__TRY(spira__alloc(A->ctx, (void **)&kept, 1, sizeof *kept, "host trial's time"));
    spira_status made = host_create(type, A, opts, &S->host);
    if (made != SPIRA_OK) {
        spira__free(kept);
        return made;
    }
    A->ctx->host_trials++;
    spira_solver in = S->host.inner;
    const spira_solve_opts keep = in->o;
    const double setup_ms = in->setup_ms;
    const int its[3] = {2, 4, 12};
    double ms[3];
    /* no test stops the trial before its iterations; the caller's monitor and history are
     * left alone */
    in->o.rtol = in->o.atol = 0;
    in->o.dtol = INFINITY;
    in->o.use_initial_guess = 0;
    in->o.monitor = NULL;
    in->o.history = NULL;
    in->o.history_len = 0;
    int ok = spira_vector_fill(S->host.b, 1.0) == SPIRA_OK;
    for (int k = 0; k < 3 && ok; k++) {
        in->o.maxit = its[k];
        in->o.stagnation_window = its[k] + 1;
        spira_solve_info info;
        const double t0 = spira__now_ms();
        spira_status r = spira_solver_solve(in, S->host.b, S->host.x, &info);
        ms[k] = spira__now_ms() - t0;
        ok = (r == SPIRA_OK || r == SPIRA_ERR_NOT_CONVERGED) && info.iterations == its[k];
    }
    in->o = keep;
    in->setup_ms = setup_ms; /* the first real solve reports the setup */
    S->host.b->ctx->err[0] = '\0';
    const double host_us = ok ? (ms[2] - ms[1]) * 1e3 / (its[2] - its[1]) : -1;
    spira__host_decide(host_us, gpu_us, &S->on_host, &S->where);
    if (!S->on_host) {
        spira_solver_destroy(S->host.inner);
        spira__host_vectors_free(&S->host);
    }
    *kept = host_us;
    return spira__matrix_cache_put(A, key, kept, spira__free, 0, &e);
}

/* spira_solver_create, and with comm a distributed solver's (no host solve, no zero-line
 * check: the caller's is global; every status agreed over the ranks). */
static spira_status create(spira_solver_type type, spira_matrix A, const spira__solve_comm *comm,
                           const spira_solve_opts *opts, spira_solver *out)
{
    if (!A || !out) return SPIRA_ERR_INVALID_ARG;
    *out = NULL;
    const spira__solver *t = find(type);
    if (!t) return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "unknown solver %d", (int)type);
    SPIRA__TRY(spira__check_operands(t->name, A, "A", 0, NULL, NULL));
    if (!comm) {
        /* no solver can win on a matrix with a zero row or column: refused before any setup */
        int32_t line;
        int is_col;
        SPIRA__TRY(spira__matrix_empty_line(A, &line, &is_col));
        if (line >= 0)
            return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG,
                                "A is structurally singular: its %s %d (0-based) has no nonzero "
                                "entry", is_col ? "column" : "row", line);
    }
    spira_solve_opts o = {0};
    if (opts) o = *opts;
    SPIRA__TRY(resolve_opts(A->ctx, comm ? comm->global_rows : A->csr.nrows, &o));
    if (o.reorder != SPIRA_REORDER_NONE) {
        if (comm)
            return spira__error(A->ctx, SPIRA_ERR_UNSUPPORTED, "spira_solve_opts.reorder: a "
                                "distributed solve is not reordered (its rows are the ranks')");
        return create_reordered(t, A, &o, opts, out);
    }
    /* an iteration's multiplies and preconditioner applies, for where it runs */
    const int precond = t->has_own_precond || o.precond != SPIRA_PRECOND_NONE;
    const int applies = (type == SPIRA_SOLVER_BICGSTAB ? 2 : 1) * (precond ? 2 : 1);
    int on_host = 0;
    double gpu_us = 0;
    const char *where = "distributed: this rank's rows, MPI between ranks";
    /* CG runs its iteration as a CUDA graph with no preconditioner or Jacobi's, and no
     * monitor (cg_graph.c) */
    const int graph = type == SPIRA_SOLVER_CG && !o.monitor &&
                      (o.precond == SPIRA_PRECOND_NONE || o.precond == SPIRA_PRECOND_JACOBI);
    if (!comm)
        SPIRA__TRY(spira__host_solve_where(A, &o, applies, graph, &on_host, &gpu_us, &where));
    spira_solver S = spira__calloc(1, sizeof *S);
    spira_status s = S ? SPIRA_OK : spira__nomem(A->ctx, "solver", sizeof *S);
    if (S) {
        S->e.ctx = A->ctx;
        S->e.A = A;
        S->e.type = t;
        S->o = o;
        S->on_host = on_host;
        S->where = where;
        if (comm) {
            S->comm = *comm;
            S->e.comm = &S->comm;
        }
    }
    /* the caller's options, not o: resolving them twice would turn SPIRA_TOL_ZERO's 0 into
     * the default tolerance */
    if (s == SPIRA_OK && on_host < 0) {
        char key[sizeof A->cache->key];
        trial_key(type, &o, key, sizeof key);
        s = host_or_gpu(type, A, opts, key, gpu_us, S);
    } else if (s == SPIRA_OK && on_host) {
        s = host_create(type, A, opts, &S->host);
    }
    if (s == SPIRA_OK && !S->on_host) s = setup(S);
    if (comm) s = comm->agree(comm->data, s);
    if (s != SPIRA_OK) {
        if (S) teardown(S);
        spira__free(S);
        return s;
    }
    *out = S;
    return SPIRA_OK;
}

spira_status spira_solver_create(spira_solver_type type, spira_matrix A,
                                 const spira_solve_opts *opts, spira_solver *out)
{
    return create(type, A, NULL, opts, out);
}

double spira__solver_expected_multiplies(spira_solver S)
{
    if (S->inner) return expected_multiplies(S->inner);
    return expected_multiplies(S);
}

spira_status spira__solver_create_comm(spira_solver_type type, spira_matrix local,
                                       const spira__solve_comm *comm,
                                       const spira_solve_opts *opts, spira_solver *out)
{
    return create(type, local, comm, opts, out);
}

void spira_solver_destroy(spira_solver S)
{
    if (!S) return;
    spira_solver_destroy(S->inner);
    spira_vector_destroy(S->pb);
    spira_vector_destroy(S->px);
    teardown(S);
    spira_solver_destroy(S->host.inner);
    spira__host_vectors_free(&S->host);
    spira__free(S);
}

static spira_status status_of(spira__solve_env *e)
{
    switch (e->info->reason) {
    case SPIRA_CONVERGED_RTOL:
    case SPIRA_CONVERGED_ATOL:
    case SPIRA_CONVERGED_ZERO_RHS: return SPIRA_OK;
    case SPIRA_STOPPED_MAXIT:
        return spira__error(e->ctx, SPIRA_ERR_NOT_CONVERGED,
                            "not converged in %d iterations: relative residual %.3e > %.3e",
                            e->info->iterations, e->info->rel_residual, e->o.rtol);
    case SPIRA_STOPPED_BY_MONITOR:
        return spira__error(e->ctx, SPIRA_ERR_NOT_CONVERGED,
                            "stopped by the monitor at iteration %d", e->info->iterations);
    case SPIRA_STOPPED_NONFINITE: return SPIRA_ERR_NONFINITE;
    case SPIRA_STOPPED_STAGNATION: /* message set above */
    case SPIRA_STOPPED_DIVERGED: return SPIRA_ERR_NOT_CONVERGED;
    case SPIRA_STOPPED_BREAKDOWN: return SPIRA_ERR_BREAKDOWN;
    case SPIRA_STOPPED_ERROR: break;
    }
    return SPIRA_ERR_DEVICE;
}

/* A solver for SPD A failed: if A is not even symmetric, say so after the message. */
static void not_spd_hint(spira__solve_env *e, const int32_t *rows, spira_status s)
{
    const spira__csr *c = &e->A->csr;
    int32_t i, j;
    if (!spira__csr_asymmetry(c, 1e-10, &i, &j)) return;
    char first[640];
    snprintf(first, sizeof first, "%s", spira_last_error(e->ctx));
    spira__error(e->ctx, s, "%s; A is not symmetric (A(%d,%d) = %g but A(%d,%d) = %g, 1-based), "
                 "and %s needs symmetric positive definite A: try BiCGSTAB", first,
                 (rows ? rows[i] : i) + 1, (rows ? rows[j] : j) + 1, spira__csr_entry(c, i, j),
                 (rows ? rows[j] : j) + 1, (rows ? rows[i] : i) + 1, spira__csr_entry(c, j, i),
                 e->type->name);
}

/* The solve of a reordered solver: P b (and P x) in, the inner solve, x = P^T px out. */
static spira_status solve_reordered(spira_solver S, spira_vector b, spira_vector x,
                                    spira_solve_info *info)
{
    const spira__reordered *R = S->R;
    /* A's format named since the setup: P A P^T takes it (the inner solve then sets up
     * again, as a plain one does) */
    spira_status s = spira__matrix_format_follow(R->PA, S->e.A);
    if (s == SPIRA_OK) s = spira__vector_gather(b, R->perm, S->pb); /* pb[k] = b[perm[k]] */
    if (s == SPIRA_OK && S->o.use_initial_guess) s = spira__vector_gather(x, R->perm, S->px);
    if (s != SPIRA_OK) return s;
    s = spira_solver_solve(S->inner, S->pb, S->px, info);
    /* x stays as it would without the reordering (as given, or untrusted) when the solve
     * failed before it had an answer */
    s = spira__reordered_back(R, s, &info->reason, S->px, x);
    SPIRA__REORDER_REPORT(info, R, S->reorder_ms);
    info->setup_ms += S->setup_ms;
    S->reorder_ms = S->setup_ms = 0;
    return s;
}

spira_status spira_solver_solve(spira_solver S, spira_vector b, spira_vector x,
                                spira_solve_info *info)
{
    spira_solve_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    info->reason = SPIRA_STOPPED_ERROR;
    if (!S) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(check_vectors(S->e.type, S->e.A, b, x));
    if (S->inner) return solve_reordered(S, b, x, info);
    if (S->on_host) {
        spira_status s = spira__host_copy_in(&S->host, b, x, S->o.use_initial_guess);
        if (s == SPIRA_OK)
            s = spira__host_copy_out(&S->host, x,
                                     spira_solver_solve(S->host.inner, S->host.b, S->host.x, info));
        info->backend = SPIRA_BACKEND_CPU;
        info->backend_reason = S->where;
        return s;
    }
    info->backend = S->e.ctx->backend;
    info->backend_reason = S->where;
    spira__solve_env *e = &S->e;
    e->info = info;
    e->o = S->o;
    e->it0 = 0;
    info->format = spira__matrix_format(e->A);
    /* A's format changed since the setup (named, or auto's choice weighed again for this
     * solve): its plan, and a preconditioner built on the old one (Neumann's), are set up
     * again */
    spira__spmv_plan *plan = NULL;
    spira_status s = choose_plan(S, &plan);
    if (s == SPIRA_OK && plan != e->plan) {
        teardown(S);
        s = setup(S);
    }
    if (e->comm) s = e->comm->agree(e->comm->data, s);
    info->setup_ms = S->setup_ms;
    S->setup_ms = 0;
    if (s == SPIRA_OK) {
        info->precond_shift = e->M->shift;
        info->trisolve_sweeps = e->M->sweeps;
        info->trisolve = e->M->isai ? SPIRA_TRISOLVE_ISAI : SPIRA_TRISOLVE_DEFAULT;
    }
    double t1 = spira__now_ms();
    if (s == SPIRA_OK) s = spira__env_nrm2(e, b, &e->bnorm);
    if (s == SPIRA_OK && !isfinite(e->bnorm))
        s = spira__error(e->ctx, SPIRA_ERR_NONFINITE, "b contains NaN or Inf (||b|| = %g)",
                         e->bnorm);
    if (s != SPIRA_OK) return s;
    if (e->bnorm == 0) { /* the exact solution, at once */
        info->reason = SPIRA_CONVERGED_ZERO_RHS;
        return spira_vector_fill(x, 0.0);
    }
    if (!e->o.use_initial_guess) s = spira_vector_fill(x, 0.0);
    if (s == SPIRA_OK) stage_beside(S);
    spira_vector r = S->r;
    const int maxit = e->o.maxit;
    for (int round = 0; s == SPIRA_OK; round++) {
        s = e->type->run(e, b, x);
        if (s == SPIRA_OK) s = spira_context_synchronize(e->ctx);
        /* a backend call failed: x is not to be trusted */
        if (s != SPIRA_OK && info->reason == SPIRA_STOPPED_ERROR) break;
        /* r <- b - A x: the true residual, not the recurrence's (after a breakdown too, so
         * the caller knows how good the x it gets back is; the breakdown message is kept) */
        double rn = 0;
        spira_status t = spira_copy(b, r);
        if (t == SPIRA_OK) t = spira__op(e, -1.0, x, 1.0, r);
        if (t == SPIRA_OK) t = spira__env_nrm2(e, r, &rn);
        if (t != SPIRA_OK) {
            s = t;
            info->reason = SPIRA_STOPPED_ERROR;
            break;
        }
        info->rel_residual = rn / e->bnorm;
        int by_recurrence = s == SPIRA_OK && (info->reason == SPIRA_CONVERGED_RTOL ||
                                               info->reason == SPIRA_CONVERGED_ATOL);
        if (!by_recurrence || spira__meets_tolerance(e, rn)) break;
        /* The recurrence says converged but b - A x does not (rounding drift, in float
         * above all): restart from x with the true residual, as residual replacement
         * does, a few times; then report the stagnation instead of a false success. */
        if (round == TRUE_RESIDUAL_RESTARTS || info->iterations >= maxit) {
            info->reason = SPIRA_STOPPED_STAGNATION;
            s = spira__error(e->ctx, SPIRA_ERR_NOT_CONVERGED,
                             "the true residual stagnates at %.3e > %.3e after %d restarts "
                             "(%d iterations): the precision's limit for this system",
                             info->rel_residual, e->o.rtol, round, info->iterations);
            break;
        }
        e->it0 = info->iterations;
        e->o.maxit = maxit - info->iterations;
        e->o.use_initial_guess = 1;
    }
    /* a solve that ended before its second look waits here for the plan built beside it,
     * which A keeps for its next solve */
    if (e->stage.job) {
        spira__stage_take(e);
        spira__auto_note(e->A, e->stage.note);
    }
    /* a plan built at the staged choice's second look is setup, not iterations */
    info->solve_ms = spira__now_ms() - t1 - e->stage.ms;
    info->setup_ms += e->stage.ms;
    e->stage.at = 0;
    spira__spmv_account(e->A, info->solve_ms);
    if (s == SPIRA_OK) s = status_of(e);
    /* (a distributed solve's A is not here to look at: only this rank's block is) */
    if (s != SPIRA_OK && info->reason != SPIRA_STOPPED_ERROR && e->type->needs_spd && !e->comm)
        not_spd_hint(e, S->rows, s);
    return s;
}

spira_status spira_solve(spira_solver_type type, spira_matrix A, spira_vector b, spira_vector x,
                         const spira_solve_opts *opts, spira_solve_info *info)
{
    spira_solve_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    info->reason = SPIRA_STOPPED_ERROR;
    if (!A || !b || !x) return SPIRA_ERR_INVALID_ARG;
    /* the operands first, before any setup is paid (an unknown type: create says so) */
    const spira__solver *t = find(type);
    if (t) SPIRA__TRY(check_vectors(t, A, b, x));
    spira_solver S;
    SPIRA__TRY(spira_solver_create(type, A, opts, &S));
    spira_status s = spira_solver_solve(S, b, x, info);
    spira_solver_destroy(S);
    return s;
}
