/*
 * mmio_fast.c - the common coordinate file, text to canonical CSR with no triplets.
 *
 * Three passes, the first two over the text cut at line starts into stretches (four per
 * thread), the third over the CSR arrays:
 * (1) each entry's row (and, symmetric, its column) is read and counted by bucket, a
 *     bucket being 2^shift consecutive rows holding about 64K entries;
 * (2) from those counts each stretch knows where its entries of each bucket go, so the
 *     entries are parsed and written (column, value, row within the bucket) to the ends
 *     of their buckets' stretches of the CSR arrays: a hundred or so sequential streams,
 *     where writing each entry at its row's place would miss the cache and the TLB on
 *     nearly every entry of a matrix whose rows come in random order;
 * (3) each bucket is put in row order in the cache: the stored entries of a row in file
 *     order, then its mirrored ones in file order (the order spira__csr_from_coo scatters
 *     the mirrored triplets in), each row then sorted by column as spira__csr_sort_row
 *     sorts and repeated entries summed as spira__csr_merge_duplicates sums them.
 * The result is the general reader's arrays, bit for bit, without its triplets (12-16
 * bytes an entry allocated, written and read back) and with a third of its parsing
 * work (lib/mm_lex.c's scanners, inlined here for the usual forms, and the usual line
 * "i j v" read at once where SSE2 is there; the same Clinger and Eisel-Lemire paths,
 * strtod for the rest: the same doubles).
 *
 * It takes only what it recognises: entries of plain digits "i j [v]" (blanks around
 * them, CRLF), blank and '%' lines between them. Anything else (a signed index, a token
 * the grammar refuses, a count that differs from the size line, a value beyond the
 * precision, a symmetric file using both triangles, an array file) makes it decline,
 * and the general reader (lib/mmio_parse.c) reads the text again and words the refusal
 * with its line. The refusals that remain its own: its allocations' (SPIRA_ERR_NOMEM),
 * and a sum of repeated entries beyond the range (spira__mm_check_sum, the general
 * reader's message).
 *
 * Both passes classify lines alike (count_pass as next_entry does) and read the row with
 * the same scan_index, so an entry the second pass accepts was counted by the first in
 * the same bucket: a stretch never writes outside the places its counts reserved, even
 * on text it then declines.
 */
#include "mmio.h"
#include "mm_lex.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* The scanners run once or twice an entry: inlined into the passes' loops. */
#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

/* ---- scanning --------------------------------------------------------------------- */

static inline int is_digit(char c)
{
    return (unsigned)(c - '0') <= 9;
}

/* The 8 bytes at p, as a little-endian word (bytes past end read as 0). */
HOT uint64_t ld8(const char *p, const char *end)
{
    uint64_t x = 0;
    if (end - p >= 8) memcpy(&x, p, 8);
    else if (end > p) memcpy(&x, p, (size_t)(end - p));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    return x;
}

/* The trailing zero bits of x, 64 for x = 0: a line's first 64 bytes may all be digits
 * (fuzz-mm found one), and __builtin_ctzll(0) is undefined. */
static inline int ctz64(uint64_t x)
{
    if (!x) return 64;
#if defined(__GNUC__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    for (; !(x & 1); x >>= 1) n++;
    return n;
#endif
}

/* How many of x's bytes, first byte first, are digits before the first that is not:
 * 0..8. A byte is a digit when it is at least 0x30 and below 0x3A, with its top bit
 * clear (the sums below cannot carry across bytes once the top bits are masked). */
HOT int ndigits8(uint64_t x)
{
    const uint64_t top = UINT64_C(0x8080808080808080);
    uint64_t y = x & ~top;
    uint64_t ge0 = y + UINT64_C(0x5050505050505050); /* top bit: byte >= '0' */
    uint64_t gt9 = y + UINT64_C(0x4646464646464646); /* top bit: byte > '9' */
    uint64_t bad = (~ge0 | gt9 | x) & top;
    return bad ? ctz64(bad) >> 3 : 8;
}

/* The value of x's first n (0..8) bytes, all digits; 0 for n = 0. */
HOT uint64_t value8(uint64_t x, int n)
{
    int sh = 4 * (8 - n); /* two shifts: one of 64 would be undefined */
    x = (x - UINT64_C(0x3030303030303030)) << sh << sh; /* the digits to the top, zeros below */
    x = x * 10 + (x >> 8);
    const uint64_t lo = UINT64_C(0x000000FF000000FF);
    x = ((x & lo) * (100 + (UINT64_C(1000000) << 32)) +
         ((x >> 16) & lo) * (1 + (UINT64_C(10000) << 32))) >> 32;
    return x & 0xFFFFFFFFu;
}

static const uint64_t pow10_u64[9] = {1,      10,      100,      1000,     10000,
                                      100000, 1000000, 10000000, 100000000};

/* Plain digits at p (p < end, *p a digit): their value (1-based index or integer) and
 * the end; NULL past 16 digits. */
HOT const char *scan_index(const char *p, const char *end, uint64_t *v)
{
    uint64_t x = ld8(p, end);
    int n = ndigits8(x);
    uint64_t r = value8(x, n);
    p += n;
    while (n == 8) { /* rare: 8 digits and more */
        x = ld8(p, end);
        n = ndigits8(x);
        if (!n) break;
        if (r >= UINT64_C(100000000000)) return NULL; /* past 16 digits */
        r = r * pow10_u64[n] + value8(x, n);
        p += n;
    }
    *v = r;
    return p;
}

HOT const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && spira__mm_is_blank(*p)) p++;
    return p;
}

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* From the end of a token to the start of the next one on the line (one space is the
 * usual gap), or NULL when the line ends there or no blank follows. */
HOT const char *next_token(const char *p, const char *end)
{
    if (end - p >= 2 && p[0] == ' ' && (unsigned char)p[1] > ' ') return p + 1;
    if (p == end || !spira__mm_is_blank(*p)) return NULL;
    p = skip_blanks(p, end);
    return p == end || *p == '\n' ? NULL : p;
}

/* From the end of an entry's last token past its line's end ('\n' or the text's end),
 * or NULL when something else is left on the line. */
