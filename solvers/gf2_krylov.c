/*
 * gf2_krylov.c - block Wiedemann's sequence a_i = X^T A^i Y over GF(2) (see
 * spira_gf2_krylov_sequence in spira.h): two blocks of ncols rows resident (A^i Y and the
 * next), one multiply and one inner product X^T (A^i Y) a term, the terms summed where the
 * context computes and copied to the host once at the end. A step moves the matrix (its
 * format's bytes), X and two blocks once each, and no host round trip.
 * Over the N devices of A's parts (gf2_devices.c) each holds X and both blocks whole: a step
 * multiplies its rows of A into its rows of the next block, sends those rows to the other
 * N - 1 (peer copies on its stream), and its next multiply waits for theirs (events); its
 * share of X^T v (its own rows) needs nothing from them. The events alternate by the step's
 * parity: the host queues step i on device 0, then device 1, so with one event a part,
 * device 1's wait for device 0's step i - 1 would find step i's record already made and
 * chain the devices one after the other (as they ran before: no faster on two GPUs). The
 * partial terms stay on their devices and are XORed on the host at the end. With N = 1 the same loop sends nothing.
 */
#include "gf2/gf2.h"
#include "gf2_bw.h"
#include "gf2_inner.h"

spira_status spira__gf2_square_spmv(spira_gf2_matrix M, spira_context ctx, int words,
                                    const uint64_t *x, uint64_t *y)
{
    int64_t m, n;
    SPIRA__TRY(spira_gf2_matrix_size(M, &m, &n, NULL));
    /* views of the n-row buffers: x as ncols rows, y's first nrows rows */
    struct spira_gf2_block_s vx = {ctx, (int32_t)n, words, (uint64_t *)x};
    struct spira_gf2_block_s vy = {ctx, (int32_t)m, words, y};
    if (m < n)
        SPIRA__TRY(spira__mem_zero(ctx, y + (size_t)m * words,
                                   (size_t)(n - m) * words * sizeof *y));
    return spira_gf2_spmv(M, &vx, &vy);
}

/* A part's blocks on its device: X (part 0: the caller's), the current and next A^i Y, the
 * partial terms; pushed[i & 1]: its rows of step i's next block are in every other part's. */
typedef struct {
    spira__gf2_part *p;
    uint64_t *x, *v, *v2, *acc;
    spira__event *pushed[2];
} part_blocks;

typedef struct {
    spira_context ctx;
    int np, words;
    int32_t m, n;
    size_t nb, ab, term; /* bytes of a block, of the terms; words of a term */
    part_blocks *b;
} seq;

/* Part d's blocks, on its context. */
static spira_status seq_alloc(seq *q, int d, spira_gf2_block X)
{
    part_blocks *b = &q->b[d];
    spira_context c = b->p->ctx;
    SPIRA__TRY(spira__context_activate(c));
    b->x = d ? NULL : X->data;
    if (d) SPIRA__TRY(spira__mem_alloc(c, (void **)&b->x, q->nb, "Krylov copy of X"));
    SPIRA__TRY(spira__mem_alloc(c, (void **)&b->v, q->nb, "Krylov block"));
    SPIRA__TRY(spira__mem_alloc(c, (void **)&b->v2, q->nb, "Krylov block"));
    SPIRA__TRY(spira__mem_alloc(c, (void **)&b->acc, q->ab, "Krylov sequence"));
    SPIRA__TRY(spira__mem_zero(c, b->acc, q->ab));
    for (int k = 0; k < 2 && q->np > 1; k++) SPIRA__TRY(spira__event_create(c, &b->pushed[k]));
    return SPIRA_OK;
}

/* Nothing of the parts is still running (their copies write into each other's blocks)
 * before any of it is freed. */
