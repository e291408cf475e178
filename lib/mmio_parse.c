/*
 * mmio_parse.c - Matrix Market text to 0-based triplets (the grammar is in mmio.h).
 *
 * One pass over text already in memory: the banner, the size line, then one entry per
 * line, each number scanned by hand (lib/mm_lex.h) without copying. Every refusal is
 * SPIRA_ERR_PARSE (or SPIRA_ERR_UNSUPPORTED: complex, hermitian, sizes beyond 32-bit
 * indices) with "NAME:LINE: what" and the offending token, and frees what was allocated.
 *
 * The triplet arrays are sized by the declared count, but never beyond what the text can
 * hold (an entry takes at least 4 bytes, "1 1\n"), so a forged size line cannot make a
 * small file allocate gigabytes. Symmetric halves are mirrored after the pass, once the
 * off-diagonal count, and so the expanded size, is known.
 *
 * The check that a sum of repeated entries stays finite (spira__mm_check_sum) is here too,
 * beside the check of each value, for both CSR builders (mmio_read.c, mmio_fast.c).
 */
#include "mmio.h"
#include "mm_lex.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    spira_context ctx;
    const char *name;    /* for messages */
    const char *p, *end; /* the unread text */
    long line;           /* 1-based line of p */
    long size_line;      /* line of the size line, for messages about sizes */
    const char *dp;      /* the locale's decimal point, for strtod */
    int quiet;           /* 1: refusals return their status without a message */
    int64_t vec_want;    /* a vector read: -1 no, 0 any length, else the length wanted */
} mm_lexer;

static spira_status fail(mm_lexer *L, spira_status s, const char *fmt, ...) SPIRA__PRINTF(3, 4);
static spira_status fail(mm_lexer *L, spira_status s, const char *fmt, ...)
{
    if (L->quiet) return s;
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return spira__error(L->ctx, s, "%s:%ld: %s", L->name, L->line, msg);
}

/* The token at p, for a message: printable, at most 32 characters. */
typedef struct {
    char s[48];
} tokbuf;
static const char *tok(const char *p, const char *end, tokbuf *b)
{
    size_t n = 0;
    if (p == end || *p == '\n') return "end of line";
    while (p < end && *p != '\n' && !spira__mm_is_blank(*p) && n < 32) {
        unsigned char c = (unsigned char)*p++;
        b->s[n++] = c >= 32 && c < 127 ? (char)c : '?';
    }
    if (p < end && *p != '\n' && !spira__mm_is_blank(*p)) {
        memcpy(b->s + n, "...", 3);
        n += 3;
    }
    b->s[n] = '\0';
    return b->s;
}

/* ASCII case-insensitive: does the word [w, w + n) equal kw (lower case)? */
static int word_is(const char *w, size_t n, const char *kw)
{
    if (strlen(kw) != n) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = w[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != kw[i]) return 0;
    }
    return 1;
}

/* Move past blank lines and '%' comment lines; stop at a content line or the end. */
static void skip_noise(mm_lexer *L)
{
    for (;;) {
        const char *p = spira__mm_skip_blanks(L->p, L->end);
        if (p < L->end && *p == '\n') {
            L->p = p + 1;
            L->line++;
        } else if (p < L->end && *p == '%') {
            const char *nl = memchr(p, '\n', (size_t)(L->end - p));
            L->p = nl ? nl + 1 : L->end;
            if (nl) L->line++;
        } else {
            L->p = p;
            return;
        }
    }
}

