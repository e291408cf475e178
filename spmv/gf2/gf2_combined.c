/*
 * gf2_combined.c - the combined GF(2) format (see gf2_parts.h): the chapter's full format,
 * the dense columns in the bitmap and the rest in sliced-COO bands by column density. The
 * host conversion here is the CPU backend's layout and the reference the device build
 * (gf2_combined_gpu.cu) is compared with.
 *
 * Rows are ordered by weight, heaviest first, ties in the matrix's order (a stable counting
 * sort), so that rows of like weight share slices; perm keeps the order and every piece
 * writes Y through it, so callers see Y in their own order. Columns are classed by density
 * (entries per row), which decides the bitmap and the bands; within the bitmap and within a
 * slice the columns stay in X's order, so that neighbouring threads read neighbouring rows
 * of X. The cut-offs are options (dense, cut1, cut2, band1..3); their defaults are measured
 * per device (the table below). parts (the blocks that share a slice on the GPU; 0: enough
 * to fill it, 1: the paper's block a slice) changes the launch only, not the layout.
 */
#include "gf2_parts.h"

#include <stdio.h>
#include <string.h>

/* The defaults. A device's line comes from bench/gpu-gf2-sweep.sh on that device: it times
 * combined over a grid of cut-offs and sub-formats on the sieve-shaped 10^6 x 10^6 matrix of
 * 64 entries a row (spira-gf2 --nfs 1000000:64) at W = 64 and prints the fastest setting as
 * such a line. A context whose device name contains `device` takes the line; every other
 * one (the CPU backend included) the generic default: every band in the sub-format that was
 * fastest over the whole matrix on Hopper (csr, at every width: the chapter's sliced
 * sub-formats were built for Fermi's small caches; bench/results has the runs). */
static const struct {
    const char *device; /* a substring of the context's device name; NULL: the generic default */
    spira__gf2_cuts cuts;
} defaults[] = {
    /* the sweep's fastest on an H200 (bench/results/2026-11-26-h200x2-session9): no bitmap */
    {"H200",
     {0, {64, 8192}, 0,
      {SPIRA__GF2_BAND_CSR, SPIRA__GF2_SHARE_BLOCK, SPIRA__GF2_SHARE_WARP}, "H200"}},
    {NULL, {32, {256, 8192}, 0, {SPIRA__GF2_BAND_CSR, SPIRA__GF2_BAND_CSR, SPIRA__GF2_BAND_CSR},
            "generic"}},
};

static const char *const shares[] = {"thread", "warp", "block", "csr", NULL};

spira_status spira__gf2_combined_cuts(spira_context ctx, const char *opts, spira__gf2_cuts *c)
{
    size_t i = 0;
    while (defaults[i].device && !strstr(ctx->device_name, defaults[i].device)) i++;
    *c = defaults[i].cuts;
    if (defaults[i].device) c->source = defaults[i].device;
    long v[3];
    static const char *const keys[3] = {"dense", "cut1", "cut2"};
    const long def[3] = {c->dense, c->cut[0], c->cut[1]};
    for (int k = 0; k < 3; k++) {
        SPIRA__TRY(spira__opt_long(ctx, opts, keys[k], def[k], &v[k]));
        const long lo = k == 0 ? 0 : 1;
        if (v[k] < lo || v[k] > (1L << 30))
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                                "combined option %s=%ld: %ld to 2^30 (a column of at least "
                                "nrows/%s entries%s)",
                                keys[k], v[k], lo, keys[k], k == 0 ? "; 0: no dense part" : "");
    }
    if (v[0] > 1024)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "combined option dense=%ld: 0 to 1024 (the bitmap holds a column "
                            "of nrows/dense entries in nrows bits: at most 1024 bits an entry)",
                            v[0]);
    if (v[1] > v[2])
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "combined options cut1=%ld, cut2=%ld: want cut1 <= cut2 (band 1 the "
                            "denser)", v[1], v[2]);
    c->dense = (int32_t)v[0];
    c->cut[0] = (int32_t)v[1];
    c->cut[1] = (int32_t)v[2];
    long parts;
    SPIRA__TRY(spira__opt_long(ctx, opts, "parts", c->parts, &parts));
    if (parts < 0 || parts > 1024)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "combined option parts=%ld: 0 (as many blocks a slice as fill the "
                            "GPU) to 1024", parts);
    c->parts = (int32_t)parts;
    for (int b = 0; b < SPIRA__GF2_BANDS; b++) {
        char key[8];
        snprintf(key, sizeof key, "band%d", b + 1);
        int s;
        SPIRA__TRY(spira__opt_word(ctx, opts, key, shares, c->share[b], &s));
        c->share[b] = s;
    }
    return SPIRA_OK;
}