static void seq_free(seq *q)
{
    for (int d = 0; d < q->np; d++)
        if (spira__context_activate(q->b[d].p->ctx) == SPIRA_OK)
            spira_context_synchronize(q->b[d].p->ctx);
    for (int d = 0; d < q->np; d++) {
        part_blocks *b = &q->b[d];
        spira_context c = b->p->ctx;
        spira__context_activate(c);
        if (d) spira__mem_free(c, b->x);
        spira__mem_free(c, b->v), spira__mem_free(c, b->v2), spira__mem_free(c, b->acc);
        spira__event_destroy(c, b->pushed[0]), spira__event_destroy(c, b->pushed[1]);
    }
    spira__context_activate(q->ctx);
    spira__free(q->b);
}

/* Part d's v = Y and x = X, after what the caller queued on them (start, on ctx's
 * stream). */
static spira_status seq_start(seq *q, int d, spira__event *start, spira_gf2_block X,
                              spira_gf2_block Y)
{
    part_blocks *b = &q->b[d];
    spira_context c = b->p->ctx;
    SPIRA__TRY(spira__context_activate(c));
    SPIRA__TRY(spira__event_wait(c, 0, start));
    SPIRA__TRY(spira__mem_copy_peer(c, 0, b->v, c, Y->data, q->ctx, q->nb));
    if (d) SPIRA__TRY(spira__mem_copy_peer(c, 0, b->x, c, X->data, q->ctx, q->nb));
    return SPIRA_OK;
}

/* Part d's step i: its rows' share of a_i = X^T v (the padding rows past m with the last
 * part), then, unless i = L, once every part's rows of v are in (its own copies done too,
 * as v2 is last step's v): its rows of v2 = A v a chunk at a time, each chunk sent to
 * every other part's v2 on the side stream while the next is computed, and the padding
 * zeroed. */
static spira_status seq_step(seq *q, int d, int64_t i, int64_t L)
{
    part_blocks *b = &q->b[d];
    spira_context c = b->p->ctx;
    const int words = q->words;
    const int32_t r0 = b->p->r0, hi = d == q->np - 1 ? q->n : b->p->r1;
    SPIRA__TRY(spira__context_activate(c));
    if (hi > r0)
        SPIRA__TRY(spira__gf2_inner_into(c, hi - r0, words, b->x + (size_t)r0 * words,
                                         b->v + (size_t)r0 * words, b->acc + (size_t)i * q->term));
    if (i == L) return SPIRA_OK;
    for (int e = 0; i > 0 && e < q->np; e++)
        SPIRA__TRY(spira__event_wait(c, 0, q->b[e].pushed[(i - 1) & 1]));
    spira__gf2_part *p = b->p;
    for (int k = 0; k < p->nchunks; k++) {
        const int32_t lo = p->cut[k], up = p->cut[k + 1];
        const size_t off = (size_t)lo * words, bytes = (size_t)(up - lo) * words * sizeof(uint64_t);
        if (lo == up) continue;
        SPIRA__TRY(spira__gf2_chunk_apply(p, k, words, b->v, b->v2 + off));
        if (q->np == 1) continue; /* one device: nothing to send */
        SPIRA__TRY(spira__event_record(c, 0, p->chunk_done[k]));
        SPIRA__TRY(spira__event_wait(c, 1, p->chunk_done[k]));
        for (int e = 0; e < q->np; e++)
            if (e != d)
                SPIRA__TRY(spira__mem_copy_peer(c, 1, q->b[e].v2 + off, q->b[e].p->ctx,
                                                b->v2 + off, c, bytes));
    }
    if (q->m < q->n)
        SPIRA__TRY(spira__mem_zero(c, b->v2 + (size_t)q->m * words,
                                   (size_t)(q->n - q->m) * words * sizeof(uint64_t)));
    return spira__event_record(c, 1, b->pushed[i & 1]);
}

