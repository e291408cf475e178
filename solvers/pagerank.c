/*
 * pagerank.c - spira_pagerank: the power method on the Google matrix, never formed.
 *
 * G(i,j) > 0 is an edge i -> j of weight G(i,j). With s_i = sum_j G(i,j), the transition
 * matrix P(i,j) = G(i,j) / s_i is row-stochastic except for dangling rows (s_i = 0),
 * marked by the 0/1 vector d. With teleport distribution v (sum 1) and damping alpha,
 *
 *   x_{k+1} = alpha P^T x_k + (alpha (d, x_k) + (1 - alpha)) v
 *
 * is the power method on alpha (P + d v^T)^T + (1 - alpha) v 1^T (Page, Brin et al. 1998;
 * Langville & Meyer, "Deeper inside PageRank", 2004, sect. 5), using sum(x_k) = 1. A
 * rounding drift in that sum contracts by alpha each step; the result is renormalized at
 * the end and the drift reported (info->sum_error). Stops when ||x_{k+1} - x_k||_1 <= tol.
 *
 * P^T is built once (a transpose that scales as it goes: a radix sort on the GPU on the
 * CUDA backend, the row sums and d made there too; a threaded counting sort and loops on
 * the host otherwise) as a spira_matrix in G's SpMV format (under "auto", chosen from
 * P^T's own rows) and cached in G under "pagerank:transition" with d: later calls on G
 * pay nothing but the SpMV plan (itself cached in P^T). Negative weights are refused,
 * naming the entry; NaN/Inf weights are SPIRA_ERR_NONFINITE.
 *
 * Per iteration, through lib/'s BLAS-1 and the SpMV plan only: one SpMV and one fused
 * pass (spira__pagerank_update: the teleport axpy, the difference, its 1-norm and the next
 * (d, x)), so one wait for the device. Distributed (dist/pagerank.c builds P^T over the
 * ranks), the same code on each rank's rows: the SpMV exchanges its halo and the pass's
 * two sums go in one allreduce. Bytes moved: P^T plan bytes + 6 n s (vectors of n
 * values of s bytes: v, y, x, d read, y, x written). No allocation, no host loop over n.
 */
#include "solver.h"
#include "reorder.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#define TRANSITION_KEY "pagerank:transition"

typedef struct {
    spira_matrix PT;       /* P^T, n x n, G's dtype; its own cache holds its SpMV plans */
    spira_vector dangling; /* d_i = 1 where G's row i has no positive weight, else 0 */
} transition;

static void transition_destroy(void *p)
{
    transition *t = (transition *)p;
    if (!t) return;
    spira_vector_destroy(t->dangling);
    spira_matrix_destroy(t->PT);
    spira__free(t);
}

/* inv[i] = 1 / s_i, or 0 for a dangling row; returns the first row whose weights are not
 * all finite and >= 0 or do not sum to a finite value, nrows if none. s_i is summed in
 * SPIRA__PAGERANK_CHUNK's order (solver_kernels.h), the one the GPU's warp a row makes:
 * the same bits on both. Rows in parallel on a large graph. */
static int32_t row_sums(const spira__csr *c, double *inv)
{
    enum { C = SPIRA__PAGERANK_CHUNK };
    int32_t bad = c->nrows;
#pragma omp parallel for schedule(static) reduction(min : bad) \
    if (c->nnz > SPIRA__PARALLEL_ITEMS)
    for (int32_t i = 0; i < c->nrows; i++) {
        const int32_t end = c->row_ptr[i + 1];
        double sum = 0;
        int ok = 1;
        for (int32_t k0 = c->row_ptr[i]; k0 < end; k0 += C) {
            double v[C];
            for (int l = 0; l < C; l++) {
                v[l] = k0 + l < end ? spira__get(c->val, c->dtype, k0 + l) : 0.0;
                ok &= isfinite(v[l]) && v[l] >= 0;
            }
            for (int off = C / 2; off > 0; off /= 2)
                for (int l = 0; l < off; l++) v[l] += v[l + off];
            sum += v[0];
        }
        if (!ok || !isfinite(sum)) bad = i < bad ? i : bad;
        inv[i] = sum > 0 ? 1.0 / sum : 0.0;
    }
    return bad;
}

