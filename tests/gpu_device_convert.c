/*
 * gpu_device_convert.c - the conversions on the GPU against the host's (a test case of
 * check_gpu). Every format whose device half builds from the device CSR (format_gpu.build)
 * or borrows it (shares_csr) is built twice in deterministic contexts: once that way and
 * once converted on the host and uploaded (ctx->host_convert), the CPU reference's layout.
 * The two must multiply to the same bits, y poisoned before each run, for beta 0 and not,
 * or refuse alike (same status, same message); and the plan must say where it was built,
 * so a GPU conversion that silently fell back to the host fails here. (Failing allocations
 * in the GPU builds are walked by check_gpu's gpu_nth_allocation_fails, over every format.)
 * Where the layout is fixed (dia), the device-built arrays are read back and compared with
 * the host's byte for byte, padding included (ell, coo, hyb, sell, cmrs and suraa: in
 * gpu_device_layout.c). auto's row statistics counted on the GPU are
 * compared with the host's on the same matrices, and so is the scaled transpose (PageRank's
 * P^T), made on the GPU into a matrix whose CSR is on the device alone.
 */
#include "testutil.h"
#include "spmv.h"
#include "auto.h"
#include "dia.h"
#include "solver.h"
#include "cuda/gateway.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* y = alpha A x + beta y0 with A's plan of (name, opts); *status the plan's; y NULL: none;
 * *on_device and *bytes the plan's */
