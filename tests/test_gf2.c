/*
 * test_gf2.c - SpMV over GF(2): entries as parities, Matrix Market input mod 2, every
 * format and width against a reference computed from the triplets themselves, the sliced
 * layout, bad arguments, and allocation failures. tu_gf2_check is the GPU suite's too.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "testutil.h"
#include "gf2/gf2_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const tu_gf2_variants[][2] = {
    {"csr", ""},
    {"sliced-coo", ""},
    {"sliced-coo", "share=thread"},
    {"sliced-coo", "share=block"},
    {"sliced-coo", "share=block,rows=7"},
    {"sliced-coo", "share=warp,rows=1"},
    {"dense", ""}, /* refuses most shapes: tu_gf2_check asserts where */
    {"dense", "max_fill=11"},
    {"combined", ""},
    {"combined", "dense=0,band1=thread,band2=warp,band3=block"},         /* nothing dense */
    {"combined", "dense=1024"},                                          /* (nearly) all dense */
    {"combined", "dense=0,cut1=1,cut2=1,band3=thread"},                  /* one band */
    {"combined", "dense=4,cut1=16,cut2=64,band1=block,band2=thread,band3=warp"},
    {"combined", "dense=8,cut1=4,cut2=64,band1=csr,band2=block,band3=csr"},
    {"combined", "band1=block,parts=3"}, /* slices shared by three blocks on the GPU */
};
const int tu_gf2_nvariants = sizeof tu_gf2_variants / sizeof tu_gf2_variants[0];
int tu_gf2_devices = 1;

/* Whether the dense format refuses M with opts (its max_fill, else the default): the rows
 * of one of M's device parts' chunks (all of M on one device), each its own plan. */
static int dense_refuses(spira_context ctx, spira_gf2_matrix M, const char *opts)
{
    const char *mf = strstr(opts, "max_fill=");
    const long max_fill = mf ? atol(mf + 9) : 3;
    spira__gf2_part *parts;
    int np;
    ck_assert_int_eq(spira__gf2_parts(M, &parts, &np), SPIRA_OK);
    for (int d = 0; d < np; d++)
        for (int c = 0; c < parts[d].nchunks; c++) {
            const spira__gf2_pattern *P = &parts[d].sub[c]->pattern;
            if (spira__gf2_dense_check(ctx, P->nrows, P->ncols, P->nnz, max_fill) != SPIRA_OK)
                return 1;
        }
    return 0;
}

int tu_gf2_check(spira_context ctx, int32_t nrows, int32_t ncols, int64_t nnz,
                 const int32_t *ri, const int32_t *ci, const char *label, unsigned seed)
{
    spira_gf2_matrix M;
    ck_assert_msg(spira_gf2_matrix_from_coo(ctx, nrows, ncols, nnz, ri, ci, &M) == SPIRA_OK,
                  "%s: %s", label, spira_last_error(ctx));
    ck_assert_msg(spira_gf2_matrix_set_devices(M, tu_gf2_devices) == SPIRA_OK, "%s: %s", label,
                  spira_last_error(ctx));
    uint64_t st = 0x9e3779b97f4a7c15ull ^ seed;
    int runs = 0;
    for (int words = 1; words <= 4; words *= 2) {
        size_t nx = (size_t)ncols * words, ny = (size_t)nrows * words;
        uint64_t *x = malloc((nx + 1) * 8), *ref = calloc(ny + 1, 8), *y = malloc((ny + 1) * 8);
        for (size_t k = 0; k < nx; k++) x[k] = spira__xorshift64(&st);
        /* every triplet XORed in: a repeated one cancels, as the matrix's parity does */
        for (int64_t e = 0; e < nnz; e++)
            for (int q = 0; q < words; q++)
                ref[(size_t)ri[e] * words + q] ^= x[(size_t)ci[e] * words + q];
        spira_gf2_block X, Y;
        ck_assert_int_eq(spira_gf2_block_create(ctx, ncols, 64 * words, &X), SPIRA_OK);
        ck_assert_int_eq(spira_gf2_block_create(ctx, nrows, 64 * words, &Y), SPIRA_OK);
        ck_assert_int_eq(spira_gf2_block_set(X, x), SPIRA_OK);
        for (int v = 0; v < tu_gf2_nvariants; v++) {
            ck_assert_int_eq(spira_gf2_matrix_set_format(M, tu_gf2_variants[v][0],
                                                         tu_gf2_variants[v][1]), SPIRA_OK);
            memset(y, 0xff, ny * 8); /* poison: every bit set */
            ck_assert_int_eq(spira_gf2_block_set(Y, y), SPIRA_OK);
            if (!strcmp(tu_gf2_variants[v][0], "dense") &&
                dense_refuses(ctx, M, tu_gf2_variants[v][1])) {
                ck_assert_int_eq(spira_gf2_spmv(M, X, Y), SPIRA_ERR_UNSUPPORTED);
                tu_assert_error_has(ctx, "dense refuses: the bitmap of ");
                continue;
            }
            spira_status s = spira_gf2_spmv(M, X, Y);
            ck_assert_msg(s == SPIRA_OK, "%s, %s:%s, %d bits: %s", label, tu_gf2_variants[v][0],
                          tu_gf2_variants[v][1], 64 * words, spira_last_error(ctx));
            ck_assert_int_eq(spira_gf2_block_get(Y, y), SPIRA_OK);
            for (size_t k = 0; k < ny; k++)
                ck_assert_msg(y[k] == ref[k], "%s, %s:%s, %d bits: row %zu word %zu: %016llx, "
                              "want %016llx", label, tu_gf2_variants[v][0],
                              tu_gf2_variants[v][1], 64 * words, k / words, k % words,
                              (unsigned long long)y[k], (unsigned long long)ref[k]);
            runs++;
        }
        spira_gf2_block_destroy(X);
        spira_gf2_block_destroy(Y);
        free(x), free(ref), free(y);
    }
    spira_gf2_matrix_destroy(M);
    return runs;
}