/* a = XOR over the parts of their terms. */
static spira_status seq_sum(seq *q, uint64_t *a)
{
    uint64_t *t = NULL;
    if (q->np > 1)
        SPIRA__TRY(spira__alloc(q->ctx, (void **)&t, q->ab, 1, "Krylov sequence of a device"));
    spira_status s = SPIRA_OK;
    for (int d = 0; d < q->np && s == SPIRA_OK; d++) {
        spira_context c = q->b[d].p->ctx;
        s = spira__context_activate(c);
        if (s == SPIRA_OK) s = spira__mem_download(c, d ? t : a, q->b[d].acc, q->ab);
        s = spira__part_error(q->ctx, c, s);
        for (size_t k = 0; d && s == SPIRA_OK && k < q->ab / sizeof *a; k++) a[k] ^= t[k];
    }
    spira__free(t);
    return s;
}

spira_status spira_gf2_krylov_sequence(spira_gf2_matrix A, spira_gf2_block X,
                                       spira_gf2_block Y, int64_t L, uint64_t *a)
{
    if (!A || !X || !Y) return SPIRA_ERR_INVALID_ARG;
    spira_context ctx = X->ctx;
    int64_t m, n;
    SPIRA__TRY(spira_gf2_matrix_size(A, &m, &n, NULL));
    if (Y->ctx != ctx || A->ctx != ctx)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) Krylov sequence: A, X and Y on "
                            "different contexts");
    if (X->words != Y->words || X->nrows != n || Y->nrows != n)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "GF(2) Krylov sequence: A is %lld x %lld; X (%d rows of %d bits) "
                            "and Y (%d of %d) must both be %lld rows of one width",
                            (long long)m, (long long)n, X->nrows, 64 * X->words, Y->nrows,
                            64 * Y->words, (long long)n);
    if (m > n)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "GF(2) Krylov sequence: A is %lld x "
                            "%lld, taller than wide (A^i needs a square A, or a wide one "
                            "padded with zero rows)", (long long)m, (long long)n);
    if (L < 0 || !a)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) Krylov sequence: L = %lld, "
                            "a %s", (long long)L, a ? "given" : "NULL");
    const int words = X->words;
    const size_t term = (size_t)64 * words * words; /* words of one W x W matrix */
    if ((uint64_t)L + 1 > SIZE_MAX / 8 / term)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) Krylov sequence: %lld terms "
                            "overflow", (long long)L + 1);
    SPIRA__TRY(spira__gf2_parts_prepare(A, words, NULL));
    spira__gf2_part *parts;
    seq q = {ctx, 0, words, (int32_t)m, (int32_t)n, (size_t)n * words * sizeof(uint64_t),
             ((size_t)L + 1) * term * 8, term, NULL};
    SPIRA__TRY(spira__gf2_parts(A, &parts, &q.np));
    SPIRA__TRY(spira__alloc(ctx, (void **)&q.b, (size_t)q.np, sizeof *q.b, "Krylov parts"));
    for (int d = 0; d < q.np; d++) q.b[d] = (part_blocks){&parts[d], NULL, NULL, NULL, NULL, {NULL}};
    spira_status s = SPIRA_OK;
    for (int d = 0; d < q.np && s == SPIRA_OK; d++)
        s = spira__part_error(ctx, parts[d].ctx, seq_alloc(&q, d, X));
    if (s == SPIRA_OK && q.np > 1) s = spira__event_record(ctx, 0, A->start);
    for (int d = 0; d < q.np && s == SPIRA_OK; d++)
        s = spira__part_error(ctx, parts[d].ctx, seq_start(&q, d, A->start, X, Y));
    /* a_i = X^T v, v <- [A; 0] v: each part its rows, then the rows exchanged */
    for (int64_t i = 0; i <= L && s == SPIRA_OK; i++) {
        for (int d = 0; d < q.np && s == SPIRA_OK; d++)
            s = spira__part_error(ctx, parts[d].ctx, seq_step(&q, d, i, L));
        for (int d = 0; d < q.np; d++) {
            uint64_t *t = q.b[d].v;
            q.b[d].v = q.b[d].v2, q.b[d].v2 = t;
        }
    }
    if (s == SPIRA_OK) s = seq_sum(&q, a);
    seq_free(&q);
    return s;
}
