/*
 * gpu_device_layout.c - the ELL, COO, HYB, SELL, CMRS and SURAA layouts converted on the GPU
 * against the host's, array for array (a test case of check_gpu). gpu_device_convert.c
 * compares what the two layouts multiply to; this compares what they are: sizes, the ELL
 * width, pitch and padding (column -1, value 0, rows up to the pitch), HYB's split between
 * its parts, the COO kernel's interval and warps, SELL's row order and slices, CMRS's
 * strips and packed words, SURAA's row order, segments and launches, the stats line, and
 * every byte of every array a multiply reads, the borrowed ones included. The GPU's arrays
 * are poisoned before its conversion writes them (ctx->poison_builds), so a slot it leaves
 * unwritten differs. Refusals must be the host's (status and message).
 */
#include "testutil.h"
#include "spmv.h"
#include "auto.h"
#include "cmrs.h"
#include "hyb.h"
#include "hyb_gpu.cuh"
#include "sell.h"
#include "suraa.h"
#include "cuda/gateway.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n bytes at device address d against n bytes of host memory h */
static void same_bytes(const void *d, const void *h, size_t n, size_t es, const char *what,
                       const char *label)
{
    if (n == 0) return;
    unsigned char *got = malloc(n);
    ck_assert_int_eq(spira__cuda_download(tu_dev_ctx, got, d, n), SPIRA_OK);
    if (memcmp(got, h, n) != 0) { /* then find where (a ck_assert an element is slow) */
        size_t at = 0;
        while (memcmp(got + at, (const unsigned char *)h + at, es) == 0) at += es;
        ck_abort_msg("%s: %s differ first at element %zu of %zu", label, what, at / es, n / es);
    }
    free(got);
}

static void same_ell(const spira__ell_dev *d, const spira__ell *h, const char *label)
{
    ck_assert_msg(d->nrows == h->nrows && d->K == h->K && d->pitch == h->pitch &&
                      d->dtype == h->dtype,
                  "%s: ELL %d rows, K %d, pitch %d on the GPU; %d, %d, %d on the host", label,
                  d->nrows, d->K, d->pitch, h->nrows, h->K, h->pitch);
    const size_t slots = (size_t)h->K * (size_t)h->pitch, es = spira_dtype_size(h->dtype);
    same_bytes(d->cols, h->cols, slots * sizeof(int32_t), sizeof(int32_t), "ELL columns", label);
    same_bytes(d->vals, h->vals, slots * es, es, "ELL values", label);
}

/* d built on the GPU, u the upload of the host's layout h */
static void same_coo(const spira__coo_dev *d, const spira__coo_dev *u, const spira__coo *h,
                     const char *label)
{
    ck_assert_msg(d->nrows == h->nrows && d->nnz == h->nnz && d->dtype == h->dtype,
                  "%s: COO %d rows, %d entries on the GPU; %d, %d on the host", label, d->nrows,
                  d->nnz, h->nrows, h->nnz);
    ck_assert_msg(d->interval == u->interval && d->nwarps == u->nwarps,
                  "%s: COO interval %lld, %d warps on the GPU; %lld, %d on the host", label,
                  d->interval, d->nwarps, u->interval, u->nwarps);
    const size_t n = (size_t)h->nnz, es = spira_dtype_size(h->dtype);
    same_bytes(d->row, h->row, n * sizeof(int32_t), sizeof(int32_t), "COO rows", label);
    same_bytes(d->col, h->col, n * sizeof(int32_t), sizeof(int32_t), "COO columns", label);
    same_bytes(d->val, h->val, n * es, es, "COO values", label);
}

/* The handles of sell and cmrs are their host structs with device arrays; suraa's begins
 * with one. */
