/*
 * spira-gf2 - the GF(2) SpMV benchmark: Y = M X over GF(2), M a pattern matrix and X a
 * block of W = 64, 128 or 256 bit vectors (block Wiedemann's multiply; Schmidt, Aribowo
 * and Dang), with every selected format at every selected width, in one run.
 *
 * M is read from a Matrix Market file (integer or pattern entries mod 2; --pattern takes
 * any file's stored entries as ones) or generated with --nfs N:W, an N x N matrix shaped
 * like a number-field-sieve matrix: W distinct columns a row, column floor(N u^3) for u
 * uniform in [0, 1) (a fixed-seed xorshift), so the first columns are dense and the rest
 * sparse, a duplicate within a row drawn again.
 *
 * For each (format, width): setup (the plan's build, in ms), the median and minimum time
 * of one multiply over --reps runs after --warmup runs (CUDA events around each run on the
 * context's stream; the wall clock on the CPU backend), Gnnz/s = nnz / t (the chapter's
 * metric: billions of nonzeros processed a second, one multiply of a W-bit block),
 * effective GB/s = (matrix bytes as the format reads them + X read once + Y written once)
 * / t, and the matrix's bytes. Before the timing, Y is poisoned (every bit set) and the
 * first multiply compared word for word with a plain loop over M's entries (XOR is
 * exact, so any differing word is WRONG). A format that refuses gets a row with its
 * reason. It uses the public API only: the plan's setup and bytes from
 * spira_gf2_matrix_plan_info, the runs timed by spira_gf2_spmv_time.
 *
 * With --kernel it times spira_gf2_kernel instead, once per format: vectors of ker M found,
 * multiplies made, the phases' times, and the found vectors checked with the plain loop
 * (nonzero, M K = 0 on them). --block picks Coppersmith's block Wiedemann (64 x 64 bit
 * blocks, about 3 N / 64 multiplies) instead of 64 single-bit Wiedemann runs (3 N + deg).
 *
 * --devices N splits M's rows over N devices of the machine (spira_gf2_matrix_set_devices):
 * the multiplies above, the kernel search, and --sequence L, which times block Wiedemann's
 * Krylov sequence a_i = X^T M^i Y, i <= L, with each format and width instead (the median
 * over --reps sequences of the wall time of the whole call, and of a call with L = 0, its
 * setup: the difference over L is the time a step, multiply and exchange between the
 * devices included), a_0 and a_1 checked against the plain loop.
 *
 * Exit status: 0, 1 if a format failed (not a refusal) or was WRONG (with --kernel: found
 * none too), 2 for bad usage.
 */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: spira-gf2 [options] M.mtx[.gz]\n"
            "       spira-gf2 [options] --nfs N:W   (N x N, W entries a row, NFS-shaped)\n"
            "       spira-gf2 --list-formats\n"
            "Time Y = M X over GF(2), X a block of 64, 128 or 256 bit vectors, with each GF(2)\n"
            "format, and check every result bit for bit against a plain loop over M's entries.\n"
            "  --nfs N:W            generate M: each row W distinct columns floor(N u^3), u\n"
            "                       uniform in [0,1) (fixed seed): dense first columns\n"
            "  --pattern            read the file's stored entries as ones (any field; without\n"
            "                       it, integer values are taken mod 2 and real ones refused)\n"
            "  --width LIST         64, 128, 256 or a comma list of them (default 64)\n"
            "  --formats LIST       'all' (default) or a comma list of NAME[:OPTIONS];\n"
            "                       OPTIONS are key=value pairs, e.g. sliced-coo:share=warp,rows=64\n"
            "  --reps N             timed runs per format and width (default 100); the median\n"
            "                       is reported\n"
            "  --warmup N           untimed runs first (default 5)\n"
            "  --backend NAME       auto (default), cpu, cuda\n"
            "  --csv                comma-separated output with a header line\n"
            "  --kernel             instead of timing multiplies, find vectors of ker M with\n"
            "                       spira_gf2_kernel (64-bit blocks) with each format, check\n"
            "                       them, and time the sequence, Berlekamp-Massey and the rest\n"
            "  --block              with --kernel: block Wiedemann (Coppersmith; about 3N/64\n"
            "                       multiplies and a matrix Berlekamp-Massey on the host)\n"
            "  --devices N          split M's rows over N devices (default 1)\n"
            "  --sequence L         instead of single multiplies, time the Krylov sequence\n"
            "                       a_i = X^T M^i Y for i <= L (M square): --reps sequences\n"
            "  --list-formats       every GF(2) format with its description and option keys\n"
            "  --help               this text\n");
}

