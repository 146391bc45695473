/* clickhouse_write.c: opening the index on ClickHouse and writing batches. The rows are
 * the SQLite index's (index_build.c queues them); here they become TabSeparated INSERTs,
 * positions to the shard of their key and games to the shard of their id, each INSERT one
 * block (one part, written whole or not at all) so that a failed one can be retried.
 *
 * ClickHouse has no transactions, so a batch is journaled: started (its game ids), then
 * positions, then games, then done. A batch that never got done (a shard went down for
 * longer than the retries) is repaired when the index is next opened for writing: the
 * counts its positions added are taken back (the same sums, negated, into the explorer
 * table), its rows deleted, and the deletions waited for. Its games are then not indexed,
 * and adding their files again adds them once.
 *
 * A file indexed before with other content is replaced the same way: the next flush
 * first removes its old games (journaled as a removal: started, counts taken back per
 * shard, done), then writes the batch with the new ones. Counts are cancelled by
 * negative rows because a SummingMergeTree sums them at once in every query, where an
 * ALTER ... DELETE on 18.16 is a mutation that rewrites each part in the background; the
 * rows themselves can only go that way, and the flush waits for it (on a large table a
 * rewrite of every part of positions: seconds to minutes). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "index/clickhouse.h"
#include "index/index_agg.h"
#include "index/index_private.h"
#include "kifu_private.h"
#include "rules/engine.h"

/* Rows of one INSERT at most: large parts (a table refuses inserts past 300 parts), and
 * still a bounded request. */
#define CH_ROWS_PER_INSERT 2000000

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

static void ch_free(kifu__ch *ch)
{
    if (!ch)
        return;
    kifu__ch_games_clear(ch);
    kifu__free(ch->games);
    kifu__free(ch->replaced.v);
    kifu__ch_sources_free(ch);
    for (size_t i = 0; i < ch->nservers; i++)
        kifu__ch_disconnect(&ch->servers[i]);
    kifu__free(ch->servers);
    kifu__free(ch);
}

/* The first number of a TabSeparated answer. */
static long long answer_int(const kifu__strbuf *b)
{
    return b->data ? strtoll(b->data, NULL, 10) : 0;
}

/* Run the DDL on one server, statement by statement (the HTTP interface takes one). */
static int create_tables(kifu__ch *ch, kifu__ch_server *s, kifu_error *err)
{
    kifu__strbuf ddl;
    kifu__sb_init(&ddl);
    kifu__ch_schema(&ddl, ch->database, ch->table, ch->cluster);
    if (ddl.failed)
        return nomem(err);
    int rc = 0;
    for (char *st = ddl.data, *end; !rc && st && *st; st = end + 2) {
        end = strstr(st, ";\n");
        if (!end)
            break;
        *end = 0;
        rc = kifu__ch_sql(ch, s, st, NULL, err);
    }
    kifu__sb_free(&ddl);
    return rc;
}

static int split_urls(kifu__ch *ch, const char *urls, const kifu__ch_access *a,
                      kifu_error *err)
{
    size_t n = 1;
    for (const char *c = urls; *c; c++)
        n += *c == ',';
    ch->servers = kifu__calloc(n, sizeof *ch->servers);
    if (!ch->servers)
        return nomem(err);
    for (const char *p = urls; ch->nservers < n;) {
        size_t len = strcspn(p, ",");
        char url[256];
        snprintf(url, sizeof url, "%.*s", (int)len, p);
        if (kifu__ch_server_parse(&ch->servers[ch->nservers++], url, a, err))
            return -1;
        p += len + (p[len] == ',');
    }
    return 0;
}

/* A cluster's shards as the server knows them must be the URLs given, one each. */
static int check_cluster(kifu__ch *ch, kifu_error *err)
{
    if (!ch->cluster[0]) {
        if (ch->nservers > 1)
            return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                               "%zu ClickHouse URLs but no cluster name: several URLs "
                               "are the shards of a cluster",
                               ch->nservers);
        return 0;
    }
    char sql[200];
    snprintf(sql, sizeof sql,
             "SELECT count(DISTINCT shard_num) FROM system.clusters WHERE cluster = '%s'",
             ch->cluster);
    kifu__strbuf out;
    kifu__sb_init(&out);
    int rc = kifu__ch_sql(ch, &ch->servers[0], sql, &out, err);
    long long shards = answer_int(&out);
    kifu__sb_free(&out);
    if (rc)
        return -1;
    if (shards != (long long)ch->nservers)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                           "cluster '%s' has %lld shards on %s (remote_servers), but %zu "
                           "URLs were given, one a shard",
                           ch->cluster, shards, ch->servers[0].url, ch->nservers);
    return 0;
}

/* ---- The journal ------------------------------------------------------------------- */

/* Journal states (clickhouse.h): a batch's, and a removal's (of a replaced file's games). */
enum {
    J_STARTED = KIFU__CH_J_STARTED,
    J_DONE = KIFU__CH_J_DONE,
    J_NEGATED = KIFU__CH_J_NEGATED,
    J_REMOVING = KIFU__CH_J_REMOVING,
    J_REMOVED = KIFU__CH_J_REMOVED,
    J_REMOVE_NEGATED = KIFU__CH_J_REMOVE_NEGATED
};

/* A new generation for the journal rows of a batch or removal: its ids can be given
 * again after a repair took them back, so the rows of each try are told apart by it. */
static void new_gen(kifu__ch *ch)
{
    static unsigned counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ch->gen = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
              ((uint64_t)getpid() << 40) ^ (uint64_t)++counter << 20;
}

/* One journal row for each of the n ranges (one INSERT: one part), of generation
 * ch->gen. */
