/*
 * gf2_build_gpu.cu - the GF(2) conversions on the GPU (see gf2_dev.cuh): the pattern's
 * device copy, the sliced bands and the bitmap from it, with CUB. They make the host
 * builders' arrays (gf2_sliced.c, gf2_dense.c) exactly, which check_gpu compares byte for
 * byte.
 *
 * Bands: every entry gets the key (band, slice, column) in the fewest bits that hold them
 * (band 3 bits' worth of ones for an entry of the bitmap, which sorts last and is dropped)
 * and its row within the slice as the value; entries come in the pattern's row order and
 * CUB's radix sort is stable, so equal keys keep rows ascending, as the host's walk over
 * the transpose leaves them. The sorted keys give each band's columns and, where the slice
 * number steps, its slice pointers. Scratch (keys and values twice, CUB's temporary
 * storage) is freed before returning, on every path; cudaFree waits for the kernels.
 */
#include "gf2_dev.cuh"
#include "rows_gpu.cuh"
#include "cuda/check.cuh"

#include <cub/device/device_radix_sort.cuh>

namespace {

typedef unsigned long long u64;
constexpr int kBlock = 256;
constexpr u64 kBitmapKey = ~0ull; /* an entry the bitmap holds: sorts after every band's */

/* the bits that hold 0 .. n-1 */
int bits_for(long long n)
{
    int b = 0;
    while (b < 62 && (1LL << b) < n) b++;
    return b;
}

struct band_rows {
    int rows[SPIRA__GF2_BANDS];
};

__global__ void __launch_bounds__(kBlock)
    band_keys_kernel(int nnz, const int *__restrict__ ci, const int *__restrict__ drow,
                     const unsigned char *__restrict__ cls, band_rows br, int sb, int cb,
                     u64 *__restrict__ key, unsigned short *__restrict__ val)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < (unsigned)nnz; k += stride) {
        const int c = ci[k], i = drow[k], cl = cls ? cls[c] : 1;
        if (cl == 0) {
            key[k] = kBitmapKey;
            val[k] = 0;
            continue;
        }
        const int R = br.rows[cl - 1];
        key[k] = (u64)(cl - 1) << (sb + cb) | (u64)(i / R) << cb | (u64)c;
        val[k] = (unsigned short)(i % R);
    }
}

/* start[b] = the first sorted entry of band b (3: the bitmap's), left at its initial n
 * where the band has none */
__global__ void __launch_bounds__(kBlock)
    band_starts_kernel(int n, const u64 *__restrict__ key, int shift, int banded,
                       int *__restrict__ start)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned p = blockIdx.x * blockDim.x + threadIdx.x; p < (unsigned)n; p += stride) {
        const int b = banded ? (int)min(key[p] >> shift, 3ull) : 0;
        const int a = p == 0 ? -1 : banded ? (int)min(key[p - 1] >> shift, 3ull) : 0;
        if (b != a) start[b] = (int)p;
    }
}

/* band entries [0, n) from the sorted keys and values at key, val: columns, rows, and the
 * slice pointers (slice_ptr[t] = the first entry of slice t or after) */
__global__ void __launch_bounds__(kBlock)
    band_fill_kernel(int n, int nslices, const u64 *__restrict__ key,
                     const unsigned short *__restrict__ val, int cb, u64 smask,
                     int *__restrict__ col, unsigned short *__restrict__ row,
                     int *__restrict__ slice_ptr)
{
    const u64 cmask = cb ? (1ull << cb) - 1 : 0;
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < (unsigned)n; k += stride) {
        const u64 kk = key[k];
        col[k] = (int)(kk & cmask);
        row[k] = val[k];
        const long long s = (long long)((kk >> cb) & smask);
        const long long sp = k == 0 ? -1 : (long long)((key[k - 1] >> cb) & smask);
        for (long long t = sp + 1; t <= s; t++) slice_ptr[t] = (int)k;
        if (k == (unsigned)n - 1)
            for (long long t = s + 1; t <= nslices; t++) slice_ptr[t] = n;
    }
}

