/*
 * power.c - power iteration and PageRank on distributed matrices: solvers/power.c and
 * solvers/pagerank.c themselves, run on each rank's rows through spira__solve_comm (the
 * distributed SpMV, one allreduce per reduction), so the math, the stopping tests and the
 * messages are the one-process ones. What is distributed here is PageRank's transition
 * P^T: its rows are G's columns, owned by other ranks, so each rank scales its rows of G
 * by their inverse sums and routes every entry (i, j, G(i,j) / s_i) to the owner of j
 * (MPI_Alltoallv), which builds its rows of P^T as a distributed matrix over the same
 * layout. Built on the first call and kept in G.
 */
#include "dist.h"

#include <math.h>
#include <string.h>

spira_status spira_dist_power(spira_dist_matrix A, spira_dist_vector v, const spira_power_opts *opts,
                              spira_power_info *info)
{
    spira_power_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    info->reason = SPIRA_STOPPED_ERROR;
    if (!A || !v) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__dist_vectors_match(A, v, "v", NULL, NULL));
    /* the gap that sets the rate is unknown: auto weighs the iteration limit, as power.c */
    const double expect = opts && opts->maxit > 0 ? opts->maxit : 10000;
    SPIRA__TRY(spira__dist_agree(A->ctx, A->L->comm, spira__dist_prepare(A, expect)));
    const spira__solve_comm comm = spira__dist_comm(A);
    spira_status s = spira__power_comm(A->diag, &comm, v->local, opts, info);
    return spira__dist_agree(A->ctx, A->L->comm, s);
}

/* This rank's rows of G scaled by 1 / their sums (0 for a dangling row, whose d_i is 1),
 * sent to the owners of their columns: P^T(j, i) = G(i, j) / s_i, in G's dtype. */
