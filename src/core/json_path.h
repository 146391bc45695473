/* json_path.h: the JSON path of the value a reader is at (`moves[12].move.to.x`), which
 * its error messages name: push a segment, read the value, pop back to the length the
 * push returned. Shared by the JKF reader (fmt/jkf_read.c) and the MSF reader
 * (msf/read.c). Inline: the JKF reader pushes an index for every move. */
#ifndef KIFU_CORE_JSON_PATH_H
#define KIFU_CORE_JSON_PATH_H

#include <stddef.h>
#include <string.h>

typedef struct kifu__json_path {
    char s[512]; /* NUL-terminated; "" at the top level */
    size_t len;
} kifu__json_path;

/* Appends n bytes, cut at the buffer's end (a path only names a place). */
static inline void kifu__json_path_add(kifu__json_path *p, const char *s, size_t n)
{
    size_t room = sizeof p->s - 1 - p->len;
    if (n > room)
        n = room;
    memcpy(p->s + p->len, s, n);
    p->len += n;
    p->s[p->len] = 0;
}

/* `.key` (`key` at the top level). Returns the length before, for kifu__json_path_pop. */
static inline size_t kifu__json_path_key(kifu__json_path *p, const char *key)
{
    size_t old = p->len;
    if (old)
        kifu__json_path_add(p, ".", 1);
    kifu__json_path_add(p, key, strlen(key));
    return old;
}

/* `[i]`. Returns the length before. */
static inline size_t kifu__json_path_index(kifu__json_path *p, size_t i)
{
    size_t old = p->len;
    char buf[24], *q = buf + sizeof buf;
    *--q = ']';
    do {
        *--q = (char)('0' + i % 10);
        i /= 10;
    } while (i);
    *--q = '[';
    kifu__json_path_add(p, q, (size_t)(buf + sizeof buf - q));
    return old;
}

/* Back to the length a push returned (0: the top level). */
static inline void kifu__json_path_pop(kifu__json_path *p, size_t old)
{
    p->len = old;
    p->s[old] = 0;
}

#endif
