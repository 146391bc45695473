/* arena.h: a bump allocator; one per record owns every node, string and array in it. */
#ifndef KIFU_ARENA_H
#define KIFU_ARENA_H

#include <stddef.h>
#include <string.h>

typedef struct kifu__chunk kifu__chunk;

typedef struct kifu__arena {
    kifu__chunk *head;
    unsigned char *base; /* head's data */
    size_t used;         /* bytes used in head */
    size_t cap;          /* bytes available in head */
} kifu__arena;

void kifu__arena_init(kifu__arena *a);
void kifu__arena_free(kifu__arena *a);
/* kifu__arena_alloc when the head chunk is full: a new chunk. */
void *kifu__arena_alloc_chunk(kifu__arena *a, size_t size);

/* Zeroed memory, 16-byte aligned; NULL on NOMEM. Inline: a reader allocates a node per
 * move, and with the size known at the call the zeroing is a few stores, not a call. */
static inline void *kifu__arena_alloc(kifu__arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (a->cap - a->used < size)
        return kifu__arena_alloc_chunk(a, size);
    void *p = a->base + a->used;
    a->used += size;
    memset(p, 0, size);
    return p;
}

/* The same, not zeroed (for arrays whose entries are written before they are read). */
void *kifu__arena_alloc_raw(kifu__arena *a, size_t size);

/* Copy of s (len bytes, NUL added); NULL on NOMEM. */
char *kifu__arena_strndup(kifu__arena *a, const char *s, size_t len);
char *kifu__arena_strdup(kifu__arena *a, const char *s);
/* Every chunk of src given to dst (dst frees them; its head stays the one it allocates
 * from), src left empty: memory made on one thread handed to another's arena. */
void kifu__arena_adopt(kifu__arena *dst, kifu__arena *src);

#endif
