/*
 * generate.c - generated test problems: the 2-D and 3-D finite-difference Laplacians, and
 * R-MAT graphs (Chakrabarti, Zhan and Faloutsos 2004, with Graph500's parameters), made an
 * edge at a time, so a distributed generator makes each rank's share of the same graph.
 */
#include "spira_impl.h"

int spira__laplacian_row(int dim, int64_t n, int64_t r, int64_t *col, double *val)
{
    /* neighbours in increasing column order: -z, -y, -x, self, +x, +y, +z */
    const int64_t step[3] = {1, n, n * n};
    const int64_t coord[3] = {r % n, (r / n) % n, r / (n * n)};
    int k = 0;
    for (int d = dim - 1; d >= 0; d--)
        if (coord[d] > 0) {
            col[k] = r - step[d];
            val[k++] = -1.0;
        }
    col[k] = r;
    val[k++] = 2.0 * dim;
    for (int d = 0; d < dim; d++)
        if (coord[d] < n - 1) {
            col[k] = r + step[d];
            val[k++] = -1.0;
        }
    return k;
}

spira_status spira__laplacian_check(spira_context ctx, int dim, int64_t n, int64_t *rows)
{
    if (dim != 2 && dim != 3)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "Laplacian dimension %d (2 or 3)", dim);
    if (n < 1 || n > 2000000)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "Laplacian grid size %lld", (long long)n);
    *rows = n * n * (dim == 3 ? n : 1);
    return SPIRA_OK;
}

spira_status spira_matrix_laplacian(spira_context ctx, int dim, int64_t n, spira_dtype dtype,
                                    spira_matrix *A)
{
    if (!ctx || !A) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL context or output");
    *A = NULL;
    int64_t rows;
    SPIRA__TRY(spira__laplacian_check(ctx, dim, n, &rows));
    int64_t nnz = rows * (2 * dim + 1);
    SPIRA__TRY(spira__check_dims(ctx, rows, rows, nnz));
    spira__csr c = {0};
    c.nrows = c.ncols = (int32_t)rows;
    c.dtype = dtype;
    spira_status s = spira__alloc(ctx, (void **)&c.row_ptr, (size_t)rows + 1, sizeof(int32_t), "row pointers");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&c.col_idx, (size_t)nnz, sizeof(int32_t), "column indices");
    if (s == SPIRA_OK) s = spira__alloc(ctx, &c.val, (size_t)nnz, spira_dtype_size(dtype), "values");
    if (s != SPIRA_OK) {
        spira__csr_free(&c);
        return s;
    }
    int32_t k = 0;
    int64_t col[7];
    double val[7];
    for (int64_t r = 0; r < rows; r++) {
        c.row_ptr[r] = k;
        int len = spira__laplacian_row(dim, n, r, col, val);
        for (int j = 0; j < len; j++, k++) {
            c.col_idx[k] = (int32_t)col[j];
            spira__set(c.val, dtype, k, val[j]);
        }
    }
    c.row_ptr[rows] = k;
    c.nnz = k;
    return spira__matrix_wrap(ctx, &c, 1, A);
}

/* splitmix64 (Steele, Lea and Flood 2014): a counter-based stream, so edge k's draws do not
 * depend on who draws the others. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A bijection of [0, 2^scale): an odd multiplier, then a xor-shift, within scale bits. */
static int64_t scramble(int64_t x, int scale)
{
    const uint64_t mask = scale >= 64 ? ~0ull : (1ull << scale) - 1;
    uint64_t y = ((uint64_t)x * 0x9e3779b97f4a7c15ull) & mask;
    y ^= y >> ((scale + 1) / 2);
    return (int64_t)(((y * 0xd6e8feb86659fd93ull) & mask));
}

void spira__rmat_edge(int scale, uint64_t seed, int64_t k, int64_t *u, int64_t *v)
{
    /* Graph500: a = 0.57, b = 0.19, c = 0.19 (d = 0.05), one quadrant a level */
    uint64_t st = seed * 0x2545f4914f6cdd1dull ^ (uint64_t)k * 0x9e3779b97f4a7c15ull;
    int64_t r = 0, c = 0;
    for (int l = 0; l < scale; l++) {
        const double x = (double)(splitmix64(&st) >> 11) * 0x1p-53;
        const int down = x >= 0.57 + 0.19, right = (x >= 0.57 && x < 0.57 + 0.19) || x >= 0.95;
        r = 2 * r + down;
        c = 2 * c + right;
    }
    /* vertex numbers scrambled, as Graph500 does, so the high degrees are spread over
     * the numbering (and over the ranks' row blocks) */
    *u = scramble(r, scale);
    *v = scramble(c, scale);
}

spira_status spira__rmat_check(spira_context ctx, int scale, int edge_factor, spira_dtype dtype)
{
    if (dtype != SPIRA_R32 && dtype != SPIRA_R64)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown dtype %d", (int)dtype);
    if (scale < 1 || scale > 40 || edge_factor < 1 || edge_factor > 1024)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "R-MAT scale %d (1..40) and edge "
                            "factor %d (1..1024)", scale, edge_factor);
    return SPIRA_OK;
}

spira_status spira_matrix_rmat(spira_context ctx, int scale, int edge_factor, uint64_t seed,
                               spira_dtype dtype, spira_matrix *A)
{
    if (!ctx || !A) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL context or output");
    *A = NULL;
    SPIRA__TRY(spira__rmat_check(ctx, scale, edge_factor, dtype));
    const int64_t n = (int64_t)1 << scale, edges = (int64_t)edge_factor << scale;
    if (spira__check_dims(ctx, n, n, edges) != SPIRA_OK)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "R-MAT of 2^%d vertices and %lld edges "
                            "in one process: beyond 32-bit indices (2^31 - 1); "
                            "spira_dist_matrix_rmat makes it over several ranks", scale,
                            (long long)edges);
    int32_t *ri = NULL, *ci = NULL;
    spira_status s = spira__alloc(ctx, (void **)&ri, (size_t)edges, sizeof *ri, "R-MAT edges");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&ci, (size_t)edges, sizeof *ci, "R-MAT edges");
    if (s == SPIRA_OK) {
        /* each edge drawn from its own number: any split over threads makes the same edges */
#pragma omp parallel for schedule(static) if (edges > SPIRA__PARALLEL_ITEMS)
        for (int64_t k = 0; k < edges; k++) {
            int64_t u, v;
            spira__rmat_edge(scale, seed, k, &u, &v);
            ri[k] = (int32_t)u, ci[k] = (int32_t)v;
        }
    }
    spira__csr c;
    /* no values: each drawn edge counts one, repeats summed */
    if (s == SPIRA_OK) s = spira__csr_from_coo(ctx, n, n, edges, ri, ci, NULL, dtype, &c);
    spira__free(ri);
    spira__free(ci);
    return s == SPIRA_OK ? spira__matrix_wrap(ctx, &c, 0, A) : s;
}
