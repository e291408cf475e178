/*
 * ilu_gpu.cu - the incomplete-LU apply on the GPU (ILU(0) and ILUT alike), z = U^-1 L^-1
 * (P r): exactly, with cuSPARSE's triangular solve (cusparseSpSV), or approximately, with K
 * Jacobi sweeps a triangular solve (Anzt, Chow, Dongarra, Euro-Par 2015; ilu.c's header
 * has the iteration). Each is a part of the device side (ilu_dev), made on first use.
 *
 * Exact: L and U live in one device CSR (the factor's lu, uploaded with the CSR family's
 * code): two matrix descriptors over the same arrays, one read as unit lower triangular and
 * one as upper triangular with its diagonal; SpSV reads only the triangle its fill mode
 * names and, with a unit diagonal, never the stored diagonal. Setup uploads the factor,
 * sizes and allocates both SpSV buffers and runs both analyses. An apply gathers P r into
 * a work vector (or reads r itself when P = I) and runs the two solves into a second work
 * vector and z.
 *
 * Sweeps: the strict triangles L_s and U_s as CSRs of their own and U's diagonal D
 * (spira__ilu_split). A sweep is one SpMV-like pass with the rest of the update fused in,
 * out[i] = (b[i] - S(i,:) x) / d[i] (d = 1 for L): V lanes a row, V from the triangle's mean
 * row length as csr-vector's (csr_vector.h), the V partial sums reduced by shuffles in a
 * fixed order, so every run gives the same bits. The first iterates are never written:
 * L's first sweep reads x_0 = P r, which is its b; U's reads x_0 = D^-1 y as y[k] / d[k].
 * Iterates alternate between two work vectors and U's last lands in z: no allocation, no
 * copy, no host round trip; 2K launches (and a gather when P != I). Small systems, where a
 * launch costs more than a sweep, run all 2K sweeps in one launch of one block with a
 * barrier between sweeps: a block's global writes are visible to the block after
 * __syncthreads(), and that kernel reads the iterates with plain loads, never through the
 * read-only cache (__ldg), which is not kept coherent with writes in the same launch.
 */
#include "ilu.h"
#include "csr_row.cuh"
#include "csr_vector.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

typedef struct {
    /* shared by both kinds of apply */
    int32_t *perm; /* device; NULL when P = I */
    void *w0, *w1; /* work vectors: exact, P r and L^-1 P r; sweeps, the iterates */
    int base_ready;
    /* the exact solves */
    spira__csr_dev *lu;
    cusparseSpMatDescr_t lower, upper;    /* both over lu's arrays */
    cusparseDnVecDescr_t vin, vmid, vout; /* vin: P r (w0 or r); vmid: w1; vout: z */
    cusparseSpSVDescr_t sv_lower, sv_upper;
    void *buf_lower, *buf_upper;
    int exact_ready;
    /* the sweeps */
    spira__csr_dev *ls, *us; /* L's and U's strict triangles */
    void *diag;              /* U's diagonal */
    void *pr;                /* P r, when P != I */
    int sweeps_ready;
    cudaDataType vtype;
} ilu_dev;

/* destroy calls cannot report: what they release is released whatever they return */
static void base_release(spira_context ctx, ilu_dev *d)
{
    spira__cuda_free(ctx, d->perm);
    spira__cuda_free(ctx, d->w0);
    spira__cuda_free(ctx, d->w1);
    d->perm = NULL;
    d->w0 = d->w1 = NULL;
    d->base_ready = 0;
}

static void exact_release(spira_context ctx, ilu_dev *d)
{
    if (d->sv_lower) cusparseSpSV_destroyDescr(d->sv_lower);
    if (d->sv_upper) cusparseSpSV_destroyDescr(d->sv_upper);
    if (d->lower) cusparseDestroySpMat(d->lower);
    if (d->upper) cusparseDestroySpMat(d->upper);
    if (d->vin) cusparseDestroyDnVec(d->vin);
    if (d->vmid) cusparseDestroyDnVec(d->vmid);
    if (d->vout) cusparseDestroyDnVec(d->vout);
    spira__cuda_free(ctx, d->buf_lower);
    spira__cuda_free(ctx, d->buf_upper);
    spira__cuda_csr_free(ctx, d->lu);
    d->sv_lower = d->sv_upper = NULL;
    d->lower = d->upper = NULL;
    d->vin = d->vmid = d->vout = NULL;
    d->buf_lower = d->buf_upper = NULL;
    d->lu = NULL;
    d->exact_ready = 0;
}

