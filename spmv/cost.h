/*
 * cost.h - what a format costs on A, predicted from A's row statistics: setup (conversion
 * and upload) and one multiply, in milliseconds on the CUDA backend. "auto" (auto.c) picks
 * the format that minimizes setup + expected multiplies x time per multiply.
 *
 * The model, per format f with value size v bytes and 4-byte indices:
 *   slots_f     stored entries, padding included: nnz for CSR, ell_fill * nnz for ELL,
 *               dia_fill * nnz for DIA, 1.05 nnz for SELL (rows sorted by length)
 *   bytes_f     what one multiply reads of the matrix: CSR nnz (v + 4) + 4 (nrows + 1),
 *               ELL slots (v + 4), DIA slots v + 4 ndiag, SELL slots (v + 4) + 4 nrows
 *   convert     a format that converts on the GPU (format_gpu.build): build_spmvs x its own
 *               multiply, the passes its kernels make over the CSR and the layout counted in
 *               multiplies (a constant per format, cost.c); one that converts on the host:
 *               slots_f x convert_ns, one thread; the CSR family: 0 (it borrows the CSR)
 *   upload      the layout of a host conversion: bytes_f / UPLOAD_GBS + fixed_ms. Every other
 *               format reads the matrix's device CSR, which on the CUDA backend is uploaded
 *               before the choice (auto's statistics are counted from it), once for all of
 *               them: a cost sunk before the comparison, the same for each, so left out;
 *               they pay fixed_ms (the layout's device allocation, cuSPARSE's descriptors).
 *               The realized setup that format_reason reports does count it: the first
 *               plan built from the device CSR is charged its upload (spmv.h)
 *   first use   what a process's first multiply on a device adds: loading the kernel
 *               (cuSPARSE's; Spira's own are loaded by the preload thread), charged while
 *               the process has not yet run it (auto.c asks)
 *   multiply    max(launch_ms + (bytes_f + v (nrows + ncols)) / gbs,
 *                   launch_ms + longest row / V x row_step_ms)
 * where gbs is the kernel's effective bandwidth over the matrix and both vectors, lower on
 * uneven rows (coefficient of variation > 0.5) for the kernels that give each row a vector,
 * and the second term is csr-vector's wait on one long row (its vector of V lanes,
 * csr_vector.h's rule from the mean row, steps through it alone). The constants are H100 measurements (fp64, CUDA 13), and cost.c names
 * the run each comes from, except the GPU conversions' build_spmvs, estimates from the
 * passes their kernels make until measured. The measured ones predict what the last runs
 * measured to about 20% on the large matrices; the choice only needs the order of the
 * totals, and it matters most where setup dominates (one solve).
 */
#ifndef SPIRA_SPMV_COST_H
#define SPIRA_SPMV_COST_H

#include "auto.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double convert_ms;  /* the conversion, on the GPU or (not on_device) the host */
    double upload_ms;   /* device allocation, and a host layout's copy */
    double multiply_ms; /* one y = A x */
    double first_use_ms; /* more, once a process and device: loading the kernel */
    int on_device;      /* converted on the GPU from the device CSR (format_gpu.build) */
} spira__cost;

/* The predicted cost of format on a matrix with statistics s and values of value_size
 * bytes; 0 if the model covers it there, -1 if not (a format it has no row for, or DIA
 * without a diagonal count). */
int spira__cost_predict(const spira__row_stats *s, const char *format, size_t value_size,
                        spira__cost *c);

#ifdef __cplusplus
}
#endif
#endif
