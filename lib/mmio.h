/*
 * mmio.h - the Matrix Market reader's private pieces, shared by lib/mmio_load.c (files,
 * gzip), lib/mmio_parse.c (text to triplets), lib/mmio_read.c (the CSR and vector entry
 * points) and lib/mmio_write.c.
 *
 * What is read: "%%MatrixMarket matrix FORMAT FIELD SYMMETRY" with FORMAT coordinate or
 * array, FIELD real, double, integer or pattern (values 1), SYMMETRY general, symmetric or
 * skew-symmetric (expanded to full storage). complex and hermitian are refused with
 * SPIRA_ERR_UNSUPPORTED. A symmetric or skew-symmetric file stores each off-diagonal entry
 * once, in either triangle (one given at both (i, j) and (j, i) is refused rather than
 * counted twice). Keywords are case-insensitive; '%' comment lines and blank lines
 * may appear anywhere after the banner; blanks at line ends and CRLF are fine. One entry
 * per line. Values must be plain decimal numbers: "nan", "inf" and values beyond the
 * range of the requested precision are a parse error naming the line.
 */
#ifndef SPIRA_MMIO_H
#define SPIRA_MMIO_H

#include "spira_impl.h"

typedef enum { SPIRA__MM_REAL, SPIRA__MM_INTEGER, SPIRA__MM_PATTERN } spira__mm_field;
typedef enum { SPIRA__MM_GENERAL, SPIRA__MM_SYMMETRIC, SPIRA__MM_SKEW } spira__mm_symmetry;

/* A parsed file: 0-based triplets in file order, symmetric halves already mirrored. */
typedef struct {
    int array;                   /* 1: array (dense, column-major) format; 0: coordinate */
    spira__mm_field field;
    spira__mm_symmetry symmetry;
    int64_t nrows, ncols;
    int64_t nnz;                 /* triplets after expansion (<= INT32_MAX) */
    int32_t *ri, *ci;            /* nnz row and column indices, 0-based */
    void *val;                   /* nnz values of dtype; NULL for pattern (all ones) */
    spira_dtype dtype;
} spira__mm_coo;

/* The triplets of one stretch of a coordinate file, in file order, symmetric halves not
 * mirrored. */
typedef struct {
    int32_t *ri, *ci;            /* kept row and column indices, 0-based */
    void *val;                   /* kept values of dtype; NULL for pattern */
    int64_t cap, kept;           /* room and triplets kept */
    int64_t count;               /* entries read: kept + skew-symmetric zero diagonals */
    int64_t lower, upper;        /* kept entries below and above the diagonal */
    int full;                    /* the read stopped for room (read_runs grows it) */
} spira__mm_run;

/* A file read by stretches: coordinate files as nruns runs in file order; array files as
 * nruns = 0 with head holding the mirrored triplets (spira__mm_parse_coo's). */
typedef struct {
    spira__mm_coo head;          /* banner and sizes (and an array file's triplets) */
    int nruns;
    spira__mm_run *run;
} spira__mm_runs;

/* Parse text into runs: the body of a coordinate file is cut at line starts into nchunks
 * stretches (0: by the text's size and the OpenMP threads) read in parallel. Accepts and
 * refuses exactly what spira__mm_parse_coo does, with the same message (the first
 * problem in file order, its line). On failure *out holds nothing to free. */
spira_status spira__mm_parse_runs(spira_context ctx, const char *name, const char *text,
                                  size_t len, spira_dtype dtype, int nchunks, spira__mm_runs *out);
void spira__mm_runs_free(spira__mm_runs *rs);
/* Runs to canonical CSR, built in parallel (rows split between the threads, so the
 * scatter stays in file order: the same arrays, bit for bit, as spira__csr_from_coo on the
 * mirrored triplets); frees the runs either way. */
spira_status spira__mm_runs_to_csr(spira_context ctx, const char *name, spira__mm_runs *rs,
                                   spira__csr *out, int *symmetric);
/* Repeated entries are summed (into the CSR or a dense vector): a sum x that is not
 * finite in t is refused like an Inf in the file, naming the entry, (row, col) 1-based,
 * col 0 for a vector. */
spira_status spira__mm_check_sum(spira_context ctx, const char *name, double x, spira_dtype t,
                                 int64_t row, int64_t col);
/* spira__mm_check_sum over A's values from row r0 on, in row order: the first one out of
 * range is the one named. */