static void sweeps_release(spira_context ctx, ilu_dev *d)
{
    spira__cuda_csr_free(ctx, d->ls);
    spira__cuda_csr_free(ctx, d->us);
    spira__cuda_free(ctx, d->diag);
    spira__cuda_free(ctx, d->pr);
    d->ls = d->us = NULL;
    d->diag = d->pr = NULL;
    d->sweeps_ready = 0;
}

extern "C" void spira__ilu_dev_destroy(spira__ilu_factor *f)
{
    ilu_dev *d = (ilu_dev *)f->dev;
    if (!d) return;
    exact_release(f->ctx, d);
    sweeps_release(f->ctx, d);
    base_release(f->ctx, d);
    spira__free(d);
    f->dev = NULL;
}

/* One value of the matrix's precision for SpSV's alpha. */
typedef struct {
    double d;
    float f;
} one_value;

static const void *one_ptr(const one_value *o, spira_dtype t)
{
    return t == SPIRA_R64 ? (const void *)&o->d : (const void *)&o->f;
}

/* A triangle of lu as a matrix descriptor. */
static spira_status triangle(spira_context ctx, const spira__csr_dev *c, cudaDataType vtype,
                             cusparseFillMode_t fill, cusparseDiagType_t diag,
                             cusparseSpMatDescr_t *m)
{
    SPIRA__CUSPARSE(ctx, cusparseCreateCsr(m, c->nrows, c->ncols, c->nnz, c->row_ptr, c->col_idx,
                                           c->val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                           CUSPARSE_INDEX_BASE_ZERO, vtype));
    SPIRA__CUSPARSE(ctx, cusparseSpMatSetAttribute(*m, CUSPARSE_SPMAT_FILL_MODE, &fill,
                                                   sizeof fill));
    SPIRA__CUSPARSE(ctx, cusparseSpMatSetAttribute(*m, CUSPARSE_SPMAT_DIAG_TYPE, &diag,
                                                   sizeof diag));
    return SPIRA_OK;
}

/* Size, allocate and analyse one triangular solve x -> y. */
static spira_status analyse(spira_context ctx, cusparseHandle_t h, spira_dtype t,
                            cusparseSpMatDescr_t m, cusparseDnVecDescr_t x,
                            cusparseDnVecDescr_t y, cudaDataType vtype, cusparseSpSVDescr_t *sv,
                            void **buf)
{
    one_value one = {1.0, 1.0f};
    size_t bytes = 0;
    SPIRA__CUSPARSE(ctx, cusparseSpSV_createDescr(sv));
    SPIRA__CUSPARSE(ctx, cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                 one_ptr(&one, t), m, x, y, vtype,
                                                 CUSPARSE_SPSV_ALG_DEFAULT, *sv, &bytes));
    SPIRA__TRY(spira__cuda_malloc(ctx, buf, bytes, "ILU triangular-solve buffer"));
    SPIRA__CUSPARSE(ctx, cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                               one_ptr(&one, t), m, x, y, vtype,
                                               CUSPARSE_SPSV_ALG_DEFAULT, *sv, *buf));
    return SPIRA_OK;
}

/* The permutation and the two work vectors. */
static spira_status base_setup(spira__ilu_factor *f, ilu_dev *d)
{
    spira_context ctx = f->ctx;
    const size_t n = (size_t)f->lu.nrows, vb = n * spira_dtype_size(f->lu.dtype);
    if (f->perm)
        SPIRA__TRY(spira__cuda_clone(ctx, (void **)&d->perm, f->perm, n * sizeof(int32_t),
                                     "ILU row permutation"));
    SPIRA__TRY(spira__cuda_malloc(ctx, &d->w0, vb, "ILU work vector"));
    SPIRA__TRY(spira__cuda_malloc(ctx, &d->w1, vb, "ILU work vector"));
    return SPIRA_OK;
}