static void same_sell(const spira__sell *d, const spira__sell *h, const char *label)
{
    ck_assert_msg(d->nrows == h->nrows && d->ncols == h->ncols && d->nnz == h->nnz &&
                      d->sigma == h->sigma && d->nslices == h->nslices &&
                      d->nlong == h->nlong && d->dtype == h->dtype && d->unit == h->unit &&
                      d->nhubs == h->nhubs,
                  "%s: SELL %d x %d, sigma %d, %d slices, %d long rows, unit %d, %d hubs on the "
                  "GPU; %d x %d, %d, %d, %d, %d, %d on the host",
                  label, d->nrows, d->ncols, d->sigma, d->nslices, d->nlong, d->unit, d->nhubs,
                  h->nrows, h->ncols, h->sigma, h->nslices, h->nlong, h->unit, h->nhubs);
    ck_assert_str_eq(d->stats, h->stats);
    const size_t es = spira_dtype_size(h->dtype);
    const size_t entries = (size_t)spira__sell_entries(h);
    same_bytes(d->slice_ptr, h->slice_ptr, ((size_t)h->nslices + 1) * sizeof(int32_t),
               sizeof(int32_t), "SELL slice pointers", label);
    same_bytes(d->perm, h->perm, (size_t)h->nrows * sizeof(int32_t), sizeof(int32_t),
               "SELL row order", label);
    if (h->nlong)
        same_bytes(d->long_ptr, h->long_ptr, ((size_t)h->nlong + 1) * sizeof(int32_t),
                   sizeof(int32_t), "SELL long rows' offsets", label);
    same_bytes(d->cols, h->cols, entries * sizeof(int32_t), sizeof(int32_t), "SELL columns",
               label);
    if (h->nhubs)
        same_bytes(d->hubs, h->hubs, (size_t)h->nhubs * sizeof(int32_t), sizeof(int32_t),
                   "SELL hub columns", label);
    else
        ck_assert_msg(!d->hubs && !h->hubs, "%s: SELL without hubs keeps some", label);
    if (h->unit) /* values all 1: none stored on either side */
        ck_assert_msg(!d->vals && !h->vals, "%s: SELL of unit values stores some", label);
    else
        same_bytes(d->vals, h->vals, entries * es, es, "SELL values", label);
}

static void same_cmrs(const spira__cmrs *d, const spira__cmrs *h, const char *label)
{
    ck_assert_msg(d->nrows == h->nrows && d->ncols == h->ncols && d->nnz == h->nnz &&
                      d->height == h->height && d->nstrips == h->nstrips && d->dtype == h->dtype,
                  "%s: CMRS %d rows, height %d, %d strips on the GPU; %d, %d, %d on the host",
                  label, d->nrows, d->height, d->nstrips, h->nrows, h->height, h->nstrips);
    same_bytes(d->strip_ptr, h->strip_ptr, ((size_t)h->nstrips + 1) * sizeof(int32_t),
               sizeof(int32_t), "CMRS strip pointers", label);
    same_bytes(d->packed, h->packed, (size_t)h->nnz * sizeof(uint32_t), sizeof(uint32_t),
               "CMRS column words", label);
    /* the values are the matrix's own on both sides */
    ck_assert_msg(d->csr == NULL && h->csr && h->val == h->csr->val,
                  "%s: CMRS does not borrow the matrix's values", label);
}

static void same_suraa(const spira__suraa *d, const spira__suraa *h, const char *label)
{
    ck_assert_msg(d->nrows == h->nrows && d->ncols == h->ncols && d->nnz == h->nnz &&
                      d->dtype == h->dtype && d->segment == h->segment &&
                      memcmp(&d->fd_rows, &h->fd_rows, sizeof h->fd_rows) == 0 &&
                      d->children == h->children && d->dynamic == h->dynamic &&
                      d->g3_scalar == h->g3_scalar,
                  "%s: SURAA %d rows, segments of %d (rule %.17g) on the GPU; %d, %d (%.17g) "
                  "on the host", label, d->nrows, d->segment, d->fd_rows, h->nrows, h->segment,
                  h->fd_rows);
    ck_assert_str_eq(d->stats, h->stats);
    ck_assert_int_eq(d->nlaunch, h->nlaunch);
    ck_assert_msg(memcmp(d->group_rows, h->group_rows, sizeof h->group_rows) == 0,
                  "%s: SURAA groups %d/%d/%d on the GPU, %d/%d/%d on the host", label,
                  d->group_rows[0], d->group_rows[1], d->group_rows[2], h->group_rows[0],
                  h->group_rows[1], h->group_rows[2]);
    for (int l = 0; l < h->nlaunch; l++) {
        const spira__suraa_launch *a = &d->launch[l], *b = &h->launch[l];
        ck_assert_msg(a->kind == b->kind && a->first == b->first && a->end == b->end &&
                          a->threads == b->threads,
                      "%s: SURAA launch %d: kind %d rows [%d, %d) threads %d on the GPU; %d "
                      "[%d, %d) %d on the host", label, l, a->kind, a->first, a->end,
                      a->threads, b->kind, b->first, b->end, b->threads);
    }
    const size_t es = spira_dtype_size(h->dtype);
    same_bytes(d->row_ptr, h->row_ptr, ((size_t)h->nrows + 1) * sizeof(int32_t),
               sizeof(int32_t), "SURAA row pointers", label);
    same_bytes(d->perm, h->perm, (size_t)h->nrows * sizeof(int32_t), sizeof(int32_t),
               "SURAA row order", label);
    same_bytes(d->col_idx, h->col_idx, (size_t)h->nnz * sizeof(int32_t), sizeof(int32_t),
               "SURAA columns", label);
    same_bytes(d->val, h->val, (size_t)h->nnz * es, es, "SURAA values", label);
}

