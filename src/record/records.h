/* records.h: the list of records a reader fills, one per game of its input
 * (records.c). The readers (fmt/) fill it; kifu_read hands its records on. */
#ifndef KIFU_RECORD_RECORDS_H
#define KIFU_RECORD_RECORDS_H

#include <stddef.h>

#include "kifu.h"

typedef struct kifu__records {
    kifu_record **items;
    size_t n, cap;
    /* Optional: told of each record a reader pushed complete (kifu__records_push_done)
     * while the reader goes on, so the caller can work on it while it is still in the
     * cache (a search normalizes it); `ndone` counts them. The reader never touches a
     * record again once it is told. Nonzero: done took the record (its slot in items is
     * NULL from then on), so its memory serves the next one. */
    int (*done)(void *ctx, kifu_record *r, size_t index);
    void *done_ctx;
    size_t ndone;
    /* The decoded input: each record pushed holds a reference until it is normalized
     * (or freed). NULL: none. */
    struct kifu__input *input;
} kifu__records;

/* Append r (ownership passes to the vector). 0, or -1 (r is freed). */
int kifu__records_push(kifu__records *v, kifu_record *r);
/* The same for a record the reader has finished: done, if set, is told of it. */
int kifu__records_push_done(kifu__records *v, kifu_record *r);
/* Free every record and the array. */
void kifu__records_free(kifu__records *v);

#endif