void spira__gf2_combined_stats(spira__gf2_combined *L)
{
    const double n = L->nnz ? (double)L->nnz : 1;
    int64_t dense = 0; /* the bitmap's entries: the rest's complement */
    for (int b = 0; b < SPIRA__GF2_BANDS; b++) dense += L->band[b].nnz;
    dense = L->nnz - dense;
    snprintf(L->stats, sizeof L->stats,
             "cut-offs %s: dense=%d,cut1=%d,cut2=%d; rows %s; dense %d columns %.1f%%, bands "
             "%s %.1f%%, %s %.1f%%, %s %.1f%% of the entries",
             L->cuts.source, L->cuts.dense, L->cuts.cut[0], L->cuts.cut[1],
             L->perm ? "by weight" : "in order (already by weight)", L->dense.ndense,
             100.0 * (double)dense / n, shares[L->band[0].share], 100.0 * L->band[0].nnz / n,
             shares[L->band[1].share], 100.0 * L->band[1].nnz / n, shares[L->band[2].share],
             100.0 * L->band[2].nnz / n);
}

static void gf2_combined_destroy(void *layout)
{
    spira__gf2_combined *L = (spira__gf2_combined *)layout;
    if (!L) return;
    spira__free(L->perm);
    spira__gf2_dense_free(&L->dense);
    for (int b = 0; b < SPIRA__GF2_BANDS; b++) spira__gf2_sliced_free(&L->band[b]);
    spira__free(L);
}

/* perm = rows by weight, heaviest first, ties in order (a counting sort over weights);
 * NULL when that is the identity. */
static spira_status order_rows(spira_context ctx, const spira__gf2_pattern *A, int32_t **perm)
{
    *perm = NULL;
    int32_t maxw = 0, *start = NULL, *p = NULL;
    int sorted = 1;
    for (int32_t i = 0; i < A->nrows; i++) {
        const int32_t w = A->row_ptr[i + 1] - A->row_ptr[i];
        if (i && w > A->row_ptr[i] - A->row_ptr[i - 1]) sorted = 0;
        if (w > maxw) maxw = w;
    }
    if (sorted) return SPIRA_OK;
    SPIRA__TRY(spira__alloc(ctx, (void **)&start, (size_t)maxw + 2, sizeof(int32_t),
                            "combined row order (counts)"));
    spira_status s = spira__alloc(ctx, (void **)&p, (size_t)A->nrows, sizeof(int32_t),
                                  "combined row order");
    if (s == SPIRA_OK) {
        /* start[maxw - w] = the rows heavier than w */
        memset(start, 0, ((size_t)maxw + 2) * sizeof(int32_t));
        for (int32_t i = 0; i < A->nrows; i++)
            start[maxw - (A->row_ptr[i + 1] - A->row_ptr[i]) + 1]++;
        for (int32_t k = 1; k <= maxw + 1; k++) start[k] += start[k - 1];
        for (int32_t i = 0; i < A->nrows; i++)
            p[start[maxw - (A->row_ptr[i + 1] - A->row_ptr[i])]++] = i;
        *perm = p;
    }
    spira__free(start);
    return s;
}

/* P = the rows of A in the order perm. */
static spira_status permute_rows(spira_context ctx, const spira__gf2_pattern *A,
                                 const int32_t *perm, spira__gf2_pattern *P)
{
    memset(P, 0, sizeof *P);
    P->nrows = A->nrows, P->ncols = A->ncols, P->nnz = A->nnz, P->dtype = A->dtype;
    SPIRA__TRY(spira__alloc(ctx, (void **)&P->row_ptr, (size_t)A->nrows + 1, sizeof(int32_t),
                            "combined row pointers"));
    spira_status s = spira__alloc(ctx, (void **)&P->col_idx, (size_t)A->nnz, sizeof(int32_t),
                                  "combined columns");
    if (s != SPIRA_OK) {
        spira__csr_free(P);
        return s;
    }
    P->row_ptr[0] = 0;
    for (int32_t i = 0; i < A->nrows; i++) {
        const int32_t r = perm[i], n = A->row_ptr[r + 1] - A->row_ptr[r];
        memcpy(P->col_idx + P->row_ptr[i], A->col_idx + A->row_ptr[r], (size_t)n * sizeof(int32_t));
        P->row_ptr[i + 1] = P->row_ptr[i] + n;
    }
    return SPIRA_OK;
}

/* class[j] of every column (gf2_parts.h), the dense columns' bitmap positions dpos (-1:
 * not dense) and the positions' columns dcol, and the entries of each class. */
static spira_status class_columns(spira_context ctx, const spira__gf2_pattern *A,
                                  const spira__gf2_cuts *c, uint8_t *cls, int32_t *dpos,
                                  int32_t *dcol, int32_t *ndense, int64_t counts[4])
{
    memset(dpos, 0, (size_t)A->ncols * sizeof *dpos);
    for (int32_t k = 0; k < A->nnz; k++) dpos[A->col_idx[k]]++; /* the column counts first */
    int32_t nd = 0;
    for (int b = 0; b < 4; b++) counts[b] = 0;
    for (int32_t j = 0; j < A->ncols; j++) {
        const int32_t count = dpos[j];
        cls[j] = (uint8_t)spira__gf2_column_class(c, count, A->nrows);
        counts[cls[j]] += count;
        dpos[j] = cls[j] == 0 ? nd : -1;
        if (cls[j] == 0) dcol[nd++] = j;
    }
    *ndense = nd;
    (void)ctx;
    return SPIRA_OK;
}