/* Plans of (name, opts) for Ad (GPU conversion) and Ah (host's): both refuse alike, or both
 * are built and their layouts are the same. Returns 1 when compared, 0 when refused. */
static int compare(spira_matrix Ad, spira_matrix Ah, const char *name, const char *opts,
                   const char *what)
{
    spira__spmv_plan *pd, *ph;
    if (!tu_convert_plans(Ad, Ah, name, opts, what, &pd, &ph)) return 0;
    char label[256];
    snprintf(label, sizeof label, "%s %s:%s", what, name, opts ? opts : "");
    ck_assert_msg(pd->on_device && !pd->layout, "%s: not converted on the GPU", label);
    ck_assert_msg(!ph->on_device && ph->layout, "%s: not converted on the host", label);
    ck_assert_msg(pd->bytes == ph->bytes, "%s: %zu bytes a multiply on the GPU's layout, %zu "
                  "on the host's", label, pd->bytes, ph->bytes);
    if (!strcmp(name, "ell")) {
        same_ell((const spira__ell_dev *)pd->dev, (const spira__ell *)ph->layout, label);
    } else if (!strcmp(name, "coo")) {
        same_coo((const spira__coo_dev *)pd->dev, (const spira__coo_dev *)ph->dev,
                 (const spira__coo *)ph->layout, label);
    } else if (!strcmp(name, "sell")) {
        same_sell((const spira__sell *)pd->dev, (const spira__sell *)ph->layout, label);
        spira_plan_info a, b;
        spira__plan_info(pd, &a), spira__plan_info(ph, &b);
        ck_assert_str_eq(a.stats, b.stats);
    } else if (!strcmp(name, "cmrs")) {
        const spira__cmrs *d = (const spira__cmrs *)pd->dev;
        const spira__csr_dev *dc = spira__matrix_csr_dev_present(Ad);
        ck_assert_msg(dc && d->val == dc->val,
                      "%s: CMRS built on the GPU does not borrow the device CSR's values", label);
        same_cmrs(d, (const spira__cmrs *)ph->layout, label);
    } else if (!strcmp(name, "suraa")) {
        same_suraa((const spira__suraa *)pd->dev, (const spira__suraa *)ph->layout, label);
    } else {
        const spira__hyb_dev *d = (const spira__hyb_dev *)pd->dev;
        const spira__hyb *h = (const spira__hyb *)ph->layout;
        same_ell(&d->ell, &h->ell, label);
        same_coo(&d->coo, &((const spira__hyb_dev *)ph->dev)->coo, &h->coo, label);
    }
    return 1;
}

static const char *const variants[][2] = {
    {"ell", NULL},        {"ell", "max_fill=1000"},      {"coo", NULL},
    {"coo", "interval=96"}, {"hyb", NULL},              {"hyb", "min_rows=0"},
    {"hyb", "min_rows=2"}, {"hyb", "ell_width=2,interval=64"}, {"hyb", "ell_width=0"},
    {"hyb", "ell_width=100000"},
    {"sell", NULL},       {"sell", "sigma=1"},           {"sell", "sigma=32"},
    {"sell", "sigma=4096"}, {"sell", "unit=0"},         {"cmrs", NULL},
    {"cmrs", "height=1"}, {"cmrs", "height=2"},          {"cmrs", "height=8"},
    {"cmrs", "height=16"},
    {"suraa", NULL},      {"suraa", "segment=1"},        {"suraa", "segment=7,children=5"},
    {"suraa", "g3=scalar"}, {"suraa", "children=0"},     {"suraa", "segment=3,children=100000"},
};
static const int nvariants = sizeof variants / sizeof variants[0];

static int compare_all(spira_matrix Ad, spira_matrix Ah, const char *what)
{
    int built = 0;
    for (int v = 0; v < nvariants; v++) built += compare(Ad, Ah, variants[v][0], variants[v][1], what);
    return built;
}

/* _i: a shape of tu_shapes (empty rows, one row, a dense row, a very long row, ...), float
 * and double */