/* The factor on the device and both SpSV analyses. */
static spira_status exact_setup(spira__ilu_factor *f, ilu_dev *d)
{
    spira_context ctx = f->ctx;
    const spira__csr *lu = &f->lu;
    SPIRA__TRY(spira__cuda_csr_upload(ctx, lu, &d->lu));
    if (lu->nrows == 0) return SPIRA_OK;
    /* analysis reads the vectors' descriptors, so give them defined contents */
    SPIRA__TRY(spira__cuda_fill(ctx, lu->nrows, lu->dtype, d->w0, 0.0));
    SPIRA__TRY(spira__cuda_fill(ctx, lu->nrows, lu->dtype, d->w1, 0.0));
    void *hp;
    SPIRA__TRY(spira__cuda_cusparse(ctx, &hp));
    cusparseHandle_t h = (cusparseHandle_t)hp;
    SPIRA__CUSPARSE(ctx, cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_HOST));
    SPIRA__CUSPARSE(ctx, cusparseCreateDnVec(&d->vin, lu->nrows, d->w0, d->vtype));
    SPIRA__CUSPARSE(ctx, cusparseCreateDnVec(&d->vmid, lu->nrows, d->w1, d->vtype));
    SPIRA__CUSPARSE(ctx, cusparseCreateDnVec(&d->vout, lu->nrows, d->w0, d->vtype));
    SPIRA__TRY(triangle(ctx, d->lu, d->vtype, CUSPARSE_FILL_MODE_LOWER, CUSPARSE_DIAG_TYPE_UNIT,
                        &d->lower));
    SPIRA__TRY(triangle(ctx, d->lu, d->vtype, CUSPARSE_FILL_MODE_UPPER,
                        CUSPARSE_DIAG_TYPE_NON_UNIT, &d->upper));
    SPIRA__TRY(analyse(ctx, h, lu->dtype, d->lower, d->vin, d->vmid, d->vtype, &d->sv_lower,
                       &d->buf_lower));
    SPIRA__TRY(analyse(ctx, h, lu->dtype, d->upper, d->vmid, d->vout, d->vtype, &d->sv_upper,
                       &d->buf_upper));
    return spira__cuda_synchronize(ctx);
}

/* The strict triangles, U's diagonal and the P r vector on the device; the host split is
 * freed on every path. */
static spira_status sweeps_setup(spira__ilu_factor *f, ilu_dev *d)
{
    spira_context ctx = f->ctx;
    const size_t n = (size_t)f->lu.nrows, es = spira_dtype_size(f->lu.dtype);
    spira__csr lower, upper;
    void *diag;
    SPIRA__TRY(spira__ilu_split(f, &lower, &upper, &diag));
    spira_status s = spira__cuda_csr_upload(ctx, &lower, &d->ls);
    if (s == SPIRA_OK) s = spira__cuda_csr_upload(ctx, &upper, &d->us);
    if (s == SPIRA_OK) s = spira__cuda_clone(ctx, &d->diag, diag, n * es, "ILU sweeps: U's diagonal");
    if (s == SPIRA_OK && f->perm) s = spira__cuda_malloc(ctx, &d->pr, n * es, "ILU sweeps: P r");
    spira__csr_free(&lower);
    spira__csr_free(&upper);
    spira__free(diag);
    return s;
}

extern "C" spira_status spira__ilu_dev_setup(spira__ilu_factor *f, int sweeps)
{
    ilu_dev *d = (ilu_dev *)f->dev;
    if (!d) {
        d = (ilu_dev *)spira__calloc(1, sizeof *d);
        if (!d) return spira__nomem(f->ctx, "ILU device plan", sizeof *d);
        d->vtype = f->lu.dtype == SPIRA_R64 ? CUDA_R_64F : CUDA_R_32F;
        f->dev = d;
    }
    spira_status s = SPIRA_OK;
    if (!d->base_ready) {
        s = base_setup(f, d);
        if (s != SPIRA_OK) base_release(f->ctx, d);
        else d->base_ready = 1;
    }
    if (s == SPIRA_OK && !sweeps && !d->exact_ready) {
        s = exact_setup(f, d);
        if (s != SPIRA_OK) exact_release(f->ctx, d);
        else d->exact_ready = 1;
    }
    if (s == SPIRA_OK && sweeps && !d->sweeps_ready) {
        s = sweeps_setup(f, d);
        if (s != SPIRA_OK) sweeps_release(f->ctx, d);
        else d->sweeps_ready = 1;
    }
    return s;
}

