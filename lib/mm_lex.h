/*
 * mm_lex.h - number scanning for the Matrix Market reader (lib/mm_lex.c), private.
 *
 * Every scanner reads the text [p, end), which need not be NUL-terminated (the fuzz
 * target hands over raw bytes), consumes the longest prefix that forms a number and
 * returns the pointer just after it, or NULL when no number starts at p. The caller
 * checks that a separator follows: "12x" scans as 12 and leaves "x" for it to refuse.
 */
#ifndef SPIRA_MM_LEX_H
#define SPIRA_MM_LEX_H

#include <stdint.h>
#include <string.h>

/* Blanks inside a line. '\r' counts as one, so CRLF files read like LF files. */
static inline int spira__mm_is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static inline const char *spira__mm_skip_blanks(const char *p, const char *end)
{
    while (p < end && spira__mm_is_blank(*p)) p++;
    return p;
}

/* True if c may follow a number: a blank, the end of the line, or the end of the text. */
static inline int spira__mm_is_sep(const char *p, const char *end)
{
    return p == end || *p == '\n' || spira__mm_is_blank(*p);
}

/* [+-]?[0-9]+ as int64. *overflow is set (and *v saturated) when it does not fit. */
static inline const char *spira__mm_scan_int(const char *p, const char *end, int64_t *v,
                                             int *overflow)
{
    int neg = 0;
    *overflow = 0;
    if (p < end && (*p == '-' || *p == '+')) neg = *p++ == '-';
    if (p == end || (unsigned)(*p - '0') > 9) return NULL;
    uint64_t x = 0;
    const char *stop = end - p > 18 ? p + 18 : end; /* 18 digits cannot overflow */
    for (; p < stop && (unsigned)(*p - '0') <= 9; p++) x = x * 10 + (unsigned)(*p - '0');
    for (; p < end && (unsigned)(*p - '0') <= 9; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (x > (UINT64_C(9223372036854775807) - d) / 10) *overflow = 1;
        else x = x * 10 + d;
    }
    if (*overflow) x = UINT64_C(9223372036854775807);
    *v = neg ? -(int64_t)x : (int64_t)x;
    return p;
}

/* Outcome of spira__mm_scan_double. */
typedef enum {
    SPIRA__MM_NUM_OK = 0,
    SPIRA__MM_NUM_BAD,   /* no decimal number starts here (nan, inf, hex, junk) */
    SPIRA__MM_NUM_RANGE, /* beyond the double range: strtod would give +-inf */
    SPIRA__MM_NUM_LONG   /* needs strtod but is longer than SPIRA__MM_NUM_MAXLEN */
} spira__mm_num;

#define SPIRA__MM_NUM_MAXLEN 400

/* A decimal number [+-]?(d+[.d*]|.d+)([eE][+-]?d+)? into *v, rounded exactly as strtod
 * rounds it (the fast path is exact; the rest goes to strtod). dp is the locale's decimal
 * point (localeconv()->decimal_point), used only on the strtod path so that a non-"C"
 * LC_NUMERIC cannot change what a file means. *next is set on SPIRA__MM_NUM_OK and
 * SPIRA__MM_NUM_RANGE. */
spira__mm_num spira__mm_scan_double(const char *p, const char *end, const char *dp,
                                    const char **next, double *v);

/* m * 10^e10 (0 < m < 10^19), negated when neg, correctly rounded into *out by the
 * Eisel-Lemire algorithm (see lib/mm_lex.c); 0 when it cannot be sure (then strtod
 * decides). Inline: the fast path (lib/mmio_fast.c) calls it for most values. */
#define SPIRA__MM_POW10_MIN (-342)
#define SPIRA__MM_POW10_MAX 308
extern const uint64_t (*const spira__mm_pow10_tab)[2]; /* lib/mm_pow10.h's table */

/* 64 x 64 -> 128-bit product. */
static inline void spira__mm_mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    u128 p = (u128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

static inline int spira__mm_clz64(uint64_t x)
{
#if defined(__GNUC__)
    return __builtin_clzll(x);
#else
    int n = 0;
    for (; !(x >> 63); x <<= 1) n++;
    return n;
#endif
}

/* m * 10^e10 (0 < m < 10^19) correctly rounded into *out, or 0 when in doubt. Symbols as
 * in Lemire 2021: w = m normalised (l leading zeros), the table entry T(q) = the first
 * 128 bits of 10^q, the product z = w * T(q) truncated to its upper 128 bits. */
static inline int spira__mm_eisel_lemire(uint64_t m, int64_t e10, int neg, double *out)
{
    if (e10 < SPIRA__MM_POW10_MIN || e10 > SPIRA__MM_POW10_MAX) return 0;
    const uint64_t *t = spira__mm_pow10_tab[e10 - SPIRA__MM_POW10_MIN];
    int l = spira__mm_clz64(m);
    uint64_t w = m << l;
    /* floor(log2(10^q)) = floor(217706 q / 2^16) over the table's range (the generator
     * checks it); biased binary exponent of w * 10^q when z has its top bit set */
    int64_t x = 217706 * e10;
    int64_t fl = x >= 0 ? x >> 16 : -((-x + 65535) >> 16);
    int64_t e2 = fl + 64 + 1023 - l;
    uint64_t hi, lo;
    spira__mm_mul64(w, t[0], &hi, &lo);
    if ((hi & 0x1FF) == 0x1FF && lo + w < w) {
        /* the kept bits may still change with the low word of T: take it in */
        uint64_t yhi, ylo;
        spira__mm_mul64(w, t[1], &yhi, &ylo);
        uint64_t mhi = hi, mlo = lo + yhi;
        if (mlo < lo) mhi++;
        if ((mhi & 0x1FF) == 0x1FF && mlo + 1 == 0 && ylo + w < w) return 0;
        hi = mhi;
        lo = mlo;
    }
    int msb = (int)(hi >> 63);
    uint64_t mant = hi >> (msb + 9); /* 54 bits: 53 and the rounding bit */
    e2 -= 1 ^ msb;
    if (lo == 0 && (hi & 0x1FF) == 0 && (mant & 3) == 1) return 0; /* maybe half-way */
    mant += mant & 1;
    mant >>= 1;
    if (mant >> 53) {
        mant >>= 1;
        e2++;
    }
    if (e2 <= 0 || e2 >= 0x7FF) return 0; /* subnormal or overflow: strtod decides */
    uint64_t bits = (uint64_t)e2 << 52 | (mant & ((UINT64_C(1) << 52) - 1));
    if (neg) bits |= UINT64_C(1) << 63;
    memcpy(out, &bits, sizeof bits);
    return 1;
}


#endif
