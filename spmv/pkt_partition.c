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
 * (The ordering itself is lib/reorder.c's, shared with the solvers' reorder option.)
 * RCM gives a small bandwidth, so a block's neighbours are mostly within the block or the
 * two blocks beside it: good for meshes, never as good as METIS on irregular graphs.
 *
 * The partition stays on the host when the other conversions moved to the GPU: METIS is a
 * host library, and RCM is a breadth-first search whose order depends on every level before
 * it (a level-synchronous GPU search would give another order, hence other packets). Its
 * cost and the packing's are in the plan's stats ("host ms: partition, packets"), which
 * spira-spmv prints; the README has the measured figures.
 */
#include "pkt.h"

#include <string.h>
#ifdef HAVE_METIS
#include <metis.h>
#endif

static spira_status rcm_blocks(spira_context ctx, const spira__csr *A, int32_t target,
                               int32_t *part, int32_t *nparts)
{
    int32_t n = A->nrows, *perm = NULL;
    SPIRA__TRY(spira__alloc(ctx, (void **)&perm, (size_t)n + 1, sizeof *perm, "RCM permutation"));
    spira_status s = spira__csr_rcm(ctx, A, perm);
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
    *st = spira__csr_sym_graph(ctx, A, &xadj, &adj);
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
