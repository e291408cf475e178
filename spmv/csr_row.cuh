/*
 * csr_row.cuh - one CSR row times x by a "vector" of V lanes (V a power of two, 2..32, all
 * in one warp): the piece that csr-vector (Bell & Garland 2008, CUSP) and LightSpMV (Liu &
 * Schmidt 2015) share. They differ only in how a vector finds its next row.
 */
#ifndef SPIRA_CSR_ROW_CUH
#define SPIRA_CSR_ROW_CUH

/* The lanes of the calling thread's vector, as a shuffle mask: a shuffle names only them,
 * since the other vectors of the warp may be elsewhere in their own loops. */
template <int V>
__device__ __forceinline__ unsigned spira__vector_mask()
{
    static_assert(V >= 2 && V <= 32 && (V & (V - 1)) == 0, "V is a power of two <= 32");
    return (0xffffffffu >> (32 - V)) << ((threadIdx.x & 31) & ~(V - 1));
}

/* sum_j v[j] * x[ci[j]] over start <= j < end. Lane l of the vector reads entries start+l,
 * start+l+V, ..., so the vector's loads of ci and v are contiguous; for V = 32 and a row
 * longer than a warp, the first pass starts at the 32-aligned entry before the row (lanes
 * before start idle) so that later passes are aligned segments. The V partial sums are
 * reduced with __shfl_down_sync; the result is valid in the vector's lane 0. The order of
 * the additions depends only on V and the row, so every run gives the same bits. A
 * warp-wide vector reads its entries evict-first (each pass reads whole segments once, so
 * the caches keep x); narrower ones read plainly, since a pass reads part of the lines the
 * next one reads (evict-first made a thread-a-row loop 3.5x slower on 3-D Poisson,
 * session 19 call 13). */
template <typename T, int V>
__device__ __forceinline__ T spira__csr_row_dot(int start, int end, unsigned lane, unsigned mask,
                                                const int *__restrict__ ci,
                                                const T *__restrict__ v, const T *__restrict__ x)
{
    T sum = 0;
    if (V == 32 && end - start > 32) {
        int j = start - (start & (V - 1)) + (int)lane;
        if (j >= start) sum += __ldcs(&v[j]) * __ldg(&x[__ldcs(&ci[j])]);
        for (j += V; j < end; j += V) sum += __ldcs(&v[j]) * __ldg(&x[__ldcs(&ci[j])]);
    } else if (V == 32) {
        for (int j = start + (int)lane; j < end; j += V)
            sum += __ldcs(&v[j]) * __ldg(&x[__ldcs(&ci[j])]);
    } else { /* V < 32: a warp's pass reads part of each line the next pass reads again */
        for (int j = start + (int)lane; j < end; j += V) sum += v[j] * __ldg(&x[ci[j]]);
    }
#pragma unroll
    for (int off = V / 2; off > 0; off >>= 1) sum += __shfl_down_sync(mask, sum, off, V);
    return sum;
}

/* y[row] = alpha * sum + beta * y[row]; beta == 0 writes y without reading it. */
template <typename T>
__device__ __forceinline__ void spira__csr_row_store(T *__restrict__ y, int row, T sum, T alpha,
                                                     T beta)
{
    y[row] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[row];
}

#endif
