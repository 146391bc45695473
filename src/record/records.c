/* records.c: the list of records a reader fills (one per game of the input). */
#include "record/records.h"

#include "kifu_private.h"
#include "record/record.h"

int kifu__records_push(kifu__records *v, kifu_record *r)
{
    kifu__record_set_input(r, v->input);
    if (kifu__reserve(&v->items, &v->cap, v->n + 1, sizeof *v->items, 4)) {
        kifu_record_free(r);
        return -1;
    }
    v->items[v->n++] = r;
    return 0;
}

int kifu__records_push_done(kifu__records *v, kifu_record *r)
{
    if (kifu__records_push(v, r))
        return -1;
    /* In order only: a record pushed unfinished before this one stops the telling. */
    if (v->done && v->ndone == v->n - 1 && v->done(v->done_ctx, r, v->ndone++))
        v->items[v->n - 1] = NULL;
    return 0;
}

void kifu__records_free(kifu__records *v)
{
    for (size_t i = 0; i < v->n; i++)
        kifu_record_free(v->items[i]);
    kifu__free(v->items);
    v->items = NULL;
    v->n = v->cap = 0;
}
