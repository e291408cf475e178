/*
 * matrix.c - the distributed matrix: a rank's rows split into the diagonal block (the
 * columns it owns) and the off-diagonal block (the others, renumbered 0..nghost-1 in
 * ascending global order), each canonicalized by lib/'s CSR code (sorted, duplicates
 * summed) and wrapped as an ordinary spira_matrix; then the halo pattern for the ghosts.
 * The off-diagonal block keeps only the rows that have a remote column (orow maps them back).
 * The constructors: from each rank's rows, and scattered from a global matrix on one rank.
 */
#include "dist.h"

#include <stdlib.h>
#include <string.h>

/* The ghosts of the remote entries' global columns col[0..no) (each in [0, n)): ghost[0..*ng)
 * every column once, ascending, and idx[k] the ghost of col[k]. The (column, entry) pairs
 * sorted by column with a stable least-significant-digit radix sort over n's bits, then
 * numbered in one pass: linear in the entries, where a comparison sort of the columns and
 * a binary search an entry took a fifth of a distributed R-MAT graph's setup. */
#define GHOST_DIGIT 11
static spira_status number_ghosts(spira_context ctx, const int64_t *col, int64_t no, int64_t n,
                                  int64_t *ghost, int32_t *ng, int32_t *idx)
{
    *ng = 0;
    if (no == 0) return SPIRA_OK;
    /* each pass reads one half of keys (pos) and writes the other */
    int64_t *keys = NULL, *count = NULL;
    int32_t *poss = NULL;
    const size_t radix = (size_t)1 << GHOST_DIGIT;
    spira_status s = spira__alloc(ctx, (void **)&keys, (size_t)no, 2 * sizeof *keys, "ghost sort");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&poss, (size_t)no, 2 * sizeof *poss, "ghost sort");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&count, radix, sizeof *count, "ghost sort");
    if (s != SPIRA_OK) goto done;
    int64_t *key = keys, *key2 = keys + no;
    int32_t *pos = poss, *pos2 = poss + no;
    memcpy(key, col, (size_t)no * sizeof *key);
    for (int64_t k = 0; k < no; k++) pos[k] = (int32_t)k;
    int bits = 1;
    while (bits < 63 && ((int64_t)1 << bits) < n) bits++;
    for (int shift = 0; shift < bits; shift += GHOST_DIGIT) {
        memset(count, 0, radix * sizeof *count);
        for (int64_t k = 0; k < no; k++) count[(key[k] >> shift) & (int64_t)(radix - 1)]++;
        int64_t at = 0;
        for (size_t d = 0; d < radix; d++) {
            const int64_t c = count[d];
            count[d] = at;
            at += c;
        }
        for (int64_t k = 0; k < no; k++) {
            const int64_t q = count[(key[k] >> shift) & (int64_t)(radix - 1)]++;
            key2[q] = key[k];
            pos2[q] = pos[k];
        }
        int64_t *tk = key;
        key = key2, key2 = tk;
        int32_t *tp = pos;
        pos = pos2, pos2 = tp;
    }
    int32_t g = -1;
    for (int64_t k = 0; k < no; k++) {
        if (g < 0 || key[k] != ghost[g]) ghost[++g] = key[k];
        idx[pos[k]] = g;
    }
    *ng = g + 1;
done:
    spira__free(keys);
    spira__free(poss);
    spira__free(count);
    return s;
}

void spira_dist_matrix_destroy(spira_dist_matrix A)
{
    if (!A) return;
    spira_dist_matrix_destroy(A->pt);
    spira_vector_destroy(A->dangling);
    spira__nccl_kernel_halo_destroy(A->ctx, A->kh);
    spira__halo_destroy(A->halo);
    spira_vector_destroy(A->ghost_x);
    spira_vector_destroy(A->otmp);
    if (A->dorow) spira__mem_free(A->ctx, A->dorow);
    if (A->dbits) spira__mem_free(A->ctx, A->dbits);
    if (A->dbase) spira__mem_free(A->ctx, A->dbase);
    spira__free(A->orow);
    spira_matrix_destroy(A->diag);
    spira_matrix_destroy(A->offdiag);
    spira__free(A->ghost);
    spira__dist_layout_unref(A->L);
    spira__free(A);
}

