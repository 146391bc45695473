/* index_listing.c: a hot position's listed games kept beside its explorer rows (the
 * `listing` table): for each game its explorer rows list (their top games), what the
 * explorer prints of it. An answer then reads its listed games in one row instead of a
 * games row (a B-tree seek, and one for its file's path) for each of up to 150 games,
 * three quarters of the time of a position near the start. Written with the hot rows
 * (index_runs.c), read by the explorer (index_sqlite_explore.c). The bytes:
 *
 *   byte    1 (the format)
 *   varint  strings, then each NUL-terminated (each distinct text once: the event, the
 *           files and the dates repeat)
 *   varint  games, then each in id order: varint id delta (the first from 0), varint
 *           number, varint result, and five varints: sente, gote, date, event, file
 *           (0: none, k: the k-th string) */
#include <stdlib.h>
#include <string.h>

#include "index/index_listing.h"
#include "index/index_private.h"
#include "kifu_private.h"

void kifu__listing_init(kifu__listing *l)
{
    memset(l, 0, sizeof *l);
    l->sorted = 1;
}

void kifu__listing_clear(kifu__listing *l)
{
    for (size_t i = 0; i < l->nchunks; i++)
        kifu__free(l->chunks[i]);
    l->nchunks = l->n = 0;
    l->sorted = 1;
}

void kifu__listing_free(kifu__listing *l)
{
    kifu__listing_clear(l);
    kifu__free(l->chunks), kifu__free(l->v), kifu__free(l->refs);
    kifu__free(l->str), kifu__free(l->slot), kifu__free(l->out);
    kifu__listing_init(l);
}

int kifu__listing_add(kifu__listing *l, const kifu__explore_row *g)
{
    if (kifu__reserve(&l->v, &l->cap, l->n + 1, sizeof *l->v, 64))
        return -1;
    l->v[l->n++] = *g;
    l->sorted = 0;
    return 0;
}

/* The rows of blob (its strings: str[0..nstr)) added to l. 0, or -2 damaged. */
static int load_rows(kifu__listing *l, const uint8_t *p, const uint8_t *end,
                     const char *const *str, uint64_t nstr)
{
    uint64_t n, id = 0;
    if (kifu__get_varint(&p, end, &n) || n > (uint64_t)(end - p))
        return -2;
    if (kifu__reserve(&l->v, &l->cap, l->n + (size_t)n, sizeof *l->v, 64))
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t d, number, result, ref[5];
        if (kifu__get_varint(&p, end, &d) || kifu__get_varint(&p, end, &number) ||
            kifu__get_varint(&p, end, &result) || number > INT32_MAX || result > 255)
            return -2;
        for (int k = 0; k < 5; k++)
            if (kifu__get_varint(&p, end, &ref[k]) || ref[k] > nstr)
                return -2;
        id += d;
        const char *s[5];
        for (int k = 0; k < 5; k++)
            s[k] = ref[k] ? str[ref[k] - 1] : NULL;
        l->v[l->n++] = (kifu__explore_row){(long long)id, s[0], s[1],        s[2],
                                           s[3],          s[4], (int)number, (int)result};
    }
    l->sorted = l->sorted && l->n == n;
    return p == end ? 0 : -2;
}

int kifu__listing_read(kifu__listing *l, sqlite3_stmt *st, uint64_t key)
{
    sqlite3_bind_int64(st, 1, (sqlite3_int64)key);
    int s = sqlite3_step(st), rc = 0;
    if (s == SQLITE_ROW)
        rc = kifu__listing_load(l, sqlite3_column_blob(st, 0),
                                (size_t)sqlite3_column_bytes(st, 0));
    sqlite3_reset(st);
    return rc ? rc : s == SQLITE_ROW || s == SQLITE_DONE ? 0 : -3;
}

int kifu__listing_load(kifu__listing *l, const void *blob, size_t len)
{
    const uint8_t *b = blob, *p = b + 1, *end = b + len;
    uint64_t nstr;
    if (!len || b[0] != 1 || kifu__get_varint(&p, end, &nstr) ||
        nstr > (uint64_t)(end - p))
        return -2;
    /* One allocation: the strings' pointers, then the listing's bytes. */
    size_t head = (size_t)nstr * sizeof(char *);
    char *chunk = kifu__malloc(head + len + 1);
    if (!chunk ||
        kifu__reserve(&l->chunks, &l->capchunks, l->nchunks + 1, sizeof *l->chunks, 4)) {
        kifu__free(chunk);
        return -1;
    }
    l->chunks[l->nchunks++] = chunk;
    const char **str = (const char **)(void *)chunk;
    uint8_t *copy = (uint8_t *)chunk + head;
    memcpy(copy, b, len);
    copy[len] = 0;
    p = copy + (p - b), end = copy + len;
    for (uint64_t i = 0; i < nstr; i++) {
        const uint8_t *z = memchr(p, 0, (size_t)(end - p));
        if (!z)
            return -2;
        str[i] = (const char *)p;
        p = z + 1;
    }
    return load_rows(l, p, end, str, nstr);
}

