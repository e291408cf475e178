/*
 * suraa_convert_gpu.cu - SURAA's conversion on the GPU from the device CSR (see suraa.h):
 * the host conversion's layout (suraa.c) array for array, and its segments and launches.
 *
 *   - The longest row K: one reduce, one wait (it sizes the sort key).
 *   - The row order: a stable sort of (K - length, first column) with the rows in
 *     order as values (sort_gpu.cuh), which is suraa.c's order, ties by row included: an
 *     empty row's first column is ncols here and INT32_MAX there, in both cases past every
 *     real column, and empty rows tie only with each other.
 *   - The sorted row pointers: a scan of the lengths in sorted order; then each thread
 *     copies a run of kItems entries (column and value) from the row they fall in
 *     (spira__row_of over the sorted pointers), so a dense row costs what its entries cost.
 *   - The Freedman-Diaconis segment: the two quartile lengths read back (the second wait),
 *     the rule on the host with suraa.c's own code.
 *   - The launches: a thread a segment classifies it with suraa.h's spira__suraa_segment,
 *     the host's rule. The sorted lengths do not grow along the segments, so neither do
 *     their means, and the rule's kind and threads change monotonically: each (kind,
 *     threads) holds one contiguous run of segments, and G1 (a mean > 32 and its rows within
 *     `children`) is a prefix, so a segment is in G1 exactly when its own mean and end allow
 *     it. Each run's first segment records where the run starts, under the run's code; the
 *     group boundaries are recorded likewise; the third wait reads them back, and the host
 *     orders the runs into launches, which are the host's: add_launch merges exactly such
 *     runs.
 */
#include "suraa.h"
#include "device.h"
#include "rows_gpu.cuh"
#include "sort_gpu.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace {

constexpr int kBlock = 256;
constexpr int kItems = 4; /* entries a thread copies: one row search for 4 */
/* run codes: DYNAMIC; VECTOR with Y = 32..1024 (Y / 32); SUBWARP with 1..32 lanes (log2) */
constexpr int kCodeVector = 1, kCodeSubwarp = 33, kCodes = 39;

/* What the last wait reads back: where each code's run starts (its first segment, -1: no
 * run), and the rows of G1 and of G1 and G2 together. */
struct summary {
    int start[kCodes];
    int g1_end, g12_end;
};

/* The sort key of row i: longer rows first, then the first column. */
struct length_key {
    const int *rp, *ci;
    int K, ncols, cbits;
    __device__ unsigned long long operator()(int i) const
    {
        const int b = rp[i], n = rp[i + 1] - b;
        const unsigned first = n ? (unsigned)ci[b] : (unsigned)ncols;
        return (unsigned long long)(unsigned)(K - n) << cbits | first;
    }
};

/* The length of sorted row r (0 for r == nrows: the total's slot of a scan). */
struct sorted_len {
    const int *rp, *perm;
    int nrows;
    __host__ __device__ int operator()(int r) const
    {
        if (r >= nrows) return 0;
        const int i = perm[r];
        return rp[i + 1] - rp[i];
    }
};

template <typename T>
__global__ void __launch_bounds__(kBlock)
    copy_kernel(int nrows, int nnz, const int *__restrict__ srp, const int *__restrict__ perm,
                const int *__restrict__ rp, const int *__restrict__ ci, const T *__restrict__ v,
                int *__restrict__ sci, T *__restrict__ sv)
{
    const long long stride = (long long)gridDim.x * blockDim.x * kItems;
    for (long long q0 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * kItems; q0 < nnz;
         q0 += stride) {
        int r = spira__row_of(srp, nrows, q0), b = srp[r], next = srp[r + 1];
        int from = rp[perm[r]];
        const int end = q0 + kItems < nnz ? (int)q0 + kItems : nnz;
        for (int q = (int)q0; q < end; q++) {
            while (q >= next) b = next, next = srp[++r + 1], from = rp[perm[r]];
            const int p = from + (q - b);
            sci[q] = ci[p];
            sv[q] = v[p];
        }
    }
}

/* out[0] = the length of sorted row m/4, out[1] of 3m/4 (m > 0) */
__global__ void quartiles_kernel(int m, const int *__restrict__ srp, int *__restrict__ out)
{
    const int a = m / 4, b = (int)((long long)3 * m / 4);
    out[0] = srp[a + 1] - srp[a];
    out[1] = srp[b + 1] - srp[b];
}

