/*
 * mmio_load.c - a Matrix Market file's bytes into memory: a regular file read by all
 * threads at once (pread of its slices, OpenMP), anything else (a pipe, a device) read
 * as a stream; gunzipped when it starts with the gzip magic bytes, whatever its name.
 *
 * The first block is looked at before the rest is read: what cannot be a Matrix Market
 * banner (/dev/zero, random bytes, another format) stops the read there and goes to the
 * parser, whose message then names what line 1 holds. bzip2, xz and zstd files are named
 * as such. gzip: every member is inflated (concatenated members are one file, as for
 * gzip -d); anything else after the last one is refused.
 *
 * spira__mm_map maps a large regular uncompressed file instead of reading it: no copy,
 * and no fresh pages for the kernel to zero (on a virtual machine, zeroing 200 MB of
 * new pages took longer than reading them from the page cache). The price is mmap's:
 * a file truncated by another process while it is mapped raises SIGBUS in the reader.
 */
#define _POSIX_C_SOURCE 200809L /* pread */
#define _DEFAULT_SOURCE          /* MAP_POPULATE */
#include "mmio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define HEAD_BYTES ((size_t)64 << 10) /* the first block, looked at before the rest */
#define SLICE_BYTES ((size_t)8 << 20) /* one thread's pread at a time */

/* Could a text that starts with [p, p + n) have a Matrix Market banner? (A UTF-8 byte
 * order mark and blanks may come first; the parser checks the rest.) A prefix too short
 * to tell says yes. */
static int may_be_banner(const char *p, size_t n)
{
    static const char kw[] = "%%matrixmarket";
    size_t i = 0;
    if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) i = 3;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\v' || p[i] == '\f'))
        i++;
    for (size_t k = 0; k < sizeof kw - 1; k++, i++) {
        if (i == n) return 1;
        char c = p[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != kw[k]) return 0;
    }
    return 1;
}

/* The compressed formats Spira does not read, by their magic bytes. */
static const struct {
    const char *magic;
    size_t len;
    const char *name, *tool;
} others[] = {{"BZh", 3, "bzip2", "bunzip2"},
              {"\xFD" "7zXZ", 6, "xz", "unxz"},
              {"\x28\xB5\x2F\xFD", 4, "zstd", "unzstd"}};

static int other_compression(const char *p, size_t n)
{
    for (int i = 0; i < (int)(sizeof others / sizeof others[0]); i++)
        if (n >= others[i].len && memcmp(p, others[i].magic, others[i].len) == 0) return i;
    return -1;
}

const char *spira__mm_name(const char *path, char *buf)
{
    size_t n = strlen(path);
    if (n < SPIRA__MM_NAME_MAX) return path;
    memcpy(buf, path, 64);
    memcpy(buf + 64, "...", 3);
    memcpy(buf + 67, path + n - 200, 200);
    buf[267] = '\0';
    return buf;
}

void spira__mm_hint_huge(void *p, size_t bytes)
{
#if defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (!p || bytes < 2 * huge) return;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), b = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (b > a) (void)madvise((void *)a, b - a, MADV_HUGEPAGE); /* a hint: failure is fine */
#else
    (void)p;
    (void)bytes;
#endif
}

/* Make room for at least need bytes and the final NUL in *buf (capacity *cap), within the
 * memory budget: the text of a stream or a gzip file grows as it comes, and stops at the
 * limit (what names it in the message) rather than when memory runs out. */
static spira_status room_for(spira_context ctx, char **buf, size_t *cap, size_t need,
                             const char *what)
{
    if (need < *cap) return SPIRA_OK;
    if (need == SIZE_MAX) return spira__nomem(ctx, what, SIZE_MAX);
    SPIRA__TRY(spira__budget_check(ctx, need + 1, 1, what));
    size_t ncap = *cap < 65536 ? 65536 : *cap;
    while (ncap <= need) ncap = ncap > SIZE_MAX / 2 ? need + 1 : ncap * 2;
    if (ctx && ctx->host_budget && ncap > ctx->host_budget) ncap = ctx->host_budget;
    char *b = spira__realloc(*buf, ncap);
    if (!b) return spira__nomem(ctx, what, ncap);
    spira__mm_hint_huge(b, ncap);
    *buf = b;
    *cap = ncap;
    return SPIRA_OK;
}

static spira_status read_error(spira_context ctx, const char *path, int err)
{
    return spira__error(ctx, SPIRA_ERR_IO, "cannot read '%s': %s", path, strerror(err));
}

