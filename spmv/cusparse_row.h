/*
 * cusparse_row.h - host side of the `cusparse` row (cusparse.c) and its layout, shared with
 * cusparse_gpu.cu: the borrowed canonical CSR plus the cuSPARSE algorithm (and with it the
 * format cuSPARSE multiplies: CSR, COO or SELL) chosen at convert time. (Not named cusparse.h: spmv/ is on the include path and would shadow
 * the toolkit's <cusparse.h>.)
 */
#ifndef SPIRA_CUSPARSE_ROW_H
#define SPIRA_CUSPARSE_ROW_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The values of option alg, in the order of its words (cusparse.c). */
typedef enum {
    SPIRA__CUSPARSE_DEFAULT, /* "0": CUSPARSE_SPMV_ALG_DEFAULT on CSR */
    SPIRA__CUSPARSE_CSR1,    /* "1": CUSPARSE_SPMV_CSR_ALG1 */
    SPIRA__CUSPARSE_CSR2,    /* "2": CUSPARSE_SPMV_CSR_ALG2, bitwise reproducible */
    SPIRA__CUSPARSE_COO1,    /* "coo": CUSPARSE_SPMV_COO_ALG1 */
    SPIRA__CUSPARSE_COO2,    /* "coo2": CUSPARSE_SPMV_COO_ALG2, bitwise reproducible */
    SPIRA__CUSPARSE_SELL,    /* "sell": CUSPARSE_SPMV_SELL_ALG1, slices of 32 rows */
} spira__cusparse_alg;

typedef struct {
    const spira__csr *csr; /* the matrix's own CSR, borrowed */
    spira__cusparse_alg alg;
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
