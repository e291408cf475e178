/*
 * cg_graph.cuh - the kernels of CG's graph (cg_graph.c) beside the SpMV, for the .cu files
 * that launch them: cg_kernels_gpu.cu (one process; a distributed solve whose sum over the
 * ranks is an ncclAllReduce between kernels) and dist/nccl_cg.cu (a distributed solve whose
 * ranks sum, and exchange their halos, inside these kernels by NCCL's device API). One
 * source for all, so that every path sums, adds, steps and updates with the same
 * expressions, bit for bit.
 *
 * The sums: spira__dots's pairs (r, r), (w, z) and, with Jacobi, (r, z), reduced as
 * spira__dots does (reduce.cuh), a distributed SpMV's deferred add made first (the Pre
 * functor: row_add_at, or nccl_cg.cu's product of the ghosts); then in the last block's
 * thread 0 Pre's finish, the sum over the ranks (the Ranks functor: nothing in one process)
 * and, with STEP, the iteration's scalar work (cg_step.h).
 * The update: cg.c's four vector updates with the step's alpha and beta, with Jacobi
 * z <- D^-1 r, and each row's new z handed to the Post functor (nothing in one process;
 * nccl_cg.cu's stores of the rows the other ranks read into their ghosts).
 */
#ifndef SPIRA_CG_GRAPH_CUH
#define SPIRA_CG_GRAPH_CUH

#include "cg_step.h"
#include "cuda/reduce.cuh"

/* The first of a thread's rows first, first + stride, ... that is at least lo. */
static __device__ __forceinline__ int spira__stride_from(int first, int stride, int lo)
{
    return first >= lo ? first : first + (int)(((long long)lo - first + stride - 1) / stride) * stride;
}

/* Row i's index among the rows a bitmap lists (spira__row_add's: bit i % 32 of bits[i / 32],
 * base[w] the rows listed before word w), or -1 where row i is not listed. */
static __device__ __forceinline__ int spira__listed_index(const uint32_t *bits,
                                                          const int32_t *base, int i)
{
    const uint32_t word = bits[i >> 5], bit = 1u << (i & 31);
    return word & bit ? base[i >> 5] + __popc(word & (bit - 1)) : -1;
}

/* Nothing to add into w before the sums: one process. */
struct spira__no_pre {
    __device__ __forceinline__ void operator()(int, int, int) const {}
    __device__ __forceinline__ void finish() const {}
};

/* A distributed SpMV's deferred add (spira__row_add) into w, made by each thread at the
 * rows it then reads for the sums (first, first + stride, ... below n), before it reads
 * them (at the kernel's start rather than row by row in the sums' loop: no faster or slower
 * on two H100s, and the dots' loop stays the one of spira__dots). The word of the bitmap
 * is the same for a warp's 32 rows, so it costs a broadcast load a warp. */
template <typename T> struct spira__row_add_at {
    const uint32_t *bits;
    const int32_t *base;
    const T *t;
    T *w;
    int lo, hi;
    __device__ __forceinline__ void operator()(int first, int stride, int n) const
    {
        const int end = hi < n ? hi : n;
        for (int i = spira__stride_from(first, stride, lo); i < end; i += stride) {
            const int j = spira__listed_index(bits, base, i);
            if (j >= 0) w[i] += t[j];
        }
    }
    __device__ __forceinline__ void finish() const {}
};

/* The sums of one process: nothing to add over ranks. */
struct spira__one_rank {
    __device__ __forceinline__ void operator()(double *, int) const {}
};

template <typename T, int K, bool STEP, typename Pre, typename Ranks>
__global__ void __launch_bounds__(SPIRA__REDUCE_THREADS)
spira__cg_sums_kernel(int n, spira__dot_pairs<T> a, spira__reduce_scratch *sc,
                      spira__cg_dev *g, Pre pre, Ranks ranks)
{
    if (g->stop) return; /* every block: the counter in sc stays at 0 */
    double sum[K];
    pre(blockIdx.x * SPIRA__REDUCE_THREADS + threadIdx.x, gridDim.x * SPIRA__REDUCE_THREADS, n);
    spira__dot_partials<T, K>(n, a, sum);
    if (spira__grid_sums(sum, sc) && threadIdx.x == 0) {
        pre.finish();
        ranks(sc->out, K);
        if (STEP) spira__cg_step(g, sc->out, K == 3);
    }
}

template <typename T, bool STEP, typename Pre, typename Ranks>
static void spira__cg_sums_pairs(int n, cudaStream_t st, const void *r, const void *w,
                                 const void *z, int with_dinv, spira__reduce_scratch *sc,
                                 spira__cg_dev *g, Pre pre, Ranks ranks)
{
    /* spira__dots's pairs in cg.c: (r, r), (w, z), (r, z) */
    spira__dot_pairs<T> a = {};
    a.x[0] = (const T *)r, a.y[0] = (const T *)r;
    a.x[1] = (const T *)w, a.y[1] = (const T *)z;
    a.x[2] = (const T *)r, a.y[2] = (const T *)z;
    /* a rank that owns no rows still takes part in the sum over the ranks: one block */
    const unsigned b = n > 0 ? spira__reduce_blocks(n) : 1;
    if (with_dinv)
        spira__cg_sums_kernel<T, 3, STEP>
            <<<b, SPIRA__REDUCE_THREADS, 0, st>>>(n, a, sc, g, pre, ranks);
    else
        spira__cg_sums_kernel<T, 2, STEP>
            <<<b, SPIRA__REDUCE_THREADS, 0, st>>>(n, a, sc, g, pre, ranks);
}