HOT const char *end_of_line(const char *p, const char *end)
{
    if (p < end && *p == '\n') return p + 1;
    p = skip_blanks(p, end);
    if (p == end) return p;
    return *p == '\n' ? p + 1 : NULL;
}

/* From a line start, past blank and '%' lines, to the next entry (1: *pp at its first
 * digit), the end (0), or a line that cannot start an entry here (-1). */
HOT int next_entry(const char **pp, const char *end)
{
    const char *p = *pp;
    for (;;) {
        if (p < end && is_digit(*p)) {
            *pp = p;
            return 1;
        }
        p = skip_blanks(p, end);
        if (p == end) return 0;
        if (*p == '\n') p++;
        else if (*p == '%') {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl + 1 : end;
        } else if (!is_digit(*p)) return -1;
    }
}

static const uint64_t pow10_19[20] = {UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000),
    UINT64_C(10000), UINT64_C(100000), UINT64_C(1000000), UINT64_C(10000000),
    UINT64_C(100000000), UINT64_C(1000000000), UINT64_C(10000000000),
    UINT64_C(100000000000), UINT64_C(1000000000000), UINT64_C(10000000000000),
    UINT64_C(100000000000000), UINT64_C(1000000000000000), UINT64_C(10000000000000000),
    UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
    UINT64_C(10000000000000000000)};

/* m * 10^e10 (m < 10^19), negated when neg, correctly rounded into *x: 0 (and 1 for 0)
 * as is, then Clinger, then Eisel-Lemire; 0 when neither is sure (strtod decides). */
HOT int exact_double(uint64_t m, int64_t e10, int neg, double *x)
{
    if (!m) {
        *x = neg ? -0.0 : 0.0;
        return 1;
    }
#if FLT_EVAL_METHOD == 0 /* one rounding (not x87 extended precision): as mm_lex.c */
    if (m <= (UINT64_C(1) << 53) && e10 >= -22 && e10 <= 22) {
        static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
        double d = (double)m;
        d = e10 >= 0 ? d * p10[e10] : d / p10[-e10];
        *x = neg ? -d : d;
        return 1;
    }
#endif
    return spira__mm_eisel_lemire(m, e10, neg, x);
}

/* A value token at p (not a blank, not a line end) in the REAL field: *x, and the end;
 * NULL when the token is not a decimal number the reader accepts. The plain forms of at
 * most 19 digits (not counting the zeros before the first nonzero one in the integer
 * part) are read here, exactly (Clinger, then Eisel-Lemire): up to 7 integer digits and
 * up to 23 fraction digits taken as three 8-byte words, whatever their count, so that
 * values of varying length cost no mispredicted branch. The rest goes to
 * spira__mm_scan_double. */
HOT const char *scan_real(const char *p, const char *end, const char *dp, double *x)
{
    const char *start = p, *q;
    int neg = *p == '-';
    p += *p == '-' || *p == '+';
    uint64_t w = ld8(p, end);
    int ni = ndigits8(w), nf = 0;
    if (ni == 8) goto general;
    uint64_t m = value8(w, ni);
    p += ni;
    if (p < end && *p == '.') {
        const char *f = p + 1;
        uint64_t w1 = ld8(f, end), w2 = ld8(f + 8, end), w3 = ld8(f + 16, end);
        int n1 = ndigits8(w1);
        int n2 = n1 == 8 ? ndigits8(w2) : 0;
        int n3 = n2 == 8 ? ndigits8(w3) : 0;
        if (n3 == 8) goto general;
        nf = n1 + n2 + n3;
        if ((m ? ni : 0) + nf > 19) goto general;
        m = m * pow10_19[nf] + value8(w1, n1) * pow10_19[n2 + n3] +
            value8(w2, n2) * pow10_19[n3] + value8(w3, n3);
        p = f + nf;
    } else if (!ni) goto general;
    int64_t e10 = -nf;
    if (p < end && (*p | 0x20) == 'e') {
        const char *e = p + 1;
        int eneg = 0;
        if (e < end && (*e == '-' || *e == '+')) eneg = *e++ == '-';
        int64_t ex = 0;
        const char *e0 = e;
        for (; e < end && is_digit(*e) && e - e0 < 5; e++) ex = ex * 10 + (*e - '0');
        if (e == e0 || (e < end && is_digit(*e)) || (!ni && !nf)) goto general;
        e10 += eneg ? -ex : ex;
        p = e;
    }
    if (!spira__mm_is_sep(p, end)) return NULL;
    if (!ni && !nf) goto general; /* "." */
    if (exact_double(m, e10, neg, x)) return p;
general: {
    double v; /* not x: its address would keep the caller's value in memory */
    if (spira__mm_scan_double(start, end, dp, &q, &v) != SPIRA__MM_NUM_OK) return NULL;
    *x = v;
    return spira__mm_is_sep(q, end) ? q : NULL;
}
}

/* ---- the usual line at once (SSE2) --------------------------------------------------- */

/* Most lines are "i j v\n" with single spaces, under 64 bytes. For those, one look at the
 * line's 64 bytes gives where every run of digits starts and ends (a bit per digit), so
 * no token is scanned 8 bytes at a time with its end found by a dependent chain of
 * tests; the two indices are converted together, and the 9 to 16 digits of a long
 * fraction at once, by SSE2. Token after token, finding and converting digits took about
 * half of the second pass's instructions on a file of 17-digit values (measured in
 * bench/results/2026-11-26-cpu2-reader). Any other line
 * goes the long way (the scanners above), which gives the same result: only the work
 * differs, never the value. */
enum { K_REAL, K_INTEGER, K_PATTERN };

#if defined(__SSE2__)
#define SPIRA__MM_LINE 1

/* The digits among [p, p + 16), as the bits of a word: c - '0' is at most 9 as a byte. */
HOT uint64_t digits_of16(const char *p)
{
    __m128i y = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), _mm_set1_epi8('0'));
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(y, _mm_set1_epi8(9)), y));
}

/* The digits among [p, p + 64), as the bits of a word (bit k: p[k] is '0'..'9'). */
HOT uint64_t digits64(const char *p)
{
    return digits_of16(p) | digits_of16(p + 16) << 16 | digits_of16(p + 32) << 32 |
           digits_of16(p + 48) << 48;
}

