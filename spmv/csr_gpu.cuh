/*
 * csr_gpu.cuh - the device copy of a CSR matrix, shared by the CSR-family kernels.
 */
#ifndef SPIRA_CSR_GPU_CUH
#define SPIRA_CSR_GPU_CUH

#include "spmv.h"

typedef struct {
    int32_t nrows, ncols, nnz;
    spira_dtype dtype;
    int32_t *row_ptr, *col_idx; /* device */
    void *val;                  /* device */
    double mean_row;            /* nnz / nrows, for kernels that size work by it */
} spira__csr_dev;

#endif