__global__ void __launch_bounds__(kBlock)
    bitmap_kernel(int nnz, int ndense, const int *__restrict__ ci, const int *__restrict__ drow,
                  const unsigned char *__restrict__ cls, const int *__restrict__ dpos,
                  unsigned *__restrict__ bits)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < (unsigned)nnz; k += stride) {
        const int c = ci[k];
        if (cls && cls[c] != 0) continue;
        const int i = drow[k], d = cls ? dpos[c] : c;
        atomicOr(&bits[(size_t)(i / SPIRA__GF2_DENSE_ROWS) * ndense + d],
                 1u << (i % SPIRA__GF2_DENSE_ROWS));
    }
}

__global__ void __launch_bounds__(kBlock) iota_kernel(int n, int *__restrict__ a)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += stride)
        a[i] = (int)i;
}

cudaStream_t stream_of(spira_context ctx) { return (cudaStream_t)spira__cuda_stream(ctx); }

} // namespace

spira_status spira__gf2_dev_bands(spira_context ctx, void *dev, const spira__csr_dev *P,
                                  const int32_t *drow, const uint8_t *cls, int nbands,
                                  spira__gf2_sliced_dev *band)
{
    cudaStream_t st = stream_of(ctx);
    const int n = P->nnz;
    band_rows br = {};
    int sb = 0;
    for (int b = 0; b < nbands; b++) {
        band[b].nslices = (int32_t)(((long long)band[b].nrows + band[b].rows - 1) / band[b].rows);
        band[b].nnz = 0;
        br.rows[b] = band[b].rows;
        const int s = bits_for(band[b].nslices);
        if (s > sb) sb = s;
    }
    const int cb = bits_for(P->ncols);
    const int shift = sb + cb, end_bit = (cls ? 2 : 0) + shift;
    /* the sorted keys and values: [0, n) of kout and vout */
    dev_buf keys(ctx), vals(ctx), temp(ctx), starts(ctx);
    u64 *kin = NULL, *kout = NULL;
    unsigned short *vin = NULL, *vout = NULL;
    int start[4] = {n, n, n, n};
    if (n > 0) {
        SPIRA__TRY(keys.alloc(2 * (size_t)n * sizeof(u64), "GF(2) band keys (scratch)"));
        SPIRA__TRY(vals.alloc(2 * (size_t)n * sizeof(unsigned short), "GF(2) band rows (scratch)"));
        kin = (u64 *)keys.p, kout = kin + n;
        vin = (unsigned short *)vals.p, vout = vin + n;
        band_keys_kernel<<<spira__blocks(n, kBlock), kBlock, 0, st>>>(
            n, P->col_idx, drow, cls, br, sb, cb, kin, vin);
        SPIRA__LAUNCHED(ctx);
        size_t tb = 0;
        const int eb = end_bit > 0 ? end_bit : 1;
        SPIRA__CUDA(ctx, cub::DeviceRadixSort::SortPairs(nullptr, tb, kin, kout, vin, vout, n, 0,
                                                         eb, st));
        SPIRA__TRY(temp.alloc(tb, "GF(2) band sort (CUB scratch)"));
        SPIRA__CUDA(ctx, cub::DeviceRadixSort::SortPairs(temp.p, tb, kin, kout, vin, vout, n, 0,
                                                         eb, st));
        SPIRA__TRY(starts.alloc(sizeof start, "GF(2) band starts (scratch)"));
        SPIRA__TRY(spira__cuda_upload(ctx, starts.p, start, sizeof start));
        band_starts_kernel<<<spira__blocks(n, kBlock), kBlock, 0, st>>>(n, kout, shift, cls != NULL,
                                                                        (int *)starts.p);
        SPIRA__LAUNCHED(ctx);
        SPIRA__TRY(spira__cuda_download(ctx, start, starts.p, sizeof start));
        SPIRA__TRY(spira__cuda_synchronize(ctx));
    }
    for (int b = 0; b < nbands; b++) {
        spira__gf2_sliced_dev *d = &band[b];
        int end = n;
        for (int a = b + 1; a < 4; a++)
            if (start[a] < end) end = start[a];
        const int begin = start[b], count = begin < end ? end - begin : 0;
        if (cls && count == 0) { /* an empty band of the combined format: nothing held */
            d->nslices = 0;
            continue;
        }
        d->nnz = count;
        const spira__dev_array arrays[] = {
            {&d->slice_ptr, NULL, ((size_t)d->nslices + 1) * sizeof(int32_t),
             "sliced COO slice pointers"},
            {&d->col, NULL, (size_t)count * sizeof(int32_t), "sliced COO columns"},
            {&d->row, NULL, (size_t)count * sizeof(uint16_t), "sliced COO rows"},
        };
        SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
        if (count == 0) {
            SPIRA__TRY(spira__cuda_zero(ctx, d->slice_ptr,
                                        ((size_t)d->nslices + 1) * sizeof(int32_t)));
            continue;
        }
        const u64 smask = sb ? (1ull << sb) - 1 : 0;
        band_fill_kernel<<<spira__blocks(count, kBlock), kBlock, 0, st>>>(
            count, d->nslices, kout + begin, vout + begin, cb, smask, d->col,
            (unsigned short *)d->row, d->slice_ptr);
        SPIRA__LAUNCHED(ctx);
    }
    return spira__cuda_synchronize(ctx); /* before the scratch goes */
}

