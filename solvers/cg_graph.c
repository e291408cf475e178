/*
 * cg_graph.c - CG's iteration as a CUDA graph, so that the GPU runs iteration after
 * iteration without waiting on the host (issue 14: on small systems the per-iteration
 * path spends most of its time in launches and in the wait for each iteration's sums).
 *
 * The iteration of cg.c is captured once per solver, at its setup, on the context's stream:
 *     w <- A z                   the plan's apply (alpha = 1, beta = 0: constants)
 *     (r, r), (w, z), (r, z)     spira__dots's reduction, into device memory, and in the
 *                                same kernel's last block the scalar work of cg.c: the
 *                                checks, beta, (p, A p), alpha (spira__cg_dev, in double)
 *     update                     cg.c's, alpha and beta read from device memory; with Jacobi
 *                                also z <- D^-1 r, the next iteration's apply
 * and launched k times in a row; then the host reads the device's scalars back once,
 * including ||r|| of each iteration, and replays spira__check on them, so the history, the
 * recurrence residual, the reasons and the messages are those of the per-iteration path.
 * The two paths make the same operations with the same kernels' expressions, so they give
 * the same iterates, bit for bit: the tests (tests/test_cg_graph.c) hold them to that.
 *
 * When the device stops (a test said so, maxit, a breakdown, or (p, A p) from the
 * recurrence not positive, which needs the host's classic step), the sums and the update
 * return at once in every later launch: x and r stay as they were at the stop. The SpMV
 * cannot know and multiplies z again into w, which nothing reads afterwards; so the batch
 * k starts at 8 and doubles up to SPIRA__CG_GRAPH_MAX, but is cut to what maxit leaves and
 * to what the last batch's rate of convergence predicts, and ended where auto's staged
 * choice weighs the format again (solve.c), whose new plan is captured before the next.
 *
 * A distributed solve on GPUs captures its iteration too: the SpMV's halo exchange (the
 * pack on the context's stream, NCCL's send and receive and the off-diagonal block's
 * multiply on the halo's stream, forked and joined by events) and the sums' allreduce are
 * NCCL calls, which NCCL records into the graph; the scalar step follows the allreduce in
 * a kernel of its own, or, where the ranks sum inside kernels (comm->cg_sums, NCCL's device
 * API), the sums kernel sums over the ranks and steps as in one process, and the kernels
 * write the halo themselves (comm->cg_update and cg_prime: the update stores the rows
 * others read into their ghosts, the sums add the off-diagonal rows from them, and the
 * SpMV is the diagonal block's alone, dist/nccl_cg.cu). The host reads the scalars once a
 * batch, and the graph takes most of the launches' gaps out of the iteration (two H100s,
 * 3-D Poisson 200^3: 0.2579 -> 0.2532 ms an iteration). Where the capture fails on a rank,
 * that rank launches the same calls one by one (the same NCCL operations in the same
 * order, so its peers' graphs still find their partners).
 *
 * Where neither is made, cg.c iterates as before: on the CPU backend (unless asked,
 * below); with a monitor (called every iteration with the host's view of it); with a
 * preconditioner other than none or Jacobi (Neumann's SpMVs and ILU's triangular solves
 * are not known to capture); with ctx->cg_graph < 0; or when the SpMV's apply cannot be
 * captured (a call that synchronizes) or the graph not instantiated: the failure is not
 * the solve's.
 *
 * On the CPU backend with ctx->cg_graph > 0 (a test's choice, or SPIRA_CG_GRAPH=N) the same
 * batches run with each launch of the graph made by calls on the host (cpu_iteration: the
 * CPU's SpMV, sums and update around the same scalar step, cg_step.h): so CI, which has no
 * GPU, checks this file's half against cg.c, bit for bit (tests/test_cg_graph.c; with MPI
 * ranks, tests/test_dist.c).
 */
#include "cg.h"
#include "cg_step.h"
#include "cuda/gateway.h"

#include <math.h>
#include <string.h>

#define FIRST_BATCH 8

typedef struct {
    void *exec;         /* one iteration (NULL: launched call by call, see launch) */
    uint64_t serial;    /* of the SpMV plan it captured */
    spira__cg_dev *dev; /* its scalars, where the context computes */
    spira__cg_dev h;    /* the host's copy */
    /* a distributed solve's halo exchanges and sums over the ranks in one launch of exec */
    int64_t exchanges, reductions;
} cg_graph;

#define GPU(e) ((e)->ctx->backend == SPIRA_BACKEND_CUDA)

/* On GPUs, a distributed solve sums over the ranks on the device (comm->dsum), or not at
 * all this way. */
