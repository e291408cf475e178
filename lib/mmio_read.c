/*
 * mmio_read.c - reading Matrix Market files: the whole file into memory (gunzipped when it
 * starts with the gzip magic bytes, whatever its name), parsed by lib/mmio_parse.c, then
 * turned into the canonical CSR (lib/csr.c sorts and sums duplicates) or a dense vector.
 *
 * The text is freed before the CSR is built, so the peak is text + triplets, then
 * triplets + CSR, never all three.
 */
#include "mmio.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

/* Grow *buf (capacity *cap, *len used) so that at least one more byte fits after the
 * room kept for the final NUL. */
static spira_status grow(spira_context ctx, char **buf, size_t *cap, size_t len,
                         const char *path)
{
    if (len + 1 < *cap) return SPIRA_OK;
    size_t ncap = *cap < 65536 ? 65536 : *cap * 2;
    if (ncap < *cap) return spira__nomem(ctx, "Matrix Market text", SIZE_MAX);
    char *b = spira__realloc(*buf, ncap);
    if (!b) return spira__nomem(ctx, "Matrix Market text", ncap);
    *buf = b;
    *cap = ncap;
    return SPIRA_OK;
}

static spira_status load_gzip(spira_context ctx, const char *path, size_t guess, char **text,
                              size_t *len)
{
    gzFile g = gzopen(path, "rb");
    if (!g)
        return spira__error(ctx, SPIRA_ERR_IO, "cannot open '%s': %s", path,
                            errno ? strerror(errno) : "out of memory in zlib");
    gzbuffer(g, 1u << 18);
    char *buf = NULL;
    size_t cap = 0, n = 0;
    spira_status s = SPIRA_OK;
    if (guess) {
        buf = spira__malloc(guess);
        if (!buf) s = spira__nomem(ctx, "Matrix Market text", guess);
        else cap = guess;
    }
    while (s == SPIRA_OK) {
        s = grow(ctx, &buf, &cap, n, path);
        if (s != SPIRA_OK) break;
        size_t want = cap - 1 - n;
        if (want > (size_t)INT_MAX / 2) want = (size_t)INT_MAX / 2;
        int got = gzread(g, buf + n, (unsigned)want);
        if (got < 0) {
            int err;
            const char *msg = gzerror(g, &err);
            s = spira__error(ctx, SPIRA_ERR_IO, "%s: gzip data error: %s", path,
                             err == Z_ERRNO ? strerror(errno) : msg);
            break;
        }
        n += (size_t)got;
        if (got == 0) {
            int err;
            const char *msg = gzerror(g, &err);
            if (err != Z_OK && err != Z_STREAM_END)
                s = spira__error(ctx, SPIRA_ERR_IO, "%s: gzip data error: %s", path, msg);
            break;
        }
    }
    int cerr = gzclose(g);
    if (s == SPIRA_OK && cerr != Z_OK)
        s = spira__error(ctx, SPIRA_ERR_IO, "%s: gzip data error (code %d)%s", path, cerr,
                         cerr == Z_BUF_ERROR ? ": the compressed file is truncated" : "");
    if (s != SPIRA_OK) {
        spira__free(buf);
        return s;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return SPIRA_OK;
}

spira_status spira__mm_load(spira_context ctx, const char *path, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return spira__error(ctx, SPIRA_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    unsigned char magic[2] = {0, 0};
    size_t n = fread(magic, 1, 2, f);
    if (ferror(f)) { /* a directory, say: before its "size" is believed */
        spira_status s = spira__error(ctx, SPIRA_ERR_IO, "cannot read '%s': %s", path,
                                      strerror(errno));
        fclose(f);
        return s;
    }
    /* the size, when the file is seekable, to read it in one go */
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    if (size >= 0 && fseek(f, (long)n, SEEK_SET) != 0) size = -1;
    if (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        fclose(f);
        /* a guess of the inflated size: Matrix Market text compresses about 3-5x */
        size_t guess = size > 0 && (unsigned long)size < SIZE_MAX / 8 ? (size_t)size * 4 + 1 : 0;
        return load_gzip(ctx, path, guess, text, len);
    }
    size_t cap = size >= 0 && (unsigned long)size < SIZE_MAX - 2 ? (size_t)size + 2 : 65536;
    char *buf = spira__malloc(cap);
    spira_status s = buf ? SPIRA_OK : spira__nomem(ctx, "Matrix Market text", cap);
    if (s == SPIRA_OK) memcpy(buf, magic, n);
    while (s == SPIRA_OK) {
        s = grow(ctx, &buf, &cap, n, path);
        if (s != SPIRA_OK) break;
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                s = spira__error(ctx, SPIRA_ERR_IO, "cannot read '%s': %s", path,
                                 strerror(errno));
            break;
        }
    }
    fclose(f);
    if (s != SPIRA_OK) {
        spira__free(buf);
        return s;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return SPIRA_OK;
}

/* Each value is checked as it is read, but repeated entries are summed (into the CSR or
 * the dense vector), and 1e308 + 1e308, or 3e38 + 3e38 read as float, is Inf: a sum that
 * is not finite in dtype is refused like an Inf in the file. (row, col) 1-based, col 0
 * for a vector. */
static spira_status check_sum(spira_context ctx, const char *name, double x, spira_dtype t,
                              int64_t row, int64_t col)
{
    if (isfinite(t == SPIRA_R32 ? (float)x : x)) return SPIRA_OK;
    char at[64];
    if (col) snprintf(at, sizeof at, "(%lld, %lld)", (long long)row, (long long)col);
    else snprintf(at, sizeof at, "index %lld", (long long)row);
    return spira__error(ctx, SPIRA_ERR_PARSE, "%s: the entries at %s sum beyond the range of %s",
                        name, at, t == SPIRA_R32 ? "float" : "double");
}

/* Triplets to canonical CSR; frees the triplets either way. */
static spira_status coo_to_csr(spira_context ctx, const char *name, spira__mm_coo *c,
                               spira__csr *out, int *symmetric)
{
    spira_status s = spira__csr_from_coo(ctx, c->nrows, c->ncols, c->nnz, c->ri, c->ci, c->val,
                                         c->dtype, out);
    for (int32_t i = 0; s == SPIRA_OK && c->val && i < out->nrows; i++)
        for (int32_t k = out->row_ptr[i]; s == SPIRA_OK && k < out->row_ptr[i + 1]; k++)
            s = check_sum(ctx, name, spira__get(out->val, out->dtype, k), out->dtype, i + 1,
                          out->col_idx[k] + 1);
    if (s != SPIRA_OK) spira__csr_free(out);
    if (s == SPIRA_OK && symmetric) *symmetric = c->symmetry == SPIRA__MM_SYMMETRIC;
    spira__mm_coo_free(c);
    return s;
}

spira_status spira__mm_parse(spira_context ctx, const char *name, const char *text, size_t len,
                             spira_dtype dtype, spira__csr *out, int *symmetric)
{
    memset(out, 0, sizeof *out);
    spira__mm_coo c;
    SPIRA__TRY(spira__mm_parse_coo(ctx, name, text, len, dtype, &c));
    return coo_to_csr(ctx, name ? name : "(memory)", &c, out, symmetric);
}

/* The triplets of the file at path; its text is freed before the caller builds the CSR
 * or the dense values, so the two never coexist. */
static spira_status load_coo(spira_context ctx, const char *path, spira_dtype dtype,
                             spira__mm_coo *c)
{
    char *text;
    size_t len;
    SPIRA__TRY(spira__mm_load(ctx, path, &text, &len));
    spira_status s = spira__mm_parse_coo(ctx, path, text, len, dtype, c);
    spira__free(text);
    return s;
}

spira_status spira__mm_read(spira_context ctx, const char *path, spira_dtype dtype,
                            spira__csr *out, int *symmetric)
{
    memset(out, 0, sizeof *out);
    spira__mm_coo c;
    SPIRA__TRY(load_coo(ctx, path, dtype, &c));
    return coo_to_csr(ctx, path, &c, out, symmetric);
}

/* The triplets of an n x 1 or 1 x n file (name for messages) to a dense vector of ctx;
 * frees the triplets either way. */
static spira_status coo_to_vector(spira_context ctx, const char *name, spira__mm_coo *c,
                                  spira_vector *v)
{
    *v = NULL;
    if (c->ncols != 1 && c->nrows != 1) {
        spira_status s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                                      "%s: a vector file must have one column (or one row), "
                                      "this one is %lld x %lld",
                                      name, (long long)c->nrows, (long long)c->ncols);
        spira__mm_coo_free(c);
        return s;
    }
    /* dense values: array entries assigned (so -0 stays -0), coordinate entries summed
     * into zeros (they may repeat or omit some) */
    int64_t n = c->ncols == 1 ? c->nrows : c->ncols;
    double *x = NULL;
    spira_status s = spira__alloc(ctx, (void **)&x, (size_t)(n ? n : 1), sizeof *x,
                                  "vector values");
    if (s == SPIRA_OK) {
        memset(x, 0, (size_t)n * sizeof *x);
        for (int64_t k = 0; k < c->nnz; k++) {
            double e = c->val ? spira__get(c->val, c->dtype, k) : 1.0;
            int64_t i = c->ncols == 1 ? c->ri[k] : c->ci[k];
            x[i] = c->array ? e : x[i] + e;
        }
        for (int64_t i = 0; !c->array && s == SPIRA_OK && i < n; i++)
            s = check_sum(ctx, name, x[i], c->dtype, i + 1, 0);
        if (s == SPIRA_OK) s = spira_vector_create(ctx, n, c->dtype, v);
    }
    if (s == SPIRA_OK) {
        s = spira_vector_set_f64(*v, x);
        if (s != SPIRA_OK) {
            spira_vector_destroy(*v);
            *v = NULL;
        }
    }
    spira__free(x);
    spira__mm_coo_free(c);
    return s;
}

spira_status spira__mm_parse_vector(spira_context ctx, const char *name, const char *text,
                                    size_t len, spira_dtype dtype, spira_vector *v)
{
    *v = NULL;
    spira__mm_coo c;
    SPIRA__TRY(spira__mm_parse_coo(ctx, name, text, len, dtype, &c));
    return coo_to_vector(ctx, name ? name : "(memory)", &c, v);
}

spira_status spira_vector_read_mm(spira_context ctx, const char *path, spira_dtype dtype,
                                  spira_vector *v)
{
    if (!ctx || !path || !v)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL context, path or output");
    *v = NULL;
    if (dtype != SPIRA_R32 && dtype != SPIRA_R64)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown dtype %d", (int)dtype);
    spira__mm_coo c;
    SPIRA__TRY(load_coo(ctx, path, dtype, &c));
    return coo_to_vector(ctx, path, &c, v);
}
