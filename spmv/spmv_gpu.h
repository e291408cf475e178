/*
 * spmv_gpu.h - the CUDA entry points of the formats (the .cu files in spmv), for registry.c.
 * Only referenced when the library is built with CUDA.
 */
#ifndef SPIRA_SPMV_GPU_H
#define SPIRA_SPMV_GPU_H

#include "spmv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CSR family (csr_gpu.cu) */
spira_status spira__csr_dev_upload(spira_context ctx, const void *layout, void **dev);
void spira__csr_dev_destroy(spira_context ctx, void *dev);
spira_status spira__csr_scalar_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                     double beta, void *y);

/* csr-vector (csr_vector_gpu.cu); uploads with the CSR family's spira__csr_dev_upload */
spira_status spira__csr_vector_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                     double beta, void *y);

/* LightSpMV (lightspmv_gpu.cu); its own device handle around the CSR family's copy */
spira_status spira__lightspmv_upload(spira_context ctx, const void *layout, void **dev);
spira_status spira__lightspmv_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                    double beta, void *y);
void spira__lightspmv_dev_destroy(spira_context ctx, void *dev);

/* CMRS (cmrs_gpu.cu) */
spira_status spira__cmrs_upload(spira_context ctx, const void *layout, void **dev);
spira_status spira__cmrs_apply(spira_context ctx, void *dev, double alpha, const void *x,
                               double beta, void *y);
void spira__cmrs_dev_destroy(spira_context ctx, void *dev);

/* SURAA (suraa_gpu.cu) */
spira_status spira__suraa_upload(spira_context ctx, const void *layout, void **dev);
spira_status spira__suraa_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                double beta, void *y);
void spira__suraa_dev_destroy(spira_context ctx, void *dev);

/* coo (coo_gpu.cu) */
spira_status spira__coo_upload(spira_context ctx, const void *layout, void **dev);
spira_status spira__coo_apply(spira_context ctx, void *dev, double alpha, const void *x,
                              double beta, void *y);
void spira__coo_destroy_dev(spira_context ctx, void *dev);

/* ell (ell_gpu.cu) */
spira_status spira__ell_upload(spira_context ctx, const void *layout, void **dev);
spira_status spira__ell_apply(spira_context ctx, void *dev, double alpha, const void *x,
                              double beta, void *y);
void spira__ell_destroy_dev(spira_context ctx, void *dev);

/* dia (dia_gpu.cu) */
spira_status spira__dia_upload(spira_context ctx, const void *layout, void **dev);
spira_status spira__dia_apply(spira_context ctx, void *dev, double alpha, const void *x,
                              double beta, void *y);
void spira__dia_destroy_dev(spira_context ctx, void *dev);

/* hyb (hyb_gpu.cu) */
spira_status spira__hyb_upload(spira_context ctx, const void *layout, void **dev);
spira_status spira__hyb_apply(spira_context ctx, void *dev, double alpha, const void *x,
                              double beta, void *y);
void spira__hyb_destroy_dev(spira_context ctx, void *dev);

/* cuSPARSE generic SpMV (cusparse_gpu.cu) */
spira_status spira__cusparse_upload(spira_context ctx, const void *layout, void **dev);
spira_status spira__cusparse_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                   double beta, void *y);
void spira__cusparse_dev_destroy(spira_context ctx, void *dev);

/* packet format (pkt_gpu.cu) */
spira_status spira__pkt_upload(spira_context ctx, const void *layout, void **dev);
spira_status spira__pkt_apply(spira_context ctx, void *dev, double alpha, const void *x,
                              double beta, void *y);
void spira__pkt_dev_destroy(spira_context ctx, void *dev);

#ifdef __cplusplus
}
#endif
#endif