START_TEST(gpu_device_layout_shapes)
{
    for (int d = 0; d < 2; d++) {
        const spira_dtype t = d ? SPIRA_R32 : SPIRA_R64;
        const unsigned seed = tu_seed() + 17u * (unsigned)_i;
        spira_matrix Ad, Ah;
        tu_convert_pair_shape(&tu_shapes[_i], t, seed, &Ad, &Ah);
        ck_assert_int_gt(compare_all(Ad, Ah, tu_shapes[_i].name), 0);
        spira_matrix_destroy(Ad), spira_matrix_destroy(Ah);
    }
}
END_TEST

/* _i: a bundled matrix */
START_TEST(gpu_device_layout_bundled)
{
    spira_matrix Ad, Ah;
    tu_convert_pair_file(tu_bundled[_i], &Ad, &Ah);
    ck_assert_int_gt(compare_all(Ad, Ah, tu_bundled[_i]), 0);
    spira_matrix_destroy(Ad), spira_matrix_destroy(Ah);
}
END_TEST

/* auto's statistics of Ad on the GPU (which for a pattern of uneven rows keep in the device
 * CSR whether sell would gather hubs: want 1 or -1, 0 where not asked), then sell's default
 * layout built again after them, as on the host. */
static void sell_after_stats(spira_matrix Ad, spira_matrix Ah, int8_t want, const char *what)
{
    const spira__csr_dev *dA = NULL;
    ck_assert_int_eq(spira__matrix_csr_dev(Ad, &dA, NULL), SPIRA_OK);
    spira__row_stats rs;
    ck_assert_int_eq(spira__row_stats_dev(tu_dev_ctx, &Ad->csr, dA, &rs), SPIRA_OK);
    ck_assert_msg(dA->hubs == want, "%s: the device CSR says hubs %d, wanted %d", what,
                  dA->hubs, want);
    ck_assert_int_eq(spira_matrix_set_format(Ad, "sell", NULL), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_drop_plan(Ad), SPIRA_OK); /* built again, with the flag */
    ck_assert_int_eq(compare(Ad, Ah, "sell", NULL, what), 1);
}

/* the hub columns of the sell plan built on the GPU for Ad */
static int32_t device_sell_hubs(spira_matrix Ad)
{
    spira__spmv_plan *p;
    ck_assert_int_eq(spira__spmv_plan_get(Ad, &p), SPIRA_OK);
    ck_assert(p->on_device && p->dev);
    return ((const spira__sell *)p->dev)->nhubs;
}

/* Hub columns (tu_hub_matrix; _i: float or double, values random or all 1): sell's layout
 * with its hubs, without (hubs=0) and unsorted (sigma=1) built on the GPU as on the host,
 * and again after auto's statistics found them */
START_TEST(gpu_device_layout_hubs)
{
    const spira_dtype t = _i % 2 ? SPIRA_R32 : SPIRA_R64;
    const unsigned seed = tu_seed() + (unsigned)_i;
    spira_matrix Ad = tu_hub_matrix(tu_dev_ctx, 100000, t, _i >= 2, seed);
    spira_matrix Ah = tu_hub_matrix(tu_host_ctx, 100000, t, _i >= 2, seed);
    ck_assert_int_eq(compare(Ad, Ah, "sell", NULL, "hubs"), 1);
    ck_assert_int_eq(compare(Ad, Ah, "sell", "hubs=0", "hubs"), 1);
    ck_assert_int_eq(compare(Ad, Ah, "sell", "sigma=1", "hubs"), 1);
    sell_after_stats(Ad, Ah, 1, "hubs, after the statistics"); /* sell's count kept it */
    ck_assert_int_eq(device_sell_hubs(Ad), 5000);
    spira_matrix_destroy(Ad), spira_matrix_destroy(Ah);
}
END_TEST

/* _i: float or double. A pattern of uneven rows (every tenth row 60 entries, the others 2)
 * over 20,000 columns from a random start a row: hubs possible by the sizes (sell.h), none found. auto's
 * statistics say so in the device CSR, and sell's build, which then skips its count, lays
 * it out as the host does, without hubs. */
