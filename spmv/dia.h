/*
 * dia.h - the host DIA layout (Bell & Garland 2008): the occupied diagonals of A, each
 * stored as a column of pitch values so that consecutive threads (rows) read consecutive
 * addresses. data[d*pitch + i] = A(i, i + offsets[d]); 0 where that entry is not stored or
 * falls outside the matrix (kernels skip the latter by a column bounds test). Works for
 * rectangular matrices: offsets range over -(nrows-1) .. ncols-1.
 */
#ifndef SPIRA_SPMV_DIA_H
#define SPIRA_SPMV_DIA_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int32_t nrows, ncols, ndiag, pitch;
    spira_dtype dtype;
    int32_t *offsets; /* ndiag column offsets j - i, ascending */
    void *data;       /* ndiag*pitch values of dtype */
} spira__dia;
/* The device handle (dia_gpu.cu) is a spira__dia too, its two arrays in device memory. */

/* Whether A (nrows, nnz) may be stored as ndiag diagonals under the option max_fill: the
 * fill limit, then the 32-bit slot check (padding.h), refusing with SPIRA_ERR_UNSUPPORTED
 * and their messages; *pitch the padded rows (spira__pitch). The host conversion and the
 * one on the GPU both ask it, so both refuse alike, word for word. */
spira_status spira__dia_check(spira_context ctx, int32_t nrows, int32_t nnz, int64_t ndiag,
                              long max_fill, int64_t *pitch);

#ifdef __cplusplus
}
#endif

#endif