/* "64,128,256" -> {64, 128, 256}; exits 2 on anything else. */
static int parse_widths(const char *list, int *w, int cap)
{
    int n = 0;
    const char *p = list;
    for (;;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || (*end && *end != ',') || (v != 64 && v != 128 && v != 256) || n == cap)
            cli_usage_error("--width '%s': want 64, 128 or 256, or a comma list of them (at most "
                            "%d)", list, cap);
        w[n++] = (int)v;
        if (!*end) return n;
        p = end + 1;
    }
}

/* An NFS-shaped N x N pattern, W entries a row, as COO (row-major: row i holds entries
 * i*W .. i*W+W-1) and the row pointers of the same entries. Column floor(N u^3) puts
 * about N^(-1/3) of the draws in column 0 (W = 64, N = 10^6: column 0 in half the rows).
 * A column already in the row is drawn again, and after 64 tries the next free column
 * above it is taken (so any W <= N ends). */
static int gen_nfs(int32_t n, int32_t w, int32_t **row, int32_t **col, int32_t **rp)
{
    size_t nnz = (size_t)n * (size_t)w;
    int32_t *seen = malloc((size_t)n * sizeof *seen);
    *row = malloc(nnz * sizeof **row);
    *col = malloc(nnz * sizeof **col);
    *rp = malloc(((size_t)n + 1) * sizeof **rp);
    if (!seen || !*row || !*col || !*rp) {
        free(seen);
        return 0;
    }
    for (int32_t j = 0; j < n; j++) seen[j] = -1;
    uint64_t st = 0x9E3779B97F4A7C15u;
    size_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        (*rp)[i] = (int32_t)k;
        for (int32_t e = 0; e < w; e++) {
            int32_t c = 0;
            for (int t = 0; t < 64; t++) {
                double u = (double)(cli_xorshift64(&st) >> 11) * 0x1.0p-53;
                c = (int32_t)((double)n * u * u * u);
                if (c >= n) c = n - 1;
                if (seen[c] != i) break;
            }
            while (seen[c] == i) c = c + 1 < n ? c + 1 : 0;
            seen[c] = i;
            (*row)[k] = i;
            (*col)[k++] = c;
        }
    }
    (*rp)[n] = (int32_t)k;
    free(seen);
    return 1;
}

/* The reference: row i of y = XOR of rows col[k] of x over k in row i, words words a row. */
static void reference(int32_t m, const int32_t *rp, const int32_t *col, int words,
                      const uint64_t *x, uint64_t *y)
{
    for (int32_t i = 0; i < m; i++) {
        uint64_t acc[4] = {0, 0, 0, 0};
        for (int32_t k = rp[i]; k < rp[i + 1]; k++)
            for (int b = 0; b < words; b++) acc[b] ^= x[(size_t)col[k] * words + b];
        for (int b = 0; b < words; b++) y[(size_t)i * words + b] = acc[b];
    }
}

typedef struct {
    int ok;             /* measured */
    const char *status; /* "ok", "refused", "error", "WRONG" */
    char note[512];     /* refusal reason, error message or where the result differs */
    double setup_ms, spmv_ms, spmv_min_ms;
    size_t bytes;
} result;

/* Time one format at one width. ref is the reference Y, ybuf host scratch of Y's size, t
 * reps doubles of scratch. */
