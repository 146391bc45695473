/* arena.c: bump allocation in growing chunks, all released at once. */
#include "core/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kifu_private.h"

struct kifu__chunk {
    kifu__chunk *next;
    size_t cap;
    _Alignas(16) unsigned char data[];
};

enum { FIRST_CHUNK = 4096, MAX_CHUNK = 1 << 20 };

void kifu__arena_init(kifu__arena *a)
{
    a->head = NULL;
    a->base = NULL;
    a->used = 0;
    a->cap = 0;
}

void kifu__arena_free(kifu__arena *a)
{
    kifu__chunk *c = a->head;
    while (c) {
        kifu__chunk *next = c->next;
        kifu__free(c);
        c = next;
    }
    kifu__arena_init(a);
}

/* A new head chunk with its first size bytes taken (not zeroed); NULL on NOMEM. */
static void *new_chunk(kifu__arena *a, size_t size)
{
    /* Chunks double up to a limit so that small records stay small. */
    size_t want = a->head ? a->head->cap * 2 : FIRST_CHUNK;
    if (want > MAX_CHUNK)
        want = MAX_CHUNK;
    if (want < size)
        want = size;
    kifu__chunk *c = kifu__malloc(sizeof *c + want);
    if (!c)
        return NULL;
    c->next = a->head;
    c->cap = want;
    a->head = c;
    a->base = c->data;
    a->used = size;
    a->cap = want;
    return c->data;
}

void *kifu__arena_alloc_chunk(kifu__arena *a, size_t size)
{
    void *p = new_chunk(a, size);
    if (p)
        memset(p, 0, size);
    return p;
}

void *kifu__arena_alloc_raw(kifu__arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (a->cap - a->used < size)
        return new_chunk(a, size);
    void *p = a->base + a->used;
    a->used += size;
    return p;
}

char *kifu__arena_strndup(kifu__arena *a, const char *s, size_t len)
{
    char *p = kifu__arena_alloc(a, len + 1);
    if (!p)
        return NULL;
    memcpy(p, s, len);
    p[len] = 0;
    return p;
}

char *kifu__arena_strdup(kifu__arena *a, const char *s)
{
    return kifu__arena_strndup(a, s, strlen(s));
}

void kifu__arena_adopt(kifu__arena *dst, kifu__arena *src)
{
    if (!src->head)
        return;
    if (!dst->head) {
        *dst = *src;
    } else {
        kifu__chunk *tail = src->head;
        while (tail->next)
            tail = tail->next;
        tail->next = dst->head->next;
        dst->head->next = src->head;
    }
    kifu__arena_init(src);
}
