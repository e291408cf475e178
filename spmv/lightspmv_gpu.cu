/*
 * lightspmv_gpu.cu - the LightSpMV kernels (Liu & Schmidt 2015; see lightspmv.h): vectors of
 * V lanes take rows from a device row counter with atomicAdd, a batch at a time per vector
 * (vector level) or per warp (warp level), and sum each row as csr-vector does
 * (csr_row.cuh). The grid is as many blocks as the GPU holds at once, so every vector stays
 * resident and keeps taking rows until the counter passes the last one.
 */
#include "csr_gpu.cuh"
#include "csr_row.cuh"
#include "lightspmv.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

namespace {

constexpr int kBlock = 256;

template <typename T>
using light_kernel_t = void (*)(int, const int *, const int *, const T *, const T *, T, T, T *,
                                unsigned *, int);

/* Eight blocks per SM, as csr-vector asks: left to itself, nvcc (with -rdc=true, as the
 * library is built) gives these kernels registers enough to hold the GPU to a quarter of
 * its warps (make kernel-registers lists them). Capped at 32 registers nothing spills. */
template <typename T, int V, bool kWarpLevel>
__global__ void __launch_bounds__(kBlock, 8)
    lightspmv_kernel(int nrows, const int *__restrict__ rp, const int *__restrict__ ci,
                     const T *__restrict__ v, const T *__restrict__ x, T alpha, T beta,
                     T *__restrict__ y, unsigned *__restrict__ counter, int batch)
{
    constexpr unsigned kVectorsPerWarp = 32 / V;
    const unsigned lane = threadIdx.x & (V - 1);
    const unsigned mask = spira__vector_mask<V>();
    for (;;) {
        /* first row of this vector's share of the batch, and the step between its rows */
        unsigned row, step;
        if (kWarpLevel) {
            /* lane 0 takes batch groups of 32/V rows; vector k of the warp does row k of
             * each group, so neighbouring vectors read neighbouring row pointers */
            const unsigned warp_lane = threadIdx.x & 31;
            unsigned base = 0;
            if (warp_lane == 0) base = atomicAdd(counter, (unsigned)batch * kVectorsPerWarp);
            base = __shfl_sync(0xffffffffu, base, 0);
            if (base >= (unsigned)nrows) return; /* the whole warp leaves together */
            row = base + warp_lane / V;
            step = kVectorsPerWarp;
        } else {
            unsigned taken = 0;
            if (lane == 0) taken = atomicAdd(counter, (unsigned)batch);
            row = __shfl_sync(mask, taken, 0, V);
            if (row >= (unsigned)nrows) return;
            step = 1;
        }
        /* the vector's lanes agree on row, so they leave this loop together */
        for (int k = 0; k < batch && row < (unsigned)nrows; k++, row += step) {
            T sum = spira__csr_row_dot<T, V>(__ldg(&rp[row]), __ldg(&rp[row + 1]), lane, mask,
                                             ci, v, x);
            if (lane == 0) spira__csr_row_store(y, (int)row, sum, alpha, beta);
        }
    }
}

template <typename T, int V>
light_kernel_t<T> pick_level(bool warp)
{
    return warp ? lightspmv_kernel<T, V, true> : lightspmv_kernel<T, V, false>;
}

template <typename T>
light_kernel_t<T> pick(int lanes, bool warp)
{
    switch (lanes) {
    case 2: return pick_level<T, 2>(warp);
    case 4: return pick_level<T, 4>(warp);
    case 8: return pick_level<T, 8>(warp);
    case 16: return pick_level<T, 16>(warp);
    default: return pick_level<T, 32>(warp);
    }
}

struct light_dev {
    spira__csr_dev csr;
    unsigned *counter; /* device: the lowest row not yet taken */
    const void *kernel; /* the instance for the dtype, V and level */
    unsigned grid;      /* blocks: what the GPU holds at once, or fewer if the rows need fewer */
    int batch;
};

spira_status lightspmv_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__lightspmv *L = (const spira__lightspmv *)layout;
    light_dev *d = (light_dev *)dev;
    SPIRA__TRY(spira__csr_dev_fill(ctx, dev, L->csr, &d->csr));
    const spira__dev_array counter[] = {
        {&d->counter, NULL, sizeof *d->counter, "LightSpMV row counter"}};
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, counter));
    const int lanes = L->lanes;
    d->batch = L->batch;
    d->kernel = d->csr.dtype == SPIRA_R64 ? (const void *)pick<double>(lanes, L->warp_level)
                                          : (const void *)pick<float>(lanes, L->warp_level);
    int sms = 0, per_sm = 0;
    SPIRA__CUDA(ctx, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ctx->device));
    SPIRA__CUDA(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, d->kernel, kBlock, 0));
    const unsigned resident = (unsigned)(sms * (per_sm > 0 ? per_sm : 1));
    const unsigned needed = spira__blocks((long long)d->csr.nrows * lanes, kBlock);
    d->grid = needed < resident ? needed : resident;
    if (d->batch == 0) {
        /* 32 rows per take, or fewer when the rows would not reach every resident warp (or
         * vector) about twice, but never fewer than the paper's rows per take (lightspmv.h
         * says why). */
        const long long unit = L->warp_level ? 32 / lanes : 1; /* the paper's rows per take */
        const long long takers = (long long)d->grid * (kBlock / (L->warp_level ? 32 : lanes));
        long long rows = d->csr.nrows / (2 * takers);
        if (rows > 32) rows = 32;
        d->batch = rows / unit > 1 ? (int)(rows / unit) : 1;
    }
    return SPIRA_OK;
}

template <typename T>
spira_status light_launch(spira_context ctx, const light_dev *d, double alpha, const void *x,
                          double beta, void *y)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    /* a counter left from the last call would skip every row */
    SPIRA__CUDA(ctx, cudaMemsetAsync(d->counter, 0, sizeof *d->counter, st));
    const spira__csr_dev *c = &d->csr;
    ((light_kernel_t<T>)d->kernel)<<<d->grid, kBlock, 0, st>>>(
        c->nrows, c->row_ptr, c->col_idx, (const T *)c->val, (const T *)x, (T)alpha, (T)beta,
        (T *)y, d->counter, d->batch);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

spira_status lightspmv_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                             double beta, void *y)
{
    const light_dev *d = (const light_dev *)dev;
    if (d->csr.nrows == 0) return SPIRA_OK;
    return d->csr.dtype == SPIRA_R64 ? light_launch<double>(ctx, d, alpha, x, beta, y)
                                     : light_launch<float>(ctx, d, alpha, x, beta, y);
}

} // namespace

extern "C" const spira__format_gpu spira__lightspmv_gpu = {
    .handle = sizeof(light_dev),
    .upload = lightspmv_dev_upload,
    .shares_csr = 1,
    .apply = lightspmv_dev_apply,
};
