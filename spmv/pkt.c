/*
 * pkt.c - host side of the packet format (Bell & Garland 2008, "PKT"; layout in pkt.h):
 * conversion from canonical CSR, the CPU reference over the packet layout, bytes, stats.
 *
 * Conversion: (1) partition the rows (pkt_partition.c) and cut every part into packets of
 * at most `rows` rows (default 2048: the packet's x slice, rows * sizeof(value) bytes, sits
 * in shared memory: 16 KB in double); (2) an entry is inside when its column is a row of
 * the same packet; a row with more inside entries than max(32, 2 * ceil(inside nnz of the
 * packet / threads)) goes to the remainder whole, which bounds the padding a single long
 * row would otherwise cause every other thread of its packet; (3) rows are packed onto the
 * block's threads by the greedy least-occupied rule of the paper, taking rows longest first
 * (LPT, which keeps the greedy within 4/3 of the best balance); a row with no inside entry
 * still gets one placeholder slot so its y entry is written (with beta) by the packet
 * kernel; (4) everything else forms the remainder, a row-compressed COO.
 *
 * Square matrices only: the x slice of a packet is indexed by its rows. A non-square
 * matrix is refused (SPIRA_ERR_UNSUPPORTED).
 */
#include "pkt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pkt_destroy(void *layout)
{
    spira__pkt *P = (spira__pkt *)layout;
    if (!P) return;
    spira__free(P->row_begin);
    spira__free(P->rows);
    spira__free(P->entry_begin);
    spira__free(P->steps);
    spira__free(P->words);
    spira__free(P->vals);
    spira__free(P->rem_rows);
    spira__free(P->rem_ptr);
    spira__free(P->rem_cols);
    spira__free(P->rem_vals);
    spira__free(P);
}

/* Rows grouped by part (ascending within each), parts longer than target cut into
 * consecutive pieces: fills P->row_begin, P->rows, P->npackets, P->max_rows. */
static spira_status make_packets(spira_context ctx, spira__pkt *P, const int32_t *part,
                                 int32_t nparts, int32_t target)
{
    int32_t n = P->nrows, *cnt = NULL;
    SPIRA__TRY(spira__alloc(ctx, (void **)&cnt, (size_t)nparts + 1, sizeof *cnt, "PKT part sizes"));
    memset(cnt, 0, ((size_t)nparts + 1) * sizeof *cnt);
    for (int32_t i = 0; i < n; i++) cnt[part[i] + 1]++;
    int64_t npk = 0;
    for (int32_t q = 0; q < nparts; q++) npk += (cnt[q + 1] + target - 1) / target;
    for (int32_t q = 0; q < nparts; q++) cnt[q + 1] += cnt[q]; /* part starts in rows[] */
    spira_status s = spira__alloc(ctx, (void **)&P->row_begin, (size_t)npk + 1,
                                  sizeof *P->row_begin, "PKT packet rows");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&P->rows, (size_t)n + 1, sizeof *P->rows, "PKT row list");
    if (s == SPIRA_OK) {
        int32_t *fill = cnt; /* counting sort: rows ascending inside each part */
        for (int32_t i = 0; i < n; i++) P->rows[fill[part[i]]++] = i;
        /* fill[q] is now the end of part q; its start is fill[q-1] (0 for q = 0) */
        int32_t k = 0, start = 0;
        P->max_rows = 0;
        for (int32_t q = 0; q < nparts; q++) {
            for (int32_t b = start; b < fill[q]; b += target) {
                int32_t e = b + target < fill[q] ? b + target : fill[q];
                P->row_begin[k++] = b;
                if (e - b > P->max_rows) P->max_rows = e - b;
            }
            start = fill[q];
        }
        P->row_begin[k] = n;
        P->npackets = k;
    }
    spira__free(cnt);
    return s;
}