static int eligible(const spira__solve_env *e, const spira_solve_opts *o)
{
    const spira__precond_ops *M = e->M->ops;
    return e->ctx->cg_graph >= (GPU(e) ? 0 : 1) && !o->monitor &&
           (!e->comm || !GPU(e) || e->comm->dsum) &&
           (M->is_identity || M == &spira__precond_jacobi);
}

/* The vectors of cg.c: r, w, p, s, and u = M^-1 r (z) unless M is the identity. */
typedef struct {
    spira_vector r, w, p, s, u, z;
} cg_vectors;

static cg_vectors vectors_of(const spira__solve_env *e)
{
    cg_vectors v = {e->work[0], e->work[1], e->work[2], e->work[3], NULL, e->work[0]};
    if (!e->M->ops->is_identity) v.u = v.z = e->work[4];
    return v;
}

/* One iteration's launches on the device: what the graph holds. The multiply is counted
 * by the runs (recorded, or launched ahead of the checks). */
static spira_status device_iteration(spira__solve_env *e, cg_graph *g)
{
    spira_context ctx = e->ctx;
    const cg_vectors v = vectors_of(e);
    const int32_t n = v.r->n;
    const spira_dtype t = v.r->dtype;
    const void *dinv = v.u ? e->M->v->data : NULL; /* Jacobi's D^-1 */
    const spira__solve_comm *c = e->comm;
    /* a distributed SpMV leaves its off-diagonal rows' add to the sums, which read w next */
    spira__row_add add = {NULL, NULL, NULL, 0, 0};
    spira_status s = c && c->op_defer ? c->op_defer(c->data, 1.0, v.z, 0.0, v.w, &add)
                                      : spira__op(e, 1.0, v.z, 0.0, v.w);
    spira__spmv_count(e->plan, -1);
    if (s == SPIRA_OK && c && c->cg_sums)
        s = c->cg_sums(c->data, n, t, v.r->data, v.w->data, v.z->data, v.u != NULL, &add, g->dev);
    else if (s == SPIRA_OK)
        s = spira__cuda_cg_graph_sums(ctx, n, t, v.r->data, v.w->data, v.z->data, v.u != NULL,
                                      &add, c ? c->dsum : NULL, c ? c->data : NULL, g->dev);
    if (s == SPIRA_OK && c && c->cg_update)
        s = c->cg_update(c->data, n, t, g->dev, v.z->data, v.w->data, v.p->data, v.s->data,
                         v.r->data, dinv);
    else if (s == SPIRA_OK)
        s = spira__cuda_cg_graph_update(ctx, n, t, g->dev, v.z->data, v.w->data, v.p->data,
                                        v.s->data, v.r->data, dinv);
    return s;
}

/* Record one iteration into g->exec; on the CPU backend there is nothing to record
 * (launch makes the iterations call by call). */
static spira_status record(spira__solve_env *e, cg_graph *g)
{
    g->serial = e->plan->serial;
    if (!GPU(e)) return SPIRA_OK;
    const spira__solve_comm *c = e->comm;
    const int counted = c && c->exchanges && c->reductions;
    const int64_t ex = counted ? *c->exchanges : 0, red = counted ? *c->reductions : 0;
    SPIRA__TRY(spira__cuda_capture_begin(e->ctx));
    spira_status s = spira__cuda_capture_end(e->ctx, device_iteration(e, g), &g->exec);
    if (counted) { /* the capture ran nothing: its calls are counted at each launch */
        g->exchanges = *c->exchanges - ex;
        g->reductions = *c->reductions - red;
        *c->exchanges = ex;
        *c->reductions = red;
    }
    return s;
}

/* One launch of the graph on the CPU backend: what its kernels do, by the CPU's calls. */
static spira_status cpu_iteration(spira__solve_env *e, cg_graph *g, spira_vector x)
{
    const cg_vectors v = vectors_of(e);
    spira__cg_dev *d = g->dev;
    SPIRA__TRY(spira__op(e, 1.0, v.z, 0.0, v.w));
    spira__spmv_count(e->plan, -1); /* the run counts what it made, as on the device */
    if (d->stop) return SPIRA_OK;
    double sum[3];
    spira_vector left[3] = {v.r, v.w, v.r}, right[3] = {v.r, v.z, v.z};
    SPIRA__TRY(spira__env_dots(e, v.u ? 3 : 2, left, right, sum));
    spira__cg_step(d, sum, v.u != NULL);
    if (d->stop) return SPIRA_OK;
    SPIRA__TRY(spira__cg_update(d->alpha, d->beta, v.z, v.w, v.p, v.s, x, v.r));
    return v.u ? spira__precond_apply(e->M, v.r, v.u) : SPIRA_OK;
}

