/* mmio.c - Matrix Market reader and writer (placeholder until the real reader lands). */
#include "spira_impl.h"

spira_status spira__mm_read(spira_context ctx, const char *path, spira_dtype dtype,
                            spira__csr *out, int *symmetric)
{
    return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "Matrix Market reader not built yet");
}
spira_status spira__mm_parse(spira_context ctx, const char *name, const char *text, size_t len,
                             spira_dtype dtype, spira__csr *out, int *symmetric)
{
    return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "Matrix Market reader not built yet");
}
spira_status spira_matrix_write_mm(spira_matrix A, const char *path) { return SPIRA_ERR_UNSUPPORTED; }
spira_status spira_vector_read_mm(spira_context ctx, const char *path, spira_dtype dtype, spira_vector *v) { return SPIRA_ERR_UNSUPPORTED; }
spira_status spira_vector_write_mm(spira_vector v, const char *path) { return SPIRA_ERR_UNSUPPORTED; }
