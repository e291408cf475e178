/*
 * suraa.h - SURAA (Muhammed, Mehmood, Albeshri, Katib 2019): CSR with the rows sorted by
 * length, longest first, cut into segments of equal row count, and each segment given the
 * kernel its mean row length asks for:
 *   G1, the leading segments of mean > 32 while their rows number at most `children`:
 *       dynamic parallelism, a parent thread per row launching a child block of Y threads
 *       for it (Y = its length / 2 rounded up to a warp, at most 1024);
 *   G2, the other segments of mean >= 32: a vector kernel of Y threads per row, Y from the
 *       segment's mean the same way;
 *   G3, mean < 32: the paper's scalar kernel, a thread per row, for segments of mean < 8
 *       (all of G3 with option g3=scalar); from 8, V lanes of a warp a row, V from the
 *       segment's mean by csr-vector's rule.
 * Each launch runs on its own stream (joined back to the context's stream before apply
 * returns); row sums go to y[perm[i]].
 *
 * Two departures from the paper, both measured (bench/results/2026-11-23-h100-session4):
 *   - G1 runs as G2 does unless dynamic=1. Dynamic parallelism (built only with configure
 *     --enable-dynamic-parallelism) made the multiply slower on every matrix measured, a
 *     large power-law one and small ones alike, and a library holding such a kernel cannot
 *     run under compute-sanitizer's initcheck at all.
 *   - G3's scalar kernel on longer rows reads each thread's row far from its neighbours':
 *     on uniform random rows of 16 it was several times slower than csr-vector. The paper
 *     names this weakness (low-variance matrices run only the scalar kernel) and suggests a
 *     better CSR kernel for them; sub-warp vectors are csr-vector's, and tie it there.
 *
 * Decisions the paper leaves open (its text: paper 003, sections 4 and 5):
 *   - Segment size is the Freedman-Diaconis rule 2 IQR(npr) / cbrt(m) in rows, with a
 *     floor of 32 rows (option segment= overrides it). The rule alone is 0 rows whenever
 *     a quarter of the rows or more share one length (IQR 0: stencils, bcsstk01) and under
 *     7 rows on most SuiteSparse matrices. 32 rows is a warp of the scalar kernel, so no
 *     finer split changes what any warp does. IQR is taken over npr in ascending order
 *     (the paper's indices, read on its descending array, would make it negative).
 *   - Consecutive segments of one group with the same Y run as one launch. The paper
 *     launches each segment alone; here that would be up to m/32 launches of one warp each.
 *     So there is at most one G3 launch, at most one G1 launch, and one G2 launch per
 *     distinct Y (at most 32).
 *   - Ties in length are ordered by first column, then by row (the paper: by first column).
 *   - The sort runs on the GPU as in the paper, with the rest of the conversion
 *     (suraa_convert_gpu.cu): CUB's radix sort over the key's bits (sort_gpu.cuh); the
 *     host conversion (suraa.c) sorts with qsort.
 *   - A child launch that the device refuses (its pending-launch buffer full) is not lost:
 *     the parent thread sums that row itself. `children` above the device's pending-launch
 *     limit (2048 by default) raises the limit at upload.
 * Option dynamic=0 runs G1 as G2 runs (no dynamic parallelism), to measure what it brings.
 * Every row is summed by one thread or one block in a fixed order: deterministic.
 */
#ifndef SPIRA_SPMV_SURAA_H
#define SPIRA_SPMV_SURAA_H

#include "csr_vector.h"
#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPIRA__SURAA_MIN_SEGMENT 32 /* rows: the floor under the Freedman-Diaconis rule */
#define SPIRA__SURAA_MAX_THREADS 1024 /* a row's threads: one block */
#define SPIRA__SURAA_SCALAR_BELOW 8   /* G3 rows of a shorter mean: a thread a row */

typedef enum {
    SPIRA__SURAA_SUBWARP, /* G3: 1 (the paper's scalar kernel) to 32 lanes of a warp a row */
    SPIRA__SURAA_VECTOR,  /* G2 (and G1 without dynamic parallelism): Y threads a row */
    SPIRA__SURAA_DYNAMIC, /* G1: a parent thread per row launches the row's block */
} spira__suraa_kind;

typedef struct {
    int32_t kind;        /* spira__suraa_kind */
    int32_t first, end;  /* sorted rows [first, end) */
    int32_t threads;     /* threads a row: SUBWARP 1..32 (a power of two), VECTOR a
                          * multiple of 32; DYNAMIC 0 (each row its own) */
} spira__suraa_launch;

