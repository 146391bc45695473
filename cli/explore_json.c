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

void cli_explore_json(FILE *f, const char *sfen, const kifu_explore *x, int no_games)
{
    long long total = 0;
    for (size_t i = 0; i < kifu_explore_count(x); i++)
        total += kifu_explore_move_at(x, i)->games;
    fprintf(f, "{\"sfen\":");
    cli_json_fstring(f, sfen);
    fprintf(f, ",\"games\":%lld,\"moves\":[", kifu_explore_games(x));
    for (size_t i = 0; i < kifu_explore_count(x); i++) {
        const kifu_explore_move *m = kifu_explore_move_at(x, i);
        fprintf(f, "%s{\"usi\":\"%s\",\"move\":", i ? "," : "", m->usi);
        cli_json_fstring(f, m->text);
        fprintf(
            f,
            ",\"games\":%lld,\"share\":%.1f,\"sente_wins\":%lld,\"gote_wins\":%lld,"
            "\"draws\":%lld,\"sennichite\":%lld,\"jishogi\":%lld,\"other_draws\":%lld,"
            "\"unfinished\":%lld,\"last_date\":",
            m->games, share(m->games, total), m->sente_wins, m->gote_wins,
            m->sennichite + m->jishogi + m->draws, m->sennichite, m->jishogi, m->draws,
            m->unknown);
        if (m->last_date[0])
            cli_json_fstring(f, m->last_date);
        else
            fprintf(f, "null");
        /* The mean rating of the players who made the move, over its rated games. */
        if (m->rated)
            fprintf(f, ",\"avg_rating\":%d", m->avg_rating);
        else
            fprintf(f, ",\"avg_rating\":null");
        fprintf(f, ",\"rated_games\":%lld", m->rated);
        if (no_games) {
            fprintf(f, "}");
            continue;
        }
        fprintf(f, ",\"top\":[");
        for (size_t k = 0; k < m->ntop; k++) {
            const kifu_explore_game *g = &m->top[k];
            fprintf(f, "%s{\"sente\":", k ? "," : "");
            cli_json_fstring(f, g->sente);
            fprintf(f, ",\"gote\":");
            cli_json_fstring(f, g->gote);
            fprintf(f, ",\"date\":");
            cli_json_fstring(f, g->date);
            fprintf(f, ",\"event\":");
            cli_json_fstring(f, g->event);
            fprintf(f, ",\"result\":\"%s\",\"file\":", result_word(g->result));
            cli_json_fstring(f, g->source);
            fprintf(f, ",\"game\":%d,\"ply\":%d}", g->number, g->ply);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "]}\n");
}