static int journal_ranges(kifu__ch *ch, const uint32_t (*r)[2], size_t n, size_t shard,
                          int state, kifu_error *err)
{
    kifu__strbuf q, params;
    kifu__sb_init(&q), kifu__sb_init(&params);
    kifu__sb_puts(&q, "INSERT INTO ");
    kifu__ch_name(ch, &q, "batches", 0);
    kifu__sb_puts(&q, " (batch, last, shard, state, gen) VALUES ");
    for (size_t i = 0; i < n; i++)
        kifu__sb_printf(&q, "%s(%u, %u, %zu, %d, %llu)", i ? ", " : "", (unsigned)r[i][0],
                        (unsigned)r[i][1], shard, state, (unsigned long long)ch->gen);
    kifu__sb_puts(&params, "query=");
    kifu__ch_urlencode(&params, q.data ? q.data : "");
    int rc =
        q.failed || params.failed
            ? nomem(err)
            : kifu__ch_post_retry(ch, &ch->servers[0], params.data, "", 0, NULL, err);
    kifu__sb_free(&q), kifu__sb_free(&params);
    return rc;
}

static int journal(kifu__ch *ch, uint32_t batch, uint32_t last, size_t shard, int state,
                   kifu_error *err)
{
    const uint32_t r[1][2] = {{batch, last}};
    return journal_ranges(ch, r, 1, shard, state, err);
}

/* How long a flush or a repair waits for ClickHouse's deletions (mutations) of a removed
 * or broken batch's rows. Not --timeout, which bounds one request: a mutation rewrites
 * every part holding one of the rows (for positions, ordered by key, nearly every part),
 * which takes minutes on a large table; this bounds a server that stopped merging. The
 * rows stay hidden or counted out meanwhile, and the journal finishes the removal at the
 * next open if this gives up. */
#define CH_MUTATION_WAIT_MS (15 * 60 * 1000)

