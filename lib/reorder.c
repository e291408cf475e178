/*
 * reorder.c - symmetric orderings of a square host CSR and the permutation P A P^T they
 * define: reverse Cuthill-McKee on the symmetrized pattern (the solvers' locality option
 * and PKT's partition share this one implementation), rows by decreasing length, the
 * permuted matrix itself and its bandwidth.
 *
 * Convention everywhere: perm[k] is the old row placed at position k, so
 * B = P A P^T has B(k, l) = A(perm[k], perm[l]) and (P x)[k] = x[perm[k]].
 */
#include "spira_impl.h"

#include <string.h>

spira_status spira__csr_sym_graph(spira_context ctx, const spira__csr *A, int32_t **xadj_out,
                                  int32_t **adj_out)
{
    int32_t n = A->nrows;
    spira__csr T = {0};
    int32_t *xadj = NULL, *adj = NULL;
    *xadj_out = *adj_out = NULL;
    spira_status s = spira__csr_transpose(ctx, A, &T);
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&xadj, (size_t)n + 1, sizeof *xadj, "symmetrized graph");
    /* pass 0 counts, pass 1 fills: a merge of row i of A and of A^T */
    for (int pass = 0; pass < 2 && s == SPIRA_OK; pass++) {
        int64_t k = 0;
        for (int32_t i = 0; i < n; i++) {
            if (pass == 0) xadj[i] = (int32_t)k;
            int32_t a = A->row_ptr[i], ae = A->row_ptr[i + 1];
            int32_t b = T.row_ptr[i], be = T.row_ptr[i + 1];
            while (a < ae || b < be) {
                int32_t ja = a < ae ? A->col_idx[a] : INT32_MAX;
                int32_t jb = b < be ? T.col_idx[b] : INT32_MAX;
                int32_t j = ja < jb ? ja : jb;
                if (ja == j) a++;
                if (jb == j) b++;
                if (j == i) continue;
                if (pass == 1) adj[k] = j;
                k++;
            }
        }
        if (pass == 0) {
            if (k > INT32_MAX) {
                s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                                 "the symmetrized graph of A has %lld edges, over the 32-bit "
                                 "limit", (long long)k);
                break;
            }
            xadj[n] = (int32_t)k;
            s = spira__alloc(ctx, (void **)&adj, (size_t)(k ? k : 1), sizeof *adj,
                             "symmetrized graph edges");
        }
    }
    spira__csr_free(&T);
    if (s != SPIRA_OK) {
        spira__free(xadj);
        spira__free(adj);
        return s;
    }
    *xadj_out = xadj;
    *adj_out = adj;
    return SPIRA_OK;
}

/* Sort v[0..n) by increasing deg[v] (ties by index), in place: a heap sort, since C's qsort
 * takes no context and a hub vertex may have very many neighbours. */
