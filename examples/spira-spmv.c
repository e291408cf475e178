/*
 * spira-spmv - the SpMV benchmark: every selected format on one matrix, in one run, with
 * cuSPARSE measured beside it.
 *
 * For each format: host conversion and device upload (ms each), setup (their sum, in ms and
 * in SpMV-equivalents), with --convert-reps N > 1 also the median of N - 1 conversions made
 * again after the first (the first pays what a process pays once, such as loading the
 * kernels it runs; the rest what every further matrix pays),
 * the median SpMV time over --reps runs after --warmup runs (CUDA events around each run on
 * the context's stream; the wall clock on the CPU backend), the time of a multiply made
 * back to back with others (the host's clock around --reps calls and one wait: what a
 * solver's loop sees, the launches' latency overlapped), on CUDA the time of a multiply in
 * a CUDA graph of up to 1,000 captured (spira_spmv_time_graph: what a solver whose
 * iteration is captured pays, no host launch between them), GFLOP/s = 2 nnz / t, effective
 * GB/s = (matrix bytes as the format reads them, padding included + x read once + y
 * written once) / t with beta = 0, the speedup over `cusparse` (t_cusparse / t), the
 * matrix's bytes, and the largest error against the CPU double reference,
 * max_i |y_i - ref_i| / (|A| |x|)_i, with y poisoned (NaN) before the run. A format that
 * refuses the matrix gets a row with its reason. On CUDA the last lines name the fastest
 * cuSPARSE row (list cusparse:alg=1, coo, sell... to time its algorithms), the fastest of
 * Spira's own formats and auto, each with its speed against that row's. It uses the
 * public API only: the plan's costs from spira_matrix_plan_info, the runs timed by
 * spira_spmv_time.
 *
 * Exit status: 0, 1 if a format failed (not a refusal) or exceeded the error bound, 2 for
 * bad usage.
 */
#include "cli.h"

#include <float.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: spira-spmv [options] A.mtx[.gz]\n"
            "       spira-spmv [options] --laplacian DIM:N   (DIM 2 or 3, an N^DIM grid)\n"
            "       spira-spmv [options] --rmat SCALE:EF [--seed S]   (Graph500's R-MAT graph)\n"
            "       spira-spmv --list-formats\n"
            "       spira-spmv --copy-bandwidth[=MIB] [--backend NAME]\n"
            "Time y = A x with each SpMV format and compare with cuSPARSE and the CPU reference.\n"
            "  --formats LIST       'all' (default) or a comma list of NAME[:OPTIONS], auto too;\n"
            "                       OPTIONS are key=value pairs, e.g. pkt:partition=rcm,auto:trial=1\n"
            "  --precision s|d      single or double (default d)\n"
            "  --reps N             timed runs per format (default 100); the median is reported\n"
            "  --warmup N           untimed runs first (default 5)\n"
            "  --convert-reps N     convert each format N times (default 1): convert_ms is the\n"
            "                       first, convert_warm_ms the median of the others\n"
            "  --backend NAME       auto (default), cpu, cuda\n"
            "  --seed S             the R-MAT graph's seed (default 1)\n"
            "  --reorder NAME       none (default), rcm or degree: time the formats on P A P^T,\n"
            "                       the matrix a solve with that --reorder iterates on\n"
            "  --csv                comma-separated output with a header line\n"
            "  --copy-bandwidth[=MIB]  also time a device-to-device copy of MIB MiB (default\n"
            "                       1024): (bytes read + written) / t, the bandwidth to compare\n"
            "                       GB/s with\n"
            "  --list-formats       every registered format with its description\n"
            "  --help               this text\n");
}

#define GRAPH_MAX 1000 /* the most multiplies captured in one graph */

