/*
 * auto.c - choosing A's format: spira_matrix_set_format by name, or "auto" (see auto.h):
 * row statistics, the cost model's choice and its history, and the timed trial, which
 * builds plans through spmv.c's cache. spmv.c never calls here; multiply.c settles a
 * choice still open (spira__auto_settle) before it looks a plan up.
 */
#include "auto.h"
#include "cost.h"
#include "cusparse_row.h"
#include "sell.h"
#include "cuda/gateway.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* What both paths fill before counting; nonzero when A has no rows or no entries, which
 * leaves nothing to count. */
static int stats_begin(const spira__csr *A, spira__row_stats *s)
{
    memset(s, 0, sizeof *s);
    s->nrows = A->nrows;
    s->ncols = A->ncols;
    s->nnz = A->nnz;
    if (A->nrows == 0 || A->nnz == 0) {
        s->dia_fill = s->ell_fill = INFINITY;
        return 1;
    }
    s->mean = (double)A->nnz / A->nrows;
    return 0;
}

/* The statistics from the counts both paths make, exact integers, so that the host and the
 * GPU give the same doubles: the longest row, the sum of the squared row lengths and the
 * occupied diagonals (-1: not counted). The variance is the mean square less the squared
 * mean: the cancellation costs about 1e-16 mean^2 / variance, relatively (1e-13 at a
 * stencil's cv of 0.03). */
static void stats_finish(const spira__csr *A, int32_t max_row, int64_t sum_sq, int64_t ndiag,
                         spira__row_stats *s)
{
    s->max_row = max_row;
    const double var = (double)sum_sq / A->nrows - s->mean * s->mean;
    s->cv = var > 0 ? sqrt(var) / s->mean : 0;
    s->ell_fill = (double)max_row * A->nrows / (double)A->nnz;
    s->dia_fill = ndiag < 0 ? INFINITY : (double)ndiag * A->nrows / (double)A->nnz;
}

/* The most occupied diagonals DIA is weighed with (SPIRA__AUTO_DIA_FILL slots a nonzero). */
static double dia_limit(const spira__csr *A)
{
    return SPIRA__AUTO_DIA_FILL * (double)A->nnz / A->nrows;
}

spira_status spira__row_stats_of(spira_context ctx, const spira__csr *A, spira__row_stats *s)
{
    if (stats_begin(A, s)) return SPIRA_OK;
    s->ones = spira__csr_values_one(A);
    int32_t max_row = 0;
    int64_t sum_sq = 0;
    for (int32_t i = 0; i < A->nrows; i++) {
        const int64_t len = A->row_ptr[i + 1] - A->row_ptr[i];
        if (len > max_row) max_row = (int32_t)len;
        sum_sq += len * len;
    }
    /* occupied diagonals, counted until DIA is certainly out: a row's entries lie on as
     * many diagonals, so a row longer than the limit makes it certain at once */
    const int64_t span = (int64_t)A->nrows + A->ncols - 1;
    const double limit = dia_limit(A);
    int64_t ndiag = -1;
    if (span <= SPIRA__AUTO_DIAGONALS_COUNTED && max_row <= limit) {
        uint8_t *seen = NULL;
        SPIRA__TRY(spira__alloc(ctx, (void **)&seen, (size_t)(span + 7) / 8, 1,
                                "auto: diagonal bitmap"));
        memset(seen, 0, (size_t)(span + 7) / 8);
        ndiag = 0;
        for (int32_t i = 0; i < A->nrows && ndiag <= limit; i++)
            for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
                const int64_t d = (int64_t)A->col_idx[k] - i + A->nrows - 1;
                if (!(seen[d >> 3] & (1u << (d & 7))))
                    seen[d >> 3] |= (uint8_t)(1u << (d & 7)), ndiag++;
            }
        spira__free(seen);
    }
    stats_finish(A, max_row, sum_sq, ndiag, s);
    return s->ones && s->cv > SPIRA__AUTO_UNEVEN ? spira__sell_hubs_of(ctx, A, &s->hubs)
                                                 : SPIRA_OK;
}

