/*
 * cost.c - the cost model's constants (see cost.h for the model). Every constant is an H100
 * 80GB HBM3 measurement in double from the runs committed under bench/results/:
 *   [spmv]  2026-11-23-h100-spmv/spmv-d.csv and irregular-d.csv: convert_ms,
 *           upload_ms, spmv_ms and matrix_bytes of every format on the 2-D Laplacian 2000^2,
 *           the 3-D Laplacian 150^3, a power-law (10^6 rows, longest 12,112) and a uniform
 *           (10^6 x 16) matrix, and 17 small SuiteSparse matrices;
 *   [spmv0] 2026-11-22-h100/spmv-d.csv, the same columns a day earlier, which agree;
 *   [gpu7]  2026-11-24-h100-session7/spmv-gpu-convert.csv: the conversions on the GPU,
 *           convert_ms against spmv_ms;
 *   [s15]   2026-11-26-h100-session15: merge against cuSPARSE (spmv-46f6eaf.txt and
 *           setup-summary-46f6eaf.txt, one run) and GPU traces of each program's first
 *           cuSPARSE multiply (first-use-traces-46f6eaf.txt);
 *   [mt]    2026-11-26-h200-merge-tiles: small matrices, one call each (an H200);
 *   [s20]   2026-11-27-session20/run5-spmv.txt: every format and cuSPARSE algorithm on the
 *           generated matrices (R-MAT 2^20, kNN, circuit, 3-D 150^3, 2-D 2000^2) and the
 *           18 ../shared matrices, sell with 2-8 warps a slice when slices are few;
 *   [s21]   2026-11-27-session21/run5-ab.txt, run6: sell with its long rows apart (the
 *           alternating new/old runs of run3.sh) on the generated and small matrices.
 * Each folder's README names the tree it was measured at; the host conversions that the
 * GPU ones replaced are in 2026-11-25-code-comments. Effective bandwidths count the
 * matrix's bytes, x once and y once over the measured time.
 */
#include "cost.h"
#include "csr_vector.h"

#include <math.h>
#include <string.h>

/* Pageable host-to-device copy of a layout: 4.4 to 7.2 GB/s over the four large matrices'
 * uploads in [spmv], 6.4 the median (cudaMalloc included). Only host conversions' layouts
 * are priced with it (the device CSR's upload is left out, cost.h). */
#define UPLOAD_GBS 6.4
/* A vector's step through one row (its V lanes, csr_vector.h's rule), in ms: csr-vector took
 * 0.889 ms on arrow (46,500 rows, one of 46,500 entries, mean 3: V = 4) in [spmv], 11,625
 * steps. The wait is counted from the launch: with it, adder_dcop_05's row of 1,310 (V = 8)
 * and wiki-Vote's of 893 (V = 16) predict 0.020 and 0.012 ms, measured 0.020-0.021 and
 * 0.012-0.013 [s20]; 32-lane steps at arrow's rate had predicted 0.017 for wiki-Vote. */
#define ROW_STEP_MS 0.0000765
/* sell's slots a nonzero: rows sorted by length in windows (sell.c) pad little where rows
 * are even (1.000 on the kNN Laplacian and the Laplacians, 1.004-1.019 on bcsstk13, bcsstk16
 * and sherman5 [s20]; 1.001-1.010 on R-MAT, circuit and wiki-Vote with long rows apart
 * [s21]); 1.05 also stands for what the bytes leave out, y written through the
 * permutation, so that ELL keeps rows of one length. On uneven rows the long rows' scattered
 * reads of x, not padding, set the time (uneven_gbs). */
#define SELL_FILL 1.05
/* sell's effective bandwidth on uneven rows when it stores no values (all 1, sell.h): the
 * gathers of x, not the bytes, set the time, so the value bytes it leaves out save far less
 * than their share. H200, R-MAT 2^20 (a pattern): 0.1162 ms back to back against 0.1304
 * with the values (bench/results/2026-11-28-session28, call 4), 830 GB/s over the bytes
 * below after the launch; with hubs=0 and session 29's kernel 0.1134-0.1154, 800 GB/s
 * (bench/results/2026-11-29-session29, call 6). Even rows are priced at the table's rate
 * (not measured). With its hub columns gathered (sell.h; the statistics say whether sell
 * would) the same graph takes 0.0836-0.0839 ms, 1,125 GB/s (call 8): SELL_HUBS_UNEVEN_GBS. */