/* qsort order for packing: more work first, then lower local index */
static int cmp_key(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Min-heap of threads by load (ties: lower thread), for the greedy least-occupied rule. */
static int heap_less(const int64_t *load, int32_t a, int32_t b)
{
    return load[a] < load[b] || (load[a] == load[b] && a < b);
}
static void heap_down(int32_t *h, int32_t n, int32_t i, const int64_t *load)
{
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= n) return;
        if (c + 1 < n && heap_less(load, h[c + 1], h[c])) c++;
        if (!heap_less(load, h[c], h[i])) return;
        int32_t t = h[i];
        h[i] = h[c];
        h[c] = t;
        i = c;
    }
}

typedef struct {
    int32_t *pkt_of, *loc;    /* packet and local index of every row */
    int32_t *ins;             /* inside entries of every row (0 for a row sent away) */
    int32_t *thread, *kstart; /* its thread and first slot in that thread's list */
    int64_t *keys, *load;
    int32_t *heap;
} work;

/* Classify entries and pack rows onto threads for every packet: fills w->ins, thread,
 * kstart, P->steps, P->entry_begin, and the counts of inside / long rows. */
static spira_status pack_rows(spira_context ctx, spira__pkt *P, const spira__csr *A, work *w)
{
    int32_t T = P->threads;
    int64_t slab = 0;
    P->inside_nnz = P->long_rows = 0;
    for (int32_t p = 0; p < P->npackets; p++) {
        int32_t rb = P->row_begin[p], nr = P->row_begin[p + 1] - rb;
        int64_t total = 0;
        for (int32_t r = 0; r < nr; r++) {
            int32_t i = P->rows[rb + r], c = 0;
            for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
                c += w->pkt_of[A->col_idx[k]] == p;
            w->ins[i] = c;
            total += c;
        }
        int64_t cap = 2 * ((total + T - 1) / T);
        if (cap < 32) cap = 32;
        for (int32_t r = 0; r < nr; r++) {
            int32_t i = P->rows[rb + r];
            if (w->ins[i] > cap) {
                w->ins[i] = 0;
                P->long_rows++;
            }
            P->inside_nnz += w->ins[i];
            int32_t work_r = w->ins[i] ? w->ins[i] : 1; /* a placeholder is one slot */
            w->keys[r] = ((int64_t)(INT32_MAX - work_r) << 32) | r;
        }
        qsort(w->keys, (size_t)nr, sizeof *w->keys, cmp_key);
        for (int32_t t = 0; t < T; t++) {
            w->load[t] = 0;
            w->heap[t] = t;
        }
        for (int32_t r = 0; r < nr; r++) { /* each row to the least-occupied thread */
            int32_t i = P->rows[rb + (int32_t)(w->keys[r] & 0xffffffff)], t = w->heap[0];
            w->thread[i] = t;
            w->kstart[i] = (int32_t)w->load[t];
            w->load[t] += w->ins[i] ? w->ins[i] : 1;
            heap_down(w->heap, T, 0, w->load);
        }
        int64_t steps = 0;
        for (int32_t t = 0; t < T; t++)
            if (w->load[t] > steps) steps = w->load[t];
        P->steps[p] = (int32_t)steps;
        P->entry_begin[p] = (int32_t)slab;
        slab += steps * T;
        if (slab > INT32_MAX)
            return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                                "pkt refuses the matrix: its packets need more than 2^31 slots "
                                "(%lld so far)", (long long)slab);
    }
    P->entry_begin[P->npackets] = (int32_t)slab;
    return SPIRA_OK;
}