/* The error row_sums found in row i: its first weight that is not finite or negative, or
 * else its sum. */
static spira_status row_error(spira_context ctx, const spira__csr *c, int32_t i)
{
    double sum = 0;
    for (int32_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++) {
        const double w = spira__get(c->val, c->dtype, k);
        if (!isfinite(w))
            return spira__error(ctx, SPIRA_ERR_NONFINITE,
                                "PageRank: edge weight G(%d,%d) = %g (1-based) is not finite",
                                i + 1, c->col_idx[k] + 1, w);
        if (w < 0)
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                                "PageRank: negative edge weight G(%d,%d) = %g (1-based); "
                                "weights must be >= 0",
                                i + 1, c->col_idx[k] + 1, w);
        sum += w;
    }
    return spira__error(ctx, SPIRA_ERR_NONFINITE,
                        "PageRank: the weights of row %d (1-based) sum to %g", i + 1, sum);
}

/* The transpose's row scales inv[i] = 1 / s_i (0 for a dangling row) and t's d, where the
 * transpose runs (spira__row_scale_fn): on the GPU from G's device CSR, which the transpose
 * uploads anyway (spira__cuda_pagerank_scales: 0.6 ms with its wait, where the host's
 * loops took 6-12 ms on R-MAT 2^20 on the H200 machine, bench/results/2026-11-28-session25),
 * else on the host; a bad weight is named from G's host CSR. */
static spira_status transition_scales(spira_matrix G, const spira__csr_dev *dG, double *inv,
                                      void *arg)
{
    transition *t = (transition *)arg;
    spira_context ctx = G->ctx;
    const spira__csr *c = &G->csr;
    int32_t bad;
    if (dG) {
        SPIRA__TRY(spira__cuda_pagerank_scales(ctx, dG, inv, t->dangling->data, &bad));
        if (bad == c->nrows) return SPIRA_OK;
        SPIRA__TRY(spira__matrix_host_csr(G)); /* G made on the device: its entries, to name */
        return row_error(ctx, c, bad);
    }
    bad = row_sums(c, inv);
    if (bad < c->nrows) return row_error(ctx, c, bad);
    double *d = NULL;
    spira_status s = spira__alloc(ctx, (void **)&d, (size_t)c->nrows, sizeof *d, "PageRank d");
    if (s == SPIRA_OK) {
#pragma omp parallel for schedule(static) if (c->nnz > SPIRA__PARALLEL_ITEMS)
        for (int32_t i = 0; i < c->nrows; i++) d[i] = inv[i] == 0 ? 1.0 : 0.0;
        s = spira_vector_set_f64(t->dangling, d);
    }
    spira__free(d);
    return s;
}

/* P^T and d from G: P^T(j,i) = G(i,j) / s_i, the transpose scaling row i of G by 1/s_i as it
 * goes, where G's plans are made (spira__matrix_transpose_by: on the GPU on the CUDA
 * backend, the scales and d made there too). */
static spira_status transition_build(spira_matrix G, const void *arg, void **out)
{
    (void)arg;
    spira_context ctx = G->ctx;
    transition *t = spira__calloc(1, sizeof *t);
    spira_status s = t ? SPIRA_OK : spira__nomem(ctx, "PageRank transition", sizeof *t);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, G->csr.nrows, G->csr.dtype, &t->dangling);
    if (s == SPIRA_OK) s = spira__matrix_transpose_by(G, transition_scales, t, &t->PT);
    if (s != SPIRA_OK) {
        transition_destroy(t);
        return s;
    }
    *out = t;
    return SPIRA_OK;
}

/* The cached transition of G, built on first use; its SpMV format follows G's (auto's own
 * choice when G's is auto's). */
static spira_status transition_get(spira_matrix G, transition **out)
{
    void *plan;
    SPIRA__TRY(spira__matrix_cache_get(G, TRANSITION_KEY, NULL, transition_build,
                                       transition_destroy, &plan));
    transition *t = (transition *)plan;
    SPIRA__TRY(spira__matrix_format_follow(t->PT, G));
    *out = t;
    return SPIRA_OK;
}

spira_status spira__pagerank_transition(spira_matrix G, spira_matrix *PT, spira_vector *d)
{
    transition *t;
    SPIRA__TRY(transition_get(G, &t));
    *PT = t->PT, *d = t->dangling;
    return SPIRA_OK;
}

