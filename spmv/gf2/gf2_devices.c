/*
 * gf2_devices.c - a GF(2) matrix's multiplies split by rows over the devices of one machine
 * (the chapter's dual-GPU split, for N devices): part d holds rows [r_d, r_(d+1)) as a
 * matrix of its own on device d, in M's format, and multiplies the whole block by them.
 * The rows are cut where the running count of nonzeros plus rows crosses d / N of the total,
 * so each part reads about as many matrix bytes and writes as many rows as the others, and
 * each part's rows into chunks the same way if asked (SPIRA_GF2_CHUNKS: a chunk's rows
 * travel to the other devices while the next chunk is computed).
 * The CPU backend runs the same parts one after another on the host (copies included), so
 * CI checks the split, the copies and the ranges. The matrix's public multiply, its
 * plans' preparation and report are here: they go through the parts. gf2.c, below, frees
 * the parts through M->parts_free.
 */
#include "gf2.h"

#include <stdlib.h>
#include <string.h>

/* Chunks a part when the rows are split over several devices: SPIRA_GF2_CHUNKS (1 to
 * SPIRA__GF2_CHUNKS_MAX), else 1. One chunk sends a part's rows after its multiply, while
 * the next term's X^T Z runs (the Krylov sequence's overlap); k chunks hide all but the last
 * k-th of that copy behind the multiply, for k - 1 more launches, waits and copies a step. */
static spira_status chunks_for(spira_context ctx, int ndev, int *chunks)
{
    *chunks = 1;
    if (ndev == 1) return SPIRA_OK;
    const char *env = getenv("SPIRA_GF2_CHUNKS");
    if (!env || !*env) return SPIRA_OK;
    char *end;
    long v = strtol(env, &end, 10);
    if (*end || v < 1 || v > SPIRA__GF2_CHUNKS_MAX)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "SPIRA_GF2_CHUNKS=\"%.32s\": want 1 to %d "
                            "chunks a device", env, SPIRA__GF2_CHUNKS_MAX);
    *chunks = (int)v;
    return SPIRA_OK;
}

spira_status spira_gf2_matrix_set_devices(spira_gf2_matrix M, int n)
{
    if (!M) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__parts_check(M->ctx, n, "GF(2) matrix"));
    int chunks;
    SPIRA__TRY(chunks_for(M->ctx, n, &chunks));
    spira__gf2_parts_free(M);
    const int old = M->ndev, old_chunks = M->chunks;
    M->ndev = n;
    M->chunks = chunks;
    spira__gf2_part *parts;
    int got;
    spira_status s = spira__gf2_parts(M, &parts, &got); /* the devices' contexts now */
    if (s != SPIRA_OK) M->ndev = old, M->chunks = old_chunks;
    return s;
}

spira_status spira_gf2_matrix_devices(spira_gf2_matrix M, int *n)
{
    if (!M || !n) return SPIRA_ERR_INVALID_ARG;
    *n = M->ndev ? M->ndev : 1;
    return SPIRA_OK;
}

static void part_buffers_free(spira__gf2_part *p)
{
    spira__mem_free(p->ctx, p->x);
    spira__mem_free(p->ctx, p->y);
    p->x = p->y = NULL;
    p->words = 0;
}

/* A chunk's matrix: its plans, and its row pointers unless they are M's. */
static void sub_free(spira_gf2_matrix S)
{
    if (!S) return;
    spira__gf2_device_drop(S);
    if (!(S->borrowed & 2)) spira__free(S->pattern.row_ptr);
    spira__free(S);
}

void spira__gf2_parts_drop_plans(spira_gf2_matrix M)
{
    for (int d = 0; M->parts && d < M->ndev; d++) {
        spira__gf2_part *p = &M->parts[d];
        if (!p->ctx) continue; /* parts_make stopped before it */
        spira__context_activate(p->ctx);
        spira_context_synchronize(p->ctx); /* its copies may still read or write them */
        for (int c = 0; c < p->nchunks; c++)
            if (p->sub[c]) spira__gf2_device_drop(p->sub[c]);
        part_buffers_free(p);
    }
    spira__context_activate(M->ctx);
}

void spira__gf2_parts_free(spira_gf2_matrix M)
{
    if (!M->parts) return;
    spira__gf2_parts_drop_plans(M);
    for (int d = 0; d < M->ndev; d++) {
        spira__gf2_part *p = &M->parts[d];
        if (!p->ctx) continue;
        spira__context_activate(p->ctx);
        spira__event_destroy(p->ctx, p->done);
        for (int c = 0; c < p->nchunks; c++) {
            spira__event_destroy(p->ctx, p->chunk_done[c]);
            sub_free(p->sub[c]);
        }
    }
    spira__context_activate(M->ctx);
    spira__event_destroy(M->ctx, M->start);
    M->start = NULL;
    spira__free(M->parts);
    M->parts = NULL;
}