START_TEST(gpu_device_layout_no_hubs)
{
    const spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    enum { n = 20000 };
    unsigned st = tu_seed() + 7u * (unsigned)_i;
    const int64_t cap = (int64_t)n / 10 * 60 + (int64_t)n * 2;
    int32_t *ri = malloc((size_t)cap * sizeof *ri), *ci = malloc((size_t)cap * sizeof *ci);
    double *v = malloc((size_t)cap * sizeof *v);
    ck_assert(ri && ci && v);
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        const int32_t c0 = (int32_t)tu_uniform(&st, 0, n); /* 337 is prime to n: distinct */
        for (int32_t j = 0; j < (i % 10 ? 2 : 60); j++, k++)
            ri[k] = i, ci[k] = (int32_t)((c0 + (int64_t)j * 337) % n), v[k] = 1;
    }
    ck_assert(spira__sell_hubs_possible(n, k));
    spira_matrix Ad = tu_coo(tu_dev_ctx, n, k, ri, ci, v, t);
    spira_matrix Ah = tu_coo(tu_host_ctx, n, k, ri, ci, v, t);
    free(ri), free(ci), free(v);
    sell_after_stats(Ad, Ah, -1, "uneven pattern without hubs");
    ck_assert_int_eq(device_sell_hubs(Ad), 0);
    spira_matrix_destroy(Ad), spira_matrix_destroy(Ah);
}
END_TEST

/* Past HYB's 4096-row floor, so that its default width is not 0: 60000 rows of 0 to 9
 * entries (a third empty) and row 777 of 30000; _i picks float or double and whether the
 * long row is there. ELL refuses it (the long row) or builds it; HYB's COO part holds the
 * long row's tail, tens of thousands of entries in one row, and the rows beyond K. */
START_TEST(gpu_device_layout_large)
{
    const spira_dtype t = _i % 2 ? SPIRA_R32 : SPIRA_R64;
    const int32_t n = 60000, longlen = _i < 2 ? 30000 : 0;
    unsigned st = tu_seed() + 101u * (unsigned)_i;
    int64_t cap = (int64_t)n * 9 + longlen;
    int32_t *ri = malloc((size_t)cap * sizeof *ri), *ci = malloc((size_t)cap * sizeof *ci);
    double *v = malloc((size_t)cap * sizeof *v);
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t len = i == 777 ? longlen : i % 3 == 0 ? 0 : (int32_t)tu_uniform(&st, 0, 10);
        for (int32_t j = 0; j < len; j++) {
            ri[k] = i;
            ci[k] = i == 777 ? j * 2 : (int32_t)tu_uniform(&st, 0, n); /* duplicates sum */
            v[k++] = (float)tu_uniform(&st, -1, 1);
        }
    }
    spira_matrix Ad = tu_coo(tu_dev_ctx, n, k, ri, ci, v, t);
    spira_matrix Ah = tu_coo(tu_host_ctx, n, k, ri, ci, v, t);
    static const char *const large[][2] = {
        {"ell", NULL},   {"coo", NULL},           {"hyb", NULL},
        {"hyb", "min_rows=0"}, {"hyb", "ell_width=3"}, {"sell", NULL},
        {"sell", "sigma=32"}, {"sell", "sigma=1"},  {"cmrs", NULL},
        {"cmrs", "height=16"}, {"suraa", NULL},     {"suraa", "segment=32,children=64"},
    };
    const int nlarge = sizeof large / sizeof large[0];
    int built = 0; /* ELL may refuse the short rows too: their fill is near 3 */
    for (int j = 0; j < nlarge; j++) built += compare(Ad, Ah, large[j][0], large[j][1], "large");
    ck_assert_int_ge(built, nlarge - 1);
    spira__spmv_plan *p;
    ck_assert_int_eq(spira_matrix_set_format(Ad, "hyb", NULL), SPIRA_OK);
    ck_assert_int_eq(spira__spmv_plan_get(Ad, &p), SPIRA_OK);
    ck_assert_int_gt(((const spira__hyb_dev *)p->dev)->ell.K, 0);
    spira_matrix_destroy(Ad), spira_matrix_destroy(Ah);
    free(ri), free(ci), free(v);
}
END_TEST

TCase *tu_gpu_device_layout_tcase(void)
{
    TCase *tc = tcase_create("layouts converted on the GPU");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, tu_convert_contexts_make, tu_convert_contexts_free);
    tcase_add_loop_test(tc, gpu_device_layout_shapes, 0, tu_nshapes);
    tcase_add_loop_test(tc, gpu_device_layout_bundled, 0, tu_nbundled);
    tcase_add_loop_test(tc, gpu_device_layout_large, 0, 4);
    tcase_add_loop_test(tc, gpu_device_layout_hubs, 0, 4);
    tcase_add_loop_test(tc, gpu_device_layout_no_hubs, 0, 2);
    return tc;
}
