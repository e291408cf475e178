/*
 * longrow-probe.cu - a probe for issue 14's circuit matrix (bench/results/2026-11-28-session25):
 * its 40 dense rows of 95,000 entries cost sell's long-row chunks 30 us a multiply on an
 * H200, cuSPARSE's CSR 13. Standalone (not part of Spira): builds ROWS x ROWS with LONG rows
 * of LEN entries at random rows and uniformly random sorted columns (the circuit matrix's
 * dense rows; every other row empty), random values in [-1, 1], then times y = A x with
 *   chunk C   sell's path alone: a warp a chunk of C entries (lane l every 32nd), a fixed
 *             xor tree, the chunk's sum to a partial, the warp taking a row's last ticket
 *             adding its chunks in order (C = 256 is sell's kLongChunk)
 *   block C   a block of 256 threads a chunk of C entries (thread t every 256th), a fixed
 *             tree in shared memory, one ticket a block-chunk
 *   tiles W   a block a range of W columns, its warps the long rows' entries in that range
 *             (warp w rows w, w + 8, ...), so the rows share the range's x in L1; a sum a
 *             (row, range) to a partial, a ticket a row, the last adding its ranges in order
 *   tiles W/R a block R long rows of one range of W columns, a warp a (row, range), so the
 *             block's R rows share the range's x in L1 and the work is many short warps
 *   cusparse  cuSPARSE's CSR (CUSPARSE_SPMV_CSR_ALG1) on the same matrix
 * each in a launch of its own, and checks y against a double reference on the host (every
 * variant adds in a fixed order: the same bits run to run). Prints ms a multiply (median of
 * 50 after 5 warm-ups, CUDA events) and the back-to-back time of 100 in a row.
 *   nvcc -O3 -arch=sm_90 -std=c++17 -o longrow-probe bench/longrow-probe.cu -lcusparse
 *   ./longrow-probe [ROWS [LONG [LEN]]]      (default 1000000 40 95000)
 * On an H200 (bench/results/2026-11-28-session26, calls 1, 4 and 8) chunks of 1,024 were
 * the fastest warp chunks at the circuit's shape (0.028 ms alone, 256: 0.032), block chunks
 * no faster, a block a column range 1.7x slower, tiles 8192/20 (a warp a row and range, 20
 * rows a block) 0.023 (0.020 back to back against the chunks' 0.024), but slower than the
 * chunks once a (row, range) holds fewer than a few hundred entries (40 rows of 20,000:
 * 0.014 against 0.0135; 400 rows of 9,000: 0.059 against 0.038); cuSPARSE's CSR took
 * 0.064 on the circuit's dense rows alone.
 */
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#define CK(e)                                                                                  \
    do {                                                                                       \
        cudaError_t r_ = (e);                                                                  \
        if (r_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(r_));       \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)
