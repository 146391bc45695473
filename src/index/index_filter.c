/* index_filter.c: the games the explorer's player, event and rating filters admit, found
 * through the games table's indexes instead of a read of the game row of every
 * occurrence (a position of thousands of games took thousands of row reads). Each
 * lookup is bounded by the occurrences it would save, so a filter that admits most games
 * costs no more than the row reads did. */
#include <stdlib.h>
#include <string.h>

#include "index/index_private.h"
#include "kifu_private.h"

/* Distinct events looked at, at most, to settle an event filter without row reads. */
#define MAX_EVENTS 256

/* Ids of the first rows of st (bound already) into s, sorted: 1 when they were at most
 * limit, 0 when more (s then unusable), -1 on an SQLite error. */
static int collect(sqlite3_stmt *st, size_t limit, kifu__gameset *s)
{
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (s->n >= limit) {
            sqlite3_finalize(st);
            return 0;
        }
        if (kifu__reserve(&s->id, &s->cap, s->n + 1, sizeof *s->id, 64)) {
            sqlite3_finalize(st);
            return -1;
        }
        s->id[s->n++] = (uint32_t)sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return -1;
    if (s->n > 1) {
        qsort(s->id, s->n, sizeof *s->id, kifu__cmp_u32);
        size_t m = 1;
        for (size_t i = 1; i < s->n; i++)
            if (s->id[i] != s->id[m - 1])
                s->id[m++] = s->id[i];
        s->n = m;
    }
    return 1;
}

/* The event filter settled from the distinct events (an index skip-scan, one seek each):
 * 1 every game passes, 0 none does, 2 some (rows decide), -1 error. */
static int event_state(sqlite3 *db, const char *want)
{
    sqlite3_stmt *next = NULL, *null = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(db,
                           "SELECT event FROM games WHERE event > ? ORDER BY event "
                           "LIMIT 1",
                           -1, &next, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT 1 FROM games WHERE event IS NULL LIMIT 1", -1,
                           &null, NULL) != SQLITE_OK)
        goto out;
    int some = sqlite3_step(null) == SQLITE_ROW; /* a game without event fails */
    int pass = 0, fail = some, seen = 0, s = SQLITE_DONE;
    char last[1024] = "";
    for (; seen < MAX_EVENTS; seen++) {
        sqlite3_bind_text(next, 1, last, -1, SQLITE_TRANSIENT);
        if ((s = sqlite3_step(next)) != SQLITE_ROW)
            break;
        const char *e = (const char *)sqlite3_column_text(next, 0);
        if (!e || strlen(e) >= sizeof last) {
            sqlite3_reset(next);
            rc = 2; /* too long to step past: rows decide */
            goto out;
        }
        if (strstr(e, want))
            pass = 1;
        else
            fail = 1;
        memcpy(last, e, strlen(e) + 1);
        sqlite3_reset(next);
    }
    if (s != SQLITE_DONE && s != SQLITE_ROW)
        goto out;
    rc = seen == MAX_EVENTS || (pass && fail) ? 2 : pass;
out:
    sqlite3_finalize(next), sqlite3_finalize(null);
    return rc;
}

/* The games whose event contains `want`, from the distinct events (as event_state
 * steps through them) and the event index, into s (sorted): 1 when they were at most
 * limit, 0 when more or too many events to tell (s then unusable), -1 on an error. */