/* Wait until no mutation of our tables is pending on server s. */
static int wait_mutations(kifu__ch *ch, kifu__ch_server *s, kifu_error *err)
{
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT count() FROM system.mutations WHERE database = '%s' AND "
             "startsWith(table, '%s_') AND NOT is_done",
             ch->database, ch->table);
    for (int waited = 0;; waited += 100) {
        kifu__strbuf out;
        kifu__sb_init(&out);
        int rc = kifu__ch_sql(ch, s, sql, &out, err);
        long long pending = answer_int(&out);
        kifu__sb_free(&out);
        if (rc || !pending)
            return rc;
        if (waited >= CH_MUTATION_WAIT_MS)
            return kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL,
                               "ClickHouse server %s: deletions still running after %d s "
                               "(system.mutations); the next add finishes them",
                               s->url, waited / 1000);
        struct timespec ts = {0, 100 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* "col BETWEEN a AND b OR ..." for the n game ranges r. */
static void ranges_sql(kifu__strbuf *q, const char *col, const uint32_t (*r)[2], size_t n)
{
    for (size_t i = 0; i < n; i++)
        kifu__sb_printf(q, "%s%s BETWEEN %u AND %u", i ? " OR " : "", col,
                        (unsigned)r[i][0], (unsigned)r[i][1]);
}

/* Rank again the latest games of every (key, move) that the games of the n ranges r reach
 * on server s, without them (a few rows: more of a (key, move) are harmless, the query
 * takes the distinct latest). */
static int rerank(kifu__ch *ch, kifu__ch_server *s, const uint32_t (*r)[2], size_t n,
                  kifu_error *err)
{
    kifu__strbuf q;
    kifu__sb_init(&q);
    kifu__sb_puts(&q, "INSERT INTO ");
    kifu__ch_name(ch, &q, "latest", 1);
    kifu__sb_puts(&q, " SELECT key, move, ");
    kifu__ch_top_sql(&q, "top", "plies");
    kifu__sb_puts(&q, " FROM ");
    kifu__ch_name(ch, &q, "positions", 1);
    kifu__sb_puts(&q, " WHERE first_move = 1 AND NOT (");
    ranges_sql(&q, "game", r, n);
    kifu__sb_puts(&q, ") AND key IN (SELECT key FROM ");
    kifu__ch_name(ch, &q, "positions", 1);
    kifu__sb_puts(&q, " WHERE first_move = 1 AND (");
    ranges_sql(&q, "game", r, n);
    kifu__sb_puts(&q, ")) AND (key, move) IN (SELECT key, move FROM ");
    kifu__ch_name(ch, &q, "positions", 1);
    kifu__sb_puts(&q, " WHERE first_move = 1 AND (");
    ranges_sql(&q, "game", r, n);
    kifu__sb_puts(&q, ")) GROUP BY key, move");
    int rc = q.failed ? nomem(err) : kifu__ch_sql(ch, s, q.data, NULL, err);
    kifu__sb_free(&q);
    return rc;
}

/* The listing table (first server) made again from the games table: a Join table has no
 * deletes, and keeps the first listing of an id, so after a repair (whose ids the next
 * try gives again) or a removal its rows are the games'. Filled aside, then renamed in
 * place (a reader that finds no listing of a game, or no table, reads the games table). */
static int listing_rebuild(kifu__ch *ch, kifu_error *err)
{
    kifu__strbuf q, name, fresh, old;
    kifu__sb_init(&q), kifu__sb_init(&name), kifu__sb_init(&fresh), kifu__sb_init(&old);
    kifu__ch_name(ch, &name, "listing", 0);
    kifu__ch_name(ch, &fresh, "listing_new", 0);
    kifu__ch_name(ch, &old, "listing_old", 0);
    int rc = q.failed || name.failed || fresh.failed || old.failed ? nomem(err) : 0;
    for (int step = 0; !rc && step < 6; step++) {
        q.len = 0;
        if (step == 0)
            kifu__sb_printf(&q, "DROP TABLE IF EXISTS %s", fresh.data);
        else if (step == 1)
            kifu__sb_printf(&q, "CREATE TABLE %s (%s) ENGINE = %s", fresh.data,
                            KIFU__CH_LISTING_COLS, KIFU__CH_LISTING_ENGINE);
        else if (step == 2) {
            kifu__sb_printf(&q, "INSERT INTO %s SELECT id, listing FROM ", fresh.data);
            kifu__ch_name(ch, &q, "games", 0);
        } else if (step == 3)
            kifu__sb_printf(&q, "DROP TABLE IF EXISTS %s", old.data);
        else if (step == 4)
            kifu__sb_printf(&q, "RENAME TABLE %s TO %s, %s TO %s", name.data, old.data,
                            fresh.data, name.data);
        else
            kifu__sb_printf(&q, "DROP TABLE %s", old.data);
        rc = q.failed ? nomem(err) : kifu__ch_sql(ch, &ch->servers[0], q.data, NULL, err);
    }
    if (rc)
        kifu__ch_err_prefix(err, "rebuilding the listing table: ");
    kifu__sb_free(&q), kifu__sb_free(&name), kifu__sb_free(&fresh), kifu__sb_free(&old);
    return rc;
}

/* The batch's listings (ids first to last, its games written) into the listing table,
 * read back from the games table, which makes them (one column). Not retried: a failure
 * leaves the batch not done, and the repair makes the table again. */
static int listing_add(kifu__ch *ch, uint32_t first, uint32_t last, kifu_error *err)
{
    kifu__strbuf q;
    kifu__sb_init(&q);
    kifu__sb_puts(&q, "INSERT INTO ");
    kifu__ch_name(ch, &q, "listing", 0);
    kifu__sb_puts(&q, " SELECT id, listing FROM ");
    kifu__ch_name(ch, &q, "games", 0);
    kifu__sb_printf(&q, " WHERE id BETWEEN %u AND %u", (unsigned)first, (unsigned)last);
    int rc = q.failed ? nomem(err) : kifu__ch_sql(ch, &ch->servers[0], q.data, NULL, err);
    kifu__sb_free(&q);
    return rc;
}

/* Take back what the games of the n ranges r wrote on shard i: their counts (unless the
 * journal says they were taken back already; else it is told, as state `negated_state`),
 * then their rows. */
static int remove_shard(kifu__ch *ch, const uint32_t (*r)[2], size_t n, size_t i,
                        int negated, int negated_state, kifu_error *err)
{
    kifu__ch_server *s = &ch->servers[i];
    kifu__strbuf q;
    kifu__sb_init(&q);
    int rc = 0;
    if (!negated) {
        kifu__sb_puts(&q, "INSERT INTO ");
        kifu__ch_name(ch, &q, "explorer", 1);
        kifu__sb_puts(&q, " SELECT key, move, -toInt64(sum(first_move)), "
                          "-toInt64(sum(first_pos))");
        for (int k = 1; k <= 5; k++)
            kifu__sb_printf(&q, ", -toInt64(sum(first_move AND result = %d))", k);
        kifu__sb_puts(&q, ", -toInt64(sum(first_move AND result = 0)), -toInt64(sum("
                          "toInt64(first_move AND rating > 0) * rating)), -toInt64(sum("
                          "first_move AND rating > 0)) FROM ");
        kifu__ch_name(ch, &q, "positions", 1);
        kifu__sb_puts(&q, " WHERE ");
        ranges_sql(&q, "game", r, n);
        kifu__sb_puts(&q, " GROUP BY key, move");
        rc = q.failed ? nomem(err) : kifu__ch_sql(ch, s, q.data, NULL, err);
        if (!rc)
            rc = journal_ranges(ch, r, n, i, negated_state, err);
    }
    /* The latest games: a removal's games were ranked among others of their insert
     * blocks, so the latest games of each (key, move) they reach are ranked again
     * without them first; then every row naming one of them goes. */
    if (!rc && negated_state == J_REMOVE_NEGATED)
        rc = rerank(ch, s, r, n, err);
    static const char *const what[3][2] = {
        {"latest", NULL}, {"positions", "game"}, {"games", "id"}};
    for (int k = 0; k < 3 && !rc; k++) {
        q.len = 0;
        kifu__sb_puts(&q, "ALTER TABLE ");
        kifu__ch_name(ch, &q, what[k][0], 1);
        kifu__sb_puts(&q, " DELETE WHERE ");
        if (what[k][1])
            ranges_sql(&q, what[k][1], r, n);
        else {
            kifu__sb_puts(&q, "arrayExists(r -> ");
            ranges_sql(&q, "bitAnd(r, 4294967295)", r, n);
            kifu__sb_puts(&q, ", top)");
        }
        rc = q.failed ? nomem(err) : kifu__ch_sql(ch, s, q.data, NULL, err);
    }
    kifu__sb_free(&q);
    return rc ? rc : wait_mutations(ch, s, err);
}

/* Repair every batch the journal has started and not done. */
static int repair(kifu__ch *ch, kifu_error *err)
{
    kifu__strbuf q, out;
    kifu__sb_init(&q), kifu__sb_init(&out);
    /* Batches and removals apart: a removal's range may start where a batch did. */
    kifu__sb_printf(&q,
                    "SELECT batch, gen, max(last), state >= %d AS removal, "
                    "groupUniqArrayIf(shard, state IN (%d, %d)) FROM ",
                    J_REMOVING, J_NEGATED, J_REMOVE_NEGATED);
    kifu__ch_name(ch, &q, "batches", 0);
    kifu__sb_printf(&q,
                    " GROUP BY batch, gen, removal HAVING max(state IN (%d, %d)) = 0 "
                    "ORDER BY batch FORMAT TabSeparated",
                    J_DONE, J_REMOVED);
    int rc = q.failed ? nomem(err) : kifu__ch_sql(ch, &ch->servers[0], q.data, &out, err);
    for (const char *p = out.data; !rc && p && *p;) {
        uint32_t first = (uint32_t)strtoul(p, (char **)&p, 10);
        ch->gen = strtoull(p, (char **)&p, 10); /* its rows are of that try's */
        uint32_t last = (uint32_t)strtoul(p, (char **)&p, 10);
        int removal = (int)strtol(p, (char **)&p, 10);
        const uint32_t range[1][2] = {{first, last}};
        const char *arr = p + strspn(p, "\t");
        p += strcspn(p, "\n");
        for (size_t i = 0; !rc && i < ch->nservers; i++) {
            /* Is shard i in the array "[0,1]"? */
            int negated = 0;
            for (const char *a = arr + (*arr == '['); a < p && *a >= '0' && *a <= '9';) {
                negated |= strtoul(a, (char **)&a, 10) == i;
                a += *a == ',';
            }
            rc = remove_shard(ch, range, 1, i, negated,
                              removal ? J_REMOVE_NEGATED : J_NEGATED, err);
        }
        if (!rc) /* before the done row: a failure here is repaired again */
            rc = listing_rebuild(ch, err);
        if (!rc)
            rc = journal(ch, first, last, 0, removal ? J_REMOVED : J_DONE, err);
        p += *p == '\n';
    }
    kifu__sb_free(&q), kifu__sb_free(&out);
    return rc;
}

static const kifu__index_ops ch_ops;

/* An index made by an older kifu (schema 1: no table of latest games, which the explorer
 * now reads) would answer wrongly, and creating the missing tables would leave them
 * empty: refused, with what to do. */
static int schema_check(kifu__ch *ch, kifu_error *err)
{
    char sql[1024];
    snprintf(sql, sizeof sql,
             "SELECT countIf(name IN ('%s_games', '%s_games_local')), countIf(name IN "
             "('%s_latest', '%s_latest_local')), countIf(name = '%s_listing') FROM "
             "system.tables WHERE database = '%s' FORMAT TabSeparated",
             ch->table, ch->table, ch->table, ch->table, ch->table, ch->database);
    kifu__strbuf out;
    kifu__sb_init(&out);
    int rc = kifu__ch_sql(ch, &ch->servers[0], sql, &out, err);
    long long games = 0, latest = 0, rated = 0, listing = 0;
    if (!rc && out.data)
        sscanf(out.data, "%lld\t%lld\t%lld", &games, &latest, &listing);
    /* Schema 2: no movers' ratings (positions.rating, explorer.rating_sum and rated),
     * which the explorer's average rating reads. */
    snprintf(sql, sizeof sql,
             "SELECT count() FROM system.columns WHERE database = '%s' AND table IN "
             "('%s_positions', '%s_positions_local') AND name = 'rating' FORMAT "
             "TabSeparated",
             ch->database, ch->table, ch->table);
    out.len = 0;
    if (!rc && games && latest &&
        !(rc = kifu__ch_sql(ch, &ch->servers[0], sql, &out, err)))
        rated = out.data ? atoll(out.data) : 0;
    kifu__sb_free(&out);
    if (rc || !games || (latest && rated && listing))
        return rc;
    /* Schema 3: no listing table (the explorer's listings by joinGet), which creating
     * it empty would leave without the games indexed before. */
    if (latest && rated)
        return kifu__error(
            err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, "schema 4", "schema 3",
            "the kifu index %s.%s_* on %.200s was made by an older kifu "
            "(schema 3: no table %s_listing of the explorer's listings): drop its "
            "tables (kifu index schema --clickhouse names them) and index the records "
            "again",
            ch->database, ch->table, ch->servers[0].url, ch->table);
    if (latest)
        return kifu__error(
            err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, "schema 3", "schema 2",
            "the kifu index %s.%s_* on %.200s was made by an older kifu "
            "(schema 2: no tags in %s_games, no players' ratings in "
            "%s_positions): drop its tables (kifu index schema --clickhouse "
            "names them) and index the records again",
            ch->database, ch->table, ch->servers[0].url, ch->table, ch->table);
    return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, "schema 2", "schema 1",
                       "the kifu index %s.%s_* on %.200s was made by an older kifu "
                       "(schema 1: no table %s_latest of the explorer's latest games): "
                       "drop its tables (kifu index schema --clickhouse names them) and "
                       "index the records again",
                       ch->database, ch->table, ch->servers[0].url, ch->table);
}