__device__ int code_of(int g1, int dynamic, int g3_scalar, long long nnz, int rows, int *group)
{
    int kind, threads;
    *group = spira__suraa_segment(g1, dynamic, g3_scalar, nnz, rows, &kind, &threads);
    if (kind == SPIRA__SURAA_DYNAMIC) return 0;
    if (kind == SPIRA__SURAA_VECTOR) return kCodeVector + threads / 32 - 1;
    return kCodeSubwarp + __ffs(threads) - 1;
}

/* Segment j of `seg` rows: its code and group against segment j - 1's, recorded where a run
 * or a group begins or ends. */
__global__ void __launch_bounds__(kBlock)
    segments_kernel(int m, int seg, int nseg, int children, int dynamic, int g3_scalar,
                    const int *__restrict__ srp, summary *out)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned j = blockIdx.x * blockDim.x + threadIdx.x; j < (unsigned)nseg; j += stride) {
        const long long first = (long long)j * seg;
        const int end = (int)min(first + seg, (long long)m);
        int group, prev_group = -1;
        const int code = code_of(end <= children, dynamic, g3_scalar,
                                 (long long)srp[end] - srp[first], end - (int)first, &group);
        int prev = -1;
        if (j > 0)
            prev = code_of((int)first <= children, dynamic, g3_scalar,
                           (long long)srp[first] - srp[first - seg], seg, &prev_group);
        if (code != prev) out->start[code] = (int)j;
        if (group != prev_group) {
            if (prev_group == 0) out->g1_end = (int)first;
            if (prev_group <= 1 && group == 2 && prev_group >= 0) out->g12_end = (int)first;
        }
        if (j + 1 == (unsigned)nseg) { /* the groups still open end with the matrix */
            if (group == 0) out->g1_end = m;
            if (group <= 1) out->g12_end = m;
        }
    }
}

cudaStream_t stream_of(spira_context ctx) { return (cudaStream_t)spira__cuda_stream(ctx); }

/* S->row_ptr, col_idx, val in perm's order (perm already made): a scan and the copy. */
template <typename T>
spira_status copy_rows(spira_context ctx, const spira__csr_dev *dA, spira__suraa *S)
{
    cudaStream_t st = stream_of(ctx);
    auto lens = thrust::make_transform_iterator(thrust::make_counting_iterator(0),
                                                sorted_len{dA->row_ptr, S->perm, S->nrows});
    size_t temp = 0;
    SPIRA__CUDA(ctx, cub::DeviceScan::ExclusiveSum(nullptr, temp, lens, S->row_ptr,
                                                   S->nrows + 1, st));
    void *s = NULL;
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, &s, temp, "SURAA row pointers (CUB scratch)"));
    spira_status r = spira__cuda_status(
        ctx, cub::DeviceScan::ExclusiveSum(s, temp, lens, S->row_ptr, S->nrows + 1, st),
        "cub::DeviceScan::ExclusiveSum", __FILE__, __LINE__);
    spira__cuda_scratch_free(ctx, s); /* in stream order: after the scan */
    SPIRA__TRY(r);
    if (S->nnz == 0) return SPIRA_OK;
    const long long runs = ((long long)S->nnz + kItems - 1) / kItems;
    copy_kernel<T><<<spira__blocks(runs, kBlock), kBlock, 0, st>>>(
        S->nrows, S->nnz, S->row_ptr, S->perm, dA->row_ptr, dA->col_idx, (const T *)dA->val,
        S->col_idx, (T *)S->val);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

