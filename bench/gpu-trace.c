/*
 * gpu-trace.c - a small GPU timeline recorder for machines without Nsight Systems' importer
 * (the GPU machine's nsys, shipped inside Nsight Compute, writes .qdstrm files it cannot
 * convert). Built as a shared library and loaded by the CUDA driver itself:
 *
 *     CUDA_INJECTION64_PATH=/path/libgputrace.so GPU_TRACE=out-%p.csv program ...
 *
 * The driver calls InitializeInjection() when the program creates its CUDA context; from
 * then on CUPTI records every kernel (NCCL's included), copy and memset with its device
 * start and end, and at exit this writes one CSV line each: start ns, duration ns, device,
 * stream, name, the columns bench/timeline-summary.py reads. "%p" in GPU_TRACE becomes the
 * process id, "%r" the MPI rank (OMPI_COMM_WORLD_RANK or PMI_RANK), default gpu-trace-%p.csv.
 * Timestamps are CUPTI's, one clock for all processes of a host, so ranks line up.
 * GPU_TRACE_API=US also records the host's CUDA runtime calls that took US microseconds or
 * more (device column "host", stream column the thread id, name "cudaMalloc" and so on):
 * where a host waits on module loading, allocation or a synchronization.
 * Built by bench/carry-build.sh (gcc -shared ... -lcupti), not by make: it is a tool of the
 * benchmarks, not part of Spira.
 */
#include <cupti.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUFFER_BYTES (8u << 20)

static FILE *out;
static unsigned long long api_min_ns; /* GPU_TRACE_API, in ns; 0: host calls not recorded */

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0; /* as many as fit */
}

static const char *copy_name(uint8_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "[copy HtoD]";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "[copy DtoH]";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "[copy DtoD]";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "[copy PtoP]";
    default: return "[copy]";
    }
}

static void record(const CUpti_Activity *a)
{
    if (!out) return;
    switch (a->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)a;
        /* names hold commas (templates): quote them, doubling any quote */
        fprintf(out, "%llu,%llu,%u,%u,\"", (unsigned long long)k->start,
                (unsigned long long)(k->end - k->start), k->deviceId, k->streamId);
        for (const char *c = k->name ? k->name : "?"; *c; c++) {
            if (*c == '"') fputc('"', out);
            fputc(*c, out);
        }
        fputs("\"\n", out);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)a;
        fprintf(out, "%llu,%llu,%u,%u,\"%s %llu B\"\n", (unsigned long long)m->start,
                (unsigned long long)(m->end - m->start), m->deviceId, m->streamId,
                copy_name(m->copyKind), (unsigned long long)m->bytes);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)a;
        fprintf(out, "%llu,%llu,%u,%u,\"[memset %llu B]\"\n", (unsigned long long)m->start,
                (unsigned long long)(m->end - m->start), m->deviceId, m->streamId,
                (unsigned long long)m->bytes);
        break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME: {
        const CUpti_ActivityAPI *c = (const CUpti_ActivityAPI *)a;
        const char *name = NULL;
        if (c->end - c->start < api_min_ns) break;
        if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, c->cbid, &name) != CUPTI_SUCCESS)
            name = "?";
        fprintf(out, "%llu,%llu,host,%u,\"%s\"\n", (unsigned long long)c->start,
                (unsigned long long)(c->end - c->start), c->threadId, name);
        break;
    }
    default: break;
    }
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid)
{
    (void)ctx; (void)stream; (void)size;
    CUpti_Activity *a = NULL;
    while (cuptiActivityGetNextRecord(buffer, valid, &a) == CUPTI_SUCCESS) record(a);
    free(buffer);
}

static void finish(void)
{
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (out) fclose(out);
    out = NULL;
}

/* GPU_TRACE with %p (process id) and %r (MPI rank) replaced */
static void trace_path(char *path, size_t n)
{
    const char *pattern = getenv("GPU_TRACE"), *rank = getenv("OMPI_COMM_WORLD_RANK");
    if (!pattern) pattern = "gpu-trace-%p.csv";
    if (!rank) rank = getenv("PMI_RANK");
    size_t k = 0;
    for (const char *c = pattern; *c && k + 24 < n; c++) {
        if (c[0] == '%' && c[1] == 'p') {
            k += (size_t)snprintf(path + k, n - k, "%ld", (long)getpid());
            c++;
        } else if (c[0] == '%' && c[1] == 'r') {
            k += (size_t)snprintf(path + k, n - k, "%.16s", rank ? rank : "0");
            c++;
        } else {
            path[k++] = *c;
        }
    }
    path[k] = '\0';
}

int InitializeInjection(void)
{
    char path[4096];
    trace_path(path, sizeof path);
    out = fopen(path, "w");
    if (!out) {
        perror(path);
        return 0;
    }
    fputs("Start (ns),Duration (ns),Device,Strm,Name\n", out);
    if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET) != CUPTI_SUCCESS) {
        fprintf(stderr, "gpu-trace: CUPTI would not record activity\n");
        fclose(out);
        out = NULL;
        return 0;
    }
    const char *api = getenv("GPU_TRACE_API");
    if (api && atof(api) > 0) {
        api_min_ns = (unsigned long long)(atof(api) * 1e3);
        if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME) != CUPTI_SUCCESS)
            fprintf(stderr, "gpu-trace: CUPTI would not record runtime calls\n");
    }
    atexit(finish);
    return 1;
}
