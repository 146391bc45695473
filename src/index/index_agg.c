/* index_agg.c: counting the moves played from one position: games, results, the latest
 * date and the latest games per move. The explorer rows of hot positions are written from
 * it, and queries of other positions run it over their rows. */
#include <stdio.h>
#include <string.h>

#include "index/index_agg.h"
#include "index/index_private.h"
#include "kifu_private.h"
#include "rules/engine.h"

void kifu__agg_init(kifu__agg *a)
{
    memset(a, 0, sizeof *a);
    a->last_game = -1;
}

void kifu__agg_free(kifu__agg *a)
{
    kifu__free(a->m);
    kifu__agg_init(a);
}

static int later(const char *d1, long long id1, const char *d2, long long id2)
{
    int c = strcmp(d1, d2);
    return c > 0 || (c == 0 && id1 > id2);
}

/* The entry of `move`, made when new; NULL on NOMEM. */
static kifu__agg_move *entry(kifu__agg *a, uint16_t move)
{
    kifu__agg_move *m = NULL;
    for (size_t i = 0; i < a->n; i++)
        if (a->m[i].move == move) {
            m = &a->m[i];
            break;
        }
    if (!m) {
        if (kifu__reserve(&a->m, &a->cap, a->n + 1, sizeof *a->m, 16))
            return NULL;
        m = &a->m[a->n++];
        memset(m, 0, sizeof *m);
        m->move = move;
        m->last_game = -1;
    }
    return m;
}

int kifu__agg_merge(kifu__agg *a, uint16_t move, long long games, const long long res[6],
                    long long rating_sum, long long rated, const char *last_date,
                    const int32_t *top, int ntop)
{
    kifu__agg_move *m = entry(a, move);
    if (!m)
        return -1;
    m->games += games;
    m->rating_sum += rating_sum;
    m->rated += rated;
    for (int r = 0; r < 6; r++)
        m->res[r] += res[r];
    if (last_date && strcmp(last_date, m->last_date) > 0)
        snprintf(m->last_date, sizeof m->last_date, "%s", last_date);
    for (int i = 0; i < ntop && m->nmerged < KIFU__INDEX_TOP * 2; i++) {
        m->merged[m->nmerged].id = top[2 * i];
        m->merged[m->nmerged++].ply = top[2 * i + 1];
    }
    return 0;
}

int kifu__agg_add(kifu__agg *a, uint16_t move, long long game, int ply, int result,
                  const char *date, int rating)
{
    if (game != a->last_game)
        a->games++, a->last_game = game;
    if (!move)
        return 0; /* the game ended here: it counts for the position only */
    kifu__agg_move *m = entry(a, move);
    if (!m)
        return -1;
    if (game == m->last_game)
        return 0; /* a repetition within one game counts once */
    m->last_game = game;
    m->games++;
    m->res[result >= 0 && result < 6 ? result : 0]++;
    if (rating > 0)
        m->rating_sum += rating, m->rated++;
    if (!date)
        date = "";
    if (strcmp(date, m->last_date) > 0)
        snprintf(m->last_date, sizeof m->last_date, "%s", date);
    /* Keep the KIFU__INDEX_TOP latest games, latest first. */
    int i = m->ntop < KIFU__INDEX_TOP ? m->ntop++ : KIFU__INDEX_TOP;
    if (i == KIFU__INDEX_TOP) {
        if (!later(date, game, m->top[i - 1].date, m->top[i - 1].id))
            return 0;
        i--;
    }
    while (i > 0 && later(date, game, m->top[i - 1].date, m->top[i - 1].id)) {
        m->top[i] = m->top[i - 1];
        i--;
    }
    m->top[i].id = game;
    m->top[i].ply = ply;
    snprintf(m->top[i].date, sizeof m->top[i].date, "%s", date);
    return 0;
}

static int by_games(const void *x, const void *y)
{
    const kifu__agg_move *a = x, *b = y;
    if (a->games != b->games)
        return a->games < b->games ? 1 : -1;
    return a->move < b->move ? -1 : a->move > b->move;
}

void kifu__agg_sort(kifu__agg *a)
{
    if (a->n) /* no move: no array, and qsort wants one */
        qsort(a->m, a->n, sizeof *a->m, by_games);
}

int kifu__explore_passes(const kifu_explore_options *o, const kifu__game_attrs *g,
                         int flipped)
{
    const char *sente = flipped ? g->gote : g->sente;
    const char *gote = flipped ? g->sente : g->gote;
    /* The players by key: the whole key, or a part of it. */
    for (int like = 0; like < 2; like++) {
        const char *want = like ? o->player_like : o->player;
        if (!want)
            continue;
        int as_s = sente && (like ? strstr(sente, want) != NULL : !strcmp(sente, want));
        int as_g = gote && (like ? strstr(gote, want) != NULL : !strcmp(gote, want));
        if (o->player_color == 1 ? !as_s : o->player_color == 2 ? !as_g : !(as_s || as_g))
            return 0;
    }
    if ((o->date_from || o->date_to) && !g->date)
        return 0;
    if (o->date_from && strcmp(g->date, o->date_from) < 0)
        return 0;
    if (o->date_to && strncmp(g->date, o->date_to, 10) > 0)
        return 0;
    if (o->event && (!g->event || !strstr(g->event, o->event)))
        return 0;
    /* A rating of 0 is no rating (the index stores NULL for it). */
    if (o->min_rating > 0 && (g->sente_rating <= 0 || g->sente_rating < o->min_rating ||
                              g->gote_rating <= 0 || g->gote_rating < o->min_rating))
        return 0;
    return 1;
}

int kifu__first_mover(int preset, const char *sfen)
{
    if (preset >= 0 && preset < KIFU_PRESET_OTHER)
        return preset == KIFU_PRESET_HIRATE ? KIFU_BLACK : KIFU_WHITE;
    /* An SFEN: board, then the side to move ("b" or "w"). */
    if (sfen && !strncmp(sfen, "sfen ", 5))
        sfen += 5;
    const char *sp = sfen ? strchr(sfen, ' ') : NULL;
    return sp && sp[1] == 'w' ? KIFU_WHITE : KIFU_BLACK;
}

uint16_t kifu__flip_move(uint16_t c)
{
    int to = c & 0x7f, from = (c >> 7) & 0x7f;
    return (uint16_t)((c & 0x4000) | (80 - to) |
                      ((from < SQ_NB ? 80 - from : from) << 7));
}

int kifu__flip_result(int r, int flipped)
{
    if (!flipped)
        return r;
    return r == KIFU__RES_SENTE  ? KIFU__RES_GOTE
           : r == KIFU__RES_GOTE ? KIFU__RES_SENTE
                                 : r;
}

int32_t (*kifu__movers_ratings(const kifu__igame *games, size_t n))[2]
{
    int32_t(*r)[2] = n ? kifu__calloc(n, sizeof *r) : NULL;
    for (size_t i = 0; r && i < n; i++) {
        int first = kifu__first_mover(games[i].handicap, games[i].start);
        for (int p = 0; p < 2; p++)
            r[i][p] =
                kifu__mover_rating(first, p, games[i].sente_rating, games[i].gote_rating);
    }
    return r;
}