#define CS(e)                                                                                  \
    do {                                                                                       \
        if ((e) != CUSPARSE_STATUS_SUCCESS) {                                                  \
            fprintf(stderr, "%s:%d: cuSPARSE error\n", __FILE__, __LINE__);                    \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

/* The long rows' chunks: chunk q of row j covers [begin, end); first, count: the row's. */
struct chunk {
    int begin, end, row, first, count;
};

__device__ __forceinline__ double warp_tree(double s)
{
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    return s;
}

/* The last of a row's chunks to finish (its ticket) adds the row's partials in order. */
__device__ __forceinline__ void finish(const chunk &c, double sum, int q, double *partial,
                                       unsigned *ticket, double *y, int lane)
{
    bool last = c.count == 1;
    if (!last) {
        if (lane == 0) {
            partial[q] = sum;
            __threadfence();
            last = atomicAdd(&ticket[c.row], 1u) == (unsigned)c.count - 1;
        }
        last = __shfl_sync(0xffffffffu, last, 0);
        if (last) {
            __threadfence();
            sum = 0;
            for (int k = lane; k < c.count; k += 32) sum += __ldcg(&partial[c.first + k]);
            sum = warp_tree(sum);
            if (lane == 0) ticket[c.row] = 0;
        }
    }
    if (last && lane == 0) y[c.row] = sum;
}

__global__ void __launch_bounds__(256)
    warp_chunks(int nchunks, const chunk *__restrict__ ch, const int *__restrict__ ci,
                const double *__restrict__ v, const double *__restrict__ x, double *partial,
                unsigned *ticket, double *y)
{
    const int lane = threadIdx.x & 31;
    const int q = (blockIdx.x * 256 + threadIdx.x) / 32;
    if (q >= nchunks) return;
    const chunk c = ch[q];
    double sum = 0;
#pragma unroll 4
    for (int k = c.begin + lane; k < c.end; k += 32)
        sum += __ldcs(&v[k]) * __ldg(&x[__ldcs(&ci[k])]);
    finish(c, warp_tree(sum), q, partial, ticket, y, lane);
}

__global__ void __launch_bounds__(256)
    block_chunks(int nchunks, const chunk *__restrict__ ch, const int *__restrict__ ci,
                 const double *__restrict__ v, const double *__restrict__ x, double *partial,
                 unsigned *ticket, double *y)
{
    __shared__ double warp_sums[8];
    const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    const int q = blockIdx.x;
    if (q >= nchunks) return;
    const chunk c = ch[q];
    double sum = 0;
#pragma unroll 8
    for (int k = c.begin + threadIdx.x; k < c.end; k += 256)
        sum += __ldcs(&v[k]) * __ldg(&x[__ldcs(&ci[k])]);
    sum = warp_tree(sum);
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = warp_tree(lane < 8 ? warp_sums[lane] : 0.0);
        finish(c, sum, q, partial, ticket, y, lane);
    }
}

/* tiles: off[j * (nt + 1) + q] is where long row j's entries of columns >= q * W begin.
 * The warp's sum of row j's entries in range q goes to partial j * nt + q: the range is a
 * chunk of the row's nt for finish. */
__device__ __forceinline__ void range_sum(int nt, int j, int q, const int *__restrict__ off,
                                          const int *__restrict__ rows,
                                          const int *__restrict__ ci,
                                          const double *__restrict__ v,
                                          const double *__restrict__ x, double *partial,
                                          unsigned *ticket, double *y, int lane)
{
    const chunk c = {off[j * (nt + 1) + q], off[j * (nt + 1) + q + 1], rows[j], j * nt, nt};
    double sum = 0;
#pragma unroll 4
    for (int k = c.begin + lane; k < c.end; k += 32)
        sum += __ldcs(&v[k]) * __ldg(&x[__ldcs(&ci[k])]);
    finish(c, warp_tree(sum), j * nt + q, partial, ticket, y, lane);
}

/* tiles W: block q takes every long row's range q, warp w rows w, w + 8, ... */
__global__ void __launch_bounds__(256)
    col_tiles(int nlong, int nt, const int *__restrict__ off, const int *__restrict__ rows,
              const int *__restrict__ ci, const double *__restrict__ v,
              const double *__restrict__ x, double *partial, unsigned *ticket, double *y)
{
    for (int j = (int)threadIdx.x / 32; j < nlong; j += 8)
        range_sum(nt, j, blockIdx.x, off, rows, ci, v, x, partial, ticket, y,
                  threadIdx.x & 31);
}

/* tiles W/R: block (q, g) takes rows g * R .. g * R + R - 1 of column range q, a warp each */
__global__ void col_tiles_rows(int nlong, int nt, int R, const int *__restrict__ off,
                               const int *__restrict__ rows, const int *__restrict__ ci,
                               const double *__restrict__ v, const double *__restrict__ x,
                               double *partial, unsigned *ticket, double *y)
{
    const int j = (blockIdx.x / nt) * R + (int)threadIdx.x / 32;
    if (j < nlong)
        range_sum(nt, j, blockIdx.x % nt, off, rows, ci, v, x, partial, ticket, y,
                  threadIdx.x & 31);
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 1000000;
    const int nlong = argc > 2 ? atoi(argv[2]) : 40;
    const int len = argc > 3 ? atoi(argv[3]) : 95000;
    if (n < 1 || nlong < 1 || nlong > n || len < 1 || len > n ||
        (long long)nlong * len > 2000000000LL) {
        fprintf(stderr, "usage: longrow-probe [ROWS [LONG [LEN]]] (LONG <= ROWS, LEN <= ROWS)\n");
        return 2;
    }
    std::mt19937_64 rng(25);
    std::vector<int> rows(n);
    for (int i = 0; i < n; i++) rows[i] = i;
    std::shuffle(rows.begin(), rows.end(), rng);
    rows.resize(nlong);
    std::sort(rows.begin(), rows.end());
    std::vector<int> rp(n + 1, 0), ci;
    std::vector<double> v, x(n);
    std::uniform_real_distribution<double> u(-1, 1);
    std::uniform_int_distribution<int> col(0, n - 1);
    for (int i = 0; i < n; i++) x[i] = u(rng);
    for (int j = 0, at = 0; j < nlong; j++) {
        for (; at < rows[j]; at++) rp[at + 1] = (int)ci.size();
        std::vector<int> c(len);
        for (int &k : c) k = col(rng);
        std::sort(c.begin(), c.end());
        c.erase(std::unique(c.begin(), c.end()), c.end());
        for (int k : c) ci.push_back(k), v.push_back(u(rng));
        rp[++at] = (int)ci.size();
        if (j == nlong - 1)
            for (; at < n; at++) rp[at + 1] = (int)ci.size();
    }
    const int nnz = (int)ci.size();
    std::vector<double> ref(n, 0.0), bound(n, 0.0);
    for (int i = 0; i < n; i++)
        for (int k = rp[i]; k < rp[i + 1]; k++) {
            ref[i] += v[k] * x[ci[k]];
            bound[i] += std::fabs(v[k] * x[ci[k]]);
        }
    printf("longrow-probe: %d rows, %d long rows, %d entries; double\n", n, nlong, nnz);

    int *d_rp, *d_ci;
    double *d_v, *d_x, *d_y, *d_partial;
    unsigned *d_ticket;
    CK(cudaMalloc(&d_rp, (n + 1) * sizeof(int)));
    CK(cudaMalloc(&d_ci, nnz * sizeof(int)));
    CK(cudaMalloc(&d_v, nnz * sizeof(double)));
    CK(cudaMalloc(&d_x, n * sizeof(double)));
    CK(cudaMalloc(&d_y, n * sizeof(double)));
    CK(cudaMalloc(&d_ticket, n * sizeof(unsigned)));
    CK(cudaMemcpy(d_rp, rp.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_ci, ci.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_v, v.data(), nnz * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_x, x.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_ticket, 0, n * sizeof(unsigned)));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));

    /* times f (one multiply), checks y; the plan's y rows outside the long ones are left 0 */
    auto run = [&](const char *name, auto f) {
        CK(cudaMemset(d_y, 0xff, n * sizeof(double))); /* poisoned: NaN */
        f();
        CK(cudaDeviceSynchronize());
        std::vector<double> y(n);
        CK(cudaMemcpy(y.data(), d_y, n * sizeof(double), cudaMemcpyDeviceToHost));
        double worst = 0;
        for (int r : rows) worst = std::max(worst, std::fabs(y[r] - ref[r]) / (bound[r] + 1e-300));
        for (int i = 0; i < 5; i++) f();
        std::vector<double> ms;
        for (int i = 0; i < 50; i++) {
            CK(cudaEventRecord(e0));
            f();
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float t;
            CK(cudaEventElapsedTime(&t, e0, e1));
            ms.push_back(t);
        }
        CK(cudaEventRecord(e0));
        for (int i = 0; i < 100; i++) f();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float b2b;
        CK(cudaEventElapsedTime(&b2b, e0, e1));
        printf("%-14s %9.5f ms alone  %9.5f back to back  %6.1f GB/s  rel err %.1e%s\n", name,
               median(ms), b2b / 100, nnz * 12.0 / median(ms) / 1e6, worst,
               worst < 1e-13 ? "" : "  WRONG");
    };

    for (int C : {256, 1024, 2048, 8192}) {
        for (int blocky = 0; blocky < 2; blocky++) {
            std::vector<chunk> ch;
            for (int j = 0; j < nlong; j++) {
                const int b = rp[rows[j]], e = rp[rows[j] + 1];
                const int count = (e - b + C - 1) / C, first = (int)ch.size();
                for (int q = 0; q < count; q++)
                    ch.push_back({b + q * C, std::min(b + (q + 1) * C, e), rows[j], first, count});
            }
            const int nch = (int)ch.size();
            chunk *d_ch;
            CK(cudaMalloc(&d_ch, nch * sizeof(chunk)));
            CK(cudaMalloc(&d_partial, nch * sizeof(double)));
            CK(cudaMemcpy(d_ch, ch.data(), nch * sizeof(chunk), cudaMemcpyHostToDevice));
            char name[32];
            snprintf(name, sizeof name, "%s %d", blocky ? "block" : "chunk", C);
            if (blocky)
                run(name, [&] {
                    block_chunks<<<nch, 256>>>(nch, d_ch, d_ci, d_v, d_x, d_partial, d_ticket, d_y);
                });
            else
                run(name, [&] {
                    warp_chunks<<<(nch + 7) / 8, 256>>>(nch, d_ch, d_ci, d_v, d_x, d_partial,
                                                         d_ticket, d_y);
                });
            CK(cudaGetLastError());
            CK(cudaFree(d_ch));
            CK(cudaFree(d_partial));
        }
    }

    for (int W : {512, 1024, 2048, 4096, 8192, 16384}) {
        const int nt = (n + W - 1) / W;
        std::vector<int> off((size_t)nlong * (nt + 1));
        for (int j = 0; j < nlong; j++) {
            const int b = rp[rows[j]], e = rp[rows[j] + 1];
            for (int q = 0; q <= nt; q++) {
                const int from = (long long)q * W > n ? n : q * W; /* the range's first column */
                off[(size_t)j * (nt + 1) + q] =
                    (int)(std::lower_bound(ci.begin() + b, ci.begin() + e, from) - ci.begin());
            }
        }
        int *d_off, *d_rows;
        CK(cudaMalloc(&d_off, off.size() * sizeof(int)));
        CK(cudaMalloc(&d_rows, nlong * sizeof(int)));
        CK(cudaMalloc(&d_partial, (size_t)nlong * nt * sizeof(double)));
        CK(cudaMemcpy(d_off, off.data(), off.size() * sizeof(int), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_rows, rows.data(), nlong * sizeof(int), cudaMemcpyHostToDevice));
        char name[32];
        snprintf(name, sizeof name, "tiles %d", W);
        run(name, [&] {
            col_tiles<<<nt, 256>>>(nlong, nt, d_off, d_rows, d_ci, d_v, d_x, d_partial,
                                   d_ticket, d_y);
        });
        for (int R : {8, 20, 32}) {
            const int groups = (nlong + R - 1) / R;
            snprintf(name, sizeof name, "tiles %d/%d", W, R);
            run(name, [&] {
                col_tiles_rows<<<nt * groups, R * 32>>>(nlong, nt, R, d_off, d_rows, d_ci, d_v,
                                                        d_x, d_partial, d_ticket, d_y);
            });
        }
        CK(cudaGetLastError());
        CK(cudaFree(d_off));
        CK(cudaFree(d_rows));
        CK(cudaFree(d_partial));
    }

    cusparseHandle_t h;
    CS(cusparseCreate(&h));
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t X, Y;
    CS(cusparseCreateCsr(&A, n, n, nnz, d_rp, d_ci, d_v, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CS(cusparseCreateDnVec(&X, n, d_x, CUDA_R_64F));
    CS(cusparseCreateDnVec(&Y, n, d_y, CUDA_R_64F));
    const double one = 1, zero = 0;
    size_t wb = 0;
    CS(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y,
                               CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, &wb));
    void *work = NULL;
    CK(cudaMalloc(&work, wb ? wb : 1));
    run("cusparse", [&] {
        CS(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F,
                        CUSPARSE_SPMV_CSR_ALG1, work));
    });
    CS(cusparseDestroySpMat(A));
    CS(cusparseDestroyDnVec(X));
    CS(cusparseDestroyDnVec(Y));
    CS(cusparseDestroy(h));
    CK(cudaFree(work));
    CK(cudaFree(d_rp));
    CK(cudaFree(d_ci));
    CK(cudaFree(d_v));
    CK(cudaFree(d_x));
    CK(cudaFree(d_y));
    CK(cudaFree(d_ticket));
    return 0;
}
