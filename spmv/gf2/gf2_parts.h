/*
 * gf2_parts.h - the pieces GF(2) layouts are made of, shared by the formats that hold them
 * (gf2.h names the formats): the chapter's dense bitmap (gf2_dense.c), sliced COO over a
 * subset of the columns (gf2_sliced.c), and the combined layout (gf2_combined.c) that
 * orders rows and columns by density and holds one bitmap and up to three sliced bands.
 *
 * Every piece multiplies into rows named through perm: row i of the piece is row perm[i]
 * of Y (perm NULL: row i), and its host multiply XORs into Y (accumulate), so that pieces
 * over the same rows add up; Y starts at zero. Pieces never read X through a permutation:
 * they keep X's own column numbers.
 */
#ifndef SPIRA_SPMV_GF2_PARTS_H
#define SPIRA_SPMV_GF2_PARTS_H

#include "gf2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the dense bitmap (gf2_dense.c; kernel in gf2_dense_gpu.cu) ------------------------
 * The chapter's dense format: one bit an entry, 32 rows of a column in a 32-bit word, and
 * the words of one group of 32 rows consecutive over the columns, so that threads of
 * consecutive columns read consecutive words. */
#define SPIRA__GF2_DENSE_ROWS 32 /* rows a word */
typedef struct {
    int32_t nrows, ngroups, ndense, words; /* ngroups = ceil(nrows / 32) */
    int32_t *col;    /* ndense: X's row (the matrix's column) of bitmap column d */
    uint32_t *bits;  /* ngroups * ndense: bit r of bits[g * ndense + d] is entry (32 g + r, col[d]) */
} spira__gf2_dense;

/* D over the rows of P (rows in P's order) and the columns j with dpos[j] >= 0, bitmap
 * column dpos[j] (dcol: the inverse, ndense columns, copied); dpos NULL: every column, in
 * order. Sizes are checked before anything is allocated; on failure nothing is left. */
spira_status spira__gf2_dense_build(spira_context ctx, const spira__gf2_pattern *P,
                                    const int32_t *dpos, const int32_t *dcol, int32_t ndense,
                                    int words, spira__gf2_dense *D);
void spira__gf2_dense_free(spira__gf2_dense *D); /* the arrays; D itself is the caller's */
size_t spira__gf2_dense_bytes(const spira__gf2_dense *D);
void spira__gf2_dense_accumulate(const spira__gf2_dense *D, const int32_t *perm,
                                 const uint64_t *x, uint64_t *y);
/* The standalone dense format's bound: SPIRA_ERR_UNSUPPORTED naming the bytes unless the
 * bitmap of an nrows x ncols matrix is at most max_fill times its CSR's bytes. */
spira_status spira__gf2_dense_check(spira_context ctx, int32_t nrows, int32_t ncols, int32_t nnz,
                                    long max_fill);

/* ---- sliced COO pieces (gf2_sliced.c) ---------------------------------------------------
 * A band may also be csr: slices of one row (so slice_ptr is the band's row pointers and
 * every row index 0), multiplied on the GPU by the csr kernel, V lanes a row. */
enum { SPIRA__GF2_BAND_CSR = SPIRA__GF2_SHARE_BLOCK + 1 };
/* The sliced-coo format's options (words, share, rows), checked as its convert does. */
spira_status spira__gf2_sliced_options(spira_context ctx, const char *opts, int *words,
                                       int *share, long *rows);
/* The rows a slice that fit 48 KiB of shared memory for share and words (1 for a csr band). */
int32_t spira__gf2_sliced_fit(int share, int words);
/* L = sliced COO of the entries (i, j) of P with band[j] == which (band NULL: all), slices
 * of `rows` rows of P; PT is P's transpose (its rows list each column's rows ascending).
 * L's arrays are allocated here; on failure none is left. */
spira_status spira__gf2_sliced_build(spira_context ctx, const spira__gf2_pattern *P,
                                     const spira__csr *PT, const uint8_t *band, int which,
                                     int words, int share, int32_t rows, spira__gf2_sliced *L);
void spira__gf2_sliced_free(spira__gf2_sliced *L); /* the arrays */
size_t spira__gf2_sliced_bytes(const spira__gf2_sliced *L);
void spira__gf2_sliced_accumulate(const spira__gf2_sliced *L, const int32_t *perm,
                                  const uint64_t *x, uint64_t *y);

/* ---- combined (gf2_combined.c; device half in gf2_combined_gpu.cu) ----------------------
 * Rows ordered by weight (heaviest first, ties in order: perm, NULL when that is the
 * identity); columns classed by density, a column of c entries being
 *   dense   when c * dense >= nrows (dense > 0),
 *   band 1  else when c * cut1 >= nrows,
 *   band 2  else when c * cut2 >= nrows,
 *   band 3  otherwise,
 * the dense class in the bitmap (columns in X's order) and each band in the sliced
 * sub-format its option names (thread, warp, block: SS, MS, LS; or csr), over the ordered
 * rows, each slice's entries in X's order. */
enum { SPIRA__GF2_BANDS = 3 };
typedef struct {
    int32_t dense, cut[2];          /* the cut-offs (rows per entry of a column) */
    int32_t parts;                  /* blocks a slice on the GPU (0: as many as fill it) */
    int32_t share[SPIRA__GF2_BANDS]; /* spira__gf2_share of each band, or SPIRA__GF2_BAND_CSR */
    const char *source;             /* where the defaults came from (a device, or generic) */
} spira__gf2_cuts;

typedef struct {
    int32_t nrows, ncols, nnz, words;
    spira__gf2_cuts cuts;
    int32_t *perm;                            /* nrows, or NULL: rows in order */
    spira__gf2_dense dense;
    spira__gf2_sliced band[SPIRA__GF2_BANDS]; /* nnz 0: empty band */
    char stats[256];
} spira__gf2_combined;

/* The cut-offs of opts over the defaults measured for ctx's device (gf2_combined.c says
 * how they were found); SPIRA_ERR_INVALID_ARG naming a bad value. */
spira_status spira__gf2_combined_cuts(spira_context ctx, const char *opts, spira__gf2_cuts *c);
#ifdef __CUDACC__
#define SPIRA__GF2_HD __host__ __device__
#else
#define SPIRA__GF2_HD
#endif
/* The class of a column of count entries among nrows rows: 0 dense, 1..3 a band (also the
 * conversion on the GPU's). */
static inline SPIRA__GF2_HD int spira__gf2_column_class(const spira__gf2_cuts *c, int64_t count,
                                                        int64_t nrows)
{
    if (c->dense > 0 && count > 0 && count * c->dense >= nrows) return 0;
    if (count * c->cut[0] >= nrows) return 1;
    if (count * c->cut[1] >= nrows) return 2;
    return 3;
}
void spira__gf2_combined_stats(spira__gf2_combined *L); /* fills L->stats */

/* The device copy of a pattern, which the GF(2) conversions on the GPU read (gf2.c keeps
 * one a matrix): a spira__csr_dev handle (cuda/gateway.h) whose val is NULL, uploaded from
 * the spira__gf2_pattern its layout is (gf2_build_gpu.cu). */
extern const spira__format_gpu spira__gf2_pattern_gpu;

#ifdef __cplusplus
}
#endif
#endif