kifu_index *kifu_index_open_clickhouse(const char *urls, unsigned flags,
                                       const kifu_clickhouse_options *o, kifu_error *err)
{
    static const kifu_clickhouse_options none;
    if (!o)
        o = &none;
    if (kifu__ch_names_check(o, err))
        return NULL;
    kifu_index *ix = kifu__index_new(urls, &ch_ops, err);
    if (!ix)
        return NULL;
    kifu__ch *ch = kifu__calloc(1, sizeof *ch);
    if (!ch) {
        nomem(err);
        goto fail;
    }
    ix->ch = ch;
    ix->readonly = (flags & KIFU_INDEX_READONLY) != 0;
    ix->keep_dups = (flags & KIFU_INDEX_KEEP_DUPLICATES) != 0;
    snprintf(ch->database, sizeof ch->database, "%s", o->database ? o->database : "kifu");
    snprintf(ch->table, sizeof ch->table, "%s", o->table ? o->table : "kifu");
    snprintf(ch->cluster, sizeof ch->cluster, "%s", o->cluster ? o->cluster : "");
    ch->retries = o->retries < 0 ? 0 : o->retries ? o->retries : 4;
    ch->backoff_ms = o->backoff_ms > 0 ? o->backoff_ms : 200;
    ch->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 300000;
    kifu__ch_access a = {o->user ? o->user : getenv("KIFU_CLICKHOUSE_USER"),
                         o->password ? o->password : getenv("KIFU_CLICKHOUSE_PASSWORD"),
                         o->ca_file, o->insecure_skip_tls_verify};
    if (split_urls(ch, urls, &a, err))
        goto fail;
    if (check_cluster(ch, err))
        goto down;
    if (schema_check(ch, err) || kifu__ch_tags_check(ch, err))
        goto down;
    if (flags & KIFU_INDEX_CREATE) {
        for (size_t i = 0; i < ch->nservers; i++)
            if (create_tables(ch, &ch->servers[i], err))
                goto down;
    }
    if (!ix->readonly && repair(ch, err))
        goto down;
    kifu__strbuf out, sql;
    kifu__sb_init(&out), kifu__sb_init(&sql);
    /* ident: a table of an index made before players' keys and identities (version 6
     * of the SQLite file) fails here, and is named so. */
    kifu__sb_puts(&sql, "SELECT max(id), max(ident) FROM ");
    kifu__ch_name(ch, &sql, "games", 0);
    int rc =
        sql.failed ? nomem(err) : kifu__ch_sql(ch, &ch->servers[0], sql.data, &out, err);
    ix->next_game = (uint32_t)answer_int(&out) + 1;
    kifu__sb_free(&out), kifu__sb_free(&sql);
    if (rc) {
        if (err && strstr(err->message, "Code: 60"))
            snprintf(err->message, sizeof err->message,
                     "no kifu index in ClickHouse database %s (tables %s_*) on %s: "
                     "create it first",
                     ch->database, ch->table, ch->servers[0].url);
        else if (err &&
                 (strstr(err->message, "Code: 47") || strstr(err->message, "ident")))
            snprintf(err->message, sizeof err->message,
                     "the kifu index %s.%s_* on %.200s was made by an older kifu (no "
                     "players' keys): drop its tables and index the records again",
                     ch->database, ch->table, ch->servers[0].url);
        goto down;
    }
    ix->next_source = 1;
    return ix;
down:
    kifu__ch_name_down(ch, err);
fail:
    ch_free(ch);
    kifu__index_free(ix);
    return NULL;
}

