/*
 * fuzz_mm.c - libFuzzer target for the Matrix Market parser: any bytes, parsed from an
 * exact-size buffer in both precisions. Every input must give a status, never a crash or
 * a leak; an accepted matrix must be canonical CSR with finite values (the reader refuses
 * NaN and Inf) and must multiply. The parallel reader, cut into 2 to 9 stretches, must
 * give what the sequential one gives: the same status and message, the same arrays; both
 * its ways, the fast path (lib/mmio_fast.c, which declines what it is unsure of) and the
 * runs. The fast path alone must never take text the sequential reader refuses, but for a
 * sum of repeated entries beyond the range, with the same message.
 */
#include "mmio.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A matrix as the comparisons need it: its shape, symmetry flag and a hash of its arrays,
 * so that the harness holds one matrix at a time (two at once, each a row_ptr of 29 MB for
 * a 90-byte file declaring 7.2e6 rows, went past the fuzzer's 64 MB bound). */
typedef struct {
    int sym;
    int32_t nrows, ncols;
    int64_t nnz;
    uint64_t hash;
} digest;

/* FNV-1a's step over 8 bytes at a time (then the tail's bytes): a row_ptr of 29 MB is
 * hashed in the fuzzer's instrumented build in a fraction of a second */
static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, c + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
    }
    for (; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ull;
    return h;
}

static digest digest_of(const spira__csr *A, int sym, spira_dtype dt)
{
    digest d = {sym, A->nrows, A->ncols, A->nnz, 0xcbf29ce484222325ull};
    d.hash = fnv1a(d.hash, A->row_ptr, sizeof(int32_t) * ((size_t)A->nrows + 1));
    if (A->nnz) {
        d.hash = fnv1a(d.hash, A->col_idx, sizeof(int32_t) * (size_t)A->nnz);
        d.hash = fnv1a(d.hash, A->val, spira_dtype_size(dt) * (size_t)A->nnz);
    }
    return d;
}

/* The same matrix, bit for bit (up to the hash). */
static int same(const spira__csr *A, int sym, spira_dtype dt, digest want)
{
    const digest d = digest_of(A, sym, dt);
    return d.sym == want.sym && d.nrows == want.nrows && d.ncols == want.ncols &&
           d.nnz == want.nnz && d.hash == want.hash;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static spira_context ctx;
    if (!ctx) {
        /* a small budget: huge but legal declared sizes are refused at the size line. The
         * budget bounds each allocation, and a parse holds about two of its size at once
         * (a row_ptr and the reader's counts: 55 MB at 7.2e6 rows), so 16 MB keeps a parse
         * well inside the fuzzer's bound of 64 MB above the input (tests/fuzz/bound.c) */
        spira_context_opts o = {.backend = SPIRA_BACKEND_CPU, .max_bytes = (size_t)16 << 20};
        if (spira_context_create(&ctx, &o) != SPIRA_OK) abort();
        spira__alloc_limit((size_t)256 << 20); /* a backstop for any allocation that skips the budget */
    }
    /* a copy of exactly size bytes, so reading one past the end is caught by ASan */
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    for (size_t i = 0; i < size; i++) text[i] = (char)data[i];
    for (int t = 0; t < 2; t++) {
        spira__csr A;
        int sym = 0;
        spira_dtype dt = t ? SPIRA_R32 : SPIRA_R64;
        spira__csr B;
        int bsym = 0;
        char msg[1024];
        spira_status s = spira__mm_parse_chunks(ctx, "fuzz", text, size, dt, SPIRA__MM_TRIPLETS,
                                                &B, &bsym);
        snprintf(msg, sizeof msg, "%s", spira_last_error(ctx));
        digest want = {0};
        if (s == SPIRA_OK) {
            want = digest_of(&B, bsym, dt);
            spira__csr_free(&B);
        }
        spira_status fs = SPIRA_OK;
        int took = spira__mm_fast_csr(ctx, "fuzz", text, size, dt, 1 + (int)(size % 3), &A, &sym, &fs);
        if (took && (fs != s || (s != SPIRA_OK && strcmp(msg, spira_last_error(ctx))) ||
                     (s == SPIRA_OK && !same(&A, sym, dt, want))))
            abort();
        if (took && s == SPIRA_OK) spira__csr_free(&A);
        for (int runs = 0; runs < 2; runs++) {
            spira_status p = spira__mm_parse_chunks(ctx, "fuzz", text, size, dt,
                                                    (2 + (int)(size % 8)) |
                                                        (runs ? SPIRA__MM_NO_FAST : 0),
                                                    &A, &sym);
            if (p != s || (s != SPIRA_OK && strcmp(msg, spira_last_error(ctx)))) abort();
            if (s != SPIRA_OK) break;
            if (!same(&A, sym, dt, want)) abort();
            if (!runs) spira__csr_free(&A);
        }
        if (s != SPIRA_OK) continue;
        for (int32_t i = 0; i < A.nrows; i++) {
            if (A.row_ptr[i] > A.row_ptr[i + 1]) abort();
            for (int32_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++)
                if (A.col_idx[k] < 0 || A.col_idx[k] >= A.ncols ||
                    (k > A.row_ptr[i] && A.col_idx[k] <= A.col_idx[k - 1]) ||
                    !isfinite(spira__get(A.val, A.dtype, k)))
                    abort();
        }
        /* the multiply's vectors are this harness's, inside the fuzzer's 64 MB bound with
         * A: a file of 90 bytes declaring 7.2e6 rows (a row_ptr of 29 MB, in the reader's
         * budget) made a y of 58 MB */
        if ((size_t)A.ncols + (size_t)A.nrows <= ((size_t)1 << 21)) {
            double *x = calloc((size_t)A.ncols + 1, sizeof *x), *y = malloc(((size_t)A.nrows + 1) * sizeof *y);
            if (x && y) spira__csr_spmv_f64(&A, 1.0, x, 0.0, y);
            free(x);
            free(y);
        }
        spira__csr_free(&A);
    }
    free(text);
    return 0;
}
