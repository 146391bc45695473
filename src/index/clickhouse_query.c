/* clickhouse_query.c: the explorer and exact search on ClickHouse. Counts come from the
 * explorer table, summed in the query (parts not merged yet hold partial sums, and on a
 * cluster each shard its own; kifu sums a move's rows); the latest games of each move
 * from the latest table and their listings from the listing table (joinGet), in the same
 * request (explore_sql), which hides the batches not done only when the journal has one
 * (explore_query), and then reads the listings from the games table. With filters the rows
 * of the key are read and counted here by the same code as the SQLite index
 * (kifu__agg_add), so both answer alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "index/clickhouse.h"
#include "index/index_private.h"
#include "kifu_private.h"

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

static int by_id(const void *x, const void *y)
{
    const kifu__ch_game *a = x, *b = y;
    return a->id < b->id ? -1 : a->id > b->id;
}

const kifu__ch_game *kifu__ch_game_get(const kifu__ch *ch, long long id)
{
    kifu__ch_game k = {.id = id};
    return ch->ngames ? bsearch(&k, ch->games, ch->ngames, sizeof k, by_id) : NULL;
}

/* Run sql on the server that answers queries; its TabSeparated answer in out. A failure
 * names the shards that are down. */
static int query(kifu__ch *ch, kifu__strbuf *sql, kifu__strbuf *out, kifu_error *err)
{
    if (sql->failed)
        return nomem(err);
    if (kifu__ch_sql(ch, &ch->servers[0], sql->data, out, err) == 0)
        return out->failed ? nomem(err) : 0;
    kifu__ch_name_down(ch, err);
    return -1;
}

static char *dup_field(const char **p, char *buf, size_t cap)
{
    return kifu__ch_field(p, buf, cap) ? NULL : kifu__strdup(buf);
}

/* The fields id, sente, gote, date, event, number, result, path, sente_rating,
 * gote_rating, sente_key, gote_key of a TabSeparated line at *p into g. */
static void parse_game(const char **pp, kifu__ch_game *g, char *buf, size_t cap)
{
    const char *p = *pp;
    memset(g, 0, sizeof *g);
    kifu__ch_field(&p, buf, cap);
    g->id = strtoll(buf, NULL, 10);
    g->sente = dup_field(&p, buf, cap);
    g->gote = dup_field(&p, buf, cap);
    g->date = dup_field(&p, buf, cap);
    g->event = dup_field(&p, buf, cap);
    kifu__ch_field(&p, buf, cap);
    g->number = atoi(buf);
    kifu__ch_field(&p, buf, cap);
    g->result = atoi(buf);
    g->source = dup_field(&p, buf, cap);
    kifu__ch_field(&p, buf, cap);
    g->sente_rating = atoi(buf);
    kifu__ch_field(&p, buf, cap);
    g->gote_rating = atoi(buf);
    g->sente_key = dup_field(&p, buf, cap);
    g->gote_key = dup_field(&p, buf, cap);
    *pp = p;
}

static void game_free(kifu__ch_game *g)
{
    kifu__free(g->sente), kifu__free(g->gote), kifu__free(g->date);
    kifu__free(g->event), kifu__free(g->source);
    kifu__free(g->sente_key), kifu__free(g->gote_key);
}

void kifu__ch_games_clear(kifu__ch *ch)
{
    for (size_t i = 0; i < ch->ngames; i++)
        game_free(&ch->games[i]);
    ch->ngames = 0;
}

/* ch->games by id, each once (a game can be among the latest of two moves). */
static void sort_games(kifu__ch *ch)
{
    if (!ch->ngames)
        return;
    qsort(ch->games, ch->ngames, sizeof *ch->games, by_id);
    size_t n = 1;
    for (size_t i = 1; i < ch->ngames; i++) {
        if (ch->games[i].id == ch->games[n - 1].id)
            game_free(&ch->games[i]);
        else
            ch->games[n++] = ch->games[i];
    }
    ch->ngames = n;
}

/* The columns parse_game reads, as the games table names them. */
#define GAME_COLS                                                                        \
    "id, sente, gote, date, event, number, result, path, sente_rating, gote_rating, "    \
    "sente_key, gote_key"

/* Fetch the games whose id the condition `where` picks into ch->games (kept sorted). */
static int fetch_games(kifu__ch *ch, const char *where, kifu_error *err)
{
    kifu__strbuf sql, out;
    kifu__sb_init(&sql), kifu__sb_init(&out);
    kifu__sb_puts(&sql, "SELECT " GAME_COLS " FROM ");
    kifu__ch_name(ch, &sql, "games", 0);
    kifu__sb_printf(&sql, " WHERE (%s) AND id ", where);
    kifu__ch_hidden(ch, &sql, 0, 1);
    kifu__sb_puts(&sql, " FORMAT TabSeparated");
    int rc = query(ch, &sql, &out, err);
    char buf[1024];
    for (const char *p = out.data; !rc && p && *p;) {
        if (kifu__reserve(&ch->games, &ch->capgames, ch->ngames + 1, sizeof *ch->games,
                          64)) {
            rc = nomem(err);
            break;
        }
        parse_game(&p, &ch->games[ch->ngames], buf, sizeof buf);
        p += *p == '\n';
        ch->ngames++;
    }
    sort_games(ch);
    kifu__sb_free(&sql), kifu__sb_free(&out);
    return rc;
}