typedef struct {
    int ok;             /* measured */
    const char *status; /* "ok", "refused", "error", "WRONG" */
    char note[640];     /* refusal reason, error message or the format's stats */
    double select_ms, convert_ms, upload_ms, spmv_ms, spmv_min_ms, err; /* select: auto's */
    /* a multiply in a run of them made back to back, as a solver makes them: the host's
     * clock around reps calls and one wait, / reps (spmv_ms is one call alone: on a small
     * matrix mostly the launch's latency, which the run's launches overlap) */
    double stream_ms;
    /* the same multiplies captured in a CUDA graph (CUDA only; 0: not measured), a
     * multiply as a solver's captured iteration pays it; graph_note: why not, if it failed */
    double graph_ms;
    int graph_n; /* the multiplies captured: --reps, at most GRAPH_MAX */
    char graph_note[160];
    /* the medians of the conversions after the first and of their uploads, 0: none made */
    double convert_warm_ms, upload_warm_ms;
    size_t bytes;
    const char *converted_on; /* "gpu", "host" */
} result;

/* A row's times, kept while it is the fastest of its kind (spmv_ms alone). */
typedef struct {
    char label[128];
    double ms, stream_ms, graph_ms;
} fastest;

static void keep_fastest(fastest *f, const char *label, const result *r)
{
    if (r->spmv_ms <= 0 || (f->ms > 0 && f->ms <= r->spmv_ms)) return;
    snprintf(f->label, sizeof f->label, "%s", label);
    f->ms = r->spmv_ms, f->stream_ms = r->stream_ms, f->graph_ms = r->graph_ms;
}

/* ", X in a graph" when measured, else "" */
static const char *in_graph(double ms, char *buf, size_t size)
{
    buf[0] = 0;
    if (ms > 0) snprintf(buf, size, ", %.5f in a graph", ms);
    return buf;
}

/* Setup when the conversion is made again: auto's choice, the conversion and, for a layout
 * converted on the host, its upload, as made again (a plan built on the GPU uploads
 * nothing: what its first upload_ms holds is the matrix's one CSR upload, which the first
 * plan to need it pays and no rebuild pays again). */
static double warm_setup(const result *r)
{
    return r->select_ms + r->convert_warm_ms +
           (strcmp(r->converted_on, "gpu") ? r->upload_warm_ms : 0);
}

/* The medians of the conversions 2..n of A's plan and of their uploads (dropped and made
 * again each time; the last one stays) in r; 0 for n < 2. */
static spira_status convert_again(spira_matrix A, int n, result *r)
{
    r->convert_warm_ms = r->upload_warm_ms = 0;
    if (n < 2) return SPIRA_OK;
    double *t = calloc(2 * ((size_t)n - 1), sizeof *t);
    if (!t) return SPIRA_ERR_NOMEM;
    double *u = t + (n - 1);
    spira_status s = SPIRA_OK;
    for (int k = 0; k < n - 1 && s == SPIRA_OK; k++) {
        spira_plan_info p;
        spira_matrix_drop_plan(A);
        s = spira_matrix_plan_info(A, &p);
        t[k] = p.convert_ms;
        u[k] = p.upload_ms;
    }
    if (s == SPIRA_OK) {
        r->convert_warm_ms = cli_median(t, n - 1);
        r->upload_warm_ms = cli_median(u, n - 1);
    }
    free(t);
    return s;
}

