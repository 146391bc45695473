/* clickhouse_schema.c: the tables of the index on ClickHouse, as DDL an operator can read
 * before running it (kifu_clickhouse_schema) and kifu runs when it creates them.
 *
 * positions  one row per position of a main line, ordered by key: exact search reads a
 *            key's rows, and the explorer its latest games. first_pos and first_move mark
 *            a game's first visit of the key (and of the key with that move), so that a
 *            repetition within one game counts once, as in the SQLite index. rating:
 *            the rating of the player who moves there (0: none; schema 3).
 * explorer   SummingMergeTree of counts per (key, move), filled by a materialized view
 *            from each insert into positions: the counts are written with the rows they
 *            count, summed per (key, move) in each insert block (18.16 sums rows only
 *            when it merges parts: a row a game left the start position's key 20,000
 *            rows a part until merges caught up), and parts not merged yet are summed by
 *            the query. rating_sum and
 *            rated: the movers' ratings summed over the games that give one (schema 3).
 * latest     each insert block's latest games per (key, move) (KIFU__INDEX_TOP of its
 *            first visits, newest first, as ranks YYYYMMDD << 32 | game, and their plies),
 *            filled by a materialized view: the explorer reads a few rows per move
 *            instead of every game through the position. A block belongs to one batch, so
 *            a hidden or removed batch's rows are its own (schema 2).
 * games      one row per game: headers for the filters and the listing, the moves,
 *            the ending word and the whole header as JSON (search prints them), its
 *            tags (schema 3; clickhouse_tags.c), and the listing's fields as one column
 *            the server makes (schema 3), which is all the explorer reads of a game.
 * listing    each game's listing (its `listing` column) by id, a Join table that the
 *            server keeps in memory (on the first server; schema 4): the explorer lists
 *            its latest games with joinGet instead of reading the games table. Filled
 *            after each batch's games; rebuilt whole after a repair or a removal (a Join
 *            table has no deletes, and a repaired batch's ids are given again).
 * batches    the journal of writes (on the first server): a batch's game ids when it
 *            starts, again when it is done, and the shards whose counts a repair took
 *            back. A batch started and never done is repaired at the next open; until
 *            then readers leave its games out (kifu__ch_hidden), so that a batch is seen
 *            whole or not at all.
 * On a cluster each shard holds *_local tables and the Distributed tables over them; the
 * positions of one key live on one shard (sharding key: the key itself). */
#include <stdio.h>
#include <string.h>

#include "index/clickhouse.h"
#include "index/index_private.h"
#include "kifu_private.h"

void kifu__ch_name(const kifu__ch *ch, kifu__strbuf *b, const char *what, int local)
{
    kifu__sb_printf(b, "`%s`.`%s_%s%s`", ch->database, ch->table, what,
                    local && ch->cluster[0] ? "_local" : "");
}

static const char *const positions_cols =
    "key UInt64, game UInt32, ply UInt16, move UInt16, result UInt8, date String,"
    " first_pos UInt8, first_move UInt8, rating UInt32";
static const char *const explorer_cols =
    "key UInt64, move UInt16, games Int64, pos_games Int64, sente_wins Int64,"
    " gote_wins Int64, sennichite Int64, jishogi Int64, draws Int64, unknown Int64,"
    " rating_sum Int64, rated Int64";
static const char *const latest_cols =
    "key UInt64, move UInt16, top Array(UInt64), plies Array(UInt16)";
static const char *const games_cols =
    "id UInt32, path String, digest UInt64, number UInt32, sente Nullable(String),"
    " gote Nullable(String), date Nullable(String), event Nullable(String), result UInt8,"
    " handicap String, start Nullable(String), plies UInt32, sente_rating Int32,"
    " gote_rating Int32, moves Array(UInt16), ending Nullable(String), header String,"
    " sente_key Nullable(String), gote_key Nullable(String), sente_rank Nullable(String),"
    " gote_rank Nullable(String), ident UInt64" KIFU__CH_TAGS_COLS;

/* The games table's column `listing` (schema 3): "listing String MATERIALIZED ...", the
 * fields the explorer lists of a game (id, sente, gote, date, event, number, result,
 * path, sente_rating, gote_rating, sente_key, gote_key) as one TabSeparated line, made by
 * the server at insert, so that the explorer reads one column of each game it lists. */
static void listing_col(kifu__strbuf *b);