/* The games through `key` (those that pass o's tag filters, when o is given) into
 * ch->games, and `cols` of the key's position rows by game and ply into out
 * (TabSeparated). 0, or -1 with err. */
static int key_rows(kifu__ch *ch, uint64_t key, const char *cols,
                    const kifu_explore_options *o, int flipped, kifu__strbuf *out,
                    kifu_error *err)
{
    kifu__strbuf sql;
    kifu__sb_init(&sql);
    kifu__sb_puts(&sql, "id GLOBAL IN (SELECT game FROM ");
    kifu__ch_name(ch, &sql, "positions", 0);
    kifu__sb_printf(&sql, " WHERE key = %llu)", (unsigned long long)key);
    kifu__ch_tag_where(&sql, o, flipped);
    int rc = sql.failed ? nomem(err) : fetch_games(ch, sql.data, err);
    sql.len = 0;
    kifu__sb_printf(&sql, "SELECT %s FROM ", cols);
    kifu__ch_name(ch, &sql, "positions", 0);
    kifu__sb_printf(&sql, " WHERE key = %llu AND game ", (unsigned long long)key);
    kifu__ch_hidden(ch, &sql, 0, 1);
    kifu__sb_puts(&sql, " ORDER BY game, ply FORMAT TabSeparated");
    if (!rc)
        rc = query(ch, &sql, out, err);
    kifu__sb_free(&sql);
    return rc;
}

/* With filters: the key's rows, each game checked, counted as the SQLite index does. */
static int count_filtered(kifu_index *ix, uint64_t key, int flipped,
                          const kifu_explore_options *o, kifu__agg *a, kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    kifu__strbuf out;
    kifu__sb_init(&out);
    int rc =
        key_rows(ch, key, "game, ply, move, result, rating, date", o, flipped, &out, err);
    char date[64];
    for (const char *p = out.data; !rc && p && *p;) {
        long long game = strtoll(p, (char **)&p, 10);
        int ply = (int)strtol(p, (char **)&p, 10);
        uint16_t mv = (uint16_t)strtoul(p, (char **)&p, 10);
        int result = (int)strtol(p, (char **)&p, 10);
        int rating = (int)strtol(p, (char **)&p, 10);
        p += *p == '\t';
        kifu__ch_field(&p, date, sizeof date);
        p += *p == '\n';
        const kifu__ch_game *g = kifu__ch_game_get(ch, game);
        kifu__game_attrs at = {0};
        if (g) {
            at.sente = g->sente_key, at.gote = g->gote_key, at.date = g->date,
            at.event = g->event;
            at.sente_rating = g->sente_rating, at.gote_rating = g->gote_rating;
        }
        if (!g || !kifu__explore_passes(o, &at, flipped))
            continue;
        if (kifu__agg_add(a, mv && flipped ? kifu__flip_move(mv) : mv, game, ply,
                          kifu__flip_result(result, flipped), date, rating))
            rc = nomem(err);
    }
    kifu__sb_free(&out);
    return rc;
}

/* The counts of key's moves: the explorer table's sums over the key's range (parts not
 * merged yet hold partial sums). hide: less those of the batches not done yet (their
 * position rows, read by key and game). */
static void counts_sql(kifu__ch *ch, kifu__strbuf *sql, uint64_t key, int hide)
{
    kifu__sb_puts(sql, "SELECT move, sum(games) AS g, sum(pos_games) AS pg, "
                       "sum(sente_wins) AS sw, sum(gote_wins) AS gw, sum(sennichite) AS "
                       "sn, sum(jishogi) AS js, sum(draws) AS dr, sum(unknown) AS un, "
                       "sum(rating_sum) AS rs, sum(rated) AS rt FROM ");
    if (!hide) {
        kifu__ch_name(ch, sql, "explorer", 0);
        kifu__sb_printf(sql, " WHERE key = %llu GROUP BY move", (unsigned long long)key);
        return;
    }
    kifu__sb_puts(sql, "(SELECT move, games, pos_games, sente_wins, gote_wins, "
                       "sennichite, jishogi, draws, unknown, rating_sum, rated FROM ");
    kifu__ch_name(ch, sql, "explorer", 0);
    kifu__sb_printf(sql,
                    " WHERE key = %llu UNION ALL SELECT move, -toInt64(first_move), "
                    "-toInt64(first_pos)",
                    (unsigned long long)key);
    for (int k = 1; k <= 5; k++)
        kifu__sb_printf(sql, ", -toInt64(first_move AND result = %d)", k);
    kifu__sb_puts(sql, ", -toInt64(first_move AND result = 0), -toInt64(first_move AND "
                       "rating > 0) * rating, -toInt64(first_move AND rating > 0) FROM ");
    kifu__ch_name(ch, sql, "positions", 0);
    kifu__sb_printf(sql, " WHERE key = %llu AND game ", (unsigned long long)key);
    kifu__ch_hidden(ch, sql, 1, 0);
    kifu__sb_puts(sql, ") GROUP BY move");
}

