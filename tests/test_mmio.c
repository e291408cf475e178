/*
 * test_mmio.c - the Matrix Market reader and writer: every bundled file against its known
 * size and an independent naive reader, each Matrix Market variant, every kind of bad
 * input (tests/mm-bad/, one file per defect: status and line number), numbers parsed
 * bit-for-bit as strtod parses them, gzip, writer and vector round trips, allocation
 * failures, and random mutations that must never crash.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "testutil.h"
#include "mmio.h"

#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

/* A fresh temporary directory (static buffer) and paths inside it. */
static const char *tmpdir(void)
{
    static char dir[256];
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/spira-mmio-XXXXXX", t && *t ? t : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    return dir;
}
static const char *in_dir(const char *dir, const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}
static void write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(text, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

/* Parse text (name "t.mtx") into a CSR; the status. */
static spira_status parse(spira_context ctx, const char *text, spira_dtype t, spira__csr *A,
                          int *sym)
{
    return spira__mm_parse(ctx, "t.mtx", text, strlen(text), t, A, sym);
}

/* A(i, j) of a canonical CSR as double (0 when absent). */
static double at(const spira__csr *A, int32_t i, int32_t j)
{
    for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
        if (A->col_idx[k] == j) return spira__get(A->val, A->dtype, k);
    return 0;
}

/* ---- bundled files ------------------------------------------------------------------ */

static const struct {
    const char *file;
    int32_t n, nnz;
    int symmetric;
} bundled[] = {
    {"bcsstk01.mtx", 48, 400, 1},        {"gr_30_30.mtx", 900, 7744, 1},
    {"1138_bus.mtx", 1138, 4054, 1},     {"pores_1.mtx", 30, 180, 0},
    {"west0067.mtx", 67, 294, 0},        {"orsirr_1.mtx", 1030, 6858, 0},
    {"sherman5.mtx", 3312, 20793, 0},    {"adder_dcop_05.mtx", 1813, 11097, 0},
    {"email-Eu-core.mtx", 1005, 25571, 0}, {"mbeacxc.mtx.gz", 496, 49920, 0},
};

/* A dense n x n reference read the slow, obvious way (fscanf, strtod), symmetric halves
 * mirrored. Only for the small uncompressed files. */
static double *naive_dense(const char *path, int32_t n)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[1024], field[32] = "", sym[32] = "";
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_int_eq(sscanf(line, "%%%%MatrixMarket matrix coordinate %31s %31s", field, sym), 2);
    do
        ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    while (line[0] == '%');
    long m, c, nnz;
    ck_assert_int_eq(sscanf(line, "%ld %ld %ld", &m, &c, &nnz), 3);
    double *D = calloc((size_t)n * n, sizeof *D);
    for (long k = 0; k < nnz; k++) {
        ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
        char *e;
        long i = strtol(line, &e, 10) - 1, j = strtol(e, &e, 10) - 1;
        double v = strcmp(field, "pattern") ? strtod(e, NULL) : 1.0;
        D[i * n + j] += v;
        if (strcmp(sym, "symmetric") == 0 && i != j) D[j * n + i] += v;
    }
    fclose(f);
    return D;
}

START_TEST(bundled_files)
{
    spira_context ctx = tu_cpu();
    for (size_t f = 0; f < sizeof bundled / sizeof bundled[0]; f++) {
        for (int t = 0; t < 2; t++) {
            spira_dtype dt = t ? SPIRA_R32 : SPIRA_R64;
            spira_matrix A;
            spira_status s = spira_matrix_read_mm(ctx, tu_data(bundled[f].file), dt, &A);
            ck_assert_msg(s == SPIRA_OK, "%s: %s", bundled[f].file, spira_last_error(ctx));
            spira_matrix_info info;
            spira_matrix_get_info(A, &info);
            ck_assert_msg(info.nrows == bundled[f].n && info.ncols == bundled[f].n &&
                              info.nnz == bundled[f].nnz &&
                              info.symmetric == bundled[f].symmetric && info.dtype == dt,
                          "%s: %lld x %lld, %lld nonzeros, symmetric %d", bundled[f].file,
                          (long long)info.nrows, (long long)info.ncols, (long long)info.nnz,
                          info.symmetric);
            spira_matrix_destroy(A);
        }
    }
    /* values and positions against the naive reader, bit for bit (no duplicates here) */
    const char *small[] = {"bcsstk01.mtx", "gr_30_30.mtx", "1138_bus.mtx", "pores_1.mtx",
                           "west0067.mtx", "orsirr_1.mtx"};
    for (size_t f = 0; f < sizeof small / sizeof small[0]; f++) {
        spira__csr A;
        int sym;
        ck_assert_int_eq(spira__mm_read(ctx, tu_data(small[f]), SPIRA_R64, &A, &sym), SPIRA_OK);
        double *D = naive_dense(tu_data(small[f]), A.nrows);
        int64_t nz = 0;
        for (int32_t i = 0; i < A.nrows; i++)
            for (int32_t j = 0; j < A.ncols; j++) {
                double a = at(&A, i, j), d = D[(size_t)i * A.nrows + j];
                ck_assert_msg(memcmp(&a, &d, sizeof a) == 0 || (a == 0 && d == 0),
                              "%s (%d, %d): %.17g, naive %.17g", small[f], i + 1, j + 1, a, d);
                nz += D[(size_t)i * A.nrows + j] != 0;
            }
        ck_assert_int_le(nz, A.nnz); /* explicit zeros are kept, so <= */
        free(D);
        spira__csr_free(&A);
    }
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(gzip_input)
{
    spira_context ctx = tu_cpu();
    const char *dir = tmpdir();
    /* the magic bytes decide, not the name: a copy named .mtx reads the same */
    char *gz;
    size_t gzlen;
    {
        FILE *f = fopen(tu_data("mbeacxc.mtx.gz"), "rb");
        ck_assert_ptr_nonnull(f);
        fseek(f, 0, SEEK_END);
        gzlen = (size_t)ftell(f);
        rewind(f);
        gz = malloc(gzlen);
        ck_assert_uint_eq(fread(gz, 1, gzlen, f), gzlen);
        fclose(f);
    }
    char plain[512];
    snprintf(plain, sizeof plain, "%s", in_dir(dir, "renamed.mtx"));
    write_text(plain, gz, gzlen);
    spira__csr A, B;
    int sym;
    ck_assert_int_eq(spira__mm_read(ctx, tu_data("mbeacxc.mtx.gz"), SPIRA_R64, &A, &sym), SPIRA_OK);
    ck_assert_int_eq(spira__mm_read(ctx, plain, SPIRA_R64, &B, &sym), SPIRA_OK);
    ck_assert_int_eq(A.nnz, 49920);
    ck_assert_mem_eq(A.row_ptr, B.row_ptr, sizeof(int32_t) * (A.nrows + 1));
    ck_assert_mem_eq(A.val, B.val, sizeof(double) * A.nnz);
    int empty_rows = 0;
    for (int32_t i = 0; i < A.nrows; i++) empty_rows += A.row_ptr[i + 1] == A.row_ptr[i];
    ck_assert_int_eq(empty_rows, 48); /* data/README.md */
    spira__csr_free(&A);
    spira__csr_free(&B);
    /* a truncated gzip stream is an I/O error naming the file */
    char cut[512];
    snprintf(cut, sizeof cut, "%s", in_dir(dir, "cut.mtx.gz"));
    write_text(cut, gz, gzlen / 2);
    ck_assert_int_eq(spira__mm_read(ctx, cut, SPIRA_R64, &A, &sym), SPIRA_ERR_IO);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "cut.mtx.gz"));
    /* garbage after the magic bytes */
    char junk[512];
    snprintf(junk, sizeof junk, "%s", in_dir(dir, "junk.mtx"));
    write_text(junk, "\x1f\x8bnot gzip at all", 17);
    ck_assert_int_eq(spira__mm_read(ctx, junk, SPIRA_R64, &A, &sym), SPIRA_ERR_IO);
    remove(plain);
    remove(cut);
    remove(junk);
    rmdir(dir);
    free(gz);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(missing_file)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = (spira_matrix)1;
    ck_assert_int_eq(spira_matrix_read_mm(ctx, "/nonexistent/dir/a.mtx", SPIRA_R64, &A),
                     SPIRA_ERR_IO);
    ck_assert_ptr_null(A);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "/nonexistent/dir/a.mtx"));
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "No such file"));
    spira_vector v;
    ck_assert_int_eq(spira_vector_read_mm(ctx, "/nonexistent/v.mtx", SPIRA_R64, &v), SPIRA_ERR_IO);
    /* a directory is not a file */
    ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data("."), SPIRA_R64, &A), SPIRA_ERR_IO);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "cannot read"));
    spira_context_destroy(ctx);
}
END_TEST

/* ---- variants ----------------------------------------------------------------------- */