/* The first row of [lo, hi) whose running weight (nonzeros before it plus its index)
 * reaches w; hi if none. */
static int32_t cut(const spira__gf2_pattern *P, int32_t lo, int32_t hi, int64_t w)
{
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        if ((int64_t)P->row_ptr[mid] + mid < w) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Rows [r0, r1) of M cut into k pieces of about equal weight: at[0] = r0 .. at[k] = r1. */
static void cut_rows(const spira__gf2_pattern *P, int32_t r0, int32_t r1, int k, int32_t *at)
{
    const int64_t w0 = (int64_t)P->row_ptr[r0] + r0, w1 = (int64_t)P->row_ptr[r1] + r1;
    at[0] = r0;
    for (int c = 1; c < k; c++) at[c] = cut(P, at[c - 1], r1, w0 + ((w1 - w0) * c + k - 1) / k);
    at[k] = r1;
}

/* Rows [r0, r1) of M as a matrix on ctx, its arrays M's where they can be (the columns
 * always; the row pointers when r0 is 0), in M's format. */
static spira_status sub_make(spira_gf2_matrix M, spira_context ctx, int32_t r0, int32_t r1,
                             spira_gf2_matrix *out)
{
    const spira__gf2_pattern *P = &M->pattern;
    spira_gf2_matrix S = spira__calloc(1, sizeof *S);
    if (!S) return spira__nomem(ctx, "GF(2) device part", sizeof *S);
    S->ctx = ctx;
    S->pattern = (spira__gf2_pattern){.nrows = r1 - r0, .ncols = P->ncols,
                                      .nnz = P->row_ptr[r1] - P->row_ptr[r0],
                                      .dtype = P->dtype, .col_idx = P->col_idx + P->row_ptr[r0]};
    S->borrowed = 1;
    if (r0 == 0) {
        S->pattern.row_ptr = P->row_ptr;
        S->borrowed |= 2;
    } else {
        spira_status s = spira__alloc(ctx, (void **)&S->pattern.row_ptr, (size_t)(r1 - r0) + 1,
                                      sizeof(int32_t), "GF(2) device part's row pointers");
        if (s != SPIRA_OK) {
            spira__free(S);
            return s;
        }
        for (int32_t i = r0; i <= r1; i++)
            S->pattern.row_ptr[i - r0] = P->row_ptr[i] - P->row_ptr[r0];
    }
    memcpy(S->format, M->format, sizeof S->format);
    memcpy(S->format_opts, M->format_opts, sizeof S->format_opts);
    *out = S;
    return SPIRA_OK;
}

/* Part d's context, chunks and events. */
static spira_status part_make(spira_gf2_matrix M, spira__gf2_part *p, int d)
{
    SPIRA__TRY(spira__context_part(M->ctx, d, &p->ctx));
    p->nchunks = M->chunks;
    cut_rows(&M->pattern, p->r0, p->r1, p->nchunks, p->cut);
    for (int c = 0; c < p->nchunks; c++)
        SPIRA__TRY(sub_make(M, p->ctx, p->cut[c], p->cut[c + 1], &p->sub[c]));
    if (M->ndev == 1) return SPIRA_OK;
    SPIRA__TRY(spira__event_create(p->ctx, &p->done));
    for (int c = 0; c < p->nchunks; c++) SPIRA__TRY(spira__event_create(p->ctx, &p->chunk_done[c]));
    return SPIRA_OK;
}

static spira_status parts_make(spira_gf2_matrix M)
{
    if (!M->ndev) M->ndev = 1, M->chunks = 1;
    const int n = M->ndev;
    spira_status s = spira__alloc(M->ctx, (void **)&M->parts, (size_t)n, sizeof *M->parts,
                                  "GF(2) device parts");
    if (s != SPIRA_OK) return s;
    memset(M->parts, 0, (size_t)n * sizeof *M->parts);
    M->parts_free = spira__gf2_parts_free;
    int32_t at[SPIRA__PARTS_MAX + 1];
    cut_rows(&M->pattern, 0, M->pattern.nrows, n, at);
    if (n > 1) s = spira__event_create(M->ctx, &M->start);
    for (int d = 0; d < n && s == SPIRA_OK; d++) {
        spira__gf2_part *p = &M->parts[d];
        p->r0 = at[d], p->r1 = at[d + 1];
        s = part_make(M, p, d);
        s = spira__part_error(M->ctx, p->ctx, s);
    }
    spira_status a = spira__context_activate(M->ctx);
    if (s == SPIRA_OK) s = a;
    if (s != SPIRA_OK) spira__gf2_parts_free(M);
    return s;
}

spira_status spira__gf2_parts(spira_gf2_matrix M, spira__gf2_part **parts, int *n)
{
    if (!M->parts) SPIRA__TRY(parts_make(M));
    *parts = M->parts;
    *n = M->ndev;
    return SPIRA_OK;
}

spira_status spira__gf2_parts_prepare(spira_gf2_matrix M, int words, double *setup_ms)
{
    spira__gf2_part *parts;
    int n;
    SPIRA__TRY(spira__gf2_parts(M, &parts, &n));
    spira_status s = SPIRA_OK;
    for (int d = 0; d < n && s == SPIRA_OK; d++) {
        spira__gf2_part *p = &parts[d];
        s = spira__context_activate(p->ctx);
        for (int c = 0; c < p->nchunks && s == SPIRA_OK; c++) {
            spira__gf2_plan *plan;
            s = spira__gf2_plan_get(p->sub[c], words, &plan);
            if (s == SPIRA_OK && setup_ms) *setup_ms += plan->convert_ms + plan->upload_ms;
        }
        s = spira__part_error(M->ctx, p->ctx, s);
    }
    spira_status a = spira__context_activate(M->ctx);
    return s == SPIRA_OK ? a : s;
}

spira_status spira__gf2_chunk_apply(spira__gf2_part *p, int c, int words, const uint64_t *x,
                                    uint64_t *y)
{
    if (p->cut[c + 1] == p->cut[c]) return SPIRA_OK;
    spira__gf2_plan *plan;
    SPIRA__TRY(spira__gf2_plan_get(p->sub[c], words, &plan));
    return spira__spmv_apply(plan, 1, x, 0, y);
}

/* Part d >= 1's copies of X and of its rows of Y, for blocks of `words`. */
static spira_status part_buffers(spira_gf2_matrix M, spira__gf2_part *p, int words)
{
    if (p->words == words) return SPIRA_OK;
    part_buffers_free(p);
    const size_t w = (size_t)words * sizeof(uint64_t);
    SPIRA__TRY(spira__mem_alloc(p->ctx, (void **)&p->x, (size_t)M->pattern.ncols * w,
                                "GF(2) device part's copy of X"));
    SPIRA__TRY(spira__mem_alloc(p->ctx, (void **)&p->y, (size_t)(p->r1 - p->r0) * w,
                                "GF(2) device part's rows of Y"));
    p->words = words;
    return SPIRA_OK;
}

/* Part d >= 1: X in; each chunk's rows computed, then sent to Y on the side stream while
 * the next is computed; done recorded there. */
static spira_status part_spmv(spira_gf2_matrix M, spira__gf2_part *p, spira_gf2_block X,
                              spira_gf2_block Y)
{
    const int words = X->words;
    const size_t w = (size_t)words * sizeof(uint64_t);
    spira_context c = p->ctx;
    SPIRA__TRY(spira__context_activate(c));
    SPIRA__TRY(part_buffers(M, p, words));
    SPIRA__TRY(spira__event_wait(c, 0, M->start));
    if (p->r1 > p->r0)
        SPIRA__TRY(spira__mem_copy_peer(c, 0, p->x, c, X->data, M->ctx, (size_t)X->nrows * w));
    for (int k = 0; k < p->nchunks; k++) {
        const int32_t a = p->cut[k], b = p->cut[k + 1];
        if (a == b) continue;
        uint64_t *y = p->y + (size_t)(a - p->r0) * words;
        SPIRA__TRY(spira__gf2_chunk_apply(p, k, words, p->x, y));
        SPIRA__TRY(spira__event_record(c, 0, p->chunk_done[k]));
        SPIRA__TRY(spira__event_wait(c, 1, p->chunk_done[k]));
        SPIRA__TRY(spira__mem_copy_peer(c, 1, Y->data + (size_t)a * words, M->ctx, y, c,
                                        (size_t)(b - a) * w));
    }
    /* also the part's next use of its buffers comes after these copies */
    SPIRA__TRY(spira__event_record(c, 1, p->done));
    return spira__event_wait(c, 0, p->done);
}

spira_status spira__gf2_parts_spmv(spira_gf2_matrix M, spira_gf2_block X, spira_gf2_block Y)
{
    spira_context ctx = M->ctx;
    spira__gf2_part *parts;
    int n;
    SPIRA__TRY(spira__gf2_parts_prepare(M, X->words, NULL));
    SPIRA__TRY(spira__gf2_parts(M, &parts, &n));
    if (n > 1) SPIRA__TRY(spira__event_record(ctx, 0, M->start));
    spira_status s = SPIRA_OK;
    for (int d = 1; d < n && s == SPIRA_OK; d++)
        s = spira__part_error(ctx, parts[d].ctx, part_spmv(M, &parts[d], X, Y));
    spira_status a = spira__context_activate(ctx);
    if (s == SPIRA_OK) s = a;
    spira__gf2_part *p = &parts[0];
    for (int k = 0; k < p->nchunks && s == SPIRA_OK; k++)
        s = spira__gf2_chunk_apply(p, k, X->words, X->data, Y->data + (size_t)p->cut[k] * X->words);
    for (int d = 1; d < n && s == SPIRA_OK; d++) s = spira__event_wait(ctx, 0, parts[d].done);
    if (s != SPIRA_OK) /* nothing still writes into Y when the caller frees it */
        for (int d = 0; d < n; d++)
            if (spira__context_activate(parts[d].ctx) == SPIRA_OK)
                spira_context_synchronize(parts[d].ctx);
    if (s != SPIRA_OK) spira__context_activate(ctx);
    return s;
}

/* ---- the public calls that reach the parts ---- */

spira_status spira_gf2_matrix_drop_plans(spira_gf2_matrix M)
{
    if (!M) return SPIRA_ERR_INVALID_ARG;
    spira__gf2_parts_drop_plans(M);
    spira__gf2_device_drop(M);
    return SPIRA_OK;
}

spira_status spira_gf2_matrix_prepare(spira_gf2_matrix M, int width, double *setup_ms)
{
    if (!M) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__gf2_width_check(M->ctx, width));
    double ms = 0;
    SPIRA__TRY(spira__gf2_parts_prepare(M, width / 64, &ms));
    if (setup_ms) *setup_ms = ms;
    return SPIRA_OK;
}

