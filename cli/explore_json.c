/* explore_json.c: the explorer's answer as JSON, one writer for `kifu explore --json`
 * and `kifu serve`'s /api/explore, so that the two can never differ. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *result_word(int r)
{
    static const char *const words[] = {"unfinished", "sente won", "gote won",
                                        "千日手",     "持将棋",    "draw"};
    return r >= 0 && r <= KIFU_RESULT_DRAW ? words[r] : "?";
}

static double share(long long part, long long whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The move number an SFEN (or a USI line's) ends its position with: 1 when none. */
int cli_sfen_number(const char *s)
{
    const char *m = s ? strstr(s, " moves") : NULL;
    size_t n = s ? (m ? (size_t)(m - s) : strlen(s)) : 0;
    while (n && s[n - 1] == ' ')
        n--;
    size_t k = n;
    while (k && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    return k < n && k && s[k - 1] == ' ' ? atoi(s + k) : 1;
}

/* A member's name (with what comes before it) and its value. */
static void json_text(cli_out *o, const char *name, const char *s)
{
    cli_out_str(o, name);
    cli_out_json(o, s);
}

static void json_int(cli_out *o, const char *name, long long v)
{
    cli_out_str(o, name);
    cli_out_int(o, v);
}

/* Written through a cli_out (integers by hand, one stdio call a buffer): a fprintf for
 * each field was most of an answer's time after its counts (issue 30). */
void cli_explore_json(FILE *f, const char *sfen, const kifu_explore *x, int no_games)
{
    long long total = 0;
    for (size_t i = 0; i < kifu_explore_count(x); i++)
        total += kifu_explore_move_at(x, i)->games;
    cli_out out, *o = &out;
    o->f = f, o->n = 0;
    cli_out_str(o, "{\"sfen\":");
    cli_out_json(o, sfen);
    cli_out_str(o, ",\"games\":");
    cli_out_int(o, kifu_explore_games(x));
    cli_out_str(o, ",\"moves\":[");
    for (size_t i = 0; i < kifu_explore_count(x); i++) {
        const kifu_explore_move *m = kifu_explore_move_at(x, i);
        char pct[32];
        snprintf(pct, sizeof pct, "%.1f", share(m->games, total));
        cli_out_str(o, i ? ",{\"usi\":\"" : "{\"usi\":\"");
        cli_out_str(o, m->usi);
        cli_out_str(o, "\",\"move\":");
        cli_out_json(o, m->text);
        json_int(o, ",\"games\":", m->games);
        cli_out_str(o, ",\"share\":");
        cli_out_str(o, pct);
        json_int(o, ",\"sente_wins\":", m->sente_wins);
        json_int(o, ",\"gote_wins\":", m->gote_wins);
        json_int(o, ",\"draws\":", m->sennichite + m->jishogi + m->draws);
        json_int(o, ",\"sennichite\":", m->sennichite);
        json_int(o, ",\"jishogi\":", m->jishogi);
        json_int(o, ",\"other_draws\":", m->draws);
        json_int(o, ",\"unfinished\":", m->unknown);
        cli_out_str(o, ",\"last_date\":");
        cli_out_json(o, m->last_date[0] ? m->last_date : NULL);
        /* The mean rating of the players who made the move, over its rated games. */
        cli_out_str(o, ",\"avg_rating\":");
        if (m->rated)
            cli_out_int(o, m->avg_rating);
        else
            cli_out_str(o, "null");
        cli_out_str(o, ",\"rated_games\":");
        cli_out_int(o, m->rated);
        if (no_games) {
            cli_out_str(o, "}");
            continue;
        }
        cli_out_str(o, ",\"top\":[");
        for (size_t k = 0; k < m->ntop; k++) {
            const kifu_explore_game *g = &m->top[k];
            json_text(o, k ? ",{\"sente\":" : "{\"sente\":", g->sente);
            json_text(o, ",\"gote\":", g->gote);
            json_text(o, ",\"date\":", g->date);
            json_text(o, ",\"event\":", g->event);
            cli_out_str(o, ",\"result\":\"");
            cli_out_str(o, result_word(g->result));
            json_text(o, "\",\"file\":", g->source);
            json_int(o, ",\"game\":", g->number);
            json_int(o, ",\"ply\":", g->ply);
            cli_out_str(o, "}");
        }
        cli_out_str(o, "]}");
    }
    cli_out_str(o, "]}\n");
    cli_out_flush(o);
}
