/* index_listing.h: a hot position's listed games (index_listing.c). */
#ifndef KIFU_INDEX_LISTING_H
#define KIFU_INDEX_LISTING_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "index/backend.h"

/* Listed games, by id: the rows of one or more listings loaded (their strings in the
 * copies of the listings kept here), or gathered to be written. */
typedef struct kifu__listing {
    kifu__explore_row *v;
    size_t n, cap;
    int sorted;    /* v is in id order, each id once */
    void **chunks; /* the loaded listings' copies, each with its strings' pointers */
    size_t nchunks, capchunks;
    /* the encoder's: string references per row, interned strings and their table */
    uint32_t *refs;
    size_t caprefs;
    const char **str;
    size_t nstr, capstr;
    uint32_t *slot;
    size_t nslot;
    uint8_t *out;
    size_t capout;
} kifu__listing;

void kifu__listing_init(kifu__listing *l);
void kifu__listing_free(kifu__listing *l);
/* Rows and loaded listings dropped, the storage kept. */
void kifu__listing_clear(kifu__listing *l);
/* The rows of a stored listing (`listing.games`) added to l, their strings copied. 0, -1
 * out of memory, or -2 when it does not decode (damaged). */
int kifu__listing_load(kifu__listing *l, const void *blob, size_t len);
/* The listing of key added to l, by st (`SELECT games FROM listing WHERE key=?`): 0
 * (also when it has none), -1 NOMEM, -2 damaged, -3 an SQLite error. */
int kifu__listing_read(kifu__listing *l, sqlite3_stmt *st, uint64_t key);
/* The row of game id (sorting l first when rows were added), or NULL. */
const kifu__explore_row *kifu__listing_find(kifu__listing *l, long long id);
/* A row added (its strings borrowed until kifu__listing_encode). 0, or -1 NOMEM. */
int kifu__listing_add(kifu__listing *l, const kifu__explore_row *g);
/* The rows as a listing's bytes, in id order (each id once, strings written once): the
 * same bytes for the same rows in any order. *out (l's) holds *len bytes. 0, or -1. */
int kifu__listing_encode(kifu__listing *l, const uint8_t **out, size_t *len);

#endif