void tu_gf2_nfs_triplets(int32_t n, int weight, unsigned seed, tu_triplets *T)
{
    T->nnz = (int64_t)n * weight;
    T->ri = malloc((size_t)(T->nnz + 1) * sizeof *T->ri);
    T->ci = malloc((size_t)(T->nnz + 1) * sizeof *T->ci);
    T->v = NULL, T->vf = NULL;
    unsigned st = seed;
    for (int64_t e = 0; e < T->nnz; e++) {
        double u = tu_uniform(&st, 0, 1);
        T->ri[e] = (int32_t)(e / weight);
        T->ci[e] = (int32_t)(n * u * u * u); /* low columns dense, as in the sieve's matrices */
    }
}

void tu_gf2_wide_triplets(int32_t m, int32_t n, int weight, unsigned seed, tu_triplets *T)
{
    T->nnz = (int64_t)m * weight;
    T->ri = malloc((size_t)(T->nnz + 1) * sizeof *T->ri);
    T->ci = malloc((size_t)(T->nnz + 1) * sizeof *T->ci);
    T->v = NULL, T->vf = NULL;
    unsigned st = seed;
    for (int64_t e = 0; e < T->nnz; e++) {
        T->ri[e] = (int32_t)(e / weight);
        T->ci[e] = (int32_t)tu_uniform(&st, 0, n);
    }
}

uint64_t tu_gf2_kernel_check(spira_context ctx, int32_t m, int32_t n, const tu_triplets *T,
                             const char *format, uint64_t seed, uint64_t *K)
{
    spira_gf2_matrix M;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, m, n, T->nnz, T->ri, T->ci, &M), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_matrix_set_format(M, format, NULL), SPIRA_OK);
    spira_gf2_block B;
    ck_assert_int_eq(spira_gf2_block_create(ctx, n, 64, &B), SPIRA_OK);
    spira_gf2_kernel_opts o = {seed, SPIRA_GF2_KERNEL_BIT};
    spira_gf2_kernel_info info;
    spira_status s = spira_gf2_kernel(M, B, &o, &info);
    ck_assert_msg(s == SPIRA_OK, "%s: %s", format, spira_last_error(ctx));
    ck_assert_int_eq(spira_gf2_block_get(B, K), SPIRA_OK);
    ck_assert_int_eq(info.found, __builtin_popcountll(info.lanes));
    ck_assert_int_ge(info.found, 1);
    ck_assert_int_ge(info.spmvs, 2 * (int64_t)n + 16);
    /* every found column nonzero and sent to 0 by the triplets; the others empty */
    uint64_t nz = 0, *image = calloc((size_t)m + 1, sizeof *image);
    for (int32_t i = 0; i < n; i++) nz |= K[i];
    for (int64_t e = 0; e < T->nnz; e++) image[T->ri[e]] ^= K[T->ci[e]];
    for (int32_t i = 0; i < m; i++)
        ck_assert_msg(!(image[i] & info.lanes), "%s: row %d of M K is %016llx", format, i,
                      (unsigned long long)image[i]);
    ck_assert_msg(nz == info.lanes, "%s: nonzero columns %016llx, found %016llx", format,
                  (unsigned long long)nz, (unsigned long long)info.lanes);
    free(image);
    spira_gf2_block_destroy(B);
    spira_gf2_matrix_destroy(M);
    return info.lanes;
}