/* v <- the teleport distribution: uniform, or the user's vector checked and normalized
 * (on the host: setup, once per call). */
static spira_status teleport_set(spira_context ctx, const spira__solve_comm *comm,
                                 spira_vector user, spira_vector v)
{
    if (!user) return spira_vector_fill(v, 1.0 / (comm ? (double)comm->global_rows : v->n));
    const int64_t first = comm ? comm->first_row : 0; /* for the messages' indices */
    double *h = NULL, sum = 0;
    spira_status s = spira__alloc(ctx, (void **)&h, (size_t)v->n, sizeof *h, "teleport staging");
    if (s == SPIRA_OK) s = spira_vector_get_f64(user, h);
    for (int32_t i = 0; s == SPIRA_OK && i < v->n; i++) {
        if (!isfinite(h[i]))
            s = spira__error(ctx, SPIRA_ERR_NONFINITE, "PageRank: teleport[%lld] = %g (1-based)",
                             (long long)(first + i + 1), h[i]);
        else if (h[i] < 0)
            s = spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                             "PageRank: teleport[%lld] = %g (1-based) is negative",
                             (long long)(first + i + 1), h[i]);
        else
            sum += h[i];
    }
    s = spira__comm_agree(comm, s);
    if (s == SPIRA_OK) s = spira__comm_sum(comm, 1, &sum);
    if (s == SPIRA_OK && !(sum > 0 && isfinite(sum)))
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                         "PageRank: the teleport vector sums to %g; it must be positive", sum);
    for (int32_t i = 0; s == SPIRA_OK && i < v->n; i++) h[i] /= sum;
    if (s == SPIRA_OK) s = spira_vector_set_f64(v, h);
    spira__free(h);
    return s;
}

/* ||x||_1 and (x, y), over every rank when distributed (one allreduce each) */
static spira_status l1(const spira__solve_comm *comm, spira_vector x, double *out)
{
    SPIRA__TRY(spira_asum(x, out));
    return spira__comm_sum(comm, 1, out);
}

static spira_status dot(const spira__solve_comm *comm, spira_vector x, spira_vector y, double *out)
{
    if (!comm) return spira_dot(x, y, out);
    SPIRA__TRY(spira__dots(1, &x, &y, out));
    return spira__comm_sum(comm, 1, out);
}

static spira_status check_args(spira_matrix G, const spira__solve_comm *comm, spira_vector rank,
                               spira_pagerank_opts *o)
{
    if (!G || !rank) return SPIRA_ERR_INVALID_ARG;
    spira_context ctx = G->ctx;
    const spira_vector vs[2] = {rank, o->teleport};
    const char *const names[2] = {"the rank vector", "the teleport vector"};
    SPIRA__TRY(spira__check_operands("PageRank", G, "G", 2, vs, names));
    if ((comm ? comm->global_rows : G->csr.nrows) == 0)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "PageRank of a graph with no vertices");
    SPIRA__TRY(spira__opt_real(ctx, "spira_pagerank_opts.alpha (the damping)", &o->alpha, 0.85,
                               0, 1, 1, 1));
    SPIRA__TRY(spira__opt_tol(ctx, "spira_pagerank_opts.tol", &o->tol, 1e-6));
    if (!spira__reorder_name(o->reorder))
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "spira_pagerank_opts.reorder = %d: want "
                            "SPIRA_REORDER_NONE (0), SPIRA_REORDER_RCM (%d) or "
                            "SPIRA_REORDER_DEGREE (%d)", (int)o->reorder, SPIRA_REORDER_RCM,
                            SPIRA_REORDER_DEGREE);
    if (comm && o->reorder != SPIRA_REORDER_NONE)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "spira_pagerank_opts.reorder: a "
                            "distributed PageRank is not reordered (its rows are the ranks')");
    return spira__opt_count(ctx, "spira_pagerank_opts.maxit", &o->maxit, 1000, INT_MAX);
}

/* spira_pagerank, and with comm on a distributed graph: G is then this rank's block (for the
 * operand checks), dist the distributed transition's local parts and comm multiplies by
 * the whole P^T (its plans prepared by the caller). */