/* Time one format. ref is the double reference, scale (|A||x|)_i, ybuf host scratch. */
static void bench_format(spira_context ctx, spira_matrix A, const cli_format_item *it, spira_vector x,
                         spira_vector y, const double *ref, const double *scale, double *ybuf,
                         int warmup, int reps, int convert_reps, double tol, result *r)
{
    memset(r, 0, sizeof *r);
    r->status = "error";
    /* auto told the multiplies this row makes (it chooses for one when nobody says, and
     * again as they double: the switches would land in the timed runs) */
    char opts[sizeof it->opts + 64];
    snprintf(opts, sizeof opts, "%s", it->opts);
    if (!strcmp(it->name, "auto") && !strstr(opts, "expected_multiplies") && !strstr(opts, "trial"))
        snprintf(opts, sizeof opts, "%s%sexpected_multiplies=%d", it->opts,
                 it->opts[0] ? "," : "", 1 + warmup + 2 * reps);
    spira_status s = spira_matrix_set_format(A, it->name, opts);
    spira_plan_info p, now;
    if (s == SPIRA_OK) s = spira_matrix_plan_info(A, &p);
    if (s == SPIRA_OK) s = convert_again(A, convert_reps, r);
    /* p.stats points into the plan p described, which convert_again may have replaced */
    if (s == SPIRA_OK) s = spira_matrix_plan_info(A, &now);
    if (s == SPIRA_OK) p.stats = now.stats;
    if (s != SPIRA_OK) {
        r->status = s == SPIRA_ERR_UNSUPPORTED ? "refused" : "error";
        snprintf(r->note, sizeof r->note, "%s", spira_last_error(ctx));
        return;
    }
    spira_matrix_info mi;
    spira_matrix_get_info(A, &mi);
    r->select_ms = mi.select_ms;
    r->convert_ms = p.convert_ms;
    r->upload_ms = p.upload_ms;
    r->bytes = p.bytes;
    r->converted_on = p.on_device ? "gpu" : "host";
    double *t = calloc((size_t)reps, sizeof *t);
    int32_t m = (int32_t)mi.nrows;
    if (!t) {
        snprintf(r->note, sizeof r->note, "timing buffer: out of host memory");
        spira_matrix_drop_plan(A);
        return;
    }
    /* correctness first, on a poisoned y */
    s = spira_vector_fill(y, NAN);
    if (s == SPIRA_OK) s = spira_spmv_time(1.0, A, x, 0.0, y, 1, NULL);
    if (s == SPIRA_OK) s = spira_vector_get_f64(y, ybuf);
    if (s == SPIRA_OK) {
        double e = 0;
        for (int32_t i = 0; i < m; i++) {
            double d = fabs(ybuf[i] - ref[i]);
            d = isnan(d) ? INFINITY : scale[i] > 0 ? d / scale[i] : d;
            if (d > e) e = d;
        }
        r->err = e;
    }
    if (s == SPIRA_OK) s = spira_spmv_time(1.0, A, x, 0.0, y, warmup, NULL);
    if (s == SPIRA_OK) s = spira_spmv_time(1.0, A, x, 0.0, y, reps, t);
    if (s == SPIRA_OK) {
        double t0 = cli_now_ms();
        s = spira_spmv_time(1.0, A, x, 0.0, y, reps, NULL);
        if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
        r->stream_ms = (cli_now_ms() - t0) / reps;
    }
    if (s == SPIRA_OK && spira_context_backend(ctx) == SPIRA_BACKEND_CUDA) {
        /* a format whose multiply cannot be captured is still measured, with the reason */
        r->graph_n = reps < GRAPH_MAX ? reps : GRAPH_MAX;
        if (spira_spmv_time_graph(1.0, A, x, 0.0, y, r->graph_n, 5, &r->graph_ms) != SPIRA_OK) {
            r->graph_ms = 0;
            snprintf(r->graph_note, sizeof r->graph_note, "%s", spira_last_error(ctx));
        }
    }
    if (s == SPIRA_OK) {
        r->spmv_ms = cli_median(t, reps);
        r->spmv_min_ms = t[0];
        r->ok = 1;
        r->status = r->err <= tol ? "ok" : "WRONG";
        if (mi.format_reason[0]) /* "auto": what it chose and why */
            snprintf(r->note, sizeof r->note, "chose %s, %s", mi.format, mi.format_reason);
        else
            snprintf(r->note, sizeof r->note, "%s", p.stats);
    } else {
        snprintf(r->note, sizeof r->note, "%s", spira_last_error(ctx));
    }
    free(t);
    spira_matrix_drop_plan(A); /* its device memory goes before the next format's */
}

