/*
 * gpu_device_convert.c - the conversions on the GPU against the host's (a test case of
 * check_gpu). Every format whose device half builds from the device CSR (format_gpu.build)
 * or borrows it (shares_csr) is built twice in deterministic contexts: once that way and
 * once converted on the host and uploaded (ctx->host_convert), the CPU reference's layout.
 * The two must multiply to the same bits, y poisoned before each run, for beta 0 and not,
 * or refuse alike (same status, same message); and the plan must say where it was built,
 * so a GPU conversion that silently fell back to the host fails here. (Failing allocations
 * in the GPU builds are walked by check_gpu's gpu_nth_allocation_fails, over every format.)
 */
#include "testutil.h"
#include "spmv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static spira_context dev_ctx, host_ctx; /* deterministic; host_ctx converts on the host */

static spira_context deterministic(int host_convert)
{
    spira_context c;
    spira_context_opts o = {.backend = SPIRA_BACKEND_CUDA, .deterministic = 1};
    spira_status s = spira_context_create(&c, &o);
    ck_assert_msg(s == SPIRA_OK, "deterministic CUDA context: %s", spira_last_error(c));
    c->host_convert = host_convert;
    return c;
}

/* the case's two contexts, made once before its tests (an unchecked fixture) */
static void contexts_make(void)
{
    dev_ctx = deterministic(0);
    host_ctx = deterministic(1);
}

static void contexts_free(void)
{
    spira_context_destroy(dev_ctx);
    spira_context_destroy(host_ctx);
    dev_ctx = host_ctx = NULL;
}

/* y = alpha A x + beta y0 with A's plan of (name, opts); *status the plan's; y NULL: none */
static spira_status multiply(spira_matrix A, const char *name, const char *opts,
                             const double *x, const double *y0, double beta, double *y,
                             int *on_device)
{
    spira_context c = A->ctx;
    spira_status s = spira_matrix_set_format(A, name, opts);
    spira__spmv_plan *p = NULL;
    if (s == SPIRA_OK) s = spira__spmv_plan_get(A, &p);
    if (s != SPIRA_OK) return s;
    *on_device = p->on_device;
    spira_matrix_info info;
    ck_assert_int_eq(spira_matrix_get_info(A, &info), SPIRA_OK);
    const spira_dtype t = info.dtype;
    spira_vector vx, vy;
    ck_assert_int_eq(spira_vector_create(c, info.ncols, t, &vx), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(c, info.nrows, t, &vy), SPIRA_OK);
    const size_t es = spira_dtype_size(t);
    void *hx = malloc((size_t)info.ncols * es + 8), *hy = malloc((size_t)info.nrows * es + 8);
    for (int32_t i = 0; i < info.ncols; i++)
        if (t == SPIRA_R64) ((double *)hx)[i] = x[i];
        else ((float *)hx)[i] = (float)x[i];
    for (int32_t i = 0; i < info.nrows; i++) /* NaN poisons a y that beta 0 must not read */
        if (t == SPIRA_R64) ((double *)hy)[i] = beta == 0 ? NAN : y0[i];
        else ((float *)hy)[i] = beta == 0 ? NAN : (float)y0[i];
    ck_assert_int_eq(spira_vector_set(vx, hx), SPIRA_OK);
    ck_assert_int_eq(spira_vector_set(vy, hy), SPIRA_OK);
    s = spira_spmv(0.75, A, vx, beta, vy);
    if (s == SPIRA_OK) ck_assert_int_eq(spira_vector_get(vy, hy), SPIRA_OK);
    for (int32_t i = 0; s == SPIRA_OK && i < info.nrows; i++)
        y[i] = t == SPIRA_R64 ? ((double *)hy)[i] : (double)((float *)hy)[i];
    free(hx), free(hy);
    spira_vector_destroy(vx), spira_vector_destroy(vy);
    return s;
}

/* Compare every device-built format and variant on the pair (Ad on dev_ctx, Ah on host_ctx,
 * the same matrix); returns the runs compared. */