static spira_status pagerank(spira_matrix G, const spira__solve_comm *comm, transition *dist,
                             spira_vector rank, const spira_pagerank_opts *opts,
                             spira_pagerank_info *info)
{
    spira_pagerank_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    info->reason = SPIRA_STOPPED_ERROR;
    spira_pagerank_opts o = {0};
    if (opts) o = *opts;
    SPIRA__TRY(check_args(G, comm, rank, &o));
    spira_context ctx = G->ctx;
    info->format = spira__matrix_format(G);
    const double alpha = o.alpha;

    double t0 = spira__now_ms(), sum = 0;
    transition *t = NULL;
    spira__spmv_plan *plan = NULL;
    spira_vector x = NULL, y = NULL, v = NULL;
    spira_status s = comm ? SPIRA_OK : transition_get(G, &t);
    if (comm) t = dist;
    /* ||x_{k+1} - x_k||_1 <= 2 alpha^k: about ln(tol / 2) / ln(alpha) multiplies (89 at the
     * defaults), for "auto" to weigh setup against */
    double expect = ceil(log(o.tol / 2) / log(alpha));
    if (s == SPIRA_OK && !comm)
        s = spira__spmv_plan_expect(t->PT, expect < o.maxit ? (expect > 1 ? expect : 1) : o.maxit,
                                    &plan);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, rank->n, rank->dtype, &x);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, rank->n, rank->dtype, &y);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, rank->n, rank->dtype, &v);
    s = spira__comm_agree(comm, s);
    if (s == SPIRA_OK) s = teleport_set(ctx, comm, o.teleport, v);
    /* x_0 = the teleport distribution, or the caller's guess scaled to sum 1 */
    if (s == SPIRA_OK) s = spira_copy(o.use_initial_guess ? rank : v, x);
    if (s == SPIRA_OK && o.use_initial_guess) {
        s = l1(comm, x, &sum);
        if (s == SPIRA_OK && !(sum > 0 && isfinite(sum)))
            s = spira__error(ctx, isfinite(sum) ? SPIRA_ERR_INVALID_ARG : SPIRA_ERR_NONFINITE,
                             "PageRank initial guess has ||x||_1 = %g", sum);
        if (s == SPIRA_OK) s = spira_scal(1.0 / sum, x);
    }
    if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
    double t1 = spira__now_ms();
    info->setup_ms = t1 - t0;
    if (s == SPIRA_OK) info->format = spira__matrix_format(t->PT);
    if (s == SPIRA_OK) info->format_reason = t->PT->format_reason;

    double dm = 0; /* (d, x): the rank on dangling vertices */
    if (s == SPIRA_OK) s = dot(comm, t->dangling, x, &dm);
    for (int it = 1; s == SPIRA_OK; it++) {
        double delta;
        /* y <- alpha P^T x + (alpha (d, x) + 1 - alpha) v; x <- y - x; delta = ||x||_1 and
         * the next (d, x) = (d, y) in the same pass; then swap, so x is the new iterate */
        s = comm ? comm->op(comm->data, alpha, x, 0.0, y)
                 : spira__spmv_apply(plan, alpha, x->data, 0.0, y->data);
        if (s == SPIRA_OK)
            s = spira__pagerank_update(alpha * dm + (1.0 - alpha), v, y, x, t->dangling, &delta,
                                       &dm);
        if (s == SPIRA_OK && comm) { /* both sums in one allreduce */
            double both[2] = {delta, dm};
            s = spira__comm_sum(comm, 2, both);
            delta = both[0], dm = both[1];
        }
        if (s != SPIRA_OK) break;
        spira_vector tmp = x;
        x = y;
        y = tmp;
        info->iterations = it;
        info->delta = delta;
        if (!isfinite(delta)) {
            info->reason = SPIRA_STOPPED_NONFINITE;
            s = spira__error(ctx, SPIRA_ERR_NONFINITE,
                             "PageRank iteration %d: ||x_k - x_k-1||_1 = %g", it, delta);
        } else if (delta <= o.tol) {
            info->reason = SPIRA_CONVERGED_ATOL;
            break;
        } else if (it >= o.maxit) {
            info->reason = SPIRA_STOPPED_MAXIT;
            break;
        }
    }
    /* renormalize (x >= 0, so the 1-norm is the sum) and hand the ranks out */
    if (s == SPIRA_OK) s = l1(comm, x, &sum);
    if (s == SPIRA_OK && !(sum > 0 && isfinite(sum))) {
        info->reason = SPIRA_STOPPED_NONFINITE;
        s = spira__error(ctx, SPIRA_ERR_NONFINITE, "PageRank: the ranks sum to %g", sum);
    }
    if (s == SPIRA_OK) {
        info->sum_error = fabs(sum - 1.0);
        s = spira_scal(1.0 / sum, x);
    }
    if (s == SPIRA_OK) s = spira_copy(x, rank);
    if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
    info->solve_ms = spira__now_ms() - t1;
    if (t) spira__spmv_account(t->PT, info->solve_ms);
    if (s == SPIRA_OK && info->reason == SPIRA_STOPPED_MAXIT)
        s = spira__error(ctx, SPIRA_ERR_NOT_CONVERGED,
                         "PageRank not converged in %d iterations: ||x_k - x_k-1||_1 = %.3e > "
                         "%.3e", info->iterations, info->delta, o.tol);
    if (s == SPIRA_ERR_NONFINITE) info->reason = SPIRA_STOPPED_NONFINITE;
    else if (s != SPIRA_OK && info->reason == SPIRA_CONVERGED_ATOL) info->reason = SPIRA_STOPPED_ERROR;
    spira_vector_destroy(x);
    spira_vector_destroy(y);
    spira_vector_destroy(v);
    return s;
}

