/* index_schema.c: the tables of an index file, made and checked. docs/index.md ("The
 * file") documents them for users who query the file with sqlite3 directly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/index_private.h"
#include "kifu_private.h"

/* Positions are the bulk: one row per bucket of keys (the key's top bits) and run (the
 * batch that wrote it, id = run << 20 | bucket), its blob every occurrence in the bucket
 * packed (index_block.c): a million games make a few million rows, not a hundred
 * million. `runs` lists the runs, oldest first, with their entry counts. A block and a
 * game's moves each have their checksum beside them (kifu__index_sum), checked as they
 * are read. */
static const char *const schema =
    "PRAGMA page_size=8192;"
    "PRAGMA journal_mode=WAL;"
    "CREATE TABLE kifu_meta(name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;"
    "CREATE TABLE sources(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE,"
    " size INTEGER NOT NULL, digest INTEGER NOT NULL, games INTEGER NOT NULL,"
    " duplicates INTEGER NOT NULL);"
    "CREATE TABLE games(id INTEGER PRIMARY KEY, source INTEGER NOT NULL, number INTEGER "
    "NOT "
    "NULL, sente TEXT, gote TEXT, date TEXT, event TEXT, result INTEGER NOT NULL,"
    " handicap TEXT NOT NULL, start TEXT, plies INTEGER NOT NULL, sente_rating INTEGER,"
    " gote_rating INTEGER, moves BLOB NOT NULL, ending TEXT, header TEXT NOT NULL,"
    " sente_key TEXT, gote_key TEXT, sente_rank TEXT, gote_rank TEXT, ident INTEGER NOT "
    "NULL, moves_sum INTEGER NOT NULL);"
    "CREATE TABLE positions(id INTEGER PRIMARY KEY, block BLOB NOT NULL, sum INTEGER NOT "
    "NULL);"
    /* Each game's tags (index_tags.c): side 0 sente, 1 gote, 2 the game's. */
    "CREATE TABLE tag_names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
    " family INTEGER NOT NULL);"
    "CREATE TABLE game_tags(game INTEGER NOT NULL, side INTEGER NOT NULL, tag INTEGER "
    "NOT "
    "NULL, PRIMARY KEY(game, side, tag)) WITHOUT ROWID;"
    "CREATE TABLE runs(id INTEGER PRIMARY KEY, entries INTEGER NOT NULL);"
    "CREATE TABLE hot(key INTEGER PRIMARY KEY, games INTEGER NOT NULL, days BLOB) "
    "WITHOUT "
    "ROWID;"
    "CREATE TABLE explorer(key INTEGER NOT NULL, move INTEGER NOT NULL, games INTEGER "
    "NOT "
    "NULL, sente_wins INTEGER NOT NULL, gote_wins INTEGER NOT NULL, sennichite INTEGER "
    "NOT "
    "NULL, jishogi INTEGER NOT NULL, draws INTEGER NOT NULL, unknown INTEGER NOT NULL,"
    " last_date TEXT NOT NULL, top BLOB NOT NULL, days BLOB,"
    /* The ratings of the players who made the move, summed over the games that give
     * one (rated of them): the explorer's average rating. */
    " rating_sum INTEGER NOT NULL, rated INTEGER NOT NULL, PRIMARY KEY(key, move)) "
    "WITHOUT "
    "ROWID;"
    /* A hot key's listed games, what the explorer prints of each (index_listing.c). */
    "CREATE TABLE listing(key INTEGER PRIMARY KEY, games BLOB NOT NULL);";

/* The games' indexes: made with the tables, or by a bulk build once its games are all
 * in (kifu__index_schema_indexes), when SQLite sorts each instead of inserting a
 * million names into it in no order. */
static const char *const indexes =
    "CREATE INDEX IF NOT EXISTS games_source ON games(source);"
    /* The explorer's filters find their games by these (index_filter.c). */
    "CREATE INDEX IF NOT EXISTS games_sente ON games(sente_key);"
    "CREATE INDEX IF NOT EXISTS games_gote ON games(gote_key);"
    "CREATE INDEX IF NOT EXISTS games_event ON games(event);"
    "CREATE INDEX IF NOT EXISTS games_rating ON games(sente_rating);"
    /* The explorer's average rating reads each counted game's ratings by id: from this
     * (a few bytes a game) rather than from the games' rows (index_sqlite_explore.c). */
    "CREATE INDEX IF NOT EXISTS games_ratings ON games(id, sente_rating, gote_rating);";

