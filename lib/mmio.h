/*
 * mmio.h - the Matrix Market reader's private pieces, shared by lib/mmio_parse.c (text to
 * triplets), lib/mmio_read.c (files, gzip, the CSR and vector entry points) and
 * lib/mmio_write.c.
 *
 * What is read: "%%MatrixMarket matrix FORMAT FIELD SYMMETRY" with FORMAT coordinate or
 * array, FIELD real, double, integer or pattern (values 1), SYMMETRY general, symmetric or
 * skew-symmetric (expanded to full storage). complex and hermitian are refused with
 * SPIRA_ERR_UNSUPPORTED. Keywords are case-insensitive; '%' comment lines and blank lines
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

/* Parse text [text, text + len) (need not be NUL-terminated). Errors read
 * "NAME:LINE: what". On failure *out holds nothing to free. */
spira_status spira__mm_parse_coo(spira_context ctx, const char *name, const char *text,
                                 size_t len, spira_dtype dtype, spira__mm_coo *out);
void spira__mm_coo_free(spira__mm_coo *c);

/* The whole content of a file, gunzipped when it starts with the gzip magic bytes
 * (whatever its name). *text is NUL-terminated, freed with spira__free. Missing or
 * unreadable file: SPIRA_ERR_IO with strerror; corrupt gzip: SPIRA_ERR_IO with zlib's
 * message. */
spira_status spira__mm_load(spira_context ctx, const char *path, char **text, size_t *len);

#endif