/* PageRank in ordering opts->reorder: the ranks of P G P^T are P times G's, so the
 * teleport vector and the start go in permuted (gathered through perm) and the ranks come
 * back through iperm. The checks are the plain call's, made first on G. */
static spira_status pagerank_reordered(spira_matrix G, spira_vector rank,
                                       const spira_pagerank_opts *opts, spira_pagerank_info *info)
{
    spira_pagerank_opts o = *opts;
    SPIRA__TRY(check_args(G, NULL, rank, &o));
    spira_context ctx = G->ctx;
    spira__reordered *R = NULL;
    spira_vector pr = NULL, pt = NULL;
    double paid = 0, t0 = spira__now_ms();
    spira_status s = spira__reordered_get(G, opts->reorder, &R, &paid);
    const double setup = spira__now_ms() - t0;
    if (s == SPIRA_OK) s = spira_vector_create(ctx, rank->n, rank->dtype, &pr);
    if (s == SPIRA_OK && opts->teleport)
        s = spira_vector_create(ctx, rank->n, rank->dtype, &pt);
    if (s == SPIRA_OK && pt) s = spira__vector_gather(opts->teleport, R->perm, pt);
    if (s == SPIRA_OK && opts->use_initial_guess) s = spira__vector_gather(rank, R->perm, pr);
    if (s == SPIRA_OK) {
        o = *opts;
        o.reorder = SPIRA_REORDER_NONE;
        o.teleport = pt;
        s = pagerank(R->PA, NULL, NULL, pr, &o, info);
        s = spira__reordered_back(R, s, &info->reason, pr, rank);
        SPIRA__REORDER_REPORT(info, R, paid);
        info->setup_ms += setup;
    }
    spira_vector_destroy(pr);
    spira_vector_destroy(pt);
    return s;
}

spira_status spira_pagerank(spira_matrix G, spira_vector rank, const spira_pagerank_opts *opts,
                            spira_pagerank_info *info)
{
    if (opts && opts->reorder != SPIRA_REORDER_NONE) {
        spira_pagerank_info local;
        if (!info) info = &local;
        memset(info, 0, sizeof *info);
        info->reason = SPIRA_STOPPED_ERROR;
        return pagerank_reordered(G, rank, opts, info);
    }
    return pagerank(G, NULL, NULL, rank, opts, info);
}

spira_status spira__pagerank_comm(spira_matrix G_local, const spira__solve_comm *comm,
                                  spira_matrix PT_local, spira_vector dangling, spira_vector rank,
                                  const spira_pagerank_opts *opts, spira_pagerank_info *info)
{
    transition t = {.PT = PT_local, .dangling = dangling};
    return pagerank(G_local, comm, &t, rank, opts, info);
}
