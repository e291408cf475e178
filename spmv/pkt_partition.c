/*
 * pkt_partition.c - the row partition behind the packet format (pkt.c): rows of a square
 * matrix split into parts whose nonzeros mostly stay inside the part, i.e. a graph
 * partition of the symmetrized pattern of A (edge i-j when a_ij or a_ji is stored,
 * diagonal dropped) that cuts few edges.
 *
 * With METIS (HAVE_METIS): METIS_PartGraphKway into ceil(n / (0.9 target)) parts (METIS
 * balances to within a few percent; pkt.c splits any part that still exceeds its cap), fixed
 * seed so a matrix always gets the same packets. Without it, or when asked
 * ("partition=rcm"), or when METIS fails: the documented fallback, reverse Cuthill-McKee
 * (breadth-first from a pseudo-peripheral vertex of each component, neighbours in
 * increasing degree, the whole order reversed) cut into contiguous blocks of target rows.
 * RCM gives a small bandwidth, so a block's neighbours are mostly within the block or the
 * two blocks beside it: good for meshes, never as good as METIS on irregular graphs.
 */
#include "pkt.h"

#include <string.h>
#ifdef HAVE_METIS
#include <metis.h>
#endif

/* Symmetrized pattern without the diagonal: rows xadj[i] .. xadj[i+1] of adj, sorted. */
static spira_status sym_graph(spira_context ctx, const spira__csr *A, int32_t **xadj_out,
                              int32_t **adj_out)
{
    int32_t n = A->nrows;
    spira__csr T = {0};
    int32_t *xadj = NULL, *adj = NULL;
    *xadj_out = *adj_out = NULL;
    spira_status s = spira__csr_transpose(ctx, A, &T);
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&xadj, (size_t)n + 1, sizeof *xadj, "PKT graph");
    /* pass 0 counts, pass 1 fills: a merge of row i of A and of A^T */
    int64_t total = 0;
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
                                 "pkt refuses the matrix: its symmetrized graph has %lld edges, "
                                 "over the 32-bit limit", (long long)k);
                break;
            }
            total = k;
            xadj[n] = (int32_t)k;
            s = spira__alloc(ctx, (void **)&adj, (size_t)(total ? total : 1), sizeof *adj,
                             "PKT graph edges");
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

spira_status spira__pkt_rcm(spira_context ctx, const spira__csr *A, int32_t *perm)
{
    int32_t n = A->nrows, *xadj = NULL, *adj = NULL, *deg = NULL, *mark = NULL, *q = NULL;
    int32_t *bydeg = NULL;
    char *done = NULL;
    spira_status s = sym_graph(ctx, A, &xadj, &adj);
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&deg, (size_t)n + 1, sizeof *deg, "RCM degrees");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&mark, (size_t)n + 1, sizeof *mark, "RCM marks");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&q, (size_t)n + 1, sizeof *q, "RCM queue");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&bydeg, (size_t)n + 1, sizeof *bydeg, "RCM order");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&done, (size_t)n + 1, 1, "RCM flags");
    if (s == SPIRA_OK) {
        memset(done, 0, (size_t)n + 1);
        for (int32_t i = 0; i < n; i++) {
            deg[i] = xadj[i + 1] - xadj[i];
            mark[i] = -1;
            bydeg[i] = i;
        }
        sort_by_degree(bydeg, n, deg);
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

static spira_status rcm_blocks(spira_context ctx, const spira__csr *A, int32_t target,
                               int32_t *part, int32_t *nparts)
{
    int32_t n = A->nrows, *perm = NULL;
    SPIRA__TRY(spira__alloc(ctx, (void **)&perm, (size_t)n + 1, sizeof *perm, "RCM permutation"));
    spira_status s = spira__pkt_rcm(ctx, A, perm);
    if (s == SPIRA_OK) {
        for (int32_t k = 0; k < n; k++) part[perm[k]] = k / target;
        *nparts = (int32_t)(((int64_t)n + target - 1) / target);
    }
    spira__free(perm);
    return s;
}

#ifdef HAVE_METIS
/* METIS k-way; returns 0 (and leaves part alone) when METIS cannot or did not run. */
static int metis_parts(spira_context ctx, const spira__csr *A, int32_t target, int32_t *part,
                       int32_t *nparts, spira_status *st)
{
    int32_t n = A->nrows, *xadj = NULL, *adj = NULL;
    *st = SPIRA_OK;
    int64_t want = ((int64_t)n * 10 + 9 * (int64_t)target - 1) / (9 * (int64_t)target);
    if (want < 2 || want > n) return 0; /* one part, or tinier parts than rows: no graph work */
    *st = sym_graph(ctx, A, &xadj, &adj);
    if (*st != SPIRA_OK) return 0;
    idx_t *ixadj = NULL, *iadj = NULL, *ipart = NULL;
    int ok = 0;
    if (xadj[n] > 0 &&
        spira__alloc(ctx, (void **)&ixadj, (size_t)n + 1, sizeof *ixadj, "METIS graph") == SPIRA_OK &&
        spira__alloc(ctx, (void **)&iadj, (size_t)xadj[n], sizeof *iadj, "METIS edges") == SPIRA_OK &&
        spira__alloc(ctx, (void **)&ipart, (size_t)n, sizeof *ipart, "METIS parts") == SPIRA_OK) {
        for (int32_t i = 0; i <= n; i++) ixadj[i] = xadj[i];
        for (int32_t k = 0; k < xadj[n]; k++) iadj[k] = adj[k];
        idx_t nv = n, ncon = 1, np = (idx_t)want, objval = 0, opt[METIS_NOPTIONS];
        METIS_SetDefaultOptions(opt);
        opt[METIS_OPTION_SEED] = 1;
        opt[METIS_OPTION_NUMBERING] = 0;
        if (METIS_PartGraphKway(&nv, &ncon, ixadj, iadj, NULL, NULL, NULL, &np, NULL, NULL, opt,
                                &objval, ipart) == METIS_OK) {
            for (int32_t i = 0; i < n; i++) part[i] = (int32_t)ipart[i];
            *nparts = (int32_t)want;
            ok = 1;
        }
    }
    /* an allocation failure above is a real error; a METIS failure falls back to RCM */
    if (!ok && (!ixadj || !iadj || !ipart) && xadj[n] > 0) *st = SPIRA_ERR_NOMEM;
    spira__free(ixadj);
    spira__free(iadj);
    spira__free(ipart);
    spira__free(xadj);
    spira__free(adj);
    return ok;
}
#endif

spira_status spira__pkt_partition(spira_context ctx, const spira__csr *A, int32_t target,
                                  int use_metis, int32_t *part, int32_t *nparts,
                                  int *used_metis)
{
    *used_metis = 0;
    *nparts = 0;
    if (A->nrows == 0) return SPIRA_OK;
#ifdef HAVE_METIS
    if (use_metis) {
        spira_status s;
        if (metis_parts(ctx, A, target, part, nparts, &s)) {
            *used_metis = 1;
            return SPIRA_OK;
        }
        if (s != SPIRA_OK) return s;
    }
#else
    (void)use_metis;
#endif
    return rcm_blocks(ctx, A, target, part, nparts);
}
