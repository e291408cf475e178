/*
 * gf2.h - SpMV over GF(2) (Schmidt, Aribowo, Dang: the chapter on block Wiedemann's SpMV):
 * the matrix and block objects, and the ops table of a GF(2) format, which has the shape of
 * the real formats' (spmv.h) with the block's words per row (W / 64 = 1, 2 or 4) in place
 * of alpha and beta.
 *
 * Formats:
 *   csr          the pattern as CSR; on the GPU V lanes of a warp a row (V from the mean
 *                row length, csr-vector's rule), each XORing rows of X, then a shuffle XOR.
 *   sliced-coo   the paper's sliced COO: slices of R consecutive rows, each slice's entries
 *                in column order (so neighbouring threads read neighbouring rows of X); a
 *                block per slice XORs into the slice's rows held in shared memory, then
 *                writes them once. Option share= picks the paper's three sub-formats by who
 *                shares a row's shared-memory word: thread (SS-COO: every thread its own
 *                copy of every row, no atomics, few rows a slice), warp (MS-COO: lane k of
 *                every warp shares one copy, atomic XOR between warps) or block (LS-COO: one
 *                copy, atomic XOR, the most rows a slice). rows=R overrides the rows a slice
 *                that fit 48 KiB of shared memory.
 * XOR is exact, so every format gives the same bits on every run.
 */
#ifndef SPIRA_SPMV_GF2_H
#define SPIRA_SPMV_GF2_H

#include "spira_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The pattern: row_ptr / col_idx of a spira__csr with val NULL. */
typedef spira__csr spira__gf2_pattern;

typedef struct spira__gf2_format {
    const char *name;
    const char *description;
    const char *options; /* option keys, space-separated */
    /* Host layout for blocks of `words` words a row (layouts sized for shared memory
     * depend on it); may borrow A. */
    spira_status (*convert)(spira_context ctx, const spira__gf2_pattern *A, int words,
                            const char *opts, void **layout);
    /* CPU reference over the layout: y = A x, x and y `words` words a row. */
    void (*host_apply)(const void *layout, int words, const uint64_t *x, uint64_t *y);
    size_t (*bytes)(const void *layout); /* matrix bytes one multiply reads */
    void (*destroy_layout)(void *layout); /* NULL: borrowed */
    /* CUDA backend; NULL in a build without CUDA */
    spira_status (*upload)(spira_context ctx, const void *layout, void **dev);
    spira_status (*apply)(spira_context ctx, void *dev, int words, const uint64_t *dx,
                          uint64_t *dy);
    void (*destroy_dev)(spira_context ctx, void *dev);
} spira__gf2_format;

const spira__gf2_format *spira__gf2_format_find(const char *name);

/* One plan per block width (1, 2, 4 words: slots 0, 1, 2). */
typedef struct {
    const spira__gf2_format *fmt;
    void *layout, *dev;
    double build_ms;
} spira__gf2_plan;

struct spira_gf2_matrix_s {
    spira_context ctx;
    spira__gf2_pattern pattern;
    char format[32], format_opts[64];
    spira__gf2_plan plan[3];
};

/* The plan for `words`, built on first use. */
spira_status spira__gf2_plan_get(spira_gf2_matrix M, int words, spira__gf2_plan **plan);
void spira__gf2_plans_drop(spira_gf2_matrix M);

/* csr (gf2.c): the borrowed pattern; its multiply is the CPU reference. */
void spira__gf2_csr_multiply(const spira__gf2_pattern *A, int words, const uint64_t *x,
                             uint64_t *y);

/* csr on the GPU (gf2_gpu.cu): the device copy of the pattern */
spira_status spira__gf2_csr_upload(spira_context ctx, const void *layout, void **dev);
spira_status spira__gf2_csr_apply(spira_context ctx, void *dev, int words, const uint64_t *dx,
                                  uint64_t *dy);
void spira__gf2_csr_dev_destroy(spira_context ctx, void *dev);

/* sliced COO (gf2_sliced.c; kernel in gf2_gpu.cu) */
typedef enum { SPIRA__GF2_SHARE_THREAD, SPIRA__GF2_SHARE_WARP, SPIRA__GF2_SHARE_BLOCK } spira__gf2_share;
#define SPIRA__GF2_THREADS 256            /* threads a block in the sliced kernels */
#define SPIRA__GF2_SHARED_WORDS (48 * 128) /* 48 KiB of uint64_t words a block */
typedef struct {
    int32_t nrows, ncols, nnz, rows, nslices, words;
    int32_t share;           /* spira__gf2_share */
    int32_t copies;          /* shared-memory copies of a row: 256, 32 or 1 */
    int32_t *slice_ptr;      /* nslices + 1 */
    int32_t *col;            /* nnz, in column order within a slice */
    uint16_t *row;           /* nnz: row within the slice */
} spira__gf2_sliced;

spira_status spira__gf2_sliced_convert(spira_context ctx, const spira__gf2_pattern *A, int words,
                                       const char *opts, void **layout);
void spira__gf2_sliced_host_apply(const void *layout, int words, const uint64_t *x, uint64_t *y);
size_t spira__gf2_sliced_bytes(const void *layout);
void spira__gf2_sliced_destroy(void *layout);
spira_status spira__gf2_sliced_upload(spira_context ctx, const void *layout, void **dev);
spira_status spira__gf2_sliced_apply(spira_context ctx, void *dev, int words, const uint64_t *dx,
                                     uint64_t *dy);
void spira__gf2_sliced_dev_destroy(spira_context ctx, void *dev);

#ifdef __cplusplus
}
#endif
#endif