/* The kernel on the context's stream, with add (NULL or no bits: none) made on the way. */
template <typename T, bool STEP, typename Ranks>
static void spira__cg_sums_launch(int n, cudaStream_t st, const void *r, void *w, const void *z,
                                  int with_dinv, const spira__row_add *add,
                                  spira__reduce_scratch *sc, spira__cg_dev *g, Ranks ranks)
{
    if (add && add->bits) {
        const spira__row_add_at<T> pre = {add->bits, add->base, (const T *)add->t, (T *)w,
                                          add->lo, add->hi};
        spira__cg_sums_pairs<T, STEP>(n, st, r, w, z, with_dinv, sc, g, pre, ranks);
    } else {
        spira__cg_sums_pairs<T, STEP>(n, st, r, w, z, with_dinv, sc, g, spira__no_pre(), ranks);
    }
}

/* a b + c rounded once, spelled out so that every kernel that updates rounds alike (left
 * to the compiler, r - alpha s may or may not be contracted, kernel by kernel) */
static __device__ __forceinline__ double spira__fma_rn(double a, double b, double c)
{
    return __fma_rn(a, b, c);
}
static __device__ __forceinline__ float spira__fma_rn(float a, float b, float c)
{
    return __fmaf_rn(a, b, c);
}

/* p <- u + beta p; s <- w + beta s; x <- x + alpha p; r <- r - alpha s at i, returning the
 * new r[i]. u may be r: u[i] is read before r[i] is written. With beta == 0, p and s are
 * not read. */
template <typename T>
static __device__ __forceinline__ T spira__cg_update_at(int i, T alpha, T beta, const T *u,
                                                        const T *w, T *p, T *s, T *x, T *r)
{
    T pi = beta == T(0) ? u[i] : spira__fma_rn(beta, p[i], u[i]);
    T si = beta == T(0) ? w[i] : spira__fma_rn(beta, s[i], w[i]);
    p[i] = pi;
    s[i] = si;
    x[i] = spira__fma_rn(alpha, pi, x[i]);
    const T ri = spira__fma_rn(-alpha, si, r[i]);
    r[i] = ri;
    return ri;
}

/* Nothing to do with a row's new z: one process. */
struct spira__no_post {
    template <typename T> __device__ __forceinline__ void operator()(int, T) {}
    __device__ __forceinline__ void finish() {}
};

#define SPIRA__CG_UPDATE_THREADS 256

/* The update with g's alpha and beta (rounded to T as the host's are at the launch) and
 * x = g->x; with dinv, z <- D^-1 r afterwards, as Jacobi's apply would; post(i, z[i]) at
 * each row, then post.finish() in every thread of every block that ran the rows. Block b
 * takes the rows of block (b + shift) % gridDim.x of the plain grid-stride order: the
 * blocks scheduled first then reach the rows whose post does the most (a distributed
 * solve's stores into other GPUs, which the kernel's end must not wait for). */
template <typename T, typename Post>
__global__ void __launch_bounds__(SPIRA__CG_UPDATE_THREADS)
spira__cg_graph_update_kernel(int n, const spira__cg_dev *g, T *z, const T *__restrict__ w,
                              T *__restrict__ p, T *__restrict__ s, T *r,
                              const T *__restrict__ dinv, unsigned shift, Post post)
{
    if (g->stop) return;
    const T alpha = (T)g->alpha, beta = (T)g->beta;
    T *x = (T *)g->x;
    const unsigned b = (blockIdx.x + shift) % gridDim.x;
    for (int i = b * SPIRA__CG_UPDATE_THREADS + threadIdx.x; i < n;
         i += gridDim.x * SPIRA__CG_UPDATE_THREADS) {
        T zi = spira__cg_update_at(i, alpha, beta, z, w, p, s, x, r);
        if (dinv) z[i] = zi = dinv[i] * zi; /* a product: nothing to contract */
        post(i, zi);
    }
    post.finish();
}

/* Its grid for n rows (n > 0). */
static inline unsigned spira__cg_update_blocks(int32_t n)
{
    return spira__blocks(n, SPIRA__CG_UPDATE_THREADS);
}

template <typename T, typename Post>
static void spira__cg_update_launch(int n, cudaStream_t st, const spira__cg_dev *g, void *z,
                                    const void *w, void *p, void *s, void *r, const void *dinv,
                                    unsigned shift, Post post)
{
    spira__cg_graph_update_kernel<T><<<spira__cg_update_blocks(n), SPIRA__CG_UPDATE_THREADS, 0, st>>>(
        n, g, (T *)z, (const T *)w, (T *)p, (T *)s, (T *)r, (const T *)dinv, shift, post);
}

#endif