static spira_status parse_banner(mm_lexer *L, spira__mm_coo *c)
{
    const char *p = L->p, *end = L->end;
    tokbuf tb;
    if (end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3; /* UTF-8 byte order mark */
    if (p == end)
        return fail(L, SPIRA_ERR_PARSE,
                    "empty file: expected the banner \"%%%%MatrixMarket matrix coordinate "
                    "real general\"");
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    const char *w[6];
    size_t wl[6];
    int nw = 0;
    for (const char *q = p;;) {
        q = spira__mm_skip_blanks(q, eol);
        if (q == eol || nw == 6) break;
        w[nw] = q;
        while (q < eol && !spira__mm_is_blank(*q)) q++;
        wl[nw] = (size_t)(q - w[nw]);
        nw++;
    }
    if (nw == 0 || !word_is(w[0], wl[0], "%%matrixmarket"))
        return fail(L, SPIRA_ERR_PARSE,
                    "not a Matrix Market file: the first line must start with "
                    "%%%%MatrixMarket, found '%s'",
                    tok(spira__mm_skip_blanks(p, eol), eol, &tb));
    if (nw < 5)
        return fail(L, SPIRA_ERR_PARSE,
                    "the banner has %d words, expected 5: %%%%MatrixMarket matrix FORMAT "
                    "FIELD SYMMETRY",
                    nw);
    if (nw > 5)
        return fail(L, SPIRA_ERR_PARSE, "unexpected '%s' after the banner's symmetry",
                    tok(w[5], eol, &tb));
    if (!word_is(w[1], wl[1], "matrix"))
        return fail(L, SPIRA_ERR_PARSE, "unknown object '%s' in the banner (expected 'matrix')",
                    tok(w[1], eol, &tb));

    if (word_is(w[2], wl[2], "coordinate")) c->array = 0;
    else if (word_is(w[2], wl[2], "array")) c->array = 1;
    else
        return fail(L, SPIRA_ERR_PARSE,
                    "unknown format '%s' in the banner (expected coordinate or array)",
                    tok(w[2], eol, &tb));

    if (word_is(w[3], wl[3], "real") || word_is(w[3], wl[3], "double"))
        c->field = SPIRA__MM_REAL;
    else if (word_is(w[3], wl[3], "integer")) c->field = SPIRA__MM_INTEGER;
    else if (word_is(w[3], wl[3], "pattern")) c->field = SPIRA__MM_PATTERN;
    else if (word_is(w[3], wl[3], "complex"))
        return fail(L, SPIRA_ERR_UNSUPPORTED,
                    "complex matrices are not supported (Spira is real-valued)");
    else
        return fail(L, SPIRA_ERR_PARSE,
                    "unknown field '%s' in the banner (expected real, integer or pattern)",
                    tok(w[3], eol, &tb));

    if (word_is(w[4], wl[4], "general")) c->symmetry = SPIRA__MM_GENERAL;
    else if (word_is(w[4], wl[4], "symmetric")) c->symmetry = SPIRA__MM_SYMMETRIC;
    else if (word_is(w[4], wl[4], "skew-symmetric")) c->symmetry = SPIRA__MM_SKEW;
    else if (word_is(w[4], wl[4], "hermitian"))
        return fail(L, SPIRA_ERR_UNSUPPORTED,
                    "hermitian matrices are not supported (Spira is real-valued)");
    else
        return fail(L, SPIRA_ERR_PARSE,
                    "unknown symmetry '%s' in the banner (expected general, symmetric or "
                    "skew-symmetric)",
                    tok(w[4], eol, &tb));

    if (c->field == SPIRA__MM_PATTERN && c->array)
        return fail(L, SPIRA_ERR_PARSE, "a pattern matrix cannot be in array format");
    if (c->field == SPIRA__MM_PATTERN && c->symmetry == SPIRA__MM_SKEW)
        return fail(L, SPIRA_ERR_PARSE, "a pattern matrix cannot be skew-symmetric");
    L->p = eol < end ? eol + 1 : end;
    L->line++;
    return SPIRA_OK;
}

/* spira__check_dims, its sentence prefixed with NAME:LINE of the size line. */
static spira_status check_dims(mm_lexer *L, int64_t m, int64_t n, int64_t nnz, const char *what)
{
    if (spira__check_dims(L->ctx, m, n, nnz) == SPIRA_OK) return SPIRA_OK;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", spira_last_error(L->ctx));
    long line = L->line;
    L->line = L->size_line;
    spira_status s = fail(L, SPIRA_ERR_UNSUPPORTED, "%s%s", what, msg);
    L->line = line;
    return s;
}

/* What the declared sizes will take whatever the entries, against the memory budget, at
 * the size line: the CSR's row pointers, or a vector's values (whose shape and length are
 * checked here too). Nothing proportional to a declared size is allocated before this. */
static spira_status check_budget(mm_lexer *L, const spira__mm_coo *c)
{
    char what[160];
    long line = L->line;
    spira_status s = SPIRA_OK;
    L->line = L->size_line;
    if (L->vec_want >= 0) {
        int64_t n = c->ncols == 1 ? c->nrows : c->ncols;
        if (c->ncols != 1 && c->nrows != 1)
            s = fail(L, SPIRA_ERR_UNSUPPORTED,
                     "a vector file must have one column (or one row), this one is %lld x %lld",
                     (long long)c->nrows, (long long)c->ncols);
        else if (L->vec_want > 0 && n != L->vec_want)
            s = fail(L, SPIRA_ERR_INVALID_ARG,
                     "the vector has %lld entries, %lld are wanted (the matrix's rows)",
                     (long long)n, (long long)L->vec_want);
        else {
            snprintf(what, sizeof what, "the %lld values of the vector", (long long)n);
            s = spira__budget_check(L->ctx, (size_t)n, sizeof(double), what);
        }
    } else {
        snprintf(what, sizeof what, "the row pointers of a matrix of %lld rows",
                 (long long)c->nrows);
        s = spira__budget_check(L->ctx, (size_t)c->nrows + 1, sizeof(int32_t), what);
    }
    if (s == SPIRA_ERR_NOMEM) { /* the budget's sentence, placed at the size line */
        char msg[768];
        snprintf(msg, sizeof msg, "%s", spira_last_error(L->ctx));
        s = fail(L, SPIRA_ERR_NOMEM, "%s", msg);
    }
    L->line = line;
    return s;
}

/* The size line: rows columns [entries]. *stored: how many entries the file holds. */
static spira_status parse_size(mm_lexer *L, spira__mm_coo *c, int64_t *stored)
{
    static const char *const names[3] = {"rows", "columns", "entries"};
    const int want = c->array ? 2 : 3;
    const char *usage = c->array ? "rows columns" : "rows columns entries";
    int64_t sz[3] = {0, 0, 0};
    tokbuf tb;
    skip_noise(L);
    L->size_line = L->line;
    if (L->p == L->end)
        return fail(L, SPIRA_ERR_PARSE, "the file ends before the size line (%s)", usage);
    const char *p = L->p, *end = L->end;
    for (int i = 0; i < want; i++) {
        p = spira__mm_skip_blanks(p, end);
        if (p == end || *p == '\n')
            return fail(L, SPIRA_ERR_PARSE, "the size line has %d numbers, expected %d (%s)", i,
                        want, usage);
        int ovf;
        const char *q = spira__mm_scan_int(p, end, &sz[i], &ovf);
        if (!q || !spira__mm_is_sep(q, end))
            return fail(L, SPIRA_ERR_PARSE,
                        "bad size line: '%s' is not an integer number of %s (expected %s)",
                        tok(p, end, &tb), names[i], usage);
        if (ovf)
            return fail(L, SPIRA_ERR_UNSUPPORTED, "number of %s %s does not fit 64 bits",
                        names[i], tok(p, end, &tb));
        if (sz[i] < 0)
            return fail(L, SPIRA_ERR_PARSE, "negative number of %s: %lld", names[i],
                        (long long)sz[i]);
        p = q;
    }
    p = spira__mm_skip_blanks(p, end);
    if (p < end && *p != '\n')
        return fail(L, SPIRA_ERR_PARSE, "unexpected '%s' after the size line (expected %s)",
                    tok(p, end, &tb), usage);
    L->p = p < end ? p + 1 : end;
    L->line++;

    c->nrows = sz[0];
    c->ncols = sz[1];
    if (c->symmetry != SPIRA__MM_GENERAL && c->nrows != c->ncols) {
        L->line = L->size_line;
        return fail(L, SPIRA_ERR_PARSE, "a %s matrix must be square, this one is %lld x %lld",
                    c->symmetry == SPIRA__MM_SKEW ? "skew-symmetric" : "symmetric",
                    (long long)c->nrows, (long long)c->ncols);
    }
    SPIRA__TRY(check_dims(L, c->nrows, c->ncols, 0, ""));
    SPIRA__TRY(check_budget(L, c));
    if (!c->array) {
        *stored = sz[2];
        return check_dims(L, c->nrows, c->ncols, sz[2], "");
    }
    int64_t n = c->nrows; /* both fit 32 bits: the products fit 64 */
    *stored = c->symmetry == SPIRA__MM_GENERAL     ? c->nrows * c->ncols
              : c->symmetry == SPIRA__MM_SYMMETRIC ? n * (n + 1) / 2
                                                   : n * (n - 1) / 2;
    return check_dims(L, c->nrows, c->ncols, c->nrows * c->ncols, "dense array: ");
}

/* Make room for cap triplets (values only when the field has them). */
static spira_status reserve(spira_context ctx, spira__mm_coo *c, int64_t cap)
{
    size_t es = c->field == SPIRA__MM_PATTERN ? 0 : spira_dtype_size(c->dtype);
    if (cap < 1) cap = 1;
    if ((uint64_t)cap > SIZE_MAX / sizeof(double))
        return spira__nomem(ctx, "Matrix Market triplets", SIZE_MAX);
    SPIRA__TRY(spira__budget_check(ctx, (size_t)cap, sizeof(int32_t), "Matrix Market row indices"));
    if (es) SPIRA__TRY(spira__budget_check(ctx, (size_t)cap, es, "Matrix Market values"));
    void *a = spira__realloc(c->ri, (size_t)cap * sizeof(int32_t));
    if (!a) return spira__nomem(ctx, "Matrix Market row indices", (size_t)cap * sizeof(int32_t));
    c->ri = a;
    spira__mm_hint_huge(a, (size_t)cap * sizeof(int32_t));
    a = spira__realloc(c->ci, (size_t)cap * sizeof(int32_t));
    if (!a)
        return spira__nomem(ctx, "Matrix Market column indices", (size_t)cap * sizeof(int32_t));
    c->ci = a;
    spira__mm_hint_huge(a, (size_t)cap * sizeof(int32_t));
    if (es) {
        a = spira__realloc(c->val, (size_t)cap * es);
        if (!a) return spira__nomem(ctx, "Matrix Market values", (size_t)cap * es);
        c->val = a;
        spira__mm_hint_huge(a, (size_t)cap * es);
    }
    return SPIRA_OK;
}

/* One value at *pp (a blank-separated token) into *x, in the file's field. */
static inline spira_status parse_value(mm_lexer *L, const spira__mm_coo *c, const char **pp, double *x)
{
    const char *p = *pp, *end = L->end, *q = NULL;
    tokbuf tb;
    if (c->field == SPIRA__MM_INTEGER) {
        int64_t iv;
        int ovf;
        q = spira__mm_scan_int(p, end, &iv, &ovf);
        if (!q || !spira__mm_is_sep(q, end))
            return fail(L, SPIRA_ERR_PARSE, "value '%s' is not an integer (the field is integer)",
                        tok(p, end, &tb));
        if (ovf)
            return fail(L, SPIRA_ERR_PARSE, "integer value %s does not fit 64 bits",
                        tok(p, end, &tb));
        *x = (double)iv;
    } else {
        spira__mm_num r = spira__mm_scan_double(p, end, L->dp, &q, x);
        if (r == SPIRA__MM_NUM_BAD || (r == SPIRA__MM_NUM_OK && !spira__mm_is_sep(q, end)))
            return fail(L, SPIRA_ERR_PARSE, "value '%s' is not a decimal number",
                        tok(p, end, &tb));
        if (r == SPIRA__MM_NUM_RANGE)
            return fail(L, SPIRA_ERR_PARSE, "value %s is beyond the range of double",
                        tok(p, end, &tb));
        if (r == SPIRA__MM_NUM_LONG)
            return fail(L, SPIRA_ERR_PARSE, "value '%s' is longer than %d characters",
                        tok(p, end, &tb), SPIRA__MM_NUM_MAXLEN);
    }
    if (c->dtype == SPIRA_R32 && isinf((float)*x))
        return fail(L, SPIRA_ERR_PARSE, "value %s overflows single precision",
                    tok(p, end, &tb));
    *pp = q;
    return SPIRA_OK;
}

static void store(spira__mm_coo *c, int64_t k, int64_t i, int64_t j, double x)
{
    c->ri[k] = (int32_t)i;
    c->ci[k] = (int32_t)j;
    if (c->dtype == SPIRA_R64 && c->val) ((double *)c->val)[k] = x;
    else if (c->val) ((float *)c->val)[k] = (float)x;
}

/* After an entry's numbers: only blanks to the end of the line, which is consumed. */
static inline spira_status end_of_entry(mm_lexer *L, const char **pp, const char *what)
{
    const char *p = spira__mm_skip_blanks(*pp, L->end);
    tokbuf tb;
    if (p < L->end && *p != '\n')
        return fail(L, SPIRA_ERR_PARSE, "unexpected '%s' after the %s (one entry per line)",
                    tok(p, L->end, &tb), what);
    if (p < L->end) {
        p++;
        L->line++;
    }
    *pp = p;
    return SPIRA_OK;
}

/* Skip blank and comment lines inside the entries; 0 at the end of the text. */
static int next_entry(mm_lexer *L, const char **pp)
{
    L->p = *pp;
    skip_noise(L);
    *pp = L->p;
    return L->p < L->end;
}

/* An index token at *pp: an integer in 1..limit, returned 0-based. */
static inline spira_status parse_index(mm_lexer *L, const char **pp, int64_t limit, const char *what,
                                int64_t *idx)
{
    const char *p = spira__mm_skip_blanks(*pp, L->end), *end = L->end;
    tokbuf tb;
    if (p == end || *p == '\n')
        return fail(L, SPIRA_ERR_PARSE, "the entry ends before its %s index", what);
    int64_t v;
    int ovf;
    const char *q = spira__mm_scan_int(p, end, &v, &ovf);
    if (!q || !spira__mm_is_sep(q, end))
        return fail(L, SPIRA_ERR_PARSE, "%s index '%s' is not an integer", what,
                    tok(p, end, &tb));
    if (ovf || v < 1 || v > limit)
        return fail(L, SPIRA_ERR_PARSE, "%s index %s outside 1..%lld", what, tok(p, end, &tb),
                    (long long)limit);
    *idx = v - 1;
    *pp = q;
    return SPIRA_OK;
}

static spira_status truncated(mm_lexer *L, int64_t got, int64_t declared)
{
    return fail(L, SPIRA_ERR_PARSE,
                "the file ends after %lld of the %lld entries the size line declares "
                "(truncated?)",
                (long long)got, (long long)declared);
}

/* Make room for cap triplets in a run (values only when the field has them). */
static spira_status reserve_run(spira_context ctx, const spira__mm_coo *c, spira__mm_run *r,
                                int64_t cap)
{
    spira__mm_coo t = {0};
    t.field = c->field;
    t.dtype = c->dtype;
    t.ri = r->ri;
    t.ci = r->ci;
    t.val = r->val;
    spira_status s = reserve(ctx, &t, cap);
    r->ri = t.ri;
    r->ci = t.ci;
    r->val = t.val;
    if (s == SPIRA_OK) r->cap = cap < 1 ? 1 : cap;
    return s;
}

/* Coordinate entries "i j [value]" from L->p until limit entries are read, the text ends
 * or an entry is refused (L->p then stays at that entry's line). The kept ones go to r
 * when r->ri is set: grown as needed when grow is set, else the read stops before an
 * entry that would not fit (r->full). Nothing here formats a message when L->quiet. */
static spira_status read_entries(mm_lexer *L, const spira__mm_coo *c, spira__mm_run *r,
                                 int64_t limit, int grow)
{
    const int has_val = c->field != SPIRA__MM_PATTERN;
    const char *p = L->p;
    r->full = 0;
    while (r->count < limit) {
        /* the usual line starts with its row index; anything else may be noise */
        if (!(p < L->end && (unsigned)(*p - '0') <= 9) && !next_entry(L, &p)) break;
        if (r->ri && r->kept == r->cap) {
            if (!grow) {
                r->full = 1;
                break;
            }
            int64_t room = (int64_t)((L->end - p) / (has_val ? 6 : 4)) + 1;
            SPIRA__TRY(reserve_run(L->ctx, c, r, r->cap + (room < r->cap ? room : r->cap)));
        }
        L->p = p;
        int64_t i, j;
        double x = 1;
        SPIRA__TRY(parse_index(L, &p, c->nrows, "row", &i));
        SPIRA__TRY(parse_index(L, &p, c->ncols, "column", &j));
        if (has_val) {
            p = spira__mm_skip_blanks(p, L->end);
            if (p == L->end || *p == '\n')
                return fail(L, SPIRA_ERR_PARSE, "entry (%lld, %lld) has no value",
                            (long long)i + 1, (long long)j + 1);
            SPIRA__TRY(parse_value(L, c, &p, &x));
        }
        if (i == j && c->symmetry == SPIRA__MM_SKEW) {
            if (x != 0)
                return fail(L, SPIRA_ERR_PARSE,
                            "diagonal entry (%lld, %lld) = %g in a skew-symmetric matrix",
                            (long long)i + 1, (long long)j + 1, x);
            SPIRA__TRY(end_of_entry(L, &p, "entry"));
            r->count++;
            continue; /* an explicit zero on the diagonal: nothing to keep */
        }
        SPIRA__TRY(end_of_entry(L, &p, has_val ? "value" : "column index"));
        if (r->ri) {
            int64_t k = r->kept;
            r->ri[k] = (int32_t)i;
            r->ci[k] = (int32_t)j;
            if (c->dtype == SPIRA_R64 && r->val) ((double *)r->val)[k] = x;
            else if (r->val) ((float *)r->val)[k] = (float)x;
        }
        r->kept++;
        r->count++;
        r->lower += i > j;
        r->upper += i < j;
    }
    L->p = p;
    return SPIRA_OK;
}

/* After the entries: the count must be the declared one, and only noise may follow. */
static spira_status end_of_entries(mm_lexer *L, int64_t got, int64_t declared)
{
    if (got < declared) return truncated(L, got, declared);
    skip_noise(L);
    if (L->p < L->end)
        return fail(L, SPIRA_ERR_PARSE,
                    "more entries than the %lld the size line declares (line %ld)",
                    (long long)declared, L->size_line);
    return SPIRA_OK;
}

/* The whole coordinate body as one run, into c's triplet arrays (not yet mirrored). */
static spira_status read_coordinate(mm_lexer *L, spira__mm_coo *c, int64_t declared,
                                    spira__mm_run *r)
{
    const int has_val = c->field != SPIRA__MM_PATTERN;
    const int64_t room = (int64_t)((L->end - L->p) / (has_val ? 6 : 4)) + 1;
    memset(r, 0, sizeof *r);
    SPIRA__TRY(reserve_run(L->ctx, c, r, declared < room ? declared : room));
    c->ri = r->ri; /* c owns them from here, freed with it */
    c->ci = r->ci;
    c->val = r->val;
    spira_status s = read_entries(L, c, r, declared, 1);
    c->ri = r->ri;
    c->ci = r->ci;
    c->val = r->val;
    return s != SPIRA_OK ? s : end_of_entries(L, r->count, declared);
}

/* Array entries, one value per line, column by column (the lower triangle only when
 * symmetric, without the diagonal when skew-symmetric). */
static spira_status read_array(mm_lexer *L, spira__mm_coo *c, int64_t declared, int64_t *n,
                               int64_t *noff)
{
    const int64_t room = (int64_t)((L->end - L->p) / 2) + 1;
    int64_t cap = declared < room ? declared : room;
    SPIRA__TRY(reserve(L->ctx, c, cap));
    const char *p = L->p;
    int64_t i = c->symmetry == SPIRA__MM_SKEW ? 1 : 0, j = 0, off = 0;
    for (int64_t k = 0; k < declared; k++) {
        if (!next_entry(L, &p)) return truncated(L, k, declared);
        double x;
        SPIRA__TRY(parse_value(L, c, &p, &x));
        SPIRA__TRY(end_of_entry(L, &p, "value"));
        if (k == cap) {
            cap = cap * 2 < declared ? cap * 2 : declared;
            SPIRA__TRY(reserve(L->ctx, c, cap));
        }
        store(c, k, i, j, x);
        off += i != j;
        if (++i == c->nrows) {
            j++;
            i = c->symmetry == SPIRA__MM_GENERAL     ? 0
                : c->symmetry == SPIRA__MM_SYMMETRIC ? j
                                                     : j + 1;
        }
    }
    L->p = p;
    *n = declared;
    *noff = c->symmetry == SPIRA__MM_GENERAL ? 0 : off;
    return SPIRA_OK;
}

/* Mirror the n stored triplets of a symmetric or skew-symmetric file: (j, i, +-v). */
static spira_status expand(mm_lexer *L, spira__mm_coo *c, int64_t n, int64_t noff)
{
    c->nnz = n;
    if (noff == 0) return SPIRA_OK;
    SPIRA__TRY(check_dims(L, c->nrows, c->ncols, n + noff, "symmetric expansion: "));
    SPIRA__TRY(reserve(L->ctx, c, n + noff));
    int64_t m = n;
    for (int64_t t = 0; t < n; t++) {
        if (c->ri[t] == c->ci[t]) continue;
        c->ri[m] = c->ci[t];
        c->ci[m] = c->ri[t];
        if (c->val) {
            double v = spira__get(c->val, c->dtype, t);
            spira__set(c->val, c->dtype, m, c->symmetry == SPIRA__MM_SKEW ? -v : v);
        }
        m++;
    }
    c->nnz = m;
    return SPIRA_OK;
}

/* A symmetric or skew-symmetric file stores each off-diagonal entry once. The spec says
 * in the lower triangle; one in the upper triangle is mirrored the same way (writers
 * differ), but a position given in both, (i, j) and (j, i), would be counted twice: it
 * is refused, naming the first such lower entry in file order. Files that keep to one
 * triangle (the usual case) cost nothing here. */
static spira_status check_one_triangle(mm_lexer *L, const spira__mm_coo *c,
                                       const spira__mm_run *runs, int nruns)
{
    if (c->symmetry == SPIRA__MM_GENERAL) return SPIRA_OK;
    int64_t lower = 0, upper = 0;
    for (int r = 0; r < nruns; r++) {
        lower += runs[r].lower;
        upper += runs[r].upper;
    }
    if (!lower || !upper) return SPIRA_OK;
    /* the upper entries, transposed into the lower triangle, as a sorted pattern */
    int32_t *ti = NULL, *tj = NULL;
    spira__csr U = {0};
    spira_status s = spira__alloc(L->ctx, (void **)&ti, (size_t)upper, sizeof *ti,
                                  "symmetric check rows");
    if (s == SPIRA_OK)
        s = spira__alloc(L->ctx, (void **)&tj, (size_t)upper, sizeof *tj, "symmetric check columns");
    if (s == SPIRA_OK) {
        int64_t m = 0;
        for (int r = 0; r < nruns; r++)
            for (int64_t k = 0; k < runs[r].kept; k++)
                if (runs[r].ri[k] < runs[r].ci[k]) {
                    ti[m] = runs[r].ci[k];
                    tj[m++] = runs[r].ri[k];
                }
        s = spira__csr_from_coo(L->ctx, c->nrows, c->ncols, upper, ti, tj, NULL, SPIRA_R64, &U);
    }
    spira__free(ti);
    spira__free(tj);
    for (int r = 0; s == SPIRA_OK && r < nruns; r++)
        for (int64_t k = 0; s == SPIRA_OK && k < runs[r].kept; k++) {
            int32_t i = runs[r].ri[k], j = runs[r].ci[k];
            if (i <= j) continue;
            int32_t lo = U.row_ptr[i], hi = U.row_ptr[i + 1];
            while (lo < hi) {
                int32_t mid = lo + (hi - lo) / 2;
                if (U.col_idx[mid] < j) lo = mid + 1;
                else hi = mid;
            }
            if (lo < U.row_ptr[i + 1] && U.col_idx[lo] == j)
                s = spira__error(L->ctx, SPIRA_ERR_PARSE,
                                 "%s: (%d, %d) and (%d, %d) are both stored, but a %s file "
                                 "stores each off-diagonal entry once, in one triangle (the "
                                 "other is implied): refused rather than counted twice",
                                 L->name, i + 1, j + 1, j + 1, i + 1,
                                 c->symmetry == SPIRA__MM_SKEW ? "skew-symmetric" : "symmetric");
        }
    spira__csr_free(&U);
    return s;
}

void spira__mm_coo_free(spira__mm_coo *c)
{
    if (!c) return;
    spira__free(c->ri);
    spira__free(c->ci);
    spira__free(c->val);
    c->ri = c->ci = NULL;
    c->val = NULL;
    c->nnz = 0;
}

void spira__mm_runs_free(spira__mm_runs *rs)
{
    if (!rs) return;
    for (int r = 0; r < rs->nruns; r++) {
        spira__free(rs->run[r].ri);
        spira__free(rs->run[r].ci);
        spira__free(rs->run[r].val);
    }
    spira__free(rs->run);
    spira__mm_coo_free(&rs->head);
    rs->run = NULL;
    rs->nruns = 0;
}

#ifdef _OPENMP
#include <omp.h>
#endif

/* Stretches for a body of len bytes: about four per thread (dynamic scheduling evens
 * out lines of different lengths), none under 64 KiB; one for a small body. */
static int auto_chunks(size_t len)
{
    int t = 1;
#ifdef _OPENMP
    t = omp_get_max_threads();
#endif
    size_t n = len / ((size_t)64 << 10);
    if (t <= 1 || n < 2) return 1;
    return n < (size_t)t * 4 ? (int)n : t * 4;
}

/* One stretch of the body being read: its own lexer (lines counted from 0) and status. */
typedef struct {
    mm_lexer L;
    spira_status s;
    int done;
} mm_chunk;

/* The coordinate body split at line starts into nchunks stretches, read in parallel
 * (OpenMP), each into its own run. Any refusal is then found again by the sequential
 * code from the start of the first stretch that went wrong (or whose entries pass the
 * declared count), with the line number and entry count at that point: the message is
 * the one a sequential read gives, whichever thread saw the problem. All allocation
 * happens on the calling thread (the failure-injection hook is not thread-safe): a
 * stretch whose run fills stops, and resumes in another round once it has grown. */
static spira_status read_runs(mm_lexer *L, spira__mm_coo *c, int64_t declared, int nchunks,
                              spira__mm_runs *rs)
{
    const char *body = L->p;
    const size_t len = (size_t)(L->end - body);
    const int has_val = c->field != SPIRA__MM_PATTERN;
    if (nchunks <= 0) nchunks = auto_chunks(len);
    mm_chunk *ch = NULL;
    SPIRA__TRY(spira__alloc(L->ctx, (void **)&ch, (size_t)nchunks, sizeof *ch, "reader chunks"));
    spira_status s = spira__alloc(L->ctx, (void **)&rs->run, (size_t)nchunks, sizeof *rs->run,
                                  "reader runs");
    if (s != SPIRA_OK) {
        spira__free(ch);
        return s;
    }
    memset(rs->run, 0, (size_t)nchunks * sizeof *rs->run);
    rs->nruns = nchunks;
    const char *prev = body;
    for (int i = 0; i < nchunks; i++) {
        const char *a = body + (size_t)((double)len * i / nchunks);
        if (i == 0 || a <= prev) a = prev;
        else {
            const char *nl = memchr(a - 1, '\n', (size_t)(L->end - (a - 1)));
            a = nl ? nl + 1 : L->end;
        }
        ch[i].L = *L;
        ch[i].L.p = a;
        ch[i].L.line = 0;
        ch[i].L.quiet = 1;
        ch[i].s = SPIRA_OK;
        ch[i].done = 0;
        if (i > 0) ch[i - 1].L.end = a;
        prev = a;
    }
    for (int i = 0; s == SPIRA_OK && i < nchunks; i++) {
        size_t n = (size_t)(ch[i].L.end - ch[i].L.p);
        int64_t room = (int64_t)(n / (has_val ? 6 : 4)) + 1;
        int64_t guess = len ? (int64_t)((double)declared * (double)n / (double)len) + 16 : 1;
        s = reserve_run(L->ctx, c, &rs->run[i], guess < room ? guess : room);
    }
    while (s == SPIRA_OK) {
#pragma omp parallel for schedule(dynamic, 1) if (nchunks > 1)
        for (int i = 0; i < nchunks; i++)
            if (!ch[i].done) {
                ch[i].s = read_entries(&ch[i].L, c, &rs->run[i], INT64_MAX, 0);
                ch[i].done = ch[i].s != SPIRA_OK || !rs->run[i].full;
            }
        int again = 0;
        for (int i = 0; s == SPIRA_OK && i < nchunks; i++)
            if (!ch[i].done) {
                spira__mm_run *r = &rs->run[i];
                int64_t room = (int64_t)((ch[i].L.end - ch[i].L.p) / (has_val ? 6 : 4)) + 1;
                s = reserve_run(L->ctx, c, r, r->cap + (room < r->cap ? room : r->cap));
                again = 1;
            }
        if (!again) break;
    }
    /* the first stretch in file order that went wrong or passes the declared count */
    int64_t got = 0;
    long line = L->line;
    int bad = -1;
    for (int i = 0; s == SPIRA_OK && i < nchunks && bad < 0; i++) {
        if (ch[i].s != SPIRA_OK || got + rs->run[i].count > declared) bad = i;
        else {
            got += rs->run[i].count;
            line += ch[i].L.line;
        }
    }
    if (s == SPIRA_OK && (bad >= 0 || got != declared)) {
        if (bad < 0) { /* too few: read the last stretch again to find the end */
            bad = nchunks - 1;
            got -= rs->run[bad].count;
            line -= ch[bad].L.line;
        }
        mm_lexer R = *L;
        R.p = bad > 0 ? ch[bad - 1].L.end : body;
        R.line = line;
        spira__mm_run probe = {0};
        probe.count = got;
        s = read_entries(&R, c, &probe, declared, 0);
        if (s == SPIRA_OK) s = end_of_entries(&R, probe.count, declared);
        if (s == SPIRA_OK) /* cannot happen: the same code on the same text */
            s = spira__error(L->ctx, SPIRA_ERR_PARSE, "%s: the parallel read and the "
                             "sequential one disagree (a bug: please report it)", L->name);
    }
    spira__free(ch);
    int64_t kept = 0, off = 0;
    for (int i = 0; s == SPIRA_OK && i < nchunks; i++) {
        kept += rs->run[i].kept;
        off += rs->run[i].lower + rs->run[i].upper;
    }
    if (s == SPIRA_OK) s = check_one_triangle(L, c, rs->run, nchunks);
    if (s == SPIRA_OK && c->symmetry != SPIRA__MM_GENERAL && off)
        s = check_dims(L, c->nrows, c->ncols, kept + off, "symmetric expansion: ");
    return s;
}

/* The whole text; rs NULL: sequentially into c, mirrored. Else coordinate files go to rs
 * in nchunks stretches (0: auto), array files into c. */
static spira_status parse_all(mm_lexer *L, spira__mm_coo *c, spira__mm_runs *rs, int nchunks)
{
    int64_t declared = 0, n = 0, noff = 0;
    SPIRA__TRY(parse_banner(L, c));
    SPIRA__TRY(parse_size(L, c, &declared));
    if (c->array) {
        SPIRA__TRY(read_array(L, c, declared, &n, &noff));
        SPIRA__TRY(end_of_entries(L, declared, declared));
        return expand(L, c, n, noff);
    }
    if (rs) return read_runs(L, c, declared, nchunks, rs);
    spira__mm_run r;
    SPIRA__TRY(read_coordinate(L, c, declared, &r));
    SPIRA__TRY(check_one_triangle(L, c, &r, 1));
    return expand(L, c, r.kept, c->symmetry == SPIRA__MM_GENERAL ? 0 : r.lower + r.upper);
}

/* Arguments checked and the lexer set up for parse_all. */
static spira_status start(spira_context ctx, const char *name, const char *text, size_t len,
                          spira_dtype dtype, spira__mm_coo *out, mm_lexer *L)
{
    memset(out, 0, sizeof *out);
    if (dtype != SPIRA_R32 && dtype != SPIRA_R64)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown dtype %d", (int)dtype);
    if (!text && len) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL text");
    if (!text) text = "";
    out->dtype = dtype;
    const struct lconv *lc = localeconv();
    *L = (mm_lexer){ctx, name ? name : "(memory)", text, text + len, 1, 0,
                    lc && lc->decimal_point && *lc->decimal_point ? lc->decimal_point : ".", 0,
                    -1};
    return SPIRA_OK;
}

spira_status spira__mm_parse_coo(spira_context ctx, const char *name, const char *text,
                                 size_t len, spira_dtype dtype, spira__mm_coo *out)
{
    mm_lexer L;
    SPIRA__TRY(start(ctx, name, text, len, dtype, out, &L));
    spira_status s = parse_all(&L, out, NULL, 0);
    if (s != SPIRA_OK) spira__mm_coo_free(out);
    return s;
}

spira_status spira__mm_parse_vector_coo(spira_context ctx, const char *name, const char *text,
                                        size_t len, spira_dtype dtype, int64_t want,
                                        spira__mm_coo *out)
{
    mm_lexer L;
    SPIRA__TRY(start(ctx, name, text, len, dtype, out, &L));
    L.vec_want = want > 0 ? want : 0;
    spira_status s = parse_all(&L, out, NULL, 0);
    if (s != SPIRA_OK) spira__mm_coo_free(out);
    return s;
}

spira_status spira__mm_parse_runs(spira_context ctx, const char *name, const char *text,
                                  size_t len, spira_dtype dtype, int nchunks, spira__mm_runs *out)
{
    memset(out, 0, sizeof *out);
    mm_lexer L;
    SPIRA__TRY(start(ctx, name, text, len, dtype, &out->head, &L));
    spira_status s = parse_all(&L, &out->head, out, nchunks);
    if (s != SPIRA_OK) spira__mm_runs_free(out);
    return s;
}

spira_status spira__mm_parse_head(spira_context ctx, const char *text, size_t len,
                                  spira_dtype dtype, spira__mm_coo *head, size_t *body,
                                  int64_t *declared)
{
    mm_lexer L;
    SPIRA__TRY(start(ctx, NULL, text, len, dtype, head, &L));
    L.quiet = 1;
    SPIRA__TRY(parse_banner(&L, head));
    SPIRA__TRY(parse_size(&L, head, declared));
    *body = len - (size_t)(L.end - L.p); /* text may have been NULL (len 0) */
    return SPIRA_OK;
}

/* Each value is checked as it is read, but repeated entries are summed (into the CSR or
 * the dense vector), and 1e308 + 1e308, or 3e38 + 3e38 read as float, is Inf: a sum that
 * is not finite in dtype is refused like an Inf in the file. (row, col) 1-based, col 0
 * for a vector. */
spira_status spira__mm_check_sum(spira_context ctx, const char *name, double x, spira_dtype t,
                                 int64_t row, int64_t col)
{
    if (isfinite(t == SPIRA_R32 ? (float)x : x)) return SPIRA_OK;
    char at[64];
    if (col) snprintf(at, sizeof at, "(%lld, %lld)", (long long)row, (long long)col);
    else snprintf(at, sizeof at, "index %lld", (long long)row);
    return spira__error(ctx, SPIRA_ERR_PARSE, "%s: the entries at %s sum beyond the range of %s",
                        name, at, t == SPIRA_R32 ? "float" : "double");
}

spira_status spira__mm_check_sums(spira_context ctx, const char *name, const spira__csr *A,
                                  int64_t r0)
{
    spira_status s = SPIRA_OK;
    for (int64_t i = r0; s == SPIRA_OK && i < A->nrows; i++)
        for (int32_t k = A->row_ptr[i]; s == SPIRA_OK && k < A->row_ptr[i + 1]; k++)
            s = spira__mm_check_sum(ctx, name, spira__get(A->val, A->dtype, k), A->dtype, i + 1,
                                    A->col_idx[k] + 1);
    return s;
}
