/* index_build.c: opening an index, turning record files into rows, and writing a batch:
 * games, then the batch's occurrences sorted by bucket and key and written as a run of
 * blocks (index_runs.c: one row a bucket and run, since SQLite's cost is per row). The
 * batches of one add share one transaction, committed by kifu_index_flush. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/strbuf.h"
#include "fmt/fmt.h"
#include "index/clickhouse.h"
#include "index/index_private.h"
#include "kifu_private.h"
#include "record/record.h"
#include "rules/engine.h"
#include "rules/position.h"

size_t kifu__index_batch = KIFU__INDEX_BATCH;
long kifu__index_dated = KIFU__INDEX_DATED;
long kifu__index_replay = KIFU__INDEX_REPLAY;

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

uint16_t kifu__index_compact(uint32_t m)
{
    return (uint16_t)(m & 0x7fff);
}

/* ---- Opening and closing ----------------------------------------------------------- */

static uint32_t max_id(sqlite3 *db, const char *table)
{
    char sql[64];
    snprintf(sql, sizeof sql, "SELECT coalesce(max(id),0) FROM %s", table);
    sqlite3_stmt *st;
    uint32_t v = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            v = (uint32_t)sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    return v;
}

kifu_index *kifu_index_open(const char *path, unsigned flags, kifu_error *err)
{
    kifu__rules_init();
    kifu_index *ix = kifu__calloc(1, sizeof *ix);
    if (!ix || !(ix->path = kifu__strdup(path))) {
        kifu__free(ix);
        nomem(err);
        return NULL;
    }
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (!exists && !(flags & KIFU_INDEX_CREATE)) {
        kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL, "no index file");
        kifu__error_source(err, path);
        goto fail;
    }
    ix->readonly = (flags & KIFU_INDEX_READONLY) != 0;
    int oflags = ix->readonly ? SQLITE_OPEN_READONLY
                              : SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(path, &ix->db, oflags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        kifu__index_sqlite_error(ix->db, path, "cannot open the index", err);
        goto fail;
    }
    sqlite3_busy_timeout(ix->db, 10000);
    /* A bulk build's new file gets the games' indexes at its commit, sorted from the
     * whole table: inserted game by game (names in no order) they were a third of
     * SQLite's part of a build. */
    ix->bulk = (flags & KIFU_INDEX_BULK) && !ix->readonly;
    if (!exists || (st.st_size == 0 && !ix->readonly)) {
        ix->unindexed = ix->bulk;
        if (kifu__index_schema_create(ix->db, !ix->unindexed, err)) {
            kifu__error_source(err, path);
            goto fail;
        }
    } else if (kifu__index_schema_check(ix->db, path, err)) {
        goto fail;
    }
    /* Bulk work: a large page cache; WAL keeps readers going while a batch is written. */
    sqlite3_exec(ix->db, "PRAGMA cache_size=-262144; PRAGMA synchronous=NORMAL;", NULL,
                 NULL, NULL);
    /* A file being built alone is written once, not to the WAL and then again. It only
     * appends but for the games' indexes, so a small cache holds what it rewrites: 32 MB
     * wrote 0.2% more pages than 256 MB for 300,000 games, and faulted in 60,000 fewer
     * pages a 100,000 games. */
    if (ix->bulk)
        sqlite3_exec(ix->db,
                     "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                     " PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-32768;",
                     NULL, NULL, NULL);
    ix->next_game = max_id(ix->db, "games") + 1;
    ix->next_source = max_id(ix->db, "sources") + 1;
    return ix;
fail:
    sqlite3_close(ix->db);
    kifu__free(ix->path);
    kifu__free(ix);
    return NULL;
}

static void free_batch(kifu_index *ix)
{
    kifu__arena_free(&ix->text);
    for (size_t i = 0; i < ix->nsources; i++)
        kifu__free(ix->sources[i].path);
    ix->ngames = ix->npos = ix->nsources = 0;
}

int kifu_index_close(kifu_index *ix, kifu_error *err)
{
    if (!ix)
        return 0;
    int rc = ix->readonly ? 0 : kifu_index_flush(ix, err);
    free_batch(ix);
    kifu__free(ix->games), kifu__free(ix->pos), kifu__free(ix->sources);
    kifu__free(ix->lane[0]), kifu__free(ix->lane[1]), kifu__free(ix->facts);
    kifu_position_free(ix->replay);
    kifu__sb_free(&ix->json);
    /* The WAL is folded into the file so that it is one file again; a bulk-built file
     * turns to WAL for the readers and writers to come. */
    if (ix->bulk)
        sqlite3_exec(ix->db, "PRAGMA locking_mode=NORMAL; PRAGMA journal_mode=WAL;", NULL,
                     NULL, NULL);
    if (!ix->readonly && ix->db)
        sqlite3_exec(ix->db, "PRAGMA wal_checkpoint(TRUNCATE);", NULL, NULL, NULL);
    for (int i = 0; i < KIFU__EXPLORE_STMTS; i++)
        sqlite3_finalize(ix->explore_st[i]);
    sqlite3_close(ix->db);
    if (ix->ch)
        kifu__ch_close(ix);
    kifu__free(ix->path);
    kifu__free(ix);
    return rc;
}

void kifu_index_set_read(kifu_index *ix, int encoding, unsigned flags)
{
    ix->encoding = encoding;
    ix->read_flags = flags & (KIFU_READ_LENIENT | KIFU_READ_REPAIR);
}

const kifu_index_stats *kifu_index_stats_get(const kifu_index *ix)
{
    return &ix->stats;
}

/* ---- Records to rows ---------------------------------------------------------------- */

/* The last node of the main line, and the moves before the first node without one. */
static const kifu_node *main_line(const kifu_record *r, size_t *moves)
{
    const kifu_node *n = kifu_record_root(r), *last = n;
    size_t k = 0;
    int more = 1;
    while ((n = kifu_node_next(n)) != NULL) {
        last = n;
        if (more && kifu_node_get_move(n, NULL))
            k++;
        else
            more = 0;
    }
    *moves = k;
    return last;
}