spira_status spira__row_stats_dev(spira_context ctx, const spira__csr *A,
                                  const spira__csr_dev *dA, spira__row_stats *s)
{
    if (stats_begin(A, s)) return SPIRA_OK;
    spira_status (*const counts)(spira_context, const spira__csr_dev *, int, double, int32_t *,
                                 int64_t *, int32_t *, int64_t *) = SPIRA__GPU(spira__row_counts_gpu);
    if (!counts) return spira__no_cuda(ctx);
    const int diagonals = (int64_t)A->nrows + A->ncols - 1 <= SPIRA__AUTO_DIAGONALS_COUNTED;
    int32_t max_row;
    int64_t sum_sq, ndiag;
    SPIRA__TRY(counts(ctx, dA, diagonals, dia_limit(A), &max_row, &sum_sq, &s->ones, &ndiag));
    stats_finish(A, max_row, sum_sq, ndiag, s);
    spira_status (*const hubs)(spira_context, const spira__csr_dev *, int32_t *) =
        SPIRA__GPU(spira__sell_dev_hubs_of);
    return s->ones && s->cv > SPIRA__AUTO_UNEVEN && hubs ? hubs(ctx, dA, &s->hubs) : SPIRA_OK;
}

/* The formats the cost model weighs on the CUDA backend (csr-scalar only when named: its
 * one thread a row is the slowest kernel on uneven rows). Bit i of a "built" mask is
 * candidates[i]. */
static const char *const candidates[] = {"csr-vector", "cusparse", "ell",  "dia",
                                         "merge",      "sell",     NULL};

const char *spira__auto_rule(const spira__row_stats *s, int cuda, size_t value_size,
                             double horizon, unsigned built, unsigned cold, const char *prefer,
                             char *why, size_t len)
{
    if (!cuda) {
        snprintf(why, len, "the CPU backend multiplies CSR directly (the other formats' CPU "
                           "code is their reference, not a faster path)");
        return "csr-scalar";
    }
    double total[sizeof candidates / sizeof candidates[0]];
    spira__cost cost[sizeof candidates / sizeof candidates[0]];
    int best = 0; /* csr-vector: the model always covers it */
    for (int i = 0; candidates[i]; i++) {
        total[i] = INFINITY;
        /* ELL and DIA only within their fill limits: beyond, padding is memory, not speed */
        if (!strcmp(candidates[i], "ell") && !(s->ell_fill <= SPIRA__AUTO_ELL_FILL)) continue;
        if (!strcmp(candidates[i], "dia") && !(s->dia_fill <= SPIRA__AUTO_DIA_FILL)) continue;
        if (spira__cost_predict(s, candidates[i], value_size, &cost[i]) != 0) continue;
        if (built & (1u << i)) cost[i].convert_ms = cost[i].upload_ms = 0; /* paid */
        if (cold & (1u << i)) cost[i].upload_ms += cost[i].first_use_ms;
        total[i] = cost[i].convert_ms + cost[i].upload_ms + horizon * cost[i].multiply_ms;
        if (total[i] < total[best]) best = i;
    }
    const int cheapest = best;
    for (int i = 0; prefer && candidates[i]; i++)
        if (i != best && !strcmp(candidates[i], prefer) && total[i] < INFINITY &&
            2 * (total[i] - total[best]) <= cost[i].convert_ms + cost[i].upload_ms)
            best = i;
    const spira__cost *c = &cost[best];
    size_t at = (size_t)snprintf(why, len, "for %.0f multiplies, %s %s%.1f ms setup + %.0f x "
                                 "%.4f ms = %.1f ms predicted%s", horizon, candidates[best],
                                 built & (1u << best) ? "(built) " : "",
                                 c->convert_ms + c->upload_ms, horizon, c->multiply_ms,
                                 total[best],
                                 best != cheapest ? ", the longer horizon's choice, within "
                                                    "half its setup of the cheapest"
                                                  : "");
    for (int i = 0, first = 1; candidates[i]; i++) {
        if (i == best || at >= len) continue;
        if (total[i] < INFINITY)
            at += (size_t)snprintf(why + at, len - at, "%s%s %.1f", first ? " (" : ", ",
                                   candidates[i], total[i]);
        else
            at += (size_t)snprintf(why + at, len - at, "%s%s out", first ? " (" : ", ",
                                   candidates[i]);
        first = 0;
    }
    if (at < len) snprintf(why + at, len - at, ")");
    return candidates[best];
}

/* ---- the timed trial ------------------------------------------------------------------ */

/* Formats a trial times: every one with a cheap conversion (not pkt, whose partition takes
 * seconds; not lightspmv, which never won on the H100). cusparse only on CUDA. */
static const char *const trial_formats[] = {"csr-scalar", "csr-vector", "ell", "dia", "hyb",
                                            "cmrs", "merge", "sell", "cusparse", NULL};