#define SELL_UNIT_UNEVEN_GBS 830
#define SELL_HUBS_UNEVEN_GBS 1100

/* How a format's plan is set up on the CUDA backend: it borrows the device CSR (the CSR
 * family), converts on the GPU from it (format_gpu.build), or converts on the host and
 * uploads its layout. test_formats checks this against the registry in a CUDA build. */
typedef enum { BORROWS_CSR, BUILDS_ON_GPU, CONVERTS_ON_HOST } setup_kind;

typedef struct {
    const char *name;
    setup_kind setup;
    double convert_ns;  /* CONVERTS_ON_HOST: host conversion per stored slot (padding
                         * included), one thread */
    double build_spmvs; /* BUILDS_ON_GPU: the conversion in multiplies of the format */
    double fixed_ms;    /* setup beyond the conversion and the copy */
    double gbs;         /* effective bandwidth of the kernel on even rows, GB/s */
    double uneven_gbs;  /* the same on uneven rows (cv > 0.5) */
    double launch_ms;   /* a multiply of a tiny matrix */
    int row_wait;       /* one vector a row: the longest row's walk bounds the time */
    double first_ms;    /* a process's first multiply on a device loads the kernel (CUDA's
                         * lazy loading): 0 for Spira's own, which the preload thread loads
                         * while the matrix is read (lib/cuda/preload.cu) */
} cost_row;

static const cost_row rows[] = {
    /* no conversion (borrows the CSR); 1,417-1,752 GB/s on the Laplacians and 1,342 on the
     * uniform matrix, 795 on the power-law one; 0.0074-0.0100 ms on matrices under 10^5
     * nonzeros [spmv] */
    {"csr-vector", BORROWS_CSR, 0, 0, 0.05, 1650, 800, 0.0075, 1, 0},
    /* cuSPARSE's CSR: 1,977-2,100 GB/s on the Laplacians, 1,716 on the power-law matrix,
     * 0.011-0.016 ms on small ones [spmv]. Its setup a matrix (descriptors, workspace,
     * cusparseSpMV_preprocess's partition kernel) 0.1-0.3 ms [s15]; the 2.1-4.3 ms once
     * measured on small matrices [spmv] were a process's first use: its csrmv kernel loads
     * at the first multiply, a 3.7-4.0 ms gap before it in traces of PageRank and
     * spira-spmv on R-MAT 2^20, kNN and circuit matrices, 6.4-6.6 in the solves [s15] */
    {"cusparse", BORROWS_CSR, 0, 0, 0.2, 2100, 1800, 0.012, 0, 4.0},
    /* merge-based CSR (Merrill-Garland tiles): 1.12-1.22x cuSPARSE's time on even rows
     * (Laplacians, kNN, uniform), 1.22-1.38x on uneven ones (R-MAT, circuit, power-law)
     * [s15]; its plan, the tiles' starts on the merge path, 0.2-0.9 of its multiplies
     * [s15]; a tiny matrix's two launches about cuSPARSE's one [mt] */
    {"merge", BORROWS_CSR, 0, 0, 0.05, 1750, 1380, 0.012, 0, 0},
    /* On the GPU (ell_gpu.cu), 8 multiplies: measured 7.8 on 3-D Poisson 150^3 (1.05 ms
     * against 0.134 a multiply) and 15.7 on the kNN Laplacian (0.74 against 0.047) [gpu7];
     * the estimate from its passes was 6. Its passes: the
     * longest row by a reduce over row_ptr (a few hundredths of a multiply) and a wait,
     * one kernel reading the CSR a thread a row (csr-scalar's reads) and writing every slot
     * once, coalesced (two to three multiplies' bytes), and the rest the layout's
     * allocation, launches and waits. 2,508-2,533 GB/s on the Laplacians [spmv] */
    {"ell", BUILDS_ON_GPU, 0, 8, 0.05, 2600, 2600, 0.009, 0, 0},
    /* On the GPU (dia_gpu.cu), 10 multiplies: measured 8.1 on 3-D Poisson 150^3 (0.709 ms
     * against 0.0873 a multiply) [s21] since its module is preloaded (31.5, 2.80 ms, when
     * the first build also loaded it [gpu7]); the estimate from its passes was 8. Its passes: the
     * diagonal flags over the column indices (about half a multiply's bytes), a reduce and
     * a select over nrows + ncols bytes, one kernel reading the CSR and writing the layout
     * (about two multiplies' bytes), and the rest launches, three waits and the layout's
     * allocation, a few multiplies' worth on a large matrix and more on a small one.
     * 2,620-2,740 GB/s, 0.0926 ms a multiply on 150^3 [spmv] */
    {"dia", BUILDS_ON_GPU, 0, 10, 0.05, 2800, 2800, 0.0085, 0, 0},
    /* SELL-C-sigma, converted on the GPU: 12.9-14.4 of its multiplies on the Laplacians and
     * R-MAT, 25.7 on kNN (a process's first), 0.2-0.5 ms on matrices of a few thousand rows
     * (the sort's and the slot count's waits) [s20]. 2,283 GB/s on kNN, 2,663-2,726 on the
     * Laplacians (0.0298 ms on kNN against cuSPARSE SELL's 0.0325 and CSR's 0.0391) [s20].
     * Uneven rows, with the rows over 64 entries apart in chunks (one launch): 1,318 GB/s on
     * R-MAT 2^20 (0.163 ms; cuSPARSE's CSR 0.151), 2,074 on the circuit matrix (0.078;
     * 0.069); small matrices with dense rows (arrow, adder_dcop_05, wiki-Vote, 2,000 rows
     * with one of 2,000) 0.009-0.012 ms alone, 5.3-6.2 us back to back [s21] */
    {"sell", BUILDS_ON_GPU, 0, 14, 0.2, 2600, 1300, 0.009, 0, 0},
};