static void bench_format(spira_context ctx, spira_gf2_matrix M,
                         const cli_format_item *it, int words, spira_gf2_block X, spira_gf2_block Y,
                         int32_t m, const uint64_t *ref, uint64_t *ybuf, double *t, int warmup,
                         int reps, result *r)
{
    memset(r, 0, sizeof *r);
    r->status = "error";
    size_t ny = (size_t)m * (size_t)words;
    spira_plan_info p;
    spira_status s = spira_gf2_matrix_set_format(M, it->name, it->opts);
    /* correctness first, on a poisoned Y; the first multiply builds the plan */
    if (s == SPIRA_OK) {
        memset(ybuf, 0xFF, ny * sizeof *ybuf);
        s = spira_gf2_block_set(Y, ybuf);
    }
    if (s == SPIRA_OK) s = spira_gf2_spmv(M, X, Y);
    if (s == SPIRA_OK) s = spira_gf2_matrix_plan_info(M, words * 64, &p);
    if (s == SPIRA_OK) s = spira_gf2_block_get(Y, ybuf);
    if (s != SPIRA_OK) {
        r->status = s == SPIRA_ERR_UNSUPPORTED ? "refused" : "error";
        snprintf(r->note, sizeof r->note, "%s", spira_last_error(ctx));
        spira_gf2_matrix_drop_plans(M);
        return;
    }
    r->setup_ms = p.convert_ms + p.upload_ms;
    r->bytes = p.bytes;
    size_t bad = 0, first = 0;
    for (size_t k = 0; k < ny; k++)
        if (ybuf[k] != ref[k] && bad++ == 0) first = k;
    s = spira_gf2_spmv_time(M, X, Y, warmup, NULL);
    if (s == SPIRA_OK) s = spira_gf2_spmv_time(M, X, Y, reps, t);
    if (s == SPIRA_OK) {
        r->spmv_ms = cli_median(t, reps); /* sorts t */
        r->spmv_min_ms = t[0];
        r->ok = 1;
        r->status = bad ? "WRONG" : "ok";
        if (bad)
            snprintf(r->note, sizeof r->note,
                     "%zu of %zu words differ; first: row %zu word %zu is %016llx, not %016llx",
                     bad, ny, first / (size_t)words, first % (size_t)words,
                     (unsigned long long)ybuf[first], (unsigned long long)ref[first]);
    } else {
        snprintf(r->note, sizeof r->note, "%s", spira_last_error(ctx));
    }
    spira_gf2_matrix_drop_plans(M); /* its device memory goes before the next format's */
}

/* The message of a failure that is the driver's, not the library's (its own host memory). */
static char own_error[256];

/* "PROG: WHAT: STATUS: message" to stderr; nonzero if s is not SPIRA_OK. */
static int failed(spira_context ctx, spira_status s, const char *what)
{
    if (s == SPIRA_OK) return 0;
    fprintf(stderr, "%s: %s: %s: %s\n", cli_prog, what, spira_status_name(s),
            own_error[0] ? own_error : spira_last_error(ctx));
    return 1;
}

/* M from a file's stored entries, whatever their values (--pattern): through the real
 * reader and its canonical CSR, each (i, j) once. rp and col get the CSR (the reference's). */
static spira_status read_pattern(spira_context ctx, const char *path, spira_gf2_matrix *M,
                                 int32_t **rp, int32_t **col)
{
    spira_matrix A = NULL;
    spira_matrix_info info;
    int32_t *row = NULL;
    spira_status s = spira_matrix_read_mm(ctx, path, SPIRA_R64, &A);
    if (s == SPIRA_OK) s = spira_matrix_get_info(A, &info);
    if (s == SPIRA_OK) {
        *rp = malloc(((size_t)info.nrows + 1) * sizeof **rp);
        *col = malloc(((size_t)info.nnz + 1) * sizeof **col);
        row = malloc(((size_t)info.nnz + 1) * sizeof *row);
        if (!*rp || !*col || !row) {
            snprintf(own_error, sizeof own_error, "the entries of %s (%lld)", path,
                     (long long)info.nnz);
            s = SPIRA_ERR_NOMEM;
        }
    }
    if (s == SPIRA_OK) s = spira_matrix_get_csr(A, *rp, *col, NULL);
    if (s == SPIRA_OK) {
        for (int32_t i = 0; i < (int32_t)info.nrows; i++)
            for (int32_t k = (*rp)[i]; k < (*rp)[i + 1]; k++) row[k] = i;
        s = spira_gf2_matrix_from_coo(ctx, info.nrows, info.ncols, info.nnz, row, *col, M);
    }
    free(row);
    spira_matrix_destroy(A);
    return s;
}

/* --kernel: spira_gf2_kernel with one format; the found columns checked against the
 * reference multiply (each nonzero, M K = 0 on it). Returns 0, or 1 on failure. */
