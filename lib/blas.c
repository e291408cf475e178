/*
 * blas.c - BLAS-1 behind one API: cuBLAS on the CUDA backend (lib/cuda/blas.cu), plain
 * loops on the CPU. Solvers call only these, so they never see the device.
 *
 * The CPU loops accumulate dots in double in both precisions, in a fixed order, so CPU
 * results are bitwise reproducible; cuBLAS accumulates in the vector's precision and is
 * reproducible on one GPU model (its atomics mode stays off). Tests bound the difference.
 */
#include "spira_impl.h"
#include "cuda/gateway.h"

#include <math.h>
#include <string.h>

#define GPU(v) ((v)->ctx->backend == SPIRA_BACKEND_CUDA)

/* Dots are summed in this many fixed chunks (see dot_##S). */
#define DOT_CHUNKS 64

/* One loop per operation, instantiated for float and double. */
#define SPIRA__CPU_BLAS(T, S)                                                            \
    static double dot_##S(int32_t n, const T *x, const T *y)                             \
    {                                                                                    \
        /* fixed chunks summed in order: the same bits whatever the thread count */      \
        double part[DOT_CHUNKS] = {0};                                                   \
        int32_t len = n / DOT_CHUNKS + 1;                                                \
        _Pragma("omp parallel for schedule(static) if (n > SPIRA__PARALLEL_ITEMS)")      \
        for (int c = 0; c < DOT_CHUNKS; c++) {                                           \
            int64_t lo = (int64_t)c * len, hi = lo + len < n ? lo + len : n;             \
            double s = 0;                                                                \
            for (int64_t i = lo; i < hi; i++) s += (double)x[i] * y[i];                  \
            part[c] = s;                                                                 \
        }                                                                                \
        double s = 0;                                                                    \
        for (int c = 0; c < DOT_CHUNKS; c++) s += part[c];                               \
        return s;                                                                        \
    }                                                                                    \
    static double nrm2_##S(int32_t n, const T *x)                                        \
    {                                                                                    \
        /* scaled sum of squares, like reference BLAS, so huge entries do not overflow */ \
        double scale = 0, ssq = 1;                                                       \
        for (int32_t i = 0; i < n; i++) {                                                \
            double a = fabs((double)x[i]);                                               \
            if (a == 0) continue;                                                        \
            if (isnan(a)) return a;                                                      \
            if (scale < a) {                                                             \
                ssq = 1 + ssq * (scale / a) * (scale / a);                               \
                scale = a;                                                               \
            } else {                                                                     \
                ssq += (a / scale) * (a / scale);                                        \
            }                                                                            \
        }                                                                                \
        return scale * sqrt(ssq);                                                        \
    }                                                                                    \
    static double asum_##S(int32_t n, const T *x)                                        \
    {                                                                                    \
        double s = 0;                                                                    \
        _Pragma("omp parallel for reduction(+ : s) if (n > SPIRA__PARALLEL_ITEMS)")      \
        for (int32_t i = 0; i < n; i++) s += fabs((double)x[i]);                         \
        return s;                                                                        \
    }                                                                                    \
    static void axpby_##S(int32_t n, double a, const T *x, double b, T *y)               \
    {                                                                                    \
        _Pragma("omp parallel for if (n > SPIRA__PARALLEL_ITEMS)")                       \
        for (int32_t i = 0; i < n; i++)                                                  \
            y[i] = b == 0 ? (T)(a * x[i]) : (T)(a * x[i] + b * y[i]);                    \
    }                                                                                    \
    static void pmul_##S(int32_t n, const T *x, const T *y, T *w)                        \
    {                                                                                    \
        for (int32_t i = 0; i < n; i++) w[i] = x[i] * y[i];                              \
    }                                                                                    \
    static void gather_##S(int32_t n, const int32_t *idx, const T *x, T *y)              \
    {                                                                                    \
        for (int32_t i = 0; i < n; i++) y[i] = x[idx[i]];                                \
    }                                                                                    \
    static void fill_##S(int32_t n, T *x, double v)                                      \
    {                                                                                    \
        for (int32_t i = 0; i < n; i++) x[i] = (T)v;                                     \
    }

SPIRA__CPU_BLAS(float, s)
SPIRA__CPU_BLAS(double, d)

spira_status spira_vector_fill(spira_vector x, double value)
{
    if (!x) return SPIRA_ERR_INVALID_ARG;
    if (GPU(x)) return spira__cuda_fill(x->ctx, x->n, x->dtype, x->data, value);
    if (x->dtype == SPIRA_R64) fill_d(x->n, x->data, value);
    else fill_s(x->n, x->data, value);
    return SPIRA_OK;
}

spira_status spira_dot(spira_vector x, spira_vector y, double *r)
{
    if (!r || !x || !y) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__vectors_match(x, y, NULL));
    if (GPU(x)) return spira__cuda_dot(x->ctx, x->n, x->dtype, x->data, y->data, r);
    *r = x->dtype == SPIRA_R64 ? dot_d(x->n, x->data, y->data) : dot_s(x->n, x->data, y->data);
    return SPIRA_OK;
}

spira_status spira_nrm2(spira_vector x, double *r)
{
    if (!r) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__vectors_match(x, NULL, NULL));
    if (GPU(x)) return spira__cuda_nrm2(x->ctx, x->n, x->dtype, x->data, r);
    *r = x->dtype == SPIRA_R64 ? nrm2_d(x->n, x->data) : nrm2_s(x->n, x->data);
    return SPIRA_OK;
}

