/*
 * csr_vector.h - the host half of csr-vector (Bell & Garland 2008, with CUSP's sub-warp
 * refinement): the layout is the borrowed canonical CSR (csr.c), and the vector width V is
 * chosen from the mean row length here so that the rule is testable without a GPU.
 */
#ifndef SPIRA_SPMV_CSR_VECTOR_H
#define SPIRA_SPMV_CSR_VECTOR_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* V, the threads that share a row: the smallest power of two >= mean_row, at least 2 and
 * at most 32 (a warp). A row of mean length then keeps most of its V lanes busy in the
 * first pass, and V = 32 rows stride through their entries a full warp at a time. */
static inline SPIRA__HOST_DEVICE int spira__csr_vector_lanes(double mean_row)
{
    int v = 2;
    while (v < 32 && v < mean_row) v *= 2;
    return v;
}

#ifdef __cplusplus
}
#endif

#endif