/* The 8 bytes at p, p + 8 inside the text. */
HOT uint64_t ld8u(const char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

/* The values of two runs of 1..8 digits, at p (a digits) and q (b digits), 8 bytes from
 * each inside the text: each run moved to the top of its word (the bytes after it
 * shifted out, zeros below), then both words converted at once as in digits16. */
HOT void digits8x2(const char *p, int a, const char *q, int b, uint64_t *x, uint64_t *y)
{
    const uint64_t zeros = UINT64_C(0x3030303030303030);
    const int sa = 4 * (8 - a), sb = 4 * (8 - b); /* two shifts: one of 64 is undefined */
    uint64_t u = (ld8u(p) - zeros) << sa << sa, v = (ld8u(q) - zeros) << sb << sb;
    const __m128i zero = _mm_setzero_si128();
    __m128i t = _mm_set_epi64x((long long)v, (long long)u);
    const __m128i w10 = _mm_set_epi16(1, 10, 1, 10, 1, 10, 1, 10),
                  w100 = _mm_set_epi16(1, 100, 1, 100, 1, 100, 1, 100),
                  w1e4 = _mm_set_epi16(1, 10000, 1, 10000, 1, 10000, 1, 10000);
    __m128i c = _mm_madd_epi16(_mm_packs_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(t, zero), w10),
                                               _mm_madd_epi16(_mm_unpackhi_epi8(t, zero), w10)),
                               w100);
    __m128i d = _mm_madd_epi16(_mm_packs_epi32(c, c), w1e4);
    *x = (uint32_t)_mm_cvtsi128_si32(d);
    *y = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(d, 4));
}

/* The value of the n (1..16) digits that end at q + 16; the 16 - n bytes before them,
 * whatever they hold, count as zeros. Digits as 16-bit lanes, then pairs, fours and
 * eights summed by pmaddwd (10d + d', 100c + c', 10^4 b + b'), every partial sum fitting
 * its lane. */
HOT uint64_t digits16(const char *q, int n)
{
    static const unsigned char keep[32] = {0,    0,    0,    0,    0,    0,    0,    0,
                                           0,    0,    0,    0,    0,    0,    0,    0,
                                           0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                           0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    const __m128i zero = _mm_setzero_si128();
    __m128i y = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)q), _mm_set1_epi8('0'));
    y = _mm_and_si128(y, _mm_loadu_si128((const __m128i *)(const void *)(keep + n)));
    const __m128i w10 = _mm_set_epi16(1, 10, 1, 10, 1, 10, 1, 10),
                  w100 = _mm_set_epi16(1, 100, 1, 100, 1, 100, 1, 100),
                  w1e4 = _mm_set_epi16(1, 10000, 1, 10000, 1, 10000, 1, 10000);
    __m128i a = _mm_madd_epi16(_mm_unpacklo_epi8(y, zero), w10),  /* 4 x 0..99 */
            b = _mm_madd_epi16(_mm_unpackhi_epi8(y, zero), w10);
    __m128i c = _mm_madd_epi16(_mm_packs_epi32(a, b), w100);      /* 4 x 0..9999 */
    __m128i d = _mm_madd_epi16(_mm_packs_epi32(c, c), w1e4);      /* 2 x 0..99999999 */
    uint64_t hi = (uint32_t)_mm_cvtsi128_si32(d),
             lo = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(d, 4));
    return hi * 100000000 + lo;
}

/* At p[*at]: an optional sign (*neg: it was '-'), then a run of digits (D: p's digit
 * bitmap), *at moved to its first digit; the run's length, 0 if it is empty or longer
 * than max. */
HOT int signed_run(const char *p, uint64_t D, int *at, int max, int *neg)
{
    const char c = p[*at];
    *neg = c == '-';
    *at += (c == '-') | (c == '+');
    const int n = ctz64(~(D >> *at));
    return n > max ? 0 : n;
}

/* The line at p, of at least 64 bytes to the end of the stretch, when it is
 * "i j[ v]\n" with single spaces, i and j of at most 8 digits, v (kind) an integer of at
 * most 8 digits or a real [+-]d{1,8}[.d*][(e|E)[+-]d{1,4}] of at most 19 significant
 * digits that Clinger or Eisel-Lemire rounds: *i, *j, *x, and the next line's start.
 * NULL for any other line (read then the long way). All positions stay below 64; a
 * fraction of 9 to 15 digits may be loaded from one byte before p, which is in the text
 * (p is past the size line). */
HOT const char *usual_line(const char *p, uint64_t *i, uint64_t *j, double *x, const int kind)
{
    const uint64_t D = digits64(p);
    int a = ctz64(~D); /* p[0] is a digit: 1.. */
    if (a > 8 || p[a] != ' ') return NULL;
    int b = a + 1, nb = ctz64(~(D >> b));
    if (nb == 0 || nb > 8) return NULL;
    digits8x2(p, a, p + b, nb, i, j);
    int v = b + nb;
    if (kind == K_PATTERN) return p[v] == '\n' ? p + v + 1 : NULL;
    if (p[v] != ' ') return NULL;
    v++;
    int neg;
    const int ni = signed_run(p, D, &v, 8, &neg);
    if (!ni) return NULL;
    uint64_t m;
    int e = v + ni;
    if (kind == K_INTEGER) {
        if (p[e] != '\n') return NULL;
        m = value8(ld8u(p + v), ni);
        *x = (double)(neg ? -(int64_t)m : (int64_t)m);
        return p + e + 1;
    }
    int nf = 0;
    if (p[e] == '.') {
        e++;
        nf = ctz64(~(D >> e));
        if (nf > 19) return NULL;
        uint64_t f, h;
        if (nf <= 16) {
            m = value8(ld8u(p + v), ni);
            f = nf <= 8 ? value8(ld8u(p + e), nf) : digits16(p + e + nf - 16, nf);
        } else { /* the integer part and the fraction's first 1-3 digits together */
            digits8x2(p + v, ni, p + e, nf - 16, &m, &h);
            f = h * pow10_19[16] + digits16(p + e + nf - 16, 16);
        }
        if ((m ? ni : 0) + nf > 19) return NULL;
        m = m * pow10_19[nf] + f;
        e += nf;
    } else {
        m = value8(ld8u(p + v), ni);
    }
    int64_t e10 = -nf;
    if ((p[e] | 0x20) == 'e') {
        e++;
        int eneg;
        const int ne = signed_run(p, D, &e, 4, &eneg);
        if (!ne) return NULL;
        int64_t ex = (int64_t)value8(ld8u(p + e), ne);
        e10 += eneg ? -ex : ex;
        e += ne;
    }
    if (p[e] != '\n' || !exact_double(m, e10, neg, x)) return NULL;
    return p + e + 1;
}
#endif