/* Entries given an even number of times vanish, odd ones stay. */
START_TEST(gf2_parity)
{
    spira_context ctx = tu_cpu();
    const int32_t ri[] = {0, 0, 0, 1, 1, 1, 2, 0};
    const int32_t ci[] = {1, 2, 2, 0, 0, 0, 2, 3};
    spira_gf2_matrix M;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, 3, 4, 8, ri, ci, &M), SPIRA_OK);
    int64_t m, n, nnz;
    ck_assert_int_eq(spira_gf2_matrix_size(M, &m, &n, &nnz), SPIRA_OK);
    ck_assert(m == 3 && n == 4 && nnz == 4); /* (0,1) (0,3) (1,0) (2,2) */
    const int32_t want_rp[] = {0, 2, 3, 4}, want_ci[] = {1, 3, 0, 2};
    ck_assert(!memcmp(M->pattern.row_ptr, want_rp, sizeof want_rp));
    ck_assert(!memcmp(M->pattern.col_idx, want_ci, sizeof want_ci));
    ck_assert_ptr_null(M->pattern.val);
    spira_gf2_matrix_destroy(M);
    spira_context_destroy(ctx);
}
END_TEST

static const char *write_temp(const char *text)
{
    static char path[256];
    const char *t = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/spira-gf2-XXXXXX", t && *t ? t : "/tmp");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

/* Matrix Market as GF(2): pattern entries 1, integers mod 2 after duplicates are summed,
 * symmetric files expanded, a fraction refused naming the entry. */
START_TEST(gf2_read_mm)
{
    spira_context ctx = tu_cpu();
    const struct {
        const char *text;
        int64_t nnz;
    } ok[] = {
        {"%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 1\n2 3\n3 2\n", 3},
        /* 2 and -4 even, 3 and -1 odd; (1,2) twice: 1 + 1 */
        {"%%MatrixMarket matrix coordinate integer general\n2 3 6\n1 1 2\n1 3 3\n2 1 -1\n"
         "2 2 -4\n1 2 1\n1 2 1\n", 2},
        {"%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n", 3},
        {"%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 5.0\n2 2 1e1\n", 1},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        spira_gf2_matrix M;
        const char *p = write_temp(ok[i].text);
        ck_assert_msg(spira_gf2_matrix_read_mm(ctx, p, &M) == SPIRA_OK, "%s", spira_last_error(ctx));
        unlink(p);
        int64_t nnz;
        spira_gf2_matrix_size(M, NULL, NULL, &nnz);
        ck_assert_int_eq(nnz, ok[i].nnz);
        spira_gf2_matrix_destroy(M);
    }
    spira_gf2_matrix M = (spira_gf2_matrix)1;
    const char *p = write_temp("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 1 0.5\n");
    ck_assert_int_eq(spira_gf2_matrix_read_mm(ctx, p, &M), SPIRA_ERR_PARSE);
    unlink(p);
    ck_assert_ptr_null(M);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), ": entry (2, 1) is 0.5, not an integer"));
    p = write_temp("%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 18014398509481984\n");
    ck_assert_int_eq(spira_gf2_matrix_read_mm(ctx, p, &M), SPIRA_ERR_PARSE);
    unlink(p);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "not an integer of at most 2^53"));
    ck_assert_int_eq(spira_gf2_matrix_read_mm(ctx, "/nonexistent/m.mtx", &M), SPIRA_ERR_IO);
    spira_context_destroy(ctx);
}
END_TEST

/* Every format, width and variant against the triplets, on awkward shapes (duplicates
 * included) and a sieve-shaped matrix. */