static void ch_close(kifu_index *ix)
{
    ch_free(ix->ch);
    ix->ch = NULL;
}

int kifu__ch_indexed(kifu_index *ix, const char *path, uint64_t digest,
                     uint32_t **numbers, size_t *n, kifu__ch_ids *old, kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    *numbers = NULL, *n = 0;
    old->n = 0;
    kifu__strbuf sql, out;
    kifu__sb_init(&sql), kifu__sb_init(&out);
    kifu__sb_printf(&sql, "SELECT number, digest = %llu, id FROM ",
                    (unsigned long long)digest);
    kifu__ch_name(ch, &sql, "games", 0);
    kifu__sb_puts(&sql, " WHERE path = '");
    kifu__ch_tsv(&sql, path);
    kifu__sb_puts(&sql, "' FORMAT TabSeparated");
    int rc = sql.failed ? nomem(err)
                        : kifu__ch_post_retry(ch, &ch->servers[0], "", sql.data, sql.len,
                                              &out, err);
    size_t cap = 0;
    for (const char *p = out.data; !rc && p && *p;) {
        unsigned long num = strtoul(p, (char **)&p, 10);
        int same = *p == '\t' && p[1] == '1';
        uint32_t id = (uint32_t)strtoul(p + 2 * (*p == '\t'), (char **)&p, 10);
        p += strcspn(p, "\n");
        p += *p == '\n';
        if (!same) {
            if (kifu__ch_ids_add(old, id)) {
                rc = nomem(err);
                break;
            }
            continue;
        }
        if (kifu__reserve(numbers, &cap, *n + 1, sizeof **numbers, 64)) {
            rc = nomem(err);
            break;
        }
        (*numbers)[(*n)++] = (uint32_t)num;
    }
    if (*n)
        qsort(*numbers, *n, sizeof **numbers, kifu__cmp_u32);
    if (rc)
        kifu__ch_name_down(ch, err);
    kifu__sb_free(&sql), kifu__sb_free(&out);
    return rc;
}

int kifu__ch_ids_add(kifu__ch_ids *v, uint32_t id)
{
    if (kifu__reserve(&v->v, &v->cap, v->n + 1, sizeof *v->v, 64))
        return -1;
    v->v[v->n++] = id;
    return 0;
}

/* Remove the old games of the files this batch replaces (ch->replaced), as runs of
 * consecutive ids: journaled, counts taken back on every shard, rows deleted, done. */