/* ---- compiled twice on x86-64 -------------------------------------------------------- */

/* The two passes over the text also come compiled for AVX2 and BMI1/2 (x86-64-v3:
 * shifts by any register, tzcnt, VEX forms that spare registers for the constants), and
 * are taken where the processor has them: the same C, the same results, less time for
 * the second pass (bench/results/2026-11-26-cpu2-reader). spira__mm_fast_generic set
 * keeps the generic ones (the tests run both). */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__AVX2__)
#define SPIRA__MM_V3 __attribute__((target("avx2,bmi,bmi2,popcnt")))
#endif

int spira__mm_fast_generic = 0;

static int use_v3(void)
{
#ifdef SPIRA__MM_V3
    return !spira__mm_fast_generic && __builtin_cpu_supports("avx2") &&
           __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
           __builtin_cpu_supports("popcnt");
#else
    return 0;
#endif
}

/* ---- the passes ------------------------------------------------------------------- */

/* Rows are grouped in buckets of 2^shift consecutive rows (shift <= 15), sized so that a
 * bucket's entries (12 bytes each) fit in the L2 cache. The second pass writes each
 * entry to the end of its bucket's stretch of the CSR arrays (a few hundred sequential
 * streams instead of a random write per entry: on a 10^6-row matrix whose rows come in
 * random order that is the difference between a cache and TLB miss per entry and none),
 * with its row within the bucket (and a flag for a mirrored entry) in a 16-bit side
 * array; the third puts each bucket's entries in row order, in cache. */
#define MIRRORED 0x8000u

typedef struct {
    const char *a, *b;        /* its text, whole lines */
    int64_t entries;          /* entries read (the first pass) */
    int64_t kept;             /* entries stored (not a skew-symmetric diagonal zero) */
    int64_t lower, upper;     /* stored entries below and above the diagonal */
    int ok;                   /* 0: declined */
} stretch;

typedef struct {
    spira__mm_coo h;          /* banner and sizes */
    int mirror;               /* 0 general, 1 symmetric, 2 skew-symmetric */
    const char *dp;           /* the locale's decimal point, for strtod */
    int shift;                /* rows of a bucket: 2^shift */
    int64_t nb;               /* buckets */
    int64_t *cnt;             /* nc x nb: entries (stored and mirrored) a stretch puts in
                                 each bucket, then where its next one goes */
    uint16_t *lrow;           /* nnz: each entry's row within its bucket, | MIRRORED */
} fast_file;

/* The '\n' bytes of [p, p + 64) (of [p, end) when shorter) as the bits of a word. */
HOT uint64_t newlines64(const char *p, const char *end)
{
    uint64_t m = 0;
    if (end - p >= 64) {
#if defined(__SSE2__)
        const __m128i nl = _mm_set1_epi8('\n');
        for (int k = 0; k < 4; k++)
            m |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
                     _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k)), nl))
                 << (16 * k);
        return m;
#else
        for (int k = 0; k < 8; k++) { /* exact zero bytes of x ^ "\n\n\n\n\n\n\n\n" */
            uint64_t x = ld8(p + 8 * k, end) ^ UINT64_C(0x0A0A0A0A0A0A0A0A);
            const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
            uint64_t z = ~(((x & low7) + low7) | x | low7);
            for (; z; z &= z - 1) m |= (uint64_t)1 << (8 * k + (ctz64(z) >> 3));
        }
        return m;
#endif
    }
    for (int k = 0; p + k < end; k++) m |= (uint64_t)(p[k] == '\n') << k;
    return m;
}

/* First pass over one stretch: entries per bucket. Lines are found 64 bytes at a time
 * (their ends as bits of a word), and each is classified as next_entry classifies them
 * for the second pass: an entry (at its first digit, after blanks), a blank or '%'
 * line, or something that makes the fast path decline. */
HOT void count_body(const fast_file *F, stretch *st, int64_t *cnt, const int mirror)
{
    const char *a = st->a, *end = st->b;
    const uint64_t nr = (uint64_t)F->h.nrows, ncl = (uint64_t)F->h.ncols;
    const int sh = F->shift;
    int64_t entries = 0, kept = 0, lower = 0, upper = 0;
    st->ok = 0;
    const char *base = a;
    uint64_t m = 1; /* the first line starts at a: a '\n' just before it */
    base--;
    for (;;) {
        for (; m; m &= m - 1) {
            const char *p = base + ctz64(m) + 1;
            if (p >= end) break;
            if (!is_digit(*p)) { /* not the usual line */
                p = skip_blanks(p, end);
                if (p == end || *p == '\n' || *p == '%') continue;
                if (!is_digit(*p)) return;
            }
            uint64_t i, j;
#ifdef SPIRA__MM_LINE
            int n;
            if (end - p >= 16 && (n = ctz64(~digits_of16(p))) <= 8) { /* the usual row */
                i = value8(ld8u(p), n);
                p += n;
            } else
#endif
                p = scan_index(p, end, &i);
            if (!p || i - 1 >= nr || p == end || !spira__mm_is_blank(*p)) return;
            entries++;
            if (mirror) {
                p = skip_blanks(p, end);
                if (p == end || !is_digit(*p)) return;
                p = scan_index(p, end, &j);
                if (!p || j - 1 >= ncl) return;
                if (i != j || F->mirror != 2) { /* a skew diagonal must be 0: not kept */
                    cnt[(i - 1) >> sh]++;
                    kept++;
                    if (i != j) {
                        cnt[(j - 1) >> sh]++;
                        lower += i > j;
                        upper += i < j;
                    }
                }
            } else {
                cnt[(i - 1) >> sh]++;
                kept++;
            }
        }
        base = base == a - 1 ? a : base + 64;
        if (base >= end) break;
        m = newlines64(base, end);
    }
    st->entries = entries;
    st->kept = kept;
    st->lower = lower;
    st->upper = upper;
    st->ok = 1;
}