spira_status spira__gf2_dev_dense(spira_context ctx, void *dev, const spira__csr_dev *P,
                                  const int32_t *drow, const uint8_t *cls, const int32_t *dpos,
                                  spira__gf2_dense_dev *d)
{
    cudaStream_t st = stream_of(ctx);
    d->ngroups = (int32_t)(((long long)P->nrows + SPIRA__GF2_DENSE_ROWS - 1) / SPIRA__GF2_DENSE_ROWS);
    const size_t words = (size_t)d->ngroups * (size_t)d->ndense;
    const spira__dev_array bits[] = {
        {&d->bits, NULL, words * sizeof(uint32_t), "dense bitmap"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, bits));
    if (!cls) {
        const spira__dev_array col[] = {
            {&d->col, NULL, (size_t)d->ndense * sizeof(int32_t), "dense bitmap columns"},
        };
        SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, col));
        if (d->ndense > 0) {
            iota_kernel<<<spira__blocks(d->ndense, kBlock), kBlock, 0, st>>>(d->ndense, d->col);
            SPIRA__LAUNCHED(ctx);
        }
    }
    if (words == 0) return SPIRA_OK;
    SPIRA__TRY(spira__cuda_zero(ctx, d->bits, words * sizeof(uint32_t)));
    if (P->nnz > 0) {
        bitmap_kernel<<<spira__blocks(P->nnz, kBlock), kBlock, 0, st>>>(
            P->nnz, d->ndense, P->col_idx, drow, cls, dpos, d->bits);
        SPIRA__LAUNCHED(ctx);
    }
    return SPIRA_OK;
}

/* ---- the pattern's device copy ----------------------------------------------------------- */

static spira_status gf2_pattern_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__gf2_pattern *A = (const spira__gf2_pattern *)layout;
    spira__csr_dev *d = (spira__csr_dev *)dev;
    d->nrows = A->nrows;
    d->ncols = A->ncols;
    d->nnz = A->nnz;
    d->dtype = A->dtype;
    d->mean_row = A->nrows ? (double)A->nnz / A->nrows : 0;
    d->val = NULL;
    const spira__dev_array arrays[] = {
        {&d->row_ptr, A->row_ptr, ((size_t)A->nrows + 1) * sizeof(int32_t),
         "GF(2) pattern row pointers"},
        {&d->col_idx, A->col_idx, (size_t)A->nnz * sizeof(int32_t), "GF(2) pattern columns"},
    };
    return SPIRA__DEV_CLONE(ctx, dev, arrays);
}

extern "C" const spira__format_gpu spira__gf2_pattern_gpu = {
    .handle = sizeof(spira__csr_dev),
    .upload = gf2_pattern_dev_upload,
};
