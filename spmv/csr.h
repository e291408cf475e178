/*
 * csr.h - the host side the CSR family shares (csr-scalar, csr-vector, lightspmv,
 * cusparse): the layout is the matrix's own canonical CSR, borrowed, and the CPU reference
 * is lib/'s CSR SpMV.
 */
#ifndef SPIRA_SPMV_CSR_H
#define SPIRA_SPMV_CSR_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

spira_status spira__csr_borrow(spira_context ctx, const spira__csr *A, const char *opts,
                               void **layout);
void spira__csr_layout_apply(const void *layout, double alpha, const void *x, double beta,
                             void *y);
size_t spira__csr_layout_bytes(const void *layout);

/* csr-scalar, whose device half also uploads the matrix's own device CSR (spmv.c). */
extern const spira__format spira__csr_scalar_format;

#ifdef __cplusplus
}
#endif
#endif