static int event_games(sqlite3 *db, const char *want, size_t limit, kifu__gameset *s)
{
    sqlite3_stmt *next = NULL, *ids = NULL;
    int rc = -1, st = SQLITE_DONE, seen = 0;
    char last[1024] = "";
    if (sqlite3_prepare_v2(db,
                           "SELECT event FROM games WHERE event > ? ORDER BY event "
                           "LIMIT 1",
                           -1, &next, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT id FROM games WHERE event = ?", -1, &ids, NULL) !=
            SQLITE_OK)
        goto out;
    for (rc = 1; rc == 1 && seen < MAX_EVENTS; seen++) {
        sqlite3_bind_text(next, 1, last, -1, SQLITE_TRANSIENT);
        if ((st = sqlite3_step(next)) != SQLITE_ROW)
            break;
        const char *e = (const char *)sqlite3_column_text(next, 0);
        if (!e || strlen(e) >= sizeof last) {
            rc = 0;
            break;
        }
        memcpy(last, e, strlen(e) + 1);
        sqlite3_reset(next);
        if (!strstr(last, want))
            continue;
        sqlite3_bind_text(ids, 1, last, -1, SQLITE_STATIC);
        while (rc == 1 && (st = sqlite3_step(ids)) == SQLITE_ROW) {
            if (s->n >= limit)
                rc = 0;
            else if (kifu__reserve(&s->id, &s->cap, s->n + 1, sizeof *s->id, 64))
                rc = -1;
            else
                s->id[s->n++] = (uint32_t)sqlite3_column_int64(ids, 0);
        }
        sqlite3_reset(ids);
        if (rc == 1 && st != SQLITE_DONE)
            rc = -1;
    }
    if (rc == 1 && (seen == MAX_EVENTS || (st != SQLITE_DONE && st != SQLITE_ROW)))
        rc = seen == MAX_EVENTS ? 0 : -1;
    if (rc == 1 && s->n > 1)
        qsort(s->id, s->n, sizeof *s->id, kifu__cmp_u32); /* one event each: no twice */
out:
    sqlite3_finalize(next), sqlite3_finalize(ids);
    return rc;
}

int kifu__filter_games(sqlite3 *db, const kifu_explore_options *o, int flipped,
                       size_t limit, kifu__gameset *s)
{
    s->n = 0;
    s->rows = o->player || o->player_like || o->event || o->min_rating > 0;
    s->use = 0;
    if (!s->rows)
        return 0;
    int event = 1;
    if (o->event && (event = event_state(db, o->event)) < 0)
        return -1;
    if (event == 0) { /* no game's event matches */
        s->use = 1, s->rows = 0;
        return 0;
    }
    sqlite3_stmt *st = NULL;
    if (o->player || o->player_like) {
        /* The side the player takes in the stored game (a flipped count swaps them). */
        int color = o->player_color;
        if (flipped && color)
            color = 3 - color;
        /* By the key (its index), or by a part of it (every game's keys read). */
        static const char *const sql[2][3] = {
            {"SELECT id FROM games WHERE sente_key=?1 UNION ALL SELECT id FROM games "
             "WHERE "
             "gote_key=?1",
             "SELECT id FROM games WHERE sente_key=?1",
             "SELECT id FROM games WHERE gote_key=?1"},
            {"SELECT id FROM games WHERE instr(sente_key, ?1) OR instr(gote_key, ?1)",
             "SELECT id FROM games WHERE instr(sente_key, ?1)",
             "SELECT id FROM games WHERE instr(gote_key, ?1)"}};
        if (sqlite3_prepare_v2(db, sql[!o->player][color], -1, &st, NULL) != SQLITE_OK)
            return -1;
        sqlite3_bind_text(st, 1, o->player ? o->player : o->player_like, -1,
                          SQLITE_STATIC);
    } else if (o->min_rating > 0) {
        if (sqlite3_prepare_v2(db,
                               "SELECT id FROM games WHERE sente_rating >= ?1 AND "
                               "gote_rating >= ?1",
                               -1, &st, NULL) != SQLITE_OK)
            return -1;
        sqlite3_bind_int(st, 1, o->min_rating);
    } else {
        /* Only an event filter: settled for every game, or its games found by their
         * events (left to the rows when there are too many). */
        s->rows = 0;
        if (event == 2) {
            int rc = event_games(db, o->event, limit, s);
            if (rc < 0)
                return -1;
            s->use = rc, s->rows = !rc;
            if (!rc)
                s->n = 0;
        }
        return 0;
    }
    int rc = collect(st, limit, s);
    if (rc < 0)
        return -1;
    s->use = rc;
    /* What the set does not settle is checked on the rows of its games (few). */
    s->rows = event == 2 || ((o->player || o->player_like) && o->min_rating > 0) ||
              (o->player && o->player_like);
    if (!rc)
        s->rows = 1, s->n = 0;
    return 0;
}

int kifu__gameset_has(const kifu__gameset *s, uint32_t game)
{
    return s->n && bsearch(&game, s->id, s->n, sizeof game, kifu__cmp_u32) != NULL;
}

int kifu__filter_none(sqlite3 *db, const kifu_explore_options *o)
{
    if (o->player || o->player_like || o->min_rating > 0 || o->date_from || o->date_to ||
        o->ntags || !o->event)
        return 0;
    return event_state(db, o->event);
}
