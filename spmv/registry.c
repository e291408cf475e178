/*
 * registry.c - the one list of SpMV formats. Each format is one self-describing unit (its
 * X.c exports spira__X_format, see format.h); adding one is one line below.
 */
#include "spmv.h"

#include <stdio.h>
#include <string.h>

/* In the order spira-spmv lists and runs them. */
#define FORMATS(X) \
    X(csr_scalar)  \
    X(csr_vector)  \
    X(lightspmv)   \
    X(cmrs)        \
    X(suraa)       \
    X(coo)         \
    X(ell)         \
    X(dia)         \
    X(hyb)         \
    X(sell)        \
    X(merge)       \
    X(cusparse)    \
    X(pkt)

#define DECLARE(x) extern const spira__format spira__##x##_format;
FORMATS(DECLARE)
#define POINTER(x) &spira__##x##_format,
static const spira__format *const formats[] = {FORMATS(POINTER)};

int spira__format_total(void)
{
    return (int)(sizeof formats / sizeof formats[0]);
}

const spira__format *spira__format_at(int i)
{
    return i >= 0 && i < spira__format_total() ? formats[i] : NULL;
}

const spira__format *spira__format_find(const char *name)
{
    for (int i = 0; i < spira__format_total(); i++)
        if (strcmp(formats[i]->name, name) == 0) return formats[i];
    return NULL;
}

spira_status spira__format_in(spira_context ctx, const char *kind,
                              const spira__format *const *list, int n, const char *also,
                              const char *name, const spira__format **f)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i]->name, name) == 0) {
            *f = list[i];
            return SPIRA_OK;
        }
    *f = NULL;
    char known[512] = "";
    for (int i = 0; i < n; i++) {
        size_t len = strlen(known);
        snprintf(known + len, sizeof known - len, "%s%s", i ? ", " : "", list[i]->name);
    }
    if (also) snprintf(known + strlen(known), sizeof known - strlen(known), ", %s", also);
    return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown %s format '%s' (known: %s)", kind,
                        name, known);
}

spira_status spira__format_get(spira_context ctx, const char *name, const spira__format **f)
{
    return spira__format_in(ctx, "SpMV", formats, spira__format_total(), "auto", name, f);
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

const char *spira_format_options(int i)
{
    const spira__format *f = spira__format_at(i);
    return !f ? NULL : f->options ? f->options : "";
}
