/*
 * registry.c - the one list of SpMV formats. A format is one row: its name, a line of
 * description, its host ops and, when built with CUDA, its device ops.
 */
#include "spmv.h"
#include "spmv_gpu.h"
#include "cmrs.h"
#include "coo.h"
#include "cusparse_row.h"
#include "dia.h"
#include "ell.h"
#include "hyb.h"
#include "lightspmv.h"
#include "pkt.h"
#include "suraa.h"

#include <string.h>

/* The device slots of a row; empty in a build without CUDA, where the dispatcher reports
 * that the format has no kernel in this build. */
#ifdef HAVE_CUDA
#define GPU_SLOTS(upload, apply, destroy) upload, apply, destroy
#else
#define GPU_SLOTS(upload, apply, destroy) NULL, NULL, NULL
#endif
/* The last slots of a row: device ops, then the optional stats line (none for most). */
#define GPU_OPS(upload, apply, destroy) GPU_SLOTS(upload, apply, destroy), NULL
#define GPU_OPS_STATS(upload, apply, destroy, stats) GPU_SLOTS(upload, apply, destroy), stats

static const spira__format formats[] = {
    {"csr-scalar", "CSR, one thread per row (Bell & Garland 2008)", "", spira__csr_borrow,
     spira__csr_layout_apply, spira__csr_layout_bytes, NULL,
     GPU_OPS(spira__csr_dev_upload, spira__csr_scalar_apply, spira__csr_dev_destroy)},
    {"csr-vector",
     "CSR, a vector of V = 2..32 lanes per row, V from the mean row length, shuffle "
     "reduction (Bell & Garland 2008; CUSP)",
     "",
     spira__csr_borrow, spira__csr_layout_apply, spira__csr_layout_bytes, NULL,
     GPU_OPS(spira__csr_dev_upload, spira__csr_vector_apply, spira__csr_dev_destroy)},
    {"lightspmv",
     "CSR with rows handed out at run time by an atomic row counter to vectors of V = 2..32 "
     "lanes (Liu & Schmidt 2015): level=warp (default) or vector, batch=K (K times the "
     "paper's rows per atomic; default: 32 rows, fewer on small matrices), lanes=V; "
     "deterministic",
     "level lanes batch",
     spira__lightspmv_convert, spira__lightspmv_host_apply, spira__lightspmv_bytes,
     spira__lightspmv_destroy,
     GPU_OPS(spira__lightspmv_upload, spira__lightspmv_apply, spira__lightspmv_dev_destroy)},
    {"cmrs",
     "compressed multi-row storage: strips of height = 1..16 rows (a power of two; default "
     "4 double, 8 float), a warp per strip, the row within the strip in the column word's "
     "low 4 bits, per-lane row sums in shared memory (Koza et al. 2014); deterministic",
     "height",
     spira__cmrs_convert, spira__cmrs_host_apply, spira__cmrs_bytes, spira__cmrs_destroy,
     GPU_OPS(spira__cmrs_upload, spira__cmrs_apply, spira__cmrs_dev_destroy)},
    {"suraa",
     "rows sorted by length, Freedman-Diaconis segments (at least 32 rows), each to a "
     "kernel by its mean: V lanes a row under 32 (g3=scalar: a thread, as the paper), Y "
     "threads a row from 32, and for the longest rows (up to children=2048) dynamic "
     "parallelism with dynamic=1 (a build option); a stream per launch (Muhammed et al. "
     "2019; segment=N); deterministic",
     "segment children dynamic g3",
     spira__suraa_convert, spira__suraa_host_apply, spira__suraa_bytes, spira__suraa_destroy,
     GPU_OPS_STATS(spira__suraa_upload, spira__suraa_apply, spira__suraa_dev_destroy,
                   spira__suraa_stats)},
    {"coo",
     "COO, flat intervals of nonzeros per warp, segmented reduction with a carry fix-up; "
     "no atomics, deterministic per GPU model (Bell & Garland 2008)",
     "interval",
     spira__coo_convert, spira__coo_host_apply, spira__coo_bytes, spira__coo_destroy,
     GPU_OPS(spira__coo_upload, spira__coo_apply, spira__coo_destroy_dev)},
    {"ell",
     "ELLPACK, column-major padded to the longest row, a thread per row; refuses beyond "
     "max_fill (default 3) slots per nonzero (Bell & Garland 2008)",
     "max_fill",
     spira__ell_convert, spira__ell_host_apply, spira__ell_bytes, spira__ell_destroy,
     GPU_OPS(spira__ell_upload, spira__ell_apply, spira__ell_destroy_dev)},
    {"dia",
     "DIA, occupied diagonals stored column-major, a thread per row; refuses beyond "
     "max_fill (default 3) slots per nonzero (Bell & Garland 2008)",
     "max_fill",
     spira__dia_convert, spira__dia_host_apply, spira__dia_bytes, spira__dia_destroy,
     GPU_OPS(spira__dia_upload, spira__dia_apply, spira__dia_destroy_dev)},
    {"hyb",
     "HYB, ELL of width K (a column while >= 1/3 of the rows and >= 4096 rows fill it) "
     "plus COO for the rest; no atomics (Bell & Garland 2008)",
     "min_rows ell_width interval",
     spira__hyb_convert, spira__hyb_host_apply, spira__hyb_bytes, spira__hyb_destroy,
     GPU_OPS(spira__hyb_upload, spira__hyb_apply, spira__hyb_destroy_dev)},
    {"cusparse",
     "cuSPARSE generic SpMV on CSR, the baseline every benchmark compares with (CUDA only; "
     "alg=2: CSR_ALG2, deterministic; the default ALG_DEFAULT may not be)",
     "alg",
     spira__cusparse_convert, NULL, spira__cusparse_bytes, spira__cusparse_destroy_layout,
     GPU_OPS(spira__cusparse_upload, spira__cusparse_apply, spira__cusparse_dev_destroy)},
    {"pkt",
     "packet format (Bell & Garland 2008): rows partitioned (METIS, or RCM blocks) into "
     "packets whose x slice sits in shared memory, rows packed onto threads, remainder in "
     "COO; square matrices (partition=metis|rcm, rows=N, threads=N)",
     "partition rows threads",
     spira__pkt_convert, spira__pkt_host_apply, spira__pkt_bytes, spira__pkt_destroy,
     GPU_OPS_STATS(spira__pkt_upload, spira__pkt_apply, spira__pkt_dev_destroy,
                   spira__pkt_stats)},
};

int spira__format_total(void)
{
    return (int)(sizeof formats / sizeof formats[0]);
}

const spira__format *spira__format_at(int i)
{
    return i >= 0 && i < spira__format_total() ? &formats[i] : NULL;
}

const spira__format *spira__format_find(const char *name)
{
    for (int i = 0; i < spira__format_total(); i++)
        if (strcmp(formats[i].name, name) == 0) return &formats[i];
    return NULL;
}

int spira_format_count(void)
{
    return spira__format_total();
}

spira_status spira_format_describe(int i, const char **name, const char **description)
{
    const spira__format *f = spira__format_at(i);
    if (!f) return SPIRA_ERR_INVALID_ARG;
    if (name) *name = f->name;
    if (description) *description = f->description;
    return SPIRA_OK;
}