void spira__dist_row_bitmap(const int32_t *rows, int32_t count, int32_t m, uint32_t *bits,
                            int32_t *base)
{
    const size_t words = ((size_t)m + 31) / 32;
    memset(bits, 0, words * sizeof *bits);
    for (int32_t r = 0; r < count; r++) bits[rows[r] / 32] |= 1u << (rows[r] % 32);
    int32_t below = 0;
    for (size_t w = 0; w < words; w++) {
        base[w] = below;
        below += __builtin_popcount(bits[w]);
    }
}

/* A->orow as spira__row_add's bitmap where ctx computes (A->dbits, A->dbase). */
static spira_status row_bitmap(spira_context ctx, spira_dist_matrix A, int32_t m)
{
    const size_t words = ((size_t)m + 31) / 32;
    uint32_t *bits = NULL;
    int32_t *base = NULL;
    spira_status s = spira__alloc(ctx, (void **)&bits, words, sizeof *bits, "row bitmap");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&base, words, sizeof *base, "row bitmap");
    if (s == SPIRA_OK) {
        spira__dist_row_bitmap(A->orow, A->orows, m, bits, base);
        s = spira__mem_alloc(ctx, (void **)&A->dbits, words * sizeof *bits, "row bitmap");
    }
    if (s == SPIRA_OK)
        s = spira__mem_alloc(ctx, (void **)&A->dbase, words * sizeof *base, "row bitmap");
    if (s == SPIRA_OK) s = spira__mem_upload(ctx, A->dbits, bits, words * sizeof *bits);
    if (s == SPIRA_OK) s = spira__mem_upload(ctx, A->dbase, base, words * sizeof *base);
    spira__free(bits);
    spira__free(base);
    return s;
}

/* This rank's rows into the two blocks (no communication). */
static spira_status split(spira_context ctx, spira_dist_matrix A, const int64_t *rp,
                          const int64_t *ci, const void *val, int symmetric)
{
    const spira__dist_layout *L = A->L;
    const int32_t m = L->local;
    const int64_t n = L->n, lo = L->first, hi = L->first + m;
    const size_t es = spira_dtype_size(A->dtype);
    if (m > 0 && (!rp || rp[0] != 0))
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "row_ptr is NULL or row_ptr[0] != 0");
    if (m > 0 && rp[m] > 0 && !ci)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "col_idx is NULL");
    int64_t nd = 0, no = 0;
    for (int32_t i = 0; i < m; i++) {
        if (rp[i + 1] < rp[i])
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "row_ptr decreases at global row "
                                "%lld", (long long)(lo + i));
        for (int64_t k = rp[i]; k < rp[i + 1]; k++) {
            if (ci[k] < 0 || ci[k] >= n)
                return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "global row %lld: column %lld "
                                    "outside 0..%lld", (long long)(lo + i), (long long)ci[k],
                                    (long long)n - 1);
            if (ci[k] >= lo && ci[k] < hi) nd++;
            else no++;
        }
    }
    if (nd > INT32_MAX || no > INT32_MAX)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "rank %d's rows hold %lld local and "
                            "%lld remote entries; each block's must fit 32-bit indices (%d): "
                            "use more ranks", L->rank, (long long)nd, (long long)no, INT32_MAX);
    int32_t *drp = NULL, *dci = NULL, *orp = NULL, *oci = NULL;
    int64_t *ocol = NULL;
    char *dval = NULL, *oval = NULL;
    spira__csr dc = {0}, oc = {0};
    spira_status s = spira__alloc(ctx, (void **)&drp, (size_t)m + 1, sizeof *drp, "row pointers");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&orp, (size_t)m + 1, sizeof *orp, "row pointers");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&dci, (size_t)nd, sizeof *dci, "column indices");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&oci, (size_t)no, sizeof *oci, "column indices");
    if (s == SPIRA_OK && val) s = spira__alloc(ctx, (void **)&dval, (size_t)nd, es, "values");
    if (s == SPIRA_OK && val) s = spira__alloc(ctx, (void **)&oval, (size_t)no, es, "values");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&A->ghost, (size_t)no, sizeof *A->ghost,
                                        "ghost columns");
    if (s != SPIRA_OK) goto done;
    /* the blocks, in the caller's order (canonicalized below); the off-diagonal one only
     * over the rows with a remote column, each remembered in orow; its columns global in
     * ocol until the ghosts are numbered */
    if (no > 0) s = spira__alloc(ctx, (void **)&A->orow, (size_t)m + 1, sizeof *A->orow,
                                 "off-diagonal rows");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&ocol, (size_t)no + 1, sizeof *ocol,
                                        "remote columns");
    if (s != SPIRA_OK) goto done;
    int32_t kd = 0, ko = 0, nr = 0;
    drp[0] = orp[0] = 0;
    for (int32_t i = 0; i < m; i++) {
        const int32_t ko0 = ko;
        for (int64_t k = rp[i]; k < rp[i + 1]; k++) {
            const int local = ci[k] >= lo && ci[k] < hi;
            if (local) dci[kd] = (int32_t)(ci[k] - lo);
            else ocol[ko] = ci[k];
            if (val) memcpy(local ? dval + (size_t)kd * es : oval + (size_t)ko * es,
                            (const char *)val + (size_t)k * es, es);
            if (local) kd++;
            else ko++;
        }
        drp[i + 1] = kd;
        if (ko > ko0) {
            A->orow[nr++] = i;
            orp[nr] = ko;
        }
    }
    int32_t ng = 0;
    s = number_ghosts(ctx, ocol, no, n, A->ghost, &ng, oci);
    if (s != SPIRA_OK) goto done;
    A->nghost = ng;
    A->orows = nr;
    s = spira__csr_from_arrays(ctx, m, m, drp, dci, dval, A->dtype, &dc);
    if (s == SPIRA_OK) s = spira__matrix_wrap(ctx, &dc, symmetric, &A->diag);
    if (s == SPIRA_OK && ng > 0) s = spira__csr_from_arrays(ctx, nr, ng, orp, oci, oval, A->dtype, &oc);
    if (s == SPIRA_OK && ng > 0) s = spira__matrix_wrap(ctx, &oc, 0, &A->offdiag);
    if (s == SPIRA_OK && ng > 0) s = spira_vector_create(ctx, ng, A->dtype, &A->ghost_x);
    if (s == SPIRA_OK && ng > 0) s = spira_vector_create(ctx, nr, A->dtype, &A->otmp);
    if (s == SPIRA_OK && ng > 0) s = spira__mem_alloc(ctx, (void **)&A->dorow,
                                                       (size_t)nr * sizeof *A->dorow,
                                                       "off-diagonal rows");
    if (s == SPIRA_OK && ng > 0) s = spira__mem_upload(ctx, A->dorow, A->orow,
                                                        (size_t)nr * sizeof *A->dorow);
    if (s == SPIRA_OK && ng > 0 && ctx->backend == SPIRA_BACKEND_CUDA) s = row_bitmap(ctx, A, m);