/* Median over 5 batches of 10 multiplies of the milliseconds one takes, after 2 untimed. */
static spira_status time_plan(spira_context ctx, spira__spmv_plan *p, spira_vector x,
                              spira_vector y, double *ms)
{
    enum { warmup = 2, batches = 5, reps = 10 };
    double t[batches];
    for (int w = 0; w < warmup; w++) SPIRA__TRY(spira__spmv_apply(p, 1.0, x->data, 0.0, y->data));
    SPIRA__TRY(spira_context_synchronize(ctx));
    for (int b = 0; b < batches; b++) {
        double t0 = spira__now_ms();
        for (int r = 0; r < reps; r++) SPIRA__TRY(spira__spmv_apply(p, 1.0, x->data, 0.0, y->data));
        SPIRA__TRY(spira_context_synchronize(ctx));
        t[b] = (spira__now_ms() - t0) / reps;
    }
    *ms = spira__median(t, batches);
    return SPIRA_OK;
}

/* Time every trial format that takes A; leave A on the fastest with only its plan built,
 * and *kept_ms what building that plan took. A format that refuses A (fill limits) or does
 * not fit in memory is passed over. */
static spira_status trial(spira_matrix A, char *why, size_t len, double *kept_ms)
{
    spira_context ctx = A->ctx;
    spira_vector x = NULL, y = NULL;
    spira_status s = spira_vector_create(ctx, A->csr.ncols, A->csr.dtype, &x);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, A->csr.nrows, A->csr.dtype, &y);
    if (s == SPIRA_OK) s = spira_vector_fill(x, 1.0);
    char best[32] = "";
    double best_ms = INFINITY;
    size_t at = (size_t)snprintf(why, len, "timed trial, ms per multiply:");
    for (int f = 0; s == SPIRA_OK && trial_formats[f]; f++) {
        const char *name = trial_formats[f];
        if (!strcmp(name, "cusparse") && ctx->backend != SPIRA_BACKEND_CUDA) continue;
        snprintf(A->format, sizeof A->format, "%s", name);
        A->format_opts[0] = 0;
        spira__spmv_plan *p;
        double ms = INFINITY;
        s = spira__spmv_plan_lookup(A, &p); /* named, not auto's: nothing to settle */
        if (s == SPIRA_OK) s = time_plan(ctx, p, x, y, &ms);
        if (s == SPIRA_ERR_UNSUPPORTED || s == SPIRA_ERR_NOMEM) {
            s = SPIRA_OK; /* refused, or too big here: not a candidate */
            if (at < len) at += (size_t)snprintf(why + at, len - at, " %s refused;", name);
            continue;
        }
        if (s != SPIRA_OK) {
            spira__spmv_plan_drop(A); /* this one's plan, if it was built */
            break;
        }
        if (at < len) at += (size_t)snprintf(why + at, len - at, " %s %.4f;", name, ms);
        if (ms < best_ms) {
            if (best[0]) { /* the old best's plan goes */
                snprintf(A->format, sizeof A->format, "%s", best);
                spira__spmv_plan_drop(A);
            }
            best_ms = ms;
            *kept_ms = p->convert_ms + p->upload_ms;
            snprintf(best, sizeof best, "%s", name);
        } else {
            spira__spmv_plan_drop(A);
        }
    }
    spira_vector_destroy(x);
    spira_vector_destroy(y);
    if (s != SPIRA_OK) {
        if (best[0]) { /* leave nothing of the trial behind */
            snprintf(A->format, sizeof A->format, "%s", best);
            spira__spmv_plan_drop(A);
        }
        return s;
    }
    if (!best[0]) /* csr-scalar never refuses */
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "auto trial: no format took the matrix");
    snprintf(A->format, sizeof A->format, "%s", best);
    if (at < len) snprintf(why + at, len - at, " fastest %s", best);
    return SPIRA_OK;
}

/* ---- the model's choice, and its history ------------------------------------------- */

#define STATS_KEY "auto:row-stats"

/* A's row statistics, gathered once and cached in A (the rules weigh them again at every
 * solve); *ms gets what gathering them took now (0 if cached). On the CUDA backend they are
 * counted on the GPU from A's device CSR, uploaded for them if no plan has yet: every
 * candidate but a host conversion reads it, so the upload is made once, before the choice,
 * and the cost model leaves it out (cost.h). Its time is not the choice's: the first plan
 * built from the CSR claims it as its upload (spira__matrix_csr_dev). */
