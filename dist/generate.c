/*
 * generate.c - generated problems made as distributed matrices directly: each rank makes
 * only its own rows (lib/generate.c's row function, so the same matrix as the one-process
 * generator), and the largest tests need neither a file nor a rank holding everything.
 */
#include "dist.h"

#include <string.h>

spira_status spira_dist_matrix_laplacian(spira_context ctx, MPI_Comm comm, int dim, int64_t n,
                                         spira_dtype dtype, int64_t local_rows,
                                         spira_dist_matrix *A)
{
    if (!A) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL output");
    *A = NULL;
    int64_t rows = 0;
    spira_status s = spira__dist_check_context(ctx);
    if (s == SPIRA_OK && dtype != SPIRA_R32 && dtype != SPIRA_R64)
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown dtype %d", (int)dtype);
    if (s == SPIRA_OK) s = spira__laplacian_check(ctx, dim, n, &rows);
    s = spira__dist_agree(ctx, comm, s);
    if (s != SPIRA_OK) return s;
    spira__dist_layout *L;
    SPIRA__TRY(spira__dist_layout_create(ctx, comm, rows, local_rows, &L));
    const int32_t m = L->local;
    const int per = 2 * dim + 1;
    int64_t *rp = NULL, *ci = NULL;
    double *val = NULL;
    void *typed = NULL;
    s = spira__alloc(ctx, (void **)&rp, (size_t)m + 1, sizeof *rp, "row pointers");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&ci, (size_t)m * per, sizeof *ci, "columns");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&val, (size_t)per, sizeof *val, "values");
    if (s == SPIRA_OK) s = spira__alloc(ctx, &typed, (size_t)m * per, spira_dtype_size(dtype),
                                        "values");
    if (s == SPIRA_OK) {
        int64_t k = 0;
        rp[0] = 0;
        for (int32_t i = 0; i < m; i++) {
            int len = spira__laplacian_row(dim, n, L->first + i, ci + k, val);
            for (int j = 0; j < len; j++) spira__set(typed, dtype, k + j, val[j]);
            rp[i + 1] = k += len;
        }
    }
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK) s = spira__dist_matrix_build(ctx, L, rp, ci, typed, dtype, 1, A);
    spira__free(rp);
    spira__free(ci);
    spira__free(val);
    spira__free(typed);
    spira__dist_layout_unref(L);
    return s;
}

/* The R-MAT graph: edge k of the edge_factor 2^scale edges is made by the rank whose share
 * of the edge numbers holds k (lib/generate.c's spira__rmat_edge, so the graph is the same
 * for any number of ranks), then sent to the owner of its row u (MPI_Alltoallv of (u, v)
 * pairs). A repeated edge is summed (its weight counts the repeats); self-loops stay, as
 * Graph500's generator makes them. */