static int run_kernel(spira_context ctx, spira_gf2_matrix M, const cli_format_item *it,
                      int32_t m, int32_t n, const int32_t *rp, const int32_t *col,
                      const char *source, int csv, int method)
{
    spira_gf2_block K = NULL;
    uint64_t *k = malloc(((size_t)n + 1) * sizeof *k), *mk = malloc(((size_t)m + 1) * sizeof *mk);
    spira_gf2_kernel_info info = {0};
    double t0 = cli_now_ms(), total = 0;
    const char *err = NULL; /* the library's message, unless the failure is ours */
    spira_status s = k && mk ? SPIRA_OK : SPIRA_ERR_NOMEM;
    if (s != SPIRA_OK) err = "kernel check buffers";
    if (s == SPIRA_OK) s = spira_gf2_matrix_set_format(M, it->name, it->opts);
    if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, n, 64, &K);
    if (s == SPIRA_OK) {
        t0 = cli_now_ms();
        const spira_gf2_kernel_opts o = {0, method};
        s = spira_gf2_kernel(M, K, &o, &info);
        total = cli_now_ms() - t0;
    }
    const char *status = s == SPIRA_OK ? "ok" : s == SPIRA_ERR_NOT_CONVERGED ? "none" : "error";
    if (s == SPIRA_OK && spira_gf2_block_get(K, k) == SPIRA_OK) {
        uint64_t nz = 0, bad = 0;
        for (int32_t j = 0; j < n; j++) nz |= k[j];
        reference(m, rp, col, 1, k, mk);
        for (int32_t i = 0; i < m; i++) bad |= mk[i];
        if (nz != info.lanes || (bad & info.lanes)) status = "WRONG";
    }
    if (csv)
        printf("%s,%d,%d,%s,%s,%s,%d,%lld,%d,%.3f,%.3f,%.3f,%.3f\n", source, m, n, it->name,
               it->opts, status, info.found, (long long)info.spmvs, info.degree,
               info.sequence_ms, info.bm_ms, info.evaluate_ms, total);
    else
        printf("%-24s %6s %6d %8lld %8d %11.1f %9.1f %11.1f %10.1f%s%s\n", it->name, status,
               info.found, (long long)info.spmvs, info.degree, info.sequence_ms, info.bm_ms,
               info.evaluate_ms, total, s != SPIRA_OK ? "  " : "",
               s != SPIRA_OK ? err ? err : spira_last_error(ctx) : "");
    spira_gf2_block_destroy(K);
    free(k), free(mk);
    return strcmp(status, "ok") != 0;
}

/* --sequence: the median wall time of reps calls of spira_gf2_krylov_sequence with L
 * terms and with none (its setup), after warmup short ones; a_0 = X^T Y and a_1 = X^T M Y
 * checked against the plain loop. Returns 0, or 1 on failure. */
