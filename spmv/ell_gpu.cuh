/*
 * ell_gpu.cuh - the device copy of an ELL layout and its kernel's launcher, shared by the
 * ell and hyb formats (ell_gpu.cu).
 */
#ifndef SPIRA_ELL_GPU_CUH
#define SPIRA_ELL_GPU_CUH

#include "device.h"
#include "ell.h"

typedef struct {
    int32_t nrows, K, pitch;
    spira_dtype dtype;
    int32_t *cols; /* device, K*pitch, -1 padding */
    void *vals;    /* device, K*pitch */
} spira__ell_dev;

/* Clone h's arrays into d, which sits in the device handle dev (device.h). */
spira_status spira__ell_dev_fill(spira_context ctx, void *dev, const spira__ell *h,
                                 spira__ell_dev *d);
/* The conversion on the GPU: fill d, which sits in the device handle dev, with the first
 * min(K, row length) entries of every row of the device CSR dA, the layout spira__ell_build
 * makes on the host array for array (same pitch, padding, order); refuses as it does
 * (spira__ell_pitch, naming fmt) before allocating. No wait. */
spira_status spira__ell_dev_build(spira_context ctx, void *dev, const struct spira__csr_dev *dA,
                                  int32_t K, const char *fmt, spira__ell_dev *d);
/* The matrix bytes one multiply reads: spira__ell_bytes of the host layout d copies. */
size_t spira__ell_dev_bytes(const spira__ell_dev *d);
/* y <- alpha*E*x + beta*y on the context's stream (beta == 0: y not read). With K = 0 this
 * is y <- beta*y, which HYB relies on. */
spira_status spira__ell_dev_apply(spira_context ctx, const spira__ell_dev *d, double alpha,
                                const void *x, double beta, void *y);

#endif
