/*
 * read.c - a Matrix Market file read by all the ranks at once: every rank maps the file
 * (lib/'s loader: a plain file mapped, a gzip one inflated whole by each), reads the banner
 * and size line itself, then parses only the lines that start in its share of the body's
 * bytes (the shares cut at line starts, so every line is one rank's), and sends each entry
 * to the owner of its row (MPI_Alltoallv); each owner builds its rows. No rank holds the
 * whole matrix and sizes are 64-bit: the file may exceed what 32-bit indices address.
 *
 * Coordinate files only (real, double, integer or pattern; general, symmetric or
 * skew-symmetric, mirrored as the one-process reader mirrors them); an array file is read
 * by the first rank and scattered. Differences from spira_matrix_read_mm: an entry given in
 * both triangles of a symmetric file is summed, not refused (no rank sees both), and a
 * wrong entry count is reported as the counts, without the line where the file ended.
 */
#include "dist.h"
#include "mm_lex.h"
#include "mmio.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct {
    spira__mm_field field;
    spira__mm_symmetry sym;
    int array;
    int64_t n, m, declared;
    size_t body;    /* offset of the first entry line */
    int64_t line;   /* its line number (1-based) */
} head;

/* The next blank-separated word of the line at *p (at most cap - 1 bytes kept). */
static size_t word(const char **p, const char *end, char *w, size_t cap)
{
    const char *q = spira__mm_skip_blanks(*p, end);
    size_t k = 0;
    while (q < end && *q != '\n' && !spira__mm_is_blank(*q)) {
        if (k + 1 < cap) w[k++] = *q;
        q++;
    }
    w[k] = 0;
    *p = q;
    return k;
}

/* Banner, comments, size line: the same on every rank (a global fact). */
static spira_status parse_head(spira_context ctx, const char *name, const char *t, size_t len,
                               head *h)
{
    const char *p = t, *end = t + len;
    char w[5][32];
    for (int k = 0; k < 5; k++) word(&p, end, w[k], sizeof w[k]);
    if (strcasecmp(w[0], "%%MatrixMarket") || strcasecmp(w[1], "matrix"))
        return spira__error(ctx, SPIRA_ERR_PARSE, "%s:1: not a Matrix Market matrix (the "
                            "banner '%%%%MatrixMarket matrix ...' is missing)", name);
    if (!strcasecmp(w[2], "array")) h->array = 1;
    else if (strcasecmp(w[2], "coordinate"))
        return spira__error(ctx, SPIRA_ERR_PARSE, "%s:1: format '%s': want coordinate or array",
                            name, w[2]);
    if (!strcasecmp(w[3], "real") || !strcasecmp(w[3], "double")) h->field = SPIRA__MM_REAL;
    else if (!strcasecmp(w[3], "integer")) h->field = SPIRA__MM_INTEGER;
    else if (!strcasecmp(w[3], "pattern")) h->field = SPIRA__MM_PATTERN;
    else
        return spira__error(ctx, strcasecmp(w[3], "complex") ? SPIRA_ERR_PARSE
                                                             : SPIRA_ERR_UNSUPPORTED,
                            "%s:1: field '%s': want real, double, integer or pattern", name, w[3]);
    if (!strcasecmp(w[4], "general")) h->sym = SPIRA__MM_GENERAL;
    else if (!strcasecmp(w[4], "symmetric")) h->sym = SPIRA__MM_SYMMETRIC;
    else if (!strcasecmp(w[4], "skew-symmetric")) h->sym = SPIRA__MM_SKEW;
    else
        return spira__error(ctx, strcasecmp(w[4], "hermitian") ? SPIRA_ERR_PARSE
                                                               : SPIRA_ERR_UNSUPPORTED,
                            "%s:1: symmetry '%s': want general, symmetric or skew-symmetric",
                            name, w[4]);
    /* comment and blank lines, then the size line */
    int64_t line = 1;
    p = memchr(p, '\n', (size_t)(end - p));
    p = p ? p + 1 : end;
    for (line = 2; p < end; line++) {
        const char *q = spira__mm_skip_blanks(p, end);
        if (q < end && *q != '\n' && *q != '%') break;
        p = memchr(q, '\n', (size_t)(end - q));
        p = p ? p + 1 : end;
    }
    if (p == end) return spira__error(ctx, SPIRA_ERR_PARSE, "%s: no size line", name);
    int64_t v[3] = {0, 0, 0};
    for (int k = 0; k < (h->array ? 2 : 3); k++) {
        int ovf;
        const char *q = spira__mm_scan_int(spira__mm_skip_blanks(p, end), end, &v[k], &ovf);
        if (!q || !spira__mm_is_sep(q, end) || ovf || v[k] < 0)
            return spira__error(ctx, SPIRA_ERR_PARSE, "%s:%lld: the size line wants %s "
                                "non-negative integers", name, (long long)line,
                                h->array ? "two" : "three");
        p = q;
    }
    p = spira__mm_skip_blanks(p, end);
    if (p < end && *p != '\n')
        return spira__error(ctx, SPIRA_ERR_PARSE, "%s:%lld: unexpected text after the size line",
                            name, (long long)line);
    h->n = v[0], h->m = v[1], h->declared = v[2];
    h->body = p < end ? (size_t)(p + 1 - t) : len;
    h->line = line + 1;
    return SPIRA_OK;
}