static int remove_replaced(kifu_index *ix, kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    kifu__ch_ids *g = &ch->replaced;
    if (!g->n)
        return 0;
    qsort(g->v, g->n, sizeof *g->v, kifu__cmp_u32);
    uint32_t(*r)[2] = kifu__calloc(g->n, sizeof *r);
    if (!r)
        return nomem(err);
    size_t n = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (n && g->v[i] <= r[n - 1][1] + 1)
            r[n - 1][1] = g->v[i] > r[n - 1][1] ? g->v[i] : r[n - 1][1];
        else
            r[n][0] = r[n][1] = g->v[i], n++;
    }
    const uint32_t(*cr)[2] = (const uint32_t(*)[2])r;
    new_gen(ch);
    int rc = journal_ranges(ch, cr, n, 0, J_REMOVING, err);
    for (size_t i = 0; !rc && i < ch->nservers; i++)
        rc = remove_shard(ch, cr, n, i, 0, J_REMOVE_NEGATED, err);
    if (!rc)
        rc = listing_rebuild(ch, err);
    if (!rc)
        rc = journal_ranges(ch, cr, n, 0, J_REMOVED, err);
    kifu__free(r);
    /* Tried once: after a failure the journal's repair finishes it at the next open (a
     * second try here, as kifu_index_close's flush would make, could cancel the counts
     * of a shard twice). */
    g->n = 0;
    return rc;
}

/* ---- Rows --------------------------------------------------------------------------- */

static char *put_u64(char *p, unsigned long long v)
{
    char t[24];
    int n = 0;
    do
        t[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n)
        *p++ = t[--n];
    return p;
}

/* Marks a game's first visit of each key, and of each (key, move): a small open-addressed
 * set per game, emptied by generation number instead of clearing. */
typedef struct seen {
    struct {
        uint64_t key;
        uint32_t gen;
        uint16_t move;
    } * v;
    size_t cap; /* a power of two */
    uint32_t gen;
} seen;

static int seen_reset(seen *s, size_t rows)
{
    size_t want = 64;
    while (want < rows * 4)
        want *= 2;
    if (want > s->cap) {
        kifu__free(s->v);
        s->v = kifu__calloc(want, sizeof *s->v);
        if (!s->v)
            return -1;
        s->cap = want;
        s->gen = 0;
    }
    s->gen++;
    return 0;
}

/* 1 when (key, move) is new in this game (move 0xffff: the key alone). */
static int seen_add(seen *s, uint64_t key, uint16_t move)
{
    size_t m = s->cap - 1, i = (size_t)((key ^ (key >> 29) ^ move * 0x9e3779b1u) & m);
    for (;; i = (i + 1) & m) {
        if (s->v[i].gen != s->gen) {
            s->v[i].gen = s->gen, s->v[i].key = key, s->v[i].move = move;
            return 1;
        }
        if (s->v[i].key == key && s->v[i].move == move)
            return 0;
    }
}

typedef struct shard_buf {
    kifu__strbuf rows;
    size_t n;
} shard_buf;

/* INSERT the rows of b into table `what` of shard i (one block), then empty b. */
static int send_rows(kifu_index *ix, size_t i, const char *what, shard_buf *b,
                     kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    if (!b->n)
        return 0;
    kifu__strbuf params, q;
    kifu__sb_init(&params), kifu__sb_init(&q);
    kifu__sb_puts(&q, "INSERT INTO ");
    kifu__ch_name(ch, &q, what, 1);
    kifu__sb_puts(&q, " FORMAT TabSeparated");
    kifu__sb_printf(&params, "max_insert_block_size=%zu&query=", b->n + 1);
    kifu__ch_urlencode(&params, q.data ? q.data : "");
    int rc = params.failed || q.failed || b->rows.failed
                 ? nomem(err)
                 : kifu__ch_post_retry(ch, &ch->servers[i], params.data, b->rows.data,
                                       b->rows.len, NULL, err);
    if (rc && err && ch->cluster[0]) {
        char shard[32];
        snprintf(shard, sizeof shard, "shard %zu: ", i + 1);
        kifu__ch_err_prefix(err, shard);
    }
    kifu__sb_free(&params), kifu__sb_free(&q);
    b->rows.len = 0, b->n = 0;
    return rc;
}

static const char *source_path(const kifu_index *ix, uint32_t id)
{
    for (size_t i = 0; i < ix->nsources; i++)
        if (ix->sources[i].id == id)
            return ix->sources[i].path;
    return "";
}

static int game_row(kifu__strbuf *b, const kifu_index *ix, const kifu__igame *g)
{
    const char *hc = kifu_preset_name(g->handicap < 0 ? KIFU_PRESET_HIRATE : g->handicap);
    uint64_t digest = 0;
    for (size_t i = 0; i < ix->nsources; i++)
        if (ix->sources[i].id == g->source)
            digest = ix->sources[i].digest;
    kifu__sb_printf(b, "%u\t", (unsigned)g->id);
    kifu__ch_tsv(b, source_path(ix, g->source));
    kifu__sb_printf(b, "\t%llu\t%u\t", (unsigned long long)digest, (unsigned)g->number);
    const char *text[4] = {g->sente, g->gote, g->date, g->event};
    for (int k = 0; k < 4; k++) {
        kifu__ch_tsv(b, text[k]);
        kifu__sb_putc(b, '\t');
    }
    kifu__sb_printf(b, "%d\t", g->result);
    kifu__ch_tsv(b, hc ? hc : "OTHER");
    kifu__sb_putc(b, '\t');
    kifu__ch_tsv(b, g->start);
    kifu__sb_printf(b, "\t%u\t%d\t%d\t[", (unsigned)g->nmoves, g->sente_rating,
                    g->gote_rating);
    for (uint32_t i = 0; i < g->nmoves; i++)
        kifu__sb_printf(b, i ? ",%u" : "%u", g->moves[i]);
    kifu__sb_puts(b, "]\t");
    kifu__ch_tsv(b, g->ending);
    kifu__sb_putc(b, '\t');
    kifu__ch_tsv(b, g->header ? g->header : "{}");
    const char *who[4] = {g->sente_key, g->gote_key, g->sente_rank, g->gote_rank};
    for (int k = 0; k < 4; k++) {
        kifu__sb_putc(b, '\t');
        kifu__ch_tsv(b, who[k]);
    }
    kifu__sb_printf(b, "\t%llu", (unsigned long long)g->ident);
    if (kifu__ch_tags_row(b, ix, g))
        return -1;
    kifu__sb_putc(b, '\n');
    return 0;
}

