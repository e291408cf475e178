/* test_eigen.c - power iteration and PageRank. */
#include "testutil.h"

Suite *suite_eigen(void)
{
    Suite *s = suite_create("eigen");
    return s;
}