/* [off, off + n) of fd into dst; *got: bytes read (short at the end of the file). */
static int pread_all(int fd, char *dst, size_t n, off_t off, size_t *got)
{
    size_t k = 0;
    while (k < n) {
        ssize_t r = pread(fd, dst + k, n - k, off + (off_t)k);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            *got = k;
            return errno;
        }
        if (r == 0) break;
        k += (size_t)r;
    }
    *got = k;
    return 0;
}

/* Read from fd (at *n onward, sequentially) until the end, growing *buf. */
static spira_status read_stream(spira_context ctx, const char *path, int fd, char **buf,
                                size_t *cap, size_t *n)
{
    char what[SPIRA__MM_NAME_MAX + 32];
    snprintf(what, sizeof what, "the text of %s (so far)", path);
    for (;;) {
        SPIRA__TRY(room_for(ctx, buf, cap, *n + 1, what));
        size_t want = *cap - 1 - *n;
        if (want > ((size_t)1 << 30)) want = (size_t)1 << 30;
        ssize_t r = read(fd, *buf + *n, want);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return read_error(ctx, path, errno);
        if (r == 0) return SPIRA_OK;
        *n += (size_t)r;
    }
}

/* The rest of a regular file of size bytes (the first *n already in *buf), its slices
 * read by all threads; then on to the end in case the file grew meanwhile. */
static spira_status read_regular(spira_context ctx, const char *path, int fd, size_t size,
                                 char **buf, size_t *cap, size_t *n)
{
    if (size > *n) {
        char what[SPIRA__MM_NAME_MAX + 32];
        snprintf(what, sizeof what, "the text of %s", path);
        SPIRA__TRY(room_for(ctx, buf, cap, size, what));
        const size_t from = *n, rest = size - from;
        const long nslices = (long)((rest + SLICE_BYTES - 1) / SLICE_BYTES);
        int err = 0;
        size_t got_all = rest;
        char *b = *buf;
#pragma omp parallel for schedule(dynamic, 1) if (nslices > 1)
        for (long s = 0; s < nslices; s++) {
            size_t off = from + (size_t)s * SLICE_BYTES;
            size_t len = size - off < SLICE_BYTES ? size - off : SLICE_BYTES, got;
            int e = pread_all(fd, b + off, len, (off_t)off, &got);
#pragma omp critical(spira_mm_load)
            {
                if (e && !err) err = e;
                if (got < len && off + got - from < got_all) got_all = off + got - from;
            }
        }
        if (err) return read_error(ctx, path, err);
        *n = from + got_all;
        if (got_all < rest) return SPIRA_OK; /* the file shrank: it ends here */
    }
    /* pread leaves the file offset where read() left it */
    if (lseek(fd, (off_t)*n, SEEK_SET) < 0) return read_error(ctx, path, errno);
    return read_stream(ctx, path, fd, buf, cap, n);
}