static int compare_all(spira_matrix Ad, spira_matrix Ah, const char *label, unsigned seed)
{
    spira_matrix_info info;
    ck_assert_int_eq(spira_matrix_get_info(Ad, &info), SPIRA_OK);
    const int32_t m = info.nrows, n = info.ncols;
    double *x = malloc(((size_t)n + 1) * 8), *y0 = malloc(((size_t)m + 1) * 8);
    double *yd = malloc(((size_t)m + 1) * 8), *yh = malloc(((size_t)m + 1) * 8);
    for (int32_t i = 0; i < n; i++) x[i] = tu_uniform(&seed, -1, 1);
    for (int32_t i = 0; i < m; i++) y0[i] = tu_uniform(&seed, -1, 1);
    int runs = 0;
    const int nf = spira__format_total();
    for (int k = 0; k < nf + tu_nformat_variants; k++) {
        const char *name = k < nf ? spira__format_at(k)->name : tu_format_variants[k - nf][0];
        const char *opts = k < nf ? NULL : tu_format_variants[k - nf][1];
        const spira__format *f = spira__format_find(name);
        if (!f->gpu || !(f->gpu->build || f->gpu->shares_csr)) continue;
        for (int b = 0; b < 2; b++) {
            const double beta = b ? -0.5 : 0.0;
            int dev_built = -1, host_built = -1;
            spira_status sd = multiply(Ad, name, opts, x, y0, beta, yd, &dev_built);
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", spira_last_error(dev_ctx));
            spira_status sh = multiply(Ah, name, opts, x, y0, beta, yh, &host_built);
            ck_assert_msg(sd == sh, "%s %s:%s: on the GPU %s (%s), on the host %s (%s)", label,
                          name, opts ? opts : "", spira_status_name(sd), msg,
                          spira_status_name(sh), spira_last_error(host_ctx));
            if (sd != SPIRA_OK) { /* refused alike */
                ck_assert_msg(sd == SPIRA_ERR_UNSUPPORTED, "%s %s: %s", label, name, msg);
                ck_assert_str_eq(msg, spira_last_error(host_ctx));
                break;
            }
            ck_assert_int_eq(host_built, 0);
            ck_assert_msg(dev_built == (f->gpu->build != NULL),
                          "%s %s: the plan was %sbuilt on the GPU", label, name,
                          dev_built ? "" : "not ");
            for (int32_t i = 0; i < m; i++)
                ck_assert_msg(memcmp(&yd[i], &yh[i], 8) == 0,
                              "%s %s:%s beta %g: y[%d] = %.17g from the GPU's layout, %.17g "
                              "from the host's", label, name, opts ? opts : "", beta, i, yd[i],
                              yh[i]);
            runs++;
        }
    }
    free(x), free(y0), free(yd), free(yh);
    return runs;
}

/* _i: a shape of tu_shapes, float and double */
START_TEST(gpu_device_convert_shapes)
{
    for (int d = 0; d < 2; d++) {
        const spira_dtype t = d ? SPIRA_R32 : SPIRA_R64;
        const unsigned seed = tu_seed() + 31u * (unsigned)_i;
        spira_matrix Ad = tu_shape_matrix(dev_ctx, &tu_shapes[_i], t, seed);
        spira_matrix Ah = tu_shape_matrix(host_ctx, &tu_shapes[_i], t, seed);
        compare_all(Ad, Ah, tu_shapes[_i].name, seed);
        spira_matrix_destroy(Ad), spira_matrix_destroy(Ah);
    }
}
END_TEST

/* _i: a bundled matrix */
START_TEST(gpu_device_convert_bundled)
{
    spira_matrix Ad, Ah;
    ck_assert_int_eq(spira_matrix_read_mm(dev_ctx, tu_data(tu_bundled[_i]), SPIRA_R64, &Ad),
                     SPIRA_OK);
    ck_assert_int_eq(spira_matrix_read_mm(host_ctx, tu_data(tu_bundled[_i]), SPIRA_R64, &Ah),
                     SPIRA_OK);
    ck_assert_int_gt(compare_all(Ad, Ah, tu_bundled[_i], tu_seed()), 0);
    spira_matrix_destroy(Ad), spira_matrix_destroy(Ah);
}
END_TEST

TCase *tu_gpu_device_convert_tcase(void)
{
    TCase *tc = tcase_create("conversion on the GPU");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, contexts_make, contexts_free);
    tcase_add_loop_test(tc, gpu_device_convert_shapes, 0, tu_nshapes);
    tcase_add_loop_test(tc, gpu_device_convert_bundled, 0, tu_nbundled);
    return tc;
}
