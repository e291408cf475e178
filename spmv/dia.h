/*
 * dia.h - the host DIA layout (Bell & Garland 2008): the occupied diagonals of A, each
 * stored as a column of pitch values so that consecutive threads (rows) read consecutive
 * addresses. data[d*pitch + i] = A(i, i + offsets[d]); 0 where that entry is not stored or
 * falls outside the matrix (kernels skip the latter by a column bounds test). Works for
 * rectangular matrices: offsets range over -(nrows-1) .. ncols-1.
 */
#ifndef SPIRA_SPMV_DIA_H
#define SPIRA_SPMV_DIA_H

#include "spmv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int32_t nrows, ncols, ndiag, pitch;
    spira_dtype dtype;
    int32_t *offsets; /* ndiag column offsets j - i, ascending */
    void *data;       /* ndiag*pitch values of dtype */
} spira__dia;

/* Option max_fill=N (default 3): refuse when ndiag * nrows > N * nnz. Conversion uses a
 * temporary map of nrows + ncols - 1 int32 (one per possible diagonal), as CUSP does. */
spira_status spira__dia_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                void **layout);
void spira__dia_host_apply(const void *layout, double alpha, const void *x, double beta, void *y);
size_t spira__dia_bytes(const void *layout);
void spira__dia_destroy(void *layout);

#ifdef __cplusplus
}
#endif

#endif
