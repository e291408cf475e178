/*
 * isai.h - incomplete sparse approximate inverses of an incomplete LU factor (isai.c):
 * what spira_solve_opts.trisolve = SPIRA_TRISOLVE_ISAI applies instead of the triangular
 * solves.
 */
#ifndef SPIRA_ISAI_H
#define SPIRA_ISAI_H

#include "ilu.h"

/* ml ~ L^-1 P (L's pattern, its columns taken through f->perm: ml r approximates
 * L^-1 P r) and mu ~ U^-1 (U's pattern; for an IC(0) factor mu = ml^T D^-1), canonical
 * host CSRs in f's dtype through spira__alloc. SPIRA_ERR_UNSUPPORTED naming the row when a
 * row of L or U has more than SPIRA_ISAI_MAX_ROW entries; on failure nothing is left. */
spira_status spira__isai_build(const spira__ilu_factor *f, spira__csr *ml, spira__csr *mu);

#endif
