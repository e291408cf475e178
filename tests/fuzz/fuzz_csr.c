/*
 * fuzz_csr.c - libFuzzer target for the matrix constructors (spira_matrix_from_csr and
 * spira_matrix_from_coo): sizes and arrays taken from the input bytes, including negative,
 * huge and overflowing ones, out-of-range and non-monotone indices, NULL arrays. Every
 * input must give a status, never a crash; a matrix that is accepted must multiply, and a
 * small square one is factored by ILU(0) and ILUT (precond/), NaN and Inf included.
 *
 * Input layout: flags (1 byte), nrows and ncols (int32 each, sign kept), then int32 words
 * for row_ptr / row indices and column indices, then doubles for the values.
 */
#include "spira_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int32_t word(const uint8_t *d, size_t size, size_t *pos)
{
    int32_t v = 0;
    if (*pos + 4 <= size) memcpy(&v, d + *pos, 4);
    *pos += 4;
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 9) return 0;
    static spira_context ctx;
    if (!ctx) {
        spira_context_opts o = {.backend = SPIRA_BACKEND_CPU};
        if (spira_context_create(&ctx, &o) != SPIRA_OK) abort();
        spira__alloc_limit((size_t)256 << 20); /* huge but legal sizes: NOMEM, not OOM */
    }
    size_t pos = 1;
    uint8_t flags = data[0];
    int64_t nrows = word(data, size, &pos), ncols = word(data, size, &pos);
    if (flags & 0x10) nrows *= 65536; /* sizes beyond 32 bits */
    if (flags & 0x20) ncols *= 65536;
    /* a legitimately huge row count costs its row pointers (4 bytes a row): keep inputs
     * small unless they are beyond 32 bits, which must be refused before allocating */
    if (nrows > (1 << 20) && nrows <= INT32_MAX) return 0;
    size_t words = (size - pos) / 4;
    int32_t *a = malloc((words + 1) * sizeof *a);
    if (!a) return 0;
    for (size_t i = 0; i < words; i++) a[i] = word(data, size, &pos);
    size_t half = words / 2;
    const int32_t *first = (flags & 1) ? NULL : a, *second = (flags & 2) ? NULL : a + half;
    const double *val = (flags & 4) && words >= 2 ? (const double *)(void *)a : NULL;
    spira_dtype t = (flags & 8) ? SPIRA_R32 : SPIRA_R64;
    spira_matrix A = NULL;
    spira_status s;
    if (flags & 0x40) {
        /* row_ptr must have nrows + 1 entries: only trust it when the input is that long */
        if (nrows >= 0 && (size_t)nrows + 1 > half) nrows = (int64_t)half - 1;
        /* and col_idx must hold row_ptr[nrows] entries (the caller's contract): pad */
        int32_t need = 0;
        for (int64_t i = 0; first && i <= nrows; i++)
            if (first[i] > need) need = first[i];
        int32_t *padded = NULL;
        if (second && (size_t)need > words - half) {
            if (need > (1 << 20) || !(padded = calloc((size_t)need, sizeof *padded))) {
                free(a);
                return 0;
            }
            memcpy(padded, second, (words - half) * sizeof *padded);
            second = padded;
        }
        s = spira_matrix_from_csr(ctx, nrows, ncols, first, second, NULL, t, &A);
        free(padded);
    } else {
        int64_t nnz = (flags & 0x80) ? (int64_t)half * 1000003 : (int64_t)half;
        if (nnz > (int64_t)half) nnz = (int64_t)half; /* the arrays hold half entries */
        if (val && (size_t)nnz * (t == SPIRA_R64 ? 8 : 4) > words * 4) val = NULL;
        s = spira_matrix_from_coo(ctx, nrows, ncols, nnz, first, second, val, t, &A);
    }
    /* an x of 2^31 doubles is legal but 16 GB: multiply only where x stays within 32 MB,
     * so that an input holds at most 64 MB (bound.c) */
    if (s == SPIRA_OK && ncols <= (1 << 22)) {
        spira_matrix_info mi;
        spira_vector x = NULL, y = NULL;
        spira_matrix_get_info(A, &mi);
        if (spira_vector_create(ctx, mi.ncols, t, &x) == SPIRA_OK &&
            spira_vector_create(ctx, mi.nrows, t, &y) == SPIRA_OK) {
            spira_vector_fill(x, 1.0);
            if (spira_spmv(1.0, A, x, 0.0, y) != SPIRA_OK) abort();
            /* a small one through every format's conversion and CPU multiply: OK, or a
             * documented refusal (ELL/DIA fill, CMRS width, a CUDA-only format) */
            if (mi.nrows <= 4096 && mi.nnz <= 65536)
                for (int f = 0; f < spira_format_count(); f++) {
                    const char *name;
                    spira_format_describe(f, &name, NULL);
                    if (spira_matrix_set_format(A, name, NULL) != SPIRA_OK) abort();
                    spira_status fs = spira_spmv(1.0, A, x, 0.0, y);
                    if (fs != SPIRA_OK && fs != SPIRA_ERR_UNSUPPORTED) abort();
                }
            /* and the rules of "auto" (its row statistics and diagonal count) */
            if (spira_matrix_set_format(A, "auto", NULL) != SPIRA_OK ||
                spira_spmv(1.0, A, x, 0.0, y) != SPIRA_OK)
                abort();
            spira_matrix_set_format(A, "csr-scalar", NULL);
            /* a small square one also goes through the row matching and both incomplete
             * factorizations (and two preconditioned iterations): any status, no crash */
            if (mi.nrows == mi.ncols && mi.nrows <= 4096) {
                spira_solve_opts o = {.maxit = 2, .precond = SPIRA_PRECOND_ILU0};
                spira_solve(SPIRA_SOLVER_BICGSTAB, A, x, y, &o, NULL);
                o.precond = SPIRA_PRECOND_ILUT;
                spira_solve(SPIRA_SOLVER_BICGSTAB, A, x, y, &o, NULL);
            }
        }
        spira_vector_destroy(x);
        spira_vector_destroy(y);
    }
    spira_matrix_destroy(A);
    free(a);
    return 0;
}
