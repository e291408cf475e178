/*
 * reorder.h - a matrix in a locality ordering for the solvers (reorder.c): P A P^T and the
 * permutations that move vectors in and out of it, built once per (matrix, ordering) and
 * cached in A like a plan, so every solve and every right-hand side after the first pays
 * nothing for it.
 */
#ifndef SPIRA_REORDER_H
#define SPIRA_REORDER_H

#include "spira_impl.h"

typedef struct {
    spira_context ctx;
    spira_reorder kind;
    spira_matrix PA;       /* P A P^T, whose format follows A's (auto: its own choice) */
    int32_t *perm;         /* where ctx computes: (P x)[k] = x[perm[k]] */
    int32_t *iperm;        /* its inverse: x[i] = (P x)[iperm[i]] */
    int32_t *host_perm;    /* perm on the host (messages name A's rows, not PA's) */
    int64_t band_before;   /* max |i - j| over A's entries */
    int64_t band_after;    /* and over PA's */
} spira__reordered;

/* A's matrix in ordering kind (not SPIRA_REORDER_NONE) from A's cache, or built and cached
 * now; *paid_ms gets what building it took now (0 when cached). PA's format is made to
 * follow A's. A must be square. */
spira_status spira__reordered_get(spira_matrix A, spira_reorder kind, spira__reordered **R,
                                  double *paid_ms);
/* The answer pv of a solve on R->PA into v in A's numbering (v[i] = pv[iperm[i]]), unless
 * the solve failed before (or while) iterating, *reason SPIRA_STOPPED_ERROR, when v stays as
 * it was; a failure here sets that reason. s: the solve's status, returned unless this
 * fails. */
spira_status spira__reordered_back(const spira__reordered *R, spira_status s, spira_reason *reason,
                                   spira_vector pv, spira_vector v);
/* What the reordering did, into any of the solvers' info structs (the same four fields). */
#define SPIRA__REORDER_REPORT(info, R, paid_ms)                                           \
    ((info)->reorder = (R)->kind, (info)->reorder_ms = (paid_ms),                         \
     (info)->bandwidth_before = (R)->band_before, (info)->bandwidth_after = (R)->band_after)

/* "none", "rcm", "degree" (NULL for a value out of range). */
const char *spira__reorder_name(spira_reorder kind);

#endif