static int run_sequence(spira_context ctx, spira_gf2_matrix M, const cli_format_item *it,
                        int width, int32_t n, const int32_t *rp, const int32_t *col,
                        const char *source, int csv, int devices, long L, int warmup, int reps,
                        int header)
{
    const int words = width / 64;
    const size_t nx = (size_t)n * words, term = (size_t)64 * words * words;
    uint64_t *x = malloc((nx + 1) * 8), *y = malloc((nx + 1) * 8), *my = malloc((nx + 1) * 8);
    uint64_t *a = malloc(((size_t)L + 1) * term * 8), want[2 * 1024];
    double *t = malloc((size_t)reps * sizeof *t), *t0 = malloc((size_t)reps * sizeof *t0);
    spira_gf2_block X = NULL, Y = NULL;
    const char *status = "error", *err = NULL;
    double seq_ms = 0, setup_ms = 0;
    spira_status s = x && y && my && a && t && t0 ? SPIRA_OK : SPIRA_ERR_NOMEM;
    if (s != SPIRA_OK) err = "sequence buffers";
    if (s == SPIRA_OK) {
        uint64_t st = 0x2545F4914F6CDD1Du ^ (uint64_t)width;
        for (size_t k = 0; k < nx; k++) x[k] = cli_xorshift64(&st), y[k] = cli_xorshift64(&st);
        reference(n, rp, col, words, y, my);
        memset(want, 0, sizeof want); /* bit c of row r of X^T Z: XOR_k X(k, r) Z(k, c) */
        for (int q = 0; q < 2; q++)
            for (int32_t k = 0; k < n; k++)
                for (int r = 0; r < width; r++)
                    if (x[(size_t)k * words + r / 64] >> (r % 64) & 1)
                        for (int w = 0; w < words; w++)
                            want[q * 1024 + r * words + w] ^= (q ? my : y)[(size_t)k * words + w];
        s = spira_gf2_matrix_set_format(M, it->name, it->opts);
    }
    if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, n, width, &X);
    if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, n, width, &Y);
    if (s == SPIRA_OK) s = spira_gf2_block_set(X, x);
    if (s == SPIRA_OK) s = spira_gf2_block_set(Y, y);
    if (s == SPIRA_OK) s = spira_gf2_matrix_prepare(M, width, NULL);
    for (int k = 0; k < warmup && s == SPIRA_OK; k++)
        s = spira_gf2_krylov_sequence(M, X, Y, L < 10 ? L : 10, a);
    for (int k = 0; k < reps && s == SPIRA_OK; k++) {
        double c0 = cli_now_ms();
        s = spira_gf2_krylov_sequence(M, X, Y, 0, a);
        double c1 = cli_now_ms();
        if (s == SPIRA_OK) s = spira_gf2_krylov_sequence(M, X, Y, L, a);
        t0[k] = c1 - c0, t[k] = cli_now_ms() - c1;
    }
    if (s == SPIRA_OK) {
        seq_ms = cli_median(t, reps), setup_ms = cli_median(t0, reps);
        status = memcmp(a, want, term * 8) || (L >= 1 && memcmp(a + term, want + 1024, term * 8))
                     ? "WRONG" : "ok";
    }
    const double step = L ? (seq_ms - setup_ms) / (double)L : 0;
    const double gnnz = step > 0 ? (double)rp[n] / (step * 1e6) : 0;
    if (header && csv)
        printf("matrix,n,nnz,format,options,width,devices,status,steps,sequence_ms,setup_ms,"
               "step_ms,gnnz_s,reps\n");
    else if (header)
        printf("spira-gf2 %s: Krylov sequence of %s, %d x %d, %d entries, %d devices; backend "
               "%s\nmedian of %d sequences (wall clock, whole call) after %d short ones; step = "
               "(sequence - setup) / L\n\n%-24s %5s %7s %8s %12s %10s %10s %8s\n",
               spira_version(), source, n, n, rp[n], devices, spira_context_device_name(ctx),
               reps, warmup, "format", "width", "status", "steps", "sequence ms", "setup ms",
               "step ms", "Gnnz/s");
    if (csv) {
        printf("%s,%d,%d,%s,%s,%d,%d,%s,%ld,%.3f,%.3f,%.6f,%.3f,%d\n", source, n, rp[n], it->name,
               it->opts, width, devices, status, L, seq_ms, setup_ms, step, gnnz, reps);
    } else {
        printf("%-24s %5d %7s %8ld %12.2f %10.3f %10.5f %8.2f%s%s\n", it->name, width, status, L,
               seq_ms, setup_ms, step, gnnz, s != SPIRA_OK ? "  " : "",
               s != SPIRA_OK ? err ? err : spira_last_error(ctx) : "");
    }
    fflush(stdout);
    spira_gf2_block_destroy(X), spira_gf2_block_destroy(Y);
    spira_gf2_matrix_drop_plans(M);
    free(x), free(y), free(my), free(a), free(t), free(t0);
    return strcmp(status, "ok") != 0;
}

