/*
 * csr_vector.c - the csr-vector width rule (see csr_vector.h).
 */
#include "csr_vector.h"

int spira__csr_vector_lanes(double mean_row)
{
    int v = 2;
    while (v < 32 && v < mean_row) v *= 2;
    return v;
}