static spira_status transition_build(spira_dist_matrix G)
{
    spira_context ctx = G->ctx;
    spira__dist_layout *L = G->L;
    const int p = L->size;
    const int32_t m = L->local;
    const spira__csr *d = &G->diag->csr, *o = G->offdiag ? &G->offdiag->csr : NULL;
    const int64_t nnz = (int64_t)d->nnz + (o ? o->nnz : 0);
    double *inv = NULL, *sval = NULL, *rval = NULL;
    int64_t *sidx = NULL, *ridx = NULL, *rp = NULL, *ci = NULL;
    int *cnt = NULL, *at = NULL, *rcnt = NULL, *rat = NULL, *owner = NULL;
    void *typed = NULL;
    int32_t *fill = NULL;
    int64_t nrecv = 0;
    /* phase 1: sums, checks, and each entry's destination */
    spira_status s = spira__alloc(ctx, (void **)&inv, (size_t)m + 1, sizeof *inv, "row sums");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&cnt, (size_t)p, 4 * sizeof *cnt, "counts");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&owner, (size_t)G->nghost + 1,
                                        sizeof *owner, "ghost owners");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&sidx, (size_t)nnz + 1, 2 * sizeof *sidx,
                                        "transition entries");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&sval, (size_t)nnz + 1, sizeof *sval,
                                        "transition values");
    if (s == SPIRA_OK) {
        at = cnt + p, rcnt = at + p, rat = rcnt + p;
        memset(cnt, 0, (size_t)p * sizeof *cnt);
        for (int32_t g = 0; g < G->nghost; g++) owner[g] = spira__dist_owner(L, G->ghost[g]);
    }
    /* the off-diagonal block holds only the rows with a remote column: ro walks them */
    int32_t ro = 0;
    for (int32_t i = 0; s == SPIRA_OK && i < m; i++) {
        double sum = 0;
        const int has_o = o && ro < G->orows && G->orow[ro] == i;
        for (int b = 0; b < 2 && s == SPIRA_OK; b++) {
            const spira__csr *c = b ? (has_o ? o : NULL) : d;
            const int32_t ri = b ? ro : i;
            for (int32_t k = c ? c->row_ptr[ri] : 0; c && k < c->row_ptr[ri + 1]; k++) {
                const double w = spira__get(c->val, c->dtype, k);
                const int64_t j = b ? G->ghost[c->col_idx[k]] : L->first + c->col_idx[k];
                if (!isfinite(w) || w < 0) {
                    s = spira__error(ctx, isfinite(w) ? SPIRA_ERR_INVALID_ARG : SPIRA_ERR_NONFINITE,
                                     isfinite(w) ? "PageRank: negative edge weight G(%lld,%lld) = "
                                                   "%g (1-based); weights must be >= 0"
                                                 : "PageRank: edge weight G(%lld,%lld) = %g "
                                                   "(1-based) is not finite",
                                     (long long)(L->first + i + 1), (long long)(j + 1), w);
                    break;
                }
                sum += w;
                cnt[b ? owner[c->col_idx[k]] : L->rank]++;
            }
        }
        if (s == SPIRA_OK && !isfinite(sum))
            s = spira__error(ctx, SPIRA_ERR_NONFINITE, "PageRank: the weights of row %lld "
                             "(1-based) sum to %g", (long long)(L->first + i + 1), sum);
        if (s == SPIRA_OK) inv[i] = sum > 0 ? 1.0 / sum : 0.0;
        ro += has_o;
    }
    int64_t total = 0;
    for (int r = 0; s == SPIRA_OK && r < p; r++) {
        at[r] = (int)total;
        total += cnt[r];
    }
    if (s == SPIRA_OK && 2 * total > INT32_MAX)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "PageRank: rank %d's rows hold more "
                         "entries than one MPI message may count", L->rank);
    /* the entries in destination order: (row of P^T, column of P^T) = (j, i) */
    if (s == SPIRA_OK) {
        int *next = rcnt; /* scratch until the counts arrive */
        memcpy(next, at, (size_t)p * sizeof *next);
        ro = 0;
        for (int32_t i = 0; i < m; i++) {
            const int has_o = o && ro < G->orows && G->orow[ro] == i;
            for (int b = 0; b < 2; b++) {
                const spira__csr *c = b ? (has_o ? o : NULL) : d;
                const int32_t ri = b ? ro : i;
                for (int32_t k = c ? c->row_ptr[ri] : 0; c && k < c->row_ptr[ri + 1]; k++) {
                    const int r = b ? owner[c->col_idx[k]] : L->rank;
                    const int64_t q = next[r]++;
                    sidx[2 * q] = b ? G->ghost[c->col_idx[k]] : L->first + c->col_idx[k];
                    sidx[2 * q + 1] = L->first + i;
                    sval[q] = spira__get(c->val, c->dtype, k) * inv[i];
                }
            }
            ro += has_o;
        }
    }
    s = spira__dist_agree(ctx, L->comm, s);
    /* phase 2: the counts, then the entries */
    if (s == SPIRA_OK && MPI_Alltoall(cnt, 1, MPI_INT, rcnt, 1, MPI_INT, L->comm) != MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Alltoall of the transition counts failed");
    for (int r = 0; s == SPIRA_OK && r < p; r++) {
        rat[r] = (int)nrecv;
        nrecv += rcnt[r];
    }
    if (s == SPIRA_OK && 2 * nrecv > INT32_MAX)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "PageRank: rank %d receives more transition "
                         "entries than one MPI message may count", L->rank);
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&ridx, (size_t)nrecv + 1, 2 * sizeof *ridx,
                                        "transition entries");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&rval, (size_t)nrecv + 1, sizeof *rval,
                                        "transition values");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&rp, (size_t)m + 1, sizeof *rp, "rows");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&ci, (size_t)nrecv + 1, sizeof *ci, "columns");
    if (s == SPIRA_OK) s = spira__alloc(ctx, &typed, (size_t)nrecv + 1, spira_dtype_size(G->dtype),
                                        "values");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&fill, (size_t)m + 1, sizeof *fill, "fill");
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK) {
        /* pairs travel as twice the count of int64 */
        for (int r = 0; r < p; r++) cnt[r] *= 2, at[r] *= 2, rcnt[r] *= 2, rat[r] *= 2;
        if (MPI_Alltoallv(sidx, cnt, at, MPI_INT64_T, ridx, rcnt, rat, MPI_INT64_T, L->comm) !=
            MPI_SUCCESS)
            s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Alltoallv of the transition failed");
        for (int r = 0; r < p; r++) cnt[r] /= 2, at[r] /= 2, rcnt[r] /= 2, rat[r] /= 2;
        if (s == SPIRA_OK && MPI_Alltoallv(sval, cnt, at, MPI_DOUBLE, rval, rcnt, rat, MPI_DOUBLE,
                                           L->comm) != MPI_SUCCESS)
            s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Alltoallv of the transition failed");
    }
    /* phase 3: this rank's rows of P^T (canonicalized by the build), and d */
    if (s == SPIRA_OK) {
        spira__dist_rows_place(L, nrecv, ridx, rval, G->dtype, rp, ci, typed, fill);
        for (int32_t i = 0; i < m; i++) inv[i] = inv[i] == 0 ? 1.0 : 0.0; /* now d */
        s = spira_vector_create(ctx, m, G->dtype, &G->dangling);
        if (s == SPIRA_OK) s = spira_vector_set_f64(G->dangling, inv);
    }
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK) s = spira__dist_matrix_build(ctx, L, rp, ci, typed, G->dtype, 0, &G->pt);
    if (s != SPIRA_OK) {
        spira_vector_destroy(G->dangling);
        G->dangling = NULL;
    }
    spira__free(inv);
    spira__free(cnt);
    spira__free(owner);
    spira__free(sidx);
    spira__free(sval);
    spira__free(ridx);
    spira__free(rval);
    spira__free(rp);
    spira__free(ci);
    spira__free(typed);
    spira__free(fill);
    return s;
}

spira_status spira_dist_pagerank(spira_dist_matrix G, spira_dist_vector rank,
                                 const spira_pagerank_opts *opts, spira_pagerank_info *info)
{
    spira_pagerank_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    info->reason = SPIRA_STOPPED_ERROR;
    if (!G || !rank) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__dist_vectors_match(G, rank, "the rank vector", NULL, NULL));
    double t0 = spira__now_ms();
    if (!G->pt) SPIRA__TRY(transition_build(G));
    /* (power.c's estimate at the defaults: ln(1e-6 / 2) / ln(0.85), about 90) */
    SPIRA__TRY(spira__dist_agree(G->ctx, G->L->comm, spira__dist_prepare(G->pt, 90)));
    const double built_ms = spira__now_ms() - t0;
    const spira__solve_comm comm = spira__dist_comm(G->pt);
    spira_status s = spira__pagerank_comm(G->diag, &comm, G->pt->diag, G->dangling, rank->local,
                                          opts, info);
    info->setup_ms += built_ms;
    return spira__dist_agree(G->ctx, G->L->comm, s);
}
