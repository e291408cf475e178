/*
 * cmrs.h - compressed multi-row storage (CMRS; Koza, Matyka, Szkoda, Mirosław 2014): CSR
 * with rows grouped into strips of `height` consecutive rows, and a warp per strip instead
 * of per row, so that short rows share a warp's loads. strip_ptr[s] is where strip s's
 * entries begin (row_ptr[s * height]); each entry's row within its strip (0..height-1)
 * rides in the low 4 bits of its column word, as in the paper (so columns < 2^28 and
 * height <= 16). Within a strip the entries are in the matrix's own order, row by row
 * (the paper allows any order), so the values are the matrix's, borrowed (the host CSR's,
 * or on the GPU the matrix's device CSR's, as csr-vector does): a conversion writes the
 * strip pointers and one column word an entry, not a copy of the values. A strip merged
 * into column order (so that a warp's reads of x for neighbouring rows of a banded matrix
 * fall together) took a copy of the values and a search per entry in each other row of its
 * strip, and multiplied no faster on the H100 (bench/results/2026-11-27-session23).
 *
 * Spira takes height from 1, 2, 4, 8, 16 (option height=; default 4 for double, 8 for
 * float, near the paper's Kepler tuning of 4 and 6): a power of two divides the warp, which
 * makes the per-warp reduction of the row sums a fixed shuffle pattern (cmrs_gpu.cu). The
 * paper's "modified kernel" (height 16 with a MODULO-sized buffer and padded strips) is not
 * implemented.
 */
#ifndef SPIRA_SPMV_CMRS_H
#define SPIRA_SPMV_CMRS_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPIRA__CMRS_BITS 4 /* bits of the column word that hold the row within the strip */
#define SPIRA__CMRS_MAX_COLS (INT32_C(1) << (32 - SPIRA__CMRS_BITS))

typedef struct {
    int32_t nrows, ncols, nnz, height, nstrips;
    spira_dtype dtype;
    const spira__csr *csr; /* the host layout's matrix (its upload borrows the device copy
                            * of it); NULL in a handle built on the GPU */
    int32_t *strip_ptr;    /* nstrips + 1 */
    uint32_t *packed;      /* nnz: column << 4 | row within the strip, in the CSR's order */
    const void *val;       /* the matrix's own nnz values, borrowed */
} spira__cmrs;

/* The option height (default 4 in double, 8 in float) and the column refusal, shared by
 * the host conversion (cmrs.c) and the one on the GPU (cmrs_gpu.cu, whose device handle is
 * a spira__cmrs with its arrays on the device). */
spira_status spira__cmrs_height(spira_context ctx, const spira__csr *A, const char *opts,
                                int32_t *height);
/* The matrix bytes one multiply reads from a layout of these sizes. */
size_t spira__cmrs_bytes_of(int32_t nstrips, int32_t nnz, spira_dtype t);

#ifdef __cplusplus
}
#endif
#endif
