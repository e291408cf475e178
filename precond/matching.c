/*
 * matching.c - the maximum-product transversal (Duff & Koster, "On algorithms for
 * permuting large entries to the diagonal of a sparse matrix", SIMAX 22(4), 2001: MC64's
 * job 5, without its scaling).
 *
 * Among the permutations that put a nonzero on every diagonal position, take the one with
 * the largest product of diagonal magnitudes. With c(i,j) = log max_k |a(i,k)| -
 * log |a(i,j)| >= 0 that is a linear assignment problem, min sum c(i, col(i)), solved here
 * by successive shortest augmenting paths: for each unmatched row, Dijkstra over
 * alternating paths with the reduced costs c(i,j) - u(i) - v(j), kept >= 0 by the dual
 * potentials u (rows) and v (columns) and zero on matched pairs, so every augmentation is
 * a shortest path and the final matching is optimal. A greedy pass first matches each row
 * to a free column holding its largest entry (cost 0, tight for u = v = 0), which leaves
 * few rows for the Dijkstra phase.
 */
#include "matching.h"

#include <math.h>

/* A binary min-heap of columns keyed by their tentative distance, with positions so a
 * decreased key is restored in place. */
typedef struct {
    int32_t *col;
    int32_t *pos; /* pos[j]: index of column j in col, -1 when absent */
    int32_t size;
    const double *key;
} col_heap;

static void heap_place(col_heap *h, int32_t i, int32_t j)
{
    h->col[i] = j;
    h->pos[j] = i;
}

static void heap_up(col_heap *h, int32_t i)
{
    int32_t j = h->col[i];
    while (i > 0 && h->key[h->col[(i - 1) / 2]] > h->key[j]) {
        heap_place(h, i, h->col[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    heap_place(h, i, j);
}

static int32_t heap_pop(col_heap *h)
{
    int32_t top = h->col[0], last = h->col[--h->size], i = 0;
    h->pos[top] = -1;
    if (h->size == 0) return top;
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= h->size) break;
        if (c + 1 < h->size && h->key[h->col[c + 1]] < h->key[h->col[c]]) c++;
        if (h->key[h->col[c]] >= h->key[last]) break;
        heap_place(h, i, h->col[c]);
        i = c;
    }
    heap_place(h, i, last);
    return top;
}

/* Insert column j, or move it up after its key decreased. */
static void heap_update(col_heap *h, int32_t j)
{
    if (h->pos[j] < 0) heap_place(h, h->size++, j);
    heap_up(h, h->pos[j]);
}

typedef struct {
    const int32_t *rp, *ci;
    const double *cost;        /* c(i,j) per entry; INFINITY for entries not to be used */
    double *u, *v, *dist;      /* row and column potentials; distance of each column */
    int32_t *row_match;        /* column matched to each row, -1 */
    int32_t *col_match;        /* row matched to each column, -1 */
    int32_t *pred;             /* the row from which each column was reached */
    int32_t *done;             /* column's distance is final in this search */
    int32_t *touched, ntouched;/* columns given a distance in this search (to reset) */
    col_heap heap;
} assignment;

static void scan_row(assignment *m, int32_t i, double d0)
{
    for (int32_t k = m->rp[i]; k < m->rp[i + 1]; k++) {
        int32_t j = m->ci[k];
        if (m->done[j] || m->cost[k] == INFINITY) continue;
        double rc = m->cost[k] - m->u[i] - m->v[j];
        double d = d0 + (rc > 0 ? rc : 0); /* rounding can leave a tight pair at -1e-16 */
        if (d < m->dist[j]) {
            if (m->dist[j] == INFINITY) m->touched[m->ntouched++] = j;
            m->dist[j] = d;
            m->pred[j] = i;
            heap_update(&m->heap, j);
        }
    }
}

/* Match row s along a shortest augmenting path; 0 when no free column can be reached. */
static int augment(assignment *m, int32_t s)
{
    m->ntouched = 0;
    scan_row(m, s, 0);
    int32_t end = -1;
    while (m->heap.size > 0) {
        int32_t j = heap_pop(&m->heap);
        m->done[j] = 1;
        if (m->col_match[j] < 0) {
            end = j;
            break;
        }
        scan_row(m, m->col_match[j], m->dist[j]);
    }
    if (end >= 0) {
        /* New potentials keep every reduced cost >= 0 and make the path's pairs tight:
         * a finished column j moves by dist(j) - L, its matched row by L - dist(j). */
        double len = m->dist[end];
        m->u[s] += len;
        for (int32_t t = 0; t < m->ntouched; t++) {
            int32_t j = m->touched[t];
            if (!m->done[j] || j == end) continue;
            m->v[j] += m->dist[j] - len;
            m->u[m->col_match[j]] += len - m->dist[j];
        }
        for (int32_t j = end;;) {
            int32_t i = m->pred[j], next = m->row_match[i];
            m->col_match[j] = i;
            m->row_match[i] = j;
            if (i == s) break;
            j = next;
        }
    }
    for (int32_t t = 0; t < m->ntouched; t++) {
        int32_t j = m->touched[t];
        m->dist[j] = INFINITY;
        m->done[j] = 0;
        m->heap.pos[j] = -1;
    }
    m->heap.size = 0;
    return end >= 0;
}

/* Largest finite |a(i,k)| of row i, 0 when there is none. */
static double row_max(const spira__csr *A, int32_t i)
{
    double big = 0;
    for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
        double a = fabs(spira__get(A->val, A->dtype, k));
        if (isfinite(a) && a > big) big = a;
    }
    return big;
}