int main(int argc, char **argv)
{
    cli_prog = "spira-gf2";
    static const struct option longopts[] = {
        {"nfs", required_argument, 0, 'N'},     {"pattern", no_argument, 0, 'P'},
        {"width", required_argument, 0, 'W'},   {"formats", required_argument, 0, 'f'},
        {"reps", required_argument, 0, 'r'},    {"warmup", required_argument, 0, 'w'},
        {"backend", required_argument, 0, 'B'}, {"csv", no_argument, 0, 'c'},
        {"list-formats", no_argument, 0, 'l'},  {"help", no_argument, 0, 'h'},
        {"kernel", no_argument, 0, 'K'},        {"block", no_argument, 0, 'b'},
        {"devices", required_argument, 0, 'D'}, {"sequence", required_argument, 0, 'S'},
        {0, 0, 0, 0}};
    const char *formats = "all", *nfs = NULL, *widths_arg = "64";
    spira_context_opts copts = {.backend = SPIRA_BACKEND_AUTO};
    long reps = 100, warmup = 5, devices = 1, seq_len = -1;
    int csv = 0, pattern = 0, kernel = 0, method = SPIRA_GF2_KERNEL_BIT, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'N': nfs = optarg; break;
        case 'P': pattern = 1; break;
        case 'W': widths_arg = optarg; break;
        case 'f': formats = optarg; break;
        case 'r': reps = cli_int("--reps", optarg, 1, 1000000); break;
        case 'w': warmup = cli_int("--warmup", optarg, 0, 1000000); break;
        case 'B': copts.backend = cli_backend(optarg); break;
        case 'c': csv = 1; break;
        case 'K': kernel = 1; break;
        case 'b': method = SPIRA_GF2_KERNEL_BLOCK; break;
        case 'D': devices = cli_int("--devices", optarg, 1, 16); break;
        case 'S': seq_len = cli_int("--sequence", optarg, 1, 100000000); break;
        case 'l':
            for (int i = 0; i < spira_gf2_format_count(); i++) {
                const char *name, *desc;
                spira_gf2_format_describe(i, &name, &desc);
                const char *keys = spira_gf2_format_options(i);
                printf("%-12s %s\n", name, desc);
                if (keys && keys[0]) printf("%-12s options: %s\n", "", keys);
            }
            return 0;
        case 'h': usage(stdout); return 0;
        default: cli_bad_option(c, argv);
        }
    }
    if (optind >= argc && !nfs) cli_usage_error("no matrix: give M.mtx or --nfs N:W");
    cli_positional(argc, argv, optind, nfs ? 0 : 1,
                   nfs ? "--nfs gives the matrix: a file or --nfs, not both" : "one matrix file");
    if (pattern && nfs) cli_usage_error("--pattern is for a file, not --nfs");
    if (method == SPIRA_GF2_KERNEL_BLOCK && !kernel) cli_usage_error("--block is for --kernel");
    if (kernel && seq_len >= 0) cli_usage_error("--kernel or --sequence, not both");
    int widths[8];
    int nw = parse_widths(widths_arg, widths, 8);
    if (!nw) return 2;
    long long nfs_n = 0, nfs_w = 0;
    if (nfs) {
        cli_int_pair("--nfs", nfs, "N:W (N rows and columns, W entries a row), e.g. 1000000:64",
                     1, INT32_MAX, 1, INT32_MAX, &nfs_n, &nfs_w);
        if (nfs_w > nfs_n)
            cli_usage_error("--nfs '%s': want W <= N (W distinct columns a row)", nfs);
        if ((double)nfs_n * (double)nfs_w > INT32_MAX)
            cli_usage_error("--nfs '%s': %.0f entries are beyond 32-bit indices (2^31 - 1)", nfs,
                            (double)nfs_n * (double)nfs_w);
    }
    enum { CAP = 64 };
    cli_format_item items[CAP];
    int nf = cli_parse_formats(formats, items, CAP, spira_gf2_format_count(), spira_gf2_format_describe);
    if (nf == 0) {
        fprintf(stderr, "%s: --formats names no format: '%s'\n", cli_prog, formats);
        return 2;
    }

    /* everything below is freed at done: */
    int rc = 1, gpu = 0, maxwords = 0;
    spira_context ctx = NULL;
    spira_gf2_matrix M = NULL;
    spira_gf2_block X = NULL, Y = NULL;
    int32_t *coo_row = NULL, *own_col = NULL, *own_rp = NULL;
    uint64_t *x = NULL, *ref = NULL, *ybuf = NULL;
    double *t = NULL;
    /* M's entries as the reference reads them: our own for --nfs and --pattern, else the
     * pattern the GF(2) reader made (after cancellation), copied out of M */
    const int32_t *rp = NULL, *col = NULL;
    int64_t nrows64 = 0, ncols64 = 0, nnz64 = 0;
    int32_t m, n, nnz, maxrow = 0;
    char source[512] = "", made[128] = "";

    spira_status s = spira_context_create(&ctx, &copts); /* sets ctx, even on failure */
    if (failed(ctx, s, "creating the context")) goto done;
    gpu = spira_context_backend(ctx) == SPIRA_BACKEND_CUDA;

    if (nfs) {
        double t0 = cli_now_ms();
        if (!gen_nfs((int32_t)nfs_n, (int32_t)nfs_w, &coo_row, &own_col, &own_rp)) {
            fprintf(stderr, "%s: out of host memory generating --nfs %s\n", cli_prog, nfs);
            goto done;
        }
        double t1 = cli_now_ms();
        s = spira_gf2_matrix_from_coo(ctx, nfs_n, nfs_n, nfs_n * nfs_w, coo_row, own_col, &M);
        if (failed(ctx, s, "building the --nfs matrix")) goto done;
        free(coo_row), coo_row = NULL;
        snprintf(source, sizeof source, "nfs-%lld-%lld", nfs_n, nfs_w);
        snprintf(made, sizeof made, "; generated in %.0f ms, built in %.0f ms", t1 - t0,
                 cli_now_ms() - t1);
        rp = own_rp, col = own_col;
    } else {
        const char *path = argv[optind], *base = strrchr(path, '/');
        s = pattern ? read_pattern(ctx, path, &M, &own_rp, &own_col)
                    : spira_gf2_matrix_read_mm(ctx, path, &M);
        if (failed(ctx, s, path)) goto done;
        snprintf(source, sizeof source, "%s", base ? base + 1 : path);
        if (!pattern) {
            spira_gf2_matrix_size(M, &nrows64, NULL, &nnz64);
            own_rp = malloc(((size_t)nrows64 + 1) * sizeof *own_rp);
            own_col = malloc(((size_t)nnz64 + 1) * sizeof *own_col);
            if (!own_rp || !own_col) {
                fprintf(stderr, "%s: out of host memory for the reference's copy of %s\n",
                        cli_prog, path);
                goto done;
            }
            spira_gf2_matrix_get_pattern(M, own_rp, own_col);
        }
        rp = own_rp, col = own_col;
    }
    spira_gf2_matrix_size(M, &nrows64, &ncols64, &nnz64);
    m = (int32_t)nrows64, n = (int32_t)ncols64, nnz = (int32_t)nnz64;
    if (rp[m] != nnz) { /* our entries and M's must agree before anything is compared */
        fprintf(stderr, "%s: %s: the matrix holds %d entries, the reference %d\n", cli_prog,
                source, nnz, rp[m]);
        goto done;
    }
    for (int32_t i = 0; i < m; i++)
        if (rp[i + 1] - rp[i] > maxrow) maxrow = rp[i + 1] - rp[i];
    s = spira_gf2_matrix_set_devices(M, (int)devices);
    if (failed(ctx, s, "--devices")) {
        rc = s == SPIRA_ERR_INVALID_ARG ? 2 : 1;
        goto done;
    }
    if (seq_len >= 0) {
        if (m != n) {
            fprintf(stderr, "%s: --sequence: %s is %d x %d, not square\n", cli_prog, source, m, n);
            goto done;
        }
        rc = 0;
        for (int wi = 0; wi < nw; wi++)
            for (int i = 0; i < nf; i++)
                rc |= run_sequence(ctx, M, &items[i], widths[wi], n, rp, col, source, csv,
                                   (int)devices, seq_len, (int)warmup, (int)reps, wi == 0 && i == 0);
        goto done;
    }

    if (kernel) {
        if (csv)
            printf("matrix,nrows,ncols,format,options,status,found,spmvs,degree,sequence_ms,"
                   "bm_ms,evaluate_ms,total_ms\n");
        else
            printf("spira-gf2 %s: kernel of %s, %d x %d, %d entries (%s), %ld device(s); "
                   "backend %s\n\n"
                   "%-24s %6s %6s %8s %8s %11s %9s %11s %10s\n",
                   spira_version(), source, m, n, nnz,
                   method == SPIRA_GF2_KERNEL_BLOCK ? "block Wiedemann" : "64 Wiedemann runs",
                   devices, spira_context_device_name(ctx), "format",
                   "status", "found", "SpMVs", "degree", "sequence ms", "B-M ms", "evaluate ms",
                   "total ms");
        rc = 0;
        for (int i = 0; i < nf; i++)
            rc |= run_kernel(ctx, M, &items[i], m, n, rp, col, source, csv, method);
        goto done;
    }
    for (int i = 0; i < nw; i++)
        if (widths[i] / 64 > maxwords) maxwords = widths[i] / 64;
    x = malloc(((size_t)n + 1) * (size_t)maxwords * sizeof *x);
    ref = malloc(((size_t)m + 1) * (size_t)maxwords * sizeof *ref);
    ybuf = malloc(((size_t)m + 1) * (size_t)maxwords * sizeof *ybuf);
    t = malloc((size_t)reps * sizeof *t);
    if (!x || !ref || !ybuf || !t) {
        fprintf(stderr, "%s: out of host memory for the blocks\n", cli_prog);
        goto done;
    }

    if (csv) {
        printf("matrix,nrows,ncols,nnz,width,backend,format,options,status,setup_ms,spmv_ms,"
               "spmv_min_ms,gnnz_s,gbs,matrix_bytes,reps,note\n");
    } else {
        printf("spira-gf2 %s: %s, %d x %d, %d entries over GF(2) (max %d a row, mean %.1f)%s\n",
               spira_version(), source, m, n, nnz, maxrow, m ? (double)nnz / m : 0.0, made);
        printf("backend %s: %s; rows split over %ld device(s)\n", gpu ? "cuda" : "cpu",
               spira_context_device_name(ctx), devices);
        printf("median of %ld runs after %ld warm-up; Gnnz/s = nnz / t; GB/s = (matrix + X + Y "
               "bytes) / t; Y poisoned, then compared bit for bit with a plain loop\n\n",
               reps, warmup);
        printf("%-32s %5s %9s %9s %8s %10s %10s %8s %8s %9s\n", "format", "width", "setup ms",
               "(SpMVs)", "status", "SpMV ms", "min ms", "Gnnz/s", "GB/s", "MB");
    }
    rc = 0;
    for (int wi = 0; wi < nw; wi++) {
        int width = widths[wi], words = width / 64;
        size_t nx = (size_t)n * (size_t)words;
        uint64_t st = 0x2545F4914F6CDD1Du ^ (uint64_t)width;
        for (size_t k = 0; k < nx; k++) x[k] = cli_xorshift64(&st);
        reference(m, rp, col, words, x, ref);
        s = spira_gf2_block_create(ctx, n, width, &X);
        if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, m, width, &Y);
        if (s == SPIRA_OK) s = spira_gf2_block_set(X, x);
        if (failed(ctx, s, "making the blocks")) {
            rc = 1;
            goto done;
        }
        for (int i = 0; i < nf; i++) {
            result r;
            bench_format(ctx, M, &items[i], words, X, Y, m, ref, ybuf, t, (int)warmup,
                         (int)reps, &r);
            if (!r.ok && strcmp(r.status, "refused")) rc = 1;
            if (r.ok && strcmp(r.status, "ok")) rc = 1;
            double tt = r.spmv_ms;
            double gnnz = r.ok && tt > 0 ? (double)nnz / (tt * 1e6) : 0;
            double bytes = (double)r.bytes + ((double)n + (double)m) * width / 8.0;
            double gbs = r.ok && tt > 0 ? bytes / (tt * 1e6) : 0;
            char label[128];
            snprintf(label, sizeof label, "%.31s%s%.63s", items[i].name, items[i].opts[0] ? ":" : "",
                     items[i].opts);
            if (csv) {
                printf("%s,%d,%d,%d,%d,%s,", source, m, n, nnz, width, gpu ? "cuda" : "cpu");
                cli_csv_field(items[i].name);
                putchar(',');
                cli_csv_field(items[i].opts);
                if (r.ok)
                    printf(",%s,%.4f,%.6f,%.6f,%.4f,%.3f,%zu,%ld,", r.status, r.setup_ms, tt,
                           r.spmv_min_ms, gnnz, gbs, r.bytes, reps);
                else
                    printf(",%s,,,,,,,%ld,", r.status, reps);
                cli_csv_field(r.note);
                putchar('\n');
            } else if (r.ok) {
                printf("%-32s %5d %9.3f %9.1f %8s %10.5f %10.5f %8.3f %8.1f %9.2f\n", label,
                       width, r.setup_ms, tt > 0 ? r.setup_ms / tt : 0, r.status, tt,
                       r.spmv_min_ms, gnnz, gbs, r.bytes / 1e6);
                if (r.note[0]) printf("%-32s   %s\n", "", r.note);
            } else {
                printf("%-32s %5d %9s %9s %8s   %s\n", label, width, "-", "-", r.status, r.note);
            }
            fflush(stdout);
        }
        spira_gf2_block_destroy(X), X = NULL;
        spira_gf2_block_destroy(Y), Y = NULL;
    }

done:
    spira_gf2_block_destroy(X);
    spira_gf2_block_destroy(Y);
    spira_gf2_matrix_destroy(M);
    spira_context_destroy(ctx);
    free(coo_row), free(own_col), free(own_rp);
    free(x), free(ref), free(ybuf), free(t);
    return rc;
}
