/* index_agg.h: the moves played from one position, counted (index_agg.c). */
#ifndef KIFU_INDEX_AGG_H
#define KIFU_INDEX_AGG_H

#include <stdint.h>
#include <stdlib.h>

#include "index/index_private.h"

typedef struct kifu__agg_move {
    uint16_t move; /* compact move */
    long long games;
    long long res[6]; /* by KIFU__RES_* */
    char last_date[11];
    long long last_game;
    int ntop;
    struct {
        long long id;
        int ply;
        char date[11]; /* "" when not known yet (merged from precomputed rows) */
    } top[KIFU__INDEX_TOP * 2];
} kifu__agg_move;

typedef struct kifu__agg {
    kifu__agg_move *m;
    size_t n, cap;
    long long games; /* distinct games through the position */
    long long last_game;
} kifu__agg;

void kifu__agg_init(kifu__agg *a);
void kifu__agg_free(kifu__agg *a);
/* One occurrence: game `game` stood here and played `move` (0: it ended here). Rows must
 * come grouped by game (as (key, game, ply) order gives them). 0, or -1 on NOMEM. */
int kifu__agg_add(kifu__agg *a, uint16_t move, long long game, int ply, int result,
                  const char *date);
/* Counts precomputed for one move (a hot position's explorer row): games, results by
 * KIFU__RES_*, the latest date and the latest games (id, ply pairs). 0, or -1. */
int kifu__agg_merge(kifu__agg *a, uint16_t move, long long games, const long long res[6],
                    const char *last_date, const int32_t *top, int ntop);
/* Most played first. */
void kifu__agg_sort(kifu__agg *a);

#endif
