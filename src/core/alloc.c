/* alloc.c: the allocator every library allocation goes through, with a failure switch for
 * the out-of-memory tests. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kifu_private.h"

/* Atomic, because threads of one program (kifu convert -j) allocate at once; relaxed,
 * because the count orders nothing else. */
static atomic_long fail_at;  /* 0: never fail */
static atomic_long n_allocs; /* allocations since the last kifu__alloc_fail_after */

static int should_fail(void)
{
    long n = atomic_fetch_add_explicit(&n_allocs, 1, memory_order_relaxed) + 1;
    long at = atomic_load_explicit(&fail_at, memory_order_relaxed);
    return at > 0 && n >= at;
}

long kifu__alloc_fail_after(long n)
{
    long was = atomic_exchange_explicit(&n_allocs, 0, memory_order_relaxed);
    atomic_store_explicit(&fail_at, n, memory_order_relaxed);
    return was;
}

int kifu__reserve(void *vp, size_t *cap, size_t need, size_t size, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : first;
    while (c < need) {
        if (c > SIZE_MAX / 2 / size)
            return -1;
        c *= 2;
    }
    void **v = vp;
    void *p = kifu__realloc(*v, c * size);
    if (!p)
        return -1;
    *v = p, *cap = c;
    return 0;
}

void *kifu__malloc(size_t n)
{
    return should_fail() ? NULL : malloc(n ? n : 1);
}

void *kifu__calloc(size_t n, size_t size)
{
    return should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

void *kifu__aligned_alloc(size_t align, size_t size)
{
    void *p = NULL;
    return should_fail() || posix_memalign(&p, align, size ? size : 1) ? NULL : p;
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
