/*
 * suraa_convert_gpu.cu - SURAA's conversion on the GPU from the device CSR (see suraa.h):
 * the host conversion's layout (suraa.c) array for array, and its segments and launches.
 * The layout borrows the device CSR's entries; what is made is the row order and spans.
 *
 *   - The longest row K and whether the first columns rise with the rows: one reduce, one
 *     wait (K sizes the sort key; rising first columns drop them from it).
 *   - The row order: a stable sort of (K - length, first column) with the rows in
 *     order as values (sort_gpu.cuh), which is suraa.c's order, ties by row included: an
 *     empty row's first column is ncols here and INT32_MAX there, in both cases past every
 *     real column, and empty rows tie only with each other. Where every row's first column
 *     (ncols for an empty row) is at least the row before's, the rows of one length are
 *     already in the order of their first columns, and K - length alone is the key.
 *   - The spans: each sorted row's [start, end) of the CSR's entries; the threads of the
 *     rows at m/4 and 3m/4 write their lengths for the Freedman-Diaconis rule, read back
 *     (the second wait) and applied on the host with suraa.c's own code.
 *   - The launches: a scan of the lengths in sorted order (scratch) gives each segment's
 *     entries; a thread a segment classifies it with suraa.h's spira__suraa_segment,
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
/* run codes: DYNAMIC; VECTOR with Y = 32..1024 (Y / 32); SUBWARP with 1..32 lanes (log2) */
constexpr int kCodeVector = 1, kCodeSubwarp = 33, kCodes = 39;

/* What the last wait reads back: where each code's run starts (its first segment, -1: no
 * run), and the rows of G1 and of G1 and G2 together. */
struct summary {
    int start[kCodes];
    int g1_end, g12_end;
};

/* The sort key of row i: longer rows first, then (cbits > 0) the first column. */
struct length_key {
    const int *rp, *ci;
    int K, ncols, cbits;
    __device__ unsigned long long operator()(int i) const
    {
        const int b = rp[i], n = rp[i + 1] - b;
        const unsigned first = cbits == 0 ? 0u : n ? (unsigned)ci[b] : (unsigned)ncols;
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

/* span[r] = sorted row r's entries [start, end) in the CSR; q[0] = the length of sorted row
 * m/4, q[1] of 3m/4. */
__global__ void __launch_bounds__(kBlock)
    span_kernel(int m, const int *__restrict__ rp, const int *__restrict__ perm,
                int2 *__restrict__ span, int *__restrict__ q)
{
    const int a = m / 4, b = (int)((long long)3 * m / 4);
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned r = blockIdx.x * blockDim.x + threadIdx.x; r < (unsigned)m; r += stride) {
        const int i = perm[r];
        const int2 s = make_int2(rp[i], rp[i + 1]);
        span[r] = s;
        if ((int)r == a) q[0] = s.y - s.x;
        if ((int)r == b) q[1] = s.y - s.x;
    }
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

/* srp[r] = the entries of sorted rows before r, r <= m (srp: device, m + 1 values). */
spira_status sorted_offsets(spira_context ctx, const spira__csr_dev *dA, const int *perm, int m,
                            int *srp)
{
    cudaStream_t st = stream_of(ctx);
    auto lens = thrust::make_transform_iterator(thrust::make_counting_iterator(0),
                                                sorted_len{dA->row_ptr, perm, m});
    size_t temp = 0;
    SPIRA__CUDA(ctx, cub::DeviceScan::ExclusiveSum(nullptr, temp, lens, srp, m + 1, st));
    void *s = NULL;
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, &s, temp, "SURAA segments (CUB scratch)"));
    spira_status r = spira__cuda_status(
        ctx, cub::DeviceScan::ExclusiveSum(s, temp, lens, srp, m + 1, st),
        "cub::DeviceScan::ExclusiveSum", __FILE__, __LINE__);
    spira__cuda_scratch_free(ctx, s); /* in stream order: after the scan */
    return r;
}

/* S->launch and group_rows from the segments (S->segment set) of the sorted rows whose
 * entries start at srp, as group_segments makes them. */
spira_status make_launches(spira_context ctx, spira__suraa *S, const int *srp)
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
            m, S->segment, nseg, S->children, S->dynamic, S->g3_scalar, srp, d);
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
    S->csr = NULL;
    S->col_idx = dA->col_idx;
    S->val = dA->val;
    const int m = S->nrows;
    const spira__dev_array arrays[] = {
        {&S->span, NULL, (size_t)m * 2 * sizeof(int32_t), "SURAA row spans"},
        {&S->perm, NULL, (size_t)m * sizeof(int32_t), "SURAA row permutation"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    if (m == 0) {
        spira__suraa_size_segments(S, segment, 0, 0);
        spira__suraa_describe(S);
        return SPIRA_OK;
    }
    int32_t K;
    int rising;
    SPIRA__TRY(spira__rows_dev_max(ctx, dA, &K, &rising));
    const int cbits = rising ? 0 : spira__bits_for((unsigned)S->ncols);
    SPIRA__TRY(spira__sort_rows(ctx, m, spira__bits_for((unsigned)K) + cbits,
                                length_key{dA->row_ptr, dA->col_idx, K, S->ncols, cbits},
                                S->perm, "SURAA sort keys (scratch)"));
    /* scratch: the sorted rows' offsets (m + 1), then the two quartile lengths */
    const size_t ob = (((size_t)m + 1) * sizeof(int) + 255) / 256 * 256;
    int *srp = NULL;
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, (void **)&srp, ob + 2 * sizeof(int),
                                          "SURAA sorted offsets (scratch)"));
    int *dq = (int *)((char *)srp + ob), q[2] = {0, 0};
    span_kernel<<<spira__blocks(m, kBlock), kBlock, 0, stream_of(ctx)>>>(
        m, dA->row_ptr, S->perm, (int2 *)S->span, dq);
    spira_status r = spira__cuda_status(ctx, cudaGetLastError(), "span_kernel", __FILE__,
                                        __LINE__);
    if (r == SPIRA_OK) r = sorted_offsets(ctx, dA, S->perm, m, srp);
    if (r == SPIRA_OK) r = spira__cuda_download(ctx, q, dq, sizeof q);
    if (r == SPIRA_OK) {
        spira__suraa_size_segments(S, segment, q[0], q[1]);
        r = make_launches(ctx, S, srp);
    }
    spira__cuda_scratch_free(ctx, srp);
    SPIRA__TRY(r);
    spira__suraa_describe(S);
    return SPIRA_OK;
}

SPIRA__MODULE_SORT_WARM(suraa_convert, length_key, (const void *)span_kernel,
                        (const void *)segments_kernel)