/* The result of a record whose main line ends at `last` (KIFU__RES_*). */
static int result_of(const kifu_record *r, const kifu_node *last)
{
    const char *sp = kifu_node_special(last);
    if (!sp)
        return KIFU__RES_UNKNOWN;
    /* The side to move at the ending: the opponent of the last mover. */
    const kifu_node *p = kifu_node_parent(last);
    kifu_move m_v;
    const kifu_move *m = p && kifu_node_get_move(p, &m_v) ? &m_v : NULL;
    int to_move;
    if (m) {
        to_move = !m->color;
    } else {
        kifu_board b;
        kifu_record_initial(r, &b);
        to_move = b.color;
    }
    int to_move_wins = to_move == KIFU_BLACK ? KIFU__RES_SENTE : KIFU__RES_GOTE;
    int to_move_loses = to_move == KIFU_BLACK ? KIFU__RES_GOTE : KIFU__RES_SENTE;
    if (!strcmp(sp, "KACHI"))
        return to_move_wins;
    /* ILLEGAL_MOVE: the side to move lost by a foul (CSA %ILLEGAL_MOVE, KIF 反則負け). */
    if (!strcmp(sp, "TORYO") || !strcmp(sp, "TSUMI") || !strcmp(sp, "TIME_UP") ||
        !strcmp(sp, "ILLEGAL_MOVE"))
        return to_move_loses;
    if (!strcmp(sp, "+ILLEGAL_ACTION"))
        return KIFU__RES_GOTE;
    if (!strcmp(sp, "-ILLEGAL_ACTION"))
        return KIFU__RES_SENTE;
    if (!strcmp(sp, "SENNICHITE"))
        return KIFU__RES_SENNICHITE;
    if (!strcmp(sp, "JISHOGI"))
        return KIFU__RES_JISHOGI;
    if (!strcmp(sp, "HIKIWAKE"))
        return KIFU__RES_DRAW;
    return KIFU__RES_UNKNOWN;
}

/* The first header value among keys, or NULL. */
static const char *header(const kifu_record *r, const char *const *keys)
{
    for (; *keys; keys++) {
        const char *v = kifu_record_header_get(r, *keys);
        if (v && *v)
            return v;
    }
    return NULL;
}

/* "YYYY-MM-DD" from the first date in the text (2024/01/02, 2024-1-2, 2024年1月2日),
 * into buf, or NULL. */
static const char *date_of(const char *s, char buf[16])
{
    if (!s)
        return NULL;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s))
            continue;
        char *e;
        long y = strtol(s, &e, 10);
        if (y < 1000 || y > 9999 || !*e)
            continue;
        const char *p = e;
        p += strncmp(p, "年", 3) == 0 ? 3 : 1;
        long m = strtol(p, &e, 10);
        if (e == p || m < 1 || m > 12)
            continue;
        p = e + (strncmp(e, "月", 3) == 0 ? 3 : 1);
        long d = strtol(p, &e, 10);
        if (e == p || d < 1 || d > 31)
            continue;
        snprintf(buf, 16, "%04ld-%02ld-%02ld", y, m, d);
        return buf;
    }
    return NULL;
}

/* A rating from header keys such as 先手レーティング, black_rate, SenteRating. */
static int rating(const kifu_record *r, int color)
{
    static const char *const who[2][3] = {{"先手", "black", "sente"},
                                          {"後手", "white", "gote"}};
    for (size_t i = 0; i < kifu_record_header_count(r); i++) {
        const char *k, *v;
        kifu_record_header_at(r, i, &k, &v);
        int named = 0;
        for (int j = 0; j < 3; j++)
            named |= strncasecmp(k, who[color][j], strlen(who[color][j])) == 0;
        if (!named || !v)
            continue; /* the scan below took a call a byte of every key */
        int rate = strstr(k, "レーティング") != NULL;
        for (const char *c = k; *c && !rate; c++)
            rate = strncasecmp(c, "rat", 3) == 0;
        if (named && rate && v)
            return atoi(v);
    }
    return 0;
}

/* The batch's strings and moves live in one arena (free_batch drops it): a malloc and a
 * free each, eight a game, were a few percent of a build. A copy of s, or NULL. */
static char *dup_or_null(kifu_index *ix, const char *s)
{
    return s ? kifu__arena_strdup(&ix->text, s) : NULL;
}

/* The header as one JSON object, keys in record order (search --index prints it as
 * stored), made in ix->json and kept in the batch's arena. NULL on NOMEM. */
static char *header_json(kifu_index *ix, const kifu_record *r)
{
    kifu__strbuf *b = &ix->json;
    b->len = 0;
    kifu__sb_putc(b, '{');
    for (size_t i = 0; i < kifu_record_header_count(r); i++) {
        const char *k, *v;
        kifu_record_header_at(r, i, &k, &v);
        if (i)
            kifu__sb_putc(b, ',');
        kifu__sb_json_string(b, k);
        kifu__sb_putc(b, ':');
        kifu__sb_json_string(b, v ? v : "");
    }
    kifu__sb_putc(b, '}');
    if (b->failed) {
        kifu__sb_free(b);
        kifu__sb_init(b);
        return NULL;
    }
    return kifu__arena_strndup(&ix->text, b->data, b->len);
}

/* A position reduced to what its Zobrist key's updates need: the key, the hands and the
 * side to move. A checked move names its piece, its capture and its promotion, so the
 * key follows the moves without a board: the engine's do (bitboards, mailbox and key)
 * was a sixteenth of a build, this a few xors a move. It keeps kifu__pos_do's key
 * exactly (the index tests compare the two over every ply of random games). */
