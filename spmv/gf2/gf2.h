/*
 * gf2.h - SpMV over GF(2) (Schmidt, Aribowo, Dang: the chapter on block Wiedemann's SpMV):
 * the matrix, and its formats, which are SpMV formats (format.h) of another algebra: the
 * same ops table, registry lookup and plans as the real ones (spmv.h), with these
 * differences. A GF(2) format converts the pattern (a spira__csr whose val is NULL) for
 * blocks of W bits, W / 64 = 1, 2 or 4 words a row: the plan passes that as the option
 * words=1|2|4, which users do not set (it is not among the keys a format declares), and
 * the layout keeps it. Its applies compute Y = M X on rows of that many uint64_t words;
 * alpha is 1 and beta 0, always.
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
 *   dense        the paper's dense bitmap: 32 rows of a column in a 32-bit word, a thread a
 *                column, XOR partials per warp and per block, atomic XOR into Y; the whole
 *                matrix as a bitmap, refused beyond max_fill (default 3) times its CSR's
 *                bytes.
 *   combined     the paper's full format: rows by weight, the columns classed by density,
 *                the dense ones in the bitmap, the rest in three sliced-COO bands, each in
 *                the sub-format its option names (or csr); the cut-offs' defaults are measured per
 *                device (gf2_combined.c). The row order stays inside the plan.
 * The pieces the last two are made of, shared with sliced-coo, are in gf2_parts.h. On the
 * CUDA backend sliced-coo, dense and combined are converted on the GPU from the pattern's
 * device copy (gf2_build_gpu.cu), the host conversion staying the CPU backend's layout and
 * the reference check_gpu compares them with.
 * XOR is exact, so every format gives the same bits on every run.
 */
#ifndef SPIRA_SPMV_GF2_H
#define SPIRA_SPMV_GF2_H

#include "spmv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The pattern: row_ptr / col_idx of a spira__csr with val NULL. */
typedef spira__csr spira__gf2_pattern;
typedef spira__format spira__gf2_format;
typedef spira__spmv_plan spira__gf2_plan;

/* The registry of GF(2) formats (gf2.c). */
const spira__format *spira__gf2_format_find(const char *name);

struct spira_gf2_matrix_s {
    spira_context ctx;
    spira__gf2_pattern pattern;
    char format[32], format_opts[128];
    spira__gf2_plan *plan[3]; /* one per block width: 1, 2, 4 words */
    /* The pattern on the device for the conversions on the GPU (gf2_parts.h), uploaded by
     * the first plan that converts there, kept for the others (NULL: none yet); upload_ms
     * what that took, given to that plan's upload time. */
    void *pattern_dev;
    double pattern_upload_ms;
};

/* The plan for `words`, built on first use. */
spira_status spira__gf2_plan_get(spira_gf2_matrix M, int words, spira__gf2_plan **plan);
void spira__gf2_plans_drop(spira_gf2_matrix M);
/* The words a row the plan's format was converted for, from opts (gf2.c adds it). */
spira_status spira__gf2_opt_words(spira_context ctx, const char *opts, int *words);

/* csr (gf2_csr.c): the borrowed pattern and the width. Its multiply is the CPU reference. */
typedef struct {
    const spira__gf2_pattern *A;
    int words;
} spira__gf2_csr;
void spira__gf2_csr_multiply(const spira__gf2_pattern *A, int words, const uint64_t *x,
                             uint64_t *y);

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

#ifdef __cplusplus
}
#endif
#endif