int spira__cost_predict(const spira__row_stats *s, const char *format, size_t value_size,
                        spira__cost *c)
{
    const cost_row *r = NULL;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!strcmp(rows[i].name, format)) r = &rows[i];
    if (!r) return -1;
    const double v = (double)value_size, nnz = (double)s->nnz;
    double slots = nnz, bytes = nnz * (v + 4) + 4.0 * ((double)s->nrows + 1);
    if (!strcmp(format, "ell")) {
        slots = s->nnz ? s->ell_fill * nnz : 0;
        bytes = slots * (v + 4);
    } else if (!strcmp(format, "dia")) {
        if (s->nnz && !(s->dia_fill < INFINITY)) return -1; /* diagonals not counted */
        slots = s->nnz ? s->dia_fill * nnz : 0;
        bytes = slots * v + 4 * (s->nrows ? slots / s->nrows : 0);
    } else if (!strcmp(format, "sell")) {
        slots = SELL_FILL * nnz;
        bytes = slots * ((s->ones ? 0 : v) + 4) +
                4.0 * ((double)s->nrows + s->nrows / 32.0); /* perm, slices */
    }
    const int uneven = s->cv > SPIRA__AUTO_UNEVEN;
    double gbs = uneven ? r->uneven_gbs : r->gbs;
    if (s->ones && uneven && !strcmp(format, "sell"))
        gbs = s->hubs ? SELL_HUBS_UNEVEN_GBS : SELL_UNIT_UNEVEN_GBS;
    const double stream = r->launch_ms + (bytes + v * ((double)s->nrows + s->ncols)) / (gbs * 1e6);
    const double steps = (double)s->max_row / spira__csr_vector_lanes(s->mean);
    const double wait = r->row_wait ? r->launch_ms + steps * ROW_STEP_MS : 0;
    c->multiply_ms = stream > wait ? stream : wait;
    c->on_device = r->setup == BUILDS_ON_GPU;
    c->convert_ms = r->setup == BUILDS_ON_GPU      ? r->build_spmvs * c->multiply_ms
                    : r->setup == CONVERTS_ON_HOST ? slots * r->convert_ns * 1e-6
                                                   : 0;
    /* the device CSR's upload is sunk before the choice (cost.h): only a host layout's copy */
    c->upload_ms = (r->setup == CONVERTS_ON_HOST ? bytes / (UPLOAD_GBS * 1e6) : 0) + r->fixed_ms;
    c->first_use_ms = r->first_ms;
    return 0;
}
