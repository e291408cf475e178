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

#endif
