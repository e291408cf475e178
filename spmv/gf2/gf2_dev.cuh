/*
 * gf2_dev.cuh - what the GF(2) device halves share (for .cu files): the device handles of
 * the sliced and dense pieces, their multiplies, and the conversions on the GPU from the
 * pattern's device copy (gf2_build_gpu.cu), which make the host builders' layouts
 * (gf2_parts.h) array for array.
 *
 * A piece's multiply XORs into Y through perm as its host multiply does (gf2_parts.h), or,
 * for the standalone sliced format, writes its rows (no accumulate). Every call runs on the
 * context's stream and does not wait, unless it says so.
 */
#ifndef SPIRA_GF2_DEV_CUH
#define SPIRA_GF2_DEV_CUH

#include "gf2_parts.h"
#include "device.h"
#include "cuda/gateway.h"

typedef unsigned long long spira__u64;

#ifdef __cplusplus /* C includes this header too (tests/gpu_gf2_convert.c: the handles) */
/* Device memory of one call in the GPU builds, freed when the call returns, whichever way. */
struct dev_buf {
    spira_context ctx;
    void *p = nullptr;
    explicit dev_buf(spira_context c) : ctx(c) {}
    ~dev_buf() { spira__cuda_free(ctx, p); }
    dev_buf(const dev_buf &) = delete;
    dev_buf &operator=(const dev_buf &) = delete;
    spira_status alloc(size_t bytes, const char *what)
    {
        return spira__cuda_malloc(ctx, &p, bytes ? bytes : 1, what);
    }
};
#endif

/* A sliced-COO piece on the device: the host layout's sizes and arrays, and `parts`, the
 * blocks that share a slice's entries (each XORs its partial rows into Y atomically; 1: a
 * block a slice, the paper's kernel). */
typedef struct {
    int32_t nrows, nnz, nslices, rows, share, words, parts;
    int32_t *slice_ptr, *col;
    uint16_t *row;
} spira__gf2_sliced_dev;

/* The dense bitmap on the device. */
typedef struct {
    int32_t nrows, ngroups, ndense, words;
    int32_t *col;
    uint32_t *bits;
} spira__gf2_dense_dev;

/* The combined layout on the device (gf2_combined_gpu.cu). */
typedef struct {
    int32_t nrows, words;
    int32_t *perm; /* NULL: rows in order */
    spira__gf2_dense_dev dense;
    spira__gf2_sliced_dev band[SPIRA__GF2_BANDS];
} spira__gf2_combined_dev;

/* Y rows of d (gf2_gpu.cu): accumulate 0 writes them (perm must be NULL), 1 XORs into them;
 * a csr band (share SPIRA__GF2_BAND_CSR) always XORs. */
spira_status spira__gf2_sliced_dev_run(spira_context ctx, const spira__gf2_sliced_dev *d,
                                       const int32_t *perm, int accumulate, const spira__u64 *x,
                                       spira__u64 *y);
/* d->parts = parts, or for 0 the parts a slice that keep the device busy: enough blocks for
 * two waves of resident ones, each part at least four entries for each of the shared-memory
 * words a block clears and reads back (a csr band: 1). */
spira_status spira__gf2_sliced_dev_parts(spira_context ctx, spira__gf2_sliced_dev *d,
                                         int parts);
/* Y ^= the bitmap's rows (gf2_dense_gpu.cu): atomic XOR, so Y holds its start first. */
spira_status spira__gf2_dense_dev_run(spira_context ctx, const spira__gf2_dense_dev *d,
                                      const int32_t *perm, const spira__u64 *x, spira__u64 *y);

/* ---- conversions on the GPU (gf2_build_gpu.cu) -----------------------------------------
 * P is a pattern on the device (row_ptr, col_idx; val unused) and drow the row of each of
 * its entries (spira__rows_dev_expand). cls (device, a class a column, gf2_parts.h) picks
 * entries: NULL takes every entry for band[0] (the standalone sliced format). */

/* The slices of nbands bands (band[b]: nrows, rows, share and words set; the arrays are
 * cloned into handle dev). Entries of class b + 1 go to band[b], in slice, then column,
 * then row order: one stable radix sort of the keys (band, slice, column) of entries that
 * come in row order. */
spira_status spira__gf2_dev_bands(spira_context ctx, void *dev, const spira__csr_dev *P,
                                  const int32_t *drow, const uint8_t *cls, int nbands,
                                  spira__gf2_sliced_dev *band);
/* The bitmap of the entries of class 0 (cls NULL: every entry, bitmap column = column),
 * bitmap column dpos[j] for column j; d's sizes set, its bits cloned into dev here (col
 * too when dcol is NULL: 0 .. ndense-1; else d->col is the caller's). */
spira_status spira__gf2_dev_dense(spira_context ctx, void *dev, const spira__csr_dev *P,
                                  const int32_t *drow, const uint8_t *cls, const int32_t *dpos,
                                  spira__gf2_dense_dev *d);

#endif