int main(int argc, char **argv)
{
    cli_prog = "spira-spmv";
    static const struct option longopts[] = {
        {"formats", required_argument, 0, 'f'},   {"precision", required_argument, 0, 'p'},
        {"reps", required_argument, 0, 'r'},      {"warmup", required_argument, 0, 'w'},
        {"backend", required_argument, 0, 'B'},   {"csv", no_argument, 0, 'c'},
        {"laplacian", required_argument, 0, 'L'}, {"list-formats", no_argument, 0, 'l'},
        {"copy-bandwidth", optional_argument, 0, 'C'}, {"help", no_argument, 0, 'h'},
        {"convert-reps", required_argument, 0, 'R'}, {"rmat", required_argument, 0, 'G'},
        {"seed", required_argument, 0, 'S'},      {"reorder", required_argument, 0, 'Q'},
        {0, 0, 0, 0}};
    const char *formats = "all", *lap = NULL;
    long long rmat_scale = 0, rmat_ef = 0, seed = 1;
    spira_context_opts copts = {.backend = SPIRA_BACKEND_AUTO};
    spira_dtype dtype = SPIRA_R64;
    spira_reorder reorder = SPIRA_REORDER_NONE;
    long reps = 100, warmup = 5, copy_mib = 0, convert_reps = 1;
    int csv = 0, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'f': formats = optarg; break;
        case 'p': dtype = cli_precision(optarg); break;
        case 'r': reps = cli_int("--reps", optarg, 1, 1000000); break;
        case 'w': warmup = cli_int("--warmup", optarg, 0, 1000000); break;
        case 'R': convert_reps = cli_int("--convert-reps", optarg, 1, 1000); break;
        case 'B': copts.backend = cli_backend(optarg); break;
        case 'c': csv = 1; break;
        case 'L': lap = optarg; break;
        case 'G':
            cli_int_pair("--rmat", optarg, "SCALE:EF", 1, 40, 1, 1024, &rmat_scale, &rmat_ef);
            break;
        case 'S': seed = cli_int("--seed", optarg, 0, LLONG_MAX); break;
        case 'Q': reorder = cli_reorder(optarg); break;
        case 'C': copy_mib = optarg ? cli_int("--copy-bandwidth", optarg, 1, 16384) : 1024; break;
        case 'l':
            for (int i = 0; i < spira_format_count(); i++) {
                const char *name, *desc;
                spira_format_describe(i, &name, &desc);
                printf("%-14s %s\n", name, desc);
            }
            printf("%-14s %s\n", "auto",
                   "not a format: picks one of the above from A's row lengths and diagonals "
                   "(trial=1: times them on A and keeps the fastest)");
            return 0;
        case 'h': usage(stdout); return 0;
        default: cli_bad_option(c, argv);
        }
    }
    if (lap && rmat_scale) cli_usage_error("--laplacian or --rmat, not both");
    const char *made = lap ? "--laplacian" : rmat_scale ? "--rmat" : NULL;
    int have_matrix = optind < argc || made;
    if (!have_matrix && copy_mib == 0)
        cli_usage_error("no matrix: give A.mtx, --laplacian DIM:N, --rmat SCALE:EF or "
                        "--copy-bandwidth");
    cli_positional(argc, argv, optind, made ? 0 : 1,
                   made ? "--laplacian or --rmat gives the matrix" : "one matrix file");
    spira_context ctx;
    spira_status created = spira_context_create(&ctx, &copts); /* sets ctx, even on failure */
    cli_check(ctx, created, "creating the context");
    int gpu = spira_context_backend(ctx) == SPIRA_BACKEND_CUDA;
    double copy_gbs = 0;
    if (copy_mib > 0)
        cli_check(ctx, spira_context_copy_bandwidth(ctx, (size_t)copy_mib << 20, 20, &copy_gbs),
                  "measuring the copy bandwidth");
    if (!have_matrix) {
        printf("%s: copy bandwidth %.1f GB/s (%ld MiB buffer, read + written, median of 20)\n",
               spira_context_device_name(ctx), copy_gbs, copy_mib);
        spira_context_destroy(ctx);
        return 0;
    }

    char source[512];
    spira_matrix A = rmat_scale ? cli_rmat_graph(ctx, (int)rmat_scale, (int)rmat_ef,
                                                 (unsigned long long)seed, dtype, source,
                                                 sizeof source)
                                : cli_load_matrix(ctx, lap, lap ? NULL : argv[optind], dtype,
                                                  source, sizeof source);
    double reorder_ms = 0;
    if (reorder != SPIRA_REORDER_NONE) {
        spira_matrix PA;
        double t0 = cli_now_ms();
        cli_check(ctx, spira_matrix_reorder(A, reorder, NULL, &PA), "reordering A");
        reorder_ms = cli_now_ms() - t0;
        spira_matrix_destroy(A);
        A = PA;
        size_t len = strlen(source);
        snprintf(source + len, sizeof source - len, " in %s order", cli_reorder_names[reorder]);
    }
    spira_matrix_info ai;
    spira_matrix_get_info(A, &ai);
    int32_t m = (int32_t)ai.nrows, n = (int32_t)ai.ncols, nnz = (int32_t)ai.nnz;

    /* the format list; on CUDA, cuSPARSE with default options is always measured first */
    enum { CAP = 64 };
    cli_format_item items[CAP + 1];
    int nf = cli_parse_formats(formats, items + 1, CAP, spira_format_count(), spira_format_describe),
        base = 1;
    for (int i = 1; i <= nf; i++)
        if (!strcmp(items[i].name, "cusparse") && !items[i].opts[0]) {
            cli_format_item tmp = items[i];
            memmove(items + 2, items + 1, (size_t)(i - 1) * sizeof *items);
            items[1] = tmp;
        }
    if (gpu && (nf == 0 || strcmp(items[1].name, "cusparse") || items[1].opts[0])) {
        snprintf(items[0].name, sizeof items[0].name, "cusparse");
        items[0].opts[0] = 0;
        base = 0;
    }

    /* x fixed and exactly representable in float, so both precisions see one input */
    double *x = malloc(((size_t)n + 1) * sizeof *x), *ref = malloc(((size_t)m + 1) * sizeof *ref);
    double *scale = malloc(((size_t)m + 1) * sizeof *scale), *ybuf = malloc(((size_t)m + 1) * sizeof *ybuf);
    /* A's CSR, copied out for the reference and dropped after it */
    size_t vsize = spira_dtype_size(dtype);
    int32_t *rp = malloc(((size_t)m + 1) * sizeof *rp), *col = malloc(((size_t)nnz + 1) * sizeof *col);
    void *val = malloc(((size_t)nnz + 1) * vsize);
    if (!x || !ref || !scale || !ybuf || !rp || !col || !val) {
        fprintf(stderr, "spira-spmv: out of host memory\n");
        return 1;
    }
    unsigned st = 12345;
    for (int32_t j = 0; j < n; j++) {
        st ^= st << 13, st ^= st >> 17, st ^= st << 5;
        x[j] = (float)(st / 2147483648.0 - 1.0);
    }
    cli_check(ctx, spira_matrix_get_csr(A, rp, col, val), "copying out A");
    /* ref = A x in double, row by row in column order; scale = |A||x| */
    int32_t maxrow = 0;
    for (int32_t i = 0; i < m; i++) {
        double sum = 0, s = 0;
        for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
            double a = dtype == SPIRA_R64 ? ((const double *)val)[k] : ((const float *)val)[k];
            sum += a * x[col[k]];
            s += fabs(a * x[col[k]]);
        }
        ref[i] = sum;
        scale[i] = s;
        int32_t len = rp[i + 1] - rp[i];
        if (len > maxrow) maxrow = len;
    }
    free(rp), free(col), free(val);
    /* a sum of L terms in any order is within L eps of the exact one (relative to |A||x|) */
    double eps = dtype == SPIRA_R64 ? DBL_EPSILON : FLT_EPSILON, tol = 4 * eps * (maxrow + 2);
    spira_vector vx, vy;
    cli_check(ctx, spira_vector_create(ctx, n, dtype, &vx), "allocating x");
    cli_check(ctx, spira_vector_create(ctx, m, dtype, &vy), "allocating y");
    cli_check(ctx, spira_vector_set_f64(vx, x), "setting x");

    const char *prec = dtype == SPIRA_R64 ? "d" : "s";
    size_t vb = spira_dtype_size(dtype);
    if (csv) {
        if (copy_mib > 0) printf("# copy_bandwidth_gbs: %.2f\n", copy_gbs);
        printf("matrix,nrows,ncols,nnz,precision,backend,format,options,status,select_ms,"
               "convert_ms,upload_ms,setup_ms,setup_spmv_equiv,spmv_ms,spmv_min_ms,gflops,gbs,"
               "speedup_vs_cusparse,matrix_bytes,max_rel_err,reps,converted_on,"
               "convert_warm_ms,setup_warm_spmv_equiv,stream_ms,graph_ms,note\n");
    } else {
        printf("spira-spmv %s: %s, %d x %d, %d nonzeros (max %d a row), %s precision\n",
               spira_version(), source, m, n, nnz, maxrow,
               dtype == SPIRA_R64 ? "double" : "single");
        printf("backend %s: %s\n", gpu ? "cuda" : "cpu", spira_context_device_name(ctx));
        if (copy_mib > 0)
            printf("copy bandwidth %.1f GB/s (%ld MiB, read + written)\n", copy_gbs, copy_mib);
        if (reorder != SPIRA_REORDER_NONE)
            printf("ordering %s: P A P^T made in %.1f ms on the host (not in any setup below)\n",
                   cli_reorder_names[reorder], reorder_ms);
        printf("median of %ld runs after %ld warm-up; GB/s = (matrix + x + y bytes) / t; "
               "err = max |y - ref| / (|A||x|), bound %.1e\n\n",
               reps, warmup, tol);
        printf("%-22s %9s %9s %9s %9s %8s %10s %9s %8s %8s %9s %9s\n", "format", "convert",
               "upload", "setup ms", "(SpMVs)", "status", "SpMV ms", "GFLOP/s", "GB/s",
               "vs cuSP", "MB", "max err");
    }
    double t_cusparse = 0;
    int rc = 0;
    /* the fastest cuSPARSE row, the fastest of Spira's own and auto's, for the last line */
    fastest best[3] = {{"", 0, 0, 0}, {"", 0, 0, 0}, {"", 0, 0, 0}};
    for (int i = base; i <= nf; i++) {
        result r;
        bench_format(ctx, A, &items[i], vx, vy, ref, scale, ybuf, (int)warmup, (int)reps,
                     (int)convert_reps, tol, &r);
        if (i == base && gpu && r.ok) t_cusparse = r.spmv_ms;
        if (!r.ok && strcmp(r.status, "refused")) rc = 1;
        if (r.ok && strcmp(r.status, "ok")) rc = 1;
        double setup = r.select_ms + r.convert_ms + r.upload_ms, t = r.spmv_ms;
        double gflops = r.ok && t > 0 ? 2.0 * nnz / (t * 1e6) : 0;
        double bytes = (double)r.bytes + (double)n * vb + (double)m * vb;
        double gbs = r.ok && t > 0 ? bytes / (t * 1e6) : 0;
        double ratio = r.ok && t > 0 && t_cusparse > 0 ? t_cusparse / t : 0;
        char label[128];
        snprintf(label, sizeof label, "%s%s%s", items[i].name, items[i].opts[0] ? ":" : "",
                 items[i].opts);
        if (r.ok && !strcmp(r.status, "ok"))
            keep_fastest(&best[!strcmp(items[i].name, "cusparse") ? 0
                               : !strcmp(items[i].name, "auto") ? 2
                                                                : 1],
                         label, &r);
        if (csv) {
            printf("%s,%d,%d,%d,%s,%s,", source, m, n, nnz, prec, gpu ? "cuda" : "cpu");
            cli_csv_field(items[i].name);
            putchar(',');
            cli_csv_field(items[i].opts);
            if (r.ok) {
                printf(",%s,%.4f,%.4f,%.4f,%.4f,%.2f,%.6f,%.6f,%.3f,%.3f,%.4f,%zu,%.3e,%ld,%s,",
                       r.status, r.select_ms, r.convert_ms, r.upload_ms, setup, t > 0 ? setup / t : 0, t, r.spmv_min_ms,
                       gflops, gbs, ratio, r.bytes, r.err, reps, r.converted_on);
                if (convert_reps > 1)
                    printf("%.4f,%.2f,", r.convert_warm_ms, t > 0 ? warm_setup(&r) / t : 0);
                else
                    printf(",,");
                printf("%.6f,", r.stream_ms);
                if (r.graph_ms > 0) printf("%.6f", r.graph_ms);
                putchar(',');
            } else {
                printf(",%s,,,,,,,,,,,,,%ld,,,,,,", r.status, reps);
            }
            cli_csv_field(r.note);
            putchar('\n');
        } else if (r.ok) {
            char vs[16] = "-";
            if (ratio > 0) snprintf(vs, sizeof vs, "%.2f", ratio);
            printf("%-22s %9.3f %9.3f %9.3f %9.1f %8s %10.5f %9.2f %8.1f %8s %9.2f %9.1e\n",
                   label, r.convert_ms, r.upload_ms, setup, t > 0 ? setup / t : 0, r.status, t,
                   gflops, gbs, vs, r.bytes / 1e6, r.err);
            if (gpu) printf("%-22s   converted on the %s\n", "", r.converted_on);
            printf("%-22s   back to back: %.5f ms a multiply (%ld in a row, host clock)\n", "",
                   r.stream_ms, reps);
            if (r.graph_ms > 0)
                printf("%-22s   in a graph: %.5f ms a multiply (%d captured, CUDA events)\n", "",
                       r.graph_ms, r.graph_n);
            else if (r.graph_note[0])
                printf("%-22s   in a graph: not measured (%s)\n", "", r.graph_note);
            if (convert_reps > 1)
                printf("%-22s   converted again: %.3f ms (median of %ld), %.1f SpMVs of setup\n",
                       "", r.convert_warm_ms, convert_reps - 1, t > 0 ? warm_setup(&r) / t : 0);
            if (r.note[0]) printf("%-22s   %s\n", "", r.note);
        } else {
            printf("%-22s %9s %9s %9s %9s %8s   %s\n", label, "-", "-", "-", "-", r.status, r.note);
        }
        fflush(stdout);
    }
    if (!csv && best[0].ms > 0 && (best[1].ms > 0 || best[2].ms > 0)) {
        char g[64];
        printf("\nfastest cuSPARSE row: %s, %.5f ms alone, %.5f back to back%s\n", best[0].label,
               best[0].ms, best[0].stream_ms, in_graph(best[0].graph_ms, g, sizeof g));
        for (int k = 1; k < 3; k++)
            if (best[k].ms > 0) {
                printf("%s %s: %.5f ms alone, %.5f back to back%s: %.2fx and %.2fx cuSPARSE's",
                       k == 1 ? "fastest of Spira's own:" : "auto:", best[k].label, best[k].ms,
                       best[k].stream_ms, in_graph(best[k].graph_ms, g, sizeof g),
                       best[0].ms / best[k].ms,
                       best[k].stream_ms > 0 ? best[0].stream_ms / best[k].stream_ms : 0);
                if (best[0].graph_ms > 0 && best[k].graph_ms > 0)
                    printf(" (%.2fx in a graph)", best[0].graph_ms / best[k].graph_ms);
                putchar('\n');
            }
    }
    spira_vector_destroy(vx);
    spira_vector_destroy(vy);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
    free(x), free(ref), free(scale), free(ybuf);
    return rc;
}
