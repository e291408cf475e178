/*
 * cusparse_gpu.cu - the `cusparse` SpMV row: cuSPARSE's generic SpMV (cusparseSpMV) on the
 * matrix's own CSR, or on a COO or SELL made from it, so every benchmark can compare
 * Spira's kernels with NVIDIA's algorithms in the same run.
 *
 * Contract: convert records the algorithm (cusparse.c: option alg; a deterministic context
 * gets CSR_ALG2 unless "alg=" says coo2). upload copies the CSR to the device, makes the
 * format the algorithm reads (CSR: the copy itself; COO: its row indices by
 * cusparseXcsr2coo; SELL: slices of 32 rows, column-major, padded with column -1, which is
 * Spira's own `sell` layout unsorted (sigma=1), built on the GPU by sell_gpu.cu and kept
 * as a nested handle), creates the sparse-matrix and the two dense-vector descriptors,
 * sizes and allocates the workspace and runs cusparseSpMV_preprocess: all of it setup,
 * paid once. apply only re-points the vector descriptors (cusparseDnVecSetValues) and
 * calls cusparseSpMV: no allocation. There is no CPU reference (apply NULL): on the CPU
 * backend the dispatcher says the format needs CUDA.
 */
#include "csr_gpu.cuh"
#include "cusparse_row.h"
#include "device.h"
#include "sell.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <atomic>

/* A bit a device (below 32) and value type: cusparseSpMV has run there in this process
 * (spira__cusparse_spmv_ran; a device from 32 on always reads as not yet). */
static std::atomic<unsigned long long> spmv_ran{0};

static unsigned long long ran_bit(int device, spira_dtype dtype)
{
    return device >= 0 && device < 32 ? 1ull << (2 * device + (dtype == SPIRA_R64)) : 0;
}

extern "C" int spira__cusparse_spmv_ran(int device, spira_dtype dtype)
{
    const unsigned long long bit = ran_bit(device, dtype);
    return bit && (spmv_ran.load(std::memory_order_relaxed) & bit);
}

extern "C" const spira__format_gpu spira__sell_gpu; /* sell_gpu.cu */

typedef struct {
    spira__csr_dev csr;         /* device CSR (shared upload code of the CSR family) */
    int32_t *coo_rows;          /* COO: each entry's row (nnz), NULL otherwise */
    void *sell;                 /* SELL: `sell`'s handle of the unsorted layout, NULL otherwise */
    cusparseSpMatDescr_t mat;
    cusparseDnVecDescr_t vx, vy; /* re-pointed at x and y by every apply */
    cusparseSpMVAlg_t alg;
    cudaDataType vtype;
    void *work;                 /* cusparseSpMV workspace, also holds the preprocessing */
    size_t work_bytes;
} cusparse_dev;

/* The descriptors and the SELL's handle; the other arrays are the dispatcher's to free. */
static void cusparse_dev_release(spira_context ctx, void *dev)
{
    cusparse_dev *d = (cusparse_dev *)dev;
    /* destroy calls cannot report: the descriptors are released whatever they return */
    if (d->mat) cusparseDestroySpMat(d->mat);
    if (d->vx) cusparseDestroyDnVec(d->vx);
    if (d->vy) cusparseDestroyDnVec(d->vy);
    spira__dev_destroy(ctx, &spira__sell_gpu, d->sell);
}

static cusparseSpMVAlg_t spmv_alg(spira__cusparse_alg a)
{
    switch (a) {
    case SPIRA__CUSPARSE_CSR1: return CUSPARSE_SPMV_CSR_ALG1;
    case SPIRA__CUSPARSE_CSR2: return CUSPARSE_SPMV_CSR_ALG2;
    case SPIRA__CUSPARSE_COO1: return CUSPARSE_SPMV_COO_ALG1;
    case SPIRA__CUSPARSE_COO2: return CUSPARSE_SPMV_COO_ALG2;
    case SPIRA__CUSPARSE_SELL: return CUSPARSE_SPMV_SELL_ALG1;
    default: return CUSPARSE_SPMV_ALG_DEFAULT;
    }
}