/* out[j] = in[perm[j]] */
template <typename T>
__global__ void gather_kernel(int n, const int32_t *__restrict__ perm, const T *__restrict__ in,
                              T *__restrict__ out)
{
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x)
        out[j] = in[perm[j]];
}

template <typename T>
static spira_status gather(spira_context ctx, int n, const int32_t *perm, const void *in, void *out)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const int block = 256;
    gather_kernel<<<spira__blocks(n, block), block, 0, st>>>(n, perm, (const T *)in, (T *)out);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

extern "C" spira_status spira__ilu_dev_apply(spira__ilu_factor *f, const void *r, void *z)
{
    ilu_dev *d = (ilu_dev *)f->dev;
    spira_context ctx = f->ctx;
    int n = f->lu.nrows;
    if (n == 0) return SPIRA_OK;
    if (!d || !d->exact_ready)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "ILU: the exact solves were not set up");
    spira_dtype t = f->lu.dtype;
    if (d->perm)
        SPIRA__TRY(t == SPIRA_R64 ? gather<double>(ctx, n, d->perm, r, d->w0)
                                  : gather<float>(ctx, n, d->perm, r, d->w0));
    void *hp;
    SPIRA__TRY(spira__cuda_cusparse(ctx, &hp));
    cusparseHandle_t h = (cusparseHandle_t)hp;
    /* the handle is the context's, shared: state the pointer mode this call relies on */
    SPIRA__CUSPARSE(ctx, cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_HOST));
    SPIRA__CUSPARSE(ctx, cusparseDnVecSetValues(d->vin, d->perm ? d->w0 : (void *)r));
    SPIRA__CUSPARSE(ctx, cusparseDnVecSetValues(d->vout, z));
    one_value one = {1.0, 1.0f};
    SPIRA__CUSPARSE(ctx, cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, one_ptr(&one, t),
                                            d->lower, d->vin, d->vmid, d->vtype,
                                            CUSPARSE_SPSV_ALG_DEFAULT, d->sv_lower));
    SPIRA__CUSPARSE(ctx, cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, one_ptr(&one, t),
                                            d->upper, d->vmid, d->vout, d->vtype,
                                            CUSPARSE_SPSV_ALG_DEFAULT, d->sv_upper));
    return SPIRA_OK;
}

/* ---- the sweeps ---- */