spira_status spira_asum(spira_vector x, double *r)
{
    if (!r) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__vectors_match(x, NULL, NULL));
    if (GPU(x)) return spira__cuda_asum(x->ctx, x->n, x->dtype, x->data, r);
    *r = x->dtype == SPIRA_R64 ? asum_d(x->n, x->data) : asum_s(x->n, x->data);
    return SPIRA_OK;
}

spira_status spira_axpby(double a, spira_vector x, double b, spira_vector y)
{
    if (!x || !y) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__vectors_match(x, y, NULL));
    if (GPU(x)) return spira__cuda_axpby(x->ctx, x->n, x->dtype, a, x->data, b, y->data);
    if (x->dtype == SPIRA_R64) axpby_d(x->n, a, x->data, b, y->data);
    else axpby_s(x->n, a, x->data, b, y->data);
    return SPIRA_OK;
}

spira_status spira_axpy(double a, spira_vector x, spira_vector y)
{
    return spira_axpby(a, x, 1.0, y);
}

spira_status spira_scal(double a, spira_vector x)
{
    SPIRA__TRY(spira__vectors_match(x, NULL, NULL));
    if (GPU(x)) return spira__cuda_scal(x->ctx, x->n, x->dtype, a, x->data);
    if (x->dtype == SPIRA_R64) axpby_d(x->n, 0.0, x->data, a, x->data);
    else axpby_s(x->n, 0.0, x->data, a, x->data);
    return SPIRA_OK;
}

spira_status spira_copy(spira_vector x, spira_vector y)
{
    if (!x || !y) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__vectors_match(x, y, NULL));
    size_t bytes = (size_t)x->n * spira_dtype_size(x->dtype);
    if (x == y || bytes == 0) return SPIRA_OK;
    if (GPU(x)) return spira__cuda_copy(x->ctx, y->data, x->data, bytes);
    memcpy(y->data, x->data, bytes);
    return SPIRA_OK;
}

spira_status spira__vector_pmul(spira_vector x, spira_vector y, spira_vector w)
{
    if (!x || !y || !w) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__vectors_match(x, y, w));
    if (GPU(x)) return spira__cuda_pmul(x->ctx, x->n, x->dtype, x->data, y->data, w->data);
    if (x->dtype == SPIRA_R64) pmul_d(x->n, x->data, y->data, w->data);
    else pmul_s(x->n, x->data, y->data, w->data);
    return SPIRA_OK;
}

spira_status spira__vector_gather(spira_vector x, const int32_t *idx, spira_vector y)
{
    if (!x || !y || (!idx && y->n)) return SPIRA_ERR_INVALID_ARG;
    if (x == y)
        return spira__error(x->ctx, SPIRA_ERR_INVALID_ARG, "a gather needs distinct vectors");
    if (x->ctx != y->ctx || x->dtype != y->dtype)
        return spira__error(x->ctx, SPIRA_ERR_INVALID_ARG,
                            "gather: vectors of different contexts or precisions");
    if (GPU(x)) return spira__cuda_gather(x->ctx, y->n, y->dtype, idx, x->data, y->data);
    if (x->dtype == SPIRA_R64) gather_d(y->n, idx, x->data, y->data);
    else gather_s(y->n, idx, x->data, y->data);
    return SPIRA_OK;
}

spira_status spira__dots(int k, const spira_vector *x, const spira_vector *y, double *out)
{
    if (k < 1 || k > SPIRA__DOTS_MAX || !x || !y || !out) return SPIRA_ERR_INVALID_ARG;
    const void *dx[SPIRA__DOTS_MAX], *dy[SPIRA__DOTS_MAX];
    for (int i = 0; i < k; i++) {
        if (!x[i] || !y[i]) return SPIRA_ERR_INVALID_ARG;
        SPIRA__TRY(spira__vectors_match(x[0], x[i], y[i]));
        dx[i] = x[i]->data, dy[i] = y[i]->data;
    }
    spira_vector v = x[0];
    if (GPU(v)) return spira__cuda_dots(v->ctx, k, v->n, v->dtype, dx, dy, out);
    for (int i = 0; i < k; i++)
        out[i] = v->dtype == SPIRA_R64 ? dot_d(v->n, dx[i], dy[i]) : dot_s(v->n, dx[i], dy[i]);
    return SPIRA_OK;
}

spira_status spira__axpby_dots(double a, spira_vector x, double b, spira_vector y, int k,
                               const spira_vector *z, double *out)
{
    if (k < 1 || k > 2 || !x || !y || !z || !out) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__vectors_match(x, y, NULL));
    const void *dz[2];
    for (int i = 0; i < k; i++) {
        if (!z[i]) return SPIRA_ERR_INVALID_ARG;
        SPIRA__TRY(spira__vectors_match(y, z[i], NULL));
        dz[i] = z[i]->data;
    }
    if (GPU(y))
        return spira__cuda_axpby_dots(y->ctx, k, y->n, y->dtype, a, x->data, b, y->data, dz, out);
    const spira_vector ys[2] = {y, y};
    SPIRA__TRY(spira_axpby(a, x, b, y));
    return spira__dots(k, ys, z, out);
}
