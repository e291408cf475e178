/*
 * csr_gpu.cuh - the device copy of a CSR matrix as the CSR-family kernels hold it
 * (csr_gpu.cu): a spira__csr_dev (cuda/gateway.h) in the format's device handle.
 */
#ifndef SPIRA_CSR_GPU_CUH
#define SPIRA_CSR_GPU_CUH

#include "device.h"
#include "cuda/gateway.h"

/* Clone A's arrays into d, which sits in the device handle dev (device.h); when A is the
 * canonical CSR whose device copy the dispatcher gave the handle (spira__dev_create), d
 * borrows that copy's arrays instead. */
spira_status spira__csr_dev_fill(spira_context ctx, void *dev, const spira__csr *A,
                                 spira__csr_dev *d);
/* The upload of a format whose handle is a spira__csr_dev and whose layout is A itself. */
spira_status spira__csr_family_dev_upload(spira_context ctx, const void *layout, void *dev);

#endif
