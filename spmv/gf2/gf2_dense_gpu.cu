/*
 * gf2_dense_gpu.cu - the chapter's dense-format kernel (Schmidt, Aribowo, Dang) and the
 * dense format's device half (see gf2_parts.h).
 *
 * A thread a bitmap column: it reads its X row once (coalesced over the block's columns)
 * and keeps it in registers for the kBlockGroups groups of 32 rows its block covers; for
 * each group it reads its word (consecutive over the threads) and XORs X into the warp's
 * 32 partial rows in shared memory for each set bit. The chapter makes those updates
 * exclusive because a warp runs in lockstep; here the exclusivity is made explicit, since
 * from Volta on the lanes of a warp may interleave: at step t lane l updates row (l + t) mod
 * 32 only, so the 32 lanes touch 32 different rows at every step, and __syncwarp() ends the
 * step. Steps where no lane has a bit are skipped (the OR of the lanes' words rotated by
 * their lane number says which). Then the block XORs its warps' partials (the chapter's
 * reduction per block) and adds each nonzero row to Y with one atomic XOR (blocks of other
 * columns hold the same rows); a group where none of the block's words has a bit skips the
 * reduction. For W > 64 the partials are kept as W/64 planes of 64-bit
 * words, row-minor, so that a step's 32 lanes hit consecutive words of one plane: the
 * chapter's split of wide elements into halves and quarters against bank conflicts.
 *
 * The conversion on the GPU sets one bit an entry with atomicOr (gf2_build_gpu.cu).
 */
#include "gf2_dev.cuh"
#include "rows_gpu.cuh"
#include "padding.h"
#include "cuda/check.cuh"

namespace {

typedef unsigned long long u64;
constexpr int kDenseBlock = 128; /* columns a block: four warps */
constexpr int kBlockGroups = 32; /* groups of 32 rows a block: X read once for 1024 rows */
constexpr unsigned kFull = 0xffffffffu;

template <int W>
__global__ void __launch_bounds__(kDenseBlock)
    gf2_dense_kernel(int nrows, int ngroups, int ndense, const int *__restrict__ col,
                     const unsigned *__restrict__ bits, const int *__restrict__ perm,
                     const u64 *__restrict__ x, u64 *__restrict__ y)
{
    __shared__ u64 part[kDenseBlock / 32][W][32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int c = blockIdx.x * kDenseBlock + threadIdx.x;
    u64 xv[W];
#pragma unroll
    for (int q = 0; q < W; q++) xv[q] = c < ndense ? __ldg(&x[(size_t)col[c] * W + q]) : 0;
    for (long long g0 = (long long)blockIdx.y * kBlockGroups; g0 < ngroups;
         g0 += (long long)gridDim.y * kBlockGroups) {
        const int g1 = (int)min(g0 + kBlockGroups, (long long)ngroups);
        for (int g = (int)g0; g < g1; g++) {
            const unsigned w = c < ndense ? bits[(size_t)g * ndense + c] : 0u;
            const unsigned rot = __funnelshift_r(w, w, lane); /* bit t: row (lane + t) % 32 */
            unsigned steps = rot;
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) steps |= __shfl_xor_sync(kFull, steps, off);
            const int steps_any = steps != 0;
#pragma unroll
            for (int q = 0; q < W; q++) part[warp][q][lane] = 0;
            __syncwarp();
            while (steps) { /* warp-uniform */
                const int t = __ffs(steps) - 1;
                steps &= steps - 1;
                if (rot >> t & 1) {
                    const int r = (lane + t) & 31;
#pragma unroll
                    for (int q = 0; q < W; q++) part[warp][q][r] ^= xv[q];
                }
                __syncwarp();
            }
            /* a group none of the block's columns has a bit in adds nothing: no reduction
             * (block-uniform; part is cleared again before it is next read) */
            if (!__syncthreads_or(steps_any)) continue;
            for (int i = threadIdx.x; i < 32 * W; i += kDenseBlock) {
                const int q = i / 32, r = i % 32;
                u64 acc = 0;
#pragma unroll
                for (int v = 0; v < kDenseBlock / 32; v++) acc ^= part[v][q][r];
                const long long row = (long long)g * 32 + r;
                if (acc && row < nrows)
                    atomicXor(&y[(size_t)(perm ? perm[row] : row) * W + q], acc);
            }
            __syncthreads(); /* part is cleared for the next group */
        }
    }
}

template <int W>
void dense_launch(const spira__gf2_dense_dev *d, const int *perm, cudaStream_t st, const u64 *x,
                  u64 *y)
{
    long long gy = ((long long)d->ngroups + kBlockGroups - 1) / kBlockGroups;
    if (gy > 65535) gy = 65535;
    const dim3 grid((unsigned)((d->ndense + kDenseBlock - 1) / kDenseBlock), (unsigned)gy);
    gf2_dense_kernel<W><<<grid, kDenseBlock, 0, st>>>(d->nrows, d->ngroups, d->ndense, d->col,
                                                      d->bits, perm, x, y);
}

} // namespace