/* Write the slabs and the remainder from A, w as packed by pack_rows. */
static spira_status fill(spira_context ctx, spira__pkt *P, const spira__csr *A, const work *w)
{
    size_t vb = spira_dtype_size(A->dtype);
    int32_t T = P->threads, n = A->nrows, slab = P->entry_begin[P->npackets];
    SPIRA__TRY(spira__alloc(ctx, (void **)&P->words, (size_t)slab + 1, sizeof *P->words, "PKT slabs"));
    SPIRA__TRY(spira__alloc(ctx, &P->vals, (size_t)slab + 1, vb, "PKT values"));
    for (int32_t e = 0; e < slab; e++) P->words[e] = SPIRA__PKT_PAD;
    memset(P->vals, 0, ((size_t)slab + 1) * vb); /* 0 bits are 0.0 in IEEE float and double */
    int32_t rem_rows = 0, rem_nnz = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t outside = (A->row_ptr[i + 1] - A->row_ptr[i]) - w->ins[i];
        rem_nnz += outside;
        rem_rows += outside > 0;
    }
    P->rem_nrows = rem_rows;
    P->rem_nnz = rem_nnz;
    SPIRA__TRY(spira__alloc(ctx, (void **)&P->rem_rows, (size_t)rem_rows + 1, sizeof(int32_t), "PKT remainder rows"));
    SPIRA__TRY(spira__alloc(ctx, (void **)&P->rem_ptr, (size_t)rem_rows + 1, sizeof(int32_t), "PKT remainder pointers"));
    SPIRA__TRY(spira__alloc(ctx, (void **)&P->rem_cols, (size_t)rem_nnz + 1, sizeof(int32_t), "PKT remainder columns"));
    SPIRA__TRY(spira__alloc(ctx, &P->rem_vals, (size_t)rem_nnz + 1, vb, "PKT remainder values"));
    const char *av = (const char *)A->val;
    char *pv = (char *)P->vals, *rv = (char *)P->rem_vals;
    int32_t rr = 0, rk = 0;
    P->rem_ptr[0] = 0;
    for (int32_t i = 0; i < n; i++) { /* rows in ascending order: the remainder is row-sorted */
        int32_t p = w->pkt_of[i], rb = P->row_begin[p];
        int64_t base = (int64_t)P->entry_begin[p] + w->thread[i];
        int32_t k = w->kstart[i], had = rk;
        uint32_t lr = (uint32_t)w->loc[i] << 16;
        if (w->ins[i] == 0) { /* placeholder: write y (beta) but add no product */
            P->words[base + (int64_t)k * T] = lr | SPIRA__PKT_NOCOL;
        }
        for (int32_t e = A->row_ptr[i]; e < A->row_ptr[i + 1]; e++) {
            int32_t j = A->col_idx[e];
            if (w->ins[i] && w->pkt_of[j] == p) {
                int64_t slot = base + (int64_t)k++ * T;
                P->words[slot] = lr | (uint32_t)w->loc[j];
                memcpy(pv + slot * vb, av + (size_t)e * vb, vb);
            } else {
                P->rem_cols[rk] = j;
                memcpy(rv + (size_t)rk * vb, av + (size_t)e * vb, vb);
                rk++;
            }
        }
        if (rk > had) {
            P->rem_rows[rr] = i;
            P->rem_ptr[++rr] = rk;
        }
        (void)rb;
    }
    return SPIRA_OK;
}

static spira_status convert(spira_context ctx, const spira__csr *A, const char *opts,
                            spira__pkt *P)
{
    static const char *const partitions[] = {"metis", "rcm", NULL};
    long target, threads;
    size_t vb = spira_dtype_size(A->dtype);
#ifdef HAVE_METIS
    const int default_partition = 0;
#else
    const int default_partition = 1;
#endif
    int partition;
    SPIRA__TRY(spira__opt_word(ctx, opts, "partition", partitions, default_partition, &partition));
    int use_metis = partition == 0;
#ifndef HAVE_METIS
    if (use_metis)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "pkt option partition=metis: Spira was built without METIS");