/* One loop for the general files, one for the symmetric and skew ones (mirror: 1). */
static void count_pass(const fast_file *F, stretch *st, int64_t *cnt)
{
    if (F->mirror) count_body(F, st, cnt, 1);
    else count_body(F, st, cnt, 0);
}
#ifdef SPIRA__MM_V3
static SPIRA__MM_V3 void count_pass_v3(const fast_file *F, stretch *st, int64_t *cnt)
{
    if (F->mirror) count_body(F, st, cnt, 1);
    else count_body(F, st, cnt, 0);
}
#else
#define count_pass_v3 count_pass
#endif

/* Second pass over one stretch: every entry to the next place of its bucket (cur: this
 * stretch's cursors). Declines (ok = 0) on anything the general reader would not read
 * exactly so. Written once, inlined into one loop per value type (dbl), symmetry
 * (mirror) and field (kind), whose constants leave it few branches and registers. */

HOT void fill_body(const fast_file *F, stretch *st, int64_t *cur, spira__csr *out,
                   const int dbl, const int mirror, const int kind)
{
    const char *p = st->a, *end = st->b;
    const uint64_t nr = (uint64_t)F->h.nrows, ncl = (uint64_t)F->h.ncols;
    const int sh = F->shift;
    const char *dp = F->dp;
    const uint64_t mask = ((uint64_t)1 << sh) - 1;
    int32_t *col = out->col_idx;
    double *vd = (double *)out->val;
    float *vf = (float *)out->val;
    uint16_t *lrow = F->lrow;
    int r;
    st->ok = 0;
    while ((r = next_entry(&p, end)) == 1) {
        uint64_t i, j;
        double x = 1;
#ifdef SPIRA__MM_LINE
        const char *q;
        if (end - p >= 64 && (q = usual_line(p, &i, &j, &x, kind))) {
            if (i - 1 >= nr || j - 1 >= ncl) return;
            p = q;
            goto store;
        }
#endif
        p = scan_index(p, end, &i);
        if (!p || i - 1 >= nr || !(p = next_token(p, end)) || !is_digit(*p)) return;
        p = scan_index(p, end, &j);
        if (!p || j - 1 >= ncl) return;
        if (kind != K_PATTERN) {
            if (!(p = next_token(p, end))) return;
            if (kind == K_INTEGER) {
                int neg = *p == '-';
                uint64_t v;
                p += *p == '-' || *p == '+';
                if (p == end || !is_digit(*p)) return;
                p = scan_index(p, end, &v);
                if (!p || !spira__mm_is_sep(p, end)) return;
                x = (double)(neg ? -(int64_t)v : (int64_t)v);
            } else {
                p = scan_real(p, end, dp, &x);
                if (!p) return;
            }
        }
        if (!(p = end_of_line(p, end))) return;
#ifdef SPIRA__MM_LINE
    store:
#endif
        if (!dbl && kind != K_PATTERN && isinf((float)x)) return;
        i--;
        j--;
        if (mirror == 2 && i == j) {
            if (x != 0) return;
            continue;
        }
        int64_t k = cur[i >> sh]++;
        col[k] = (int32_t)j;
        if (dbl) vd[k] = x;
        else vf[k] = (float)x;
        lrow[k] = (uint16_t)(i & mask);
        if (mirror && i != j) {
            k = cur[j >> sh]++;
            col[k] = (int32_t)i;
            if (dbl) vd[k] = mirror == 2 ? -x : x;
            else vf[k] = mirror == 2 ? -(float)x : (float)x;
            lrow[k] = (uint16_t)((j & mask) | MIRRORED);
        }
    }
    st->ok = r == 0;
}

#define SPIRA__FILL(isa, attr, dbl, mirror, kind)                                              \
    static attr void fill##isa##_##dbl##_##mirror##_##kind(const fast_file *F, stretch *st,  \
                                                           int64_t *cur, spira__csr *out)    \
    {                                                                                        \
        fill_body(F, st, cur, out, dbl, mirror, kind);                                       \
    }
#define SPIRA__FILL_KINDS(isa, attr, dbl, mirror)                                              \
    SPIRA__FILL(isa, attr, dbl, mirror, K_REAL) SPIRA__FILL(isa, attr, dbl, mirror, K_INTEGER) \
    SPIRA__FILL(isa, attr, dbl, mirror, K_PATTERN)
#define SPIRA__FILL_ALL(isa, attr)                                                             \
    SPIRA__FILL_KINDS(isa, attr, 1, 0) SPIRA__FILL_KINDS(isa, attr, 1, 1)                      \
    SPIRA__FILL_KINDS(isa, attr, 1, 2) SPIRA__FILL_KINDS(isa, attr, 0, 0)                      \
    SPIRA__FILL_KINDS(isa, attr, 0, 1) SPIRA__FILL_KINDS(isa, attr, 0, 2)
SPIRA__FILL_ALL(, )
#ifdef SPIRA__MM_V3
SPIRA__FILL_ALL(_v3, SPIRA__MM_V3)
#define SPIRA__V3_NAME _v3
#else
#define SPIRA__V3_NAME
#endif