START_TEST(gf2_formats_on_shapes)
{
    spira_context ctx = tu_cpu();
    tu_triplets T;
    tu_shape_triplets(&tu_shapes[_i], tu_seed() + (unsigned)_i, &T);
    ck_assert_int_gt(tu_gf2_check(ctx, tu_shapes[_i].nrows, tu_shapes[_i].ncols, T.nnz, T.ri,
                                  T.ci, tu_shapes[_i].name, tu_seed()), 0);
    tu_triplets_free(&T);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(gf2_nfs_shape)
{
    spira_context ctx = tu_cpu();
    tu_triplets T;
    tu_gf2_nfs_triplets(20000, 60, tu_seed(), &T);
    ck_assert_int_gt(tu_gf2_check(ctx, 20000, 20000, T.nnz, T.ri, T.ci, "sieve-shaped", tu_seed()), 0);
    tu_triplets_free(&T);
    spira_context_destroy(ctx);
}
END_TEST

/* The sliced layout: rows a slice by who shares shared memory and the width; slice_ptr
 * at every R-th row; each slice's entries in column order (then row), rows within it. */
START_TEST(gf2_sliced_layout)
{
    spira_context ctx = tu_cpu();
    tu_triplets T;
    tu_gf2_nfs_triplets(5000, 20, tu_seed(), &T);
    spira_gf2_matrix M;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, 5000, 5000, T.nnz, T.ri, T.ci, &M), SPIRA_OK);
    const spira__gf2_format *f = spira__gf2_format_find("sliced-coo");
    const struct {
        const char *opts;
        int words, rows;
    } want[] = {{"share=thread", 1, 24}, {"share=warp", 1, 192}, {"share=block", 1, 6144},
                {"share=thread", 4, 6},  {"", 4, 48},            {"share=block", 2, 3072},
                {"rows=100", 1, 100}};
    const spira__gf2_pattern *A = &M->pattern;
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        spira__gf2_sliced *L;
        char opts[64]; /* the width as the plan passes it (gf2.h) */
        snprintf(opts, sizeof opts, "%s%swords=%d", want[w].opts, want[w].opts[0] ? "," : "",
                 want[w].words);
        ck_assert_int_eq(f->convert(ctx, A, opts, (void **)&L), SPIRA_OK);
        ck_assert_int_eq(L->words, want[w].words);
        ck_assert_int_eq(L->rows, want[w].rows);
        ck_assert_int_eq(L->nslices, (5000 + L->rows - 1) / L->rows);
        for (int32_t s = 0; s < L->nslices; s++) {
            ck_assert_int_eq(L->slice_ptr[s], A->row_ptr[(int64_t)s * L->rows]);
            for (int32_t k = L->slice_ptr[s]; k < L->slice_ptr[s + 1]; k++) {
                ck_assert_int_lt(L->row[k], L->rows);
                if (k > L->slice_ptr[s])
                    ck_assert(L->col[k - 1] < L->col[k] ||
                              (L->col[k - 1] == L->col[k] && L->row[k - 1] < L->row[k]));
            }
        }
        ck_assert_uint_eq(f->bytes(L), (size_t)(L->nslices + 1) * 4 + (size_t)A->nnz * 6);
        f->destroy(L);
    }
    spira_gf2_matrix_destroy(M);
    tu_triplets_free(&T);
    spira_context_destroy(ctx);
}
END_TEST

/* Kernel vectors of a wide random matrix (400 x 440, 8 entries a row), with both formats:
 * found, nonzero, in the kernel, and the same bits whichever format multiplied. */
START_TEST(gf2_kernel_wide)
{
    spira_context ctx = tu_cpu();
    tu_triplets T;
    tu_gf2_wide_triplets(400, 440, 8, tu_seed(), &T);
    uint64_t *K1 = malloc(440 * 8), *K2 = malloc(440 * 8);
    uint64_t l1 = tu_gf2_kernel_check(ctx, 400, 440, &T, "csr", tu_seed(), K1);
    uint64_t l2 = tu_gf2_kernel_check(ctx, 400, 440, &T, "sliced-coo", tu_seed(), K2);
    ck_assert(l1 == l2 && !memcmp(K1, K2, 440 * 8));
    free(K1), free(K2);
    tu_triplets_free(&T);
    spira_context_destroy(ctx);
}
END_TEST

/* A square matrix with an empty column has e_j in its kernel: found. The identity has none:
 * NOT_CONVERGED and K zero. A tall matrix and a K of the wrong shape are refused. */