typedef struct keystate {
    uint64_t key;
    uint8_t hand[2][8];
    int side;
} keystate;

static void key_start(keystate *s, const kpos *p)
{
    s->key = p->key;
    memcpy(s->hand, p->hand, sizeof s->hand);
    s->side = p->side;
}

static inline void key_do(keystate *s, kmove m)
{
    const kifu__zobrist_keys *z = &kifu__zob;
    int us = s->side, to = MOVE_TO(m), k = MOVE_PIECE(m);
    uint64_t key = s->key ^ z->side;
    if (MOVE_IS_DROP(m)) {
        int n = s->hand[us][k];
        key ^= z->hand[us][k][n] ^ z->hand[us][k][n - 1] ^ z->psq[us][k][to];
        s->hand[us][k] = (uint8_t)(n - 1);
    } else {
        int from = MOVE_FROM(m), cap = MOVE_CAPTURE(m);
        if (cap) {
            int h = kind_unpromoted(cap), n = s->hand[us][h];
            key ^= z->psq[us ^ 1][cap][to] ^ z->hand[us][h][n] ^ z->hand[us][h][n + 1];
            s->hand[us][h] = (uint8_t)(n + 1);
        }
        key ^= z->psq[us][k][from] ^
               z->psq[us][MOVE_IS_PROMOTE(m) ? k | PROMOTE_BIT : k][to];
    }
    s->key = key;
    s->side = us ^ 1;
}

uint64_t kifu__index_key_line(const kpos *start, const kmove *moves, size_t n)
{
    keystate s;
    key_start(&s, start);
    for (size_t i = 0; i < n; i++)
        key_do(&s, moves[i]);
    return s.key;
}

/* Append one game and the positions of its main line. A move the engine cannot pack
 * (a record that is not normalized) fails the game: nothing of it stays queued. */
static int add_game(kifu_index *ix, const kifu_record *r, uint32_t source,
                    uint32_t number, kifu_error *err)
{
    static const char *const sente_keys[] = {"先手", "下手", "先手氏名", NULL};
    static const char *const gote_keys[] = {"後手", "上手", "後手氏名", NULL};
    static const char *const date_keys[] = {"開始日時", "対局日", "終了日時",
                                            "日時",     "date",   NULL};
    static const char *const event_keys[] = {"棋戦", "event", "EVENT", NULL};
    if (kifu__reserve(&ix->games, &ix->capgames, ix->ngames + 1, sizeof *ix->games,
                      256) ||
        kifu__reserve(&ix->facts, &ix->capfacts, ix->ngames + 1, sizeof *ix->facts, 256))
        return nomem(err);
    size_t pos0 = ix->npos;
    kifu__igame *g = &ix->games[ix->ngames];
    memset(g, 0, sizeof *g);
    g->id = ix->next_game;
    g->source = source;
    g->number = number;
    size_t nmoves;
    const kifu_node *last = main_line(r, &nmoves);
    g->result = (uint8_t)result_of(r, last);
    g->handicap = kifu_record_preset(r);
    kifu_board b;
    kifu_record_initial(r, &b);
    if (g->handicap == KIFU_PRESET_OTHER) {
        kifu_position *tmp = kifu_position_new();
        char *sfen = tmp && kifu_position_set_board(tmp, &b, NULL) == 0
                         ? kifu_position_sfen(tmp, 1)
                         : NULL;
        g->start = dup_or_null(ix, sfen);
        kifu_free(sfen);
        kifu_position_free(tmp);
    }
    char date[16];
    const char *text[5] = {header(r, sente_keys), header(r, gote_keys),
                           date_of(header(r, date_keys), date), header(r, event_keys),
                           kifu_node_special(last)};
    char **to[5] = {&g->sente, &g->gote, &g->date, &g->event, &g->ending};
    for (int i = 0; i < 5; i++)
        if (text[i] && !(*to[i] = dup_or_null(ix, text[i])))
            goto nomem;
    g->sente_rating = rating(r, 0), g->gote_rating = rating(r, 1);
    if (!(g->header = header_json(ix, r)))
        goto nomem;
    /* Room for every position and move at once (a reserve a ply cost a call each). */
    /* A bulk build takes a whole batch's room at once (untouched pages cost nothing)
     * instead of growing and moving the array a dozen times. (Advised to take huge
     * pages, the batch arrays cost more on this kind of VM, not less: a 2 MiB page
     * comes from memory the host backs anew, and clearing them was a quarter of a
     * 100,000-game build, system time 2.3-2.7 s against 1.1-1.2 s without.) */
    if (kifu__reserve(&ix->pos, &ix->cappos, ix->npos + nmoves + 1, sizeof *ix->pos,
                      ix->bulk ? kifu__index_batch + 4096 : 256) ||
        (nmoves &&
         !(g->moves = kifu__arena_alloc_raw(&ix->text, nmoves * sizeof *g->moves))))
        goto nomem;
    ix->facts[ix->ngames] = kifu__index_fact(g->date, g->result);
    kpos start;
    kifu__pos_from_board(&start, &b);
    keystate p;
    key_start(&p, &start);
    const kifu_node *n = kifu_record_root(r);
    uint16_t ply = 0;
    for (;;) {
        const kifu_node *next = kifu_node_next(n);
        int is_move = next && next->kind == KIFU_NODE_MOVE;
        kmove k = is_move ? kifu__node_kmove(next) : MOVE_NONE;
        if (is_move && k == MOVE_NONE) {
            kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                        "game %u: move %d is not a checked move", (unsigned)number,
                        ply + 1);
            goto fail;
        }
        ix->pos[ix->npos++] = (kifu__irow){
            p.key, g->id, ply, is_move ? kifu__index_compact(k) : (uint16_t)0};
        if (!is_move || ply == UINT16_MAX - 1)
            break;
        g->moves[g->nmoves++] = kifu__index_compact(k);
        key_do(&p, k); /* a checked move: its piece and capture fields are right */
        n = next;
        ply++;
    }
    ix->ngames++;
    ix->next_game++;
    return 0;
