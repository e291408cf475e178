/*
 * route.c - a distributed matrix from entries scattered over the ranks (the file reader's
 * byte ranges, the R-MAT generator's share of the edges): each entry goes to the rank that
 * owns its row, in one MPI_Alltoallv (two with values), and the rows are built there.
 */
#include "dist.h"

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* The first row i of rp[0..m] with rp[i] >= at (m if none). */
static int32_t first_row_at(const int64_t *rp, int32_t m, int64_t at)
{
    int32_t lo = 0, hi = m;
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        if (rp[mid] < at) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The entries in destination order (sorted by owner, stable), with cnt[r] entries for rank
 * r from at[r]. */
static void by_owner(const spira__dist_layout *L, int64_t count, const int64_t *rc,
                     const double *val, int *cnt, int *at, int *next, int64_t *rc_out,
                     double *val_out)
{
    const int p = L->size;
    memset(cnt, 0, (size_t)p * sizeof *cnt);
    for (int64_t k = 0; k < count; k++) cnt[spira__dist_owner(L, rc[2 * k])]++;
    int64_t total = 0;
    for (int r = 0; r < p; r++) at[r] = (int)total, total += cnt[r];
    memcpy(next, at, (size_t)p * sizeof *next);
    for (int64_t k = 0; k < count; k++) {
        const int64_t q = next[spira__dist_owner(L, rc[2 * k])]++;
        rc_out[2 * q] = rc[2 * k], rc_out[2 * q + 1] = rc[2 * k + 1];
        if (val) val_out[q] = val[k];
    }
}

void spira__dist_rows_place(const spira__dist_layout *L, int64_t n, const int64_t *in,
                            const double *inval, spira_dtype dtype, int64_t *rp, int64_t *ci,
                            void *typed, int32_t *fill)
{
    const int32_t m = L->local;
    const int64_t first = L->first;
    memset(fill, 0, ((size_t)m + 1) * sizeof *fill);
    /* every thread scans all the entries and takes those of its own rows: no atomics, whose
     * locked adds at random rows cost one thread a quarter more time than plain ones */
#pragma omp parallel
    {
        int t = 0, nt = 1;
#ifdef _OPENMP
        t = omp_get_thread_num(), nt = omp_get_num_threads();
#endif
        const int32_t r0 = (int32_t)((int64_t)m * t / nt);
        const int32_t r1 = (int32_t)((int64_t)m * (t + 1) / nt);
        for (int64_t k = 0; r0 < r1 && k < n; k++) {
            const int64_t i = in[2 * k] - first;
            if (i >= r0 && i < r1) fill[i]++;
        }
    }
    rp[0] = 0;
    for (int32_t i = 0; i < m; i++) rp[i + 1] = rp[i] + fill[i], fill[i] = 0;
    /* now a thread's rows: a share of the entries, cut at row boundaries (a row whose
     * entries straddle a cut goes to the thread where it starts) */
#pragma omp parallel
    {
        int t = 0, nt = 1;
#ifdef _OPENMP
        t = omp_get_thread_num(), nt = omp_get_num_threads();
#endif
        const int64_t want0 = n / nt * t + n % nt * t / nt;
        const int64_t want1 = n / nt * (t + 1) + n % nt * (t + 1) / nt;
        const int32_t r0 = t == 0 ? 0 : first_row_at(rp, m, want0);
        const int32_t r1 = t == nt - 1 ? m : first_row_at(rp, m, want1);
        for (int64_t k = 0; r0 < r1 && k < n; k++) {
            const int32_t i = (int32_t)(in[2 * k] - first);
            if (i < r0 || i >= r1) continue;
            const int64_t q = rp[i] + fill[i]++;
            ci[q] = in[2 * k + 1];
            if (inval) spira__set(typed, dtype, q, inval[k]);
        }
    }
}

spira_status spira__dist_route_build(spira_context ctx, spira__dist_layout *L, int64_t count,
                                     const int64_t *rc, const double *val, spira_dtype dtype,
                                     int symmetric, const char *what, spira_dist_matrix *A)
{
    const int p = L->size;
    const int32_t m = L->local;
    int *cnt = NULL;
    int64_t *srt = NULL, *in = NULL, *rp = NULL, *ci = NULL;
    double *sval = NULL, *inval = NULL;
    void *typed = NULL;
    int32_t *fill = NULL;
    int64_t nin = 0;
    spira_status s = spira__alloc(ctx, (void **)&cnt, (size_t)p, 4 * sizeof *cnt, "counts");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&srt, (size_t)count + 1, 2 * sizeof *srt, what);
    if (s == SPIRA_OK && val)
        s = spira__alloc(ctx, (void **)&sval, (size_t)count + 1, sizeof *sval, "values");
    if (s == SPIRA_OK && 2 * count > INT32_MAX)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "rank %d holds %lld %s, more than one MPI "
                         "message may count: use more ranks", L->rank, (long long)count, what);
    int *at = cnt + p, *rcnt = at + p, *rat = rcnt + p;
    if (s == SPIRA_OK) by_owner(L, count, rc, val, cnt, at, rcnt, srt, sval);
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK && MPI_Alltoall(cnt, 1, MPI_INT, rcnt, 1, MPI_INT, L->comm) != MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Alltoall of the %s counts failed", what);
    for (int r = 0; s == SPIRA_OK && r < p; r++) rat[r] = (int)nin, nin += rcnt[r];
    if (s == SPIRA_OK && 2 * nin > INT32_MAX)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "rank %d receives %lld %s, more than one "
                         "MPI message may count: use more ranks", L->rank, (long long)nin, what);
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&in, (size_t)nin + 1, 2 * sizeof *in, what);
    if (s == SPIRA_OK && val)
        s = spira__alloc(ctx, (void **)&inval, (size_t)nin + 1, sizeof *inval, "values");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&rp, (size_t)m + 1, sizeof *rp, "rows");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&ci, (size_t)nin + 1, sizeof *ci, "columns");
    if (s == SPIRA_OK && val)
        s = spira__alloc(ctx, &typed, (size_t)nin + 1, spira_dtype_size(dtype), "values");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&fill, (size_t)m + 1, sizeof *fill, "fill");
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK && val &&
        MPI_Alltoallv(sval, cnt, at, MPI_DOUBLE, inval, rcnt, rat, MPI_DOUBLE, L->comm) !=
            MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Alltoallv of the values failed");
    if (s == SPIRA_OK) {
        for (int r = 0; r < p; r++) cnt[r] *= 2, at[r] *= 2, rcnt[r] *= 2, rat[r] *= 2;
        if (MPI_Alltoallv(srt, cnt, at, MPI_INT64_T, in, rcnt, rat, MPI_INT64_T, L->comm) !=
            MPI_SUCCESS)
            s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Alltoallv of the %s failed", what);
    }
    /* this rank's rows, in arrival order within each (the build sorts) */
    if (s == SPIRA_OK)
        spira__dist_rows_place(L, nin, in, inval, dtype, rp, ci, typed, fill);
    spira__free(cnt);
    spira__free(srt);
    spira__free(sval);
    spira__free(in);
    spira__free(inval);
    spira__free(fill);
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK) s = spira__dist_matrix_build(ctx, L, rp, ci, typed, dtype, symmetric, A);
    spira__free(rp);
    spira__free(ci);
    spira__free(typed);
    return s;
}