typedef struct {
    int32_t nrows, ncols, nnz;
    spira_dtype dtype;
    int32_t *row_ptr, *col_idx; /* the rows in sorted order */
    void *val;
    int32_t *perm;              /* sorted position -> row of A */
    double fd_rows;             /* the Freedman-Diaconis rule's segment size, unfloored */
    int32_t segment;            /* rows per segment used */
    int32_t children, dynamic, g3_scalar; /* options */
    int32_t group_rows[3];      /* G1, G2, G3 */
    int32_t nlaunch;
    spira__suraa_launch launch[40]; /* at most G1, 32 values of Y, 6 of V */
    char stats[200];
} spira__suraa;

/* Y for rows of mean (or exact) length npr: npr / 2 rounded up to a warp, 32..1024. */
static inline SPIRA__HOST_DEVICE int32_t spira__suraa_threads(int64_t npr)
{
    int64_t y = ((npr >> 1) + 31) >> 5 << 5;
    if (y < 32) y = 32;
    return (int32_t)(y > SPIRA__SURAA_MAX_THREADS ? SPIRA__SURAA_MAX_THREADS : y);
}

/* G3's lanes a row. Below SPIRA__SURAA_SCALAR_BELOW entries a thread a row, as the paper:
 * the sorted rows' entries lie end to end, so a warp's threads read one stretch (on a 2-D
 * Laplacian, mean 5, that took half the time of 8 lanes a row). From there V lanes by
 * csr-vector's rule (on uniform random rows of 16, a quarter of the time of one lane). The
 * threshold between 5 and 16 is not measured. */
static inline SPIRA__HOST_DEVICE int32_t spira__suraa_g3_lanes(int g3_scalar, double mean)
{
    if (g3_scalar || mean < SPIRA__SURAA_SCALAR_BELOW) return 1;
    return spira__csr_vector_lanes(mean);
}

/* The group (0, 1, 2: G1, G2, G3) of a segment of `rows` sorted rows holding nnz entries,
 * and its launch's kind and threads. g1: the segment may join G1 (the segments before it
 * did, and its rows keep G1 within `children`). */
static inline SPIRA__HOST_DEVICE int spira__suraa_segment(int g1, int dynamic, int g3_scalar,
                                                          int64_t nnz, int32_t rows,
                                                          int32_t *kind, int32_t *threads)
{
    const double mean = (double)nnz / rows;
    if (g1 && mean > 32) {
        *kind = dynamic ? SPIRA__SURAA_DYNAMIC : SPIRA__SURAA_VECTOR;
        *threads = dynamic ? 0 : spira__suraa_threads(nnz / rows);
        return 0;
    }
    if (mean >= 32) {
        *kind = SPIRA__SURAA_VECTOR;
        *threads = spira__suraa_threads(nnz / rows);
        return 1;
    }
    *kind = SPIRA__SURAA_SUBWARP;
    *threads = spira__suraa_g3_lanes(g3_scalar, mean);
    return 2;
}

/* What the host conversion (suraa.c) and the one on the GPU (suraa_gpu.cu, whose device
 * handle begins with a spira__suraa whose arrays are on the device) share. */
/* The options into S (children, dynamic, g3_scalar) and *segment (0: the rule's). */
spira_status spira__suraa_options(spira_context ctx, const char *opts, spira__suraa *S,
                                  int32_t *segment);
/* S->fd_rows and S->segment from the sorted lengths at m/4 (q3) and 3m/4 (q1). */
void spira__suraa_size_segments(spira__suraa *S, int32_t segment, int32_t q3, int32_t q1);
/* S->stats from the rest of S. */
void spira__suraa_describe(spira__suraa *S);
/* The matrix bytes one multiply reads from a layout of these sizes. */
size_t spira__suraa_bytes_of(int32_t nrows, int32_t nnz, spira_dtype t);
/* The conversion on the GPU (suraa_convert_gpu.cu): S, inside the device handle dev, made
 * from the device CSR dA of A as suraa_convert makes the host layout, its arrays cloned
 * into dev (device.h). */
struct spira__csr_dev;
spira_status spira__suraa_dev_build(spira_context ctx, const spira__csr *A,
                                    const struct spira__csr_dev *dA, const char *opts,
                                    void *dev, spira__suraa *S);

#ifdef __cplusplus
}
#endif
#endif