static spira_status cached_stats(spira_matrix A, const spira__row_stats **out, double *ms)
{
    double t0 = spira__now_ms();
    spira__cache_entry *e = spira__matrix_cache_find(A, STATS_KEY);
    if (!e) {
        const spira__csr_dev *dA = NULL; /* none on the CPU backend, nor when converting on
                                          * the host (ctx->host_convert) */
        SPIRA__TRY(spira__matrix_csr_dev(A, &dA, NULL));
        t0 = spira__now_ms();
        spira__row_stats *st = NULL;
        SPIRA__TRY(spira__alloc(A->ctx, (void **)&st, 1, sizeof *st, "auto: row statistics"));
        spira_status s = dA ? spira__row_stats_dev(A->ctx, &A->csr, dA, st)
                            : spira__row_stats_of(A->ctx, &A->csr, st);
        if (s != SPIRA_OK) {
            spira__free(st);
            return s;
        }
        SPIRA__TRY(spira__matrix_cache_put(A, STATS_KEY, st, spira__free, 0, &e));
    }
    *out = (const spira__row_stats *)e->plan;
    *ms = spira__now_ms() - t0;
    return SPIRA_OK;
}

/* The model's choice for A over the multiplies the caller expects (expect) and those A has
 * made, or the option expected_multiplies (*fixed > 0), which makes the horizon; *ms what
 * gathering A's statistics took now, *name the format, why the reason. A plan already built
 * costs no setup. */
static spira_status rule(spira_matrix A, double expect, const char *prefer, long *fixed,
                         double *horizon, double *ms, const char **name, char *why, size_t len)
{
    spira_context ctx = A->ctx;
    SPIRA__TRY(spira__opt_long(ctx, A->autosel.opts, "expected_multiplies", 0, fixed));
    const int cuda = ctx->backend == SPIRA_BACKEND_CUDA;
    *horizon = *fixed > 0 ? (double)*fixed : expect + (double)A->multiplies;
    if (*horizon < 1) *horizon = 1;
    spira__row_stats none = {0};
    const spira__row_stats *st = &none;
    *ms = 0;
    /* the CPU backend's rule reads no statistics: none are gathered for it */
    if (cuda) SPIRA__TRY(cached_stats(A, &st, ms));
    /* cuSPARSE's kernel loads at a process's first multiply with it (cost.c) */
    int (*const ran)(int, spira_dtype) = SPIRA__GPU(spira__cusparse_spmv_ran);
    const int cusparse_cold = cuda && ran && !ran(ctx->device, A->csr.dtype);
    unsigned built = 0, cold = 0;
    for (int i = 0; candidates[i]; i++) {
        built |= (unsigned)spira__spmv_plan_cached(A, candidates[i]) << i;
        cold |= (unsigned)(cusparse_cold && !strcmp(candidates[i], "cusparse")) << i;
    }
    const size_t vs = A->csr.dtype == SPIRA_R32 ? 4 : 8;
    *name = spira__auto_rule(st, cuda, vs, *horizon, built, cold, *fixed > 0 ? NULL : prefer,
                             why, len);
    return SPIRA_OK;
}

const char *spira__auto_foresee(spira_matrix A, double expect)
{
    if (!A->autosel.on) return NULL;
    long fixed;
    double horizon, ms;
    char why[sizeof A->format_reason];
    const char *name;
    if (rule(A, expect, NULL, &fixed, &horizon, &ms, &name, why, sizeof why) != SPIRA_OK) {
        A->ctx->err[0] = '\0'; /* a forecast, no one's error */
        return NULL;
    }
    A->select_ms += ms;
    return name;
}

/* Choose A's format by the model for the multiplies the caller expects (expect, described
 * by source; NULL when nobody said), unless the option expected_multiplies says how many.
 * The multiplies A has made already count too: a matrix solved k times is expected to be
 * solved about k times more, so a costlier conversion is taken once what it would have
 * saved so far, with this solve's, pays for it (the ski-rental rule: rent until the rent
 * paid would have bought). A plan already built costs no setup. When nobody says, the
 * choice is for one multiply, weighed again each time the multiplies made double
 * (spira__auto_settle): a lone multiply pays no conversion, and a long run of them moves to
 * the format a known count would have chosen once the conversion has paid for itself, at
 * worst about twice its cost in all. */