static int deg_less(const int32_t *deg, int32_t a, int32_t b)
{
    return deg[a] < deg[b] || (deg[a] == deg[b] && a < b);
}
static void sift(int32_t *v, int32_t root, int32_t n, const int32_t *deg)
{
    for (;;) {
        int32_t c = 2 * root + 1;
        if (c >= n) return;
        if (c + 1 < n && deg_less(deg, v[c], v[c + 1])) c++;
        if (!deg_less(deg, v[root], v[c])) return;
        int32_t t = v[root];
        v[root] = v[c];
        v[c] = t;
        root = c;
    }
}
static void sort_by_degree(int32_t *v, int32_t n, const int32_t *deg)
{
    if (n <= 16) { /* a BFS step's new neighbours, mostly: insertion sort */
        for (int32_t i = 1; i < n; i++) {
            int32_t x = v[i], j = i;
            for (; j > 0 && deg_less(deg, x, v[j - 1]); j--) v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    for (int32_t i = n / 2 - 1; i >= 0; i--) sift(v, i, n, deg);
    for (int32_t end = n - 1; end > 0; end--) {
        int32_t t = v[0];
        v[0] = v[end];
        v[end] = t;
        sift(v, 0, end, deg);
    }
}

/* Breadth-first search from s over unvisited vertices (done[v] == 0) appending to q;
 * sorted: neighbours of each vertex in increasing degree (the Cuthill-McKee rule).
 * mark/stamp keep the search's own visits apart from done. Returns the vertex count;
 * *last_level gets the start of the last level in q. */
static int32_t bfs(const int32_t *xadj, const int32_t *adj, const int32_t *deg, const char *done,
                   int32_t *mark, int32_t stamp, int32_t s, int32_t *q, int sorted,
                   int32_t *last_level)
{
    int32_t head = 0, tail = 0, level_end = 1;
    q[tail++] = s;
    mark[s] = stamp;
    *last_level = 0;
    while (head < tail) {
        if (head == level_end) { /* a new level starts here */
            *last_level = head;
            level_end = tail;
        }
        int32_t v = q[head++], t0 = tail;
        for (int32_t k = xadj[v]; k < xadj[v + 1]; k++) {
            int32_t w = adj[k];
            if (done[w] || mark[w] == stamp) continue;
            mark[w] = stamp;
            q[tail++] = w;
        }
        if (sorted) sort_by_degree(q + t0, tail - t0, deg);
    }
    return tail;
}

spira_status spira__csr_rcm(spira_context ctx, const spira__csr *A, int32_t *perm)
{
    int32_t n = A->nrows, *xadj = NULL, *adj = NULL, *deg = NULL, *mark = NULL, *q = NULL;
    int32_t *bydeg = NULL;
    char *done = NULL;
    spira_status s = spira__csr_sym_graph(ctx, A, &xadj, &adj);
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&deg, (size_t)n + 1, sizeof *deg, "RCM degrees");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&mark, (size_t)n + 1, sizeof *mark, "RCM marks");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&q, (size_t)n + 1, sizeof *q, "RCM queue");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&bydeg, (size_t)n + 1, sizeof *bydeg, "RCM order");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&done, (size_t)n + 1, 1, "RCM flags");
    if (s == SPIRA_OK) {
        memset(done, 0, (size_t)n + 1);
        /* bydeg: the vertices by increasing degree, ties by index (deg_less's order), by a
         * counting sort (q holds the buckets' starts: a degree is below n, the graph having
         * no loops and no repeated edges) */
        memset(q, 0, ((size_t)n + 1) * sizeof *q);
        for (int32_t i = 0; i < n; i++) {
            deg[i] = xadj[i + 1] - xadj[i];
            mark[i] = -1;
            q[deg[i] + 1]++;
        }
        for (int32_t d = 0; d < n; d++) q[d + 1] += q[d];
        for (int32_t i = 0; i < n; i++) bydeg[q[deg[i]]++] = i;
        /* The first unvisited vertex in increasing-degree order has the least degree of
         * its component: start there, then move once to a least-degree vertex of the
         * farthest level (one George-Liu step towards a pseudo-peripheral vertex). */
        int32_t filled = 0, stamp = 0;
        for (int32_t k = 0; k < n; k++) {
            int32_t v = bydeg[k];
            if (done[v]) continue;
            int32_t last, cnt = bfs(xadj, adj, deg, done, mark, stamp++, v, q, 0, &last);
            int32_t start = v;
            for (int32_t t = last; t < cnt; t++)
                if (deg_less(deg, q[t], start) || start == v) start = q[t];
            cnt = bfs(xadj, adj, deg, done, mark, stamp++, start, perm + filled, 1, &last);
            for (int32_t t = 0; t < cnt; t++) done[perm[filled + t]] = 1;
            filled += cnt;
        }
        for (int32_t i = 0; i < n / 2; i++) { /* reverse: Cuthill-McKee -> RCM */
            int32_t t = perm[i];
            perm[i] = perm[n - 1 - i];
            perm[n - 1 - i] = t;
        }
    }
    spira__free(xadj);
    spira__free(adj);
    spira__free(deg);
    spira__free(mark);
    spira__free(q);
    spira__free(bydeg);
    spira__free(done);
    return s;
}

/* A counting sort on the row length, longest first: stable, O(n + longest row). */
spira_status spira__csr_degree_order(spira_context ctx, const spira__csr *A, int32_t *perm)
{
    int32_t n = A->nrows, longest = 0, *start = NULL;
    for (int32_t i = 0; i < n; i++) {
        int32_t len = A->row_ptr[i + 1] - A->row_ptr[i];
        if (len > longest) longest = len;
    }
    SPIRA__TRY(spira__alloc(ctx, (void **)&start, (size_t)longest + 2, sizeof *start,
                            "degree ordering buckets"));
    memset(start, 0, ((size_t)longest + 2) * sizeof *start);
    /* bucket d = longest - len, so bucket 0 holds the longest rows */
    for (int32_t i = 0; i < n; i++) start[longest - (A->row_ptr[i + 1] - A->row_ptr[i]) + 1]++;
    for (int32_t d = 0; d <= longest; d++) start[d + 1] += start[d];
    for (int32_t i = 0; i < n; i++)
        perm[start[longest - (A->row_ptr[i + 1] - A->row_ptr[i])]++] = i;
    spira__free(start);
    return SPIRA_OK;
}