/* MC64's scaling from the optimal duals: log |dr(i) a(i,j) dc(j)| = -(reduced cost) <= 0,
 * = 0 on the matching. All ones when some factor is not finite (extreme scales). */
static void dual_scaling(const spira__csr *A, const assignment *m, double *dr, double *dc)
{
    int ok = 1;
    for (int32_t i = 0; i < A->nrows; i++) {
        dr[i] = exp(m->u[i] - log(row_max(A, i)));
        dc[i] = exp(m->v[i]);
        ok = ok && isfinite(dr[i]) && isfinite(dc[i]) && dr[i] > 0 && dc[i] > 0;
    }
    for (int32_t i = 0; !ok && i < A->nrows; i++) dr[i] = dc[i] = 1;
}

spira_status spira__max_product_matching(spira_context ctx, const spira__csr *A,
                                         int32_t *row_of_col, double *dr, double *dc)
{
    size_t n = (size_t)A->nrows;
    if (n == 0) return SPIRA_OK;
    int32_t *iw = NULL;
    double *dw = NULL;
    spira_status s = spira__alloc(ctx, (void **)&iw, 7 * n, sizeof *iw, "matching (indices)");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&dw, 3 * n + (size_t)A->nnz, sizeof *dw,
                         "matching (costs)");
    if (s != SPIRA_OK) {
        spira__free(iw);
        return s;
    }
    assignment m = {.rp = A->row_ptr, .ci = A->col_idx, .u = dw, .v = dw + n,
                    .dist = dw + 2 * n, .row_match = iw, .col_match = iw + n, .pred = iw + 2 * n,
                    .done = iw + 3 * n, .touched = iw + 4 * n,
                    .heap = {.col = iw + 5 * n, .pos = iw + 6 * n, .key = dw + 2 * n}};
    double *cost = dw + 3 * n;
    m.cost = cost;
    for (size_t j = 0; j < n; j++) {
        m.u[j] = m.v[j] = 0;
        m.dist[j] = INFINITY;
        m.row_match[j] = m.col_match[j] = m.heap.pos[j] = -1;
        m.done[j] = 0;
    }
    int32_t bad_row = -1;
    for (int32_t i = 0; i < (int32_t)n && bad_row < 0; i++) {
        double big = row_max(A, i);
        if (big == 0) bad_row = i;
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            double a = fabs(spira__get(A->val, A->dtype, k));
            cost[k] = isfinite(a) && a > 0 ? log(big) - log(a) : INFINITY;
            if (cost[k] == 0 && m.row_match[i] < 0 && m.col_match[A->col_idx[k]] < 0) {
                m.row_match[i] = A->col_idx[k];
                m.col_match[A->col_idx[k]] = i;
            }
        }
    }
    for (int32_t i = 0; i < (int32_t)n && bad_row < 0; i++)
        if (m.row_match[i] < 0 && !augment(&m, i)) bad_row = i;
    if (bad_row >= 0)
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                         "A is structurally singular: no row permutation puts a nonzero on "
                         "every diagonal position (row %d, 1-based, finds no column)",
                         bad_row + 1);
    else
        for (size_t j = 0; j < n; j++) row_of_col[j] = m.col_match[j];
    if (bad_row < 0 && dr) dual_scaling(A, &m, dr, dc);
    spira__free(iw);
    spira__free(dw);
    return s;
}
