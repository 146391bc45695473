/* arena.h: a bump allocator; one per record owns every node, string and array in it. */
#ifndef KIFU_ARENA_H
#define KIFU_ARENA_H

#include <stddef.h>

typedef struct kifu__chunk kifu__chunk;

typedef struct kifu__arena {
    kifu__chunk *head;
    size_t used; /* bytes used in head */
    size_t cap;  /* bytes available in head */
} kifu__arena;

void kifu__arena_init(kifu__arena *a);
void kifu__arena_free(kifu__arena *a);
/* Zeroed memory, 16-byte aligned; NULL on NOMEM. */
void *kifu__arena_alloc(kifu__arena *a, size_t size);
/* Copy of s (len bytes, NUL added); NULL on NOMEM. */
char *kifu__arena_strndup(kifu__arena *a, const char *s, size_t len);
char *kifu__arena_strdup(kifu__arena *a, const char *s);

#endif