typedef void (*fill_fn)(const fast_file *, stretch *, int64_t *, spira__csr *);
#define SPIRA__FILL_ROW2(isa, dbl, mirror)                                                     \
    {fill##isa##_##dbl##_##mirror##_K_REAL, fill##isa##_##dbl##_##mirror##_K_INTEGER,        \
     fill##isa##_##dbl##_##mirror##_K_PATTERN}
#define SPIRA__FILL_ROW(isa, dbl, mirror) SPIRA__FILL_ROW2(isa, dbl, mirror)
#define SPIRA__FILL_TABLE(isa)                                                                 \
    {{SPIRA__FILL_ROW(isa, 0, 0), SPIRA__FILL_ROW(isa, 0, 1), SPIRA__FILL_ROW(isa, 0, 2)},     \
     {SPIRA__FILL_ROW(isa, 1, 0), SPIRA__FILL_ROW(isa, 1, 1), SPIRA__FILL_ROW(isa, 1, 2)}}
/* [generic 0, x86-64-v3 1][float 0, double 1][general, symmetric, skew]
 * [real, integer, pattern] */
static const fill_fn fills[2][2][3][3] = {SPIRA__FILL_TABLE(), SPIRA__FILL_TABLE(SPIRA__V3_NAME)};

/* Third pass, one bucket: its n entries at [s0, s0 + n) put in row order (stored ones of
 * a row before its mirrored ones, each in the order they came) at [d0, d0 + n) (d0 <= s0:
 * below, when the buckets before it lost repeated entries), rows [r0, r1)'s pointers
 * set, then each row put in column order as spira__csr_sort_row does (a stable sort:
 * repeated columns keep their order, for the sum). sc: 2 (r1 - r0) counters; scol, sval:
 * room for n entries (and for n spira__col_pos keys and values of a sort). Returns 1
 * when a row holds a repeated column. */
static int order_bucket(const fast_file *F, spira__csr *out, int64_t r0, int64_t r1,
                        int64_t s0, int64_t d0, int64_t n, int32_t *sc, int32_t *scol,
                        char *sval)
{
    const size_t es = spira_dtype_size(out->dtype);
    const uint16_t *lrow = F->lrow + s0;
    memset(sc, 0, (size_t)(r1 - r0) * 2 * sizeof *sc);
    unsigned last = 0, in_order = 1; /* already in row order (a file written by rows) */
    for (int64_t k = 0; k < n; k++) {
        unsigned key = ((lrow[k] & ~MIRRORED) << 1) | (lrow[k] >> 15);
        sc[key]++;
        in_order &= key >= last;
        last = key;
    }
    int32_t at = (int32_t)d0;
    for (int64_t r = r0; r < r1; r++) {
        int32_t *c = &sc[(r - r0) * 2], ns = c[0], nm = c[1];
        out->row_ptr[r] = at;
        c[0] = at;
        c[1] = at + ns;
        at += ns + nm;
    }
    int32_t *col = out->col_idx;
    if (in_order && d0 != s0) {
        memmove(col + d0, col + s0, (size_t)n * sizeof *col);
        memmove((char *)out->val + (size_t)d0 * es, (char *)out->val + (size_t)s0 * es,
                (size_t)n * es);
    }
    if (!in_order) { /* through the scratch to the rows' places (lrow is not overwritten) */
        memcpy(scol, out->col_idx + s0, (size_t)n * sizeof *scol);
        memcpy(sval, (char *)out->val + (size_t)s0 * es, (size_t)n * es);
        if (es == sizeof(double)) {
            double *val = (double *)out->val;
            const double *sv = (const double *)sval;
            for (int64_t k = 0; k < n; k++) {
                int32_t q = sc[((lrow[k] & ~MIRRORED) << 1) | (lrow[k] >> 15)]++;
                col[q] = scol[k];
                val[q] = sv[k];
            }
        } else {
            float *val = (float *)out->val;
            const float *sv = (const float *)sval;
            for (int64_t k = 0; k < n; k++) {
                int32_t q = sc[((lrow[k] & ~MIRRORED) << 1) | (lrow[k] >> 15)]++;
                col[q] = scol[k];
                val[q] = sv[k];
            }
        }
    }
    int dup = 0;
    for (int64_t r = r0; r < r1; r++) {
        int32_t b = out->row_ptr[r], e = r + 1 < r1 ? out->row_ptr[r + 1] : (int32_t)(d0 + n);
        int32_t k = b + 1;
        while (k < e && col[k] > col[k - 1]) k++;
        if (k == e) continue;
        while (k < e && col[k] >= col[k - 1]) k++;
        if (k < e) spira__csr_sort_row(out, b, e - b, (spira__col_pos *)(void *)scol, sval);
        for (k = b + 1; k < e && !dup; k++) dup = col[k] == col[k - 1];
    }
    return dup;
}

/* Repeated entries of rows [r0, r1) (their entries at [d0, d0 + n), in column order)
 * summed as spira__csr_merge_duplicates sums them (in double, then stored in T), the
 * rows moved up over the gaps and their pointers set; the entries kept. *bad: a sum left
 * the range (a single value was checked as it was read: only a sum can; the driver words
 * the message, in row order, as spira__mm_check_sum does). In the cache: the bucket was
 * just put in order. */
#define SPIRA__MERGE(T)                                                                     \
    static int64_t merge_bucket_##T(spira__csr *A, int64_t r0, int64_t r1, int64_t d0,      \
                                    int64_t n, int *bad)                                   \
    {                                                                                      \
        int32_t *col = A->col_idx, w = (int32_t)d0, start = w;                             \
        T *val = (T *)A->val;                                                              \
        for (int64_t i = r0; i < r1; i++) {                                                \
            int32_t end = i + 1 < r1 ? A->row_ptr[i + 1] : (int32_t)(d0 + n), row_first = w; \
            int merged = 0;                                                                \
            A->row_ptr[i] = w;                                                             \
            for (int32_t k = start; k < end; k++) {                                        \
                if (w > row_first && col[w - 1] == col[k]) {                               \
                    val[w - 1] = (T)((double)val[w - 1] + (double)val[k]);                 \
                    merged = 1;                                                            \
                } else {                                                                   \
                    col[w] = col[k];                                                       \
                    val[w] = val[k];                                                       \
                    w++;                                                                   \
                }                                                                          \
            }                                                                              \
            for (int32_t k = row_first; merged && k < w; k++)                              \
                if (!isfinite(val[k])) *bad = 1;                                           \
            start = end;                                                                   \
        }                                                                                  \
        return w - d0;                                                                     \
    }
SPIRA__MERGE(double)
SPIRA__MERGE(float)