/* S->launch and group_rows from the segments (S->segment set), as group_segments makes them. */
spira_status make_launches(spira_context ctx, spira__suraa *S)
{
    cudaStream_t st = stream_of(ctx);
    const int m = S->nrows;
    const int nseg = (int)(((long long)m + S->segment - 1) / S->segment);
    summary *d = NULL;
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, (void **)&d, sizeof *d, "SURAA launches (scratch)"));
    summary h;
    spira_status r = spira__cuda_status(ctx, cudaMemsetAsync(d->start, 0xff, sizeof h.start, st),
                                        "cudaMemsetAsync", __FILE__, __LINE__);
    if (r == SPIRA_OK) r = spira__cuda_zero(ctx, &d->g1_end, 2 * sizeof(int));
    if (r == SPIRA_OK) {
        segments_kernel<<<spira__blocks(nseg, kBlock), kBlock, 0, st>>>(
            m, S->segment, nseg, S->children, S->dynamic, S->g3_scalar, S->row_ptr, d);
        r = spira__cuda_status(ctx, cudaGetLastError(), "segments_kernel", __FILE__, __LINE__);
    }
    if (r == SPIRA_OK) r = spira__cuda_download(ctx, &h, d, sizeof h);
    spira__cuda_scratch_free(ctx, d);
    SPIRA__TRY(r);
    /* the runs in order of their first segments (at most kCodes: insertion) */
    int order[kCodes], n = 0;
    for (int c = 0; c < kCodes; c++) {
        if (h.start[c] < 0) continue;
        int at = n++;
        while (at > 0 && h.start[order[at - 1]] > h.start[c]) order[at] = order[at - 1], at--;
        order[at] = c;
    }
    S->nlaunch = n;
    for (int l = 0; l < n; l++) {
        const int c = order[l];
        spira__suraa_launch *L = &S->launch[l];
        L->kind = c == 0 ? SPIRA__SURAA_DYNAMIC
                  : c < kCodeSubwarp ? SPIRA__SURAA_VECTOR
                                     : SPIRA__SURAA_SUBWARP;
        L->threads = c == 0 ? 0 : c < kCodeSubwarp ? 32 * (c - kCodeVector + 1)
                                                   : 1 << (c - kCodeSubwarp);
        L->first = (int32_t)((long long)h.start[c] * S->segment);
        L->end = l + 1 < n ? (int32_t)((long long)h.start[order[l + 1]] * S->segment) : m;
    }
    S->group_rows[0] = h.g1_end;
    S->group_rows[1] = h.g12_end - h.g1_end;
    S->group_rows[2] = m - h.g12_end;
    return SPIRA_OK;
}

} // namespace

extern "C" spira_status spira__suraa_dev_build(spira_context ctx, const spira__csr *A,
                                               const struct spira__csr_dev *dA,
                                               const char *opts, void *dev, spira__suraa *S)
{
    int32_t segment;
    SPIRA__TRY(spira__suraa_options(ctx, opts, S, &segment));
    S->nrows = A->nrows, S->ncols = A->ncols, S->nnz = A->nnz, S->dtype = A->dtype;
    const int m = S->nrows;
    const spira__dev_array arrays[] = {
        {&S->row_ptr, NULL, ((size_t)m + 1) * sizeof(int32_t), "SURAA row pointers"},
        {&S->col_idx, NULL, (size_t)S->nnz * sizeof(int32_t), "SURAA column indices"},
        {&S->perm, NULL, (size_t)m * sizeof(int32_t), "SURAA row permutation"},
        {&S->val, NULL, (size_t)S->nnz * spira_dtype_size(S->dtype), "SURAA values"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    if (m == 0) {
        SPIRA__TRY(spira__cuda_zero(ctx, S->row_ptr, sizeof(int32_t)));
        spira__suraa_size_segments(S, segment, 0, 0);
        spira__suraa_describe(S);
        return SPIRA_OK;
    }
    int32_t K;
    SPIRA__TRY(spira__rows_dev_max(ctx, dA, &K));
    const int cbits = spira__bits_for((unsigned)S->ncols);
    SPIRA__TRY(spira__sort_rows(ctx, m, spira__bits_for((unsigned)K) + cbits,
                                length_key{dA->row_ptr, dA->col_idx, K, S->ncols, cbits},
                                S->perm, "SURAA sort keys (scratch)"));
    SPIRA__TRY(S->dtype == SPIRA_R64 ? copy_rows<double>(ctx, dA, S)
                                     : copy_rows<float>(ctx, dA, S));
    int *dq = NULL, q[2] = {0, 0};
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, (void **)&dq, sizeof q, "SURAA quartiles"));
    quartiles_kernel<<<1, 1, 0, stream_of(ctx)>>>(m, S->row_ptr, dq);
    spira_status r = spira__cuda_status(ctx, cudaGetLastError(), "quartiles_kernel", __FILE__,
                                        __LINE__);
    if (r == SPIRA_OK) r = spira__cuda_download(ctx, q, dq, sizeof q);
    spira__cuda_scratch_free(ctx, dq);
    SPIRA__TRY(r);
    spira__suraa_size_segments(S, segment, q[0], q[1]);
    SPIRA__TRY(make_launches(ctx, S));
    spira__suraa_describe(S);
    return SPIRA_OK;
}

SPIRA__MODULE_SORT_WARM(suraa_convert, length_key, (const void *)copy_kernel<double>,
                        (const void *)copy_kernel<float>, (const void *)quartiles_kernel,
                        (const void *)segments_kernel)