/* The gzip members in [z, z + zn) inflated into *text. */
static spira_status gunzip(spira_context ctx, const char *path, const unsigned char *z, size_t zn,
                           char **text, size_t *len)
{
    z_stream st;
    memset(&st, 0, sizeof st);
    if (inflateInit2(&st, 16 + MAX_WBITS) != Z_OK)
        return spira__nomem(ctx, "the gzip decoder", sizeof st);
    char *buf = NULL, what[SPIRA__MM_NAME_MAX + 40];
    snprintf(what, sizeof what, "the gunzipped text of %s (so far)", path);
    size_t cap = 0, n = 0, pos = 0;
    size_t guess = zn < SIZE_MAX / 4 ? zn * 4 : zn; /* text compresses 3-5x */
    if (ctx && ctx->host_budget && guess >= ctx->host_budget) guess = ctx->host_budget - 1;
    spira_status s = room_for(ctx, &buf, &cap, guess, what);
    int checked = 0;
    while (s == SPIRA_OK) {
        if (n + 1 >= cap) s = room_for(ctx, &buf, &cap, n + 1, what);
        if (s != SPIRA_OK) break;
        size_t in = zn - pos, out = cap - 1 - n;
        st.next_in = (unsigned char *)(uintptr_t)(z + pos);
        st.avail_in = in > UINT_MAX ? UINT_MAX : (unsigned)in;
        st.next_out = (unsigned char *)buf + n;
        st.avail_out = out > UINT_MAX ? UINT_MAX : (unsigned)out;
        unsigned ain = st.avail_in, aout = st.avail_out;
        int r = inflate(&st, Z_NO_FLUSH);
        pos += ain - st.avail_in;
        n += aout - st.avail_out;
        if (!checked && (n >= HEAD_BYTES || r == Z_STREAM_END)) {
            checked = 1;
            if (!may_be_banner(buf, n)) break; /* the parser says what line 1 is */
        }
        if (r == Z_STREAM_END) {
            if (pos == zn) break;
            if (zn - pos >= 2 && z[pos] == 0x1f && z[pos + 1] == 0x8b) { /* another member */
                inflateReset(&st);
                continue;
            }
            s = spira__error(ctx, SPIRA_ERR_IO,
                             "%s: %zu bytes of something else after the gzip data "
                             "(refused: a damaged or concatenated file?)",
                             path, zn - pos);
        } else if (r == Z_BUF_ERROR && pos == zn && st.avail_out > 0) {
            s = spira__error(ctx, SPIRA_ERR_IO,
                             "%s: gzip data error: the compressed file is truncated", path);
        } else if (r == Z_MEM_ERROR) {
            s = spira__nomem(ctx, "the gzip decoder", 0);
        } else if (r != Z_OK && r != Z_BUF_ERROR) {
            s = spira__error(ctx, SPIRA_ERR_IO, "%s: gzip data error: %s", path,
                             st.msg ? st.msg : "corrupt data");
        }
    }
    inflateEnd(&st);
    if (s != SPIRA_OK) {
        spira__free(buf);
        return s;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return SPIRA_OK;
}

spira_status spira__mm_load(spira_context ctx, const char *path, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    char nb[SPIRA__MM_NAME_MAX];
    const char *name = spira__mm_name(path, nb);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return spira__error(ctx, SPIRA_ERR_IO, "cannot open '%s': %s", name, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || S_ISDIR(sb.st_mode)) {
        spira_status s = read_error(ctx, name, S_ISDIR(sb.st_mode) ? EISDIR : errno);
        close(fd);
        return s;
    }
    const int regular = S_ISREG(sb.st_mode) && sb.st_size > 0;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    /* the first block, to see what this is */
    spira_status s = room_for(ctx, &buf, &cap, HEAD_BYTES, "the first block of a Matrix Market file");
    while (s == SPIRA_OK && n < HEAD_BYTES) {
        ssize_t r = read(fd, buf + n, HEAD_BYTES - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) s = read_error(ctx, name, errno);
        if (r <= 0) break;
        n += (size_t)r;
    }
    const int gz = s == SPIRA_OK && n >= 2 && (unsigned char)buf[0] == 0x1f &&
                   (unsigned char)buf[1] == 0x8b;
    const int other = s == SPIRA_OK ? other_compression(buf, n) : -1;
    if (other >= 0)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                         "%s: %s is not supported: decompress it first (%s FILE)", name,
                         others[other].name, others[other].tool);
    else if (s == SPIRA_OK && (gz || may_be_banner(buf, n)) && n == HEAD_BYTES)
        s = regular ? read_regular(ctx, name, fd, (size_t)sb.st_size, &buf, &cap, &n)
                    : read_stream(ctx, name, fd, &buf, &cap, &n);
    close(fd);
    if (s == SPIRA_OK && gz) {
        char *t = NULL;
        s = gunzip(ctx, name, (const unsigned char *)buf, n, &t, len);
        spira__free(buf);
        if (s == SPIRA_OK) *text = t;
        return s;
    }
    if (s != SPIRA_OK) {
        spira__free(buf);
        return s;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return SPIRA_OK;
}

#define MAP_MIN ((size_t)1 << 20) /* below this, reading costs less than mapping */
#ifndef MAP_POPULATE
#define MAP_POPULATE 0
#endif

spira_status spira__mm_map(spira_context ctx, const char *path, char **text, size_t *len,
                           int *mapped)
{
    *mapped = 0;
    struct stat sb;
    /* only a regular file is opened here: a FIFO opened and closed would lose its writer */
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || (uintmax_t)sb.st_size < MAP_MIN)
        return spira__mm_load(ctx, path, text, len);
    int fd = open(path, O_RDONLY);
    if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size >= MAP_MIN &&
        (uintmax_t)sb.st_size < SIZE_MAX) {
        size_t n = (size_t)sb.st_size;
        void *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (p != MAP_FAILED) {
            const char *t = p;
            /* only plain text: gzip and the rest go through spira__mm_load */
            if (!(t[0] == 0x1f && (unsigned char)t[1] == 0x8b) && other_compression(t, n) < 0 &&
                may_be_banner(t, n < HEAD_BYTES ? n : HEAD_BYTES)) {
                close(fd);
                *text = p;
                *len = n;
                *mapped = 1;
                return SPIRA_OK;
            }
            munmap(p, n);
        }
    }
    if (fd >= 0) close(fd);
    return spira__mm_load(ctx, path, text, len);
}

void spira__mm_unmap(char *text, size_t len, int mapped)
{
    if (mapped) munmap(text, len);
    else spira__free(text);
}