START_TEST(gf2_kernel_square)
{
    spira_context ctx = tu_cpu();
    tu_triplets T;
    tu_gf2_wide_triplets(300, 300, 6, tu_seed(), &T);
    for (int64_t e = 0; e < T.nnz; e++)
        if (T.ci[e] == 5) T.ci[e] = 6; /* column 5 empty */
    uint64_t *K = malloc(300 * 8);
    tu_gf2_kernel_check(ctx, 300, 300, &T, "csr", 7, K);
    tu_triplets_free(&T);
    int32_t idx[99];
    for (int i = 0; i < 99; i++) idx[i] = i;
    spira_gf2_matrix I = tu_gf2_identity(ctx, 100), Tall;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, 100, 99, 99, idx, idx, &Tall), SPIRA_OK);
    spira_gf2_block B, B99, W;
    ck_assert_int_eq(spira_gf2_block_create(ctx, 100, 64, &B), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_create(ctx, 99, 64, &B99), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_create(ctx, 100, 128, &W), SPIRA_OK);
    tu_gf2_kernel_none(I, B, NULL, "none of 64 runs found a vector");
    ck_assert_int_eq(spira_gf2_kernel(Tall, B99, NULL, NULL), SPIRA_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "M is 100 x 99, taller than wide"));
    ck_assert_int_eq(spira_gf2_kernel(I, W, NULL, NULL), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "K must be 100 rows of 64 bits"));
    spira_gf2_block_destroy(B), spira_gf2_block_destroy(B99), spira_gf2_block_destroy(W);
    spira_gf2_matrix_destroy(I), spira_gf2_matrix_destroy(Tall);
    free(K);
    spira_context_destroy(ctx);
}
END_TEST


/* The bitmap: 32 rows of a column in a word, a group's words consecutive over the columns;
 * the standalone format refuses beyond max_fill times the CSR's bytes, naming them. */
START_TEST(gf2_dense_layout)
{
    spira_context ctx = tu_cpu();
    const int32_t ri[] = {0, 31, 32, 39, 5}, ci[] = {0, 0, 1, 2, 2};
    spira_gf2_matrix M;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, 40, 3, 5, ri, ci, &M), SPIRA_OK);
    const spira__gf2_format *f = spira__gf2_format_find("dense");
    spira__gf2_dense *D;
    ck_assert_int_eq(f->convert(ctx, &M->pattern, "words=2", (void **)&D), SPIRA_OK);
    ck_assert(D->nrows == 40 && D->ngroups == 2 && D->ndense == 3 && D->words == 2);
    const uint32_t want[] = {1u | 1u << 31, 0, 1u << 5, 0, 1, 1u << 7};
    ck_assert(!memcmp(D->bits, want, sizeof want));
    for (int d = 0; d < 3; d++) ck_assert_int_eq(D->col[d], d);
    ck_assert_uint_eq(f->bytes(D), 3 * 4 + 2 * 3 * 4);
    f->destroy(D);
    spira_gf2_matrix_destroy(M);
    /* 1000 x 1000 with one entry a row: a bitmap of 125,000 bytes against 8,004 of CSR */
    int32_t r[1000];
    for (int i = 0; i < 1000; i++) r[i] = i;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, 1000, 1000, 1000, r, r, &M), SPIRA_OK);
    ck_assert_int_eq(f->convert(ctx, &M->pattern, "words=1", (void **)&D), SPIRA_ERR_UNSUPPORTED);
    tu_assert_error_has(ctx, "dense refuses: the bitmap of 1000 x 1000 (rows padded to 32) would "
                             "be 128000 bytes, 16.0x the 8004 bytes of its CSR (limit max_fill=3)");
    ck_assert_int_eq(f->convert(ctx, &M->pattern, "words=1,max_fill=16", (void **)&D), SPIRA_OK);
    f->destroy(D);
    ck_assert_int_eq(f->convert(ctx, &M->pattern, "words=1,max_fill=0", (void **)&D),
                     SPIRA_ERR_INVALID_ARG);
    spira_gf2_matrix_destroy(M);
    spira_context_destroy(ctx);
}
END_TEST

static int has_entry(const spira__gf2_pattern *A, int32_t i, int32_t j)
{
    for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
        if (A->col_idx[k] == j) return 1;
    return 0;
}

/* The combined layout of a matrix with rows of many weights: perm orders rows by weight,
 * ties in order; the bitmap holds exactly the columns dense by the cut-off, in order; each
 * band exactly its class's entries, slices of the sub-format's rows in column order; every
 * entry of M exactly once. _i: cut-offs and sub-formats. */