static spira_status multiply(spira_matrix A, const char *name, const char *opts,
                             const double *x, const double *y0, double beta, double *y,
                             int *on_device, size_t *bytes)
{
    spira_context c = A->ctx;
    spira_status s = spira_matrix_set_format(A, name, opts);
    spira__spmv_plan *p = NULL;
    if (s == SPIRA_OK) s = spira__spmv_plan_get(A, &p);
    if (s != SPIRA_OK) return s;
    *on_device = p->on_device;
    *bytes = p->bytes;
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

/* Compare every device-built format and variant on the pair (Ad on tu_dev_ctx, Ah on tu_host_ctx,
 * the same matrix); returns the runs compared. */
static int compare_all(spira_matrix Ad, spira_matrix Ah, const char *label, unsigned seed,
                       int every)
{
    spira_matrix_info info;
    ck_assert_int_eq(spira_matrix_get_info(Ad, &info), SPIRA_OK);
    const int32_t m = info.nrows, n = info.ncols;
    double *x = malloc(((size_t)n + 1) * 8), *y0 = malloc(((size_t)m + 1) * 8);
    double *yd = malloc(((size_t)m + 1) * 8), *yh = malloc(((size_t)m + 1) * 8);
    for (int32_t i = 0; i < n; i++) x[i] = tu_uniform(&seed, -1, 1);
    for (int32_t i = 0; i < m; i++) y0[i] = tu_uniform(&seed, -1, 1);
    int runs = 0;
    const int trace = getenv("SPIRA_TEST_TRACE") != NULL; /* which build is running, on stderr */
    const int nf = spira__format_total();
    for (int k = 0; k < nf + tu_nformat_variants; k++) {
        const char *name = k < nf ? spira__format_at(k)->name : tu_format_variants[k - nf][0];
        const char *opts = k < nf ? NULL : tu_format_variants[k - nf][1];
        const spira__format *f = spira__format_find(name);
        /* a CSR-sharing format only on the bundled matrices: its arrays are the device
         * CSR's own, so one pass over real matrices says all (and keeps this case short:
         * it ran past two minutes on the H100 over every format and shape) */
        if (!f->gpu || !(f->gpu->build || (f->gpu->shares_csr && every))) continue;
        for (int b = 0; b < 2; b++) {
            const double beta = b ? -0.5 : 0.0;
            if (trace) fprintf(stderr, "  %s: %s:%s, beta %g\n", label, name, opts ? opts : "", beta);
            int dev_built = -1, host_built = -1;
            size_t dev_bytes = 0, host_bytes = 0;
            spira_status sd = multiply(Ad, name, opts, x, y0, beta, yd, &dev_built, &dev_bytes);
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", spira_last_error(tu_dev_ctx));
            spira_status sh = multiply(Ah, name, opts, x, y0, beta, yh, &host_built, &host_bytes);
            ck_assert_msg(sd == sh, "%s %s:%s: on the GPU %s (%s), on the host %s (%s)", label,
                          name, opts ? opts : "", spira_status_name(sd), msg,
                          spira_status_name(sh), spira_last_error(tu_host_ctx));
            if (sd != SPIRA_OK) { /* refused alike */
                ck_assert_msg(sd == SPIRA_ERR_UNSUPPORTED, "%s %s: %s", label, name, msg);
                ck_assert_str_eq(msg, spira_last_error(tu_host_ctx));
                break;
            }
            ck_assert_int_eq(host_built, 0);
            ck_assert_msg(dev_built == (f->gpu->build != NULL),
                          "%s %s: the plan was %sbuilt on the GPU", label, name,
                          dev_built ? "" : "not ");
            ck_assert_msg(dev_bytes == host_bytes, "%s %s:%s: %zu bytes a multiply from the "
                          "GPU's layout, %zu from the host's", label, name, opts ? opts : "",
                          dev_bytes, host_bytes);
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

/* The dia plans of (Ad, Ah) with opts: the GPU's arrays read back equal the host's, offsets
 * and data (padding included) byte for byte, or both refuse alike; 1 if compared. */
static int dia_layouts_match(spira_matrix Ad, spira_matrix Ah, const char *opts,
                             const char *label)
{
    spira__spmv_plan *pd, *ph;
    if (!tu_convert_plans(Ad, Ah, "dia", opts, label, &pd, &ph)) return 0;
    ck_assert_msg(pd->on_device && !pd->layout, "%s: dia was not built on the GPU", label);
    const spira__dia *d = (const spira__dia *)pd->dev, *h = (const spira__dia *)ph->layout;
    ck_assert_msg(d->nrows == h->nrows && d->ncols == h->ncols && d->ndiag == h->ndiag &&
                      d->pitch == h->pitch && d->dtype == h->dtype,
                  "%s dia:%s: GPU %d x %d, %d diagonals, pitch %d; host %d x %d, %d, %d", label,
                  opts ? opts : "", d->nrows, d->ncols, d->ndiag, d->pitch, h->nrows, h->ncols,
                  h->ndiag, h->pitch);
    ck_assert_uint_eq(pd->bytes, ph->bytes);
    const size_t no = (size_t)h->ndiag * sizeof(int32_t);
    const size_t nd = (size_t)h->ndiag * (size_t)h->pitch * spira_dtype_size(h->dtype);
    unsigned char *off = malloc(no + 1), *data = malloc(nd + 1);
    memset(data, 0xa5, nd + 1); /* poisoned: a byte not read back differs */
    ck_assert_int_eq(spira__cuda_download(tu_dev_ctx, off, d->offsets, no), SPIRA_OK);
    ck_assert_int_eq(spira__cuda_download(tu_dev_ctx, data, d->data, nd), SPIRA_OK);
    ck_assert_msg(memcmp(off, h->offsets, no) == 0, "%s dia:%s: offsets differ", label,
                  opts ? opts : "");
    /* memcmp first: a ck_assert a byte costs Check a record each (minutes for a layout of
     * 10^8 bytes, as a power-law shape's 6,000 diagonals make) */
    if (memcmp(data, h->data, nd) != 0) {
        size_t b = 0;
        while (data[b] == ((const unsigned char *)h->data)[b]) b++;
        ck_abort_msg("%s dia:%s: data byte %zu (diagonal %zu, row %zu) differs", label,
                     opts ? opts : "", b, b / spira_dtype_size(h->dtype) / (size_t)h->pitch,
                     b / spira_dtype_size(h->dtype) % (size_t)h->pitch);
    }
    free(off), free(data);
    return 1;
}

/* auto's statistics of Ad (on tu_dev_ctx) counted on the GPU against the host's: every field
 * the same double (ones and hubs the same flags), except dia_fill beyond
 * SPIRA__AUTO_DIA_FILL, where the host stops counting; the GPU's is then the exact count,
 * checked here against a count of our own, or infinite on both where a row is longer than
 * the diagonals DIA may have (none counted). Returns the hubs flag. */
static int stats_match(spira_matrix Ad, const char *label)
{
    const spira__csr *A = &Ad->csr;
    const spira__csr_dev *dA = NULL;
    ck_assert_int_eq(spira__matrix_csr_dev(Ad, &dA, NULL), SPIRA_OK);
    ck_assert_ptr_nonnull(dA);
    spira__row_stats h, g;
    ck_assert_int_eq(spira__row_stats_of(tu_dev_ctx, A, &h), SPIRA_OK);
    memset(&g, 0x5a, sizeof g);
    ck_assert_msg(spira__row_stats_dev(tu_dev_ctx, A, dA, &g) == SPIRA_OK, "%s: %s", label,
                  spira_last_error(tu_dev_ctx));
    ck_assert_msg(g.nrows == h.nrows && g.ncols == h.ncols && g.nnz == h.nnz &&
                      g.max_row == h.max_row && memcmp(&g.mean, &h.mean, 8) == 0 &&
                      memcmp(&g.cv, &h.cv, 8) == 0 && memcmp(&g.ell_fill, &h.ell_fill, 8) == 0,
                  "%s: GPU max_row %d mean %.17g cv %.17g ell_fill %.17g; host %d %.17g %.17g "
                  "%.17g", label, g.max_row, g.mean, g.cv, g.ell_fill, h.max_row, h.mean, h.cv,
                  h.ell_fill);
    ck_assert_msg(g.ones == h.ones && g.hubs == h.hubs, "%s: GPU ones %d hubs %d, host %d %d",
                  label, g.ones, g.hubs, h.ones, h.hubs);
    /* the occupied diagonals, counted here in full */
    const int64_t span = (int64_t)A->nrows + A->ncols - 1;
    double exact = INFINITY;
    const int ruled_out = A->nrows && h.max_row > SPIRA__AUTO_DIA_FILL * (double)A->nnz / A->nrows;
    if (A->nrows && A->nnz && span <= SPIRA__AUTO_DIAGONALS_COUNTED && !ruled_out) {
        unsigned char *seen = calloc((size_t)span, 1);
        int64_t n = 0;
        for (int32_t i = 0; i < A->nrows; i++)
            for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
                const int64_t at = (int64_t)A->col_idx[k] - i + A->nrows - 1;
                n += !seen[at];
                seen[at] = 1;
            }
        free(seen);
        exact = (double)n * A->nrows / (double)A->nnz;
    }
    ck_assert_msg(memcmp(&g.dia_fill, &exact, 8) == 0, "%s: GPU dia_fill %.17g, exact %.17g",
                  label, g.dia_fill, exact);
    if (h.dia_fill <= SPIRA__AUTO_DIA_FILL)
        ck_assert_msg(memcmp(&g.dia_fill, &h.dia_fill, 8) == 0, "%s: dia_fill GPU %.17g, "
                      "host %.17g", label, g.dia_fill, h.dia_fill);
    else
        ck_assert_msg(g.dia_fill > SPIRA__AUTO_DIA_FILL, "%s: dia_fill GPU %.17g, host %.17g "
                      "(beyond the limit)", label, g.dia_fill, h.dia_fill);
    return g.hubs;
}

/* _i: tu_hub_matrix with values all 1 or random, double or float: the statistics agree, and
 * say hubs for the pattern alone (a matrix with values is not asked: cost.c prices hubs
 * only where sell stores no values) */
START_TEST(gpu_device_stats_hubs)
{
    const int ones = _i % 2;
    const spira_dtype t = _i < 2 ? SPIRA_R64 : SPIRA_R32;
    spira_matrix Ad = tu_hub_matrix(tu_dev_ctx, 100000, t, ones, tu_seed());
    ck_assert_int_eq(stats_match(Ad, ones ? "hub pattern" : "hub columns, values"), ones);
    spira_matrix_destroy(Ad);
}
END_TEST

/* The scaled transpose (PageRank's P^T) made on the GPU against the host's, with row scales
 * (some 0, as a dangling row's) and without: the GPU's is a matrix whose CSR is on the
 * device alone (not made on the host and uploaded); each device-built format (and with every,
 * each CSR-sharing one) multiplies it to the host's bits; read back, its arrays equal the
 * host's byte for byte, the row pointers the device made poisoned first (tu_dev_ctx). */
static void transpose_match(spira_matrix Ad, spira_matrix Ah, const char *label, unsigned seed,
                            int every)
{
    const int32_t m = Ad->csr.nrows;
    double *scale = malloc(((size_t)m + 1) * sizeof *scale);
    for (int32_t i = 0; i < m; i++) scale[i] = i % 7 == 3 ? 0 : tu_uniform(&seed, 0.1, 3);
    for (int scaled = 0; scaled < 2; scaled++) {
        spira_matrix Td, Th;
        ck_assert_msg(spira__matrix_transpose_scaled(Ad, scaled ? scale : NULL, &Td) == SPIRA_OK,
                      "%s: %s", label, spira_last_error(tu_dev_ctx));
        ck_assert_int_eq(spira__matrix_transpose_scaled(Ah, scaled ? scale : NULL, &Th), SPIRA_OK);
        ck_assert_msg(Td->host_absent && !Th->host_absent, "%s: the GPU's transpose was %smade "
                      "on the device", label, Td->host_absent ? "" : "not ");
        if (scaled) compare_all(Td, Th, label, seed, every);
        ck_assert_int_eq(spira__matrix_host_csr(Td), SPIRA_OK);
        const spira__csr *d = &Td->csr, *h = &Th->csr;
        ck_assert_msg(d->nrows == h->nrows && d->ncols == h->ncols && d->nnz == h->nnz &&
                          d->dtype == h->dtype, "%s: A^T %d x %d, %d entries on the GPU; %d x "
                      "%d, %d on the host", label, d->nrows, d->ncols, d->nnz, h->nrows, h->ncols,
                      h->nnz);
        for (int32_t i = 0; i <= d->nrows; i++)
            ck_assert_msg(d->row_ptr[i] == h->row_ptr[i], "%s: row_ptr[%d] = %d on the GPU, "
                          "%d on the host", label, i, d->row_ptr[i], h->row_ptr[i]);
        for (int32_t k = 0; k < d->nnz; k++)
            ck_assert_msg(d->col_idx[k] == h->col_idx[k] &&
                              memcmp((char *)d->val + (size_t)k * spira_dtype_size(d->dtype),
                                     (char *)h->val + (size_t)k * spira_dtype_size(d->dtype),
                                     spira_dtype_size(d->dtype)) == 0,
                          "%s (%s): entry %d: column %d value %.17g on the GPU, %d %.17g on the "
                          "host", label, scaled ? "scaled" : "not scaled", k, d->col_idx[k],
                          spira__get(d->val, d->dtype, k), h->col_idx[k],
                          spira__get(h->val, h->dtype, k));
        spira_matrix_destroy(Td), spira_matrix_destroy(Th);
    }
    free(scale);
}

/* PageRank's transition made on the GPU (the row sums, d and the scaled transpose from G's
 * device CSR) against the host's (tu_host_ctx: the same loops on the host): P^T's arrays
 * and d byte for byte, or, for a weight PageRank refuses, the same status and message. */
static void transition_match(spira_matrix Gd, spira_matrix Gh, const char *label)
{
    spira_matrix Pd, Ph;
    spira_vector dd, dh;
    const spira_status sd = spira__pagerank_transition(Gd, &Pd, &dd);
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", spira_last_error(tu_dev_ctx));
    const spira_status sh = spira__pagerank_transition(Gh, &Ph, &dh);
    ck_assert_msg(sd == sh, "%s: transition %s (%s) on the GPU, %s (%s) on the host", label,
                  spira_status_name(sd), msg, spira_status_name(sh), spira_last_error(tu_host_ctx));
    if (sd != SPIRA_OK) {
        ck_assert_msg(strcmp(msg, spira_last_error(tu_host_ctx)) == 0, "%s: '%s' on the GPU, "
                      "'%s' on the host", label, msg, spira_last_error(tu_host_ctx));
        return;
    }
    ck_assert_msg(Pd->host_absent, "%s: the GPU's P^T was not made on the device", label);
    ck_assert_int_eq(spira__matrix_host_csr(Pd), SPIRA_OK);
    const spira__csr *d = &Pd->csr, *h = &Ph->csr;
    const size_t es = spira_dtype_size(d->dtype);
    ck_assert_int_eq(d->nnz, h->nnz);
    ck_assert_msg(memcmp(d->row_ptr, h->row_ptr, ((size_t)d->nrows + 1) * 4) == 0 &&
                      memcmp(d->col_idx, h->col_idx, (size_t)d->nnz * 4) == 0 &&
                      memcmp(d->val, h->val, (size_t)d->nnz * es) == 0,
                  "%s: P^T's arrays differ between the GPU and the host", label);
    double *a = malloc(((size_t)dd->n + 1) * sizeof *a);
    double *b = malloc(((size_t)dd->n + 1) * sizeof *b);
    ck_assert_int_eq(spira_vector_get_f64(dd, a), SPIRA_OK);
    ck_assert_int_eq(spira_vector_get_f64(dh, b), SPIRA_OK);
    for (int32_t i = 0; i < dd->n; i++)
        ck_assert_msg(a[i] == b[i], "%s: d[%d] = %g on the GPU, %g on the host", label, i, a[i],
                      b[i]);
    free(a), free(b);
}

/* _i: float, double; a weighted graph with dangling rows (empty, and of zero weights), a
 * pattern graph from a file, and a matrix with negative entries, a NaN and an Inf weight */
START_TEST(gpu_pagerank_transition)
{
    const spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    enum { n = 5000 };
    unsigned st = tu_seed() + 7u * (unsigned)_i;
    int32_t *ri = malloc(n * 40 * sizeof *ri), *ci = malloc(n * 40 * sizeof *ci), nnz = 0;
    double *w = malloc(n * 40 * sizeof *w);
    for (int32_t i = 0; i < n; i++) {
        const int deg = i % 13 == 4 ? 0 : i == 77 ? 3000 : (int)tu_uniform(&st, 1, 30);
        for (int k = 0; k < deg; k++, nnz++) {
            ri[nnz] = i, ci[nnz] = (int32_t)tu_uniform(&st, 0, n);
            w[nnz] = i % 17 == 6 ? 0.0 : tu_uniform(&st, 0.01, 5);
        }
    }
    float *wf = malloc(n * 40 * sizeof *wf);
    spira_matrix Gd, Gh;
    for (int bad = 0; bad < 4; bad++) {
        if (bad) w[nnz / 3 + bad] = bad == 1 ? -0.5 : bad == 2 ? NAN : INFINITY;
        for (int32_t k = 0; k < nnz; k++) wf[k] = (float)w[k];
        const void *v = t == SPIRA_R64 ? (const void *)w : (const void *)wf;
        ck_assert_int_eq(spira_matrix_from_coo(tu_dev_ctx, n, n, nnz, ri, ci, v, t, &Gd),
                         SPIRA_OK);
        ck_assert_int_eq(spira_matrix_from_coo(tu_host_ctx, n, n, nnz, ri, ci, v, t, &Gh),
                         SPIRA_OK);
        char label[64];
        snprintf(label, sizeof label, "weighted graph %s, case %d", t == SPIRA_R64 ? "double" :
                 "float", bad);
        transition_match(Gd, Gh, label);
        spira_matrix_destroy(Gd), spira_matrix_destroy(Gh);
        if (bad) w[nnz / 3 + bad] = 1.0;
    }
    free(ri), free(ci), free(w), free(wf);
    const char *files[] = {"email-Eu-core.mtx", "orsirr_1.mtx"};
    for (int f = 0; f < 2 && t == SPIRA_R64; f++) {
        tu_convert_pair_file(files[f], &Gd, &Gh);
        transition_match(Gd, Gh, files[f]);
        spira_matrix_destroy(Gd), spira_matrix_destroy(Gh);
    }
}
END_TEST

/* _i: a shape of tu_shapes, float and double */
START_TEST(gpu_device_convert_shapes)
{
    for (int d = 0; d < 2; d++) {
        const spira_dtype t = d ? SPIRA_R32 : SPIRA_R64;
        const unsigned seed = tu_seed() + 31u * (unsigned)_i;
        spira_matrix Ad, Ah;
        tu_convert_pair_shape(&tu_shapes[_i], t, seed, &Ad, &Ah);
        compare_all(Ad, Ah, tu_shapes[_i].name, seed, 0);
        dia_layouts_match(Ad, Ah, NULL, tu_shapes[_i].name);
        dia_layouts_match(Ad, Ah, "max_fill=100000", tu_shapes[_i].name);
        stats_match(Ad, tu_shapes[_i].name);
        transpose_match(Ad, Ah, tu_shapes[_i].name, seed, 0);
        spira_matrix_destroy(Ad), spira_matrix_destroy(Ah);
    }
}
END_TEST

/* _i: a bundled matrix */
START_TEST(gpu_device_convert_bundled)
{
    spira_matrix Ad, Ah;
    tu_convert_pair_file(tu_bundled[_i], &Ad, &Ah);
    ck_assert_int_gt(compare_all(Ad, Ah, tu_bundled[_i], tu_seed(), 1), 0);
    dia_layouts_match(Ad, Ah, "max_fill=100000", tu_bundled[_i]);
    stats_match(Ad, tu_bundled[_i]);
    transpose_match(Ad, Ah, tu_bundled[_i], tu_seed(), 1);
    spira_matrix_destroy(Ad), spira_matrix_destroy(Ah);
}
END_TEST

/* _i: the Laplacians DIA is for (2-D and 3-D, float and double) and a band: the device-built
 * layout equals the host's and is taken, the statistics agree (dia_fill exact on both) */
START_TEST(gpu_device_convert_stencils)
{
    const int dim = _i % 2 ? 3 : 2, n = dim == 3 ? 24 : 150;
    const spira_dtype t = _i < 2 ? SPIRA_R64 : SPIRA_R32;
    char label[64];
    snprintf(label, sizeof label, "%d-D Laplacian %d, %s", dim, n, t == SPIRA_R64 ? "double" : "float");
    spira_matrix Ad, Ah;
    ck_assert_int_eq(spira_matrix_laplacian(tu_dev_ctx, dim, n, t, &Ad), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_laplacian(tu_host_ctx, dim, n, t, &Ah), SPIRA_OK);
    ck_assert_int_eq(dia_layouts_match(Ad, Ah, NULL, label), 1);
    stats_match(Ad, label);
    ck_assert_int_gt(compare_all(Ad, Ah, label, tu_seed(), 0), 0);
    spira_matrix_destroy(Ad), spira_matrix_destroy(Ah);
}
END_TEST

/* 2^29 columns: too many possible diagonals to flag, so neither path counts them (DIA out),
 * and the rest of the statistics agree */
START_TEST(gpu_row_stats_wide)
{
    const int32_t ri[3] = {0, 1, 2}, ci[3] = {5, (INT32_C(1) << 29) - 1, 0};
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_from_coo(tu_dev_ctx, 3, INT32_C(1) << 29, 3, ri, ci, NULL,
                                           SPIRA_R64, &A), SPIRA_OK);
    stats_match(A, "3 x 2^29");
    spira_matrix_destroy(A);
}
END_TEST

TCase *tu_gpu_device_convert_tcase(void)
{
    TCase *tc = tcase_create("conversion on the GPU");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, tu_convert_contexts_make, tu_convert_contexts_free);
    tcase_add_loop_test(tc, gpu_device_convert_shapes, 0, tu_nshapes);
    tcase_add_loop_test(tc, gpu_device_convert_bundled, 0, tu_nbundled);
    tcase_add_loop_test(tc, gpu_device_convert_stencils, 0, 4);
    tcase_add_loop_test(tc, gpu_device_stats_hubs, 0, 4);
    tcase_add_test(tc, gpu_row_stats_wide);
    tcase_add_loop_test(tc, gpu_pagerank_transition, 0, 2);
    return tc;
}