static spira_status gf2_combined_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                         void **layout)
{
    *layout = NULL;
    int words;
    spira__gf2_cuts cuts;
    SPIRA__TRY(spira__gf2_opt_words(ctx, opts, &words));
    SPIRA__TRY(spira__gf2_combined_cuts(ctx, opts, &cuts));
    spira__gf2_combined *L = spira__calloc(1, sizeof *L);
    if (!L) return spira__nomem(ctx, "combined layout", sizeof *L);
    L->nrows = A->nrows, L->ncols = A->ncols, L->nnz = A->nnz, L->words = words;
    L->cuts = cuts;
    spira__gf2_pattern P = {0}, PT = {0};
    uint8_t *cls = NULL;
    int32_t *dpos = NULL, *dcol = NULL, ndense = 0;
    int64_t counts[4];
    spira_status s = order_rows(ctx, A, &L->perm);
    if (s == SPIRA_OK && L->perm) s = permute_rows(ctx, A, L->perm, &P);
    const spira__gf2_pattern *PA = L->perm ? &P : A;
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&cls, (size_t)A->ncols, 1, "combined column classes");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&dpos, (size_t)A->ncols, sizeof(int32_t),
                         "combined column counts");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&dcol, (size_t)A->ncols, sizeof(int32_t),
                         "combined dense columns");
    if (s == SPIRA_OK) s = class_columns(ctx, A, &cuts, cls, dpos, dcol, &ndense, counts);
    if (s == SPIRA_OK) s = spira__gf2_dense_build(ctx, PA, dpos, dcol, ndense, words, &L->dense);
    if (s == SPIRA_OK && counts[1] + counts[2] + counts[3] > 0)
        s = spira__csr_transpose(ctx, PA, &PT);
    for (int b = 0; b < SPIRA__GF2_BANDS && s == SPIRA_OK; b++) {
        const int32_t rows = spira__gf2_sliced_fit(cuts.share[b], words);
        if (counts[b + 1] > 0) {
            s = spira__gf2_sliced_build(ctx, PA, &PT, cls, b + 1, words, cuts.share[b], rows,
                                        &L->band[b]);
        } else { /* empty: no slices, its sizes as the GPU's build leaves them */
            L->band[b].nrows = A->nrows, L->band[b].ncols = A->ncols, L->band[b].rows = rows;
            L->band[b].share = cuts.share[b], L->band[b].words = words;
        }
    }
    spira__csr_free(&P);
    spira__csr_free(&PT);
    spira__free(cls), spira__free(dpos), spira__free(dcol);
    if (s != SPIRA_OK) {
        gf2_combined_destroy(L);
        return s;
    }
    spira__gf2_combined_stats(L);
    *layout = L;
    return SPIRA_OK;
}

/* Y = M X: alpha 1, beta 0 (gf2.h): zero, then every piece XORs its rows in. */
static void gf2_combined_apply(const void *layout, double alpha, const void *vx, double beta,
                               void *vy)
{
    (void)alpha, (void)beta;
    const spira__gf2_combined *L = (const spira__gf2_combined *)layout;
    const uint64_t *x = (const uint64_t *)vx;
    uint64_t *y = (uint64_t *)vy;
    memset(y, 0, (size_t)L->nrows * L->words * sizeof *y);
    spira__gf2_dense_accumulate(&L->dense, L->perm, x, y);
    for (int b = 0; b < SPIRA__GF2_BANDS; b++)
        if (L->band[b].nnz) spira__gf2_sliced_accumulate(&L->band[b], L->perm, x, y);
}

static size_t gf2_combined_bytes(const void *layout)
{
    const spira__gf2_combined *L = (const spira__gf2_combined *)layout;
    size_t n = (L->perm ? (size_t)L->nrows * sizeof(int32_t) : 0) +
               spira__gf2_dense_bytes(&L->dense);
    for (int b = 0; b < SPIRA__GF2_BANDS; b++)
        if (L->band[b].nnz) n += spira__gf2_sliced_bytes(&L->band[b]);
    return n;
}

static const char *gf2_combined_stats(const void *layout)
{
    return ((const spira__gf2_combined *)layout)->stats;
}

extern const spira__format_gpu spira__gf2_combined_gpu;

const spira__format spira__gf2_combined_format = {
    .name = "combined",
    .description = "the chapter's full format: rows by weight, the dense columns (>= nrows/dense "
                   "entries) in the bitmap, the rest in three sliced-COO bands by column density "
                   "(cut1, cut2), each in the sub-format band1..3=thread|warp|block|csr; parts=P "
                   "blocks a slice; defaults measured per device",
    .options = "dense cut1 cut2 band1 band2 band3 parts",
    .convert = gf2_combined_convert,
    .apply = gf2_combined_apply,
    .bytes = gf2_combined_bytes,
    .destroy = gf2_combined_destroy,
    .stats = gf2_combined_stats,
    .gpu = SPIRA__GPU(&spira__gf2_combined_gpu),
};