done:
    spira__free(ocol);
    spira__free(drp);
    spira__free(dci);
    spira__free(dval);
    spira__free(orp);
    spira__free(oci);
    spira__free(oval);
    return s;
}

spira_status spira__dist_matrix_build(spira_context ctx, spira__dist_layout *L,
                                      const int64_t *row_ptr, const int64_t *col_idx,
                                      const void *val, spira_dtype dtype, int symmetric,
                                      spira_dist_matrix *out)
{
    *out = NULL;
    spira_dist_matrix A = spira__calloc(1, sizeof *A);
    spira_status s = A ? SPIRA_OK : spira__nomem(ctx, "distributed matrix", sizeof *A);
    if (A) {
        A->ctx = ctx;
        A->L = spira__dist_layout_ref(L);
        A->dtype = dtype;
    }
    if (s == SPIRA_OK) s = split(ctx, A, row_ptr, col_idx, val, symmetric);
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK) s = spira__halo_create(ctx, L, dtype, A->nghost, A->ghost, &A->halo);
    if (s == SPIRA_OK) {
        int64_t nnz = (int64_t)A->diag->csr.nnz + (A->offdiag ? A->offdiag->csr.nnz : 0);
        if (MPI_Allreduce(&nnz, &A->nnz, 1, MPI_INT64_T, MPI_SUM, L->comm) != MPI_SUCCESS)
            s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Allreduce of the nonzeros failed");
        s = spira__dist_agree(ctx, L->comm, s);
    }
    if (s != SPIRA_OK) {
        spira_dist_matrix_destroy(A);
        return s;
    }
    *out = A;
    return SPIRA_OK;
}

