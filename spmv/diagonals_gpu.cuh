/*
 * diagonals_gpu.cuh - the occupied diagonals of a device CSR (diagonals_gpu.cu), shared by
 * dia's conversion on the GPU (dia_gpu.cu) and auto's row statistics (auto_gpu.cu).
 *
 * Diagonal j - i of an nrows x ncols matrix is numbered j - i + nrows - 1, 0 .. nrows +
 * ncols - 2, so ascending numbers are ascending offsets, as in the host conversion's map.
 */
#ifndef SPIRA_DIAGONALS_GPU_CUH
#define SPIRA_DIAGONALS_GPU_CUH

#include "csr_gpu.cuh"
#include "cuda/gateway.h"

#include <cuda_runtime.h>

/* flags[j - i + nrows - 1] = 1 for every stored (i, j) of dA, 0 for every other diagonal
 * (flags: nrows + ncols - 1 bytes of device memory, zeroed here), and *ndiag the number of
 * ones (a CUB reduce, waited for). dA has at least one nonzero. Scratch is freed before
 * returning, on every path. */
spira_status spira__diagonals_flag(spira_context ctx, const spira__csr_dev *dA, uint8_t *flags,
                                   int64_t *ndiag);

#endif