/* Bucket u of F put in order at d0 (order_bucket), its repeated entries summed; the
 * entries kept, flags[u]: 1 some were summed, 2 a sum left the range. */
static int64_t finish_bucket(const fast_file *F, spira__csr *out, int64_t u, const int64_t *bstart,
                             int64_t d0, char *w, size_t sc_bytes, int64_t maxb, char *flags)
{
    const int64_t nrows = F->h.nrows, s0 = bstart[u], n = bstart[u + 1] - s0;
    int64_t r0 = u << F->shift, r1 = r0 + ((int64_t)1 << F->shift);
    if (r1 > nrows) r1 = nrows;
    /* the scratch: counters, then columns (or sort keys), then values (aligned: 8 divides
     * sc_bytes) */
    int32_t *sc = (int32_t *)(void *)w, *scol = (int32_t *)(void *)(w + sc_bytes);
    char *sval = w + sc_bytes + (size_t)maxb * sizeof(int64_t);
    if (!order_bucket(F, out, r0, r1, s0, d0, n, sc, scol, sval)) return n;
    int bad = 0;
    int64_t kept = out->dtype == SPIRA_R64 ? merge_bucket_double(out, r0, r1, d0, n, &bad)
                                           : merge_bucket_float(out, r0, r1, d0, n, &bad);
    flags[u] = (char)(1 + bad);
    return kept;
}

/* ---- the driver ---------------------------------------------------------------------- */

static int max_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