START_TEST(gf2_combined_layout)
{
    static const char *const opts[] = {"", "dense=8,cut1=64,cut2=512,band1=thread,band2=warp",
                                       "dense=0,cut1=2,cut2=4,band3=thread", "dense=1024",
                                       "dense=16,cut1=64,band1=csr,band3=csr"};
    spira_context ctx = tu_cpu();
    tu_triplets T;
    tu_shape_triplets(&tu_shapes[10], tu_seed(), &T); /* power-law rows */
    const int32_t n = tu_shapes[10].nrows;
    for (int64_t e = 0; e < T.nnz; e++) /* dense low columns, as the sieve's */
        T.ci[e] = (int32_t)((double)T.ci[e] * T.ci[e] * T.ci[e] / ((double)n * n));
    spira_gf2_matrix M;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, n, n, T.nnz, T.ri, T.ci, &M), SPIRA_OK);
    const spira__gf2_pattern *A = &M->pattern;
    const spira__gf2_format *f = spira__gf2_format_find("combined");
    char o[128];
    snprintf(o, sizeof o, "%s%swords=%d", opts[_i], opts[_i][0] ? "," : "", 1 + _i % 2);
    spira__gf2_combined *L;
    ck_assert_msg(f->convert(ctx, A, o, (void **)&L) == SPIRA_OK, "%s", spira_last_error(ctx));
    spira__gf2_cuts c;
    ck_assert_int_eq(spira__gf2_combined_cuts(ctx, opts[_i], &c), SPIRA_OK);
    ck_assert_str_eq(c.source, "generic");
    ck_assert(L->cuts.dense == c.dense && L->cuts.cut[0] == c.cut[0] && L->cuts.cut[1] == c.cut[1]);
    ck_assert_ptr_nonnull(L->perm);
    int32_t *seen = calloc((size_t)n, sizeof *seen), *count = calloc((size_t)n, sizeof *count);
#define WEIGHT(r) (A->row_ptr[(r) + 1] - A->row_ptr[r])
    for (int32_t i = 0; i < n; i++) {
        ck_assert(L->perm[i] >= 0 && L->perm[i] < n && !seen[L->perm[i]]++);
        if (i) ck_assert(WEIGHT(L->perm[i - 1]) > WEIGHT(L->perm[i]) ||
                         (WEIGHT(L->perm[i - 1]) == WEIGHT(L->perm[i]) &&
                          L->perm[i - 1] < L->perm[i]));
    }
    int32_t *inv = malloc((size_t)n * sizeof *inv);
    for (int32_t i = 0; i < n; i++) inv[L->perm[i]] = i;
    for (int32_t k = 0; k < A->nnz; k++) count[A->col_idx[k]]++;
    /* the bitmap: the dense columns in order, each entry's bit */
    int32_t d = 0;
    int64_t in_bitmap = 0;
    for (int32_t j = 0; j < n; j++)
        if (spira__gf2_column_class(&c, count[j], n) == 0) {
            ck_assert_int_lt(d, L->dense.ndense);
            ck_assert_int_eq(L->dense.col[d++], j);
        }
    ck_assert_int_eq(d, L->dense.ndense);
    for (int32_t g = 0; g < L->dense.ngroups; g++)
        for (d = 0; d < L->dense.ndense; d++)
            for (uint32_t b = L->dense.bits[(size_t)g * L->dense.ndense + d]; b; b &= b - 1) {
                const int32_t i = g * 32 + __builtin_ctz(b);
                ck_assert_int_lt(i, n);
                ck_assert(has_entry(A, L->perm[i], L->dense.col[d]));
                in_bitmap++;
            }
    /* the bands */
    int64_t total = in_bitmap;
    for (int b = 0; b < SPIRA__GF2_BANDS; b++) {
        const spira__gf2_sliced *B = &L->band[b];
        ck_assert_int_eq(B->share, c.share[b]);
        if (!B->nnz) continue;
        ck_assert_int_eq(B->rows, spira__gf2_sliced_fit(c.share[b], 1 + _i % 2));
        ck_assert_int_eq(B->nslices, (n + B->rows - 1) / B->rows);
        ck_assert_int_eq(B->slice_ptr[0], 0);
        ck_assert_int_eq(B->slice_ptr[B->nslices], B->nnz);
        for (int32_t s = 0; s < B->nslices; s++)
            for (int32_t k = B->slice_ptr[s]; k < B->slice_ptr[s + 1]; k++) {
                const int32_t i = s * B->rows + B->row[k];
                ck_assert_int_eq(spira__gf2_column_class(&c, count[B->col[k]], n), b + 1);
                ck_assert(i < n && has_entry(A, L->perm[i], B->col[k]));
                if (k > B->slice_ptr[s])
                    ck_assert(B->col[k - 1] < B->col[k] ||
                              (B->col[k - 1] == B->col[k] && B->row[k - 1] < B->row[k]));
            }
        total += B->nnz;
    }
    ck_assert_int_eq(total, A->nnz); /* all there, and (each found in A) none twice */
    ck_assert_ptr_nonnull(strstr(f->stats(L), "cut-offs generic"));
    f->destroy(L);