#endif
    SPIRA__TRY(spira__opt_long(ctx, opts, "rows", 2048, &target));
    SPIRA__TRY(spira__opt_long(ctx, opts, "threads", 256, &threads));
    long max_target = (long)(48 * 1024 / vb); /* the default shared-memory limit per block */
    if (target < 1 || target > max_target)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "pkt option rows=%ld: 1 to %ld (the x slice must fit 48 KB)", target,
                            max_target);
    if (threads < 32 || threads > 1024 || threads % 32)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "pkt option threads=%ld: a multiple of 32 from 32 to 1024", threads);
    P->threads = (int32_t)threads;
    int32_t n = A->nrows, *part = NULL, nparts = 0;
    work w = {0};
    spira_status s = spira__alloc(ctx, (void **)&part, (size_t)n + 1, sizeof *part, "PKT partition");
    /* the partition's share of the conversion goes into the stats: it is what stays on the
     * host (pkt_partition.c says why), the rest is packing that a GPU build could take */
    const double t0 = spira__now_ms();
    if (s == SPIRA_OK)
        s = spira__pkt_partition(ctx, A, (int32_t)target, use_metis, part, &nparts, &P->metis);
    const double t1 = spira__now_ms();
    if (s == SPIRA_OK) s = make_packets(ctx, P, part, nparts, (int32_t)target);
    size_t n1 = (size_t)n + 1, np1 = (size_t)P->npackets + 1;
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&w.pkt_of, n1, sizeof(int32_t), "PKT row packets");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&w.loc, n1, sizeof(int32_t), "PKT local rows");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&w.ins, n1, sizeof(int32_t), "PKT inside counts");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&w.thread, n1, sizeof(int32_t), "PKT threads");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&w.kstart, n1, sizeof(int32_t), "PKT slots");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&w.keys, (size_t)P->max_rows + 1, sizeof(int64_t), "PKT order");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&w.load, (size_t)threads, sizeof(int64_t), "PKT loads");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&w.heap, (size_t)threads, sizeof(int32_t), "PKT heap");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&P->steps, np1, sizeof(int32_t), "PKT steps");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&P->entry_begin, np1, sizeof(int32_t), "PKT slab offsets");
    if (s == SPIRA_OK) {
        for (int32_t p = 0; p < P->npackets; p++)
            for (int32_t r = P->row_begin[p]; r < P->row_begin[p + 1]; r++) {
                w.pkt_of[P->rows[r]] = p;
                w.loc[P->rows[r]] = r - P->row_begin[p];
            }
        s = pack_rows(ctx, P, A, &w);
    }
    if (s == SPIRA_OK) s = fill(ctx, P, A, &w);
    if (s == SPIRA_OK) {
        int32_t slab = P->entry_begin[P->npackets];
        snprintf(P->stats, sizeof P->stats,
                 "pkt: partition %s, %d packets of <= %d rows, %d threads; %.1f%% of nonzeros "
                 "inside packets, %d in the COO remainder (%d long rows), slab fill %.1f%%; "
                 "host ms: partition %.1f, packets %.1f",
                 P->metis ? "metis" : "rcm", P->npackets, P->max_rows, P->threads,
                 A->nnz ? 100.0 * P->inside_nnz / A->nnz : 100.0, P->rem_nnz, P->long_rows,
                 slab ? 100.0 * P->inside_nnz / slab : 100.0, t1 - t0, spira__now_ms() - t1);
    }
    spira__free(part);
    spira__free(w.pkt_of);
    spira__free(w.loc);
    spira__free(w.ins);
    spira__free(w.thread);
    spira__free(w.kstart);
    spira__free(w.keys);
    spira__free(w.load);
    spira__free(w.heap);
    return s;
}

static spira_status pkt_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                void **layout)
{
    *layout = NULL;
    if (A->nrows != A->ncols)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "pkt refuses a %d x %d matrix: a packet's x slice is indexed by its "
                            "own rows, so the matrix must be square",
                            A->nrows, A->ncols);
    spira__pkt *P = NULL;
    SPIRA__TRY(spira__alloc(ctx, (void **)&P, 1, sizeof *P, "PKT layout"));
    memset(P, 0, sizeof *P);
    P->nrows = A->nrows;
    P->ncols = A->ncols;
    P->dtype = A->dtype;
    spira_status s = convert(ctx, A, opts, P);
    if (s != SPIRA_OK) {
        pkt_destroy(P);
        return s;
    }
    *layout = P;
    return SPIRA_OK;
}