static int thread_num(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

int spira__mm_fast_csr(spira_context ctx, const char *name, const char *text, size_t len,
                       spira_dtype dtype, int nchunks, spira__csr *out, int *symmetric,
                       spira_status *s)
{
    memset(out, 0, sizeof *out);
    *s = SPIRA_OK;
    fast_file F;
    memset(&F, 0, sizeof F);
    size_t body;
    int64_t declared;
    if (!text || spira__mm_parse_head(ctx, text, len, dtype, &F.h, &body, &declared) != SPIRA_OK ||
        F.h.array)
        return 0;
    const int64_t nrows = F.h.nrows;
    F.mirror = F.h.symmetry == SPIRA__MM_GENERAL ? 0 : F.h.symmetry == SPIRA__MM_SKEW ? 2 : 1;
    const struct lconv *lc = localeconv();
    F.dp = lc && lc->decimal_point && *lc->decimal_point ? lc->decimal_point : ".";
    const char *b = text + body, *end = text + len;
    /* buckets of about 64K entries (768 KB of columns and values: the L2 cache) by the
     * declared count (a wrong one only costs time: the count is checked before anything
     * is written) */
    const int64_t want = declared * (F.mirror ? 2 : 1);
    F.shift = 0;
    while (F.shift < 15 && ((int64_t)2 << F.shift) * want <= (int64_t)65536 * nrows) F.shift++;
    F.nb = nrows ? ((nrows - 1) >> F.shift) + 1 : 1;
    int nc = nchunks;
    if (nc <= 0) { /* four per thread, of 1 MiB at least: a thread slowed down by another
                    * process leaves its later stretches to the others */
        size_t mb = (size_t)(end - b) >> 20;
        nc = max_threads() > 1 ? 4 * max_threads() : 1;
        if ((size_t)nc > mb) nc = mb ? (int)mb : 1;
    }
    while (nc > 1 && (size_t)F.nb * (size_t)nc * sizeof(int64_t) > (size_t)(end - b)) nc--;
    const int nt = nc < max_threads() ? nc : max_threads();
    const int v3 = use_v3();
    stretch *st = NULL;
    int64_t *bstart = NULL, maxb = 0;
    char *bdup = NULL;        /* bucket u: 1 repeated entries summed, 2 a sum out of range */
    int64_t *bkept = NULL;    /* bucket u: its entries once summed (threads) */
    void **scratch = NULL;
    *s = spira__alloc(ctx, (void **)&st, (size_t)nc, sizeof *st, "reader stretches");
    if (*s == SPIRA_OK)
        *s = spira__alloc(ctx, (void **)&F.cnt, (size_t)nc * (size_t)F.nb + 1, sizeof(int64_t),
                          "bucket counts");
    if (*s == SPIRA_OK)
        *s = spira__alloc(ctx, (void **)&bstart, (size_t)F.nb + 1, sizeof(int64_t),
                          "bucket starts");
    if (*s == SPIRA_OK) *s = spira__alloc(ctx, (void **)&bdup, (size_t)F.nb, 1, "bucket flags");
    if (*s == SPIRA_OK)
        *s = spira__alloc(ctx, (void **)&bkept, (size_t)F.nb, sizeof(int64_t), "bucket counts");
    if (*s != SPIRA_OK) goto done;
    memset(st, 0, (size_t)nc * sizeof *st); /* a declining stretch leaves its counts 0 */
    memset(F.cnt, 0, ((size_t)nc * (size_t)F.nb + 1) * sizeof(int64_t));
    memset(bdup, 0, (size_t)F.nb);
    const char *prev = b;
    for (int c = 0; c < nc; c++) {
        const char *a = b + (size_t)((double)(end - b) * c / nc);
        if (c == 0 || a <= prev) a = prev;
        else {
            const char *nl = memchr(a - 1, '\n', (size_t)(end - (a - 1)));
            a = nl ? nl + 1 : end;
        }
        st[c].a = a;
        if (c > 0) st[c - 1].b = a;
        prev = a;
    }
    st[nc - 1].b = end;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1)
    for (int c = 0; c < nc; c++)
        (v3 ? count_pass_v3 : count_pass)(&F, &st[c], F.cnt + (size_t)c * (size_t)F.nb);
    int64_t entries = 0, kept = 0, lower = 0, upper = 0;
    int ok = 1;
    for (int c = 0; c < nc; c++) {
        ok &= st[c].ok;
        entries += st[c].entries;
        kept += st[c].kept;
        lower += st[c].lower;
        upper += st[c].upper;
    }
    const int64_t nnz = kept + (F.mirror ? lower + upper : 0);
    if (!ok || entries != declared || (lower && upper) || nnz > INT32_MAX) goto done;
    /* bucket u's stretch of the arrays: stretch 0's entries, then stretch 1's, ... */
    int64_t at = 0;
    for (int64_t u = 0; u < F.nb; u++) {
        bstart[u] = at;
        for (int c = 0; c < nc; c++) {
            int64_t *q = &F.cnt[(size_t)c * (size_t)F.nb + (size_t)u], n = *q;
            *q = at;
            at += n;
        }
        if (at - bstart[u] > maxb) maxb = at - bstart[u];
    }
    bstart[F.nb] = at;
    out->nrows = (int32_t)nrows;
    out->ncols = (int32_t)F.h.ncols;
    out->nnz = (int32_t)nnz;
    out->dtype = dtype;
    const size_t es = spira_dtype_size(dtype);
    *s = spira__alloc(ctx, (void **)&out->row_ptr, (size_t)nrows + 1, sizeof(int32_t),
                      "CSR row pointers");
    if (*s == SPIRA_OK)
        *s = spira__alloc(ctx, (void **)&out->col_idx, (size_t)nnz, sizeof(int32_t),
                          "CSR column indices");
    if (*s == SPIRA_OK) *s = spira__alloc(ctx, &out->val, (size_t)nnz, es, "CSR values");
    if (*s == SPIRA_OK)
        *s = spira__alloc(ctx, (void **)&F.lrow, (size_t)nnz, sizeof *F.lrow, "entry rows");
    if (*s == SPIRA_OK) *s = spira__alloc(ctx, (void **)&scratch, (size_t)nt, sizeof *scratch, "bucket scratch");
    if (*s != SPIRA_OK) goto done;
    memset(scratch, 0, (size_t)nt * sizeof *scratch);
    const size_t sc_bytes = ((size_t)2 << F.shift) * sizeof(int32_t),
                 one = 2 * sizeof(int64_t); /* scol + sval hold the sort keys */
    /* a bucket holding most entries (a dense row) could need a scratch beyond the budget
     * where the arrays fit: the general reader then */
    if (spira__budget_check(ctx, (size_t)maxb + 1, one, "bucket scratch") != SPIRA_OK) goto done;
    for (int t = 0; t < nt && *s == SPIRA_OK; t++)
        *s = spira__alloc(ctx, &scratch[t], sc_bytes + (size_t)maxb * one + 16, 1, "bucket scratch");
    if (*s != SPIRA_OK) goto done;
    spira__mm_hint_huge(out->col_idx, (size_t)nnz * sizeof(int32_t));
    spira__mm_hint_huge(out->val, (size_t)nnz * es);
    spira__mm_hint_huge(F.lrow, (size_t)nnz * sizeof *F.lrow);
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1)
    for (int c = 0; c < nc; c++) {
        int64_t *cur = F.cnt + (size_t)c * (size_t)F.nb;
        fills[v3][dtype == SPIRA_R64][F.mirror][F.h.field == SPIRA__MM_REAL      ? K_REAL
                                            : F.h.field == SPIRA__MM_INTEGER ? K_INTEGER
                                                                             : K_PATTERN](
            &F, &st[c], cur, out);
    }
    for (int c = 0; c < nc; c++) ok &= st[c].ok;
    if (!ok) goto done;
    out->row_ptr[nrows] = (int32_t)nnz;
    /* One thread puts the buckets in order one after another, each at its final place
     * (below its stretch by the entries the ones before it summed away); threads put
     * them in order side by side, and the buckets are moved up afterwards. */
    int64_t gone = 0;
    if (nt == 1) {
        for (int64_t u = 0; u < F.nb; u++) {
            int64_t n = bstart[u + 1] - bstart[u];
            gone += n - finish_bucket(&F, out, u, bstart, bstart[u] - gone, scratch[0], sc_bytes,
                                      maxb, bdup);
        }
    } else {
#pragma omp parallel for schedule(dynamic, 8) num_threads(nt)
        for (int64_t u = 0; u < F.nb; u++)
            bkept[u] = finish_bucket(&F, out, u, bstart, bstart[u], scratch[thread_num()],
                                     sc_bytes, maxb, bdup);
        for (int64_t u = 0; u < F.nb; u++) {
            int64_t s0 = bstart[u], r0 = u << F.shift, r1 = r0 + ((int64_t)1 << F.shift);
            if (r1 > nrows) r1 = nrows;
            if (gone) {
                memmove(out->col_idx + s0 - gone, out->col_idx + s0,
                        (size_t)bkept[u] * sizeof(int32_t));
                memmove((char *)out->val + (size_t)(s0 - gone) * es,
                        (char *)out->val + (size_t)s0 * es, (size_t)bkept[u] * es);
                for (int64_t r = r0; r < r1; r++) out->row_ptr[r] -= (int32_t)gone;
            }
            gone += bstart[u + 1] - s0 - bkept[u];
        }
    }
    out->nnz = (int32_t)(nnz - gone); /* the arrays keep their original size; the tail is unused */
    out->row_ptr[nrows] = out->nnz;
    for (int t = 0; t < nt; t++) spira__free(scratch[t]);
    spira__free(scratch);
    scratch = NULL;
    spira__free(F.lrow);
    F.lrow = NULL;
    for (int64_t u = 0; u < F.nb; u++)
        if (bdup[u] == 2) { /* rare: the first sum beyond the range, in row order, worded */
            *s = spira__mm_check_sums(ctx, name ? name : "(memory)", out, u << F.shift);
            break;
        }
    if (*s != SPIRA_OK) spira__csr_free(out);
    else if (symmetric) *symmetric = F.h.symmetry == SPIRA__MM_SYMMETRIC;
    spira__free(F.cnt);
    spira__free(bstart);
    spira__free(bdup);
    spira__free(bkept);
    spira__free(st);
    return 1;
done: /* declined, or an allocation refused (*s) */
    for (int t = 0; scratch && t < nt; t++) spira__free(scratch[t]);
    spira__free(scratch);
    spira__free(F.lrow);
    spira__free(F.cnt);
    spira__free(bstart);
    spira__free(bdup);
    spira__free(bkept);
    spira__free(st);
    spira__csr_free(out);
    memset(out, 0, sizeof *out);
    return *s != SPIRA_OK;
}
