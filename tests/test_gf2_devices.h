/*
 * test_gf2_devices.h - GF(2) multiplies split over several devices (spira_gf2_matrix_
 * set_devices): the checks the CPU suite runs with N parts on the host (test_gf2_devices.c)
 * and the two-GPU program runs on devices (gpu_gf2_devices.c), each against the host
 * reference or the one-device run, the same bits.
 */
#ifndef SPIRA_TEST_GF2_DEVICES_H
#define SPIRA_TEST_GF2_DEVICES_H

#include "test_gf2_bw.h"

/* Every format variant and width on awkward shapes (rows fewer than parts, one dense row
 * among empty ones, a sieve-shaped matrix) split over ndev, against the triplets' XOR. */
void tu_gf2_devices_spmv(spira_context ctx, int ndev, unsigned seed);
/* a_i over ndev (square and wide A, n rows, every width) against the host reference. */
void tu_gf2_devices_krylov(spira_context ctx, int ndev, int32_t n, int64_t L, unsigned seed);
/* Block Wiedemann over ndev: the same vectors as over one device (every one checked). */
void tu_gf2_devices_kernel(spira_context ctx, int ndev, int32_t n, unsigned seed);
/* Each allocation (host and device) of set_devices, a multiply, a sequence and a block
 * search over ndev fails in turn: NOMEM, nothing leaked. */
void tu_gf2_devices_alloc_walk(spira_context ctx, int ndev);

Suite *suite_gf2_devices(void);

#endif
