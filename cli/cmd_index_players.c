/* cmd_index_players.c: `kifu index players`: each player of an index, by the key the
 * index finds players by, with the names it was written as, its games, results, rating
 * range, first and last dates and the 戦法 and 囲い its side had most, as sente and as
 * gote (kifu_index_players_filtered; --tag: only the games with those tags on the
 * player's side); text or JSON Lines. And the players nearest a name no game has
 * (explore's "did you mean"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The player's tags as lines, one per side and family: "    sente 戦法: 四間飛車 5
 * (+3 -2 =0), ...". */
static void put_tags_text(const kifu_index_player *p)
{
    for (size_t i = 0; i < p->ntags; i++) {
        const kifu_index_player_tag *t = &p->tags[i];
        int first = !i || t->side != t[-1].side || t->family != t[-1].family;
        if (first)
            printf("%s    %s %s: ", i ? "\n" : "", cli_tag_side_word(t->side),
                   kifu_tag_family_name(t->family));
        else
            printf(", ");
        cli_put_name(t->name);
        printf(" %lld (+%lld -%lld =%lld)", t->games, t->wins, t->losses, t->draws);
    }
    if (p->ntags)
        printf("\n");
}

static int put_text(void *ctx, const kifu_index_player *p)
{
    (void)ctx;
    cli_put_name(p->key);
    printf("  %lld games (+%lld -%lld =%lld)", p->games, p->wins, p->losses, p->draws);
    if (p->max_rating)
        printf("  rating %d-%d", p->min_rating, p->max_rating);
    if (p->first_date[0])
        printf("  %s..%s", p->first_date, p->last_date);
    printf("\n");
    for (size_t i = 0; i < p->nnames; i++) {
        printf("    ");
        cli_put_name(p->names[i]);
        printf("\n");
    }
    put_tags_text(p);
    return 0;
}

static int put_json(void *ctx, const kifu_index_player *p)
{
    (void)ctx;
    printf("{\"key\":");
    cli_json_string(p->key);
    printf(",\"names\":[");
    for (size_t i = 0; i < p->nnames; i++) {
        printf(i ? "," : "");
        cli_json_string(p->names[i]);
    }
    printf("],\"games\":%lld,\"wins\":%lld,\"losses\":%lld,\"draws\":%lld", p->games,
           p->wins, p->losses, p->draws);
    if (p->max_rating)
        printf(",\"min_rating\":%d,\"max_rating\":%d", p->min_rating, p->max_rating);
    printf(",\"first_date\":");
    cli_json_string(p->first_date[0] ? p->first_date : NULL);
    printf(",\"last_date\":");
    cli_json_string(p->last_date[0] ? p->last_date : NULL);
    printf(",\"tags\":");
    cli_player_tags_json(stdout, p);
    printf("}\n");
    return 0;
}

int cli_index_players(kifu_index *ix, const char *like, const char *const *tags,
                      size_t ntags, int json)
{
    kifu_error e = {0};
    char unknown[800];
    if (cli_tag_unknown(tags, ntags, unknown, sizeof unknown)) {
        cli_err("kifu: %s\n", unknown);
        return EXIT_USAGE;
    }
    kifu_explore_options o = {0};
    o.tags = tags, o.ntags = ntags;
    if (kifu_index_players_filtered(ix, like, &o, json ? put_json : put_text, NULL, &e)) {
        cli_print_error(&e);
        return cli_index_exit_code(e.code);
    }
    return cli_flush_stdout() ? EXIT_IO : EXIT_OK;
}

/* ---- did you mean ---- */

typedef struct near {
    const char *want; /* the key asked for */
    size_t len;       /* its characters */
    int exists;
    struct cand {
        char key[256];
        size_t d;
        long long games;
    } best[5];
    size_t n;
} near;

static int consider(void *ctx, const kifu_index_player *p)
{
    near *nr = ctx;
    if (!strcmp(p->key, nr->want)) {
        nr->exists = 1;
        return 1;
    }
    /* Near: a part of the other, or a few characters apart (a third of the name). */
    size_t d = cli_distance(nr->want, p->key);
    int part = strstr(p->key, nr->want) || strstr(nr->want, p->key);
    size_t limit = nr->len / 3 > 2 ? nr->len / 3 : 2;
    if (part)
        d = d < 1 ? d : 1;
    if (d > limit)
        return 0;
    if (nr->n == 5 &&
        (nr->best[4].d < d || (nr->best[4].d == d && nr->best[4].games >= p->games)))
        return 0;
    size_t i = nr->n < 5 ? nr->n++ : 4;
    snprintf(nr->best[i].key, sizeof nr->best[i].key, "%s", p->key);
    nr->best[i].d = d, nr->best[i].games = p->games;
    for (; i > 0 && (nr->best[i].d < nr->best[i - 1].d ||
                     (nr->best[i].d == nr->best[i - 1].d &&
                      nr->best[i].games > nr->best[i - 1].games));
         i--) {
        struct cand t = nr->best[i];
        nr->best[i] = nr->best[i - 1], nr->best[i - 1] = t;
    }
    return 0;
}

/* Is the player given the one whose key is the name asked (near.want)? */
static int is_want(void *ctx, const kifu_index_player *p)
{
    near *nr = ctx;
    nr->exists = !strcmp(p->key, nr->want);
    return 0;
}

int cli_player_unknown(kifu_index *ix, const char *name)
{
    char key[256];
    unsigned tmp[64];
    kifu_index_player_key(name, key, sizeof key, NULL, 0, NULL);
    near nr = {.want = key, .len = cli_chars(key, tmp, 64)};
    kifu_error e = {0};
    /* A player of that key is found by the key; only a name no game has reads every
     * player, for the nearest. */
    if (kifu_index_player_named(ix, key, is_want, &nr, &e) || nr.exists)
        return 0;
    if (kifu_index_players(ix, NULL, consider, &nr, &e) || nr.exists)
        return 0;
    cli_err("kifu: explore: no player '%s' in the index", name);
    for (size_t i = 0; i < nr.n; i++)
        cli_err("%s%s", i ? ", " : "; did you mean ", nr.best[i].key);
    cli_err("%s\n", nr.n ? "?" : "");
    return 1;
}