#undef WEIGHT
    free(seen), free(count), free(inv);
    spira_gf2_matrix_destroy(M);
    tu_triplets_free(&T);
    spira_context_destroy(ctx);
}
END_TEST

/* Rows already by weight keep their order (no permutation); bad cut-offs are refused with
 * the range. */
START_TEST(gf2_combined_options)
{
    spira_context ctx = tu_cpu();
    tu_triplets T;
    tu_gf2_nfs_triplets(2000, 16, tu_seed(), &T);
    spira_gf2_matrix M;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, 2000, 2000, T.nnz, T.ri, T.ci, &M), SPIRA_OK);
    const spira__gf2_format *f = spira__gf2_format_find("combined");
    spira__gf2_combined *L;
    int sorted = 1; /* repeated draws cancel in pairs: weights may differ */
    for (int32_t i = 1; i < 2000; i++)
        sorted &= M->pattern.row_ptr[i + 1] - M->pattern.row_ptr[i] <=
                  M->pattern.row_ptr[i] - M->pattern.row_ptr[i - 1];
    ck_assert_int_eq(f->convert(ctx, &M->pattern, "words=4", (void **)&L), SPIRA_OK);
    ck_assert(sorted ? L->perm == NULL : L->perm != NULL);
    f->destroy(L);
    const struct {
        const char *opts, *says;
    } bad[] = {
        {"dense=2000", "combined option dense=2000: 0 to 1024"},
        {"dense=-1", "combined option dense=-1: 0 to 2^30"},
        {"cut1=0", "combined option cut1=0: 1 to 2^30"},
        {"cut1=100,cut2=10", "combined options cut1=100, cut2=10: want cut1 <= cut2"},
        {"band2=grid", "format option band2='grid': thread or warp or block or csr"},
        {"cut2=x", "cut2"},
        {"parts=2000", "combined option parts=2000: 0 (as many blocks a slice as fill the GPU) "
                       "to 1024"},
    };
    spira_gf2_block X, Y;
    ck_assert_int_eq(spira_gf2_block_create(ctx, 2000, 64, &X), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_create(ctx, 2000, 64, &Y), SPIRA_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(spira_gf2_matrix_set_format(M, "combined", bad[i].opts), SPIRA_OK);
        ck_assert_int_eq(spira_gf2_spmv(M, X, Y), SPIRA_ERR_INVALID_ARG);
        tu_assert_error_has(ctx, bad[i].says);
    }
    ck_assert_int_eq(spira_gf2_matrix_set_format(M, "combined", "rows=5"), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "(its options: dense cut1 cut2 band1 band2 band3 parts)");
    spira_gf2_block_destroy(X), spira_gf2_block_destroy(Y);
    spira_gf2_matrix_destroy(M);
    tu_triplets_free(&T);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(gf2_bad_arguments)
{
    spira_context ctx = tu_cpu();
    const int32_t ri[] = {0, 1}, ci[] = {1, 5};
    spira_gf2_matrix M;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, 2, 3, 2, ri, ci, &M), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, 2, 6, 2, ri, ci, &M), SPIRA_OK);
    spira_gf2_block X, Y, Z, W;
    ck_assert_int_eq(spira_gf2_block_create(ctx, 6, 100, &X), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "GF(2) block width 100: 64, 128 or 256");
    ck_assert_int_eq(spira_gf2_block_create(ctx, -1, 64, &X), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_gf2_block_create(ctx, INT64_C(1) << 32, 64, &X), SPIRA_ERR_UNSUPPORTED);
    ck_assert_int_eq(spira_gf2_block_create(ctx, 6, 128, &X), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_create(ctx, 2, 128, &Y), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_create(ctx, 2, 64, &Z), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_create(ctx, 5, 128, &W), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_spmv(M, X, Z), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "X is 128 bits wide, Y 64");
    ck_assert_int_eq(spira_gf2_spmv(M, W, Y), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "M is 2 x 6, X has 5 rows, Y 2");
    ck_assert_int_eq(spira_gf2_spmv(M, X, X), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_gf2_block_set(X, NULL), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_gf2_matrix_set_format(M, "ell", NULL), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "unknown GF(2) format 'ell' (known: csr, sliced-coo, dense, combined)");
    ck_assert_int_eq(spira_gf2_matrix_set_format(M, "sliced-coo", "slices=4"), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "has no option 'slices' (its options: share rows)");
    const struct {
        const char *opts, *says;
    } bad[] = {{"share=grid", "format option share='grid': thread or warp or block"},
               {"rows=0", "sliced-coo option rows=0: 1 to 96 with share=warp at 128 bits"},
               {"share=block,rows=3073", "rows=3073: 1 to 3072 with share=block at 128 bits"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(spira_gf2_matrix_set_format(M, "sliced-coo", bad[i].opts), SPIRA_OK);
        ck_assert_int_eq(spira_gf2_spmv(M, X, Y), SPIRA_ERR_INVALID_ARG);
        tu_assert_error_has(ctx, bad[i].says);
    }
    ck_assert_int_eq(spira_gf2_matrix_set_format(M, "sliced-coo", "share=block,rows=3072"), SPIRA_OK);
    double ms = -1;
    ck_assert_int_eq(spira_gf2_matrix_prepare(M, 100, &ms), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_gf2_matrix_prepare(M, 128, &ms), SPIRA_OK);
    ck_assert_double_ge(ms, 0);
    ck_assert_int_eq(spira_gf2_spmv(M, X, Y), SPIRA_OK);
    spira_gf2_block_destroy(X), spira_gf2_block_destroy(Y);
    spira_gf2_block_destroy(Z), spira_gf2_block_destroy(W);
    spira_gf2_matrix_destroy(M);
    spira_context_destroy(ctx);
}
END_TEST

