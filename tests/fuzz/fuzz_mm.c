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

/* The same matrix, bit for bit. */
static int same(const spira__csr *A, const spira__csr *B, int sym, int bsym, spira_dtype dt)
{
    return sym == bsym && A->nrows == B->nrows && A->ncols == B->ncols && A->nnz == B->nnz &&
           !memcmp(A->row_ptr, B->row_ptr, sizeof(int32_t) * ((size_t)A->nrows + 1)) &&
           (!A->nnz || (!memcmp(A->col_idx, B->col_idx, sizeof(int32_t) * (size_t)A->nnz) &&
                        !memcmp(A->val, B->val, spira_dtype_size(dt) * (size_t)A->nnz)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static spira_context ctx;
    if (!ctx) {
        /* a small budget: huge but legal declared sizes are refused at the size line */
        spira_context_opts o = {.backend = SPIRA_BACKEND_CPU, .max_bytes = (size_t)64 << 20};
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
        spira_status fs = SPIRA_OK;
        int took = spira__mm_fast_csr(ctx, "fuzz", text, size, dt, 1 + (int)(size % 3), &A, &sym, &fs);
        if (took && (fs != s || (s != SPIRA_OK && strcmp(msg, spira_last_error(ctx))) ||
                     (s == SPIRA_OK && !same(&A, &B, sym, bsym, dt))))
            abort();
        if (took && s == SPIRA_OK) spira__csr_free(&A);
        for (int runs = 0; runs < 2; runs++) {
            spira_status p = spira__mm_parse_chunks(ctx, "fuzz", text, size, dt,
                                                    (2 + (int)(size % 8)) |
                                                        (runs ? SPIRA__MM_NO_FAST : 0),
                                                    &A, &sym);
            if (p != s || (s != SPIRA_OK && strcmp(msg, spira_last_error(ctx)))) abort();
            if (s != SPIRA_OK) break;
            if (!same(&A, &B, sym, bsym, dt)) abort();
            if (!runs) spira__csr_free(&A);
        }
        if (s != SPIRA_OK) continue;
        spira__csr_free(&B);
        for (int32_t i = 0; i < A.nrows; i++) {
            if (A.row_ptr[i] > A.row_ptr[i + 1]) abort();
            for (int32_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++)
                if (A.col_idx[k] < 0 || A.col_idx[k] >= A.ncols ||
                    (k > A.row_ptr[i] && A.col_idx[k] <= A.col_idx[k - 1]) ||
                    !isfinite(spira__get(A.val, A.dtype, k)))
                    abort();
        }
        if (A.ncols <= (1 << 22)) {
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
