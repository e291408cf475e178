/* test_context.c - backend choice and fallback, status names, version. */
#include "testutil.h"

#include <string.h>

START_TEST(cpu_context)
{
    spira_context ctx;
    spira_context_opts o = {SPIRA_BACKEND_CPU, 0, 0};
    ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_OK);
    ck_assert_int_eq(spira_context_backend(ctx), SPIRA_BACKEND_CPU);
    ck_assert_ptr_nonnull(strstr(spira_context_device_name(ctx), "CPU"));
    ck_assert_int_eq(spira_context_synchronize(ctx), SPIRA_OK);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(auto_picks_a_backend)
{
    spira_context ctx;
    ck_assert_int_eq(spira_context_create(&ctx, NULL), SPIRA_OK);
    spira_backend b = spira_context_backend(ctx);
    ck_assert(b == SPIRA_BACKEND_CPU || b == SPIRA_BACKEND_CUDA);
    spira_context_destroy(ctx);
}
END_TEST

/* Asking for a device that cannot exist fails with a clear device error, never a crash. */
START_TEST(cuda_bad_device)
{
    spira_context ctx;
    spira_context_opts o = {SPIRA_BACKEND_CUDA, 4096, 0};
    ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_ERR_DEVICE);
    ck_assert_ptr_nonnull(ctx);
    ck_assert(strlen(spira_last_error(ctx)) > 10);
    ck_assert_int_eq(spira_context_backend(ctx), SPIRA_BACKEND_CPU);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(bad_backend_value)
{
    spira_context ctx;
    spira_context_opts o = {(spira_backend)42, 0, 0};
    ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_ERR_INVALID_ARG);
    spira_context_destroy(ctx);
    ck_assert_int_eq(spira_context_create(NULL, NULL), SPIRA_ERR_INVALID_ARG);
}
END_TEST

START_TEST(names)
{
    ck_assert_str_eq(spira_status_name(SPIRA_ERR_PARSE), "SPIRA_ERR_PARSE");
    ck_assert_str_eq(spira_status_name(SPIRA_OK), "SPIRA_OK");
    ck_assert_str_eq(spira_version(), "0.1.0");
    ck_assert_int_eq(spira_dtype_size(SPIRA_R32), 4);
    ck_assert_int_eq(spira_dtype_size(SPIRA_R64), 8);
    spira_context_destroy(NULL); /* accepted */
}
END_TEST

Suite *suite_context(void)
{
    Suite *s = suite_create("context");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, cpu_context);
    tcase_add_test(tc, auto_picks_a_backend);
    tcase_add_test(tc, cuda_bad_device);
    tcase_add_test(tc, bad_backend_value);
    tcase_add_test(tc, names);
    suite_add_tcase(s, tc);
    return s;
}