spira_status spira_gf2_matrix_plan_info(spira_gf2_matrix M, int width, spira_plan_info *info)
{
    if (!M || !info) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__gf2_width_check(M->ctx, width));
    SPIRA__TRY(spira__gf2_parts_prepare(M, width / 64, NULL));
    /* part 0's first plan, with the times and bytes of all the parts' chunks summed */
    for (int d = 0; d < M->ndev; d++)
        for (int c = 0; c < M->parts[d].nchunks; c++) {
            spira__gf2_plan *p;
            SPIRA__TRY(spira__gf2_plan_get(M->parts[d].sub[c], width / 64, &p));
            spira_plan_info pi;
            spira__plan_info(p, &pi);
            if (d == 0 && c == 0) {
                *info = pi;
                continue;
            }
            info->convert_ms += pi.convert_ms;
            info->upload_ms += pi.upload_ms;
            info->bytes += pi.bytes;
        }
    return SPIRA_OK;
}

typedef struct {
    spira_gf2_matrix M;
    spira_gf2_block X, Y;
} gf2_call;

static spira_status gf2_once(void *arg)
{
    gf2_call *c = arg;
    return spira_gf2_spmv(c->M, c->X, c->Y);
}

/* Each run is a whole spira_gf2_spmv, its checks and plan lookup included. */
spira_status spira_gf2_spmv_time(spira_gf2_matrix M, spira_gf2_block X, spira_gf2_block Y, int n,
                                 double *ms)
{
    if (!M || !X || !Y) return SPIRA_ERR_INVALID_ARG;
    if (n < 0) return spira__error(M->ctx, SPIRA_ERR_INVALID_ARG, "GF(2) SpMV timing: %d runs", n);
    gf2_call c = {M, X, Y};
    return spira__time_calls(M->ctx, n, ms, gf2_once, &c);
}

spira_status spira_gf2_spmv(spira_gf2_matrix M, spira_gf2_block X, spira_gf2_block Y)
{
    if (!M || !X || !Y) return SPIRA_ERR_INVALID_ARG;
    spira_context ctx = M->ctx;
    if (X->ctx != ctx || Y->ctx != ctx)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) SpMV: blocks of another context");
    if (X == Y || (X->data == Y->data && X->nrows))
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) SpMV: Y is X (Y = M X in place)");
    if (X->words != Y->words)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) SpMV: X is %d bits wide, Y %d",
                            X->words * 64, Y->words * 64);
    if (X->nrows != M->pattern.ncols || Y->nrows != M->pattern.nrows)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "GF(2) SpMV: M is %d x %d, X has %d rows, Y %d", M->pattern.nrows,
                            M->pattern.ncols, X->nrows, Y->nrows);
    return spira__gf2_parts_spmv(M, X, Y);
}
