/*
 * cusparse_row.h - host side of the `cusparse` row (cusparse.c) and its layout, shared with
 * cusparse_gpu.cu: the borrowed canonical CSR plus the cuSPARSE algorithm chosen at
 * convert time. (Not named cusparse.h: spmv/ is on the include path and would shadow
 * the toolkit's <cusparse.h>.)
 */
#ifndef SPIRA_CUSPARSE_ROW_H
#define SPIRA_CUSPARSE_ROW_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const spira__csr *csr; /* the matrix's own CSR, borrowed */
    int alg;               /* 0: CUSPARSE_SPMV_ALG_DEFAULT, 2: CUSPARSE_SPMV_CSR_ALG2 */
} spira__cusparse_layout;

extern const spira__format spira__cusparse_format; /* cusparse.c */

/* Whether this process has run cuSPARSE's SpMV on device in values of dtype (a CUDA build:
 * cusparse_gpu.cu). The first run loads its kernel (CUDA's lazy loading, about 4 ms on the
 * H100), which auto's cost model charges while it has not (cost.c). */
int spira__cusparse_spmv_ran(int device, spira_dtype dtype);

#ifdef __cplusplus
}
#endif
#endif
