/*
 * hyb_gpu.cuh - the device handle of a HYB layout (hyb_gpu.cu): its ELL part and its COO
 * part, each the device copy its own files make and multiply.
 */
#ifndef SPIRA_HYB_GPU_CUH
#define SPIRA_HYB_GPU_CUH

#include "coo_gpu.cuh"
#include "ell_gpu.cuh"

typedef struct {
    spira__ell_dev ell; /* the first K entries of every row */
    spira__coo_dev coo; /* the entries beyond K */
} spira__hyb_dev;

#endif