int kifu__ch_flush(kifu_index *ix, kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    if (ix->readonly)
        return 0;
    if (!ix->ngames) /* files replaced by nothing indexable, or read with no game */
        return remove_replaced(ix, err) || kifu__ch_sources_write(ix, err) ? -1 : 0;
    size_t ns = ch->nservers;
    shard_buf *pos = kifu__calloc(ns, sizeof *pos),
              *games = kifu__calloc(ns, sizeof *games);
    seen s = {0};
    int rc = -1;
    if (!pos || !games)
        goto nomem;
    for (size_t i = 0; i < ns; i++)
        kifu__sb_init(&pos[i].rows), kifu__sb_init(&games[i].rows);
    /* Positions first: a game is indexed once its games row exists, and the next add
     * checks that row. The rows of a game are queued together, after the game's own. */
    uint32_t first = ix->games[0].id, last = ix->games[ix->ngames - 1].id;
    if (remove_replaced(ix, err))
        goto fail;
    new_gen(ch);
    if (journal(ch, first, last, 0, J_STARTED, err))
        goto fail;
    /* A reader whose count of open batches was taken before the journal row above reads
     * without hiding for up to KIFU__CH_HIDE_LEASE_MS (clickhouse_query.c): no row of
     * the batch may land before that. */
    struct timespec lease = {KIFU__CH_HIDE_LEASE_MS / 1000,
                             KIFU__CH_HIDE_LEASE_MS % 1000 * 1000000L};
    while (nanosleep(&lease, &lease) && errno == EINTR)
        ;
    for (size_t i = 0, j; i < ix->npos; i = j) {
        uint32_t gid = ix->pos[i].game;
        for (j = i; j < ix->npos && ix->pos[j].game == gid; j++)
            ;
        const kifu__igame *g = &ix->games[gid - first];
        int mover0 = kifu__first_mover(g->handicap, g->start);
        if (seen_reset(&s, j - i))
            goto nomem;
        for (size_t k = i; k < j; k++) {
            const kifu__irow *r = &ix->pos[k];
            shard_buf *b = &pos[r->key % ns];
            if (kifu__sb_reserve(&b->rows, 104))
                goto nomem;
            char *p = b->rows.data + b->rows.len;
            p = put_u64(p, r->key), *p++ = '\t';
            p = put_u64(p, r->game), *p++ = '\t';
            p = put_u64(p, r->ply), *p++ = '\t';
            p = put_u64(p, r->move), *p++ = '\t';
            p = put_u64(p, g->result), *p++ = '\t';
            /* date_of made it: YYYY-MM-DD, nothing to escape */
            size_t dl = g->date ? strlen(g->date) : 0;
            memcpy(p, g->date ? g->date : "", dl > 10 ? 10 : dl);
            p += dl > 10 ? 10 : dl;
            *p++ = '\t';
            *p++ = (char)('0' + seen_add(&s, r->key, 0xffff)), *p++ = '\t';
            *p++ = (char)('0' + (r->move && seen_add(&s, r->key, r->move))), *p++ = '\t';
            int rating =
                kifu__mover_rating(mover0, r->ply, g->sente_rating, g->gote_rating);
            p = put_u64(p, rating > 0 ? (uint64_t)rating : 0);
            *p++ = '\n';
            b->rows.len = (size_t)(p - b->rows.data);
            b->n++;
        }
        /* Whole games per INSERT, so a failure leaves whole games. */
        for (size_t k = 0; k < ns; k++)
            if (pos[k].n >= CH_ROWS_PER_INSERT &&
                send_rows(ix, k, "positions", &pos[k], err))
                goto fail;
    }
    for (size_t k = 0; k < ns; k++)
        if (send_rows(ix, k, "positions", &pos[k], err))
            goto fail;
    for (size_t i = 0; i < ix->ngames; i++) {
        shard_buf *b = &games[ix->games[i].id % ns];
        if (game_row(&b->rows, ix, &ix->games[i]))
            goto nomem;
        b->n++;
    }
    for (size_t k = 0; k < ns; k++)
        if (send_rows(ix, k, "games", &games[k], err))
            goto fail;
    if (listing_add(ch, first, last, err) || journal(ch, first, last, 0, J_DONE, err) ||
        kifu__ch_sources_write(ix, err))
        goto fail;
    ix->stats.games += ix->ngames;
    ix->stats.positions += ix->npos;
    rc = 0;
    goto out;
nomem:
    nomem(err);
fail:
    kifu__ch_name_down(ch, err);
out:
    for (size_t i = 0; i < ns; i++) {
        if (pos)
            kifu__sb_free(&pos[i].rows);
        if (games)
            kifu__sb_free(&games[i].rows);
    }
    kifu__free(pos), kifu__free(games), kifu__free(s.v);
    return rc;
}

/* ---- The table of operations (backend.h) ---- */

/* Everything queued written, and the batch emptied: ClickHouse has no transaction to
 * keep open between batches, so a full batch goes the same way. */
static int ch_write(kifu_index *ix, kifu_error *err)
{
    int rc = kifu__ch_flush(ix, err);
    kifu__index_batch_free(ix);
    return rc;
}

