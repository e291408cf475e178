/*
 * spmv.h - the SpMV backend's formats (format.h, listed in registry.c) and the plan a
 * matrix caches: a format's layout of the matrix, and on the CUDA backend its device
 * handle, built once and reused by every multiply.
 */
#ifndef SPIRA_SPMV_H
#define SPIRA_SPMV_H

#include "format.h"
#include "replay.h"

typedef struct spira__csr_dev spira__csr_dev; /* cuda/gateway.h */

#ifdef __cplusplus
extern "C" {
#endif

/* The registry (registry.c). */
const spira__format *spira__format_find(const char *name);
/* *f = the format called name; SPIRA_ERR_INVALID_ARG listing the known names otherwise. */
spira_status spira__format_get(spira_context ctx, const char *name, const spira__format **f);
/* The same over another list (GF(2)'s): *f = the one of n called name; SPIRA_ERR_INVALID_ARG
 * naming kind and the known names, then also (NULL: nothing) otherwise. */
spira_status spira__format_in(spira_context ctx, const char *kind,
                              const spira__format *const *list, int n, const char *also,
                              const char *name, const spira__format **f);
int spira__format_total(void);
const spira__format *spira__format_at(int i);

/* What a matrix caches per (format, options): built once, reused by every SpMV. A GF(2)
 * matrix (gf2/gf2.h) caches the same plans of its own formats. */
typedef struct {
    spira_context ctx;
    const spira__format *fmt;
    void *layout;        /* NULL when the plan was converted on the GPU */
    void *dev;           /* NULL on the CPU backend */
    int on_device;       /* converted on the GPU (format_gpu.build) */
    size_t bytes;
    double convert_ms;   /* analysis + conversion, on the host or (on_device) the GPU */
    double upload_ms;    /* device allocation + copy (0 on the CPU), the matrix's device
                          * CSR's included in the plan that made it */
    int64_t *multiplies; /* the matrix's count, one more at every apply (NULL: none) */
    uint64_t serial;     /* unique in the process: a plan built where a freed one was is
                          * told from it (CG's graph holds the device arrays it captured) */
    spira__replay replay; /* the multiply's graphs (replay.h), on the CUDA backend */
} spira__spmv_plan;

/* A plan of format f (kind: "SpMV" or "GF(2)", for messages) for A with options opts: on
 * the CUDA backend, built on the GPU from dA (A's device copy) when f can, else converted on
 * the host and uploaded (a CSR-family upload borrowing dA's arrays; dA NULL: none). */
spira_status spira__plan_build(spira_context ctx, const char *kind, const spira__format *f,
                               const spira__csr *A, const spira__csr_dev *dA, const char *opts,
                               spira__spmv_plan **out);
void spira__plan_destroy(void *plan); /* NULL is fine */
/* What p cost and holds, as spira_matrix_plan_info and spira_gf2_matrix_plan_info give it. */
void spira__plan_info(const spira__spmv_plan *p, spira_plan_info *info);

/* Whether A caches a plan of format with no options. */
int spira__spmv_plan_cached(spira_matrix A, const char *format);
/* Put p, a plan of A's built on another context of A's device (background.h), into A's
 * cache as its format's plan with no options, to be applied on A's context; p is A's
 * cache's from then on, destroyed on failure too. */
spira_status spira__spmv_plan_adopt(spira_matrix A, spira__spmv_plan *p);

/* A's canonical CSR on the device, uploaded at the first call and cached in A for every
 * plan built from it (the CSR family borrows it, the GPU conversions read it). *upload_ms
 * (NULL: not asked) what uploading took, given once, to the first caller that asks: the
 * plan it was uploaded for, or the first plan after auto's statistics uploaded it (which
 * do not ask); 0 after. NULL on the CPU backend and in a context that converts on the
 * host. */
typedef struct {
    spira_context ctx;
    void *dev;           /* a spira__csr_dev handle (device.h) */
    double unclaimed_ms; /* the upload's time, until a caller asks for it */
} spira__csr_dev_entry;
spira_status spira__matrix_csr_dev(spira_matrix A, const spira__csr_dev **dA, double *upload_ms);
/* A's device CSR if a plan or the format choice has uploaded it already, else NULL (no upload). */
const spira__csr_dev *spira__matrix_csr_dev_present(spira_matrix A);
/* *A = a new matrix of shape's sizes and type whose CSR is dev alone (a device handle of
 * csr-scalar's, taken over: destroyed on failure too), its host arrays absent until a host
 * conversion needs them (spira__matrix_host_csr, which spira__spmv_plan_lookup calls). For
 * the library's own matrices (PageRank's P^T), never handed to callers: the public calls
 * read the host arrays. */
spira_status spira__matrix_adopt_csr_dev(spira_context ctx, const spira__csr *shape, void *dev,
                                         spira_matrix *A);
/* A's host CSR downloaded from its device CSR if A was made on the device; else nothing. */
spira_status spira__matrix_host_csr(spira_matrix A);
/* *AT = A^T with row i of A scaled by row_scale[i] (NULL: none) in double, rounded once to
 * A's type: made on the GPU when the CUDA backend converts there (AT's CSR then on the device
 * alone, as spira__matrix_adopt_csr_dev's), else on the host; the same arrays either way
 * (transpose.c). */
spira_status spira__matrix_transpose_scaled(spira_matrix A, const double *row_scale,
                                            spira_matrix *AT);
/* Fills scale[i], A's row i's scale, where the transpose runs: from A's device CSR dA into
 * device memory, or (dA NULL) from A's host CSR into host memory; an error stops the
 * transpose. */
typedef spira_status (*spira__row_scale_fn)(spira_matrix A, const spira__csr_dev *dA,
                                            double *scale, void *arg);
/* The same with the scales made by scales(A, dA, scale, arg) where the transpose runs, so
 * that a caller whose scales come from A's entries (PageRank's 1 / row sums) computes them
 * on the GPU from the upload the transpose makes anyway (NULL: not scaled). */
spira_status spira__matrix_transpose_by(spira_matrix A, spira__row_scale_fn scales, void *arg,
                                        spira_matrix *AT);

/* The plan of A's selected format, built on first call, a choice auto still has to make
 * made first (multiply.c). */
spira_status spira__spmv_plan_get(spira_matrix A, spira__spmv_plan **plan);
/* The same without asking auto: the plan of the format A names now (spmv.c). */
spira_status spira__spmv_plan_lookup(spira_matrix A, spira__spmv_plan **plan);
/* The format A multiplies with: what spira_matrix_set_format chose, else the default
 * (csr-scalar), which this records in A. Solvers report it. */
const char *spira__matrix_format(spira_matrix A);
/* Give B A's format and options unless it has them already (PageRank's P^T follows G; auto.c). */
spira_status spira__matrix_format_follow(spira_matrix B, spira_matrix A);
/* The plan a caller that expects to make about expect multiplies with A will use: when A's
 * format is auto's, the choice is weighed again first (auto.c). */
spira_status spira__spmv_plan_expect(spira_matrix A, double expect, spira__spmv_plan **plan);
/* The same with what A's reason says of where expect came from (NULL: "N expected by this
 * solve"). */
spira_status spira__spmv_plan_said(spira_matrix A, double expect, const char *source,
                                   spira__spmv_plan **plan);
/* A staged solve's first plan: as _said for its first stage's multiplies, preferring the
 * format the whole solve's would choose where that costs the stage at most half its setup
 * more (spira__auto_rule's prefer). */
spira_status spira__spmv_plan_staged(spira_matrix A, double stage, double whole,
                                     const char *source, spira__spmv_plan **plan);
/* After a solve with A: its iterations took solve_ms; auto's reason gets the realized totals. */
void spira__spmv_account(spira_matrix A, double solve_ms);
/* A's format still "auto", or auto's choice due to be weighed again (spira_spmv's callers say
 * nothing of what they expect): choose now (auto.c). */
spira_status spira__auto_settle(spira_matrix A);
/* Destroy the cached plan of A's selected format (and options), if built. */
void spira__spmv_plan_drop(spira_matrix A);
/* n more multiplies with p's matrix, made by a CUDA graph that captured apply (-1: the
 * capture's own call, which multiplied nothing). */
void spira__spmv_count(spira__spmv_plan *p, int64_t n);
/* y <- alpha A x + beta y with a built plan; x, y raw pointers where ctx computes. */
spira_status spira__spmv_apply(spira__spmv_plan *p, double alpha, const void *x, double beta,
                               void *y);

#ifdef __cplusplus
}
#endif
#endif