spira_status spira__csr_permute(spira_context ctx, const spira__csr *A, const int32_t *perm,
                                spira__csr *B)
{
    memset(B, 0, sizeof *B);
    const int32_t n = A->nrows;
    const size_t vs = spira_dtype_size(A->dtype);
    int32_t *inv = NULL;
    /* U: row k is row perm[k] of A with its columns renumbered, so out of order; two
     * counting-sort transposes (each writes its rows in increasing column order) make it
     * canonical in O(nnz), with no sort */
    spira__csr U = {.nrows = n, .ncols = n, .nnz = A->nnz, .dtype = A->dtype}, T = {0};
    spira_status s =
        spira__alloc(ctx, (void **)&inv, (size_t)n + 1, sizeof *inv, "inverse permutation");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&U.row_ptr, (size_t)n + 1, sizeof *U.row_ptr,
                         "permuted rows");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&U.col_idx, (size_t)A->nnz + 1, sizeof *U.col_idx,
                         "permuted columns");
    if (s == SPIRA_OK) s = spira__alloc(ctx, &U.val, (size_t)A->nnz + 1, vs, "permuted values");
    if (s == SPIRA_OK) {
        for (int32_t k = 0; k < n; k++) inv[perm[k]] = k;
        U.row_ptr[0] = 0;
        for (int32_t k = 0; k < n; k++) {
            int32_t b = A->row_ptr[perm[k]], e = A->row_ptr[perm[k] + 1], o = U.row_ptr[k];
            for (int32_t t = b; t < e; t++) U.col_idx[o + t - b] = inv[A->col_idx[t]];
            memcpy((char *)U.val + (size_t)o * vs, (const char *)A->val + (size_t)b * vs,
                   (size_t)(e - b) * vs);
            U.row_ptr[k + 1] = o + e - b;
        }
        s = spira__csr_transpose(ctx, &U, &T);
    }
    spira__csr_free(&U);
    spira__free(inv);
    if (s == SPIRA_OK) s = spira__csr_transpose(ctx, &T, B);
    spira__csr_free(&T);
    return s;
}

spira_status spira__csr_reorder(spira_context ctx, const spira__csr *A, spira_reorder kind,
                                int32_t *perm, spira__csr *B)
{
    memset(B, 0, sizeof *B);
    if (kind == SPIRA_REORDER_RCM) SPIRA__TRY(spira__csr_rcm(ctx, A, perm));
    else if (kind == SPIRA_REORDER_DEGREE) SPIRA__TRY(spira__csr_degree_order(ctx, A, perm));
    else
        for (int32_t k = 0; k < A->nrows; k++) perm[k] = k;
    return spira__csr_permute(ctx, A, perm, B);
}

spira_status spira_matrix_reorder(spira_matrix A, spira_reorder kind, int32_t *perm_out,
                                  spira_matrix *PA)
{
    if (!A || !PA) return SPIRA_ERR_INVALID_ARG;
    *PA = NULL;
    spira_context ctx = A->ctx;
    if (kind != SPIRA_REORDER_NONE && kind != SPIRA_REORDER_RCM && kind != SPIRA_REORDER_DEGREE)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "spira_matrix_reorder: ordering %d is "
                            "none of SPIRA_REORDER_NONE, _RCM, _DEGREE", (int)kind);
    if (A->csr.nrows != A->csr.ncols)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "spira_matrix_reorder needs a square matrix; this one is %d x %d",
                            A->csr.nrows, A->csr.ncols);
    int32_t *perm = NULL;
    spira__csr B;
    SPIRA__TRY(spira__alloc(ctx, (void **)&perm, (size_t)A->csr.nrows + 1, sizeof *perm,
                            "permutation"));
    spira_status s = spira__csr_reorder(ctx, &A->csr, kind, perm, &B);
    if (s == SPIRA_OK && perm_out) memcpy(perm_out, perm, (size_t)A->csr.nrows * sizeof *perm);
    spira__free(perm);
    if (s != SPIRA_OK) {
        spira__csr_free(&B);
        return s;
    }
    return spira__matrix_wrap(ctx, &B, A->symmetric, PA);
}

int32_t spira__csr_bandwidth(const spira__csr *A)
{
    /* the columns of a canonical row are sorted: its first and last are its extremes */
    int32_t band = 0;
    for (int32_t i = 0; i < A->nrows; i++) {
        if (A->row_ptr[i] == A->row_ptr[i + 1]) continue;
        int32_t lo = i - A->col_idx[A->row_ptr[i]], hi = A->col_idx[A->row_ptr[i + 1] - 1] - i;
        if (lo > band) band = lo;
        if (hi > band) band = hi;
    }
    return band;
}