namespace {

constexpr int kSweepBlock = 256; /* threads a block, one launch a sweep */
constexpr int kOneBlock = 1024;  /* the one block of the fused launch */
/* The fused launch while a sweep is at most this many passes of its block over the rows
 * (n V / kOneBlock): a first guess to be measured (bench/trisolve-bench), from about 3 us a
 * launch against well under 1 us a pass on an H100. */
constexpr long long kOneBlockMaxLanes = 4LL * kOneBlock;

/* NC: through the read-only cache (only for what no thread of the launch writes) */
template <bool NC, typename T>
__device__ __forceinline__ T load(const T *p)
{
    if (NC) return __ldg(p);
    return *p;
}

/* One row i of a sweep, by the V lanes of the calling vector:
 * out[i] = (b[i] - sum_k S(i,k) x_k) / d[i], with d = 1 when d is NULL and x_k = x[k], or
 * x[k] / d[k] when SCALED (U's first sweep, whose x_0 = D^-1 y is not written). */
template <typename T, int V, bool NC, bool SCALED>
__device__ __forceinline__ void sweep_row(int i, unsigned lane, unsigned mask,
                                          const int *__restrict__ rp, const int *__restrict__ ci,
                                          const T *__restrict__ v, const T *__restrict__ d,
                                          const T *b, const T *x, T *out)
{
    const int end = __ldg(&rp[i + 1]);
    T sum = 0;
    for (int j = __ldg(&rp[i]) + (int)lane; j < end; j += V) {
        const int c = __ldg(&ci[j]);
        T xc = load<NC>(&x[c]);
        if (SCALED) xc /= __ldg(&d[c]);
        sum += __ldg(&v[j]) * xc;
    }
#pragma unroll
    for (int off = V / 2; off > 0; off >>= 1) sum += __shfl_down_sync(mask, sum, off, V);
    if (lane == 0) {
        const T o = load<NC>(&b[i]) - sum;
        out[i] = d ? o / __ldg(&d[i]) : o;
    }
}

/* One sweep over the whole GPU, grid-stride, a vector of V lanes a row. */
template <typename T, int V, bool SCALED>
__global__ void __launch_bounds__(kSweepBlock)
    sweep_kernel(int n, const int *__restrict__ rp, const int *__restrict__ ci,
                 const T *__restrict__ v, const T *__restrict__ d, const T *__restrict__ b,
                 const T *__restrict__ x, T *__restrict__ out)
{
    const unsigned lane = threadIdx.x & (V - 1), mask = spira__vector_mask<V>();
    const unsigned nvec = gridDim.x * (blockDim.x / V);
    for (unsigned i = (blockIdx.x * blockDim.x + threadIdx.x) / V; i < (unsigned)n; i += nvec)
        sweep_row<T, V, true, SCALED>((int)i, lane, mask, rp, ci, v, d, b, x, out);
}

/* A strict triangle's arrays, for the fused kernel's arguments. */
template <typename T>
struct tri {
    const int *rp, *ci;
    const T *v;
};

/* Every sweep of an apply in one block: P r (pr, when perm), K sweeps of L into w0/w1,
 * K sweeps of U ending in z, a barrier after each step. */
template <typename T, int V>
__global__ void __launch_bounds__(kOneBlock)
    sweeps_one_block(int n, int K, const int32_t *__restrict__ perm, const T *r, tri<T> L,
                     tri<T> U, const T *__restrict__ d, T *pr, T *w0, T *w1, T *z)
{
    const unsigned lane = threadIdx.x & (V - 1), mask = spira__vector_mask<V>();
    const int first = (int)(threadIdx.x / V), stride = (int)(blockDim.x / V);
    const T *b = r;
    if (perm) {
        for (int i = threadIdx.x; i < n; i += blockDim.x) pr[i] = r[__ldg(&perm[i])];
        __syncthreads();
        b = pr;
    }
    /* L y = P r: y_0 = b, y_j = b - L_s y_{j-1} into w1, w0, w1, ... */
    const T *x = b;
    for (int j = 1; j <= K; j++) {
        T *out = (j & 1) ? w1 : w0;
        for (int i = first; i < n; i += stride)
            sweep_row<T, V, false, false>(i, lane, mask, L.rp, L.ci, L.v, nullptr, b, x, out);
        __syncthreads();
        x = out;
    }
    /* U z = y_K: z_j = D^-1 (y_K - U_s z_{j-1}), alternating so that z_K is z */
    const T *y = x;
    T *tmp = ((K + 1) & 1) ? w1 : w0;
    for (int j = 1; j <= K; j++) {
        T *out = ((K - j) & 1) ? tmp : z;
        for (int i = first; i < n; i += stride) {
            if (j == 1) sweep_row<T, V, false, true>(i, lane, mask, U.rp, U.ci, U.v, d, y, y, out);
            else sweep_row<T, V, false, false>(i, lane, mask, U.rp, U.ci, U.v, d, y, x, out);
        }
        __syncthreads();
        x = out;
    }
}

template <typename T, int V, bool SCALED>
spira_status sweep_launch(spira_context ctx, const spira__csr_dev *S, const void *d,
                          const T *b, const T *x, T *out)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    sweep_kernel<T, V, SCALED><<<spira__blocks((long long)S->nrows * V, kSweepBlock), kSweepBlock,
                                 0, st>>>(S->nrows, S->row_ptr, S->col_idx, (const T *)S->val,
                                          (const T *)d, b, x, out);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

/* One sweep over S (d: NULL for L), V from S's mean row length. */
template <typename T, bool SCALED>
spira_status sweep(spira_context ctx, const spira__csr_dev *S, const void *d, const T *b,
                   const T *x, T *out)
{
    switch (spira__csr_vector_lanes(S->mean_row)) {
    case 2: return sweep_launch<T, 2, SCALED>(ctx, S, d, b, x, out);
    case 4: return sweep_launch<T, 4, SCALED>(ctx, S, d, b, x, out);
    case 8: return sweep_launch<T, 8, SCALED>(ctx, S, d, b, x, out);
    case 16: return sweep_launch<T, 16, SCALED>(ctx, S, d, b, x, out);
    default: return sweep_launch<T, 32, SCALED>(ctx, S, d, b, x, out);
    }
}

/* The apply as 2K launches (the fused kernel's steps, each over the whole GPU). */
template <typename T>
spira_status per_sweep(spira_context ctx, const ilu_dev *d, int n, int K, const T *r, T *z)
{
    T *w0 = (T *)d->w0, *w1 = (T *)d->w1;
    const T *b = r;
    if (d->perm) {
        SPIRA__TRY(gather<T>(ctx, n, d->perm, r, d->pr));
        b = (const T *)d->pr;
    }
    const T *x = b;
    for (int j = 1; j <= K; j++) {
        T *out = (j & 1) ? w1 : w0;
        SPIRA__TRY((sweep<T, false>(ctx, d->ls, NULL, b, x, out)));
        x = out;
    }
    const T *y = x;
    T *tmp = ((K + 1) & 1) ? w1 : w0;
    for (int j = 1; j <= K; j++) {
        T *out = ((K - j) & 1) ? tmp : z;
        if (j == 1) SPIRA__TRY((sweep<T, true>(ctx, d->us, d->diag, y, y, out)));
        else SPIRA__TRY((sweep<T, false>(ctx, d->us, d->diag, y, x, out)));
        x = out;
    }
    return SPIRA_OK;
}

template <typename T, int V>
spira_status one_block_launch(spira_context ctx, const ilu_dev *d, int n, int K, const T *r, T *z)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const tri<T> L = {d->ls->row_ptr, d->ls->col_idx, (const T *)d->ls->val};
    const tri<T> U = {d->us->row_ptr, d->us->col_idx, (const T *)d->us->val};
    sweeps_one_block<T, V><<<1, kOneBlock, 0, st>>>(n, K, d->perm, r, L, U, (const T *)d->diag,
                                                    (T *)d->pr, (T *)d->w0, (T *)d->w1, z);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

/* V of the fused kernel: from both triangles' mean row length. */
int one_block_lanes(const ilu_dev *d, int n)
{
    return spira__csr_vector_lanes(n ? (double)(d->ls->nnz + d->us->nnz) / (2.0 * n) : 0);
}

template <typename T>
spira_status one_block(spira_context ctx, const ilu_dev *d, int n, int K, const T *r, T *z)
{
    switch (one_block_lanes(d, n)) {
    case 2: return one_block_launch<T, 2>(ctx, d, n, K, r, z);
    case 4: return one_block_launch<T, 4>(ctx, d, n, K, r, z);
    case 8: return one_block_launch<T, 8>(ctx, d, n, K, r, z);
    case 16: return one_block_launch<T, 16>(ctx, d, n, K, r, z);
    default: return one_block_launch<T, 32>(ctx, d, n, K, r, z);
    }
}

template <typename T>
spira_status sweeps_apply(spira_context ctx, const ilu_dev *d, int n, int K,
                          spira__sweeps_path path, const void *r, void *z)
{
    if (path == SPIRA__SWEEPS_AUTO)
        path = (long long)n * one_block_lanes(d, n) <= kOneBlockMaxLanes ? SPIRA__SWEEPS_ONE_BLOCK
                                                                        : SPIRA__SWEEPS_PER_SWEEP;
    return path == SPIRA__SWEEPS_ONE_BLOCK ? one_block<T>(ctx, d, n, K, (const T *)r, (T *)z)
                                           : per_sweep<T>(ctx, d, n, K, (const T *)r, (T *)z);
}

} // namespace

extern "C" spira_status spira__ilu_dev_sweeps(spira__ilu_factor *f, int sweeps,
                                              spira__sweeps_path path, const void *r, void *z)
{
    ilu_dev *d = (ilu_dev *)f->dev;
    spira_context ctx = f->ctx;
    const int n = f->lu.nrows;
    if (sweeps < 1 || sweeps > SPIRA_TRISOLVE_MAX_SWEEPS)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "ILU: %d Jacobi sweeps (1 to %d)", sweeps,
                            SPIRA_TRISOLVE_MAX_SWEEPS);
    if (!d || !d->sweeps_ready)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "ILU: the sweeps were not set up");
    if (n == 0) return SPIRA_OK;
    return f->lu.dtype == SPIRA_R64 ? sweeps_apply<double>(ctx, d, n, sweeps, path, r, z)
                                    : sweeps_apply<float>(ctx, d, n, sweeps, path, r, z);
}
