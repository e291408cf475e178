/* test_context.c - backend choice and fallback, status names, version. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

START_TEST(cpu_context)
{
    spira_context ctx;
    spira_context_opts o = {.backend = SPIRA_BACKEND_CPU};
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
    spira_context_opts o = {.backend = SPIRA_BACKEND_CUDA, .device = 4096};
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
    spira_context_opts o = {.backend = (spira_backend)42};
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

/* AUTO on a machine without a usable GPU says why in the device name. */
START_TEST(auto_says_why_cpu)
{
    spira_context ctx;
    ck_assert_int_eq(spira_context_create(&ctx, NULL), SPIRA_OK);
    if (spira_context_backend(ctx) == SPIRA_BACKEND_CPU) {
        ck_assert_ptr_nonnull(strstr(spira_context_device_name(ctx), "; CUDA not used: "));
        ck_assert_str_eq(spira_last_error(ctx), ""); /* the creation did not fail */
    }
    spira_context_destroy(ctx);
}
END_TEST

/* The budget: a vector or a matrix larger than max_bytes is refused before it is made,
 * naming the need, what for and the limit, and nothing leaks. */
START_TEST(budget_refuses_before_allocating)
{
    spira_context ctx;
    spira_context_opts o = {.backend = SPIRA_BACKEND_CPU, .max_bytes = 1 << 20};
    ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_OK);
    size_t host = 0, dev = 1;
    ck_assert_int_eq(spira_context_budget(ctx, &host, &dev), SPIRA_OK);
    ck_assert_uint_eq(host, 1 << 20);
    ck_assert_uint_eq(dev, 0);
    long live = spira__alloc_live();
    spira_vector v = NULL;
    ck_assert_int_eq(spira_vector_create(ctx, 1000000, SPIRA_R64, &v), SPIRA_ERR_NOMEM);
    ck_assert_ptr_null(v);
    tu_assert_error_has(ctx, "vector values would need 8000000 bytes");
    tu_assert_error_has(ctx, "limit of 1048576 bytes");
    tu_assert_error_has(ctx, "max_bytes");
    ck_assert_int_eq(spira__alloc_live(), live);
    ck_assert_int_eq(spira_vector_create(ctx, 100000, SPIRA_R64, &v), SPIRA_OK); /* 800 kB */
    spira_vector_destroy(v);
    /* a 2-D Laplacian of 300^2 rows needs ~5.4 MB of CSR: refused as a whole */
    spira_matrix A = NULL;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 300, SPIRA_R64, &A), SPIRA_ERR_NOMEM);
    ck_assert_ptr_null(A);
    ck_assert_int_eq(spira__alloc_live(), live);
    int32_t ri[] = {0, 1}, ci[] = {0, 1};
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 2, 1 << 20, 2, ri, ci, NULL, SPIRA_R64, &A),
                     SPIRA_OK); /* wide is fine: no array is ncols long */
    spira_matrix_destroy(A);
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 1 << 20, 2, 2, ri, ci, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_NOMEM); /* 4 MiB of row pointers */
    tu_assert_error_has(ctx, "CSR arrays");
    ck_assert_int_eq(spira__alloc_live(), live);
    spira_context_destroy(ctx);
    ck_assert_int_eq(spira_context_budget(NULL, &host, &dev), SPIRA_ERR_INVALID_ARG);
}
END_TEST

/* SPIRA_MAX_BYTES sets the budget when the option does not; a bad value is refused. */
START_TEST(budget_from_environment)
{
    spira_context ctx;
    spira_context_opts o = {.backend = SPIRA_BACKEND_CPU};
    size_t host = 0;
    ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_OK);
    spira_context_budget(ctx, &host, NULL);
    ck_assert_uint_gt(host, 1 << 20); /* what the machine has free */
    spira_context_destroy(ctx);
    static const struct { const char *v; size_t bytes; } good[] = {
        {"123456", 123456}, {"64K", 64 << 10}, {"3M", 3 << 20}, {"2G", (size_t)2 << 30}};
    for (int i = 0; i < 4; i++) {
        setenv("SPIRA_MAX_BYTES", good[i].v, 1);
        ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_OK);
        spira_context_budget(ctx, &host, NULL);
        ck_assert_uint_eq(host, good[i].bytes);
        spira_context_destroy(ctx);
    }
    setenv("SPIRA_MAX_BYTES", "64K", 1);
    ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_OK);
    spira_vector v = NULL;
    ck_assert_int_eq(spira_vector_create(ctx, 10000, SPIRA_R64, &v), SPIRA_ERR_NOMEM);
    tu_assert_error_has(ctx, "set by SPIRA_MAX_BYTES");
    spira_context_destroy(ctx);
    o.max_bytes = 1 << 20; /* the option wins */
    ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_OK);
    spira_context_budget(ctx, &host, NULL);
    ck_assert_uint_eq(host, 1 << 20);
    spira_context_destroy(ctx);
    o.max_bytes = 0;
    static const char *bad[] = {"0", "-5", "12x", "5MB", "M", " 5", "99999999999999999999",
                                "17179869184T"};
    for (int i = 0; i < 8; i++) {
        setenv("SPIRA_MAX_BYTES", bad[i], 1);
        ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_ERR_INVALID_ARG);
        tu_assert_error_has(ctx, "is not a byte count");
        spira_context_destroy(ctx);
    }
    unsetenv("SPIRA_MAX_BYTES");
}
END_TEST