/* --tag filters find their games by it (index_tags.c). Made with the tables, a bulk
 * build's too: its rows come game by game, so each (tag, side) takes them at its end,
 * while the files are read (on two cores, half its cost), instead of half a second of
 * sorting half a million rows after the last file, when one thread writes and the other
 * has little left to do (issue 31). */
static const char *const tag_index =
    "CREATE INDEX IF NOT EXISTS game_tags_tag ON game_tags(tag, side);";

int kifu__index_sqlite_error(sqlite3 *db, const char *path, const char *what,
                             kifu_error *err)
{
    /* A query stopped by its deadline (kifu_index_set_deadline) is no damage. */
    if (db && sqlite3_errcode(db) == SQLITE_INTERRUPT) {
        kifu__error(err, KIFU_ERR_BUSY, 0, 0, 0, NULL, NULL,
                    "%s: query interrupted: it ran past its time", what);
        kifu__error_source(err, path);
        return -1;
    }
    /* SQLite's message is "not an error" when the failure was not SQLite's but kifu's
     * reading what it returned (a block that does not decode). */
    kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL, "%s: %s", what,
                !db                                ? "out of memory"
                : sqlite3_errcode(db) == SQLITE_OK ? "its data does not decode (damaged?)"
                                                   : sqlite3_errmsg(db));
    kifu__error_source(err, path);
    return -1;
}

int kifu__index_exec(sqlite3 *db, const char *path, const char *sql, kifu_error *err)
{
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return kifu__index_sqlite_error(db, path, "index", err);
    return 0;
}

int kifu__index_schema_indexes(sqlite3 *db, kifu_error *err)
{
    if (sqlite3_exec(db, indexes, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(db, tag_index, NULL, NULL, NULL) != SQLITE_OK)
        return kifu__index_sqlite_error(db, NULL, "cannot make the index", err);
    return 0;
}

int kifu__index_schema_create(sqlite3 *db, int with_indexes, kifu_error *err)
{
    char meta[160];
    snprintf(meta, sizeof meta,
             "INSERT INTO kifu_meta VALUES('format','kifu-index'),('version','%d'),"
             "('hot','%d');",
             KIFU__INDEX_VERSION, KIFU__INDEX_HOT);
    if (sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK ||
        (with_indexes && sqlite3_exec(db, indexes, NULL, NULL, NULL) != SQLITE_OK) ||
        sqlite3_exec(db, tag_index, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(db, meta, NULL, NULL, NULL) != SQLITE_OK)
        return kifu__index_sqlite_error(db, NULL, "cannot make the index", err);
    return 0;
}

int kifu__index_schema_check(sqlite3 *db, const char *path, kifu_error *err)
{
    sqlite3_stmt *st = NULL;
    /* Any SQL on a file that is not SQLite fails here ("file is not a database"). */
    if (sqlite3_prepare_v2(db,
                           "SELECT value FROM kifu_meta WHERE name='format' OR "
                           "name='version' ORDER BY name",
                           -1, &st, NULL) != SQLITE_OK) {
        int foreign = sqlite3_errcode(db) == SQLITE_ERROR; /* no such table */
        kifu__error(err, KIFU_ERR_SYNTAX, 0, 0, 0, "a kifu index",
                    foreign ? "another SQLite database" : "not an SQLite file",
                    "not a kifu index (%s)", sqlite3_errmsg(db));
        kifu__error_source(err, path);
        return -1;
    }
    char format[32] = "", version[32] = "";
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(format, sizeof format, "%s", (const char *)sqlite3_column_text(st, 0));
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(version, sizeof version, "%s", (const char *)sqlite3_column_text(st, 0));
    int rc = sqlite3_finalize(st);
    if (rc != SQLITE_OK || strcmp(format, "kifu-index") != 0) {
        kifu__error(err, KIFU_ERR_SYNTAX, 0, 0, 0, "a kifu index", "another database",
                    "not a kifu index (%s)",
                    rc != SQLITE_OK ? sqlite3_errmsg(db) : "no kifu_meta format row");
        kifu__error_source(err, path);
        return -1;
    }
    if (atoi(version) != KIFU__INDEX_VERSION) {
        kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0,
                    "index version " KIFU__INDEX_VERSION_TEXT, version,
                    "index version %s; this kifu reads version %d (build it again with "
                    "kifu index build)",
                    version, KIFU__INDEX_VERSION);
        kifu__error_source(err, path);
        return -1;
    }
    return 0;
}