static spira_status check_dtype(spira_context ctx, spira_dtype dtype)
{
    if (dtype != SPIRA_R32 && dtype != SPIRA_R64)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown dtype %d", (int)dtype);
    return SPIRA_OK;
}

spira_status spira_dist_matrix_from_rows(spira_context ctx, MPI_Comm comm, int64_t local_rows,
                                         int64_t ncols, const int64_t *row_ptr,
                                         const int64_t *col_idx, const void *val,
                                         spira_dtype dtype, spira_dist_matrix *A)
{
    if (!A) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL output");
    *A = NULL;
    spira_status s = spira__dist_check_context(ctx);
    if (s == SPIRA_OK) s = check_dtype(ctx, dtype);
    if (s == SPIRA_OK && local_rows == SPIRA_DIST_EVEN)
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "spira_dist_matrix_from_rows: local_rows "
                         "is the number of rows this rank gives, not SPIRA_DIST_EVEN");
    s = spira__dist_agree(ctx, comm, s);
    if (s != SPIRA_OK) return s;
    spira__dist_layout *L;
    SPIRA__TRY(spira__dist_layout_create(ctx, comm, -1, local_rows, &L));
    s = SPIRA_OK;
    if (ncols != L->n)
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                         "a distributed matrix must be square: the ranks' rows total %lld, "
                         "ncols is %lld", (long long)L->n, (long long)ncols);
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK) s = spira__dist_matrix_build(ctx, L, row_ptr, col_idx, val, dtype, 0, A);
    spira__dist_layout_unref(L);
    return s;
}

/* What every rank needs to know of root's G before its rows arrive. */
typedef struct {
    int64_t n;
    int dtype, symmetric;
} global_header;

/* Root: each rank's entry count, and the row lengths in G's order. */
static spira_status scatter_counts(spira_context ctx, const spira__dist_layout *L,
                                   const spira__csr *G, int **nnz_count, int **nnz_at,
                                   int **row_count, int **row_at, int32_t **len)
{
    const int p = L->size;
    int *c = NULL;
    SPIRA__TRY(spira__alloc(ctx, (void **)&c, (size_t)p, 4 * sizeof(int), "scatter counts"));
    spira_status s = spira__alloc(ctx, (void **)len, (size_t)G->nrows, sizeof(int32_t), "row lengths");
    if (s != SPIRA_OK) {
        spira__free(c);
        return s;
    }
    *nnz_count = c, *nnz_at = c + p, *row_count = c + 2 * p, *row_at = c + 3 * p;
    for (int r = 0; r < p; r++) {
        const int32_t a = (int32_t)L->starts[r], b = (int32_t)L->starts[r + 1];
        c[r] = G->row_ptr[b] - G->row_ptr[a];
        c[p + r] = G->row_ptr[a];
        c[2 * p + r] = b - a;
        c[3 * p + r] = a;
    }
    for (int32_t i = 0; i < G->nrows; i++) (*len)[i] = G->row_ptr[i + 1] - G->row_ptr[i];
    return SPIRA_OK;
}

