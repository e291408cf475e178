/*
 * csr.c - host side of the CSR family (csr-scalar and friends): the layout is the
 * matrix's own canonical CSR, borrowed, and the CPU reference is lib/'s CSR SpMV.
 */
#include "spmv.h"

spira_status spira__csr_borrow(spira_context ctx, const spira__csr *A, const char *opts,
                               void **layout)
{
    (void)ctx;
    (void)opts;
    *layout = (void *)A;
    return SPIRA_OK;
}

void spira__csr_layout_apply(const void *layout, double alpha, const void *x, double beta, void *y)
{
    spira__csr_spmv_host((const spira__csr *)layout, alpha, x, beta, y);
}

size_t spira__csr_layout_bytes(const void *layout)
{
    const spira__csr *A = (const spira__csr *)layout;
    return ((size_t)A->nrows + 1) * sizeof(int32_t) +
           (size_t)A->nnz * (sizeof(int32_t) + spira_dtype_size(A->dtype));
}