nomem:
    nomem(err);
fail:
    ix->npos = pos0; /* its strings stay in the arena until the batch is written */
    return -1;
}

/* ---- Files -------------------------------------------------------------------------- */

int kifu__cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* FNV-1a over the file's bytes: tells a changed file from an unchanged one. ClickHouse
 * indexes store it. */
static uint64_t digest_fnv(const unsigned char *d, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ d[i]) * 0x100000001b3u;
    return h;
}

static uint64_t load64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The same, for SQLite indexes, 32 bytes a step in four independent lanes: FNV's one
 * multiply per byte, each waiting for the last, took a twentieth of a build. */
static uint64_t digest_fast(const unsigned char *d, size_t n)
{
    const uint64_t m = 0x9e3779b97f4a7c15u;
    uint64_t h[4] = {n, n ^ 0x6a09e667f3bcc908u, n ^ 0xbb67ae8584caa73bu,
                     n ^ 0x3c6ef372fe94f82bu};
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; k++) {
            uint64_t x = h[k] ^ load64(d + i + 8 * k);
            h[k] = (x << 29 | x >> 35) * m;
        }
    uint64_t r = digest_fnv(d + i, n - i);
    for (int k = 0; k < 4; k++) {
        r = (r ^ h[k]) * m;
        r ^= r >> 31;
    }
    return r;
}

static int add_source(kifu_index *ix, uint32_t id, const char *path, uint64_t dig,
                      int64_t size)
{
    if (kifu__reserve(&ix->sources, &ix->capsources, ix->nsources + 1,
                      sizeof *ix->sources, 256))
        return -1;
    char *p = kifu__strdup(path);
    if (!p)
        return -1;
    ix->sources[ix->nsources++] = (struct kifu__isource){id, p, dig, size, 0, 0};
    return 0;
}

