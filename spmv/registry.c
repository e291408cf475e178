/*
 * registry.c - the one list of SpMV formats. A format is one row: its name, a line of
 * description, its host ops and, when built with CUDA, its device ops.
 */
#include "spmv.h"
#include "spmv_gpu.h"
#include "cusparse_row.h"
#include "pkt.h"

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
    {"csr-scalar", "CSR, one thread per row (Bell & Garland 2008)", spira__csr_borrow,
     spira__csr_layout_apply, spira__csr_layout_bytes, NULL,
     GPU_OPS(spira__csr_dev_upload, spira__csr_scalar_apply, spira__csr_dev_destroy)},
    {"cusparse",
     "cuSPARSE generic SpMV on CSR, the baseline every benchmark compares with (CUDA only; "
     "alg=2: CSR_ALG2, deterministic; the default ALG_DEFAULT may not be)",
     spira__cusparse_convert, NULL, spira__cusparse_bytes, spira__cusparse_destroy_layout,
     GPU_OPS(spira__cusparse_upload, spira__cusparse_apply, spira__cusparse_dev_destroy)},
    {"pkt",
     "packet format (Bell & Garland 2008): rows partitioned (METIS, or RCM blocks) into "
     "packets whose x slice sits in shared memory, rows packed onto threads, remainder in "
     "COO; square matrices (partition=metis|rcm, rows=N, threads=N)",
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
