/*
 * reorder.c - the solvers' locality option: P A P^T for an ordering of lib/reorder.c, with
 * the permutation and its inverse placed where the context computes, kept in A's cache
 * under "reorder:NAME" (lib/ destroys it through the entry's function, never calling up).
 */
#include "reorder.h"
#include "spmv.h"

#include <stdio.h>
#include <string.h>

const char *spira__reorder_name(spira_reorder kind)
{
    switch (kind) {
    case SPIRA_REORDER_NONE: return "none";
    case SPIRA_REORDER_RCM: return "rcm";
    case SPIRA_REORDER_DEGREE: return "degree";
    }
    return NULL;
}

static void reordered_destroy(void *p)
{
    spira__reordered *R = p;
    if (!R) return;
    spira_matrix_destroy(R->PA);
    spira__mem_free(R->ctx, R->perm);
    spira__mem_free(R->ctx, R->iperm);
    spira__free(R->host_perm);
    spira__free(R);
}

/* The ordering, P A P^T and the two index arrays, into a new R. */
static spira_status build(spira_matrix A, spira_reorder kind, spira__reordered **out)
{
    spira_context ctx = A->ctx;
    const int32_t n = A->csr.nrows;
    const size_t bytes = ((size_t)n + 1) * sizeof(int32_t);
    int32_t *perm = NULL, *iperm = NULL;
    spira__csr B = {0};
    *out = NULL;
    spira__reordered *R = spira__calloc(1, sizeof *R);
    spira_status s = R ? SPIRA_OK : spira__nomem(ctx, "reordered matrix", sizeof *R);
    if (s == SPIRA_OK) {
        R->ctx = ctx;
        R->kind = kind;
        s = spira__alloc(ctx, (void **)&perm, (size_t)n + 1, sizeof *perm, "permutation");
    }
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&iperm, (size_t)n + 1, sizeof *iperm, "inverse permutation");
    if (s == SPIRA_OK) s = spira__csr_reorder(ctx, &A->csr, kind, perm, &B);
    if (s == SPIRA_OK)
        for (int32_t k = 0; k < n; k++) iperm[perm[k]] = k;
    if (s == SPIRA_OK) {
        R->band_before = spira__csr_bandwidth(&A->csr);
        R->band_after = spira__csr_bandwidth(&B);
        s = spira__matrix_wrap(ctx, &B, A->symmetric, &R->PA); /* takes B, on failure too */
        memset(&B, 0, sizeof B);
    }
    if (s == SPIRA_OK) s = spira__mem_alloc(ctx, (void **)&R->perm, bytes, "permutation");
    if (s == SPIRA_OK) s = spira__mem_alloc(ctx, (void **)&R->iperm, bytes, "inverse permutation");
    if (s == SPIRA_OK) s = spira__mem_upload(ctx, R->perm, perm, bytes);
    if (s == SPIRA_OK) s = spira__mem_upload(ctx, R->iperm, iperm, bytes);
    if (s == SPIRA_OK) s = spira_context_synchronize(ctx); /* perm, iperm: host, freed below */
    if (s == SPIRA_OK) R->host_perm = perm, perm = NULL;
    spira__free(perm);
    spira__free(iperm);
    if (s != SPIRA_OK) {
        spira__csr_free(&B);
        reordered_destroy(R);
        return s;
    }
    *out = R;
    return SPIRA_OK;
}

spira_status spira__reordered_get(spira_matrix A, spira_reorder kind, spira__reordered **R,
                                  double *paid_ms)
{
    char key[64];
    *R = NULL;
    *paid_ms = 0;
    snprintf(key, sizeof key, "reorder:%s", spira__reorder_name(kind));
    spira__cache_entry *e = spira__matrix_cache_find(A, key);
    if (!e) {
        double t0 = spira__now_ms();
        spira__reordered *built;
        SPIRA__TRY(build(A, kind, &built));
        *paid_ms = spira__now_ms() - t0;
        SPIRA__TRY(spira__matrix_cache_put(A, key, built, reordered_destroy, *paid_ms, &e));
    }
    *R = e->plan;
    /* A's format may have been named since (or be auto's): P A P^T follows it */
    return spira__matrix_format_follow((*R)->PA, A);
}

spira_status spira__reordered_back(const spira__reordered *R, spira_status s, spira_reason *reason,
                                   spira_vector pv, spira_vector v)
{
    if (*reason == SPIRA_STOPPED_ERROR) return s;
    spira_status t = spira__vector_gather(pv, R->iperm, v);
    if (t == SPIRA_OK) return s;
    *reason = SPIRA_STOPPED_ERROR;
    return t;
}
