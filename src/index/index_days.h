/* index_days.h: the games of a much played position by day (index_days.c), so that a
 * query with a date range is answered from counts instead of every occurrence. */
#ifndef KIFU_INDEX_DAYS_H
#define KIFU_INDEX_DAYS_H

#include <stdint.h>
#include <stdlib.h>

#include "index/index_private.h"

/* The move of a position's own list (its games, whatever they played): compact moves
 * have 15 bits. */
#define KIFU__DAYS_POSITION 0xffff

/* One day of one move (or of the position): its games, their results and the latest
 * of them (highest id first: on one date a later id is a later game). */
typedef struct kifu__day {
    uint16_t move;
    uint8_t ntop;
    uint32_t date; /* kifu__index_fact >> 3; 0: unknown */
    uint32_t games;
    uint32_t res[6]; /* by KIFU__RES_* */
    uint32_t rated;  /* games whose mover has a rating, */
    uint64_t rsum;   /* and those ratings summed */
    struct {
        uint32_t id;
        uint16_t ply;
    } top[KIFU__INDEX_TOP];
} kifu__day;

/* The days of one key, being counted: entries and stored lists come in game id order
 * (each game later than every game before it). */
typedef struct kifu__days {
    kifu__day *v;
    size_t n, cap;
    uint32_t *slot; /* open addressing on (move, date): index + 1, 0 empty */
    size_t nslot;
} kifu__days;

void kifu__days_init(kifu__days *d);
void kifu__days_free(kifu__days *d);
/* One occurrence, in (game, ply) order: its game counts once for the position and once
 * for each move it played from there (at the first ply it did), with the rating of the
 * player who moves there (0: none). 0, or -1 on NOMEM. */
int kifu__days_add(kifu__days *d, const kifu__ipos *e, int rating);
/* A stored list (kifu__days_encode's) of `move` taken in, before any later game. 0, or
 * -1 for a damaged list or NOMEM. */
int kifu__days_load(kifu__days *d, uint16_t move, const void *blob, size_t len);
/* Sort by (move, date) (no more adds after it); then the records of `move` are
 * d->v[*first..*first + n). */
void kifu__days_sort(kifu__days *d);
size_t kifu__days_of(const kifu__days *d, uint16_t move, size_t *first);
/* The encoding of n days of one move (in date order) into out (kifu__days_bound bytes
 * at least), with each day's latest games unless `tops` is 0 (the position's list). Its
 * length. Little-endian 32-bit words: the days, then per day 11 words (date, and from
 * the first day to this one: games, results 1..5, latest games listed, rated games, the
 * movers' ratings summed as two words, low first), then the latest games of each day
 * (id, 32 bits, and ply, 16). */
size_t kifu__days_bound(size_t n);
size_t kifu__days_encode(const kifu__day *v, size_t n, int tops, uint8_t *out);

/* What a stored list holds between two dates. */
typedef struct kifu__days_sum {
    long long games, res[6];
    long long rated, rating_sum;
    char last_date[11];
    int ntop;
    int32_t top[KIFU__INDEX_TOP * 2]; /* (id, ply) pairs, latest first */
} kifu__days_sum;
/* The games of a stored list with dates from `from` to `to` (the explorer's text bounds,
 * NULL: open; games without a date never pass), found by binary search. 0, or -1 for a
 * damaged list. */
int kifu__days_range(const void *blob, size_t len, const char *from, const char *to,
                     kifu__days_sum *out);

#endif