/* The KIFU__INDEX_TOP latest games of each of key's moves, from the insert blocks' latest
 * (the latest table: a few rows a move); hide: those of batches not done left out. move,
 * r (the rank), ply, id. */
static void top_sql(kifu__ch *ch, kifu__strbuf *sql, uint64_t key, const char *cols,
                    int hide)
{
    kifu__sb_printf(sql,
                    "SELECT %s FROM (SELECT DISTINCT move, r, p AS ply, "
                    "toUInt32(bitAnd(r, 4294967295)) AS id FROM ",
                    cols);
    kifu__ch_name(ch, sql, "latest", 0);
    kifu__sb_printf(sql, " ARRAY JOIN top AS r, plies AS p WHERE key = %llu",
                    (unsigned long long)key);
    if (hide) {
        kifu__sb_puts(sql, " AND id ");
        kifu__ch_hidden(ch, sql, 0, 1);
    }
    kifu__sb_printf(sql, " ORDER BY move, r DESC LIMIT %d BY move)", KIFU__INDEX_TOP);
}

/* The explorer's answer, a line per row: its kind, a tab, then the row's fields. */
enum { ROW_COUNTS = 0, ROW_TOP = 1, ROW_GAME = 2, ROW_OPEN = 3, ROW_TOP_LISTED = 4 };

/* The numbers of every row after its kind (ROW_NUMS: move and ten more), then a listing
 * or nothing: every part of the UNION ALL gives the same columns, which the server
 * prints as they are instead of each row made one text by concat and toString (those
 * functions cost 18.16 a fifth of the query). */
#define ROW_NUMS 11

/* n columns of zeros. */
static void zeros(kifu__strbuf *sql, int n)
{
    while (n-- > 0)
        kifu__sb_puts(sql, ", 0");
}

/* The explorer's query at key: a UNION ALL of parts, each read by a primary-key range and
 * none joined (on 18.16 joining them cost more than reading them), every row its kind,
 * ROW_NUMS numbers (zeros where the kind has none) and a listing (TabSeparatedRaw: the
 * listings are escaped already):
 *   0  a row of a move's counts: move, games, games through the position, results by
 *      KIFU__RES_* order of the explorer table (sente, gote, sennichite, jishogi, draws,
 *      unknown), the movers' ratings summed and the games that gave one; the rows of a
 *      move (parts not merged yet, on a cluster each shard's) are summed here, not by
 *      the server (a GROUP BY cost 18.16 more than the read)
 *   1  one of a move's latest games: move, rank, ply (hide only)
 *   2  such a game's listing (GAME_COLS, the games table's `listing` column, by id;
 *      hide only)
 *   3  check: the journal's batches not done, counted (its second number): a scalar
 *      subquery, which ClickHouse runs before it reads any table (explore_query relies
 *      on that)
 *   4  one of a move's latest games with its listing: move, rank, ply, then GAME_COLS
 *      from the listing table (joinGet, in memory: schema 4), which spares the second
 *      read of the latest table and the read of the games table; an empty listing (a
 *      game the listing table does not have) makes the answer asked again with hide
 * Without hide the query is kinds 0 and 4 (and 3 with check): two range reads. */
