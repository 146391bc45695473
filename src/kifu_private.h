/* kifu_private.h: declarations shared across the library's files (kifu__ prefix). */
#ifndef KIFU_PRIVATE_H
#define KIFU_PRIVATE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kifu.h"

/* Every allocation goes through these, so tests can make the n-th one fail. */
void *kifu__malloc(size_t n);
void *kifu__calloc(size_t n, size_t size);
/* size bytes aligned to align (a power of two, a multiple of sizeof(void *)); freed with
 * kifu__free. NULL on NOMEM. */
void *kifu__aligned_alloc(size_t align, size_t size);
void *kifu__realloc(void *p, size_t n);
void kifu__free(void *p);
char *kifu__strdup(const char *s);
/* Make the array *vp (elements of `size`) hold at least `need`, doubling from `first`;
 * -1 when out of memory (the array is left as it was). */
int kifu__reserve(void *vp, size_t *cap, size_t need, size_t size, size_t first);
/* Tests: make allocation number n (1-based, counted from now) and all after it fail;
 * 0 turns failures off. Returns the number of allocations since the last call. */
long kifu__alloc_fail_after(long n);

/* Fill err unless it is NULL or already holds an error (the first error wins). `expected`
 * and `found` may be NULL. Always returns -1 so callers can `return kifu__error(...)`. */
int kifu__error(kifu_error *err, int code, int line, int column, size_t offset,
                const char *expected, const char *found, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
/* Set err->source if it is empty (readers call this with the file name). */
void kifu__error_source(kifu_error *err, const char *source);
/* A formatted warning through a reader's or writer's warn callback (NULL: none). */
void kifu__warn(void (*warn)(void *, const char *), void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A 1 in the low bit of each byte of w (8 bytes of UTF-8 text, loaded as they lie in
 * memory) that is a continuation byte (10xxxxxx: bit 7 set, bit 6 clear): the characters
 * of the 8 bytes are 8 less the sum of the lanes, kifu__utf8_lanes_sum. */
static inline uint64_t kifu__utf8_cont_lanes(uint64_t w)
{
    return (w & ~(w << 1) & 0x8080808080808080ull) >> 7;
}

/* The sum of the byte lanes of v, each lane at most 31 (one multiply). */
static inline size_t kifu__utf8_lanes_sum(uint64_t v)
{
    return (size_t)((v * 0x0101010101010101ull) >> 56);
}

/* Number of characters (code points) in the first `bytes` bytes of UTF-8 text: turns byte
 * offsets into the 1-based columns of error messages. Inline, 8 bytes a step: readers note
 * the column of every move, and a byte loop cost KI2 reading 5% of its time. A character
 * is a byte that is not a continuation byte (10xxxxxx). */
static inline int kifu__utf8_column(const char *line_start, size_t bytes)
{
    size_t i = 0, cont = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t w;
        memcpy(&w, line_start + i, 8); /* a fixed size: one load, no call */
        cont += kifu__utf8_lanes_sum(kifu__utf8_cont_lanes(w));
    }
    for (; i < bytes; i++)
        cont += ((unsigned char)line_start[i] & 0xC0) == 0x80;
    return (int)(bytes - cont) + 1;
}
/* Line (1-based) and column (1-based, in characters) of byte `off` of UTF-8 text. */
void kifu__text_where(const char *text, size_t off, int *line, int *col);
/* A reader's place in its text for offsets that only grow (each move of a record): the
 * line and column of each in time linear in the text, where kifu__text_where would start
 * over every call. Starts as {0, 1, 1}. */
typedef struct kifu__text_cursor {
    size_t off;
    int line, col;
} kifu__text_cursor;
/* Moves c to byte `off` of text (back to the start first when off is behind it). */
void kifu__text_cursor_to(kifu__text_cursor *c, const char *text, size_t off);
/* The next line of [*s, end) that is not blank, without its line end and surrounding
 * blanks (start returned, *eol its end); *s moves past it. NULL at the end. */
const char *kifu__next_line(const char **s, const char *end, const char **eol);

#endif