spira_status spira_dist_matrix_scatter(spira_context ctx, MPI_Comm comm, int root, spira_matrix G,
                                       int64_t local_rows, spira_dist_matrix *A)
{
    if (!A) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL output");
    *A = NULL;
    int rank, size;
    if (comm == MPI_COMM_NULL)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "MPI_COMM_NULL as the communicator");
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    spira_status s = spira__dist_check_context(ctx);
    if (root < 0 || root >= size)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "root %d: the communicator has ranks "
                            "0..%d", root, size - 1); /* the same on every rank */
    global_header hd = {0};
    if (s == SPIRA_OK && rank == root) {
        if (!G) s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "the root rank's matrix is NULL");
        else if (G->csr.nrows != G->csr.ncols)
            s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "a distributed matrix must be square; "
                             "G is %d x %d", G->csr.nrows, G->csr.ncols);
        else {
            hd.n = G->csr.nrows;
            hd.dtype = (int)G->csr.dtype;
            hd.symmetric = G->symmetric;
        }
    }
    s = spira__dist_agree(ctx, comm, s);
    if (s != SPIRA_OK) return s;
    MPI_Bcast(&hd, (int)sizeof hd, MPI_BYTE, root, comm);
    const spira_dtype dtype = (spira_dtype)hd.dtype;
    const size_t es = spira_dtype_size(dtype);
    spira__dist_layout *L;
    SPIRA__TRY(spira__dist_layout_create(ctx, comm, hd.n, local_rows, &L));
    const int32_t m = L->local;
    int *nnz_count = NULL, *nnz_at = NULL, *row_count = NULL, *row_at = NULL;
    int32_t *len = NULL, *mylen = NULL, *myci = NULL;
    int64_t *rp = NULL, *ci = NULL;
    void *val = NULL;
    int mynnz = 0;
    /* root: the counts; every rank: room for its rows */
    if (rank == root)
        s = scatter_counts(ctx, L, &G->csr, &nnz_count, &nnz_at, &row_count, &row_at, &len);
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK && MPI_Scatter(nnz_count, 1, MPI_INT, &mynnz, 1, MPI_INT, root, L->comm) !=
                             MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Scatter of the entry counts failed");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&mylen, (size_t)m, sizeof *mylen, "row lengths");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&myci, (size_t)mynnz, sizeof *myci, "columns");
    if (s == SPIRA_OK) s = spira__alloc(ctx, &val, (size_t)mynnz, es, "values");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&rp, (size_t)m + 1, sizeof *rp, "row pointers");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&ci, (size_t)mynnz, sizeof *ci, "columns");
    s = spira__dist_agree(ctx, L->comm, s);
    /* the rows: lengths, columns, values */
    const MPI_Datatype vt = dtype == SPIRA_R64 ? MPI_DOUBLE : MPI_FLOAT;
    const spira__csr *g = rank == root ? &G->csr : NULL;
    if (s == SPIRA_OK &&
        (MPI_Scatterv(len, row_count, row_at, MPI_INT32_T, mylen, m, MPI_INT32_T, root,
                      L->comm) != MPI_SUCCESS ||
         MPI_Scatterv(g ? g->col_idx : NULL, nnz_count, nnz_at, MPI_INT32_T, myci, mynnz,
                      MPI_INT32_T, root, L->comm) != MPI_SUCCESS ||
         MPI_Scatterv(g ? g->val : NULL, nnz_count, nnz_at, vt, val, mynnz, vt, root,
                      L->comm) != MPI_SUCCESS))
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Scatterv of the rows failed");
    if (s == SPIRA_OK) {
        rp[0] = 0;
        for (int32_t i = 0; i < m; i++) rp[i + 1] = rp[i] + mylen[i];
        for (int k = 0; k < mynnz; k++) ci[k] = myci[k];
    }
    spira__free(nnz_count);
    spira__free(len);
    spira__free(mylen);
    spira__free(myci);
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK) s = spira__dist_matrix_build(ctx, L, rp, ci, val, dtype, hd.symmetric, A);
    spira__free(rp);
    spira__free(ci);
    spira__free(val);
    spira__dist_layout_unref(L);
    return s;
}

spira_status spira_dist_matrix_get_info(spira_dist_matrix A, spira_dist_matrix_info *info)
{
    if (!A || !info) return SPIRA_ERR_INVALID_ARG;
    const spira__dist_layout *L = A->L;
    memset(info, 0, sizeof *info);
    info->nrows = L->n;
    info->nnz = A->nnz;
    info->dtype = A->dtype;
    info->ranks = L->size;
    info->rank = L->rank;
    info->first_row = L->first;
    info->local_rows = L->local;
    info->ghosts = A->nghost;
    info->diag_nnz = A->diag->csr.nnz;
    info->offdiag_nnz = A->offdiag ? A->offdiag->csr.nnz : 0;
    info->recv_neighbors = A->halo->nrecv;
    info->send_neighbors = A->halo->nsend;
    info->send_values = A->halo->send_off[A->halo->nsend];
    info->exchanges = L->exchanges;
    info->reductions = L->reductions;
    info->sums_in_kernel = L->gpu ? spira__nccl_in_kernel(L->gpu) : 0;
    info->halo_in_kernel = A->kh != NULL;
    return SPIRA_OK;
}

spira_status spira_dist_matrix_blocks(spira_dist_matrix A, spira_matrix *diag,
                                      spira_matrix *offdiag)
{
    if (!A) return SPIRA_ERR_INVALID_ARG;
    if (diag) *diag = A->diag;
    if (offdiag) *offdiag = A->offdiag;
    return SPIRA_OK;
}
