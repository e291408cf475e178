/*
 * lightspmv.h - LightSpMV (Liu & Schmidt, ASAP 2015): CSR unchanged, rows handed out at run
 * time. A row counter in device memory holds the lowest row not yet taken; a vector of V
 * lanes (V from the mean row length, as csr-vector) takes its next row with atomicAdd when
 * it has finished the last one, so short and long rows even out across the GPU instead of
 * being fixed to threads in advance. Two levels (format option level=):
 *   vector: lane 0 of each vector takes one row at a time;
 *   warp (default): lane 0 of each warp takes 32/V consecutive rows for the warp's vectors,
 *           so a warp makes one atomic per 32/V rows.
 * Every row is summed by one vector in a fixed order, so the result is bitwise the same
 * whichever vector took it: the format is deterministic.
 *
 * This file is the host half: the layout borrows the canonical CSR and records the level;
 * the CPU reference is CSR's. The kernels are in lightspmv_gpu.cu.
 */
#ifndef SPIRA_SPMV_LIGHTSPMV_H
#define SPIRA_SPMV_LIGHTSPMV_H

#include "spmv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const spira__csr *csr; /* A's own CSR, borrowed */
    int warp_level;        /* 1: a warp takes 32/V rows per atomic; 0: a vector takes one */
} spira__lightspmv;

spira_status spira__lightspmv_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                      void **layout);
void spira__lightspmv_host_apply(const void *layout, double alpha, const void *x, double beta,
                                 void *y);
size_t spira__lightspmv_bytes(const void *layout);
void spira__lightspmv_destroy(void *layout);

#ifdef __cplusplus
}
#endif
#endif