static int by_id(const void *x, const void *y)
{
    const kifu__explore_row *a = x, *b = y;
    return (a->id > b->id) - (a->id < b->id);
}

/* l's rows in id order, each id once. */
static void sort_rows(kifu__listing *l)
{
    if (l->sorted)
        return;
    qsort(l->v, l->n, sizeof *l->v, by_id);
    size_t m = 0;
    for (size_t i = 0; i < l->n; i++)
        if (!m || l->v[i].id != l->v[m - 1].id)
            l->v[m++] = l->v[i];
    l->n = m;
    l->sorted = 1;
}

const kifu__explore_row *kifu__listing_find(kifu__listing *l, long long id)
{
    sort_rows(l);
    kifu__explore_row k = {.id = id};
    return l->n ? bsearch(&k, l->v, l->n, sizeof *l->v, by_id) : NULL;
}

/* The reference of s (0 for NULL) in l's strings, added when new. */
static uint32_t intern(kifu__listing *l, const char *s, size_t *bytes)
{
    if (!s)
        return 0;
    uint64_t h = 14695981039346656037u;
    for (const char *c = s; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211u;
    size_t i = (size_t)h & (l->nslot - 1);
    for (; l->slot[i]; i = (i + 1) & (l->nslot - 1))
        if (!strcmp(l->str[l->slot[i] - 1], s))
            return l->slot[i];
    l->str[l->nstr++] = s;
    *bytes += strlen(s) + 1;
    return l->slot[i] = (uint32_t)l->nstr;
}

int kifu__listing_encode(kifu__listing *l, const uint8_t **out, size_t *len)
{
    sort_rows(l);
    size_t nslot = 16;
    while (nslot < l->n * 10 + 1)
        nslot *= 2;
    if (kifu__reserve(&l->refs, &l->caprefs, l->n * 5 + 1, sizeof *l->refs, 256) ||
        kifu__reserve(&l->str, &l->capstr, l->n * 5 + 1, sizeof *l->str, 256))
        return -1;
    if (nslot > l->nslot) {
        kifu__free(l->slot);
        if (!(l->slot = kifu__malloc(nslot * sizeof *l->slot))) {
            l->nslot = 0;
            return -1;
        }
        l->nslot = nslot;
    }
    memset(l->slot, 0, l->nslot * sizeof *l->slot);
    l->nstr = 0;
    size_t bytes = 0;
    for (size_t i = 0; i < l->n; i++) {
        const kifu__explore_row *g = &l->v[i];
        const char *s[5] = {g->sente, g->gote, g->date, g->event, g->source};
        for (int k = 0; k < 5; k++)
            l->refs[5 * i + k] = intern(l, s[k], &bytes);
    }
    /* Each row at most 8 varints of 10 bytes. */
    if (kifu__reserve(&l->out, &l->capout, 21 + bytes + l->n * 80, 1, 4096))
        return -1;
    uint8_t *o = l->out;
    *o++ = 1;
    kifu__put_varint(&o, l->nstr);
    for (size_t i = 0; i < l->nstr; i++) {
        size_t n = strlen(l->str[i]) + 1;
        memcpy(o, l->str[i], n);
        o += n;
    }
    kifu__put_varint(&o, l->n);
    long long id = 0;
    for (size_t i = 0; i < l->n; i++) {
        const kifu__explore_row *g = &l->v[i];
        kifu__put_varint(&o, (uint64_t)(g->id - id));
        kifu__put_varint(&o, (uint64_t)(uint32_t)g->number);
        kifu__put_varint(&o, (uint64_t)(uint8_t)g->result);
        for (int k = 0; k < 5; k++)
            kifu__put_varint(&o, l->refs[5 * i + k]);
        id = g->id;
    }
    *out = l->out, *len = (size_t)(o - l->out);
    return 0;
}