spira_status spira_dist_matrix_rmat(spira_context ctx, MPI_Comm comm, int scale, int edge_factor,
                                    uint64_t seed, spira_dtype dtype, int64_t local_rows,
                                    spira_dist_matrix *A)
{
    if (!A) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL output");
    *A = NULL;
    spira_status s = spira__dist_check_context(ctx);
    if (s == SPIRA_OK && dtype != SPIRA_R32 && dtype != SPIRA_R64)
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown dtype %d", (int)dtype);
    if (s == SPIRA_OK && (scale < 1 || scale > 40 || edge_factor < 1 || edge_factor > 1024))
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "R-MAT scale %d (1..40) and edge factor "
                         "%d (1..1024)", scale, edge_factor);
    s = spira__dist_agree(ctx, comm, s);
    if (s != SPIRA_OK) return s;
    spira__dist_layout *L;
    SPIRA__TRY(spira__dist_layout_create(ctx, comm, (int64_t)1 << scale, local_rows, &L));
    const int p = L->size, me = L->rank;
    const int32_t m = L->local;
    const int64_t edges = (int64_t)edge_factor << scale, q = edges / p, rem = edges % p;
    const int64_t e0 = q * me + rem * me / p, e1 = q * (me + 1) + rem * (me + 1) / p;
    const int64_t ne = e1 - e0;
    int *cnt = NULL, *at = NULL, *rcnt = NULL, *rat = NULL;
    int64_t *made = NULL, *out = NULL, *in = NULL, *rp = NULL, *ci = NULL;
    int32_t *fill = NULL;
    int64_t nin = 0;
    s = spira__alloc(ctx, (void **)&cnt, (size_t)p, 4 * sizeof *cnt, "counts");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&made, (size_t)ne + 1, 2 * sizeof *made,
                                        "edges");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&out, (size_t)ne + 1, 2 * sizeof *out,
                                        "edges");
    if (s == SPIRA_OK && 2 * ne > INT32_MAX)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "R-MAT: %lld edges a rank exceed one MPI "
                         "message's count: use more ranks", (long long)ne);
    if (s == SPIRA_OK) {
        at = cnt + p, rcnt = at + p, rat = rcnt + p;
        memset(cnt, 0, (size_t)p * sizeof *cnt);
        for (int64_t k = 0; k < ne; k++) {
            spira__rmat_edge(scale, seed, e0 + k, &made[2 * k], &made[2 * k + 1]);
            cnt[spira__dist_owner(L, made[2 * k])]++;
        }
        int64_t total = 0;
        for (int r = 0; r < p; r++) at[r] = (int)total, total += cnt[r];
        memcpy(rcnt, at, (size_t)p * sizeof *rcnt); /* next slot of each owner */
        for (int64_t k = 0; k < ne; k++) {
            const int64_t slot = rcnt[spira__dist_owner(L, made[2 * k])]++;
            out[2 * slot] = made[2 * k], out[2 * slot + 1] = made[2 * k + 1];
        }
    }
    spira__free(made);
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK && MPI_Alltoall(cnt, 1, MPI_INT, rcnt, 1, MPI_INT, L->comm) != MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Alltoall of the edge counts failed");
    for (int r = 0; s == SPIRA_OK && r < p; r++) rat[r] = (int)nin, nin += rcnt[r];
    if (s == SPIRA_OK && 2 * nin > INT32_MAX)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "R-MAT: rank %d receives %lld edges, more "
                         "than one MPI message may count: use more ranks", me, (long long)nin);
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&in, (size_t)nin + 1, 2 * sizeof *in, "edges");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&rp, (size_t)m + 1, sizeof *rp, "rows");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&ci, (size_t)nin + 1, sizeof *ci, "columns");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&fill, (size_t)m + 1, sizeof *fill, "fill");
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK) {
        for (int r = 0; r < p; r++) cnt[r] *= 2, at[r] *= 2, rcnt[r] *= 2, rat[r] *= 2;
        if (MPI_Alltoallv(out, cnt, at, MPI_INT64_T, in, rcnt, rat, MPI_INT64_T, L->comm) !=
            MPI_SUCCESS)
            s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Alltoallv of the edges failed");
    }
    if (s == SPIRA_OK) { /* this rank's rows: counted, then filled (the build sorts them) */
        memset(fill, 0, ((size_t)m + 1) * sizeof *fill);
        for (int64_t k = 0; k < nin; k++) fill[in[2 * k] - L->first]++;
        rp[0] = 0;
        for (int32_t i = 0; i < m; i++) rp[i + 1] = rp[i] + fill[i], fill[i] = 0;
        for (int64_t k = 0; k < nin; k++) {
            const int32_t i = (int32_t)(in[2 * k] - L->first);
            ci[rp[i] + fill[i]++] = in[2 * k + 1];
        }
    }
    spira__free(cnt);
    spira__free(out);
    spira__free(in);
    spira__free(fill);
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK) s = spira__dist_matrix_build(ctx, L, rp, ci, NULL, dtype, 0, A);
    spira__free(rp);
    spira__free(ci);
    spira__dist_layout_unref(L);
    return s;
}