static void explore_sql(kifu__ch *ch, kifu__strbuf *sql, uint64_t key, int hide,
                        int check)
{
    kifu__sb_puts(sql, "SELECT 0 AS kind, move");
    static const char *const counts[10] = {
        "games",   "pos_games", "sente_wins", "gote_wins",  "sennichite",
        "jishogi", "draws",     "unknown",    "rating_sum", "rated"};
    static const char *const sums[10] = {"g",  "pg", "sw", "gw", "sn",
                                         "js", "dr", "un", "rs", "rt"};
    for (int i = 0; i < 10; i++)
        kifu__sb_printf(sql, ", %s", hide ? sums[i] : counts[i]);
    kifu__sb_puts(sql, ", '' AS listing FROM ");
    if (!hide) {
        kifu__ch_name(ch, sql, "explorer", 0);
        kifu__sb_printf(sql, " WHERE key = %llu", (unsigned long long)key);
        kifu__sb_printf(sql, " UNION ALL SELECT %d, move, toInt64(r), p", ROW_TOP_LISTED);
        zeros(sql, ROW_NUMS - 3);
        kifu__sb_printf(sql,
                        ", joinGet('%s_listing', 'listing', toUInt32(bitAnd(r, "
                        "4294967295))) FROM (SELECT DISTINCT move, r, p FROM ",
                        ch->table);
        kifu__ch_name(ch, sql, "latest", 0);
        kifu__sb_printf(
            sql,
            " ARRAY JOIN top AS r, plies AS p WHERE key = %llu ORDER BY move, "
            "r DESC LIMIT %d BY move)",
            (unsigned long long)key, KIFU__INDEX_TOP);
    } else {
        kifu__sb_puts(sql, "(");
        counts_sql(ch, sql, key, hide);
        kifu__sb_puts(sql, ") UNION ALL SELECT 1, move, toInt64(r), ply");
        zeros(sql, ROW_NUMS - 3);
        kifu__sb_puts(sql, ", '' FROM (");
        top_sql(ch, sql, key, "move, r, ply", hide);
        kifu__sb_puts(sql, ") UNION ALL SELECT 2");
        zeros(sql, ROW_NUMS);
        kifu__sb_puts(sql, ", listing FROM ");
        kifu__ch_name(ch, sql, "games", 0);
        kifu__sb_printf(sql, " WHERE id %sIN (", ch->cluster[0] ? "GLOBAL " : "");
        top_sql(ch, sql, key, "id", hide);
        kifu__sb_puts(sql, ")");
    }
    if (check) {
        kifu__sb_puts(sql, " UNION ALL SELECT 3, 0, toInt64(");
        kifu__ch_open_sql(ch, sql);
        kifu__sb_puts(sql, ")");
        zeros(sql, ROW_NUMS - 2);
        kifu__sb_puts(sql, ", ''");
    }
    kifu__sb_puts(sql, " FORMAT TabSeparatedRaw");
}

/* A row of the explorer's answer at *pp: its kind, its ROW_NUMS numbers into v, and *pp
 * left at its listing (empty: at the end of the line). */
static int row_parse(const char **pp, long long v[ROW_NUMS])
{
    const char *p = *pp;
    int kind = *p - '0';
    p++;
    for (int i = 0; i < ROW_NUMS; i++)
        v[i] = strtoll(p, (char **)&p, 10); /* each after a tab, which strtoll skips */
    p += *p == '\t';
    *pp = p;
    return kind;
}

/* A latest game of a move (a row of kind 1). */
typedef struct top_row {
    uint16_t move;
    int ply;
    unsigned long long r; /* YYYYMMDD << 32 | game */
} top_row;

/* By move, newest first. */
static int by_move_rank(const void *x, const void *y)
{
    const top_row *a = x, *b = y;
    if (a->move != b->move)
        return a->move < b->move ? -1 : 1;
    return a->r > b->r ? -1 : a->r < b->r;
}

/* One move's counts (v: move, then the counts of a row of kind 0) and its latest games
 * (t, n of them, newest first) merged into a. */
static int merge_move(const long long v[11], const top_row *t, size_t n, int flipped,
                      kifu__agg *a)
{
    a->games += v[2];
    uint16_t mv = (uint16_t)v[0];
    if (!mv || !v[1])
        return 0; /* games that ended here, or only repeated the move */
    int32_t top[2 * KIFU__INDEX_TOP];
    int ntop = 0;
    for (; (size_t)ntop < n && ntop < KIFU__INDEX_TOP; ntop++)
        top[2 * ntop] = (int32_t)(t[ntop].r & 0xffffffffu),
                top[2 * ntop + 1] = t[ntop].ply;
    long long res[6] = {v[8], v[3], v[4], v[5], v[6], v[7]};
    if (flipped) {
        long long x = res[KIFU__RES_SENTE];
        res[KIFU__RES_SENTE] = res[KIFU__RES_GOTE], res[KIFU__RES_GOTE] = x;
    }
    char date[16] = "";
    unsigned ymd = ntop ? (unsigned)(t[0].r >> 32) : 0; /* the newest game's date */
    if (ymd)
        snprintf(date, sizeof date, "%04u-%02u-%02u", ymd / 10000, ymd / 100 % 100,
                 ymd % 100);
    return kifu__agg_merge(a, flipped ? kifu__flip_move(mv) : mv, v[1], res, v[9], v[10],
                           date, top, ntop);
}

/* The explorer's answer at p merged into a: each move's counts with its latest games,
 * and those games into ch->games. 0, or -1 (out of memory). */