/* Id and digest of the source row with this path; 0 when there is none. */
static uint32_t find_source(kifu_index *ix, const char *path, uint64_t *dig)
{
    for (size_t i = 0; i < ix->nsources; i++)
        if (strcmp(ix->sources[i].path, path) == 0) {
            *dig = ix->sources[i].digest;
            return ix->sources[i].id;
        }
    sqlite3_stmt *st;
    uint32_t id = 0;
    if (sqlite3_prepare_v2(ix->db, "SELECT id, digest FROM sources WHERE path=?", -1, &st,
                           NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        id = (uint32_t)sqlite3_column_int64(st, 0);
        *dig = (uint64_t)sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return id;
}

static void warn_record(kifu_warn_fn warn, void *ctx, const char *path, size_t i,
                        size_t n, const kifu_error *e)
{
    if (!warn)
        return;
    char buf[1200], msg[1024];
    kifu_error_format(e, msg, sizeof msg);
    /* Code OK: a game indexed after a repair (take_record), its message saying which. */
    const char *what = e->code == KIFU_OK ? "indexed" : "skipped";
    if (e->code == KIFU_OK)
        snprintf(msg, sizeof msg, "%s", e->message);
    if (n > 1)
        snprintf(buf, sizeof buf, "%s: game %zu %s: %s", path, i + 1, what, msg);
    else
        snprintf(buf, sizeof buf, "%s %s: %s", path, what, msg);
    warn(ctx, buf);
}

static int write_step(kifu_index *ix, kifu_error *err);

/* A file being read: the games as its reader finishes them (take_record). */
typedef struct file_reader {
    kifu_index *ix;
    uint32_t source;
    const uint32_t *done; /* ClickHouse: game numbers indexed already (sorted) */
    size_t ndone;
    size_t added, skipped, repaired;
    struct failed_game {
        kifu_error e;
        size_t index;
    } * failed; /* the games that failed, reported once the file has read */
    size_t nfailed, capfailed;
    int nomem;
} file_reader;

/* Normalize, index and free the file's game `index` (kifu__read_all_done's done). */
static int take_record(void *ctx, kifu_record *r, size_t index)
{
    file_reader *fr = ctx;
    kifu_index *ix = fr->ix;
    uint32_t number = (uint32_t)(index + 1);
    if (fr->ndone &&
        bsearch(&number, fr->done, fr->ndone, sizeof *fr->done, kifu__cmp_u32)) {
        fr->skipped++; /* the same game of the same file: indexed already */
        kifu_record_free(r);
        return 1;
    }
    kifu_error e;
    kifu_error_clear(&e);
    int played = kifu__normalize_hooked(r, ix->read_flags, NULL, NULL, NULL, NULL,
                                        &ix->replay, &e) == 0;
    /* Played whole, but for repaired moves (REPAIR): indexed, and told as a warning
     * (code OK, see warn_record). */
    int repaired = played && e.code;
    if (repaired) {
        char why[sizeof e.message];
        snprintf(why, sizeof why, "%s", e.message);
        snprintf(e.message, sizeof e.message, "a move repaired (--lenient): %.400s", why);
        e.code = KIFU_OK;
    }
    if (played && add_game(ix, r, fr->source, number, &e) == 0 && !repaired) {
        fr->added++;
    } else if (kifu__reserve(&fr->failed, &fr->capfailed, fr->nfailed + 1,
                             sizeof *fr->failed, 4)) {
        fr->nomem = 1;
    } else {
        fr->added += repaired && e.code == KIFU_OK;
        fr->repaired += repaired && e.code == KIFU_OK;
        fr->failed[fr->nfailed++] = (struct failed_game){e, index};
    }
    kifu_record_free(r);
    return 1;
}

int kifu_index_add_file(kifu_index *ix, const char *path, kifu_warn_fn warn,
                        void *warn_ctx, kifu_error *err)
{
    if (ix->readonly)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                           "the index was opened read-only");
    size_t len;
    unsigned char *data = kifu_file_read(path, &len, err);
    if (!data) {
        ix->stats.files_failed++;
        return -1;
    }
    uint64_t dig = ix->ch ? digest_fnv(data, len) : digest_fast(data, len), old = 0;
    uint32_t id = 0, *done = NULL; /* ClickHouse: game numbers indexed already */
    size_t ndone = 0;
    kifu__ch_ids gone = {0}; /* ClickHouse: the games of the file's old content */
    if (ix->ch) {
        /* The same path in the batch not written yet: the server cannot know it. With
         * other content, the batch is written first, then replaced as any indexed file. */
        for (size_t i = 0; i < ix->nsources; i++)
            if (strcmp(ix->sources[i].path, path) == 0)
                id = ix->sources[i].id, old = ix->sources[i].digest;
        if (id && old != dig) {
            if (kifu_index_flush(ix, err)) {
                kifu_free(data);
                return -1;
            }
            id = 0;
        }
        if (!id && kifu__ch_indexed(ix, path, dig, &done, &ndone, &gone, err)) {
            kifu__error_source(err, path);
            kifu_free(data);
            kifu__free(gone.v);
            ix->stats.files_failed++;
            return -1;
        }
    } else {
        id = find_source(ix, path, &old);
    }
    if (id && old == dig) {
        kifu_free(data);
        ix->stats.files_unchanged++;
        return KIFU_INDEX_UNCHANGED;
    }
    int status = id || gone.n ? KIFU_INDEX_REPLACED : KIFU_INDEX_ADDED;
    if (!id)
        id = ix->next_source++;
    /* Each game is normalized and indexed as the reader finishes it, while it is in the
     * cache, and freed, so that its memory serves the next one: the whole file's
     * records read first, then indexed, were read back from memory, and their pages
     * given back to the system and faulted in again file after file. Normalized one by
     * one, one bad game costs only itself. */
    file_reader fr = {.ix = ix, .source = id, .done = done, .ndone = ndone};
    size_t games0 = ix->ngames, pos0 = ix->npos;
    uint32_t next0 = ix->next_game;
    kifu_read_options o = {.encoding = ix->encoding,
                           .source = path,
                           .flags = KIFU_READ_NO_NORMALIZE | KIFU_READ_BORROW |
                                    ix->read_flags};
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error e;
    kifu_error_clear(&e);
    int rc = kifu__read_all_done(data, len, &o, take_record, &fr, &recs, &n, &e);
    if (rc == 0) {
        /* Records of a reader that does not tell of each as it finishes it. */
        for (size_t i = 0; i < n; i++)
            if (recs[i])
                take_record(&fr, recs[i], i);
        kifu_free(recs);
    }
    kifu_free(data);
    kifu__free(done);
    if (rc || fr.nomem) {
        /* Nothing of a file that does not read is indexed. */
        ix->ngames = games0, ix->npos = pos0, ix->next_game = next0;
        kifu__free(fr.failed), kifu__free(gone.v);
        ix->stats.files_failed++;
        if (!rc)
            return nomem(err);
        if (err && !err->code)
            *err = e;
        return -1;
    }
    for (size_t i = 0; i < fr.nfailed; i++) {
        kifu_error *f = &fr.failed[i].e;
        if (!f->source[0])
            snprintf(f->source, sizeof f->source, "%s", path);
        warn_record(warn, warn_ctx, path, fr.failed[i].index, n, f);
        ix->stats.records_failed += f->code != KIFU_OK;
    }
    ix->stats.records_repaired += fr.repaired;
    kifu__free(fr.failed);
    size_t added = fr.added, skipped = fr.skipped;
    /* The old games go at the next flush, before the batch that holds the new ones. */
    for (size_t i = 0; i < gone.n; i++)
        if (kifu__ch_ids_add(&ix->ch->replaced, gone.v[i])) {
            kifu__free(gone.v);
            return nomem(err);
        }
    kifu__free(gone.v);
    if (skipped && !added && status != KIFU_INDEX_REPLACED) {
        ix->next_source--;
        ix->stats.files_unchanged++;
        return KIFU_INDEX_UNCHANGED;
    }
    if (add_source(ix, id, path, dig, (int64_t)len))
        return nomem(err);
    ix->sources[ix->nsources - 1].games = (uint32_t)added;
    ix->sources[ix->nsources - 1].replace = status == KIFU_INDEX_REPLACED;
    /* A full batch goes to the table now, the add's transaction kept open: memory stays
     * bounded however many files one add reads. */
    if (ix->npos >= kifu__index_batch &&
        (ix->ch ? kifu_index_flush(ix, err) : write_step(ix, err)))
        return -1;
    if (status == KIFU_INDEX_REPLACED)
        ix->stats.files_replaced++;
    else
        ix->stats.files_added++;
    return status;
}

/* ---- Writing a batch ---------------------------------------------------------------- */

/* Does row a come before row b in the table's order (key, game, ply): kifu__ipos_cmp,
 * inline for the sorts below. The rows of one key reach their bucket in no particular
 * order (sort_lanes moves rows about), so the game and ply decide between them. */
static inline int before(const kifu__ipos *a, const kifu__ipos *b)
{
    if (a->key != b->key)
        return a->key < b->key;
    return a->game != b->game ? a->game < b->game : a->ply < b->ply;
}

/* Rows v[0..n) sorted by insertion, unless that takes more than `budget` moves: 0, or 1
 * (left part sorted). */
static int insertion(kifu__ipos *v, size_t n, size_t budget)
{
    for (size_t k = 1; k < n; k++) {
        if (!before(&v[k], &v[k - 1]))
            continue;
        kifu__ipos x = v[k];
        size_t m = k;
        for (; m > 0 && before(&x, &v[m - 1]); m--)
            v[m] = v[m - 1];
        v[m] = x;
        if (k - m > budget)
            return 1;
        budget -= k - m;
    }
    return 0;
}

/* Rows v[0..n) sorted: runs of 16 by insertion, then merged bottom-up through t (n
 * rows), the compare inline. Runs already in order are copied, not merged. */
#define RUN_ROWS 16
static void merge(kifu__ipos *v, size_t n, kifu__ipos *t)
{
    for (size_t s = 0; s < n; s += RUN_ROWS)
        insertion(v + s, n - s < RUN_ROWS ? n - s : RUN_ROWS, SIZE_MAX);
    kifu__ipos *a = v, *b = t;
    for (size_t w = RUN_ROWS; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            if (mid == hi || !before(&a[mid], &a[mid - 1])) {
                memcpy(b + lo, a + lo, (hi - lo) * sizeof *a);
                continue;
            }
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                b[k++] = before(&a[j], &a[i]) ? a[j++] : a[i++];
            while (i < mid)
                b[k++] = a[i++];
            while (j < hi)
                b[k++] = a[j++];
        }
        kifu__ipos *x = a;
        a = b, b = x;
    }
    if (a != v)
        memcpy(v, a, n * sizeof *v);
}

