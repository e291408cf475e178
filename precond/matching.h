/*
 * matching.h - a row permutation that puts large nonzeros on the whole diagonal, for
 * factorizations of matrices with zero diagonal entries (ilu0.c).
 */
#ifndef SPIRA_MATCHING_H
#define SPIRA_MATCHING_H

#include "spira_impl.h"

/* Maximum-product transversal of square A: row_of_col[j] = the row whose entry in column
 * j goes to the diagonal, chosen so that every (PA)(j,j) is nonzero and their product of
 * magnitudes is largest. Entries that are zero or not finite are not used. With dr and dc
 * (n each, or both NULL) also MC64's scaling: |dr(i) a(i,j) dc(j)| <= 1, = 1 on the
 * matched entries. SPIRA_ERR_INVALID_ARG when A is structurally singular (no such
 * permutation), naming an unmatched row; SPIRA_ERR_NOMEM. */
spira_status spira__max_product_matching(spira_context ctx, const spira__csr *A,
                                         int32_t *row_of_col, double *dr, double *dc);

#endif
