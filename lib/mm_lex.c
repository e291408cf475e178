/*
 * mm_lex.c - decimal to double for the Matrix Market reader, as exact as strtod and
 * several times faster on the common forms.
 *
 * Two exact fast paths, then strtod. (1) Clinger's (W. D. Clinger, "How to read floating
 * point numbers accurately", PLDI 1990): a decimal m * 10^e with m <= 2^53 and |e| <= 22
 * is m times or divided by 10^|e|, both operands exact doubles, so the one IEEE operation
 * rounds the exact value once: the correctly rounded result, as strtod returns it.
 * (2) Eisel-Lemire (D. Lemire, "Number parsing at a gigabyte per second", Software:
 * Practice and Experience 51(8), 2021, section 5; the conservative variant that gives up
 * on any doubt, as in Go's strconv): any m < 10^19 with 10^e in the table of truncated
 * 128-bit mantissas (lib/mm_pow10.h): m times the table entry, and when the truncation
 * error could change the rounding, or the decimal lies exactly half-way between two
 * doubles, or the result is subnormal or overflows, it declines. This covers %.17g output.
 * (3) Anything else (more than 19 significant digits, a declined case) goes to strtod on
 * a NUL-terminated copy of the token. Only the plain decimal
 * grammar is accepted: "nan", "inf" and hexadecimal floats are refused (a solver cannot
 * use them, and Matrix Market does not spell them).
 */
#include "spira_impl.h"
#include "mm_lex.h"
#include "mm_pow10.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 10^0 .. 10^22: every one an exact double. */
static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#define TWO53 (UINT64_C(1) << 53)

/* The table, for the inline Eisel-Lemire of mm_lex.h. */
const uint64_t (*const spira__mm_pow10_tab)[2] = spira__mm_pow10;

/* Eight digits at once (SWAR, little-endian only): is [p, p + 8) all digits, and their
 * value. The digits' bytes are 0x30..0x39: adding 6 keeps each below 0x40 only for
 * those, and both high nibbles must then read 3. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SPIRA__MM_SWAR 1
static inline uint64_t load8(const char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}
static inline int eight_digits(uint64_t x)
{
    const uint64_t hi = UINT64_C(0xF0F0F0F0F0F0F0F0);
    return ((x & hi) | (((x + UINT64_C(0x0606060606060606)) & hi) >> 4)) ==
           UINT64_C(0x3333333333333333);
}
static inline uint64_t eight_value(uint64_t x)
{
    x -= UINT64_C(0x3030303030303030);          /* bytes d0..d7, d0 first (lowest) */
    x = x * 10 + (x >> 8);                       /* 16-bit lanes: 10 d0 + d1, ... */
    const uint64_t lo = UINT64_C(0x000000FF000000FF);
    x = ((x & lo) * (100 + (UINT64_C(1000000) << 32)) +
         ((x >> 16) & lo) * (1 + (UINT64_C(10000) << 32))) >> 32;
    return x & 0xFFFFFFFFu;
}
#endif

/* The token [start, stop) through strtod, with '.' replaced by the locale's point. */
static spira__mm_num via_strtod(const char *start, const char *stop, const char *dp, double *v)
{
    char buf[SPIRA__MM_NUM_MAXLEN + 16];
    size_t dplen = strlen(dp), n = 0;
    if ((size_t)(stop - start) > SPIRA__MM_NUM_MAXLEN) return SPIRA__MM_NUM_LONG;
    for (const char *q = start; q < stop; q++) {
        if (*q == '.' && dplen <= 8) {
            memcpy(buf + n, dp, dplen);
            n += dplen;
        } else {
            buf[n++] = *q;
        }
    }
    buf[n] = '\0';
    char *e;
    errno = 0;
    double x = strtod(buf, &e);
    if (e != buf + n) return SPIRA__MM_NUM_BAD; /* cannot happen: the grammar was checked */
    if (isinf(x)) return SPIRA__MM_NUM_RANGE;   /* underflow to 0 or a subnormal is fine */
    *v = x;
    return SPIRA__MM_NUM_OK;
}