/* The first line start at or after pos (pos itself when a line starts there). */
static size_t line_start(const char *t, size_t len, size_t body, size_t pos)
{
    if (pos <= body || pos >= len) return pos < len ? pos : len;
    if (t[pos - 1] == '\n') return pos;
    const char *q = memchr(t + pos, '\n', len - pos);
    return q ? (size_t)(q - t) + 1 : len;
}

/* This rank's entries: (row, column) pairs and values, mirrored as the symmetry says. */
typedef struct {
    int64_t *rc;   /* 2 per entry */
    double *val;
    int64_t count, cap;
    int64_t read;  /* entry lines read */
} entries;

static spira_status add(spira_context ctx, entries *e, int64_t i, int64_t j, double x)
{
    if (e->count == e->cap) {
        int64_t cap = e->cap ? 2 * e->cap : 1024;
        int64_t *rc = spira__realloc(e->rc, (size_t)cap * 2 * sizeof *rc);
        if (!rc) return spira__nomem(ctx, "Matrix Market entries", (size_t)cap * 16);
        e->rc = rc;
        double *v = spira__realloc(e->val, (size_t)cap * sizeof *v);
        if (!v) return spira__nomem(ctx, "Matrix Market values", (size_t)cap * 8);
        e->val = v;
        e->cap = cap;
    }
    e->rc[2 * e->count] = i;
    e->rc[2 * e->count + 1] = j;
    e->val[e->count++] = x;
    return SPIRA_OK;
}

static spira_status parse_share(spira_context ctx, const char *name, const head *h,
                                spira_dtype dtype, const char *p, const char *end,
                                int64_t line, entries *e)
{
    const struct lconv *lc = localeconv();
    const char *dp = lc && lc->decimal_point && *lc->decimal_point ? lc->decimal_point : ".";
    for (; p < end; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *stop = eol ? eol : end, *q = spira__mm_skip_blanks(p, stop);
        p = eol ? eol + 1 : end;
        if (q == stop || *q == '%') continue;
        int64_t ij[2];
        for (int k = 0; k < 2; k++) {
            int ovf;
            const char *r = spira__mm_scan_int(q, stop, &ij[k], &ovf);
            if (!r || !spira__mm_is_sep(r, stop))
                return spira__error(ctx, SPIRA_ERR_PARSE, "%s:%lld: %s index is not an integer",
                                    name, (long long)line, k ? "column" : "row");
            const int64_t lim = k ? h->m : h->n;
            if (ovf || ij[k] < 1 || ij[k] > lim)
                return spira__error(ctx, SPIRA_ERR_PARSE, "%s:%lld: %s index %lld outside "
                                    "1..%lld", name, (long long)line, k ? "column" : "row",
                                    (long long)ij[k], (long long)lim);
            q = spira__mm_skip_blanks(r, stop);
        }
        double x = 1.0;
        if (h->field == SPIRA__MM_INTEGER) {
            int64_t iv;
            int ovf;
            const char *r = spira__mm_scan_int(q, stop, &iv, &ovf);
            if (!r || !spira__mm_is_sep(r, stop) || ovf)
                return spira__error(ctx, SPIRA_ERR_PARSE, "%s:%lld: the value is not a 64-bit "
                                    "integer (the field is integer)", name, (long long)line);
            x = (double)iv;
            q = r;
        } else if (h->field == SPIRA__MM_REAL) {
            const char *r = NULL;
            spira__mm_num st = spira__mm_scan_double(q, stop, dp, &r, &x);
            if (st != SPIRA__MM_NUM_OK || !spira__mm_is_sep(r, stop) || !isfinite(x))
                return spira__error(ctx, SPIRA_ERR_PARSE, "%s:%lld: the value is not a finite "
                                    "decimal number", name, (long long)line);
            q = r;
        }
        if (dtype == SPIRA_R32 && isinf((float)x))
            return spira__error(ctx, SPIRA_ERR_PARSE, "%s:%lld: value %g overflows single "
                                "precision", name, (long long)line, x);
        if (spira__mm_skip_blanks(q, stop) != stop)
            return spira__error(ctx, SPIRA_ERR_PARSE, "%s:%lld: unexpected text after the "
                                "entry (one entry per line)", name, (long long)line);
        const int64_t i = ij[0] - 1, j = ij[1] - 1;
        e->read++;
        if (h->sym == SPIRA__MM_SKEW && i == j) {
            if (x != 0)
                return spira__error(ctx, SPIRA_ERR_PARSE, "%s:%lld: a skew-symmetric matrix's "
                                    "diagonal is zero; entry (%lld,%lld) is %g", name,
                                    (long long)line, (long long)ij[0], (long long)ij[1], x);
            continue;
        }
        SPIRA__TRY(add(ctx, e, i, j, x));
        if (h->sym != SPIRA__MM_GENERAL && i != j)
            SPIRA__TRY(add(ctx, e, j, i, h->sym == SPIRA__MM_SKEW ? -x : x));
    }
    return SPIRA_OK;
}