/* Contexts made with var set to each of good (the field read gives want) and each of bad
 * (refused naming var), then with var unset (the field gives want[0]). */
static void env_cases(const char *var, const char *const *good, const int *want, int ngood,
                      const char *const *bad, int nbad, int (*field)(spira_context))
{
    spira_context ctx;
    spira_context_opts o = {.backend = SPIRA_BACKEND_CPU};
    for (int i = 0; i < ngood; i++) {
        setenv(var, good[i], 1);
        ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_OK);
        ck_assert_int_eq(field(ctx), want[i]);
        spira_context_destroy(ctx);
    }
    for (int i = 0; i < nbad; i++) {
        setenv(var, bad[i], 1);
        ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_ERR_INVALID_ARG);
        tu_assert_error_has(ctx, var);
        spira_context_destroy(ctx);
    }
    unsetenv(var);
    ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_OK);
    ck_assert_int_eq(field(ctx), want[0]);
    spira_context_destroy(ctx);
}

static int cg_graph_of(spira_context ctx) { return ctx->cg_graph; }
static int separate_arrays_of(spira_context ctx) { return ctx->separate_arrays; }
static int spmv_graphs_of(spira_context ctx) { return ctx->spmv_graphs; }
static int background_of(spira_context ctx) { return ctx->background; }

/* SPIRA_CG_GRAPH: "off" or a batch of 1 to 64 into ctx->cg_graph (CUDA CG's graph,
 * solvers/cg_graph.c); anything else is refused naming it. */
START_TEST(cg_graph_from_environment)
{
    static const char *const good[] = {"", "off", "1", "12", "64"};
    static const int want[] = {0, -1, 1, 12, 64};
    static const char *const bad[] = {"0", "65", "-1", "on", "8x", " 8"};
    env_cases("SPIRA_CG_GRAPH", good, want, 5, bad, 6, cg_graph_of);
}
END_TEST

/* SPIRA_SANITIZE: "1" gives every device array its own allocation (ctx->separate_arrays,
 * spmv/device.c), "0" or empty does not; anything else is refused naming it. */
START_TEST(sanitize_from_environment)
{
    static const char *const good[] = {"", "0", "1"};
    static const int want[] = {0, 0, 1};
    static const char *const bad[] = {"2", "yes", " 1"};
    env_cases("SPIRA_SANITIZE", good, want, 3, bad, 3, separate_arrays_of);
}
END_TEST

/* SPIRA_SPMV_GRAPHS: "0" launches every multiply directly (ctx->spmv_graphs 0), "1" or
 * empty from a plan's graphs (spmv/replay.h); anything else is refused naming it. */
START_TEST(spmv_graphs_from_environment)
{
    static const char *const good[] = {"", "0", "1"};
    static const int want[] = {1, 0, 1};
    static const char *const bad[] = {"2", "off", " 0"};
    env_cases("SPIRA_SPMV_GRAPHS", good, want, 3, bad, 3, spmv_graphs_of);
}
END_TEST

/* SPIRA_BACKGROUND: "1" lets staged solves build plans beside them (ctx->background,
 * spmv/background.h), "0" or empty not; anything else is refused naming it. */
START_TEST(background_from_environment)
{
    static const char *const good[] = {"", "0", "1"};
    static const int want[] = {0, 0, 1};
    static const char *const bad[] = {"on", "01", "1 "};
    env_cases("SPIRA_BACKGROUND", good, want, 3, bad, 3, background_of);
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
    tcase_add_test(tc, auto_says_why_cpu);
    tcase_add_test(tc, budget_refuses_before_allocating);
    tcase_add_test(tc, budget_from_environment);
    tcase_add_test(tc, cg_graph_from_environment);
    tcase_add_test(tc, sanitize_from_environment);
    tcase_add_test(tc, spmv_graphs_from_environment);
    tcase_add_test(tc, background_from_environment);
    suite_add_tcase(s, tc);
    return s;
}