void tu_gf2_alloc_walk(spira_context ctx)
{
    tu_triplets T;
    tu_gf2_nfs_triplets(300, 8, tu_seed(), &T);
    for (int v = 0; v < tu_gf2_nvariants; v++)
        for (long n = 1;; n++) {
            spira_gf2_matrix M = NULL;
            spira_gf2_block X = NULL, Y = NULL, K = NULL;
            spira__alloc_fail_at(n);
            spira_status s = spira_gf2_matrix_from_coo(ctx, 300, 300, T.nnz, T.ri, T.ci, &M);
            if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, 300, 128, &X);
            if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, 300, 128, &Y);
            if (s == SPIRA_OK)
                s = spira_gf2_matrix_set_format(M, tu_gf2_variants[v][0], tu_gf2_variants[v][1]);
            if (s == SPIRA_OK) s = spira_gf2_spmv(M, X, Y);
            if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, 300, 64, &K);
            if (s == SPIRA_OK) s = spira_gf2_kernel(M, K, NULL, NULL);
            if (s == SPIRA_ERR_NOT_CONVERGED) s = SPIRA_OK; /* ran through, found none */
            long made = spira__alloc_count();
            spira__alloc_fail_at(0);
            spira_gf2_block_destroy(X), spira_gf2_block_destroy(Y), spira_gf2_block_destroy(K);
            spira_gf2_matrix_destroy(M);
            if (s == SPIRA_OK && made < n) break; /* every allocation has failed once */
            ck_assert_msg(s == SPIRA_OK || s == SPIRA_ERR_NOMEM, "%s, failure %ld: %s",
                          tu_gf2_variants[v][0], n, spira_status_name(s));
            ck_assert_int_lt(n, 300); /* combined on the GPU makes about 40 a plan */
        }
    tu_triplets_free(&T);
}

START_TEST(gf2_alloc_failures)
{
    spira_context ctx = tu_cpu();
    tu_gf2_alloc_walk(ctx);
    spira_context_destroy(ctx);
}
END_TEST

Suite *suite_gf2(void)
{
    Suite *s = suite_create("gf2");
    TCase *tc = tcase_create("spmv");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gf2_parity);
    tcase_add_test(tc, gf2_read_mm);
    tcase_add_loop_test(tc, gf2_formats_on_shapes, 0, tu_nshapes);
    tcase_add_test(tc, gf2_nfs_shape);
    tcase_add_test(tc, gf2_sliced_layout);
    tcase_add_test(tc, gf2_dense_layout);
    tcase_add_loop_test(tc, gf2_combined_layout, 0, 5);
    tcase_add_test(tc, gf2_combined_options);
    tcase_add_test(tc, gf2_bad_arguments);
    tcase_add_test(tc, gf2_alloc_failures);
    tcase_add_test(tc, gf2_kernel_wide);
    tcase_add_test(tc, gf2_kernel_square);
    suite_add_tcase(s, tc);
    return s;
}
