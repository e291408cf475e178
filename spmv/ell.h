/*
 * ell.h - the host ELLPACK layout shared by the ell and hyb formats (Bell & Garland 2008).
 *
 * K stored entries per row, column-major so that the threads of a warp (consecutive rows)
 * read consecutive addresses: entry k of row i sits at k*pitch + i, pitch = nrows rounded
 * up to 32. A row shorter than K is padded at its end with column -1 (value 0); kernels
 * stop a row at its first -1, so padding never reads x (no 0*Inf = NaN from padding).
 */
#ifndef SPIRA_SPMV_ELL_H
#define SPIRA_SPMV_ELL_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int32_t nrows, ncols, K, pitch;
    spira_dtype dtype;
    int32_t *cols; /* K*pitch column indices, -1 for padding */
    void *vals;    /* K*pitch values of dtype, 0 for padding */
} spira__ell;

/* Longest row of A. */
int32_t spira__csr_max_row(const spira__csr *A);
/* The ell format's refusal for A whose longest row is K, under option max_fill: what the
 * host conversion and the GPU's (ell_gpu.cu) both decide with, so they refuse alike. */
spira_status spira__ell_check_fill(spira_context ctx, const spira__csr *A, int32_t K,
                                   long max_fill);
/* *pitch of an ELL part of width K over nrows rows (nrows rounded up to 32; nrows itself
 * for K = 0); refuses (UNSUPPORTED, "fmt refuses ...") when K*pitch exceeds int32. The one
 * rule of the host build and the GPU's. */
spira_status spira__ell_pitch(spira_context ctx, int32_t nrows, int32_t K, const char *fmt,
                              int32_t *pitch);
/* The first min(K, row length) entries of every row of A. Refuses (spira__ell_pitch)
 * before allocating. out is zeroed on failure. */
spira_status spira__ell_build(spira_context ctx, const spira__csr *A, int32_t K, const char *fmt,
                              spira__ell *out);
void spira__ell_free(spira__ell *e);
/* y <- alpha*E*x + beta*y; beta == 0 does not read y. */
void spira__ell_apply(const spira__ell *e, double alpha, const void *x, double beta, void *y);
size_t spira__ell_bytes(const spira__ell *e);

#ifdef __cplusplus
}
#endif

#endif