START_TEST(symmetric_expansion)
{
    spira_context ctx = tu_cpu();
    spira__csr A;
    int sym = 0;
    /* lower triangle of [[4,1,0],[1,5,2],[0,2,6]]; one entry given in the upper triangle
     * (tolerated: mirrored the same way) */
    ck_assert_int_eq(parse(ctx,
                           "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 4\n"
                           "2 1 1\n2 2 5\n2 3 2\n3 3 6\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK);
    ck_assert_int_eq(sym, 1);
    ck_assert_int_eq(A.nnz, 7);
    double full[3][3] = {{4, 1, 0}, {1, 5, 2}, {0, 2, 6}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) ck_assert_double_eq(at(&A, i, j), full[i][j]);
    spira__csr_free(&A);
    /* pattern symmetric: ones */
    ck_assert_int_eq(parse(ctx,
                           "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n",
                           SPIRA_R32, &A, &sym),
                     SPIRA_OK);
    ck_assert_int_eq(A.nnz, 3);
    ck_assert_double_eq(at(&A, 0, 1), 1);
    ck_assert_double_eq(at(&A, 1, 0), 1);
    ck_assert_double_eq(at(&A, 2, 2), 1);
    spira__csr_free(&A);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(skew_symmetric)
{
    spira_context ctx = tu_cpu();
    spira__csr A;
    int sym = 1;
    ck_assert_int_eq(parse(ctx,
                           "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 3\n"
                           "2 1 1.5\n3 1 -2\n2 2 0\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK);
    ck_assert_int_eq(sym, 0); /* not symmetric: CG must not assume it */
    ck_assert_int_eq(A.nnz, 4); /* the explicit zero diagonal is dropped */
    ck_assert_double_eq(at(&A, 1, 0), 1.5);
    ck_assert_double_eq(at(&A, 0, 1), -1.5);
    ck_assert_double_eq(at(&A, 2, 0), -2);
    ck_assert_double_eq(at(&A, 0, 2), 2);
    spira__csr_free(&A);
    /* array skew: strictly lower triangle, column by column */
    ck_assert_int_eq(parse(ctx, "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK);
    double full[3][3] = {{0, -1, -2}, {1, 0, -3}, {2, 3, 0}};
    ck_assert_int_eq(A.nnz, 6);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) ck_assert_double_eq(at(&A, i, j), full[i][j]);
    spira__csr_free(&A);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(array_pattern_integer)
{
    spira_context ctx = tu_cpu();
    spira__csr A;
    int sym;
    /* 2 x 3 dense, column-major; zeros are kept (dense is dense) */
    ck_assert_int_eq(parse(ctx,
                           "%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n0\n5\n6\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK);
    ck_assert_int_eq(A.nrows, 2);
    ck_assert_int_eq(A.ncols, 3);
    ck_assert_int_eq(A.nnz, 6);
    double full[2][3] = {{1, 3, 5}, {2, 0, 6}};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) ck_assert_double_eq(at(&A, i, j), full[i][j]);
    spira__csr_free(&A);
    /* symmetric array: lower triangle by columns */
    ck_assert_int_eq(parse(ctx, "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK);
    ck_assert_double_eq(at(&A, 0, 1), 2);
    ck_assert_double_eq(at(&A, 1, 0), 2);
    ck_assert_double_eq(at(&A, 1, 1), 3);
    spira__csr_free(&A);
    /* pattern general with a duplicate: summed to 2 */
    ck_assert_int_eq(parse(ctx,
                           "%%MatrixMarket matrix coordinate pattern general\n2 2 3\n1 2\n2 1\n1 2\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK);
    ck_assert_int_eq(A.nnz, 2);
    ck_assert_double_eq(at(&A, 0, 1), 2);
    ck_assert_double_eq(at(&A, 1, 0), 1);
    spira__csr_free(&A);
    /* integer field, with signs */
    ck_assert_int_eq(parse(ctx,
                           "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 -7\n"
                           "2 2 +123456789\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK);
    ck_assert_double_eq(at(&A, 0, 0), -7);
    ck_assert_double_eq(at(&A, 1, 1), 123456789);
    spira__csr_free(&A);
    /* empty matrices */
    ck_assert_int_eq(parse(ctx, "%%MatrixMarket matrix coordinate real general\n0 0 0\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK);
    ck_assert_int_eq(A.nnz, 0);
    spira__csr_free(&A);
    ck_assert_int_eq(parse(ctx, "%%MatrixMarket matrix coordinate real general\n5 4 0",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK);
    ck_assert_int_eq(A.nrows, 5);
    ck_assert_int_eq(A.row_ptr[5], 0);
    spira__csr_free(&A);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(lenient_layout)
{
    spira_context ctx = tu_cpu();
    spira__csr A;
    int sym;
    /* BOM, mixed-case keywords, CRLF, blanks and tabs, comments and blank lines before
     * the size line and among the entries, no newline at the end */
    const char *text = "\xEF\xBB\xBF%%matrixmarket MATRIX Coordinate REAL General  \r\n"
                       "% a comment\r\n\r\n   \t\r\n%another\r\n"
                       "  3\t3   3  \r\n"
                       "1 1 1.5 \r\n"
                       "\r\n"
                       "% in the middle\r\n"
                       "\t2\t3\t-2e0\t\r\n"
                       "3 2 .25";
    ck_assert_msg(parse(ctx, text, SPIRA_R64, &A, &sym) == SPIRA_OK, "%s",
                  spira_last_error(ctx));
    ck_assert_int_eq(A.nnz, 3);
    ck_assert_double_eq(at(&A, 0, 0), 1.5);
    ck_assert_double_eq(at(&A, 1, 2), -2);
    ck_assert_double_eq(at(&A, 2, 1), 0.25);
    spira__csr_free(&A);
    /* "double" is accepted as a synonym of real */
    ck_assert_int_eq(parse(ctx, "%%MatrixMarket matrix coordinate double general\n1 1 1\n1 1 2\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK);
    spira__csr_free(&A);
    spira_context_destroy(ctx);
}
END_TEST

/* ---- numbers ------------------------------------------------------------------------ */

static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Values as an n x 1 array; each parsed value must equal strtod's bit for bit. */
START_TEST(numbers_as_strtod)
{
    spira_context ctx = tu_cpu();
    rng_state = 0x9E3779B97F4A7C15u ^ tu_seed();
    static const char *fixed[] = {"1e5", "-.5", "3.", "+2E-3", "0", "-0", "0.0", "-0e10",
                                  "1e-400", "4.9406564584124654e-324", "2.4703282292062328e-324",
                                  "2.2250738585072011e-308", "2.2250738585072014e-308",
                                  "1.7976931348623157e308", "9007199254740993",
                                  "9007199254740992.5", "123456789012345678e-5", "0.1", "1e22",
                                  "1e23", "123e30", "1.00000000000000000000000000001",
                                  "9999999999999999999", "99999999999999999999", "1e+0",
                                  "0000000000000000000000000123.456000000000000000000000",
                                  "0.000000000000000000000000000000001234567890123456789",
                                  "7.038531e-26", "1.7976931348623158e308", "5e-324",
                                  /* the usual line at once (lib/mmio_fast.c): integer and
                                   * fraction lengths around its limits, exponents of 1 to 5
                                   * digits, signs, hard roundings */
                                  "12345678.5", "123456789.5", "0.1234567890123456789",
                                  "0.12345678901234567891", "1.234567890123456789",
                                  "12.34567890123456789", "1.2345678901234567890",
                                  "12345678.12345678901", "+1.5E+3", "-1.5e-003", "1.e5",
                                  "00000001.5", "-0.0e0", "-0.", "9007199254740993e-0",
                                  "9007199254740993.0", "1e0308", "1e00308", "1e-0324",
                                  "2.2250738585072011e-0308", "-9.9999999999999999e22",
                                  "0.000000000000000000009007199254740993",
                                  "4503599627370497.5", "0.1e-7", "7e+0009",
                                  "0.0000000000000000", "1234567.890123456789012",
                                  "-0.051482026472754239", "9.8813129168249309e-324",
                                  "00000000.12345678901234567", "0.0000000000000000012",
                                  "-00.000000000000000001e-5", "98765432.1234567890123"};
    const int nfixed = (int)(sizeof fixed / sizeof fixed[0]), n = 60000;
    size_t cap = (size_t)n * 48 + 4096, len = 0;
    char *text = malloc(cap);
    char(*tokens)[48] = malloc((size_t)n * sizeof *tokens);
    for (int k = 0; k < n; k++) {
        if (k < nfixed) {
            snprintf(tokens[k], 48, "%s", fixed[k]);
            continue;
        }
        uint64_t bits = rnd();
        double d;
        memcpy(&d, &bits, sizeof d);
        if (!isfinite(d)) d = 1.0 / 3;
        double u = (double)(rnd() >> 11) / 9007199254740992.0 * 2 - 1;
        switch (k % 5) {
        case 0: snprintf(tokens[k], 48, "%.17g", d); break;
        case 1: snprintf(tokens[k], 48, "%.17g", u * 1e3); break;
        case 2: snprintf(tokens[k], 48, "%.*g", 1 + (int)(rnd() % 17), u); break;
        case 3: snprintf(tokens[k], 48, "%.*e", (int)(rnd() % 20), d); break;
        default: { /* random digits and exponent */
            int nd = 1 + (int)(rnd() % 22), m = 0;
            for (int i = 0; i < nd; i++) tokens[k][m++] = (char)('0' + rnd() % 10);
            snprintf(tokens[k] + m, 48 - m, "e%d", (int)(rnd() % 640) - 330);
        }
        }
        if (!isfinite(strtod(tokens[k], NULL))) snprintf(tokens[k], 48, "%d", k); /* inf */
    }
    for (int t = 0; t < 2; t++) {
        spira_dtype dt = t ? SPIRA_R32 : SPIRA_R64;
        if (dt == SPIRA_R32) /* beyond float's range is an error (bad_in_memory) */
            for (int k = 0; k < n; k++)
                if (isinf((float)strtod(tokens[k], NULL))) snprintf(tokens[k], 48, "0.5");
        len = (size_t)snprintf(text, cap, "%%%%MatrixMarket matrix array real general\n%d 1\n", n);
        for (int k = 0; k < n; k++)
            len += (size_t)snprintf(text + len, cap - len, "%s\n", tokens[k]);
        spira__mm_coo c;
        ck_assert_msg(spira__mm_parse_coo(ctx, "num.mtx", text, len, dt, &c) == SPIRA_OK, "%s",
                      spira_last_error(ctx));
        ck_assert_int_eq(c.nnz, n);
        for (int k = 0; k < n; k++) {
            double ref = strtod(tokens[k], NULL);
            if (dt == SPIRA_R64) {
                double got = ((double *)c.val)[k];
                ck_assert_msg(memcmp(&got, &ref, sizeof got) == 0,
                              "'%s': got %.17g (%a), strtod %.17g (%a)", tokens[k], got, got,
                              ref, ref);
            } else {
                float got = ((float *)c.val)[k], fref = (float)ref;
                ck_assert_msg(memcmp(&got, &fref, sizeof got) == 0, "'%s' as float: %.9g, %.9g",
                              tokens[k], got, fref);
            }
        }
        spira__mm_coo_free(&c);
        /* the fast path (lib/mmio_fast.c), the same tokens as a coordinate column: it must
         * take every one of them, and read them as strtod does */
        len = (size_t)snprintf(text, cap, "%%%%MatrixMarket matrix coordinate real general\n"
                               "%d 1 %d\n", n, n);
        for (int k = 0; k < n; k++)
            len += (size_t)snprintf(text + len, cap - len, "%d 1 %s\n", k + 1, tokens[k]);
        for (int g = 0; g < 2; g++) { /* its loops for this processor, then the generic */
            spira__mm_fast_generic = g;
            spira__csr A;
            spira_status s = SPIRA_ERR_IO;
            int sym;
            ck_assert_msg(spira__mm_fast_csr(ctx, "num.mtx", text, len, dt, 0, &A, &sym, &s) == 1,
                          "the fast path declined");
            ck_assert_msg(s == SPIRA_OK, "%s", spira_last_error(ctx));
            ck_assert_int_eq(A.nnz, n);
            for (int k = 0; k < n; k++) {
                double ref = strtod(tokens[k], NULL);
                ck_assert_int_eq(A.row_ptr[k], k);
                if (dt == SPIRA_R64) {
                    double got = ((double *)A.val)[k];
                    ck_assert_msg(memcmp(&got, &ref, sizeof got) == 0,
                                  "fast path, '%s': got %.17g (%a), strtod %.17g (%a)", tokens[k],
                                  got, got, ref, ref);
                } else {
                    float got = ((float *)A.val)[k], fref = (float)ref;
                    ck_assert_msg(memcmp(&got, &fref, sizeof got) == 0,
                                  "fast path, '%s' as float: %.9g, %.9g", tokens[k], got, fref);
                }
            }
            spira__csr_free(&A);
        }
        spira__mm_fast_generic = 0;
    }
    free(tokens);
    free(text);
    spira_context_destroy(ctx);
}
END_TEST

/* Under a locale whose decimal point is ',' the files mean the same (skipped when no
 * such locale is installed). */
START_TEST(locale_independent)
{
    const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "de_DE", NULL};
    int found = 0;
    for (int i = 0; names[i] && !found; i++) found = setlocale(LC_NUMERIC, names[i]) != NULL;
    if (!found || strcmp(localeconv()->decimal_point, ",") != 0) return;
    spira_context ctx = tu_cpu();
    spira__csr A;
    int sym;
    ck_assert_int_eq(parse(ctx,
                           "%%MatrixMarket matrix coordinate real general\n1 1 1\n"
                           "1 1 0.12345678901234567890123\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK);
    ck_assert_double_eq(A.row_ptr[1] ? spira__get(A.val, SPIRA_R64, 0) : 0,
                        0.12345678901234567890123);
    spira__csr_free(&A);
    setlocale(LC_NUMERIC, "C");
    spira_context_destroy(ctx);
}
END_TEST

/* ---- bad input ---------------------------------------------------------------------- */

static const struct {
    const char *file;
    spira_status status;
    int line;
    const char *says; /* a piece of the message */
} bad[] = {
    {"empty.mtx", SPIRA_ERR_PARSE, 1, "empty file"},
    {"no-banner.mtx", SPIRA_ERR_PARSE, 1, "not a Matrix Market file"},
    {"banner-short.mtx", SPIRA_ERR_PARSE, 1, "has 4 words"},
    {"banner-extra.mtx", SPIRA_ERR_PARSE, 1, "'extra'"},
    {"bad-object.mtx", SPIRA_ERR_PARSE, 1, "'tensor'"},
    {"bad-format.mtx", SPIRA_ERR_PARSE, 1, "'sparse'"},
    {"bad-field.mtx", SPIRA_ERR_PARSE, 1, "'quaternion'"},
    {"bad-symmetry.mtx", SPIRA_ERR_PARSE, 1, "'diagonal'"},
    {"complex.mtx", SPIRA_ERR_UNSUPPORTED, 1, "complex"},
    {"hermitian.mtx", SPIRA_ERR_UNSUPPORTED, 1, "hermitian"},
    {"pattern-array.mtx", SPIRA_ERR_PARSE, 1, "array"},
    {"pattern-skew.mtx", SPIRA_ERR_PARSE, 1, "skew"},
    {"no-size.mtx", SPIRA_ERR_PARSE, 4, "before the size line"},
    {"size-short.mtx", SPIRA_ERR_PARSE, 2, "has 2 numbers, expected 3"},
    {"size-junk.mtx", SPIRA_ERR_PARSE, 2, "'x'"},
    {"size-extra.mtx", SPIRA_ERR_PARSE, 2, "'7'"},
    {"size-negative.mtx", SPIRA_ERR_PARSE, 2, "negative number of rows: -3"},
    {"size-float.mtx", SPIRA_ERR_PARSE, 2, "'3.0'"},
    {"size-rows-32bit.mtx", SPIRA_ERR_UNSUPPORTED, 3, "2147483648"},
    {"size-nnz-32bit.mtx", SPIRA_ERR_UNSUPPORTED, 2, "4294967296"},
    {"size-64bit.mtx", SPIRA_ERR_UNSUPPORTED, 2, "99999999999999999999"},
    {"nonsquare-symmetric.mtx", SPIRA_ERR_PARSE, 2, "3 x 4"},
    {"array-32bit.mtx", SPIRA_ERR_UNSUPPORTED, 2, "10000000000"},
    {"truncated.mtx", SPIRA_ERR_PARSE, 5, "after 2 of the 3 entries"},
    {"too-many.mtx", SPIRA_ERR_PARSE, 4, "more entries than the 1"},
    {"row-range.mtx", SPIRA_ERR_PARSE, 4, "row index 4 outside 1..3"},
    {"col-zero.mtx", SPIRA_ERR_PARSE, 3, "column index 0 outside 1..3"},
    {"index-negative.mtx", SPIRA_ERR_PARSE, 3, "row index -1 outside"},
    {"index-junk.mtx", SPIRA_ERR_PARSE, 3, "'1x'"},
    {"index-float.mtx", SPIRA_ERR_PARSE, 3, "'2.0'"},
    {"missing-value.mtx", SPIRA_ERR_PARSE, 4, "(2, 2) has no value"},
    {"missing-col.mtx", SPIRA_ERR_PARSE, 3, "before its column index"},
    {"value-junk.mtx", SPIRA_ERR_PARSE, 3, "'abc' is not a decimal number"},
    {"value-nan.mtx", SPIRA_ERR_PARSE, 3, "'nan' is not a decimal number"},
    {"value-inf.mtx", SPIRA_ERR_PARSE, 3, "'-inf' is not a decimal number"},
    {"value-overflow.mtx", SPIRA_ERR_PARSE, 3, "1e999 is beyond the range"},
    {"value-hex.mtx", SPIRA_ERR_PARSE, 3, "'0x1p3'"},
    {"value-suffix.mtx", SPIRA_ERR_PARSE, 3, "'1.5abc'"},
    {"value-comma.mtx", SPIRA_ERR_PARSE, 3, "'1,5'"},
    {"extra-token.mtx", SPIRA_ERR_PARSE, 3, "'7' after the value"},
    {"pattern-value.mtx", SPIRA_ERR_PARSE, 3, "'1.0' after the column index"},
    {"integer-float.mtx", SPIRA_ERR_PARSE, 3, "'1.5' is not an integer"},
    {"skew-diagonal.mtx", SPIRA_ERR_PARSE, 4, "diagonal entry (2, 2)"},
    {"array-truncated.mtx", SPIRA_ERR_PARSE, 6, "after 3 of the 4 entries"},
    {"array-too-many.mtx", SPIRA_ERR_PARSE, 7, "more entries than the 4"},
    {"array-two-per-line.mtx", SPIRA_ERR_PARSE, 3, "'2' after the value"},
    {"nul-byte.mtx", SPIRA_ERR_PARSE, 3, "'?1' is not a decimal number"},
};

START_TEST(bad_files)
{
    spira_context ctx = tu_cpu();
    for (size_t f = 0; f < sizeof bad / sizeof bad[0]; f++) {
        char rel[256], where[256];
        snprintf(rel, sizeof rel, "../tests/mm-bad/%s", bad[f].file);
        const char *path = tu_data(rel);
        for (int t = 0; t < 2; t++) {
            spira_matrix A = (spira_matrix)1;
            spira_status s = spira_matrix_read_mm(ctx, path, t ? SPIRA_R32 : SPIRA_R64, &A);
            const char *msg = spira_last_error(ctx);
            ck_assert_msg(s == bad[f].status, "%s: got %s (%s), expected %s", bad[f].file,
                          spira_status_name(s), msg, spira_status_name(bad[f].status));
            ck_assert_ptr_null(A);
            snprintf(where, sizeof where, "mm-bad/%s:%d: ", bad[f].file, bad[f].line);
            ck_assert_msg(strstr(msg, where) != NULL, "%s: message '%s' lacks '%s'",
                          bad[f].file, msg, where);
            ck_assert_msg(strstr(msg, bad[f].says) != NULL, "%s: message '%s' lacks '%s'",
                          bad[f].file, msg, bad[f].says);
        }
    }
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(bad_in_memory)
{
    spira_context ctx = tu_cpu();
    spira__csr A;
    int sym;
    /* a value that fits double but not float */
    const char *big = "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1e39\n";
    ck_assert_int_eq(parse(ctx, big, SPIRA_R64, &A, &sym), SPIRA_OK);
    spira__csr_free(&A);
    ck_assert_int_eq(parse(ctx, big, SPIRA_R32, &A, &sym), SPIRA_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "t.mtx:3: value 1e39 overflows single"));
    /* a 500-digit value: longer than the reader takes */
    char *text = malloc(1024);
    int n = snprintf(text, 1024, "%%%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 ");
    memset(text + n, '7', 500);
    text[n + 500] = '\0';
    ck_assert_int_eq(parse(ctx, text, SPIRA_R64, &A, &sym), SPIRA_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "longer than"));
    free(text);
    /* symmetric expansion beyond 32 bits is refused before any allocation: declared
     * count fits, the text is too short to hold it, so the count is what is reported */
    ck_assert_int_eq(parse(ctx,
                           "%%MatrixMarket matrix coordinate real symmetric\n3 3 2147483647\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "t.mtx:3: the file ends after 0 of"));
    /* integers: 19 digits fit, one more overflows */
    ck_assert_int_eq(parse(ctx,
                           "%%MatrixMarket matrix coordinate integer general\n1 1 1\n"
                           "1 1 -9223372036854775807\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK);
    ck_assert_double_eq(spira__get(A.val, SPIRA_R64, 0), -9223372036854775807.0);
    spira__csr_free(&A);
    ck_assert_int_eq(parse(ctx,
                           "%%MatrixMarket matrix coordinate integer general\n1 1 1\n"
                           "1 1 9223372036854775808\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "t.mtx:3: integer value"));
    ck_assert_int_eq(parse(ctx,
                           "%%MatrixMarket matrix coordinate real general\n1 1 1\n"
                           "00000000000000000000000000001 1 2\n",
                           SPIRA_R64, &A, &sym),
                     SPIRA_OK); /* leading zeros are not digits that overflow */
    spira__csr_free(&A);
    /* NULL text with length 0 is an empty file */
    ck_assert_int_eq(spira__mm_parse(ctx, "x", NULL, 0, SPIRA_R64, &A, &sym), SPIRA_ERR_PARSE);
    ck_assert_int_eq(spira__mm_parse(ctx, "x", "", 0, (spira_dtype)7, &A, &sym),
                     SPIRA_ERR_INVALID_ARG);
    spira_context_destroy(ctx);
}
END_TEST

/* Random byte edits of a valid file: any status but a crash (ASan builds check more). */
START_TEST(mutations_never_crash)
{
    spira_context ctx = tu_cpu();
    rng_state = 0x2545F4914F6CDD1Du ^ tu_seed();
    const char *seed = "%%MatrixMarket matrix coordinate real symmetric\n% c\n4 4 5\n1 1 2.5\n"
                       "2 1 -1e-3\n3 2 7\n4 4 1\n4 3 .5\n";
    const char alphabet[] = "0123456789 \n\t.-+eE%x";
    size_t n0 = strlen(seed);
    char buf[256];
    for (int it = 0; it < 20000; it++) {
        memcpy(buf, seed, n0);
        size_t n = n0;
        int edits = 1 + (int)(rnd() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = rnd() % n;
            switch (rnd() % 3) {
            case 0: buf[at] = alphabet[rnd() % (sizeof alphabet - 1)]; break;
            case 1: n = at; break; /* truncate */
            default: buf[at] = (char)(rnd() & 0xff);
            }
            if (n == 0) break;
        }
        char *exact = malloc(n ? n : 1); /* exactly n bytes: reads past it would show */
        memcpy(exact, buf, n);
        spira__csr A;
        int sym;
        spira_status s = spira__mm_parse(ctx, "m.mtx", exact, n, SPIRA_R64, &A, &sym);
        ck_assert_msg(s == SPIRA_OK || s == SPIRA_ERR_PARSE || s == SPIRA_ERR_UNSUPPORTED,
                      "status %s", spira_status_name(s));
        if (s == SPIRA_OK) spira__csr_free(&A);
        else ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "m.mtx:"));
        free(exact);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* Every allocation made to fail in turn: NOMEM or success, never a crash. */
START_TEST(allocation_failures)
{
    spira_context ctx = tu_cpu();
    const char *text = "%%MatrixMarket matrix coordinate real symmetric\n4 4 4\n1 1 2\n2 1 1\n"
                       "3 2 1\n4 4 1\n";
    int done = 0;
    for (long n = 1; !done && n < 100; n++) {
        spira__csr A;
        int sym;
        spira__alloc_fail_at(n);
        spira_status s = parse(ctx, text, SPIRA_R64, &A, &sym);
        spira__alloc_fail_at(0);
        ck_assert_msg(s == SPIRA_OK || s == SPIRA_ERR_NOMEM, "n=%ld: %s", n,
                      spira_status_name(s));
        if (s == SPIRA_OK) {
            ck_assert_int_eq(A.nnz, 6);
            spira__csr_free(&A);
            done = 1;
        }
    }
    ck_assert(done);
    /* the file reader and the writer */
    const char *dir = tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s", in_dir(dir, "w.mtx"));
    spira_matrix M;
    ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data("pores_1.mtx"), SPIRA_R64, &M), SPIRA_OK);
    done = 0;
    for (long n = 1; !done && n < 100; n++) {
        spira__alloc_fail_at(n);
        spira_status s = spira_matrix_write_mm(M, path);
        spira_matrix B = NULL;
        if (s == SPIRA_OK) s = spira_matrix_read_mm(ctx, path, SPIRA_R64, &B);
        spira__alloc_fail_at(0);
        ck_assert_msg(s == SPIRA_OK || s == SPIRA_ERR_NOMEM, "n=%ld: %s", n,
                      spira_status_name(s));
        if (s == SPIRA_OK) {
            ck_assert_ptr_nonnull(B);
            spira_matrix_destroy(B);
            done = 1;
        }
    }
    ck_assert(done);
    spira_matrix_destroy(M);
    remove(path);
    rmdir(dir);
    spira_context_destroy(ctx);
}
END_TEST

/* ---- writer ------------------------------------------------------------------------- */

static void same_csr(spira_matrix A, spira_matrix B)
{
    const spira__csr *a = &A->csr, *b = &B->csr;
    ck_assert_int_eq(a->nrows, b->nrows);
    ck_assert_int_eq(a->ncols, b->ncols);
    ck_assert_int_eq(a->nnz, b->nnz);
    ck_assert_int_eq(a->dtype, b->dtype);
    ck_assert_mem_eq(a->row_ptr, b->row_ptr, sizeof(int32_t) * ((size_t)a->nrows + 1));
    if (a->nnz) {
        ck_assert_mem_eq(a->col_idx, b->col_idx, sizeof(int32_t) * (size_t)a->nnz);
        ck_assert_mem_eq(a->val, b->val, spira_dtype_size(a->dtype) * (size_t)a->nnz);
    }
}

START_TEST(writer_round_trip)
{
    spira_context ctx = tu_cpu();
    const char *dir = tmpdir();
    char plain[512], gz[512];
    snprintf(plain, sizeof plain, "%s", in_dir(dir, "a.mtx"));
    snprintf(gz, sizeof gz, "%s", in_dir(dir, "a.mtx.gz"));
    unsigned seed = tu_seed();
    for (int s = 0; s < tu_nshapes; s++)
        for (int t = 0; t < 2; t++) {
            spira_dtype dt = t ? SPIRA_R32 : SPIRA_R64;
            spira_matrix A = tu_shape_matrix(ctx, &tu_shapes[s], dt, seed + (unsigned)s);
            for (int g = 0; g < 2; g++) {
                const char *path = g ? gz : plain;
                ck_assert_msg(spira_matrix_write_mm(A, path) == SPIRA_OK, "%s",
                              spira_last_error(ctx));
                spira_matrix B;
                ck_assert_msg(spira_matrix_read_mm(ctx, path, dt, &B) == SPIRA_OK, "%s: %s",
                              tu_shapes[s].name, spira_last_error(ctx));
                same_csr(A, B);
                spira_matrix_destroy(B);
            }
            spira_matrix_destroy(A);
        }
    /* awkward values: signed zero, subnormals, extremes, values needing 17 digits */
    double v[] = {-0.0, 4.9406564584124654e-324, -2.2250738585072009e-308, 1.7976931348623157e308,
                  0.1, 1.0 / 3, -2.0 / 3 * 1e-300, 123456789.123456789};
    int32_t ri[8], ci[8];
    for (int k = 0; k < 8; k++) {
        ri[k] = k;
        ci[k] = 7 - k;
    }
    spira_matrix A, B;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 8, 8, 8, ri, ci, v, SPIRA_R64, &A), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_write_mm(A, plain), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_read_mm(ctx, plain, SPIRA_R64, &B), SPIRA_OK);
    same_csr(A, B);
    spira_matrix_destroy(B);
    /* the file says what it is */
    FILE *f = fopen(plain, "r");
    char line[256];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "%%MatrixMarket matrix coordinate real general\n");
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_ptr_nonnull(strstr(line, "Spira"));
    fclose(f);
    spira_matrix_destroy(A);
    /* a bundled symmetric file comes back as the same (expanded) matrix */
    ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data("bcsstk01.mtx"), SPIRA_R64, &A), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_write_mm(A, gz), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_read_mm(ctx, gz, SPIRA_R64, &B), SPIRA_OK);
    same_csr(A, B);
    spira_matrix_destroy(B);
    spira_matrix_destroy(A);
    remove(plain);
    remove(gz);
    rmdir(dir);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(writer_errors)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data("pores_1.mtx"), SPIRA_R64, &A), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_write_mm(A, "/nonexistent/dir/a.mtx"), SPIRA_ERR_IO);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "/nonexistent/dir/a.mtx"));
    if (access("/dev/full", W_OK) == 0) {
        ck_assert_int_eq(spira_matrix_write_mm(A, "/dev/full"), SPIRA_ERR_IO);
        ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "No space"));
    }
    ck_assert_int_eq(spira_matrix_write_mm(NULL, "x"), SPIRA_ERR_INVALID_ARG);
    spira_matrix_destroy(A);
    /* NaN cannot be written (and no file is left behind) */
    const char *dir = tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s", in_dir(dir, "nan.mtx"));
    int32_t ri[] = {0, 1}, ci[] = {0, 1};
    double v[] = {1, NAN};
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 2, 2, 2, ri, ci, v, SPIRA_R64, &A), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_write_mm(A, path), SPIRA_ERR_NONFINITE);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "(2, 2)"));
    ck_assert_int_ne(access(path, F_OK), 0);
    spira_matrix_destroy(A);
    rmdir(dir);
    spira_context_destroy(ctx);
}
END_TEST

/* ---- vectors ------------------------------------------------------------------------ */

START_TEST(vector_round_trip)
{
    spira_context ctx = tu_cpu();
    const char *dir = tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s", in_dir(dir, "v.mtx"));
    unsigned st = tu_seed();
    for (int t = 0; t < 2; t++) {
        spira_dtype dt = t ? SPIRA_R32 : SPIRA_R64;
        int64_t n = 1000 + (int64_t)(tu_uniform(&st, 0, 500));
        spira_vector x, y;
        ck_assert_int_eq(spira_vector_create(ctx, n, dt, &x), SPIRA_OK);
        size_t es = spira_dtype_size(dt);
        char *h = malloc((size_t)n * es), *g = malloc((size_t)n * es);
        for (int64_t i = 0; i < n; i++)
            spira__set(h, dt, i, tu_uniform(&st, -1, 1) * pow(10, tu_uniform(&st, -30, 30)));
        spira__set(h, dt, 0, -0.0);
        ck_assert_int_eq(spira_vector_set(x, h), SPIRA_OK);
        ck_assert_int_eq(spira_vector_write_mm(x, path), SPIRA_OK);
        ck_assert_int_eq(spira_vector_read_mm(ctx, path, dt, &y), SPIRA_OK);
        ck_assert_int_eq(spira_vector_length(y), n);
        ck_assert_int_eq(spira_vector_dtype(y), dt);
        ck_assert_int_eq(spira_vector_get(y, g), SPIRA_OK);
        ck_assert_mem_eq(h, g, (size_t)n * es);
        spira_vector_destroy(x);
        spira_vector_destroy(y);
        free(h);
        free(g);
    }
    /* coordinate n x 1: missing entries are zero, repeated ones summed; 1 x n works too */
    const char *coord = "%%MatrixMarket matrix coordinate real general\n5 1 3\n2 1 1.5\n"
                        "5 1 -1\n2 1 1\n";
    write_text(path, coord, strlen(coord));
    spira_vector y;
    ck_assert_int_eq(spira_vector_read_mm(ctx, path, SPIRA_R64, &y), SPIRA_OK);
    double g[5], e[5] = {0, 2.5, 0, 0, -1};
    ck_assert_int_eq(spira_vector_get(y, g), SPIRA_OK);
    for (int i = 0; i < 5; i++) ck_assert_double_eq(g[i], e[i]);
    spira_vector_destroy(y);
    const char *row = "%%MatrixMarket matrix array integer general\n1 3\n4\n5\n6\n";
    write_text(path, row, strlen(row));
    ck_assert_int_eq(spira_vector_read_mm(ctx, path, SPIRA_R32, &y), SPIRA_OK);
    ck_assert_int_eq(spira_vector_length(y), 3);
    ck_assert_int_eq(spira_vector_get_f64(y, g), SPIRA_OK);
    ck_assert_double_eq(g[2], 6);
    spira_vector_destroy(y);
    /* a matrix is not a vector; a bad vector file names its line */
    y = (spira_vector)1;
    ck_assert_int_eq(spira_vector_read_mm(ctx, tu_data("pores_1.mtx"), SPIRA_R64, &y),
                     SPIRA_ERR_UNSUPPORTED);
    ck_assert_ptr_null(y);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "30 x 30"));
    const char *badv = "%%MatrixMarket matrix array real general\n3 1\n1\nx\n3\n";
    write_text(path, badv, strlen(badv));
    ck_assert_int_eq(spira_vector_read_mm(ctx, path, SPIRA_R64, &y), SPIRA_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "v.mtx:4: value 'x'"));
    remove(path);
    rmdir(dir);
    spira_context_destroy(ctx);
}
END_TEST

/* Repeated coordinate entries are summed: each value in range, their sum may not be (an
 * Inf from a reader that refuses Inf). Found reading the code; the fuzz targets' finiteness
 * checks abort on it. */
START_TEST(sum_overflow)
{
    spira_context ctx = tu_cpu();
    long live = spira__alloc_live();
    const char *d = "%%MatrixMarket matrix coordinate real general\n3 1 2\n2 1 1e308\n2 1 1e308\n";
    const char *f = "%%MatrixMarket matrix coordinate real general\n1 3 2\n1 3 3e38\n1 3 3e38\n";
    const char *back = "%%MatrixMarket matrix coordinate real general\n1 1 3\n1 1 1e308\n"
                       "1 1 -1e308\n1 1 1e308\n";
    spira_vector v = (spira_vector)1;
    ck_assert_int_eq(spira__mm_parse_vector(ctx, "d", d, strlen(d), SPIRA_R64, &v), SPIRA_ERR_PARSE);
    ck_assert_ptr_null(v);
    ck_assert_str_eq(spira_last_error(ctx), "d: the entries at index 2 sum beyond the range of double");
    ck_assert_int_eq(spira__mm_parse_vector(ctx, "f", f, strlen(f), SPIRA_R32, &v), SPIRA_ERR_PARSE);
    ck_assert_ptr_null(v);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "index 3 sum beyond the range of float"));
    ck_assert_int_eq(spira__alloc_live(), live);
    /* the same sum fits a double; a sum that comes back into range is kept */
    double g[3];
    ck_assert_int_eq(spira__mm_parse_vector(ctx, "f", f, strlen(f), SPIRA_R64, &v), SPIRA_OK);
    ck_assert_int_eq(spira_vector_get_f64(v, g), SPIRA_OK);
    ck_assert_double_eq(g[2], 6e38);
    spira_vector_destroy(v);
    ck_assert_int_eq(spira__mm_parse_vector(ctx, "b", back, strlen(back), SPIRA_R64, &v), SPIRA_OK);
    ck_assert_int_eq(spira_vector_get_f64(v, g), SPIRA_OK);
    ck_assert_double_eq(g[0], 1e308);
    spira_vector_destroy(v);
    ck_assert_int_eq(spira__alloc_live(), live);
    /* a matrix's duplicates (here one written twice, and so its mirror) too */
    const char *m = "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 3e38\n"
                    "2 1 3e38\n";
    spira__csr A;
    int sym;
    ck_assert_int_eq(parse(ctx, m, SPIRA_R32, &A, &sym), SPIRA_ERR_PARSE);
    ck_assert_str_eq(spira_last_error(ctx), "t.mtx: the entries at (1, 2) sum beyond the range of float");
    ck_assert_int_eq(spira__alloc_live(), live);
    ck_assert_int_eq(parse(ctx, m, SPIRA_R64, &A, &sym), SPIRA_OK);
    ck_assert_double_eq(at(&A, 1, 0), 6e38);
    ck_assert_double_eq(at(&A, 0, 1), 6e38);
    spira__csr_free(&A);
    spira_context_destroy(ctx);
}
END_TEST

/* ---- the parallel reader against the sequential one ---------------------------------- */

/* A (freed here) and B the same matrix, bit for bit. */
static void same_arrays(spira__csr *A, const spira__csr *B, int sa, int sb, spira_dtype t)
{
    ck_assert_int_eq(sa, sb);
    ck_assert_int_eq(A->nrows, B->nrows);
    ck_assert_int_eq(A->ncols, B->ncols);
    ck_assert_int_eq(A->nnz, B->nnz);
    ck_assert_mem_eq(A->row_ptr, B->row_ptr, sizeof(int32_t) * ((size_t)A->nrows + 1));
    if (A->nnz) {
        ck_assert_mem_eq(A->col_idx, B->col_idx, sizeof(int32_t) * (size_t)A->nnz);
        ck_assert_mem_eq(A->val, B->val, spira_dtype_size(t) * (size_t)A->nnz);
    }
    spira__csr_free(A);
}

/* text read in nchunks stretches (by the fast path where it takes the text, and by the
 * runs) and by the sequential triplet path: the same status, message, and CSR arrays bit
 * for bit. */
static void same_as_sequential(spira_context ctx, const char *text, size_t len, spira_dtype t,
                               int nchunks)
{
    spira__csr A, B;
    int sa = -1, sb = -2;
    char msg[1024];
    spira_status s = spira__mm_parse_chunks(ctx, "p.mtx", text, len, t, SPIRA__MM_TRIPLETS, &B,
                                            &sb);
    snprintf(msg, sizeof msg, "%s", spira_last_error(ctx));
    for (int runs = 0; runs < 2; runs++) {
        spira_status r = spira__mm_parse_chunks(ctx, "p.mtx", text, len, t,
                                                nchunks | (runs ? SPIRA__MM_NO_FAST : 0), &A, &sa);
        ck_assert_msg(r == s, "%d chunks%s: %s (%s), sequential %s (%s)", nchunks,
                      runs ? " (runs)" : "", spira_status_name(r), spira_last_error(ctx),
                      spira_status_name(s), msg);
        if (s != SPIRA_OK)
            ck_assert_msg(strcmp(msg, spira_last_error(ctx)) == 0,
                          "%d chunks%s: '%s', sequential '%s'", nchunks, runs ? " (runs)" : "",
                          spira_last_error(ctx), msg);
        else
            same_arrays(&A, &B, sa, sb, t);
    }
    if (s == SPIRA_OK) spira__csr_free(&B);
}

/* The fast path takes text (read in nchunks stretches) the sequential reader accepts,
 * and builds what it builds; it declines text the sequential reader refuses, or refuses
 * it with the same message. */
static void fast_takes(spira_context ctx, const char *text, size_t len, spira_dtype t, int nchunks)
{
    spira__csr A, B;
    int sa = -1, sb = -2;
    spira_status s = SPIRA_ERR_IO;
    spira_status r = spira__mm_parse_chunks(ctx, "p.mtx", text, len, t, SPIRA__MM_TRIPLETS, &B,
                                            &sb);
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", spira_last_error(ctx));
    int took = spira__mm_fast_csr(ctx, "p.mtx", text, len, t, nchunks, &A, &sa, &s);
    if (r != SPIRA_OK) { /* declined, or refused the same way (a sum beyond the range) */
        ck_assert_msg(!took || (s == r && !strcmp(msg, spira_last_error(ctx))),
                      "the fast path took a file the reader refuses (%d chunks): %s", nchunks,
                      took ? spira_last_error(ctx) : "");
        return;
    }
    ck_assert_msg(took, "the fast path declined (%d chunks)", nchunks);
    ck_assert_msg(s == SPIRA_OK, "%s", spira_last_error(ctx));
    same_arrays(&A, &B, sa, sb, t);
    spira__csr_free(&B);
}

static void same_for_all_chunks(spira_context ctx, const char *text, size_t len)
{
    static const int chunks[] = {1, 2, 3, 4, 5, 7, 16, 61, 500};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++)
        for (int t = 0; t < 2; t++)
            same_as_sequential(ctx, text, len, t ? SPIRA_R32 : SPIRA_R64, chunks[c]);
}

/* A random coordinate file of about n entries: comments and blank lines between them,
 * CRLF now and then, repeated entries, both triangles when general. */
static char *random_file(const char *field, const char *sym, int32_t rows, int64_t n,
                         size_t *len)
{
    size_t cap = (size_t)n * 64 + 256;
    char *b = malloc(cap);
    size_t k = (size_t)snprintf(b, cap, "%%%%MatrixMarket matrix coordinate %s %s\n%% gen\n"
                                "%d %d %lld\n", field, sym, rows, rows, (long long)n);
    int skew = !strcmp(sym, "skew-symmetric"), general = !strcmp(sym, "general");
    for (int64_t e = 0; e < n; e++) {
        int32_t i = (int32_t)(rnd() % (uint64_t)rows) + 1, j = (int32_t)(rnd() % (uint64_t)rows) + 1;
        if (!general && i < j) {
            int32_t x = i;
            i = j;
            j = x;
        }
        if (skew && i == j) i = i % rows + 1 > j ? i % rows + 1 : (j == 1 ? 2 : j - 1);
        if (skew && i < j) {
            int32_t x = i;
            i = j;
            j = x;
        }
        if (skew && i == j) i = j + 1; /* rows >= 2 */
        if (rnd() % 50 == 0) k += (size_t)snprintf(b + k, cap - k, "%% comment %lld\n", (long long)e);
        if (rnd() % 70 == 0) k += (size_t)snprintf(b + k, cap - k, "\n  \t\n");
        const char *eol = rnd() % 9 == 0 ? "\r\n" : "\n";
        if (!strcmp(field, "pattern"))
            k += (size_t)snprintf(b + k, cap - k, "%d %d%s", i, j, eol);
        else if (!strcmp(field, "integer"))
            k += (size_t)snprintf(b + k, cap - k, "%d %d %d%s", i, j, (int)(rnd() % 2001) - 1000, eol);
        else {
            double x = ((double)(rnd() >> 11) / 9007199254740992.0 - 0.5) *
                       pow(10, (double)(rnd() % 40) - 20);
            k += (size_t)snprintf(b + k, cap - k, "%d %d %.*g%s", i, j, 1 + (int)(rnd() % 17), x, eol);
        }
        if (rnd() % 97 == 0 && e + 1 < n) { /* a repeated entry */
            k += (size_t)snprintf(b + k, cap - k, "%d %d%s\n", i, j,
                                  strcmp(field, "pattern") ? " 0.5" : "");
            e++;
        }
    }
    *len = k;
    return b;
}

START_TEST(parallel_like_sequential)
{
    spira_context ctx = tu_cpu();
    long live = spira__alloc_live();
    rng_state = 0x9E3779B97F4A7C15u ^ tu_seed();
    /* hand-made variants: every symmetry and field, comments and blank lines everywhere,
     * CRLF, no final newline, duplicates, an upper-triangle entry, refusals */
    static const char *const texts[] = {
        "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 4\n2 1 1\n2 2 5\n"
        "2 3 2\n3 3 6\n",
        "%%MatrixMarket matrix coordinate real skew-symmetric\r\n3 3 3\r\n\r\n2 1 1.5\r\n"
        "% c\r\n3 1 -2\r\n2 2 0",
        "%%MatrixMarket matrix coordinate pattern symmetric\n% a\n\n3 3 3\n% b\n2 1\n\n3 3\n"
        "3 1\n% end\n\n",
        "%%MatrixMarket matrix coordinate integer general\n2 2 4\n1 2 -7\n2 1 +3\n1 2 7\n"
        "2 2 1\n",
        "%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n1 1 1 0\n",
        "%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n1 1 1\n",
        "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n",
        "%%MatrixMarket matrix coordinate real general\n0 0 0\n",
        "%%MatrixMarket matrix coordinate real general\n2 2 0\n% only comments\n\n",
        "%%MatrixMarket matrix coordinate real general\n2 2 1\n",
        "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n% x\n",
        "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 2 3\n",
        "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 1\n1 2 1\n",
        "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n",
        "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1e39\n2 2 1\n",
        /* lines the usual-line reading takes and leaves (leading zeros, an index of 9
         * digits, two blanks, a tab, exponents), 64 bytes before the end for each */
        "%%MatrixMarket matrix coordinate real general\n3 3 7\n00000001 00000002 1.5\n"
        "000000003 3 -2.25e-3\n2 02 0.12345678901234567\n3 1 1E+2\n1  1 -0.5\n"
        "2\t3 +7.\n3 3 99999999.99999999999\n"
        "% padding: the usual line wants 64 bytes to the end ...................\n",
        "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n1 1 -00000012\n"
        "3 1 123456789\n2 1 -0\n"
        "% padding: the usual line wants 64 bytes to the end ...................\n",
        /* repeated entries in several buckets of the fast path (rows 32768 apart): summed
         * where each bucket is put in order, the buckets moved up over the gaps; a sum
         * beyond the range reported at its first entry in row order */
        "%%MatrixMarket matrix coordinate real general\n200000 200000 9\n150000 3 1\n5 5 1\n"
        "70000 2 0.5\n150000 3 1\n5 5 2\n100000 9 -1\n70000 2 0.25\n199999 9 -1\n5 5 4\n",
        "%%MatrixMarket matrix coordinate real symmetric\n200000 200000 6\n150000 3 1\n"
        "150000 3 1\n100000 99999 2\n100000 99999 3\n199999 1 1\n3 3 1\n",
        "%%MatrixMarket matrix coordinate real general\n200000 200000 8\n150000 3 1e308\n"
        "5 5 1\n70000 2 0.5\n150000 3 1e308\n5 5 2\n100000 9 -1e308\n70000 2 0.25\n"
        "100000 9 -1e308\n",
        "%%MatrixMarket matrix coordinate pattern skew-symmetric\n3 3 2\n2 1\n3 02\n"
        "% padding: the usual line wants 64 bytes to the end ...................\n",
        "%%MatrixMarket matrix coordinate real general\n1 1 2\n1 1 3e38\n1 1 3e38\n",
        "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n",
    };
    for (int g = 0; g < 2; g++) { /* the fast path's loops for this processor, the generic */
        spira__mm_fast_generic = g;
        for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
            same_for_all_chunks(ctx, texts[i], strlen(texts[i]));
    }
    spira__mm_fast_generic = 0;
    /* random files, large enough that the CSR is built by every thread */
    static const char *const kinds[][2] = {{"real", "general"},     {"real", "symmetric"},
                                           {"real", "skew-symmetric"}, {"pattern", "general"},
                                           {"pattern", "symmetric"}, {"integer", "symmetric"}};
    for (size_t kd = 0; kd < sizeof kinds / sizeof kinds[0]; kd++) {
        size_t len;
        char *b = random_file(kinds[kd][0], kinds[kd][1], 3000, kd == 0 ? 70000 : 4000, &len);
        char *exact = malloc(len); /* exactly len bytes: no NUL to lean on */
        memcpy(exact, b, len);
        int64_t m = kd == 0 ? 1 : 4;
        for (int64_t c = 0; c < m; c++) /* auto chunks too */
            same_as_sequential(ctx, exact, len, c % 2 ? SPIRA_R32 : SPIRA_R64, c < 2 ? 0 : 16);
        if (kd) same_for_all_chunks(ctx, exact, len);
        static const int fast_chunks[] = {0, 1, 2, 3, 16};
        for (int c = 0; c < 6; c++) { /* such files are the fast path's to read (the last
                                       * time by its generic loops) */
            spira__mm_fast_generic = c == 5;
            fast_takes(ctx, exact, len, c % 2 ? SPIRA_R32 : SPIRA_R64, fast_chunks[c % 5]);
        }
        spira__mm_fast_generic = 0;
        free(exact);
        free(b);
    }
    ck_assert_int_eq(spira__alloc_live(), live);
    spira_context_destroy(ctx);
}
END_TEST

/* A file of more than 1 MiB is mapped, not read (spira__mm_map): the same matrix as its
 * text parsed sequentially, and the same refusal, at the same line, when the fast path
 * declines it. */
START_TEST(mapped_files)
{
    spira_context ctx = tu_cpu();
    long live = spira__alloc_live();
    rng_state = 0x2545F4914F6CDD1Du ^ tu_seed();
    const char *dir = tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s", in_dir(dir, "big.mtx"));
    size_t len;
    char *b = random_file("real", "general", 3000, 70000, &len);
    ck_assert_uint_gt(len, (size_t)1 << 20);
    for (int bad = 0; bad < 2; bad++) {
        if (bad) /* a letter in the middle of a value near the end */
            for (size_t k = len - 100; k < len; k++)
                if (b[k] == '.') {
                    b[k + 1] = 'x';
                    break;
                }
        write_text(path, b, len);
        char *text;
        size_t n;
        int mapped;
        ck_assert_int_eq(spira__mm_map(ctx, path, &text, &n, &mapped), SPIRA_OK);
        ck_assert_int_eq(mapped, 1);
        ck_assert_uint_eq(n, len);
        ck_assert_mem_eq(text, b, len);
        spira__mm_unmap(text, n, mapped);
        spira__csr A, B;
        int sa = -1, sb = -2;
        spira_status s = spira__mm_parse_chunks(ctx, path, b, len, SPIRA_R64, SPIRA__MM_TRIPLETS,
                                                &B, &sb);
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", spira_last_error(ctx));
        ck_assert_int_eq(s, bad ? SPIRA_ERR_PARSE : SPIRA_OK);
        ck_assert_int_eq(spira__mm_read(ctx, path, SPIRA_R64, &A, &sa), s);
        if (bad) ck_assert_str_eq(spira_last_error(ctx), msg);
        else {
            same_arrays(&A, &B, sa, sb, SPIRA_R64);
            spira__csr_free(&B);
        }
    }
    ck_assert_int_eq(remove(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
    free(b);
    ck_assert_int_eq(spira__alloc_live(), live);
    spira_context_destroy(ctx);
}
END_TEST

/* A refusal on any line is reported at that line, whichever stretch holds it. */
START_TEST(parallel_errors_in_file_order)
{
    spira_context ctx = tu_cpu();
    long live = spira__alloc_live();
    rng_state = 0xD1B54A32D192ED03u ^ tu_seed();
    size_t len;
    char *b = random_file("real", "symmetric", 500, 3000, &len);
    static const char *const junk[] = {"x", "1 1 nan", "0 1 1", "1 501 1", "1", "1 1 1 1",
                                       "1 2 3", "99999999999 1 1", "1 1 1e999", ""};
    char *t = malloc(len + 64);
    for (int it = 0; it < 120; it++) {
        /* replace a random line (after the size line) by junk, or cut the text, or add a
         * line at the end */
        size_t at = 60 + (size_t)(rnd() % (len - 60));
        while (at < len && b[at - 1] != '\n') at++;
        size_t n = 0;
        int how = (int)(rnd() % 4);
        memcpy(t, b, at);
        n = at;
        if (how <= 1) {
            const char *j = junk[rnd() % (sizeof junk / sizeof junk[0])];
            n += (size_t)sprintf(t + n, "%s\n", j);
            const char *nl = memchr(b + at, '\n', len - at);
            size_t rest = nl ? (size_t)(nl + 1 - b) : len;
            memcpy(t + n, b + rest, len - rest);
            n += len - rest;
            if (how == 1 && rnd() % 2) { /* a second error later: the first one counts */
                t[n - 2] = 'z';
            }
        } else if (how == 2) {
            /* cut: truncated */
        } else {
            memcpy(t + n, b + at, len - at);
            n = len;
            n += (size_t)sprintf(t + n, "1 1 1\n");
        }
        char *exact = malloc(n ? n : 1);
        memcpy(exact, t, n);
        same_as_sequential(ctx, exact, n, SPIRA_R64, 2 + (int)(rnd() % 30));
        free(exact);
    }
    free(t);
    free(b);
    ck_assert_int_eq(spira__alloc_live(), live);
    spira_context_destroy(ctx);
}
END_TEST

/* ---- hostile inputs (issue 17) ------------------------------------------------------- */

static spira_context budget_ctx(size_t bytes)
{
    spira_context ctx;
    spira_context_opts o = {.backend = SPIRA_BACKEND_CPU, .max_bytes = bytes};
    ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_OK);
    return ctx;
}

/* Peak resident memory of this process (fork mode: this test's), in MiB. */
static long peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}

static const char *bad_path(const char *file)
{
    static char rel[256];
    snprintf(rel, sizeof rel, "../tests/mm-bad/%s", file);
    return tu_data(rel);
}

/* Files declaring billions of rows are refused at their size line, against the budget,
 * before anything proportional to the declared size is allocated. */
START_TEST(declared_sizes_within_budget)
{
    spira_context ctx = budget_ctx((size_t)64 << 20);
    long live = spira__alloc_live(), peak = peak_mib();
    static const char *const files[] = {"rows-2147483647.mtx", "rows-0048737097.mtx",
                                        "rows-1788385464.mtx"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        spira_matrix A = (spira_matrix)1;
        ck_assert_int_eq(spira_matrix_read_mm(ctx, bad_path(files[f]), SPIRA_R64, &A),
                         SPIRA_ERR_NOMEM);
        ck_assert_ptr_null(A);
        tu_assert_error_has(ctx, ":2: the row pointers of a matrix of");
        tu_assert_error_has(ctx, "above the limit of 67108864 bytes");
    }
    /* a vector: its declared length against the length wanted, then the budget */
    spira_vector v = (spira_vector)1;
    ck_assert_int_eq(spira_vector_read_mm_n(ctx, bad_path("vector-2e9.mtx"), SPIRA_R64, 3, &v),
                     SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_null(v);
    tu_assert_error_has(ctx, "vector-2e9.mtx:2: the vector has 2000000000 entries, 3 are wanted");
    ck_assert_int_eq(spira_vector_read_mm(ctx, bad_path("vector-2e9.mtx"), SPIRA_R64, &v),
                     SPIRA_ERR_NOMEM);
    tu_assert_error_has(ctx, "the 2000000000 values of the vector would need 16000000000 bytes");
    /* the same length wanted and found reads */
    ck_assert_int_eq(spira_vector_read_mm_n(ctx, tu_data("pores_1.mtx"), SPIRA_R64, 30, &v),
                     SPIRA_ERR_UNSUPPORTED); /* 30 x 30: not a vector, said at its size line */
    tu_assert_error_has(ctx, "pores_1.mtx:");
    ck_assert_int_eq(spira__alloc_live(), live);
    ck_assert_int_lt(peak_mib() - peak, 32);
    spira_context_destroy(ctx);
}
END_TEST

/* A gzip bomb, /dev/zero, /dev/urandom and an endless pipe end quickly, within the budget. */
START_TEST(streams_within_budget)
{
    spira_context ctx = budget_ctx((size_t)4 << 20);
    long live = spira__alloc_live(), peak = peak_mib();
    const char *dir = tmpdir();
    char bomb[512], fifo[512];
    snprintf(bomb, sizeof bomb, "%s", in_dir(dir, "bomb.mtx.gz"));
    snprintf(fifo, sizeof fifo, "%s", in_dir(dir, "pipe.mtx"));
    /* 32 MB of comment lines after a valid header: a few tens of kB compressed */
    gzFile g = gzopen(bomb, "wb9");
    ck_assert_ptr_nonnull(g);
    gzputs(g, "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n");
    char line[1024];
    memset(line, 'x', sizeof line);
    line[0] = '%';
    line[sizeof line - 1] = '\n';
    for (int i = 0; i < 32 * 1024; i++) ck_assert_int_eq(gzwrite(g, line, sizeof line), (int)sizeof line);
    ck_assert_int_eq(gzclose(g), Z_OK);
    struct stat st;
    ck_assert_int_eq(stat(bomb, &st), 0);
    ck_assert_int_lt(st.st_size, 1 << 20);
    spira_matrix A = (spira_matrix)1;
    ck_assert_int_eq(spira_matrix_read_mm(ctx, bomb, SPIRA_R64, &A), SPIRA_ERR_NOMEM);
    ck_assert_ptr_null(A);
    tu_assert_error_has(ctx, "the gunzipped text of ");
    tu_assert_error_has(ctx, "above the limit of 4194304 bytes");
    /* devices that never end: not a banner, refused after the first block */
    ck_assert_int_eq(spira_matrix_read_mm(ctx, "/dev/zero", SPIRA_R64, &A), SPIRA_ERR_PARSE);
    tu_assert_error_has(ctx, "/dev/zero:1: not a Matrix Market file");
    ck_assert_int_ne(spira_matrix_read_mm(ctx, "/dev/urandom", SPIRA_R64, &A), SPIRA_OK);
    /* an endless pipe of comment lines after a valid header */
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        FILE *f = fopen(fifo, "w");
        if (!f) _exit(1);
        fputs("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n", f);
        for (long i = 0; i < 1L << 20; i++) /* 1 GiB at most, then give up */
            if (fwrite(line, 1, sizeof line, f) != sizeof line) _exit(0);
        _exit(2);
    }
    ck_assert_int_eq(spira_matrix_read_mm(ctx, fifo, SPIRA_R64, &A), SPIRA_ERR_NOMEM);
    tu_assert_error_has(ctx, "(so far) would need");
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    ck_assert_int_eq(spira__alloc_live(), live);
    ck_assert_int_lt(peak_mib() - peak, 64);
    remove(bomb);
    remove(fifo);
    rmdir(dir);
    spira_context_destroy(ctx);
}
END_TEST

/* gzip members concatenated read as one file; anything else after them is refused;
 * bzip2 is named. */
START_TEST(compressed_inputs)
{
    spira_context ctx = tu_cpu();
    const char *dir = tmpdir();
    char two[512], junk[512];
    snprintf(two, sizeof two, "%s", in_dir(dir, "two.mtx.gz"));
    snprintf(junk, sizeof junk, "%s", in_dir(dir, "junk.mtx.gz"));
    gzFile g = gzopen(two, "wb");
    gzputs(g, "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.5\n");
    gzclose(g);
    g = gzopen(two, "ab"); /* a second member */
    gzputs(g, "2 2 -3\n");
    gzclose(g);
    spira__csr A;
    int sym;
    ck_assert_msg(spira__mm_read(ctx, two, SPIRA_R64, &A, &sym) == SPIRA_OK, "%s",
                  spira_last_error(ctx));
    ck_assert_int_eq(A.nnz, 2);
    ck_assert_double_eq(at(&A, 1, 1), -3);
    spira__csr_free(&A);
    /* the same members with bytes after them */
    FILE *in = fopen(two, "rb"), *out = fopen(junk, "wb");
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, in);
    fwrite(buf, 1, n, out);
    fputs("trailing junk\n", out);
    fclose(in);
    fclose(out);
    ck_assert_int_eq(spira__mm_read(ctx, junk, SPIRA_R64, &A, &sym), SPIRA_ERR_IO);
    tu_assert_error_has(ctx, "junk.mtx.gz: 14 bytes of something else after the gzip data");
    spira_matrix M = (spira_matrix)1;
    ck_assert_int_eq(spira_matrix_read_mm(ctx, bad_path("bzip2.mtx.bz2"), SPIRA_R64, &M),
                     SPIRA_ERR_UNSUPPORTED);
    ck_assert_ptr_null(M);
    tu_assert_error_has(ctx, "bzip2 is not supported: decompress it first (bunzip2 FILE)");
    remove(two);
    remove(junk);
    rmdir(dir);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(symmetric_given_twice)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = (spira_matrix)1;
    ck_assert_int_eq(spira_matrix_read_mm(ctx, bad_path("symmetric-both.mtx"), SPIRA_R64, &A),
                     SPIRA_ERR_PARSE);
    ck_assert_ptr_null(A);
    tu_assert_error_has(ctx, "symmetric-both.mtx: (2, 1) and (1, 2) are both stored");
    /* skew-symmetric too; one entry in the upper triangle alone is mirrored as usual */
    spira__csr C;
    int sym;
    const char *skew = "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n2 1 1\n1 2 -1\n";
    ck_assert_int_eq(parse(ctx, skew, SPIRA_R64, &C, &sym), SPIRA_ERR_PARSE);
    tu_assert_error_has(ctx, "t.mtx: (2, 1) and (1, 2) are both stored");
    const char *upper = "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 4\n";
    ck_assert_int_eq(parse(ctx, upper, SPIRA_R64, &C, &sym), SPIRA_OK);
    ck_assert_double_eq(at(&C, 1, 0), 4);
    ck_assert_double_eq(at(&C, 0, 1), 4);
    spira__csr_free(&C);
    spira_context_destroy(ctx);
}
END_TEST

/* A path longer than the context's message keeps the cause in the message. */
START_TEST(long_path_keeps_cause)
{
    spira_context ctx = tu_cpu();
    char path[1200];
    size_t n = (size_t)snprintf(path, sizeof path, "/nonexistent-spira");
    while (n < 1100) n += (size_t)snprintf(path + n, sizeof path - n, "/%s", "directory-name-of-forty-characters-long");
    snprintf(path + n, sizeof path - n, "/a.mtx");
    spira_matrix A = (spira_matrix)1;
    ck_assert_int_eq(spira_matrix_read_mm(ctx, path, SPIRA_R64, &A), SPIRA_ERR_IO);
    tu_assert_error_has(ctx, "cannot open '/nonexistent-spira/directory");
    tu_assert_error_has(ctx, "...");
    tu_assert_error_has(ctx, "/a.mtx': No such file or directory");
    spira_vector v;
    ck_assert_int_eq(spira_vector_read_mm(ctx, path, SPIRA_R64, &v), SPIRA_ERR_IO);
    tu_assert_error_has(ctx, "No such file or directory");
    spira_context_destroy(ctx);
}
END_TEST

Suite *suite_mmio(void)
{
    Suite *s = suite_create("mmio");
    TCase *tc = tcase_create("mmio");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, bundled_files);
    tcase_add_test(tc, gzip_input);
    tcase_add_test(tc, missing_file);
    tcase_add_test(tc, symmetric_expansion);
    tcase_add_test(tc, skew_symmetric);
    tcase_add_test(tc, array_pattern_integer);
    tcase_add_test(tc, lenient_layout);
    tcase_add_test(tc, numbers_as_strtod);
    tcase_add_test(tc, locale_independent);
    tcase_add_test(tc, bad_files);
    tcase_add_test(tc, bad_in_memory);
    tcase_add_test(tc, mutations_never_crash);
    tcase_add_test(tc, allocation_failures);
    tcase_add_test(tc, writer_round_trip);
    tcase_add_test(tc, writer_errors);
    tcase_add_test(tc, vector_round_trip);
    tcase_add_test(tc, sum_overflow);
    tcase_add_test(tc, parallel_like_sequential);
    tcase_add_test(tc, declared_sizes_within_budget);
    tcase_add_test(tc, streams_within_budget);
    tcase_add_test(tc, compressed_inputs);
    tcase_add_test(tc, symmetric_given_twice);
    tcase_add_test(tc, long_path_keeps_cause);
    tcase_add_test(tc, parallel_errors_in_file_order);
    tcase_add_test(tc, mapped_files);
    suite_add_tcase(s, tc);
    return s;
}