/* d->mat over the device CSR of A in the format L's algorithm reads. */
static spira_status describe_matrix(spira_context ctx, cusparseHandle_t handle,
                                    const spira__cusparse_layout *L, void *dev)
{
    cusparse_dev *d = (cusparse_dev *)dev;
    const spira__csr *A = L->csr;
    if (L->alg == SPIRA__CUSPARSE_COO1 || L->alg == SPIRA__CUSPARSE_COO2) {
        const spira__dev_array rows[] = {
            {&d->coo_rows, NULL, (size_t)A->nnz * sizeof(int32_t), "cuSPARSE COO rows"}};
        SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, rows));
        SPIRA__CUSPARSE(ctx, cusparseXcsr2coo(handle, d->csr.row_ptr, A->nnz, A->nrows,
                                              d->coo_rows, CUSPARSE_INDEX_BASE_ZERO));
        SPIRA__CUSPARSE(ctx, cusparseCreateCoo(&d->mat, A->nrows, A->ncols, A->nnz, d->coo_rows,
                                               d->csr.col_idx, d->csr.val, CUSPARSE_INDEX_32I,
                                               CUSPARSE_INDEX_BASE_ZERO, d->vtype));
        return SPIRA_OK;
    }
    if (L->alg == SPIRA__CUSPARSE_SELL) {
        size_t bytes;
        SPIRA__TRY(spira__dev_build(ctx, &spira__sell_gpu, "sell", A, &d->csr, "sigma=1,unit=0,hubs=0",
                                    &d->sell, &bytes));
        const spira__sell *S = (const spira__sell *)d->sell; /* the handle starts with it */
        int32_t slots = 0;
        SPIRA__TRY(spira__cuda_download(ctx, &slots, S->slice_ptr + S->nslices, sizeof slots));
        SPIRA__CUSPARSE(ctx, cusparseCreateSlicedEll(&d->mat, A->nrows, A->ncols, A->nnz, slots,
                                                     SPIRA__SELL_C, S->slice_ptr, S->cols,
                                                     S->vals, CUSPARSE_INDEX_32I,
                                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                                     d->vtype));
        return SPIRA_OK;
    }
    SPIRA__CUSPARSE(ctx, cusparseCreateCsr(&d->mat, A->nrows, A->ncols, A->nnz, d->csr.row_ptr,
                                           d->csr.col_idx, d->csr.val, CUSPARSE_INDEX_32I,
                                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                           d->vtype));
    return SPIRA_OK;
}

