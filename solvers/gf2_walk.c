/*
 * gf2_walk.c - what both searches for ker M over GF(2) share: gf2_kernel.c's 64 Wiedemann
 * runs in the bits of a word and gf2_block_wiedemann.c's block Wiedemann. Both end the
 * same way: a block u whose lanes hold g(M) z for a generator g, walked u, M u, M^2 u, ...
 * until a lane's vector is nonzero and its image zero (a kernel vector, caught by that very
 * multiply), and what was caught multiplied once more to check it. Here too: the counted
 * square multiply, which lanes of a block are not zero, the random start, and the info
 * both report.
 */
#include "gf2_bw.h"

spira_status spira__gf2_walk_mul(spira__gf2_walk *w, const uint64_t *x, uint64_t *y)
{
    w->spmvs++;
    return spira__gf2_square_spmv(w->M, w->ctx, 1, x, y);
}

spira_status spira__gf2_walk_lanes(spira__gf2_walk *w, const uint64_t *x, uint64_t *out)
{
    SPIRA__TRY(spira__mem_zero(w->ctx, w->word, sizeof *w->word));
    SPIRA__TRY(spira__gf2_or_into(w->ctx, w->n, x, w->word));
    return spira__mem_download(w->ctx, out, w->word, sizeof *out);
}

spira_status spira__gf2_walk_catch(spira__gf2_walk *w, uint64_t lanes, int64_t steps,
                                   uint64_t *u, uint64_t *a, uint64_t *b, uint64_t *K,
                                   uint64_t *found)
{
    uint64_t nz;
    SPIRA__TRY(spira__gf2_walk_lanes(w, u, &nz));
    uint64_t alive = lanes & nz, *cur = u, *next = a, *spare = b;
    for (int64_t t = 0; t < steps && alive; t++) {
        SPIRA__TRY(spira__gf2_walk_mul(w, cur, next));
        uint64_t nz_next;
        SPIRA__TRY(spira__gf2_walk_lanes(w, next, &nz_next));
        const uint64_t caught = alive & ~nz_next;
        if (caught) SPIRA__TRY(spira__gf2_xor_masked(w->ctx, w->n, cur, caught, K));
        *found |= caught;
        alive &= nz_next;
        uint64_t *tmp = cur;
        cur = next, next = spare, spare = tmp;
    }
    return SPIRA_OK;
}

spira_status spira__gf2_walk_verify(spira__gf2_walk *w, uint64_t *K, uint64_t *scratch,
                                    uint64_t *found)
{
    uint64_t bad;
    SPIRA__TRY(spira__gf2_walk_mul(w, K, scratch));
    SPIRA__TRY(spira__gf2_walk_lanes(w, scratch, &bad));
    bad &= *found;
    if (bad) SPIRA__TRY(spira__gf2_xor_masked(w->ctx, w->n, K, bad, K));
    *found &= ~bad;
    return SPIRA_OK;
}

spira_status spira__gf2_random_pair(spira_context ctx, int32_t n, uint64_t seed, uint64_t *d0,
                                    uint64_t *d1, const char *what)
{
    uint64_t *h = NULL;
    SPIRA__TRY(spira__alloc(ctx, (void **)&h, (size_t)n + 1, sizeof *h, what));
    uint64_t st = seed ? seed : UINT64_C(0x9e3779b97f4a7c15);
    spira_status s = SPIRA_OK;
    for (int k = 0; k < 2 && s == SPIRA_OK; k++) {
        for (int32_t i = 0; i < n; i++) h[i] = spira__xorshift64(&st);
        s = spira__mem_upload(ctx, k ? d1 : d0, h, (size_t)n * sizeof *h);
    }
    spira__free(h);
    return s;
}

spira_status spira__gf2_kernel_done(spira_context ctx, spira_gf2_kernel_info *out, uint64_t found,
                                    int64_t spmvs, const double t[3], spira_gf2_kernel_info *info,
                                    const char *none)
{
    out->lanes = found;
    out->found = __builtin_popcountll(found);
    out->spmvs = spmvs;
    out->sequence_ms = t[1] - t[0];
    out->bm_ms = t[2] - t[1];
    out->evaluate_ms = spira__now_ms() - t[2];
    if (info) *info = *out;
    if (!found)
        return spira__error(ctx, SPIRA_ERR_NOT_CONVERGED, "GF(2) kernel: %s %d): M may be "
                            "nonsingular; try another seed", none, out->degree);
    return SPIRA_OK;
}