/* An array file: the first rank reads it, then scatters its rows. */
static spira_status read_array(spira_context ctx, MPI_Comm comm, const char *path,
                               spira_dtype dtype, int64_t local_rows, spira_dist_matrix *A)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    spira_matrix G = NULL;
    spira_status s = rank == 0 ? spira_matrix_read_mm(ctx, path, dtype, &G) : SPIRA_OK;
    s = spira__dist_agree(ctx, comm, s);
    if (s == SPIRA_OK) s = spira_dist_matrix_scatter(ctx, comm, 0, G, local_rows, A);
    spira_matrix_destroy(G);
    return s;
}

spira_status spira_dist_matrix_read_mm(spira_context ctx, MPI_Comm comm, const char *path,
                                       spira_dtype dtype, int64_t local_rows,
                                       spira_dist_matrix *A)
{
    if (!A) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL output");
    *A = NULL;
    if (comm == MPI_COMM_NULL)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "MPI_COMM_NULL as the communicator");
    char nb[SPIRA__MM_NAME_MAX];
    const char *name = spira__mm_name(path ? path : "(null)", nb);
    spira_status s = spira__dist_check_context(ctx);
    if (s == SPIRA_OK && dtype != SPIRA_R32 && dtype != SPIRA_R64)
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown dtype %d", (int)dtype);
    if (s == SPIRA_OK && !path) s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL path");
    char *text = NULL;
    size_t len = 0;
    int mapped = 0;
    head h = {0};
    if (s == SPIRA_OK) s = spira__mm_map(ctx, path, &text, &len, &mapped);
    if (s == SPIRA_OK) s = parse_head(ctx, name, text, len, &h);
    if (s == SPIRA_OK && !h.array && h.n != h.m)
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "%s: a distributed matrix must be square; "
                         "the file's is %lld x %lld", name, (long long)h.n, (long long)h.m);
    s = spira__dist_agree(ctx, comm, s);
    if (s == SPIRA_OK && h.array) {
        spira__mm_unmap(text, len, mapped);
        return read_array(ctx, comm, path, dtype, local_rows, A);
    }
    if (s != SPIRA_OK) {
        if (text) spira__mm_unmap(text, len, mapped);
        return s;
    }
    /* this rank's share of the body: the lines that start in its bytes */
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const size_t b = h.body, span = len - b;
    const size_t lo = line_start(text, len, b, b + (size_t)((double)span * rank / size));
    const size_t hi = rank == size - 1
                          ? len
                          : line_start(text, len, b, b + (size_t)((double)span * (rank + 1) / size));
    /* its first line's number: the lines of the shares before it */
    int64_t mine = 0, before = 0;
    for (const char *q = text + lo; q < text + hi && (q = memchr(q, '\n', (size_t)(text + hi - q)));
         q++)
        mine++;
    MPI_Exscan(&mine, &before, 1, MPI_INT64_T, MPI_SUM, comm);
    if (rank == 0) before = 0;
    entries e = {0};
    s = parse_share(ctx, name, &h, dtype, text + lo, text + hi, h.line + before, &e);
    spira__mm_unmap(text, len, mapped);
    s = spira__dist_agree(ctx, comm, s);
    int64_t read = e.read;
    if (s == SPIRA_OK &&
        MPI_Allreduce(MPI_IN_PLACE, &read, 1, MPI_INT64_T, MPI_SUM, comm) != MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Allreduce of the entry counts failed");
    if (s == SPIRA_OK && read != h.declared)
        s = spira__error(ctx, SPIRA_ERR_PARSE, "%s: the file holds %lld entries, its size line "
                         "declares %lld%s", name, (long long)read, (long long)h.declared,
                         read < h.declared ? " (truncated?)" : "");
    spira__dist_layout *L = NULL;
    if (s == SPIRA_OK) s = spira__dist_layout_create(ctx, comm, h.n, local_rows, &L);
    if (s == SPIRA_OK)
        s = spira__dist_route_build(ctx, L, e.count, e.rc,
                                    h.field == SPIRA__MM_PATTERN ? NULL : e.val, dtype,
                                    h.sym == SPIRA__MM_SYMMETRIC, "entries", A);
    spira__dist_layout_unref(L);
    spira__free(e.rc);
    spira__free(e.val);
    return s;
}
