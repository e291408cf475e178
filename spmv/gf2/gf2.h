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

/* A row block of M on one device (gf2_devices.c): M's multiplies are split by rows over
 * M->ndev devices of one machine, part d on spira__context_part(M->ctx, d), each made of
 * plain GF(2) matrices of its rows (any format, built on its device) that multiply the
 * whole block X into its rows of Y. N = 1 takes the same path with one part. A part's rows
 * may be cut again into chunks, each its own matrix, so that what one chunk computed is on
 * its way to the other devices while the next is computed. */
#define SPIRA__GF2_CHUNKS_MAX 8
typedef struct {
    spira_context ctx;     /* the part's context: M's for part 0 and on the CPU backend */
    int32_t r0, r1;        /* rows [r0, r1) of M */
    int nchunks;
    int32_t cut[SPIRA__GF2_CHUNKS_MAX + 1]; /* chunk c: rows [cut[c], cut[c + 1]) */
    spira_gf2_matrix sub[SPIRA__GF2_CHUNKS_MAX]; /* the chunks' rows as matrices, their
                                                  * patterns borrowing M's columns */
    spira__event *chunk_done[SPIRA__GF2_CHUNKS_MAX]; /* on the part's stream (N > 1) */
    /* spira_gf2_spmv's copies on the part's device for parts d >= 1 (M's blocks live on
     * part 0's): all of X, and the part's rows of Y, both of `words` words a row */
    uint64_t *x, *y;
    int words;
    spira__event *done;    /* the part's rows of Y are in M's block */
} spira__gf2_part;

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
    int borrowed;             /* a device part's matrix: 1 col_idx, 2 row_ptr are M's */
    int ndev;                 /* devices the multiplies are split over (0: not set, one) */
    int chunks;               /* chunks a part: 1, or SPIRA_GF2_CHUNKS on several devices */
    spira__gf2_part *parts;   /* ndev of them, made on first use; NULL until then */
    spira__event *start;      /* on M's stream: X is ready, Y free, for the parts */
    void (*parts_free)(spira_gf2_matrix M); /* set with the parts (gf2_devices.c, a file
                                             * above this one): how gf2.c drops them */
};

/* The plan for `words`, built on first use. */
spira_status spira__gf2_plan_get(spira_gf2_matrix M, int words, spira__gf2_plan **plan);
void spira__gf2_plans_drop(spira_gf2_matrix M);
/* M's plans and its pattern's device copy (gf2.c), freed. */
void spira__gf2_device_drop(spira_gf2_matrix M);

/* M's parts (gf2_devices.c), made now if need be: *n of them, rows in order. */
spira_status spira__gf2_parts(spira_gf2_matrix M, spira__gf2_part **parts, int *n);
/* Every part's plan for `words` built, each on its device; setup_ms (may be NULL) adds
 * what they took. */
spira_status spira__gf2_parts_prepare(spira_gf2_matrix M, int words, double *setup_ms);
void spira__gf2_parts_free(spira_gf2_matrix M);
void spira__gf2_parts_drop_plans(spira_gf2_matrix M);
/* y (chunk c's rows) = chunk c of the part's rows of M times x (all ncols rows), on the
 * part's context, its device current, its plans prepared. */
spira_status spira__gf2_chunk_apply(spira__gf2_part *p, int c, int words, const uint64_t *x,
                                    uint64_t *y);
/* Y = M X over the parts: each part d >= 1 takes a copy of X, multiplies, and puts its rows
 * into Y; part 0 multiplies in place; M's stream then waits for them all. */
spira_status spira__gf2_parts_spmv(spira_gf2_matrix M, spira_gf2_block X, spira_gf2_block Y);
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
