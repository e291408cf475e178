/*
 * main.c - the CPU test runner: one Check suite per module, run in Check's fork mode.
 */
#include "test_gf2_bw.h"
#include "test_gf2_devices.h"
#include "testutil.h"

#include <stdlib.h>

int main(void)
{
    Suite *(*suites[])(void) = {suite_context,     suite_csr,     suite_blas,    suite_mmio,
                                suite_spmv,        suite_formats, suite_pkt,     suite_faults,
                                suite_threads,     suite_determinism,            suite_solvers,
                                suite_krylov,      suite_eigen,   suite_ilu,     suite_gf2,
                                suite_gf2_bw,      suite_gf2_devices, suite_property,              suite_cg_graph,
                                suite_reorder,     suite_isai};
    tu_seed();
    SRunner *sr = srunner_create(NULL);
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
        srunner_add_suite(sr, suites[i]());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