/* z's rows the other ranks read, stored into their ghosts before the next launch
 * multiplies (GPUs whose ranks write each other's halos: comm->cg_prime; first at a run's
 * start); in every later iteration the update stores them. */
static spira_status prime(spira__solve_env *e, spira_vector z, int first)
{
    const spira__solve_comm *c = e->comm;
    return c && c->cg_prime && GPU(e) ? c->cg_prime(c->data, z->data, first) : SPIRA_OK;
}

static spira_status launch(spira__solve_env *e, cg_graph *g, spira_vector x, int k)
{
    if (g->exec) {
        const spira__solve_comm *c = e->comm;
        if (c && c->exchanges && c->reductions) {
            *c->exchanges += k * g->exchanges;
            *c->reductions += k * g->reductions;
        }
        return spira__cuda_graph_launch(e->ctx, g->exec, k);
    }
    for (int i = 0; i < k; i++)
        SPIRA__TRY(GPU(e) ? device_iteration(e, g) : cpu_iteration(e, g, x));
    return SPIRA_OK;
}

/* g->exec recorded afresh; 0 when it cannot be (an apply that cannot be captured, or no
 * memory to instantiate the graph in): then cg.c's path runs, which may well manage, and
 * the capture's complaint is nobody's error. A distributed solve goes on without the
 * graph, call by call (see the head of the file). */
static int capture(spira__solve_env *e, cg_graph *g)
{
    spira_context ctx = e->ctx;
    spira__cuda_graph_destroy(e->ctx, g->exec);
    g->exec = NULL;
    char before[sizeof ctx->err];
    memcpy(before, ctx->err, sizeof before);
    if (record(e, g) == SPIRA_OK) return 1;
    memcpy(ctx->err, before, sizeof before);
    g->exec = NULL;
    return e->comm != NULL;
}

static void graph_free(spira_context ctx, cg_graph *g)
{
    if (!g) return;
    spira__cuda_graph_destroy(ctx, g->exec);
    spira__mem_free(ctx, g->dev);
    spira__free(g);
}

spira_status spira__cg_graph_prepare(spira__solve_env *e, const spira_solve_opts *o)
{
    e->keep = NULL;
    if (!eligible(e, o)) return SPIRA_OK;
    spira_context ctx = e->ctx;
    cg_graph *g = spira__calloc(1, sizeof *g);
    if (!g) return spira__nomem(ctx, "CG's graph", sizeof *g);
    spira_status s = spira__mem_alloc(ctx, (void **)&g->dev, sizeof *g->dev, "CG's scalars");
    /* a distributed solve makes its blocks' plans after its setup: it records at its first
     * run (serial 0 is no plan's) */
    if (s == SPIRA_OK && (e->comm || capture(e, g))) e->keep = g;
    else graph_free(ctx, g);
    return s;
}

void spira__cg_graph_release(spira__solve_env *e)
{
    graph_free(e->ctx, e->keep);
    e->keep = NULL;
}

/* The iterations of the next batch, the one after `next` - 1 was checked: `batch` (the
 * doubling size), cut to the checks maxit leaves and, when the batch just read [from, to]
 * converged at a steady rate, to the iterations that rate needs to reach the tolerance,
 * and one more. A fixed ctx->cg_graph is taken as it is. */
static int batch_size(const spira__solve_env *e, const cg_graph *g, int batch, int next,
                      int from, int to)
{
    if (e->ctx->cg_graph > 0)
        return e->ctx->cg_graph < SPIRA__CG_GRAPH_MAX ? e->ctx->cg_graph : SPIRA__CG_GRAPH_MAX;
    const long long left = (long long)e->o.maxit + 1 - next;
    int k = left < batch ? (int)left : batch;
    /* a batch ends where auto's staged choice looks again (solve.c) */
    const int to_stage = e->stage.at - (next + e->it0) + 1;
    if (e->stage.at && to_stage >= 1 && to_stage < k) k = to_stage;
    if (to - from < 2) return k;
    const double r0 = g->h.hist[from % SPIRA__CG_GRAPH_MAX], r1 = g->h.hist[to % SPIRA__CG_GRAPH_MAX];
    double target = e->o.rtol * e->bnorm;
    if (e->o.atol > target) target = e->o.atol;
    if (!(r1 < r0 && r1 > target && target > 0)) return k;
    const double need = log(target / r1) / (log(r1 / r0) / (to - from)); /* > 0 */
    if (need + 1 < k) k = (int)ceil(need) + 1;
    return k;
}