spira_status spira__gf2_dense_dev_run(spira_context ctx, const spira__gf2_dense_dev *d,
                                      const int32_t *perm, const spira__u64 *x, spira__u64 *y)
{
    if (d->nrows == 0 || d->ndense == 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    switch (d->words) {
    case 1: dense_launch<1>(d, perm, st, x, y); break;
    case 2: dense_launch<2>(d, perm, st, x, y); break;
    default: dense_launch<4>(d, perm, st, x, y); break;
    }
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

/* ---- the dense format's device half ------------------------------------------------------ */

static spira_status gf2_dense_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__gf2_dense *L = (const spira__gf2_dense *)layout;
    spira__gf2_dense_dev *d = (spira__gf2_dense_dev *)dev;
    d->nrows = L->nrows;
    d->ngroups = L->ngroups;
    d->ndense = L->ndense;
    d->words = L->words;
    const spira__dev_array arrays[] = {
        {&d->col, L->col, (size_t)L->ndense * sizeof(int32_t), "dense bitmap columns"},
        {&d->bits, L->bits, (size_t)L->ngroups * (size_t)L->ndense * sizeof(uint32_t),
         "dense bitmap"},
    };
    return SPIRA__DEV_CLONE(ctx, dev, arrays);
}

/* The host's refusal first (the same sentence), then the bitmap from the device pattern. */
static spira_status gf2_dense_dev_build(spira_context ctx, const spira__csr *A,
                                        const spira__csr_dev *dA, const char *opts, void *dev,
                                        size_t *bytes)
{
    int words;
    long max_fill;
    SPIRA__TRY(spira__gf2_opt_words(ctx, opts, &words));
    SPIRA__TRY(spira__opt_max_fill(ctx, opts, "dense", &max_fill));
    SPIRA__TRY(spira__gf2_dense_check(ctx, A->nrows, A->ncols, A->nnz, max_fill));
    spira__gf2_dense_dev *d = (spira__gf2_dense_dev *)dev;
    d->nrows = A->nrows;
    d->ndense = A->ncols;
    d->words = words;
    int32_t *drow = NULL;
    SPIRA__TRY(spira__cuda_malloc(ctx, (void **)&drow, (size_t)A->nnz * sizeof(int32_t),
                                  "dense bitmap rows (scratch)"));
    spira_status s = spira__rows_dev_expand(ctx, A->nrows, dA->row_ptr, A->nnz, drow);
    if (s == SPIRA_OK) s = spira__gf2_dev_dense(ctx, dev, dA, drow, NULL, NULL, d);
    spira__cuda_free(ctx, drow);
    if (s != SPIRA_OK) return s;
    spira__gf2_dense h = {};
    h.ngroups = d->ngroups;
    h.ndense = d->ndense;
    *bytes = spira__gf2_dense_bytes(&h);
    return SPIRA_OK;
}

/* Y = M X: alpha 1, beta 0 (gf2.h): zeros, then the bitmap's atomic XORs. */
static spira_status gf2_dense_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                        double beta, void *y)
{
    (void)alpha, (void)beta;
    const spira__gf2_dense_dev *d = (const spira__gf2_dense_dev *)dev;
    if (d->nrows == 0) return SPIRA_OK;
    SPIRA__TRY(spira__cuda_zero(ctx, y, (size_t)d->nrows * d->words * sizeof(u64)));
    return spira__gf2_dense_dev_run(ctx, d, NULL, (const u64 *)x, (u64 *)y);
}

extern "C" const spira__format_gpu spira__gf2_dense_gpu = {
    .handle = sizeof(spira__gf2_dense_dev),
    .upload = gf2_dense_dev_upload,
    .build = gf2_dense_dev_build,
    .apply = gf2_dense_dev_apply,
};
