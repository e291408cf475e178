/*
 * gpu_gf2_devices.c - GF(2) over two GPUs or more (check_gpu_devices): the multiply, the
 * Krylov sequence and block Wiedemann split over 2 devices (and all of them, when more are
 * present) against the host reference and the one-device run, outputs poisoned; more devices
 * than present refused; each allocation failing in turn, on either device. Runs unforked
 * (CUDA does not survive a fork); exits 77 (SKIP) with fewer than two devices.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_gf2_devices.h"
#include "cuda/gateway.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static spira_context gpu;
static int ndevices;

START_TEST(gpu_gf2_devices_spmv)
{
    tu_gf2_devices_spmv(gpu, 2, tu_seed());
    if (ndevices > 2) tu_gf2_devices_spmv(gpu, ndevices, tu_seed() + 1);
}
END_TEST

START_TEST(gpu_gf2_devices_krylov)
{
    tu_gf2_devices_krylov(gpu, 2, 40000, 12, tu_seed());
    tu_gf2_devices_krylov(gpu, 2, 301, 9, tu_seed() + 1); /* a part's rows under a warp's */
    /* four chunks a device, and eight */
    ck_assert_int_eq(setenv("SPIRA_GF2_CHUNKS", "4", 1), 0);
    tu_gf2_devices_krylov(gpu, 2, 40000, 6, tu_seed() + 2);
    ck_assert_int_eq(setenv("SPIRA_GF2_CHUNKS", "8", 1), 0);
    tu_gf2_devices_krylov(gpu, 2, 40000, 6, tu_seed() + 3);
    tu_gf2_devices_spmv(gpu, 2, tu_seed() + 4);
    unsetenv("SPIRA_GF2_CHUNKS");
    if (ndevices > 2) tu_gf2_devices_krylov(gpu, ndevices, 40000, 6, tu_seed() + 5);
}
END_TEST

/* two GPUs against one, and against the CPU backend's bits (the same seed, exact steps) */
START_TEST(gpu_gf2_devices_kernel)
{
    const int32_t n = 5000, m = n - 40;
    tu_gf2_devices_kernel(gpu, 2, n, tu_seed());
    tu_triplets T;
    tu_gf2_wide_triplets(m, n, 6, tu_seed(), &T);
    spira_context cpu = tu_cpu();
    uint64_t *Kc = malloc((size_t)n * 8), *Kg = malloc((size_t)n * 8);
    spira_status sc, sg;
    spira_gf2_kernel_info ic = tu_gf2_kernel_run(cpu, m, n, &T, "csr", SPIRA_GF2_KERNEL_BLOCK,
                                                 tu_seed(), -1, Kc, &sc);
    tu_gf2_devices = 2;
    spira_gf2_kernel_info ig = tu_gf2_kernel_run(gpu, m, n, &T, "sliced-coo",
                                                 SPIRA_GF2_KERNEL_BLOCK, tu_seed(), -1, Kg, &sg);
    tu_gf2_devices = 1;
    ck_assert_int_eq(sc, SPIRA_OK);
    ck_assert_int_eq(sg, sc);
    ck_assert(ic.lanes == ig.lanes);
    ck_assert_msg(!memcmp(Kc, Kg, (size_t)n * 8), "two GPUs: another K than the CPU's");
    free(Kc), free(Kg);
    tu_triplets_free(&T);
    spira_context_destroy(cpu);
}
END_TEST

START_TEST(gpu_gf2_devices_bad)
{
    int32_t r[] = {0}, c[] = {0};
    spira_gf2_matrix M;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(gpu, 1, 1, 1, r, c, &M), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_matrix_set_devices(M, ndevices + 1), SPIRA_ERR_INVALID_ARG);
    char want[64];
    snprintf(want, sizeof want, "%d devices asked, %d present", ndevices + 1, ndevices);
    tu_assert_error_has(gpu, want);
    ck_assert_int_eq(spira_gf2_matrix_set_devices(M, 0), SPIRA_ERR_INVALID_ARG);
    spira_gf2_matrix_destroy(M);
}
END_TEST

START_TEST(gpu_gf2_devices_alloc_failures)
{
    tu_gf2_devices_alloc_walk(gpu, 2);
}
END_TEST

int main(void)
{
    ndevices = spira__cuda_device_count();
    if (ndevices < 2) {
        printf("skipped: %d CUDA devices, the multi-device suite needs 2\n", ndevices);
        return 77;
    }
    spira_context_opts o = {.backend = SPIRA_BACKEND_CUDA, .device = 0};
    if (spira_context_create(&gpu, &o) != SPIRA_OK) {
        printf("skipped: no CUDA context: %s\n", spira_last_error(gpu));
        spira_context_destroy(gpu);
        return 77;
    }
    tu_seed();
    Suite *s = suite_create("gf2 devices (GPU)");
    TCase *tc = tcase_create("GF(2) over GPUs");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, gpu_gf2_devices_spmv);
    tcase_add_test(tc, gpu_gf2_devices_krylov);
    tcase_add_test(tc, gpu_gf2_devices_kernel);
    tcase_add_test(tc, gpu_gf2_devices_bad);
    tcase_add_test(tc, gpu_gf2_devices_alloc_failures);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    spira_context_destroy(gpu);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