/* The batch is sorted by its keys' top 27 bits, the order of the table's buckets, in two
 * steps. sort_lanes puts the rows of each lane (the top 9 bits) together, in place: one
 * pass, each row moved once. kifu__index_lane then sorts one lane by the next 18 bits, 9
 * a pass (512 destinations a pass stay in the caches), through two buffers the size of a
 * lane that stay in the cache while the lane is written. What is left is to sort each
 * bucket by (key, game, ply) (kifu__index_sort_bucket, as the run is written): after the
 * 27 bits its rows are in order but for the few that share them (a hot key's rows are all
 * equal), which insertion puts in place; a bucket of many such rows is merge-sorted.
 * (A radix sort of the whole batch needed a second buffer of its size: a bulk build's
 * peak memory went from 1.79 to 0.77 GB without it, and its system time, the faults of
 * those pages, by about 3 s a million games. Two passes and qsort per bucket took twice
 * as long as the radix passes: calls through a pointer, byte-wise copies of rows.) */
#define RADIX_BITS 9
#define RADIX_SHIFT (64 - 3 * RADIX_BITS)
#define LANE(key) ((unsigned)((key) >> (64 - KIFU__LANE_BITS)))
_Static_assert(RADIX_SHIFT <= KIFU__BUCKET_SHIFT, "the radix passes cover the bucket");
_Static_assert(KIFU__LANE_BITS == RADIX_BITS, "a lane is the top radix digit");
static int sort_lanes(kifu_index *ix)
{
    size_t n = ix->npos, *at = ix->lane_at, head[KIFU__LANES], big = 0;
    kifu__irow *v = ix->pos;
    memset(ix->lane_at, 0, sizeof ix->lane_at);
    for (size_t i = 0; i < n; i++)
        at[LANE(v[i].key) + 1]++;
    for (unsigned l = 0; l < KIFU__LANES; l++) {
        big = at[l + 1] > big ? at[l + 1] : big;
        at[l + 1] += at[l];
        head[l] = at[l];
    }
    /* Each row not in its lane goes to the next free place of its lane, and the row it
     * finds there is placed next: the lanes before l are full. */
    for (unsigned l = 0; l < KIFU__LANES; l++)
        while (head[l] < at[l + 1]) {
            kifu__irow x = v[head[l]];
            for (unsigned d; (d = LANE(x.key)) != l;) {
                kifu__irow y = v[head[d]];
                v[head[d]++] = x;
                x = y;
            }
            v[head[l]++] = x;
        }
    for (int i = 0; i < 2; i++)
        if (kifu__reserve(&ix->lane[i], &ix->caplane[i], big ? big : 1, sizeof **ix->lane,
                          1 << 12))
            return -1;
    return 0;
}

kifu__ipos *kifu__index_lane(kifu_index *ix, unsigned l, size_t *np, kifu__ipos **t)
{
    const kifu__irow *v = ix->pos + ix->lane_at[l];
    size_t n = *np = ix->lane_at[l + 1] - ix->lane_at[l];
    if (!n)
        return NULL;
    const uint64_t mask = (1u << RADIX_BITS) - 1;
    size_t count[2][1 << RADIX_BITS];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) {
        count[0][(v[i].key >> RADIX_SHIFT) & mask]++;
        count[1][(v[i].key >> (RADIX_SHIFT + RADIX_BITS)) & mask]++;
    }
    for (int p = 0; p < 2; p++)
        for (size_t d = 0, sum = 0; d <= mask; d++) {
            size_t c = count[p][d];
            count[p][d] = sum;
            sum += c;
        }
    /* The batch's games have consecutive ids from the first one's. */
    const uint32_t *facts = ix->facts, first = ix->games[0].id;
    kifu__ipos *a = ix->lane[0], *b = ix->lane[1];
    for (size_t i = 0; i < n; i++) {
        const kifu__irow *r = &v[i];
        a[count[0][(r->key >> RADIX_SHIFT) & mask]++] =
            (kifu__ipos){r->key, r->game, r->ply, r->move, facts[r->game - first]};
    }
    for (size_t i = 0; i < n; i++)
        b[count[1][(a[i].key >> (RADIX_SHIFT + RADIX_BITS)) & mask]++] = a[i];
    *t = a;
    return b;
}

void kifu__index_sort_bucket(kifu__ipos *v, size_t n, kifu__ipos *t)
{
    if (insertion(v, n, 4 * n))
        merge(v, n, t);
}