static spira_status cusparse_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__cusparse_layout *L = (const spira__cusparse_layout *)layout;
    cusparse_dev *d = (cusparse_dev *)dev;
    const spira__csr *A = L->csr;
    d->alg = spmv_alg(L->alg);
    d->vtype = A->dtype == SPIRA_R64 ? CUDA_R_64F : CUDA_R_32F;
    SPIRA__TRY(spira__csr_dev_fill(ctx, dev, A, &d->csr));
    /* Empty shapes never reach cuSPARSE (apply scales y itself), so no descriptors. */
    if (A->nrows == 0 || A->ncols == 0 || A->nnz == 0) return SPIRA_OK;
    void *h;
    SPIRA__TRY(spira__cuda_cusparse(ctx, &h));
    cusparseHandle_t handle = (cusparseHandle_t)h;
    SPIRA__CUSPARSE(ctx, cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST));
    SPIRA__TRY(describe_matrix(ctx, handle, L, dev));
    /* The preprocessing step wants real vectors; scratch ones live only through setup,
     * apply points the descriptors at the caller's x and y. */
    size_t vb = spira_dtype_size(A->dtype);
    void *sx = NULL, *sy = NULL;
    spira_status s = spira__cuda_malloc(ctx, &sx, (size_t)A->ncols * vb, "cuSPARSE scratch x");
    if (s == SPIRA_OK) s = spira__cuda_malloc(ctx, &sy, (size_t)A->nrows * vb, "cuSPARSE scratch y");
    if (s == SPIRA_OK) s = spira__cuda_fill(ctx, A->ncols, A->dtype, sx, 0.0);
    if (s == SPIRA_OK) s = spira__cuda_fill(ctx, A->nrows, A->dtype, sy, 0.0);
    if (s == SPIRA_OK)
        s = spira__cusparse_status(ctx, cusparseCreateDnVec(&d->vx, A->ncols, sx, d->vtype),
                                   "cusparseCreateDnVec(x)", __FILE__, __LINE__);
    if (s == SPIRA_OK)
        s = spira__cusparse_status(ctx, cusparseCreateDnVec(&d->vy, A->nrows, sy, d->vtype),
                                   "cusparseCreateDnVec(y)", __FILE__, __LINE__);
    /* alpha and beta in the matrix's precision (computeType = value type) */
    double a64 = 1.0, b64 = 0.0;
    float a32 = 1.0f, b32 = 0.0f;
    const void *pa = A->dtype == SPIRA_R64 ? (const void *)&a64 : (const void *)&a32;
    const void *pb = A->dtype == SPIRA_R64 ? (const void *)&b64 : (const void *)&b32;
    if (s == SPIRA_OK)
        s = spira__cusparse_status(ctx,
                                   cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                           pa, d->mat, d->vx, pb, d->vy, d->vtype,
                                                           d->alg, &d->work_bytes),
                                   "cusparseSpMV_bufferSize", __FILE__, __LINE__);
    const spira__dev_array work[] = {{&d->work, NULL, d->work_bytes, "cuSPARSE SpMV workspace"}};
    if (s == SPIRA_OK) s = SPIRA__DEV_CLONE(ctx, dev, work);
    if (s == SPIRA_OK)
        s = spira__cusparse_status(ctx,
                                   cusparseSpMV_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                           pa, d->mat, d->vx, pb, d->vy, d->vtype,
                                                           d->alg, d->work),
                                   "cusparseSpMV_preprocess", __FILE__, __LINE__);
    /* the scratch vectors may be freed only once the preprocessing has run */
    if (s == SPIRA_OK) s = spira__cuda_synchronize(ctx);
    spira__cuda_free(ctx, sx);
    spira__cuda_free(ctx, sy);
    return s;
}

static spira_status cusparse_dev_apply(spira_context ctx, void *dev, double alpha,
                                       const void *x, double beta, void *y)
{
    cusparse_dev *d = (cusparse_dev *)dev;
    const spira__csr_dev *c = &d->csr;
    if (c->nrows == 0) return SPIRA_OK;
    if (!d->mat) { /* no columns or no entries: y <- beta y (beta = 0 overwrites NaN) */
        if (beta == 0) return spira__cuda_fill(ctx, c->nrows, c->dtype, y, 0.0);
        return spira__cuda_scal(ctx, c->nrows, c->dtype, beta, y);
    }
    void *h;
    SPIRA__TRY(spira__cuda_cusparse(ctx, &h));
    cusparseHandle_t handle = (cusparseHandle_t)h;
    /* the handle is the context's, shared: state the pointer mode this call relies on */
    SPIRA__CUSPARSE(ctx, cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST));
    SPIRA__CUSPARSE(ctx, cusparseDnVecSetValues(d->vx, (void *)x));
    SPIRA__CUSPARSE(ctx, cusparseDnVecSetValues(d->vy, y));
    double a64 = alpha, b64 = beta;
    float a32 = (float)alpha, b32 = (float)beta;
    const void *pa = c->dtype == SPIRA_R64 ? (const void *)&a64 : (const void *)&a32;
    const void *pb = c->dtype == SPIRA_R64 ? (const void *)&b64 : (const void *)&b32;
    SPIRA__CUSPARSE(ctx, cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, pa, d->mat, d->vx,
                                      pb, d->vy, d->vtype, d->alg, d->work));
    const unsigned long long bit = ran_bit(ctx->device, c->dtype);
    if (!(spmv_ran.load(std::memory_order_relaxed) & bit)) spmv_ran.fetch_or(bit);
    return SPIRA_OK;
}

extern "C" const spira__format_gpu spira__cusparse_gpu = {
    .handle = sizeof(cusparse_dev),
    .upload = cusparse_dev_upload,
    .shares_csr = 1,
    .apply = cusparse_dev_apply,
    .release = cusparse_dev_release,
};
