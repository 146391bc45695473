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
    /* The ratings of the players who made the move, summed over its games that give
     * one (rated of them): the explorer's average rating. */
    long long rating_sum, rated;
    char last_date[11];
    long long last_game;
    int ntop; /* the latest games counted here (kifu__agg_add), latest first */
    struct {
        long long id;
        int ply;
        char date[11];
    } top[KIFU__INDEX_TOP];
    /* The latest games of precomputed counts (kifu__agg_merge), dates not known yet:
     * kept apart, so that games counted here never push out a later one of them. */
    int nmerged;
    struct {
        long long id;
        int ply;
    } merged[KIFU__INDEX_TOP * 2];
} kifu__agg_move;

typedef struct kifu__agg {
    kifu__agg_move *m;
    size_t n, cap;
    long long games; /* distinct games through the position */
    long long last_game;
} kifu__agg;

void kifu__agg_init(kifu__agg *a);
void kifu__agg_free(kifu__agg *a);
/* One occurrence: game `game` stood here and played `move` (0: it ended here), rating
 * the rating of the player who played it (0: none). Rows must come grouped by game (as
 * (key, game, ply) order gives them). 0, or -1 on NOMEM. */
int kifu__agg_add(kifu__agg *a, uint16_t move, long long game, int ply, int result,
                  const char *date, int rating);
/* Counts precomputed for one move (a hot position's explorer row): games, results by
 * KIFU__RES_*, the movers' ratings summed over the rated games, the latest date and the
 * latest games (id, ply pairs). 0, or -1. */
int kifu__agg_merge(kifu__agg *a, uint16_t move, long long games, const long long res[6],
                    long long rating_sum, long long rated, const char *last_date,
                    const int32_t *top, int ntop);
/* Most played first. */
void kifu__agg_sort(kifu__agg *a);

#include "index/index_days.h"
/* A hot key's rows of a batch counted on the lanes' helper (index_lanes.c), and by day
 * (not sorted: the writer sorts them as it does its own, and takes them only for a key
 * of kifu__index_dated games or more). */
typedef struct kifu__lane_count {
    kifu__agg a;
    kifu__days d;
    long games; /* distinct games */
} kifu__lane_count;

/* What the explorer's filters look at in a game (NULL: not known; ratings 0: none):
 * sente and gote are the players' keys (kifu__player_parse). */
typedef struct kifu__game_attrs {
    const char *sente, *gote, *date, *event;
    int sente_rating, gote_rating;
} kifu__game_attrs;
/* Does the game pass the filters of o? flipped: it is counted for the colour-flipped
 * position, so its players swap sides. */
int kifu__explore_passes(const kifu_explore_options *o, const kifu__game_attrs *g,
                         int flipped);
/* The colour that moves first in a game that starts from preset (kifu_preset; OTHER or
 * -1: from sfen, NULL meaning the even start): KIFU_BLACK or KIFU_WHITE. The player who
 * moves at ply p is that colour when p is even. */
int kifu__first_mover(int preset, const char *sfen);
/* The rating of the player who moves at `ply` (0: none), the game's first mover and
 * the players' ratings given. */
static inline int kifu__mover_rating(int first, int ply, int sente_rating,
                                     int gote_rating)
{
    return (first ^ (ply & 1)) ? gote_rating : sente_rating;
}
/* The movers' ratings at even and odd plies (kifu__mover_rating) of n batch games: a new
 * array by the games' places, freed with kifu__free; NULL when n is 0 or out of memory. */
struct kifu__igame;
int32_t (*kifu__movers_ratings(const struct kifu__igame *games, size_t n))[2];
/* A compact move of the flipped position, turned back. */
uint16_t kifu__flip_move(uint16_t c);
/* Results seen from the flipped side swap winners. */
int kifu__flip_result(int r, int flipped);

#endif