int kifu__index_start(const char *handicap, const char *sfen, kpos *p)
{
    kifu_board b;
    int preset = kifu_preset_from_name(handicap);
    if (preset >= 0 && preset < KIFU_PRESET_OTHER) {
        kifu_preset_board(preset, &b);
    } else {
        kifu_position *q = kifu_position_new();
        if (!q || !sfen || kifu_position_set_sfen(q, sfen, NULL)) {
            kifu_position_free(q);
            return -1;
        }
        kifu_position_board(q, &b);
        kifu_position_free(q);
    }
    kifu__pos_from_board(p, &b);
    return 0;
}

kmove kifu__index_expand(const kpos *p, uint16_t c)
{
    /* A damaged file may hold any 16 bits: a move that cannot be played on this board
     * (no piece of the side to move there, a piece of its own on the target, a king
     * taken, a promotion of a kind that has none, a drop without the piece in hand) is
     * MOVE_NONE, and the game's line ends there. */
    int to = c & 0x7f, from = (c >> 7) & 0x7f, promote = (c >> 14) & 1;
    if (to >= SQ_NB || (p->board[to] && CPIECE_COLOR(p->board[to]) == p->side) ||
        CPIECE_KIND(p->board[to]) == KING || c >> 15)
        return MOVE_NONE;
    if (from >= SQ_NB) {
        int kind = from - SQ_NB + 1;
        if (kind > GOLD || promote || p->board[to] || !p->hand[p->side][kind])
            return MOVE_NONE;
        return move_make_drop(kind, to);
    }
    int kind = CPIECE_KIND(p->board[from]);
    if (!kind || CPIECE_COLOR(p->board[from]) != p->side ||
        (promote && !kind_can_promote(kind)))
        return MOVE_NONE;
    return move_make(from, to, kind, CPIECE_KIND(p->board[to]), promote);
}

/* Buckets touched by deletions, for their blocks to be written again; the ids of the
 * deleted games, whose occurrences those blocks drop. */
typedef struct keyset {
    uint64_t *v;
    size_t n, cap;
} keyset;

/* Remove the games of a source that is indexed again: their occurrences go when the
 * buckets they are in are written again (each game's keys found by replaying its moves),
 * and the games are no longer live for that merge. */
static int delete_source(kifu_index *ix, uint32_t source, keyset *touched, keyset *dead,
                         kifu_error *err)
{
    sqlite3_stmt *sel = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(ix->db,
                           "SELECT id, handicap, start, moves FROM games WHERE source=?",
                           -1, &sel, NULL) != SQLITE_OK)
        goto done;
    sqlite3_bind_int64(sel, 1, source);
    int s;
    while ((s = sqlite3_step(sel)) == SQLITE_ROW) {
        long long game = sqlite3_column_int64(sel, 0);
        if (kifu__reserve(&dead->v, &dead->cap, dead->n + 1, sizeof *dead->v, 256)) {
            nomem(err);
            goto done;
        }
        dead->v[dead->n++] = (uint64_t)game;
        const uint16_t *moves = sqlite3_column_blob(sel, 3);
        int nmoves = sqlite3_column_bytes(sel, 3) / 2;
        kpos p;
        if (kifu__index_start((const char *)sqlite3_column_text(sel, 1),
                              (const char *)sqlite3_column_text(sel, 2), &p))
            continue;
        for (int ply = 0;; ply++) {
            if (kifu__reserve(&touched->v, &touched->cap, touched->n + 1,
                              sizeof *touched->v, 256)) {
                nomem(err);
                goto done;
            }
            touched->v[touched->n++] = p.key >> KIFU__BUCKET_SHIFT;
            if (ply >= nmoves)
                break;
            kmove k = kifu__index_expand(&p, moves[ply]);
            if (!k)
                break;
            kifu__pos_do(&p, k);
        }
    }
    if (s != SQLITE_DONE)
        goto done;
    char sql[96];
    snprintf(sql, sizeof sql, "DELETE FROM games WHERE source=%u", (unsigned)source);
    rc = sqlite3_exec(ix->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
done:
    if (rc && (!err || !err->code))
        kifu__index_sqlite_error(ix->db, ix->path, "cannot replace a file's games", err);
    sqlite3_finalize(sel);
    return rc;
}