void kifu__ch_schema(kifu__strbuf *b, const char *db, const char *t, const char *cluster)
{
    /* Local tables carry _local on a cluster; the plain names are what queries use. */
    const char *l = cluster && *cluster ? "_local" : "";
    kifu__sb_printf(b, "CREATE DATABASE IF NOT EXISTS `%s`;\n", db);
    kifu__sb_printf(b,
                    "CREATE TABLE IF NOT EXISTS `%s`.`%s_positions%s` (%s)\n"
                    "  ENGINE = MergeTree ORDER BY (key, game, ply);\n",
                    db, t, l, positions_cols);
    /* Granules of KIFU__CH_KEY_GRANULE rows: the explorer reads a key's rows, a few. */
    kifu__sb_printf(b,
                    "CREATE TABLE IF NOT EXISTS `%s`.`%s_explorer%s` (%s)\n"
                    "  ENGINE = SummingMergeTree ORDER BY (key, move) SETTINGS "
                    "index_granularity = %d;\n",
                    db, t, l, explorer_cols, KIFU__CH_KEY_GRANULE);
    kifu__sb_printf(b,
                    "CREATE MATERIALIZED VIEW IF NOT EXISTS `%s`.`%s_explorer_mv%s` TO "
                    "`%s`.`%s_explorer%s` AS\n"
                    "  SELECT key, move, toInt64(sum(first_move)) AS games, "
                    "toInt64(sum(first_pos)) AS pos_games,"
                    "\n    toInt64(sum(first_move AND result = 1)) AS sente_wins,"
                    " toInt64(sum(first_move AND result = 2)) AS gote_wins,"
                    "\n    toInt64(sum(first_move AND result = 3)) AS sennichite,"
                    " toInt64(sum(first_move AND result = 4)) AS jishogi,"
                    "\n    toInt64(sum(first_move AND result = 5)) AS draws,"
                    " toInt64(sum(first_move AND result = 0)) AS unknown,"
                    "\n    toInt64(sum(toInt64(first_move AND rating > 0) * rating)) AS "
                    "rating_sum, toInt64(sum(first_move AND rating > 0)) AS rated\n"
                    "  FROM `%s`.`%s_positions%s` GROUP BY key, move;\n",
                    db, t, l, db, t, l, db, t, l);
    kifu__sb_printf(b,
                    "CREATE TABLE IF NOT EXISTS `%s`.`%s_latest%s` (%s)\n"
                    "  ENGINE = MergeTree ORDER BY (key, move) SETTINGS "
                    "index_granularity = %d;\n",
                    db, t, l, latest_cols, KIFU__CH_KEY_GRANULE);
    kifu__sb_printf(b,
                    "CREATE MATERIALIZED VIEW IF NOT EXISTS `%s`.`%s_latest_mv%s` TO "
                    "`%s`.`%s_latest%s` AS\n  SELECT key, move, ",
                    db, t, l, db, t, l);
    kifu__ch_top_sql(b, "top", "plies");
    kifu__sb_printf(
        b, "\n  FROM `%s`.`%s_positions%s` WHERE first_move = 1 GROUP BY key, move;\n",
        db, t, l);
    /* Small granules: the explorer reads a few games by id at scattered places, and of
     * each only its listing (one column, made by the server from the others). */
    kifu__sb_printf(b, "CREATE TABLE IF NOT EXISTS `%s`.`%s_games%s` (%s,\n  ", db, t, l,
                    games_cols);
    listing_col(b);
    kifu__sb_printf(
        b, ")\n  ENGINE = MergeTree ORDER BY id SETTINGS index_granularity = %d;\n",
        KIFU__CH_GAMES_GRANULE);
    kifu__sb_printf(
        b,
        "CREATE TABLE IF NOT EXISTS `%s`.`%s_batches` (batch UInt32, last UInt32,"
        " shard UInt16, state UInt8, gen UInt64, at DateTime DEFAULT now())\n"
        "  ENGINE = MergeTree ORDER BY batch;\n",
        db, t);
    /* The explorer's listings (schema 4), on the first server. */
    kifu__sb_printf(b,
                    "CREATE TABLE IF NOT EXISTS `%s`.`%s_listing` (%s)\n  ENGINE = %s;\n",
                    db, t, KIFU__CH_LISTING_COLS, KIFU__CH_LISTING_ENGINE);
    /* The files read (clickhouse_sources.c): the latest row of a path (seq) is its. */
    kifu__sb_printf(
        b,
        "CREATE TABLE IF NOT EXISTS `%s`.`%s_sources` (path String, digest UInt64,"
        " games UInt32, duplicates UInt32, seq UInt64)\n"
        "  ENGINE = MergeTree ORDER BY (path, seq);\n",
        db, t);
    if (!*l)
        return;
    static const char *const dist[4][2] = {
        {"positions", "key"}, {"explorer", "key"}, {"latest", "key"}, {"games", "id"}};
    for (int i = 0; i < 4; i++)
        kifu__sb_printf(b,
                        "CREATE TABLE IF NOT EXISTS `%s`.`%s_%s` AS `%s`.`%s_%s_local`\n"
                        "  ENGINE = Distributed(`%s`, `%s`, `%s_%s_local`, %s);\n",
                        db, t, dist[i][0], db, t, dist[i][0], cluster, db, t, dist[i][0],
                        dist[i][1]);
}

/* A nullable text column as a TabSeparated field (escaped as kifu__ch_tsv does). */
static void tsv_sql(kifu__strbuf *b, const char *col, int nullable)
{
    kifu__sb_printf(b,
                    "%sreplaceAll(replaceAll(replaceAll(replaceAll(%s, '\\\\', "
                    "'\\\\\\\\'), '\\t', '\\\\t'), '\\n', '\\\\n'), '\\r', "
                    "'\\\\r')%s",
                    nullable ? "ifNull(" : "", col, nullable ? ", '\\\\N')" : "");
}

