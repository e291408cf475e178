/*
 * csr_gpu.cuh - the device copy of a CSR matrix, shared by the CSR-family kernels
 * (csr_gpu.cu).
 */
#ifndef SPIRA_CSR_GPU_CUH
#define SPIRA_CSR_GPU_CUH

#include "device.h"

typedef struct spira__csr_dev {
    int32_t nrows, ncols, nnz;
    spira_dtype dtype;
    int32_t *row_ptr, *col_idx; /* device */
    void *val;                  /* device */
    double mean_row;            /* nnz / nrows, for kernels that size work by it */
} spira__csr_dev;

/* Clone A's arrays into d, which sits in the device handle dev (device.h); when A is the
 * canonical CSR whose device copy the dispatcher gave the handle (spira__dev_create), d
 * borrows that copy's arrays instead. */
spira_status spira__csr_dev_fill(spira_context ctx, void *dev, const spira__csr *A,
                                 spira__csr_dev *d);
/* The upload of a format whose handle is a spira__csr_dev and whose layout is A itself. */
spira_status spira__csr_family_dev_upload(spira_context ctx, const void *layout, void *dev);

/* A device CSR of its own, outside any format (the ILU factor's): *dev is a spira__csr_dev. */
spira_status spira__csr_dev_upload(spira_context ctx, const spira__csr *A, void **dev);
void spira__csr_dev_destroy(spira_context ctx, void *dev);

#endif
