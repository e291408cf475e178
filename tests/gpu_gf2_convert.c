/*
 * gpu_gf2_convert.c - the GF(2) conversions on the GPU against the host's (a test case of
 * check_gpu): sliced-coo, dense and combined plans built on the GPU from the pattern's
 * device copy (tu_dev_ctx) and converted on the host then uploaded (tu_host_ctx, the CPU
 * reference's layout), compared array for array after reading the device arrays back
 * (poisoned buffers, so a byte not read back differs), with the same bytes a multiply, the
 * same refusals, and the plan saying where it was built. The multiplies themselves are
 * checked against the triplets with Y poisoned by gpu_gf2_formats (tu_gf2_check), which
 * runs the device-built plans; here each pair also multiplies to the same bits.
 */
#include "testutil.h"
#include "gf2/gf2_dev.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* device array d of bytes equal to host h, else fail naming what */
static void same_bytes(const void *d, const void *h, size_t bytes, const char *label,
                       const char *what)
{
    unsigned char *b = malloc(bytes + 1);
    memset(b, 0xa5, bytes + 1);
    ck_assert_int_eq(spira__cuda_download(tu_dev_ctx, b, d, bytes), SPIRA_OK);
    ck_assert_int_eq(spira__cuda_synchronize(tu_dev_ctx), SPIRA_OK);
    if (bytes && memcmp(b, h, bytes) != 0) {
        size_t k = 0;
        while (b[k] == ((const unsigned char *)h)[k]) k++;
        ck_abort_msg("%s: %s differ from byte %zu of %zu (GPU %02x, host %02x)", label, what, k,
                     bytes, b[k], ((const unsigned char *)h)[k]);
    }
    free(b);
}

static void same_sliced(const spira__gf2_sliced_dev *d, const spira__gf2_sliced *h,
                        const char *label)
{
    ck_assert_msg(d->nnz == h->nnz && d->nslices == h->nslices && d->rows == h->rows &&
                      d->share == h->share && d->words == h->words,
                  "%s: GPU %d entries, %d slices of %d rows, share %d, %d words; host %d, %d, "
                  "%d, %d, %d", label, d->nnz, d->nslices, d->rows, d->share, d->words, h->nnz,
                  h->nslices, h->rows, h->share, h->words);
    if (!h->nslices) return;
    same_bytes(d->slice_ptr, h->slice_ptr, ((size_t)h->nslices + 1) * 4, label, "slice pointers");
    same_bytes(d->col, h->col, (size_t)h->nnz * 4, label, "columns");
    same_bytes(d->row, h->row, (size_t)h->nnz * 2, label, "rows");
}

static void same_dense(const spira__gf2_dense_dev *d, const spira__gf2_dense *h, const char *label)
{
    ck_assert_msg(d->nrows == h->nrows && d->ngroups == h->ngroups && d->ndense == h->ndense &&
                      d->words == h->words,
                  "%s: bitmap GPU %d rows, %d groups, %d columns; host %d, %d, %d", label,
                  d->nrows, d->ngroups, d->ndense, h->nrows, h->ngroups, h->ndense);
    same_bytes(d->col, h->col, (size_t)h->ndense * 4, label, "bitmap columns");
    same_bytes(d->bits, h->bits, (size_t)h->ngroups * (size_t)h->ndense * 4, label, "bitmap");
}

/* The plans of (name, opts) at W = 64 words bits built both ways: the same layout, bytes and
 * product of a random X; 1 if built, 0 if both refused alike. */