/* The kernels' arithmetic on the CPU: packet by packet, thread by thread, slot by slot,
 * each row summed where its thread finds it, then the remainder added (pkt_gpu.cu). */
static void pkt_apply(const void *layout, double alpha, const void *x, double beta, void *y)
{
    const spira__pkt *P = (const spira__pkt *)layout;
    spira_dtype t = P->dtype;
    for (int32_t p = 0; p < P->npackets; p++) {
        const int32_t *rows = P->rows + P->row_begin[p];
        for (int32_t th = 0; th < P->threads; th++) {
            int32_t cur = -1;
            double sum = 0;
            for (int32_t k = 0; k <= P->steps[p]; k++) {
                int64_t slot = (int64_t)P->entry_begin[p] + (int64_t)k * P->threads + th;
                uint32_t wd = k < P->steps[p] ? P->words[slot] : SPIRA__PKT_PAD;
                int32_t lr = (int32_t)(wd >> 16), lc = (int32_t)(wd & 0xffff);
                if (wd == SPIRA__PKT_PAD || lr != cur) { /* the row in hand is complete */
                    if (cur >= 0) {
                        int32_t g = rows[cur];
                        spira__set(y, t, g, beta == 0 ? alpha * sum
                                                      : alpha * sum + beta * spira__get(y, t, g));
                    }
                    if (wd == SPIRA__PKT_PAD) break;
                    cur = lr;
                    sum = 0;
                }
                if (lc != SPIRA__PKT_NOCOL)
                    sum += spira__get(P->vals, t, slot) * spira__get(x, t, rows[lc]);
            }
        }
    }
    for (int32_t r = 0; r < P->rem_nrows; r++) {
        double sum = 0;
        for (int32_t k = P->rem_ptr[r]; k < P->rem_ptr[r + 1]; k++)
            sum += spira__get(P->rem_vals, t, k) * spira__get(x, t, P->rem_cols[k]);
        int32_t g = P->rem_rows[r];
        spira__set(y, t, g, spira__get(y, t, g) + alpha * sum);
    }
}

static size_t pkt_bytes(const void *layout)
{
    const spira__pkt *P = (const spira__pkt *)layout;
    size_t vb = spira_dtype_size(P->dtype), slab = (size_t)P->entry_begin[P->npackets];
    return ((size_t)P->npackets * 3 + 2) * sizeof(int32_t) /* row_begin, entry_begin, steps */
           + (size_t)P->nrows * sizeof(int32_t)              /* rows */
           + slab * (sizeof(uint32_t) + vb)                  /* words, values */
           + ((size_t)P->rem_nrows * 2 + 1 + P->rem_nnz) * sizeof(int32_t) + (size_t)P->rem_nnz * vb;
}

static const char *pkt_stats(const void *layout)
{
    return ((const spira__pkt *)layout)->stats;
}

extern const spira__format_gpu spira__pkt_gpu;

const spira__format spira__pkt_format = {
    .name = "pkt",
    .description = "packet format (Bell & Garland 2008): rows partitioned (METIS, or RCM "
                   "blocks) into packets whose x slice sits in shared memory, rows packed onto "
                   "threads, remainder in COO; square matrices (partition=metis|rcm, rows=N, "
                   "threads=N)",
    .options = "partition rows threads",
    .convert = pkt_convert,
    .apply = pkt_apply,
    .bytes = pkt_bytes,
    .destroy = pkt_destroy,
    .stats = pkt_stats,
    .gpu = SPIRA__GPU(&spira__pkt_gpu),
};
