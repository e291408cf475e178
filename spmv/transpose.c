/*
 * transpose.c - a matrix's transpose with its rows scaled on the way (PageRank's
 * P^T = (D^-1 G)^T), made where the matrix's plans are made: on the GPU, from its device
 * CSR, when the CUDA backend converts there (transpose_gpu.cu; the result's CSR then lives
 * on the device alone, spmv.c), else on the host (lib/csr.c's counting sort). Both make
 * the same arrays, bit for bit.
 *
 * Why the GPU: on a power-law graph of 2^20 vertices and 1.6 * 10^7 edges the host's
 * transpose took 48-73 ms on the GPU machine's 16 cores, most of PageRank's setup and more
 * than its solve (bench/results/2026-11-26-h100-session15); the host's scatter is random
 * writes over the whole result, the GPU's a radix sort.
 */
#include "spmv.h"
#include "device.h"
#include "csr.h"
#include "cuda/gateway.h"

#include <string.h>

/* transpose_gpu.cu: A^T's arrays (allocated, sized) from A's, row i scaled by scale[i]
 * (device, NULL: not scaled); on the context's stream, no wait */
spira_status spira__csr_dev_transpose_scaled(spira_context ctx, const spira__csr_dev *A,
                                             const double *scale, spira__csr_dev *AT);

static spira_status on_host(spira_matrix A, spira__row_scale_fn scales, void *arg,
                            spira_matrix *AT)
{
    SPIRA__TRY(spira__matrix_host_csr(A));
    double *scale = NULL;
    spira_status s = SPIRA_OK;
    if (scales && A->csr.nrows)
        s = spira__alloc(A->ctx, (void **)&scale, (size_t)A->csr.nrows, sizeof *scale,
                         "transpose: the rows' scales");
    if (s == SPIRA_OK && scale) s = scales(A, NULL, scale, arg);
    spira__csr t;
    if (s == SPIRA_OK) s = spira__csr_transpose_scaled(A->ctx, &A->csr, scale, &t);
    spira__free(scale);
    return s == SPIRA_OK ? spira__matrix_wrap(A->ctx, &t, 0, AT) : s;
}

/* From A's device CSR if a plan has uploaded it, else from a copy uploaded for this call
 * alone and freed after it: A itself (PageRank's G) may never be multiplied, and kept in A
 * the copy would hold A's bytes on the device for A's life (no faster: the setup of
 * PageRank on R-MAT 2^20 took the same 24-35 ms either way on the H100 and the H200,
 * bench/results/2026-11-27-session18). */
static spira_status on_device(spira_matrix A, spira__row_scale_fn scales, void *arg,
                              spira_matrix *AT,
                              spira_status (*transpose)(spira_context, const spira__csr_dev *,
                                                        const double *, spira__csr_dev *))
{
    spira_context ctx = A->ctx;
    const spira__csr_dev *dA = spira__matrix_csr_dev_present(A);
    spira__csr_dev *own = NULL;
    spira_status s = dA ? SPIRA_OK : spira__cuda_csr_upload(ctx, &A->csr, &own);
    if (own) dA = own;
    /* A^T's arrays, allocated (no host arrays to copy: the upload only sizes them) */
    const spira__csr shape = {.nrows = A->csr.ncols, .ncols = A->csr.nrows,
                              .nnz = A->csr.nnz, .dtype = A->csr.dtype};
    void *dev = NULL, *scale = NULL;
    if (s == SPIRA_OK)
        s = spira__dev_create(ctx, spira__csr_scalar_format.gpu, "transpose's CSR", &shape,
                              NULL, NULL, &dev);
    const size_t sb = (size_t)A->csr.nrows * sizeof(double);
    if (s == SPIRA_OK && scales && sb)
        s = spira__cuda_scratch_malloc(ctx, &scale, sb, "transpose: the rows' scales");
    if (s == SPIRA_OK && scale) s = scales(A, dA, (double *)scale, arg);
    if (s == SPIRA_OK) s = transpose(ctx, dA, (const double *)scale, (spira__csr_dev *)dev);
    spira__cuda_scratch_free(ctx, scale);
    if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
    spira__cuda_csr_free(ctx, own);
    if (s != SPIRA_OK) {
        spira__dev_destroy(ctx, spira__csr_scalar_format.gpu, dev);
        return s;
    }
    return spira__matrix_adopt_csr_dev(ctx, &shape, dev, AT);
}

spira_status spira__matrix_transpose_by(spira_matrix A, spira__row_scale_fn scales, void *arg,
                                        spira_matrix *AT)
{
    *AT = NULL;
    spira_context ctx = A->ctx;
    spira_status (*const transpose)(spira_context, const spira__csr_dev *, const double *,
                                    spira__csr_dev *) = SPIRA__GPU(spira__csr_dev_transpose_scaled);
    if (ctx->backend == SPIRA_BACKEND_CUDA && !ctx->host_convert && transpose)
        return on_device(A, scales, arg, AT, transpose);
    return on_host(A, scales, arg, AT);
}

/* the caller's scales, copied where the transpose runs */
static spira_status given_scales(spira_matrix A, const spira__csr_dev *dA, double *scale,
                                 void *arg)
{
    const size_t sb = (size_t)A->csr.nrows * sizeof(double);
    if (dA) return spira__cuda_upload(A->ctx, scale, arg, sb);
    memcpy(scale, arg, sb);
    return SPIRA_OK;
}

spira_status spira__matrix_transpose_scaled(spira_matrix A, const double *row_scale,
                                            spira_matrix *AT)
{
    return spira__matrix_transpose_by(A, row_scale ? given_scales : NULL, (void *)row_scale, AT);
}