static int compare(spira_gf2_matrix Md, spira_gf2_matrix Mh, const char *name, const char *opts,
                   int words, const char *what)
{
    char label[256];
    snprintf(label, sizeof label, "%s, %s:%s, %d bits", what, name, opts, 64 * words);
    spira__gf2_plan *pd = NULL, *ph = NULL;
    spira_status sd = spira_gf2_matrix_set_format(Md, name, opts);
    if (sd == SPIRA_OK) sd = spira__gf2_plan_get(Md, words, &pd);
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", spira_last_error(tu_dev_ctx));
    spira_status sh = spira_gf2_matrix_set_format(Mh, name, opts);
    if (sh == SPIRA_OK) sh = spira__gf2_plan_get(Mh, words, &ph);
    ck_assert_msg(sd == sh, "%s: on the GPU %s (%s), on the host %s (%s)", label,
                  spira_status_name(sd), msg, spira_status_name(sh), spira_last_error(tu_host_ctx));
    if (sd != SPIRA_OK) {
        ck_assert_str_eq(msg, spira_last_error(tu_host_ctx));
        return 0;
    }
    ck_assert_msg(pd->on_device && !pd->layout, "%s: not built on the GPU", label);
    ck_assert_msg(!ph->on_device && ph->layout, "%s: not converted on the host", label);
    ck_assert_msg(pd->bytes == ph->bytes, "%s: %zu bytes a multiply on the GPU's, %zu on the "
                  "host's", label, pd->bytes, ph->bytes);
    if (!strcmp(name, "sliced-coo")) {
        same_sliced(pd->dev, ph->layout, label);
    } else if (!strcmp(name, "dense")) {
        same_dense(pd->dev, ph->layout, label);
    } else {
        const spira__gf2_combined_dev *d = pd->dev;
        const spira__gf2_combined *h = ph->layout;
        ck_assert_msg(!d->perm == !h->perm, "%s: row order %s on the GPU, %s on the host", label,
                      d->perm ? "kept" : "none", h->perm ? "kept" : "none");
        if (h->perm) same_bytes(d->perm, h->perm, (size_t)h->nrows * 4, label, "row order");
        same_dense(&d->dense, &h->dense, label);
        for (int b = 0; b < SPIRA__GF2_BANDS; b++) {
            char band[300];
            snprintf(band, sizeof band, "%s band %d", label, b + 1);
            same_sliced(&d->band[b], &h->band[b], band);
        }
    }
    /* the products, Y poisoned differently on each side */
    int64_t m, n;
    spira_gf2_matrix_size(Md, &m, &n, NULL);
    const size_t nx = (size_t)n * words, ny = (size_t)m * words;
    uint64_t *x = malloc((nx + 1) * 8), *yd = malloc((ny + 1) * 8), *yh = malloc((ny + 1) * 8);
    uint64_t st = 0x5851f42d4c957f2dull ^ (uint64_t)words;
    for (size_t k = 0; k < nx; k++) x[k] = spira__xorshift64(&st);
    spira_gf2_block Xd, Yd, Xh, Yh;
    ck_assert_int_eq(spira_gf2_block_create(tu_dev_ctx, n, 64 * words, &Xd), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_create(tu_dev_ctx, m, 64 * words, &Yd), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_create(tu_host_ctx, n, 64 * words, &Xh), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_create(tu_host_ctx, m, 64 * words, &Yh), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_set(Xd, x), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_set(Xh, x), SPIRA_OK);
    memset(yd, 0xff, ny * 8);
    memset(yh, 0x5a, ny * 8);
    ck_assert_int_eq(spira_gf2_block_set(Yd, yd), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_set(Yh, yh), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_spmv(Md, Xd, Yd), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_spmv(Mh, Xh, Yh), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_get(Yd, yd), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_get(Yh, yh), SPIRA_OK);
    ck_assert_msg(!memcmp(yd, yh, ny * 8), "%s: the products differ", label);
    spira_gf2_block_destroy(Xd), spira_gf2_block_destroy(Yd);
    spira_gf2_block_destroy(Xh), spira_gf2_block_destroy(Yh);
    free(x), free(yd), free(yh);
    return 1;
}

static const char *const variants[][2] = {
    {"sliced-coo", ""},
    {"sliced-coo", "share=thread"},
    {"sliced-coo", "share=block,rows=7"},
    {"dense", ""},
    {"dense", "max_fill=11"},
    {"combined", ""},
    {"combined", "dense=0,band1=thread,band2=warp,band3=block"},
    {"combined", "dense=1024"},
    {"combined", "dense=4,cut1=16,cut2=64,band1=block,band2=thread,band3=warp"},
    {"combined", "dense=8,cut1=4,cut2=64,band1=csr,band2=block,band3=csr"},
    {"combined", "band1=block,parts=3"},
};

/* every variant at 64 and 256 bits (128 too with all3) on the triplets' matrix */
static int compare_all(int32_t m, int32_t n, const tu_triplets *T, const char *what, int all3)
{
    spira_gf2_matrix Md, Mh;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(tu_dev_ctx, m, n, T->nnz, T->ri, T->ci, &Md),
                     SPIRA_OK);
    ck_assert_int_eq(spira_gf2_matrix_from_coo(tu_host_ctx, m, n, T->nnz, T->ri, T->ci, &Mh),
                     SPIRA_OK);
    int built = 0;
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
        for (int words = 1; words <= 4; words *= 2)
            if (words != 2 || all3)
                built += compare(Md, Mh, variants[v][0], variants[v][1], words, what);
    spira_gf2_matrix_destroy(Md), spira_gf2_matrix_destroy(Mh);
    return built;
}

/* _i: a shape of tu_shapes */
START_TEST(gpu_gf2_convert_shapes)
{
    tu_triplets T;
    tu_shape_triplets(&tu_shapes[_i], tu_seed() + 17u * (unsigned)_i, &T);
    ck_assert_int_gt(compare_all(tu_shapes[_i].nrows, tu_shapes[_i].ncols, &T, tu_shapes[_i].name,
                                 0), 0);
    tu_triplets_free(&T);
}
END_TEST

/* Sieve-shaped: 10^5 rows of 60 (rows of one weight: no row order), and the same with every
 * third row cut short (rows reordered by weight), at all three widths. */
START_TEST(gpu_gf2_convert_sieve)
{
    tu_triplets T;
    const int32_t n = 100000;
    tu_gf2_nfs_triplets(n, 60, tu_seed() + (unsigned)_i, &T);
    if (_i == 1) { /* row i % 3 == 0 keeps its first 20 entries: the others move to row 1 */
        for (int64_t e = 0; e < T.nnz; e++)
            if (T.ri[e] % 3 == 0 && e % 60 >= 20) T.ri[e] = 1;
    }
    ck_assert_int_gt(compare_all(n, n, &T, _i ? "sieve-shaped, uneven rows" : "sieve-shaped", 1), 0);
    tu_triplets_free(&T);
}
END_TEST

TCase *tu_gpu_gf2_convert_tcase(void)
{
    TCase *tc = tcase_create("GF(2) conversion on the GPU");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, tu_convert_contexts_make, tu_convert_contexts_free);
    tcase_add_loop_test(tc, gpu_gf2_convert_shapes, 0, tu_nshapes);
    tcase_add_loop_test(tc, gpu_gf2_convert_sieve, 0, 2);
    return tc;
}