static spira_status decide(spira_matrix A, double expect, const char *source,
                           const char *prefer)
{
    char dflt[96];
    if (!source) { /* nobody said */
        snprintf(dflt, sizeof dflt, "%d by default (no caller said how many: weighed again "
                 "as the multiplies made double)", SPIRA__AUTO_MULTIPLIES);
        source = dflt;
    }
    long fixed;
    double horizon, ms;
    char why[sizeof A->format_reason - 128];
    const char *name;
    SPIRA__TRY(rule(A, expect, prefer, &fixed, &horizon, &ms, &name, why, sizeof why));
    if (strcmp(name, A->format) != 0 || A->format_opts[0]) { /* a new choice: counted anew */
        A->autosel.since = A->multiplies;
        A->autosel.solve_ms = 0;
    }
    snprintf(A->format, sizeof A->format, "%s", name);
    A->format_opts[0] = 0;
    int n;
    if (fixed > 0)
        n = snprintf(A->format_reason, sizeof A->format_reason,
                     "auto: the option expected_multiplies: %s", why);
    else
        n = snprintf(A->format_reason, sizeof A->format_reason, "auto: %s + %lld made before: %s",
                     source, (long long)A->multiplies, why);
    A->autosel.reason_len = n > 0 && (size_t)n < sizeof A->format_reason
                                ? (size_t)n : sizeof A->format_reason - 1;
    A->autosel.recheck = A->multiplies + (int64_t)horizon;
    A->select_ms += ms;
    return SPIRA_OK;
}

spira_status spira__auto_settle(spira_matrix A)
{
    spira__matrix_format(A); /* a new matrix's: "auto", not chosen yet */
    if (!A->autosel.on) return SPIRA_OK;
    if (!strcmp(A->format, "auto"))
        return decide(A, SPIRA__AUTO_MULTIPLIES, NULL, NULL);
    /* spira_spmv's callers say nothing: once they have made the multiplies the choice was
     * made for, weigh it again for as many more */
    if (A->multiplies >= A->autosel.recheck)
        return decide(A, 0, "0 expected (multiplies outside a solve)", NULL);
    return SPIRA_OK;
}

/* A's plan for expect multiplies (source says why; NULL: "N expected by this solve"),
 * preferring, within the rule's margin, the format whole multiplies would choose (0: no
 * preference). */
static spira_status plan_for(spira_matrix A, double expect, double whole, const char *source,
                             spira__spmv_plan **plan)
{
    spira__matrix_format(A);
    if (A->autosel.on) {
        char dflt[96];
        if (!source) {
            snprintf(dflt, sizeof dflt, "%.0f expected by this solve", expect);
            source = dflt;
        }
        SPIRA__TRY(decide(A, expect, source, whole > 0 ? spira__auto_foresee(A, whole) : NULL));
    }
    SPIRA__TRY(spira__auto_settle(A));
    return spira__spmv_plan_lookup(A, plan);
}

spira_status spira__spmv_plan_said(spira_matrix A, double expect, const char *source,
                                   spira__spmv_plan **plan)
{
    return plan_for(A, expect, 0, source, plan);
}

spira_status spira__spmv_plan_staged(spira_matrix A, double stage, double whole,
                                     const char *source, spira__spmv_plan **plan)
{
    return plan_for(A, stage, whole, source, plan);
}

spira_status spira__spmv_plan_expect(spira_matrix A, double expect, spira__spmv_plan **plan)
{
    return spira__spmv_plan_said(A, expect, NULL, plan);
}

void spira__auto_note(spira_matrix A, const char *note)
{
    const size_t at = A->autosel.reason_len, len = sizeof A->format_reason;
    if (!A->autosel.on || !note[0] || at + 1 >= len) return;
    const int n = snprintf(A->format_reason + at, len - at, "; %s", note);
    A->autosel.reason_len = n > 0 && at + (size_t)n < len ? at + (size_t)n : len - 1;
}

void spira__spmv_account(spira_matrix A, double solve_ms)
{
    if (!A->autosel.on || !strcmp(A->format, "auto")) return;
    A->autosel.solve_ms += solve_ms;
    char key[sizeof A->cache->key];
    snprintf(key, sizeof key, "spmv:%s:%s", A->format, A->format_opts);
    spira__cache_entry *e = spira__matrix_cache_find(A, key);
    const spira__spmv_plan *p = e ? (const spira__spmv_plan *)e->plan : NULL;
    const size_t at = A->autosel.reason_len, len = sizeof A->format_reason;
    if (!p || at + 1 >= len) return;
    snprintf(A->format_reason + at, len - at, "; realized: setup %.1f ms (conversion %.1f + "
             "upload %.1f), %lld multiplies in solves of %.1f ms = %.1f ms",
             p->convert_ms + p->upload_ms, p->convert_ms, p->upload_ms,
             (long long)(A->multiplies - A->autosel.since), A->autosel.solve_ms,
             p->convert_ms + p->upload_ms + A->autosel.solve_ms);
}