/* The device stopped where the host's replay did not, or the other way round: a bug. */
static spira_status disagree(spira__solve_env *e, int it, int host_stops, int code)
{
    e->info->reason = SPIRA_STOPPED_ERROR;
    return spira__error(e->ctx, SPIRA_ERR_DEVICE,
                        "CG's graph: at iteration %d the host's tests say %s, the device's "
                        "stop code is %d (a bug: set SPIRA_CG_GRAPH=off to work around it)",
                        it + e->it0, host_stops ? "stop" : "go on", code);
}

spira_status spira__cg_graph_run(spira__solve_env *e, spira_vector b, spira_vector x, int *ran)
{
    cg_graph *g = e->keep;
    *ran = 0;
    if (!g) return SPIRA_OK;
    spira_context ctx = e->ctx;
    if (g->serial != e->plan->serial) {
        /* A's plan was built again where the captured one was (solve.c saw the same
         * address): the graph would read freed arrays */
        if (!capture(e, g)) {
            spira__cg_graph_release(e);
            return SPIRA_OK;
        }
    }
    *ran = 1;
    const cg_vectors v = vectors_of(e);
    /* r <- b - A x; u <- M^-1 r: cg.c's start */
    SPIRA__TRY(spira_copy(b, v.r));
    if (e->o.use_initial_guess) SPIRA__TRY(spira__op(e, -1.0, x, 1.0, v.r));
    if (v.u) SPIRA__TRY(spira__precond_apply(e->M, v.r, v.u));
    SPIRA__TRY(prime(e, v.z, 1));
    spira__cg_dev *h = &g->h;
    memset(h, 0, sizeof *h);
    h->x = x->data;
    h->rtol_bnorm = e->o.rtol * e->bnorm;
    h->atol = e->o.atol;
    h->dtol = e->o.dtol;
    h->bnorm = e->bnorm;
    h->it0 = e->it0;
    h->maxit = e->o.maxit;
    h->window = e->o.stagnation_window;
    h->classic_at = ctx->cg_classic_at;
    /* spira__check's state from earlier rounds (set again at iteration 0 of the first) */
    h->best = e->best;
    h->rref = e->rref;
    h->best_it = e->best_it;
    SPIRA__TRY(spira__mem_upload(ctx, g->dev, h, sizeof *h));
    ctx->cg_graph_runs++;
    int next = 0, batch = FIRST_BATCH, k = batch_size(e, g, batch, 0, 0, 0);
    for (;;) {
        SPIRA__TRY(launch(e, g, x, k));
        SPIRA__TRY(spira__mem_download(ctx, h, g->dev, sizeof *h));
        /* checked: next .. last */
        const int from = next, last = h->stop ? h->it : h->it - 1;
        spira__spmv_count(e->plan, last - next + 1);
        for (; next <= last; next++) {
            const int stop = spira__check(e, next, h->hist[next % SPIRA__CG_GRAPH_MAX]);
            if (stop != (h->stop == SPIRA__CG_CHECKED && next == last))
                return disagree(e, next, stop, h->stop);
            if (stop) return SPIRA_OK;
        }
        switch (h->stop) {
        case SPIRA__CG_RUNNING: break;
        case SPIRA__CG_MAXIT: e->info->reason = SPIRA_STOPPED_MAXIT; return SPIRA_OK;
        case SPIRA__CG_RHO:
        case SPIRA__CG_RHO_NEG: return spira__cg_gamma_breakdown(e, last + 1, h->gamma);
        case SPIRA__CG_CLASSIC: {
            /* cg.c's classic step makes iteration last + 1 on the host; then on the device */
            double alpha;
            SPIRA__TRY(spira__cg_classic_step(e, last + 1, h->beta, h->gamma, v.z, v.p, v.s, x,
                                              v.r, &alpha));
            if (v.u) SPIRA__TRY(spira__precond_apply(e->M, v.r, v.u));
            SPIRA__TRY(prime(e, v.z, 0));
            h->alpha = alpha;
            h->it = last + 1;
            h->stop = SPIRA__CG_RUNNING;
            SPIRA__TRY(spira__mem_upload(ctx, g->dev, h, sizeof *h));
            break;
        }
        default: return disagree(e, last, 0, h->stop);
        }
        /* auto's staged choice moved A to another format in the replay: the next launches
         * multiply with its plan (call by call if it cannot be captured) */
        if (g->serial != e->plan->serial) capture(e, g);
        if (batch < SPIRA__CG_GRAPH_MAX) batch *= 2;
        k = batch_size(e, g, batch, next, from, last);
    }
}
