/*
 * merge.c - host side of the merge format (Merrill & Garland 2016; merge.h): the layout is
 * the matrix's own CSR, borrowed, with the share of the merge path each thread takes; the
 * CPU reference runs the same shares in thread order, each ending rows and handing its
 * carry-out on, so CI checks the search and the carries. The kernels are in merge_gpu.cu.
 *
 * The default share, 7 steps a thread, is Merrill and Garland's order (they take 7 to 9
 * for double on their GPUs): enough work to pay for one binary search, short enough that
 * a tile's staging stays small (11 KB of shared memory in double). Odd, because a warp's
 * reads of the staged products then fall on distinct banks more often than at 8, which
 * measured slower on the kNN Laplacian and no faster elsewhere
 * (bench/results/2026-11-26-h200x2-session11). items=N sets another, 1 to 32
 * (SPIRA__MERGE_ITEMS_MAX: at 32 a tile in double needs 51 KB, more than the 48 KB a block
 * gets by default, which merge_gpu.cu asks for).
 *
 * A short path (SPIRA__MERGE_SHORT_PATH steps or fewer) defaults to 1 step a thread: such
 * a multiply is a few dependent loads long whatever the shares, and one step a thread
 * spreads it over the most tiles. On an H200 (bench/results/2026-11-27-session20, back
 * to back): adder_dcop_05 (12,910 steps) 6.4 us a multiply at 1 against 8.7 at 7,
 * 1138_bus (5,192) 6.0 against 7.1; at 25,000 to 50,000 steps 1 was no better than 2 to 7
 * (and 3.4x slower on mbeacxc, whose rows of a hundred entries leave runs of carries).
 */
#include "merge.h"
#include "csr.h"

#include <stdio.h>

static spira_status merge_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                  void **layout)
{
    *layout = NULL;
    long items;
    int64_t path = (int64_t)A->nrows + A->nnz;
    SPIRA__TRY(spira__opt_long(ctx, opts, "items",
                               path <= SPIRA__MERGE_SHORT_PATH ? 1 : SPIRA__MERGE_ITEMS_DEFAULT,
                               &items));
    if (items < 1 || items > SPIRA__MERGE_ITEMS_MAX)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "merge option items=%ld: 1 to %d (merge-path steps a thread)",
                            items, SPIRA__MERGE_ITEMS_MAX);
    int64_t threads = (path + items - 1) / items;
    if (threads > INT32_MAX)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "merge refuses items=%ld: %lld rows + nonzeros make %lld threads, "
                            "beyond the 32-bit index range (%d)",
                            items, (long long)path, (long long)threads, INT32_MAX);
    spira__merge *M = spira__calloc(1, sizeof *M);
    if (!M) return spira__nomem(ctx, "merge layout", sizeof *M);
    M->A = A;
    M->items = (int32_t)items;
    M->nthreads = (int32_t)threads;
    M->ntiles = (int32_t)((threads + SPIRA__MERGE_TILE_THREADS - 1) / SPIRA__MERGE_TILE_THREADS);
    snprintf(M->stats, sizeof M->stats,
             "items %d (path steps a thread), %d threads in %d tiles of %d (a carry-out each)",
             M->items, M->nthreads, M->ntiles, SPIRA__MERGE_TILE_THREADS);
    *layout = M;
    return SPIRA_OK;
}

/* Thread t's share in order: rows it ends are written (y = alpha*sum + beta*y), and a row
 * it stops inside gets its partial sum as the carry-out. The carry-outs of consecutive
 * threads that stop inside the same row (a row longer than a share) add up in `carry`
 * until the thread that ends the row, which adds alpha*carry after writing it, as the
 * GPU's second pass does. */
#define SPIRA__MERGE_BODY(T)                                                               \
    do {                                                                                   \
        const spira__csr *A = M->A;                                                        \
        const T *v = (const T *)A->val, *xx = (const T *)x;                                \
        T *yy = (T *)y, carry = 0;                                                         \
        int32_t carry_row = -1; /* the row carry belongs to, -1: none */                   \
        int64_t path = (int64_t)A->nrows + A->nnz;                                         \
        for (int32_t t = 0; t < M->nthreads; t++) {                                        \
            int64_t d0 = (int64_t)t * M->items, d1 = d0 + M->items < path ? d0 + M->items : path; \
            int32_t row, nz, row_end, nz_end;                                              \
            spira__merge_search(d0, A->row_ptr + 1, A->nrows, A->nnz, &row, &nz);          \
            spira__merge_search(d1, A->row_ptr + 1, A->nrows, A->nnz, &row_end, &nz_end);  \
            T sum = 0;                                                                     \
            for (; row < row_end; row++) {                                                 \
                for (; nz < A->row_ptr[row + 1]; nz++) sum += v[nz] * xx[A->col_idx[nz]];  \
                yy[row] = beta == 0 ? (T)(alpha * sum) : (T)(alpha * sum + beta * yy[row]); \
                if (row == carry_row) yy[row] += (T)(alpha * carry), carry_row = -1;       \
                sum = 0;                                                                   \
            }                                                                              \
            for (; nz < nz_end; nz++) sum += v[nz] * xx[A->col_idx[nz]];                   \
            if (row_end == A->nrows) continue; /* the path's end: nothing left over */     \
            carry = row_end == carry_row ? carry + sum : sum;                              \
            carry_row = row_end;                                                           \
        }                                                                                  \
    } while (0)

static void merge_apply(const void *layout, double alpha, const void *x, double beta, void *y)
{
    const spira__merge *M = (const spira__merge *)layout;
    if (M->A->dtype == SPIRA_R64) SPIRA__MERGE_BODY(double);
    else SPIRA__MERGE_BODY(float);
}

/* The CSR once, each tile's two path coordinates, its carry-out written and read once. */
static size_t merge_bytes(const void *layout)
{
    const spira__merge *M = (const spira__merge *)layout;
    return spira__csr_layout_bytes(M->A) + ((size_t)M->ntiles + 1) * 2 * sizeof(int32_t) +
           (size_t)M->ntiles * (sizeof(int32_t) + spira_dtype_size(M->A->dtype));
}

static const char *merge_stats(const void *layout)
{
    return ((const spira__merge *)layout)->stats;
}

extern const spira__format_gpu spira__merge_gpu;

const spira__format spira__merge_format = {
    .name = "merge",
    .description = "merge-based CSR: equal shares (items, 1-32, default 7; 1 "
                   "on a path of at most 16,384 steps) of the merge path "
                   "over row ends and nonzeros a thread, in tiles of 128 threads staged in "
                   "shared memory, rows split between threads fixed up from carry-outs in "
                   "thread order, no atomics (Merrill & Garland 2016)",
    .options = "items",
    .convert = merge_convert,
    .apply = merge_apply,
    .bytes = merge_bytes,
    .destroy = spira__free, /* the layout is one block */
    .stats = merge_stats,
    .gpu = SPIRA__GPU(&spira__merge_gpu),
};