static spira_status auto_select(spira_matrix A, const char *opts)
{
    spira_context ctx = A->ctx;
    long timed, expected;
    SPIRA__TRY(spira__opt_long(ctx, opts, "trial", 0, &timed));
    if (timed != 0 && timed != 1)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "auto option trial=%ld: 0 or 1", timed);
    SPIRA__TRY(spira__opt_long(ctx, opts, "expected_multiplies", LONG_MAX, &expected));
    if (expected < 1)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "auto option expected_multiplies=%ld: a count >= 1", expected);
    if (strlen(opts ? opts : "") >= sizeof A->autosel.opts)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "format options too long: '%s'", opts);
    /* already auto's with these options: the choice and its history stand */
    if (!timed && A->autosel.on && strcmp(A->format, "auto") != 0 &&
        !strcmp(A->autosel.opts, opts ? opts : ""))
        return SPIRA_OK;
    char old[sizeof A->format], old_opts[sizeof A->format_opts];
    snprintf(old, sizeof old, "%s", A->format);
    snprintf(old_opts, sizeof old_opts, "%s", A->format_opts);
    const double t0 = spira__now_ms();
    spira_status s;
    if (timed) {
        char why[sizeof A->format_reason - sizeof "auto: "];
        double kept_ms = 0; /* the chosen plan's build, counted in its own setup time */
        const int64_t made = A->multiplies; /* the trial's multiplies are not A's history */
        const int was_on = A->autosel.on;
        A->autosel.on = 0; /* the trial names each format in turn; its choice is final */
        s = trial(A, why, sizeof why, &kept_ms);
        A->multiplies = made;
        if (s != SPIRA_OK) A->autosel.on = was_on;
        if (s == SPIRA_OK) {
            snprintf(A->format_reason, sizeof A->format_reason, "auto: %s", why);
            A->select_ms = spira__now_ms() - t0 - kept_ms;
        }
    } else {
        const spira__autosel saved = A->autosel;
        A->autosel.on = 1;
        snprintf(A->autosel.opts, sizeof A->autosel.opts, "%s", opts ? opts : "");
        A->select_ms = 0;
        s = decide(A, SPIRA__AUTO_MULTIPLIES, NULL, NULL);
        if (s != SPIRA_OK) A->autosel = saved;
    }
    if (s != SPIRA_OK) { /* the selection stays as it was */
        snprintf(A->format, sizeof A->format, "%s", old);
        snprintf(A->format_opts, sizeof A->format_opts, "%s", old_opts);
    }
    return s;
}

spira_status spira_matrix_set_format(spira_matrix A, const char *name, const char *options)
{
    if (!A || !name) return SPIRA_ERR_INVALID_ARG;
    if (!strcmp(name, "auto")) {
        SPIRA__TRY(spira__check_option_keys(A->ctx, "auto", "trial expected_multiplies", options));
        return auto_select(A, options);
    }
    const spira__format *f;
    SPIRA__TRY(spira__format_get(A->ctx, name, &f));
    SPIRA__TRY(spira__check_options(A->ctx, f->name, f->options, options, sizeof A->format_opts));
    A->format_reason[0] = 0;
    A->select_ms = 0;
    A->autosel.on = 0; /* named: auto chooses no more */
    /* name or options may be A's own strings (from spira_matrix_get_info) */
    char fmt_name[sizeof A->format];
    snprintf(fmt_name, sizeof fmt_name, "%s", name);
    memmove(A->format_opts, options ? options : "", strlen(options ? options : "") + 1);
    snprintf(A->format, sizeof A->format, "%s", fmt_name);
    return SPIRA_OK;
}

spira_status spira__matrix_format_follow(spira_matrix B, spira_matrix A)
{
    const char *name = spira__matrix_format(A);
    spira__matrix_format(B);
    /* under "auto", B chooses from its own rows (the ones multiplied) */
    if (A->autosel.on) return spira_matrix_set_format(B, "auto", A->autosel.opts);
    if (!strcmp(B->format, name) && !strcmp(B->format_opts, A->format_opts))
        return SPIRA_OK;
    return spira_matrix_set_format(B, name, A->format_opts);
}