static int cmp_key(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static int insert_games(kifu_index *ix, sqlite3_stmt *game)
{
    for (size_t i = 0; i < ix->ngames; i++) {
        kifu__igame *g = &ix->games[i];
        sqlite3_bind_int64(game, 1, g->id);
        sqlite3_bind_int64(game, 2, g->source);
        sqlite3_bind_int64(game, 3, g->number);
        const char *text[4] = {g->sente, g->gote, g->date, g->event};
        for (int k = 0; k < 4; k++)
            if (text[k])
                sqlite3_bind_text(game, 4 + k, text[k], -1, SQLITE_STATIC);
            else
                sqlite3_bind_null(game, 4 + k);
        sqlite3_bind_int(game, 8, g->result);
        const char *hc =
            kifu_preset_name(g->handicap < 0 ? KIFU_PRESET_HIRATE : g->handicap);
        sqlite3_bind_text(game, 9, hc ? hc : "OTHER", -1, SQLITE_STATIC);
        if (g->start)
            sqlite3_bind_text(game, 10, g->start, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(game, 10);
        sqlite3_bind_int64(game, 11, g->nmoves);
        if (g->sente_rating)
            sqlite3_bind_int(game, 12, g->sente_rating);
        else
            sqlite3_bind_null(game, 12);
        if (g->gote_rating)
            sqlite3_bind_int(game, 13, g->gote_rating);
        else
            sqlite3_bind_null(game, 13);
        sqlite3_bind_blob(game, 14, g->moves ? (const void *)g->moves : "",
                          (int)(g->nmoves * 2), SQLITE_STATIC);
        if (g->ending)
            sqlite3_bind_text(game, 15, g->ending, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(game, 15);
        sqlite3_bind_text(game, 16, g->header, -1, SQLITE_STATIC);
        if (kifu__index_step(game))
            return -1;
        sqlite3_clear_bindings(game);
    }
    return 0;
}

/* Write the queued batch inside the open transaction: sources, games, then the positions
 * as a run of their own (index_runs.c), the replaced games' occurrences dropped first.
 * 0, or -1 with err. */
static int write_batch(kifu_index *ix, kifu_error *err)
{
    sqlite3 *db = ix->db;
    sqlite3_stmt *src = NULL, *game = NULL;
    keyset touched = {0}, dead = {0};
    int rc = -1;
    if (sort_lanes(ix)) {
        nomem(err);
        goto out;
    }
    for (size_t i = 0; i < ix->nsources; i++)
        if (ix->sources[i].replace &&
            delete_source(ix, ix->sources[i].id, &touched, &dead, err))
            goto out;
    if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO sources VALUES(?,?,?,?,?)", -1,
                           &src, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db,
                           "INSERT INTO games VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &game, NULL) != SQLITE_OK)
        goto sqlfail;
    for (size_t i = 0; i < ix->nsources; i++) {
        struct kifu__isource *s = &ix->sources[i];
        sqlite3_bind_int64(src, 1, s->id);
        sqlite3_bind_text(src, 2, s->path, -1, SQLITE_STATIC);
        sqlite3_bind_int64(src, 3, s->size);
        sqlite3_bind_int64(src, 4, (sqlite3_int64)s->digest);
        sqlite3_bind_int64(src, 5, s->games);
        if (kifu__index_step(src))
            goto sqlfail;
    }
    if (insert_games(ix, game))
        goto sqlfail;
    /* Sorted, each once (an empty vector has no storage, and qsort wants some). */
    size_t nt = 0;
    if (touched.n) {
        qsort(touched.v, touched.n, sizeof *touched.v, cmp_key);
        for (size_t i = 0; i < touched.n; i++)
            if (!nt || touched.v[i] != touched.v[nt - 1])
                touched.v[nt++] = touched.v[i];
    }
    if (dead.n)
        qsort(dead.v, dead.n, sizeof *dead.v, cmp_key);
    if (kifu__index_write_run(ix, touched.v, nt, dead.v, dead.n, err))
        goto out;
    ix->stats.games += ix->ngames;
    ix->stats.positions += ix->npos;
    rc = 0;
    goto out;
sqlfail:
    if (!err || !err->code)
        kifu__index_sqlite_error(db, ix->path, "cannot write the index", err);
out:
    sqlite3_finalize(src), sqlite3_finalize(game);
    kifu__free(touched.v), kifu__free(dead.v);
    free_batch(ix);
    return rc;
}

/* Write the batch; the first one of an add opens its transaction. 0, or -1: the whole
 * add is rolled back. */
static int write_step(kifu_index *ix, kifu_error *err)
{
    if (!ix->intx) {
        if (sqlite3_exec(ix->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
            kifu__index_sqlite_error(ix->db, ix->path, "cannot write the index", err);
            free_batch(ix);
            return -1;
        }
        ix->intx = 1;
    }
    if (write_batch(ix, err) == 0)
        return 0;
    sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
    ix->intx = 0;
    /* What the add took from the id counters goes back with it. */
    ix->next_game = max_id(ix->db, "games") + 1;
    ix->next_source = max_id(ix->db, "sources") + 1;
    return -1;
}

int kifu_index_flush(kifu_index *ix, kifu_error *err)
{
    if (ix->ch) {
        int rc = kifu__ch_flush(ix, err);
        free_batch(ix);
        return rc;
    }
    if (ix->readonly || (!ix->ngames && !ix->nsources && !ix->intx && !ix->unindexed))
        return 0;
    if ((ix->ngames || ix->nsources) && write_step(ix, err))
        return -1;
    /* A bulk build's games' indexes, once its games are in (kifu_index_open). */
    int failed = ix->unindexed && kifu__index_schema_indexes(ix->db, err);
    if (failed)
        kifu__error_source(err, ix->path);
    else
        ix->unindexed = 0;
    if (!ix->intx)
        return failed ? -1 : 0;
    if (failed || sqlite3_exec(ix->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        if (!failed)
            kifu__index_sqlite_error(ix->db, ix->path, "cannot write the index", err);
        sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
        ix->intx = 0;
        ix->next_game = max_id(ix->db, "games") + 1;
        ix->next_source = max_id(ix->db, "sources") + 1;
        return -1;
    }
    ix->intx = 0;
    return 0;
}

int kifu_index_compact(kifu_index *ix, kifu_error *err)
{
    if (ix->ch)
        return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL,
                           "an index on ClickHouse merges its parts itself");
    if (ix->readonly)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                           "the index was opened read-only");
    if (kifu_index_flush(ix, err))
        return -1;
    if (sqlite3_exec(ix->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot write the index", err);
    if (kifu__index_merge_all(ix, err) ||
        sqlite3_exec(ix->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        if (!err || !err->code)
            kifu__index_sqlite_error(ix->db, ix->path, "cannot write the index", err);
        sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

int kifu_index_info_get(kifu_index *ix, kifu_index_info *out, kifu_error *err)
{
    if (ix->ch)
        return kifu__ch_info(ix, out, err);
    memset(out, 0, sizeof *out);
    static const char *const sql[4] = {
        "SELECT count(*) FROM games", "SELECT coalesce(sum(plies+1),0) FROM games",
        "SELECT count(*) FROM sources", "SELECT count(*) FROM hot"};
    long long *v[4] = {&out->games, &out->positions, &out->sources, &out->hot_positions};
    for (int i = 0; i < 4; i++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(ix->db, sql[i], -1, &st, NULL) != SQLITE_OK)
            return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index",
                                            err);
        if (sqlite3_step(st) == SQLITE_ROW)
            *v[i] = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    struct stat st;
    if (stat(ix->path, &st) == 0)
        out->bytes = (long long)st.st_size;
    return 0;
}
