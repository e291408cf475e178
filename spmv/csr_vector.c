/*
 * csr_vector.c - the csr-vector format (see csr_vector.h): the borrowed CSR of the family
 * (csr.h); the vector width rule is in csr_vector.h, the kernel in csr_vector_gpu.cu.
 */
#include "csr_vector.h"
#include "csr.h"

extern const spira__format_gpu spira__csr_vector_gpu;

const spira__format spira__csr_vector_format = {
    .name = "csr-vector",
    .description = "CSR, a vector of V = 2..32 lanes per row, V from the mean row length, "
                   "shuffle reduction (Bell & Garland 2008; CUSP)",
    .options = "",
    .convert = spira__csr_borrow,
    .apply = spira__csr_layout_apply,
    .bytes = spira__csr_layout_bytes,
    .gpu = SPIRA__GPU(&spira__csr_vector_gpu),
};
