/*
 * threads.c - how many OpenMP threads a host pass gets, and which one this is (the CSR
 * builders' rules, csr.c); SPIRA__PARALLEL_ITEMS also decides the plain parallel loops of
 * csr.c and precond/ilu.c.
 */
#include "spira_impl.h"

#ifdef _OPENMP
#include <omp.h>
#endif

void spira__team(int *t, int *n)
{
#ifdef _OPENMP
    *t = omp_get_thread_num(), *n = omp_get_num_threads();
#else
    *t = 0, *n = 1;
#endif
}

int spira__threads_for(int64_t items, int64_t room)
{
    if (items < SPIRA__PARALLEL_ITEMS) return 1;
#ifdef _OPENMP
    int64_t t = omp_get_max_threads();
#else
    int64_t t = 1;
#endif
    const int64_t cap = items / (room > 0 ? room : 1);
    if (t > cap) t = cap;
    return t < 1 ? 1 : (int)t;
}