spira__mm_num spira__mm_scan_double(const char *p, const char *end, const char *dp,
                                    const char **next, double *v)
{
    const char *start = p;
    int neg = 0;
    if (p < end && (*p == '-' || *p == '+')) neg = *p++ == '-';

    uint64_t m = 0;   /* the first 19 significant digits */
    int nsig = 0;     /* significant digits kept in m */
    int lost = 0;     /* a nonzero digit did not fit in m */
    int64_t e10 = 0;  /* value = m * 10^e10 (when !lost) */
    int ndigits = 0;  /* digits seen in the mantissa, significant or not */

    for (; p < end && (unsigned)(*p - '0') <= 9; p++, ndigits++) {
#ifdef SPIRA__MM_SWAR
        /* once m holds a nonzero digit, every digit is significant: eight at a time */
        while (m && nsig <= 19 - 8 && end - p >= 8 && eight_digits(load8(p))) {
            m = m * 100000000 + eight_value(load8(p));
            nsig += 8;
            ndigits += 8;
            p += 8;
        }
        if (!(p < end && (unsigned)(*p - '0') <= 9)) break;
#endif
        unsigned d = (unsigned)(*p - '0');
        if (nsig < 19) {
            if (m || d) {
                m = m * 10 + d;
                nsig++;
            }
        } else {
            e10++;
            if (d) lost = 1;
        }
    }
    if (p < end && *p == '.') {
        p++;
        for (; p < end && (unsigned)(*p - '0') <= 9; p++, ndigits++) {
#ifdef SPIRA__MM_SWAR
            while (m && nsig <= 19 - 8 && end - p >= 8 && eight_digits(load8(p))) {
                m = m * 100000000 + eight_value(load8(p));
                nsig += 8;
                e10 -= 8;
                ndigits += 8;
                p += 8;
            }
            if (!(p < end && (unsigned)(*p - '0') <= 9)) break;
#endif
            unsigned d = (unsigned)(*p - '0');
            if (nsig < 19) {
                if (m || d) {
                    m = m * 10 + d;
                    nsig++;
                }
                e10--;
            } else if (d) {
                lost = 1;
            }
        }
    }
    if (ndigits == 0) return SPIRA__MM_NUM_BAD; /* "", ".", "-", "nan", "inf", "e5" */
    if (p < end && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        int eneg = 0;
        if (q < end && (*q == '-' || *q == '+')) eneg = *q++ == '-';
        if (q < end && (unsigned)(*q - '0') <= 9) {
            int64_t x = 0;
            for (; q < end && (unsigned)(*q - '0') <= 9; q++)
                if (x < 100000000) x = x * 10 + (*q - '0'); /* saturate: 1e100000000 is inf anyway */
            e10 += eneg ? -x : x;
            p = q;
        } /* else "1e" or "1e+": the number ends before the 'e', as in strtod */
    }
    *next = p;
    if (m == 0 && !lost) {
        *v = neg ? -0.0 : 0.0;
        return SPIRA__MM_NUM_OK;
    }
    if (lost) return via_strtod(start, p, dp, v);
#if FLT_EVAL_METHOD == 0 /* double arithmetic rounds once (not x87 extended precision) */
    if (m <= TWO53 && e10 >= -22 && e10 <= 22 + 16) {
        double x = (double)m;
        if (e10 >= 0 && e10 <= 22) x *= pow10_exact[e10];
        else if (e10 < 0) x /= pow10_exact[-e10];
        else {
            /* 123e30: move the excess power into m while m stays exact (< 2^53) */
            uint64_t mm = m;
            int64_t k = e10 - 22;
            while (k > 0 && mm <= TWO53 / 10) {
                mm *= 10;
                k--;
            }
            if (k == 0) {
                x = (double)mm * 1e22;
                *v = neg ? -x : x;
                return SPIRA__MM_NUM_OK;
            }
            goto lemire;
        }
        *v = neg ? -x : x;
        return SPIRA__MM_NUM_OK;
    }
lemire:
#endif
    if (spira__mm_eisel_lemire(m, e10, neg, v)) return SPIRA__MM_NUM_OK;
    return via_strtod(start, p, dp, v);
}
