/*
 * mmread-bench.c - throughput of the Matrix Market reader, in MB/s of text.
 *
 *   mmread-bench FILE [REPS]        best of REPS (default 5), wall time: load (read or
 *                                   gunzip), the fast path (lib/mmio_fast.c: text to CSR),
 *                                   the general reader's parse (its parallel stretches) and
 *                                   csr (its parallel CSR build), the whole spira__mm_read
 *                                   (the file mapped, then the fast path), and the
 *                                   sequential triplet path on the same text (parse to
 *                                   triplets, spira__csr_from_coo)
 *   mmread-bench --generate FILE N PER_COL [DIGITS]
 *                                   write an N x N "coordinate real general" file with
 *                                   PER_COL random entries per column, values printed
 *                                   with %.DIGITSg (default 17), for a large test input
 *
 * Threads: OMP_NUM_THREADS (the reader uses all of them). Uses the library's private
 * entry points (linked against libspira_core) so that each phase can be timed alone.
 * Also prints one line "RESULT total_ms=... mb=... threads=..." for bench/mmread-compare.py.
 * Built by `make check`, never run by it.
 */
#include "mmio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static uint64_t rng = 88172645463325252u;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int generate(const char *path, long n, long per_col, int digits)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%% mmread-bench\n");
    fprintf(f, "%ld %ld %ld\n", n, n, n * per_col);
    for (long j = 1; j <= n; j++)
        for (long k = 0; k < per_col; k++) {
            double x = (double)(next() >> 11) / 9007199254740992.0 * 2 - 1;
            fprintf(f, "%ld %ld %.*g\n", (long)(next() % (uint64_t)n) + 1, j, digits, x);
        }
    return fclose(f) != 0;
}

static int failed(spira_context ctx, spira_status s)
{
    fprintf(stderr, "%s: %s\n", spira_status_name(s), spira_last_error(ctx));
    return 1;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && !strcmp(argv[1], "--generate"))
        return generate(argv[2], atol(argv[3]), atol(argv[4]), argc > 5 ? atoi(argv[5]) : 17);
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [REPS] | --generate FILE N PER_COL [DIGITS]\n", argv[0]);
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    spira_context ctx;
    spira_context_opts o = {.backend = SPIRA_BACKEND_CPU};
    if (spira_context_create(&ctx, &o) != SPIRA_OK) return 1;
    enum { LOAD, FAST, PARSE, CSR, TOTAL, SEQ_PARSE, SEQ_CSR, NPHASE };
    double best[NPHASE];
    for (int i = 0; i < NPHASE; i++) best[i] = 1e300;
    size_t len = 0;
    int64_t nnz = 0;
    for (int r = 0; r < reps; r++) {
        char *text;
        spira__mm_runs rs;
        spira__csr A;
        double t[NPHASE + 1];
        t[0] = spira__now_ms();
        spira_status s = spira__mm_load(ctx, argv[1], &text, &len);
        if (s != SPIRA_OK) return failed(ctx, s);
        t[1] = spira__now_ms();
        if (!spira__mm_fast_csr(ctx, argv[1], text, len, SPIRA_R64, 0, &A, NULL, &s)) {
            fprintf(stderr, "the fast path declined %s\n", argv[1]);
            s = SPIRA_OK;
        } else if (s == SPIRA_OK) {
            spira__csr_free(&A);
        }
        if (s != SPIRA_OK) return failed(ctx, s);
        double tf = spira__now_ms();
        s = spira__mm_parse_runs(ctx, argv[1], text, len, SPIRA_R64, 0, &rs);
        t[2] = spira__now_ms();
        if (s == SPIRA_OK) s = spira__mm_runs_to_csr(ctx, argv[1], &rs, &A, NULL);
        t[3] = spira__now_ms();
        if (s != SPIRA_OK) return failed(ctx, s);
        nnz = A.nnz;
        spira__csr_free(&A);
        /* the sequential triplet path on the text already loaded */
        spira__mm_coo c;
        double q0 = spira__now_ms();
        s = spira__mm_parse_coo(ctx, argv[1], text, len, SPIRA_R64, &c);
        double q1 = spira__now_ms();
        spira__free(text);
        if (s != SPIRA_OK) return failed(ctx, s);
        s = spira__csr_from_coo(ctx, c.nrows, c.ncols, c.nnz, c.ri, c.ci, c.val, SPIRA_R64, &A);
        double q2 = spira__now_ms();
        spira__mm_coo_free(&c);
        if (s != SPIRA_OK) return failed(ctx, s);
        spira__csr_free(&A);
        double w0 = spira__now_ms();
        s = spira__mm_read(ctx, argv[1], SPIRA_R64, &A, NULL);
        double w1 = spira__now_ms();
        if (s != SPIRA_OK) return failed(ctx, s);
        spira__csr_free(&A);
        double d[NPHASE] = {t[1] - t[0], tf - t[1], t[2] - tf, t[3] - t[2],
                            w1 - w0,     q1 - q0,   q2 - q1};
        for (int i = 0; i < NPHASE; i++)
            if (d[i] < best[i]) best[i] = d[i];
    }
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    double mb = (double)len / 1e6;
    printf("%s: %.1f MB of text, %lld nonzeros (CSR), %d threads, best of %d (wall time)\n",
           argv[1], mb, (long long)nnz, threads, reps);
    const char *what[NPHASE] = {"load",           "fast path to CSR",     "parse (runs)",
                                "csr (runs)",     "total spira__mm_read", "sequential parse",
                                "sequential csr"};
    for (int i = 0; i < NPHASE; i++)
        printf("  %-22s %9.1f ms  %8.1f MB/s\n", what[i], best[i], mb / (best[i] * 1e-3));
    printf("RESULT total_ms=%.3f parse_csr_ms=%.3f mb=%.3f threads=%d nnz=%lld\n", best[TOTAL],
           best[PARSE] + best[CSR], mb, threads, (long long)nnz);
    spira_context_destroy(ctx);
    return 0;
}
