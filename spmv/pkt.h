/*
 * pkt.h - the packet format (PKT) of Bell & Garland (2008), its host layout and its parts:
 * pkt_partition.c (the row partition), pkt.c (packets, thread packing, CPU reference),
 * pkt_gpu.cu (kernels).
 *
 * The rows of a square matrix are partitioned into packets (METIS k-way on the symmetrized
 * graph, or reverse Cuthill-McKee then contiguous blocks). Packet p owns rows
 * rows[row_begin[p] .. row_begin[p+1]) and its x slice is x at those same indices: the
 * paper permutes A so that the slice is a contiguous range; Spira keeps x and y in the
 * caller's order, so a thread block gathers the slice through the row list into shared
 * memory (and scatters y through it). A nonzero a_ij of a row in packet p is "inside" when
 * column j is also a row of p; inside entries are stored per packet in a thread-interleaved
 * slab: entry k of thread t sits at entry_begin[p] + k*threads + t, as one 32-bit word
 * (local row << 16 | local column, both indices into the packet's row list) and a value.
 * Each row's inside entries belong to one thread (rows packed onto threads by the greedy
 * least-occupied rule), contiguous in that thread's list, so the thread sums the row in a
 * register. Everything else (outside entries, and rows too long to pack) is the remainder,
 * a row-compressed COO added afterwards.
 */
#ifndef SPIRA_PKT_H
#define SPIRA_PKT_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* word of a padding slot (after a thread's last entry) */
#define SPIRA__PKT_PAD 0xFFFFFFFFu
/* local column of a placeholder entry: the row has no inside entry but must be written */
#define SPIRA__PKT_NOCOL 0xFFFFu

typedef struct {
    int32_t nrows, ncols;
    spira_dtype dtype;
    int32_t threads;      /* threads per block = interleave stride of the slabs */
    int32_t max_rows;     /* most rows in one packet (sizes the shared x slice) */
    int32_t npackets;
    int32_t *row_begin;   /* npackets + 1 */
    int32_t *rows;        /* nrows: global row ids, packet by packet, ascending in each */
    int32_t *entry_begin; /* npackets + 1: slab offsets (entries) */
    int32_t *steps;       /* npackets: slab length per thread (longest thread list) */
    uint32_t *words;      /* entry_begin[npackets]: packed (local row, local column) */
    void *vals;           /* entry_begin[npackets] values (0 in padding) */
    /* remainder: rem_rows[i] has entries rem_ptr[i] .. rem_ptr[i+1] (global columns) */
    int32_t rem_nrows, rem_nnz;
    int32_t *rem_rows, *rem_ptr, *rem_cols;
    void *rem_vals;
    /* partition quality, for reports */
    int32_t inside_nnz;   /* nonzeros processed inside packets */
    int32_t long_rows;    /* rows sent to the remainder whole (too long to pack) */
    int metis;            /* 1: METIS partition, 0: RCM blocks */
    char stats[256];
} spira__pkt;

/* Row partition (pkt_partition.c): part[i] in [0, *nparts) for every row of the square
 * matrix A, with parts of about target rows. use_metis: METIS k-way (only when built with
 * it), else RCM order cut into contiguous blocks. *used_metis tells which ran (METIS
 * failing falls back to RCM). */
spira_status spira__pkt_partition(spira_context ctx, const spira__csr *A, int32_t target,
                                  int use_metis, int32_t *part, int32_t *nparts,
                                  int *used_metis);

/* The pkt format (pkt.c). Options: partition=metis|rcm, rows=N (packet size target),
 * threads=N (a multiple of 32, 32..1024). */
extern const spira__format spira__pkt_format;

#ifdef __cplusplus
}
#endif
#endif
