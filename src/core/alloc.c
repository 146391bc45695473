/* alloc.c: the allocator every library allocation goes through, with a failure switch for
 * the out-of-memory tests (jansson's test_chaos idea). */
#include <stdlib.h>
#include <string.h>

#include "kifu_private.h"

static long fail_at;  /* 0: never fail */
static long n_allocs; /* allocations since the last kifu__alloc_fail_after */

static int should_fail(void)
{
    n_allocs++;
    return fail_at > 0 && n_allocs >= fail_at;
}

long kifu__alloc_fail_after(long n)
{
    long was = n_allocs;
    fail_at = n;
    n_allocs = 0;
    return was;
}

void *kifu__malloc(size_t n)
{
    return should_fail() ? NULL : malloc(n ? n : 1);
}

void *kifu__calloc(size_t n, size_t size)
{
    return should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

void *kifu__realloc(void *p, size_t n)
{
    return should_fail() ? NULL : realloc(p, n ? n : 1);
}

void kifu__free(void *p)
{
    free(p);
}

void kifu_free(void *p)
{
    free(p);
}

char *kifu__strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = kifu__malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}