/* By move (counts rows: v[0]). */
static int by_count_move(const void *x, const void *y)
{
    const long long *a = x, *b = y;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* The explorer's answer at p into a. *unlisted: the latest games of kind 4 whose listing
 * the listing table did not have (the answer is then asked again with hide). */
static int explore_parse(kifu__ch *ch, const char *p, int flipped, kifu__agg *a,
                         int *unlisted)
{
    long long(*counts)[11] = NULL;
    top_row *tops = NULL;
    size_t ncounts = 0, capcounts = 0, ntops = 0, captops = 0;
    char buf[1024];
    int rc = 0;
    size_t had = ch->ngames; /* the games of the keys counted before */
    *unlisted = 0;
    while (!rc && p && *p) {
        long long v[ROW_NUMS];
        int kind = row_parse(&p, v);
        int listed = *p && *p != '\n';
        if (kind == ROW_COUNTS) {
            rc = kifu__reserve(&counts, &capcounts, ncounts + 1, sizeof *counts, 64);
            if (!rc)
                memcpy(counts[ncounts++], v, sizeof *counts);
        } else if (kind == ROW_TOP || kind == ROW_TOP_LISTED) {
            rc = kifu__reserve(&tops, &captops, ntops + 1, sizeof *tops, 64);
            if (!rc)
                tops[ntops++] =
                    (top_row){(uint16_t)v[0], (int)v[2], (unsigned long long)v[1]};
            if (!rc && kind == ROW_TOP_LISTED && !listed)
                ++*unlisted;
        }
        if (!rc && listed && (kind == ROW_TOP_LISTED || kind == ROW_GAME)) {
            rc = kifu__reserve(&ch->games, &ch->capgames, ch->ngames + 1,
                               sizeof *ch->games, 64);
            if (!rc)
                parse_game(&p, &ch->games[ch->ngames++], buf, sizeof buf);
        }
        p += strcspn(p, "\n");
        p += *p == '\n';
    }
    /* A move's rows summed (parts not merged yet, shards: partial sums). */
    if (ncounts)
        qsort(counts, ncounts, sizeof *counts, by_count_move);
    size_t nc = 0;
    for (size_t i = 0; i < ncounts; i++) {
        if (nc && counts[nc - 1][0] == counts[i][0]) {
            for (int k = 1; k < 11; k++)
                counts[nc - 1][k] += counts[i][k];
        } else if (nc++ != i) {
            memcpy(counts[nc - 1], counts[i], sizeof *counts);
        }
    }
    ncounts = nc;
    if (ntops)
        qsort(tops, ntops, sizeof *tops, by_move_rank);
    for (size_t i = 0; !rc && !*unlisted && i < ncounts; i++) {
        /* the move's latest games: a run of tops (sorted by move) */
        size_t lo = 0, hi = ntops;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (tops[mid].move < (uint16_t)counts[i][0])
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t n = 0;
        while (lo + n < ntops && tops[lo + n].move == (uint16_t)counts[i][0])
            n++;
        rc = merge_move(counts[i], tops + lo, n, flipped, a);
    }
    if (*unlisted) /* asked again: this answer's games go */
        while (ch->ngames > had)
            game_free(&ch->games[--ch->ngames]);
    sort_games(ch);
    kifu__free(counts), kifu__free(tops);
    return rc;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The batches not done that an answer counted (its row of kind 3). */
static long long answer_open(const kifu__strbuf *out)
{
    long long v[ROW_NUMS];
    for (const char *p = out->data; p && *p; p += strcspn(p, "\n"), p += *p == '\n')
        if (p[0] == '0' + ROW_OPEN && p[1] == '\t' && row_parse(&p, v) == ROW_OPEN)
            return v[1];
    return 0;
}

/* A point query of the explorer's: ClickHouse's cache of decompressed blocks (off in
 * Debian's default profile) spares decompressing the same blocks at every query. */
static int point_query(kifu__ch *ch, kifu__strbuf *sql, kifu__strbuf *out,
                       kifu_error *err)
{
    if (sql->failed)
        return nomem(err);
    kifu__strbuf params;
    kifu__sb_init(&params);
    /* database: joinGet names the listing table in the current database. One thread:
     * a few granules need no more, and each thread costs 18.16 more than they do. */
    kifu__sb_printf(&params, "use_uncompressed_cache=1&max_threads=1&database=%s",
                    ch->database);
    int in_url = sql->len <= 4000; /* as kifu__ch_sql: short ones in the URL */
    if (in_url) {
        kifu__sb_puts(&params, "&query=");
        kifu__ch_urlencode(&params, sql->data);
    }
    int rc = params.failed ? nomem(err)
                           : kifu__ch_post(&ch->servers[0], ch->timeout_ms, params.data,
                                           in_url ? "" : sql->data, in_url ? 0 : sql->len,
                                           out, NULL, err);
    kifu__sb_free(&params);
    if (!rc)
        return out->failed ? nomem(err) : 0;
    kifu__ch_name_down(ch, err);
    return -1;
}

/* How long after a count of the journal that found no batch open the explorer reads
 * without counting again: the answer must come within KIFU__CH_HIDE_LEASE_MS of that
 * count's request, and a read takes a few ms, so most of the lease (a count costs about
 * as much as the read of one table; every 0.8 s it is one query's in a hundred or so). */
#define CH_FAST_WINDOW_MS (KIFU__CH_HIDE_LEASE_MS * 4 / 5)

/* One request for the explorer at key (hide: always hiding), in one of three ways:
 *   fast   no batch was open at a count of the journal sent less than CH_FAST_WINDOW_MS
 *          ago: the tables are read without hiding nor counting
 *          (the aggregate's ranges only), and the answer stands when it came before that
 *          count's request was sent + KIFU__CH_HIDE_LEASE_MS;
 *   check  the same with the journal's count folded in (kind 3), which stands when the
 *          count is 0 and the answer came within KIFU__CH_HIDE_LEASE_MS;
 *   hide   batches not done hidden (the normal case's cost doubled), with the count;
 *          always stands.
 * A batch started after a count was taken writes no row within KIFU__CH_HIDE_LEASE_MS of
 * its journal row (clickhouse_write.c), so no answer that stands holds part of a batch.
 * An answer that does not stand is asked again the next way. Then the next query goes
 * fast or checks while no batch is open, and hides while one is. */
static int explore_query(kifu__ch *ch, uint64_t key, int hide, kifu__strbuf *out,
                         kifu_error *err)
{
    enum { FAST, CHECK, HIDE };
    kifu__strbuf sql;
    kifu__sb_init(&sql);
    double t0 = now_ms();
    int how = hide || ch->open_seen                                     ? HIDE
              : ch->open_at > 0 && t0 - ch->open_at < CH_FAST_WINDOW_MS ? FAST
                                                                        : CHECK;
    int rc = 0;
    for (;;) {
        sql.len = 0, out->len = 0;
        if (out->data)
            out->data[0] = '\0';
        explore_sql(ch, &sql, key, how == HIDE, how != FAST);
        t0 = now_ms();
        rc = point_query(ch, &sql, out, err);
        double t1 = now_ms();
        if (rc)
            break;
        if (how == FAST) {
            if (t1 - ch->open_at < KIFU__CH_HIDE_LEASE_MS)
                break;
            how = CHECK;
            continue;
        }
        long long open = answer_open(out);
        if (how == HIDE || (!open && t1 - t0 < KIFU__CH_HIDE_LEASE_MS)) {
            ch->open_seen = open, ch->open_at = t0;
            break;
        }
        how = HIDE;
    }
    kifu__sb_free(&sql);
    return rc;
}

int kifu__ch_count(kifu_index *ix, uint64_t key, int flipped,
                   const kifu_explore_options *o, kifu__agg *a, kifu_error *err)
{
    if (o->player || o->player_like || o->date_from || o->date_to || o->event ||
        o->min_rating > 0 || o->ntags)
        return count_filtered(ix, key, flipped, o, a, err);
    kifu__ch *ch = ix->ch;
    kifu__strbuf out;
    kifu__sb_init(&out);
    int unlisted = 0, rc = explore_query(ch, key, 0, &out, err);
    /* The listing table missing for a moment (renamed in place by a rebuild): as a
     * game it lacks. */
    if (rc && err && strstr(err->message, "_listing"))
        rc = 0, unlisted = 1;
    else if (!rc && explore_parse(ch, out.data, flipped, a, &unlisted))
        rc = nomem(err);
    /* A latest game the listing table lacks (being rebuilt after a repair): the games
     * table's listings, read with hide. */
    if (!rc && unlisted && !(rc = explore_query(ch, key, 1, &out, err)) &&
        explore_parse(ch, out.data, flipped, a, &unlisted))
        rc = nomem(err);
    kifu__sb_free(&out);
    return rc;
}

long kifu__ch_find(kifu_index *ix, uint64_t key, kifu_index_row_fn fn, void *ctx,
                   kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    kifu__ch_games_clear(ch);
    kifu__strbuf out;
    kifu__sb_init(&out);
    int rc = key_rows(ch, key, "game, ply", NULL, 0, &out, err);
    long hits = 0;
    for (const char *p = out.data; !rc && p && *p;) {
        long long game = strtoll(p, (char **)&p, 10);
        int ply = (int)strtol(p, (char **)&p, 10);
        p += strcspn(p, "\n");
        p += *p == '\n';
        const kifu__ch_game *g = kifu__ch_game_get(ch, game);
        kifu_index_row h = {game, ply, g && g->source ? g->source : "",
                            g ? g->number : 0};
        hits++;
        if (fn && fn(ctx, &h))
            break;
    }
    kifu__ch_games_clear(ch);
    kifu__sb_free(&out);
    return rc ? -1 : hits;
}

int kifu__ch_info(kifu_index *ix, kifu_index_info *out, kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    memset(out, 0, sizeof *out);
    kifu__strbuf sql, ans;
    kifu__sb_init(&sql), kifu__sb_init(&ans);
    /* The games of a batch not done are left out, their counts taken off. */
    kifu__sb_puts(&sql, "SELECT (SELECT count() FROM ");
    kifu__ch_name(ch, &sql, "games", 0);
    kifu__sb_puts(&sql, " WHERE id ");
    kifu__ch_hidden(ch, &sql, 0, 1);
    /* count() of a whole table is read from its parts' sizes; the hidden rows apart,
     * where an empty set reads nothing. */
    kifu__sb_puts(&sql, "), (SELECT count() FROM ");
    kifu__ch_name(ch, &sql, "positions", 0);
    kifu__sb_puts(&sql, ") - (SELECT count() FROM ");
    kifu__ch_name(ch, &sql, "positions", 0);
    kifu__sb_puts(&sql, " WHERE game ");
    kifu__ch_hidden(ch, &sql, 0, 0);
    kifu__sb_puts(&sql, "), (SELECT uniqExact(path) FROM ");
    kifu__ch_name(ch, &sql, "games", 0);
    kifu__sb_puts(&sql, " WHERE id ");
    kifu__ch_hidden(ch, &sql, 0, 1);
    kifu__sb_puts(&sql, "), (SELECT count() FROM (SELECT key FROM (SELECT key, pos_games "
                        "FROM ");
    kifu__ch_name(ch, &sql, "explorer", 0);
    kifu__sb_puts(&sql, " UNION ALL SELECT key, -toInt64(first_pos) FROM ");
    kifu__ch_name(ch, &sql, "positions", 0);
    kifu__sb_puts(&sql, " WHERE game ");
    kifu__ch_hidden(ch, &sql, 1, 0);
    kifu__sb_printf(&sql,
                    ") GROUP BY key HAVING sum(pos_games) >= %d)) FORMAT TabSeparated",
                    KIFU__INDEX_HOT);
    int rc = query(ch, &sql, &ans, err);
    if (!rc && ans.data)
        sscanf(ans.data, "%lld\t%lld\t%lld\t%lld", &out->games, &out->positions,
               &out->sources, &out->hot_positions);
    /* Files with no game indexed and the duplicates skipped are in the sources table;
     * an index made before it has only the games' paths, and no duplicates kept. */
    out->duplicates = -1;
    if (!rc && kifu__ch_sources_info(ix, &out->sources, &out->duplicates))
        out->duplicates = -1;
    /* Bytes on disk: every shard's parts of our tables. */
    for (size_t i = 0; !rc && i < ch->nservers; i++) {
        sql.len = 0, ans.len = 0;
        kifu__sb_printf(&sql,
                        "SELECT sum(bytes_on_disk) FROM system.parts WHERE active AND "
                        "database = '%s' AND startsWith(table, '%s_') FORMAT "
                        "TabSeparated",
                        ch->database, ch->table);
        rc = sql.failed ? nomem(err)
                        : kifu__ch_sql(ch, &ch->servers[i], sql.data, &ans, err);
        if (!rc && ans.data)
            out->bytes += strtoll(ans.data, NULL, 10);
    }
    if (rc)
        kifu__ch_name_down(ch, err);
    kifu__sb_free(&sql), kifu__sb_free(&ans);
    return rc;
}

int kifu__ch_each_source(kifu_index *ix,
                         int (*fn)(void *ctx, const char *path, int games), void *ctx,
                         kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    kifu__strbuf sql, out;
    kifu__sb_init(&sql), kifu__sb_init(&out);
    kifu__sb_puts(&sql, "SELECT path, count() FROM ");
    kifu__ch_name(ch, &sql, "games", 0);
    kifu__sb_puts(&sql, " WHERE id ");
    kifu__ch_hidden(ch, &sql, 0, 1);
    kifu__sb_puts(&sql, " GROUP BY path ORDER BY min(id) FORMAT TabSeparated");
    int rc = query(ch, &sql, &out, err);
    char path[4096], n[32];
    for (const char *p = out.data; !rc && p && *p;) {
        kifu__ch_field(&p, path, sizeof path);
        kifu__ch_field(&p, n, sizeof n);
        p += *p == '\n';
        if (fn(ctx, path, atoi(n)))
            break;
    }
    kifu__sb_free(&sql), kifu__sb_free(&out);
    return rc;
}

/* ---- The explorer's query (backend.h): the index is its state ---- */

void *kifu__ch_explore_begin(kifu_index *ix, const kifu_explore_options *o,
                             kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    kifu__ch_games_clear(ch);
    ch->explore_o = o, ch->explore_err = err;
    return ix;
}

int kifu__ch_explore_count(void *q, uint64_t key, int flipped, int mover, kifu__agg *a)
{
    (void)mover; /* positions.rating holds each row's mover's rating */
    kifu_index *ix = q;
    kifu_error *err = ix->ch->explore_err;
    if (kifu__ch_count(ix, key, flipped, ix->ch->explore_o, a, err) == 0)
        return 0;
    kifu__error_source(err, ix->path); /* an explorer's error names the index */
    return -1;
}

int kifu__ch_explore_game(void *q, long long id, kifu__explore_row *row)
{
    kifu_index *ix = q;
    const kifu__ch_game *g = kifu__ch_game_get(ix->ch, id);
    if (!g)
        return 0;
    *row = (kifu__explore_row){g->id,    g->sente,  g->gote,   g->date,
                               g->event, g->source, g->number, g->result};
    return 1;
}

void kifu__ch_explore_end(void *q)
{
    kifu_index *ix = q;
    ix->ch->explore_o = NULL, ix->ch->explore_err = NULL;
}

int kifu__ch_idents(kifu_index *ix, kifu__ident_fn fn, void *ctx, kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    kifu__strbuf sql, out;
    kifu__sb_init(&sql), kifu__sb_init(&out);
    kifu__sb_puts(&sql, "SELECT ident, id FROM ");
    kifu__ch_name(ch, &sql, "games", 0);
    kifu__sb_puts(&sql, " WHERE id ");
    kifu__ch_hidden(ch, &sql, 0, 1);
    kifu__sb_puts(&sql, " FORMAT TabSeparated");
    int rc = query(ch, &sql, &out, err);
    for (const char *p = out.data; !rc && p && *p;) {
        uint64_t ident = strtoull(p, (char **)&p, 10);
        uint32_t id = (uint32_t)strtoul(p, (char **)&p, 10);
        p += *p == '\n';
        if (fn(ctx, ident, id))
            rc = nomem(err);
    }
    kifu__sb_free(&sql), kifu__sb_free(&out);
    return rc;
}

int kifu__ch_players(kifu_index *ix, const char *like, kifu__player_row_fn fn, void *ctx,
                     kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    kifu__strbuf sql, out;
    kifu__sb_init(&sql), kifu__sb_init(&out);
    /* Every game's players; the part of a key is looked for here (no SQL quoting). */
    kifu__sb_puts(&sql, "SELECT sente_key, sente, sente_rating, gote_key, gote, "
                        "gote_rating, result, date, " KIFU__CH_TAG_LIST " FROM ");
    kifu__ch_name(ch, &sql, "games", 0);
    kifu__sb_puts(&sql, " WHERE id ");
    kifu__ch_hidden(ch, &sql, 0, 1);
    kifu__sb_puts(&sql, " FORMAT TabSeparated");
    int rc = query(ch, &sql, &out, err);
    char key[2][1024], name[2][1024], num[32], date[64], tags[4096];
    for (const char *p = out.data; !rc && p && *p;) {
        int nokey[2], rating[2];
        for (int s = 0; s < 2; s++) {
            nokey[s] = kifu__ch_field(&p, key[s], sizeof key[s]);
            kifu__ch_field(&p, name[s], sizeof name[s]);
            kifu__ch_field(&p, num, sizeof num);
            rating[s] = atoi(num);
        }
        kifu__ch_field(&p, num, sizeof num);
        int result = atoi(num);
        int nodate = kifu__ch_field(&p, date, sizeof date);
        kifu__ch_field(&p, tags, sizeof tags);
        p += *p == '\n';
        for (int s = 0; s < 2 && !rc; s++) {
            if (nokey[s] || (like && !strstr(key[s], like)))
                continue;
            kifu__player_row r = {key[s], name[s], nodate ? NULL : date, rating[s], s,
                                  result, tags};
            if (fn(ctx, &r))
                rc = nomem(err);
        }
    }
    kifu__sb_free(&sql), kifu__sb_free(&out);
    return rc;
}

int kifu__ch_games(kifu_index *ix, const kifu_explore_options *o, kifu__game_list_fn fn,
                   void *ctx, kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    kifu__strbuf sql, out, tags;
    kifu__sb_init(&sql), kifu__sb_init(&out), kifu__sb_init(&tags);
    /* Every game's listing columns (the filters but the tags' are applied by
     * index_games.c). */
    kifu__sb_puts(
        &sql, "SELECT id, path, number, sente, gote, date, event, result, "
              "plies, sente_rating, gote_rating, sente_key, gote_key, " KIFU__CH_TAG_LIST
              " FROM ");
    kifu__ch_name(ch, &sql, "games", 0);
    kifu__sb_puts(&sql, " WHERE 1");
    kifu__ch_tag_where(&sql, o, 0);
    kifu__sb_puts(&sql, " FORMAT TabSeparated");
    int rc = query(ch, &sql, &out, err), stop = 0;
    char f[14][1024];
    for (const char *p = out.data; !rc && !stop && p && *p;) {
        int null[14];
        for (int i = 0; i < 14; i++)
            null[i] = kifu__ch_field(&p, f[i], sizeof f[i]);
        p += *p == '\n';
        tags.len = 0;
        kifu__tag_list_json(&tags, f[13]);
        if (tags.failed) {
            rc = nomem(err);
            break;
        }
        kifu_index_game g = {strtoll(f[0], NULL, 10),
                             f[1],
                             atoi(f[2]),
                             null[3] ? NULL : f[3],
                             null[4] ? NULL : f[4],
                             null[5] ? NULL : f[5],
                             null[6] ? NULL : f[6],
                             atoi(f[7]),
                             atoi(f[8]),
                             atoi(f[9]),
                             atoi(f[10]),
                             tags.data};
        stop = fn(ctx, &g, null[11] ? NULL : f[11], null[12] ? NULL : f[12]);
    }
    kifu__sb_free(&sql), kifu__sb_free(&out), kifu__sb_free(&tags);
    return rc;
}