static void listing_col(kifu__strbuf *b)
{
    /* The fields KIFU__CH_LISTING_FIELDS names, as a TabSeparated line's. */
    static const struct {
        const char *col;
        int text; /* 0: a number, 1: text, 2: nullable text */
    } f[] = {{"id", 0},           {"sente", 2},       {"gote", 2},      {"date", 2},
             {"event", 2},        {"number", 0},      {"result", 0},    {"path", 1},
             {"sente_rating", 0}, {"gote_rating", 0}, {"sente_key", 2}, {"gote_key", 2}};
    kifu__sb_puts(b, "listing String MATERIALIZED concat(");
    for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
        if (i)
            kifu__sb_puts(b, ", '\\t', ");
        if (f[i].text)
            tsv_sql(b, f[i].col, f[i].text == 2);
        else
            kifu__sb_printf(b, "toString(%s)", f[i].col);
    }
    kifu__sb_puts(b, ")");
}

void kifu__ch_top_sql(kifu__strbuf *b, const char *top, const char *plies)
{
    kifu__sb_printf(b,
                    "arraySlice(arrayReverseSort(groupArray(bitShiftLeft(toUInt64("
                    "toUInt32OrZero(replaceAll(date, '-', ''))), 32) + game)), 1, %d) AS "
                    "%s,\n    arraySlice(arrayReverseSort((x, y) -> y, groupArray(ply), "
                    "groupArray(bitShiftLeft(toUInt64(toUInt32OrZero(replaceAll(date, "
                    "'-', ''))), 32) + game)), 1, %d) AS %s",
                    KIFU__INDEX_TOP, top, KIFU__INDEX_TOP, plies);
}

/* The batches started and not done (of each batch and try: batch, gen), from the
 * journal's rows; counts: only those whose counts no repair took back yet. */
static void open_batches(const kifu__ch *ch, kifu__strbuf *b, const char *cols,
                         int counts)
{
    kifu__sb_printf(b, "SELECT %s FROM ", cols);
    kifu__ch_name(ch, b, "batches", 0);
    kifu__sb_printf(
        b, " WHERE state <= %d GROUP BY batch, gen HAVING max(state = %d) = 0%s",
        KIFU__CH_J_NEGATED, KIFU__CH_J_DONE, counts ? " AND max(state = 2) = 0" : "");
    /* state 2: KIFU__CH_J_NEGATED, a shard's counts taken back by a repair */
}

void kifu__ch_hidden(const kifu__ch *ch, kifu__strbuf *b, int counts, int negate)
{
    /* GLOBAL on a cluster only: the journal is on the first server, and the subquery
     * must run there; on one server it would only copy the set into a temporary table. */
    kifu__sb_printf(b, "%s%sIN ", ch->cluster[0] ? "GLOBAL " : "", negate ? "NOT " : "");
    kifu__sb_puts(b, "(SELECT toUInt32(arrayJoin(arrayMap(x -> x + batch, "
                     "range(toUInt64(l - batch + 1))))) FROM (");
    open_batches(ch, b, "batch, max(last) AS l", counts);
    kifu__sb_puts(b, "))");
}

void kifu__ch_open_sql(const kifu__ch *ch, kifu__strbuf *b)
{
    /* The batches (batch, gen) started less those done, which is open_batches' count:
     * each has one started row, and a done one once done (a repair writes it with the
     * batch's gen); the rows of states 2 to 5 follow a started row of their own or are
     * a removal's. Without GROUP BY: on 18.16 a GROUP BY costs more than this read. */
    kifu__sb_printf(b,
                    "(SELECT uniqExactIf((batch, gen), state = %d) - uniqExactIf((batch, "
                    "gen), state = %d) FROM ",
                    KIFU__CH_J_STARTED, KIFU__CH_J_DONE);
    kifu__ch_name(ch, b, "batches", 0);
    kifu__sb_puts(b, ")");
}

static int name_ok(const char *s)
{
    if (!s || !*s || strlen(s) >= 48)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

int kifu__ch_names_check(const kifu_clickhouse_options *o, kifu_error *err)
{
    const char *v[3] = {o ? o->database : NULL, o ? o->table : NULL,
                        o ? o->cluster : NULL};
    static const char *const what[3] = {"database", "table", "cluster"};
    for (int i = 0; i < 3; i++)
        if (v[i] && !name_ok(v[i]))
            return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "letters, digits and _", v[i],
                               "bad ClickHouse %s name '%s' (letters, digits and _ only)",
                               what[i], v[i]);
    return 0;
}

char *kifu_clickhouse_schema(const kifu_clickhouse_options *o, kifu_error *err)
{
    if (kifu__ch_names_check(o, err))
        return NULL;
    kifu__strbuf b;
    kifu__sb_init(&b);
    kifu__ch_schema(&b, o && o->database ? o->database : "kifu",
                    o && o->table ? o->table : "kifu", o ? o->cluster : NULL);
    char *s = kifu__sb_take(&b, NULL);
    if (!s)
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return s;
}