static int ch_lookup(kifu_index *ix, const char *path, uint64_t dig, kifu__known *k,
                     kifu_error *err)
{
    /* The same path in the batch not written yet: the server cannot know it. With
     * other content, the batch is written first, then replaced as any indexed file. */
    for (size_t i = 0; i < ix->nsources; i++)
        if (strcmp(ix->sources[i].path, path) == 0)
            k->id = ix->sources[i].id, k->digest = ix->sources[i].digest;
    if (k->id && k->digest != dig) {
        if (ch_write(ix, err))
            return -1;
        k->id = 0;
    }
    if (k->id)
        return 0;
    /* Read whole with this content (a file of failed records or duplicates only has no
     * games to tell it): unchanged. */
    int known = kifu__ch_source_known(ix, path, dig, err);
    if (known) {
        k->id = known > 0 ? UINT32_MAX : 0, k->digest = dig;
        if (known < 0) {
            kifu__error_source(err, path);
            ix->stats.files_failed++;
        }
        return known < 0 ? -1 : 0;
    }
    kifu__ch_ids gone = {0};
    if (kifu__ch_indexed(ix, path, dig, &k->done, &k->ndone, &gone, err)) {
        kifu__error_source(err, path);
        kifu__free(gone.v);
        ix->stats.files_failed++;
        return -1;
    }
    k->gone = gone.v, k->ngone = gone.n;
    return 0;
}

static int ch_replaced(kifu_index *ix, const uint32_t *games, size_t n, kifu_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (kifu__ch_ids_add(&ix->ch->replaced, games[i]))
            return nomem(err);
    return 0;
}

/* Chunks of the latest table folded by one INSERT each (by key modulo this): a GROUP BY
 * of the whole table would hold every (key, move) of it in the server's memory. */
#define CH_FOLD_CHUNKS 16

/* Fold the latest table of server s: one row per (key, move), its KIFU__INDEX_TOP latest
 * games of every block's row, written into a new table that then takes its name. */
static int fold_latest(kifu__ch *ch, kifu__ch_server *s, kifu_error *err)
{
    kifu__strbuf q, fold, latest, old;
    kifu__sb_init(&q), kifu__sb_init(&fold), kifu__sb_init(&latest), kifu__sb_init(&old);
    kifu__ch_name(ch, &latest, "latest", 1);
    kifu__ch_name(ch, &fold, "latest_fold", 1);
    kifu__ch_name(ch, &old, "latest_folded", 1);
    int rc = 0;
    for (int step = 0; !rc && step < CH_FOLD_CHUNKS + 4; step++) {
        q.len = 0;
        if (step == 0)
            kifu__sb_printf(&q, "DROP TABLE IF EXISTS %s", fold.data);
        else if (step == 1) /* the same columns, engine and granules */
            kifu__sb_printf(&q, "CREATE TABLE %s AS %s", fold.data, latest.data);
        else if (step < CH_FOLD_CHUNKS + 2)
            kifu__sb_printf(
                &q,
                "INSERT INTO %s SELECT key, move, arrayMap(x -> x.1, t), arrayMap(x -> "
                "x.2, t) FROM (SELECT key, move, "
                "arraySlice(arrayReverseSort(arrayDistinct("
                "groupArrayArray(arrayMap((x, y) -> (x, y), top, plies)))), 1, %d) AS t "
                "FROM %s WHERE key %% %d = %d GROUP BY key, move)",
                fold.data, KIFU__INDEX_TOP, latest.data, CH_FOLD_CHUNKS, step - 2);
        else if (step == CH_FOLD_CHUNKS + 2)
            kifu__sb_printf(&q, "RENAME TABLE %s TO %s, %s TO %s", latest.data, old.data,
                            fold.data, latest.data);
        else
            kifu__sb_printf(&q, "DROP TABLE %s", old.data);
        rc = q.failed || fold.failed || latest.failed || old.failed
                 ? nomem(err)
                 : kifu__ch_sql(ch, s, q.data, NULL, err);
    }
    kifu__sb_free(&q), kifu__sb_free(&fold), kifu__sb_free(&latest), kifu__sb_free(&old);
    return rc;
}

/* The latest table keeps a row per insert block and (key, move), and 18.16 has no
 * aggregate that keeps the N largest values for a merge to fold them: each server's is
 * folded here (the batches were repaired when the index was opened for writing, so none
 * is hidden). The materialized view writes into whatever table has the name. */
static int ch_compact(kifu_index *ix, kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    if (ix->readonly)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                           "the index was opened read-only");
    int rc = 0;
    for (size_t i = 0; !rc && i < ch->nservers; i++)
        rc = fold_latest(ch, &ch->servers[i], err);
    if (rc) {
        kifu__ch_err_prefix(err, "folding the latest games: ");
        kifu__ch_name_down(ch, err);
    }
    return rc;
}

static int ch_export_book(kifu_index *ix, int format, const kifu_book_options *o,
                          kifu_output_fn out, void *ctx, kifu_error *err)
{
    (void)ix, (void)format, (void)o, (void)out, (void)ctx;
    return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL,
                       "book export reads an index file, not ClickHouse");
}

static const kifu__index_ops ch_ops = {
    .digest = kifu__index_digest_fnv,
    .lookup = ch_lookup,
    .replaced = ch_replaced,
    .write = ch_write,
    .flush = ch_write,
    .compact = ch_compact,
    .close = ch_close,
    .info = kifu__ch_info,
    .explore_begin = kifu__ch_explore_begin,
    .explore_count = kifu__ch_explore_count,
    .explore_game = kifu__ch_explore_game,
    .explore_end = kifu__ch_explore_end,
    .search = kifu__ch_search,
    .search_where = kifu__ch_search_where,
    .each_source = kifu__ch_each_source,
    .find = kifu__ch_find,
    .export_book = ch_export_book,
    .idents = kifu__ch_idents,
    .players = kifu__ch_players,
    .games = kifu__ch_games,
};
