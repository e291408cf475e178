/*
 * fuzz_vec.c - libFuzzer target for the Matrix Market vector reader
 * (spira__mm_parse_vector, spira_vector_read_mm without the file): any bytes, parsed
 * from an exact-size buffer in both precisions. Every input must give a status, never a
 * crash or a leak (the library's own block count is compared too, so the replay without
 * ASan sees leaks); an accepted vector must hold only finite values, as the reader
 * promises.
 */
#include "spira_impl.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every value of v finite, read back in v's own precision, so that the read-back takes no
 * more memory than v itself; a vector too large to read back here counts as checked. */
static int all_finite(spira_vector v)
{
    const int64_t n = spira_vector_length(v);
    const int dbl = spira_vector_dtype(v) == SPIRA_R64;
    void *x = malloc((size_t)(n ? n : 1) * (dbl ? sizeof(double) : sizeof(float)));
    if (!x) return 1;
    int ok = spira_vector_get(v, x) == SPIRA_OK;
    for (int64_t i = 0; ok && i < n; i++)
        ok = dbl ? isfinite(((const double *)x)[i]) : isfinite(((const float *)x)[i]);
    free(x);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static spira_context ctx;
    if (!ctx) {
        /* a small budget: huge but legal declared sizes are refused at the size line. 28 MB,
         * as all_finite's read-back takes as much again: the library's vector and the
         * read-back together stay well within bound.c's 64 MB (a 64-byte file declaring
         * 5,666,666 entries held 90 MB under a 64 MB budget, read back in double) */
        spira_context_opts o = {.backend = SPIRA_BACKEND_CPU, .max_bytes = (size_t)28 << 20};
        if (spira_context_create(&ctx, &o) != SPIRA_OK) abort();
        spira__alloc_limit((size_t)256 << 20); /* a backstop for any allocation that skips the budget */
    }
    /* a copy of exactly size bytes, so reading one past the end is caught by ASan */
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    for (size_t i = 0; i < size; i++) text[i] = (char)data[i];
    long live = spira__alloc_live();
    for (int t = 0; t < 2; t++) {
        spira_vector v = (spira_vector)&live; /* must be overwritten, NULL on failure */
        spira_status s = spira__mm_parse_vector(ctx, "fuzz", text, size,
                                                t ? SPIRA_R32 : SPIRA_R64, &v);
        if (s != SPIRA_OK) {
            if (v) abort();
            continue;
        }
        if (!v || spira_vector_dtype(v) != (t ? SPIRA_R32 : SPIRA_R64)) abort();
        if (!all_finite(v)) abort();
        double r;
        if (spira_nrm2(v, &r) != SPIRA_OK) abort();
        spira_vector_destroy(v);
    }
    if (spira__alloc_live() != live) abort();
    free(text);
    return 0;
}