spira_status spira__mm_check_sums(spira_context ctx, const char *name, const spira__csr *A,
                                  int64_t r0);

/* The end of every CSR build from a file: rows out of column order sorted, repeated
 * entries summed and (values: the file has them) the sums checked; by nt threads. */
spira_status spira__mm_csr_finish(spira_context ctx, const char *name, spira__csr *out,
                                  int values, int nt);

/* The banner and size line of text, quietly (a refusal returns its status, no message):
 * head's banner fields and sizes, the body's offset, the declared entries. */
spira_status spira__mm_parse_head(spira_context ctx, const char *text, size_t len,
                                  spira_dtype dtype, spira__mm_coo *head, size_t *body,
                                  int64_t *declared);

/* The fast path for the common coordinate file (lib/mmio_fast.c): text to canonical CSR
 * in two passes over the text by nchunks threads (0: auto), no triplets. It takes only
 * what it is sure of and declines anything else (returns 0, *out empty) for the general
 * reader, which words every refusal; once it took the text (returns 1), *s is SPIRA_OK
 * with *out built, an allocation's refusal, or the general reader's refusal of a sum of
 * repeated entries beyond the range (same message). The arrays are the general reader's,
 * bit for bit. */
int spira__mm_fast_csr(spira_context ctx, const char *name, const char *text, size_t len,
                       spira_dtype dtype, int nchunks, spira__csr *out, int *symmetric,
                       spira_status *s);

/* Set, the fast path keeps its generic loops where it has loops compiled for the
 * processor too (lib/mmio_fast.c, x86-64): the tests' way to run both. */
extern int spira__mm_fast_generic;

/* Text to CSR: the fast path, else the runs. nchunks as for spira__mm_parse_runs;
 * SPIRA__MM_TRIPLETS takes the sequential path (spira__mm_parse_coo, spira__csr_from_coo),
 * the reference the tests compare the others with; nchunks | SPIRA__MM_NO_FAST skips the
 * fast path (the tests' way to the runs). */
#define SPIRA__MM_TRIPLETS (-1)
#define SPIRA__MM_NO_FAST 0x40000000
spira_status spira__mm_parse_chunks(spira_context ctx, const char *name, const char *text,
                                    size_t len, spira_dtype dtype, int nchunks, spira__csr *out,
                                    int *symmetric);

/* Parse text [text, text + len) (need not be NUL-terminated). Errors read
 * "NAME:LINE: what". On failure *out holds nothing to free. */
spira_status spira__mm_parse_coo(spira_context ctx, const char *name, const char *text,
                                 size_t len, spira_dtype dtype, spira__mm_coo *out);
void spira__mm_coo_free(spira__mm_coo *c);
/* spira__mm_parse_coo for a dense vector: the size line must declare n x 1 or 1 x n, of
 * length want when want > 0, and n doubles must fit the memory budget; all refused at the
 * size line, before anything is allocated. */
spira_status spira__mm_parse_vector_coo(spira_context ctx, const char *name, const char *text,
                                        size_t len, spira_dtype dtype, int64_t want,
                                        spira__mm_coo *out);

/* The whole content of a file, gunzipped when it starts with the gzip magic bytes
 * (whatever its name). *text is NUL-terminated, freed with spira__free. Missing or
 * unreadable file: SPIRA_ERR_IO with strerror; corrupt gzip: SPIRA_ERR_IO with zlib's
 * message. */
spira_status spira__mm_load(spira_context ctx, const char *path, char **text, size_t *len);
/* spira__mm_load, or for a large regular file of plain text, the file mapped read-only
 * (*mapped = 1; not NUL-terminated). Released by spira__mm_unmap. */
spira_status spira__mm_map(spira_context ctx, const char *path, char **text, size_t *len,
                           int *mapped);
void spira__mm_unmap(char *text, size_t len, int mapped);

/* A path as messages name it: itself when short, else its first 64 and last 200 bytes
 * around "...", so that what follows it (the cause) survives the context's 1,024-byte
 * message. buf: SPIRA__MM_NAME_MAX bytes. */
#define SPIRA__MM_NAME_MAX 272
const char *spira__mm_name(const char *path, char *buf);

/* Ask the kernel for huge pages under [p, p + bytes) (large buffers about to be filled:
 * fewer page faults when many threads fill them); only a hint. */
void spira__mm_hint_huge(void *p, size_t bytes);

#endif
