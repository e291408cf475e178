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
    if (s == SPIRA_OK) s = spira__rmat_check(ctx, scale, edge_factor, dtype);
    s = spira__dist_agree(ctx, comm, s);
    if (s != SPIRA_OK) return s;
    spira__dist_layout *L;
    SPIRA__TRY(spira__dist_layout_create(ctx, comm, (int64_t)1 << scale, local_rows, &L));
    const int p = L->size, me = L->rank;
    const int64_t edges = (int64_t)edge_factor << scale, q = edges / p, rem = edges % p;
    const int64_t e0 = q * me + rem * me / p, e1 = q * (me + 1) + rem * (me + 1) / p;
    const int64_t ne = e1 - e0;
    /* this rank's share of the edges, made here and routed to the owners of their rows */
    int64_t *made = NULL;
    s = spira__alloc(ctx, (void **)&made, (size_t)ne + 1, 2 * sizeof *made, "edges");
    /* each edge drawn from its own number: the threads' shares make the same edges */
    if (s == SPIRA_OK) {
#pragma omp parallel for schedule(static)
        for (int64_t k = 0; k < ne; k++)
            spira__rmat_edge(scale, seed, e0 + k, &made[2 * k], &made[2 * k + 1]);
    }
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK) s = spira__dist_route_build(ctx, L, ne, made, NULL, dtype, 0, "edges", A);
    spira__free(made);
    spira__dist_layout_unref(L);
    return s;
}
