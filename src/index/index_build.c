/* index_build.c: record files turned into a batch of rows, the same for every backend:
 * a games row each, and the positions of each game's main line (key, game, ply, move).
 * The backend (backend.h) says what it holds of a file already, and writes the batch
 * when it is full and at kifu_index_flush. Also the compact moves the rows keep. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strbuf.h"
#include "fmt/fmt.h"
#include "index/index_par.h"
#include "index/index_private.h"
#include "kifu_private.h"
#include "record/record.h"
#include "rules/engine.h"
#include "rules/position.h"
#include "tags/tags.h"

size_t kifu__index_batch = KIFU__INDEX_BATCH;

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

uint16_t kifu__index_compact(uint32_t m)
{
    return (uint16_t)(m & 0x7fff);
}

void kifu__index_batch_free(kifu_index *ix)
{
    kifu__lanes_stop(ix); /* a write that failed before its lanes */
    kifu__arena_free(&ix->text);
    for (size_t i = 0; i < ix->nsources; i++)
        kifu__free(ix->sources[i].path);
    ix->ngames = ix->npos = ix->nsources = ix->ngtags = ix->games_written = 0;
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
    /* ILLEGAL_MOVE: the side to move lost by a foul (CSA %ILLEGAL_MOVE, KIF 反則負け),
     * unless the line ends on a move kept as a foul: its mover lost, as
     * kifu_record_result_text names it on the page and in show. */
    if (!strcmp(sp, "ILLEGAL_MOVE") && p && kifu_node_foul(p))
        return to_move_wins;
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

/* The batch's strings and moves live in one arena (kifu__index_batch_free drops it): a malloc and a
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

/* The game's tags (from the tagger, names borrowed from it) queued with g, each by the
 * name's index in the tagger. 0, or -1 out of memory. */
static int queue_tags(kifu_index *ix, kifu__igame *g, const kifu_tag *tags, size_t n)
{
    g->tag0 = (uint32_t)ix->ngtags, g->ntags = 0;
    if (!n)
        return 0;
    if (kifu__reserve(&ix->gtags, &ix->capgtags, ix->ngtags + n, sizeof *ix->gtags, 1024))
        return -1;
    const kifu_tagger *t = ix->tagger;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < t->nnames && t->names[k] != tags[i].name)
            k++;
        if (k == t->nnames || k > UINT16_MAX)
            continue; /* not the tagger's name: cannot be */
        ix->gtags[ix->ngtags++] =
            (kifu__igtag){(uint16_t)k, (uint8_t)(tags[i].side < 0 ? 2 : tags[i].side)};
        g->ntags++;
    }
    return 0;
}

/* Append one game and the positions of its main line. A move the engine cannot pack
 * (a record that is not normalized) fails the game: nothing of it stays queued. 0, 1 when
 * the game is indexed already (kifu__dups_check: nothing queued), or -1 with err. */
static int add_game(kifu_index *ix, const kifu_record *r, uint32_t source,
                    uint32_t number, const kifu_tag *tags, size_t ntags, kifu_error *err)
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
    /* The players' keys, ranks, and ratings from the names when no header gives one. */
    for (int side = 0; side < 2; side++) {
        const char *name = side ? g->gote : g->sente;
        if (!name)
            continue;
        kifu__player pl;
        kifu__player_parse(name, &pl);
        int *rate = side ? &g->gote_rating : &g->sente_rating;
        if (!*rate)
            *rate = pl.rating;
        if ((pl.key[0] && !(*(side ? &g->gote_key : &g->sente_key) =
                                kifu__arena_strdup(&ix->text, pl.key))) ||
            (pl.rank[0] && !(*(side ? &g->gote_rank : &g->sente_rank) =
                                 kifu__arena_strdup(&ix->text, pl.rank))))
            goto nomem;
    }
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
    g->ident = kifu__index_ident(g);
    if (!ix->keep_dups) {
        int seen = kifu__dups_check(ix, g->ident, g->id, err);
        if (seen) { /* indexed already (1), or no memory for the set (-1) */
            ix->npos = pos0;
            return seen;
        }
    }
    if (queue_tags(ix, g, tags, ntags)) {
        ix->npos = pos0;
        return nomem(err);
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
static int add_source(kifu_index *ix, uint32_t id, const char *path, uint64_t dig,
                      int64_t size)
{
    if (kifu__reserve(&ix->sources, &ix->capsources, ix->nsources + 1,
                      sizeof *ix->sources, 256))
        return -1;
    char *p = kifu__strdup(path);
    if (!p)
        return -1;
    ix->sources[ix->nsources++] = (struct kifu__isource){id, p, dig, size, 0, 0, 0};
    return 0;
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

/* A file being read: the games as its reader finishes them (take_record). */
typedef struct file_reader {
    kifu_index *ix;
    uint32_t source;
    const uint32_t *done; /* game numbers indexed already (sorted) */
    size_t ndone;
    size_t added, skipped, repaired, dups;
    struct kifu__failed_game *failed; /* the games that failed, reported once the file
                                       * has read */
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
    /* The tags are recognised in the normalizer's replay: no second one. */
    kifu_tag *tags = NULL;
    size_t ntags = 0;
    int played =
        (ix->tagger ? kifu__tags_normalize_keep(ix->tagger, r, ix->read_flags, NULL, NULL,
                                                &ix->replay, &tags, &ntags, &e)
                    : kifu__normalize_hooked(r, ix->read_flags, NULL, NULL, NULL, NULL,
                                             &ix->replay, &e)) == 0;
    /* Played whole, but for repaired moves (REPAIR): indexed, and told as a warning
     * (code OK, see warn_record). */
    int repaired = played && e.code;
    if (repaired) {
        char why[sizeof e.message];
        snprintf(why, sizeof why, "%s", e.message);
        snprintf(e.message, sizeof e.message, "a move repaired (--lenient): %.400s", why);
        e.code = KIFU_OK;
    }
    int rc = -1; /* add_game's: 0 added, 1 a duplicate, -1 failed */
    if (played && (rc = add_game(ix, r, fr->source, number, tags, ntags, &e)) >= 0 &&
        !repaired) {
        if (rc)
            fr->dups++;
        else
            fr->added++;
    } else if (e.code == KIFU_ERR_NOMEM) {
        fr->nomem = 1; /* not the game's fault: the file fails, the add says why */
    } else if (kifu__reserve(&fr->failed, &fr->capfailed, fr->nfailed + 1,
                             sizeof *fr->failed, 4)) {
        fr->nomem = 1;
    } else {
        /* a repaired game added (or found a duplicate), its warning kept to be told */
        fr->added += repaired && rc == 0;
        fr->dups += repaired && rc == 1;
        fr->repaired += repaired && rc == 0;
        fr->failed[fr->nfailed++] = (struct kifu__failed_game){e, index};
    }
    kifu_free(tags);
    kifu_record_free(r);
    return 1;
}

/* The shipped definitions unless the caller chose (kifu_index_set_tagger), where the
 * backend keeps tags (both do: no tagging for nothing). 0, or -1. */
int kifu__index_default_tagger(kifu_index *ix, kifu_error *err)
{
    if (ix->tagger_set || ix->tagger || !ix->ops->search_where)
        return 0;
    if (!(ix->own_tagger = kifu_tags_new(err)))
        return -1;
    ix->tagger = ix->own_tagger;
    return 0;
}

int kifu__index_parse(kifu_index *ix, const char *path, const unsigned char *data,
                      size_t len, uint32_t source, const uint32_t *done, size_t ndone,
                      kifu__parsed *r, kifu_error *err)
{
    /* Each game is normalized and indexed as the reader finishes it, while it is in the
     * cache, and freed, so that its memory serves the next one: the whole file's
     * records read first, then indexed, were read back from memory, and their pages
     * given back to the system and faulted in again file after file. Normalized one by
     * one, one bad game costs only itself. */
    file_reader fr = {.ix = ix, .source = source, .done = done, .ndone = ndone};
    size_t games0 = ix->ngames, pos0 = ix->npos, tags0 = ix->ngtags;
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
    memset(r, 0, sizeof *r);
    if (rc || fr.nomem) {
        /* Nothing of a file that does not read is indexed. */
        ix->ngames = games0, ix->npos = pos0, ix->next_game = next0;
        ix->ngtags = tags0;
        kifu__free(fr.failed);
        if (!rc) {
            nomem(err);
            kifu__error_source(err, path);
            return -1;
        }
        if (err && !err->code)
            *err = e;
        return -1;
    }
    r->failed = fr.failed, r->nfailed = fr.nfailed, r->records = n;
    r->added = fr.added, r->skipped = fr.skipped, r->repaired = fr.repaired;
    r->dups = fr.dups;
    return 0;
}

void kifu__index_parsed_free(kifu__parsed *r)
{
    kifu__free(r->failed);
    memset(r, 0, sizeof *r);
}

int kifu__index_queued(kifu_index *ix, const char *path, uint64_t dig, size_t len,
                       uint32_t id, int status, kifu__known *k, kifu__parsed *r,
                       kifu_warn_fn warn, void *warn_ctx, kifu_error *err)
{
    for (size_t i = 0; i < r->nfailed; i++) {
        kifu_error *f = &r->failed[i].e;
        if (!f->source[0])
            snprintf(f->source, sizeof f->source, "%s", path);
        warn_record(warn, warn_ctx, path, r->failed[i].index, r->records, f);
        ix->stats.records_failed += f->code != KIFU_OK;
    }
    ix->stats.records_repaired += r->repaired;
    size_t added = r->added, skipped = r->skipped, dups = r->dups;
    kifu__index_parsed_free(r);
    ix->stats.duplicates += dups;
    /* The old games go at the next flush, before the batch that holds the new ones. */
    int gone = k->ngone ? ix->ops->replaced(ix, k->gone, k->ngone, err) : 0;
    kifu__free(k->gone), k->gone = NULL;
    if (gone)
        return -1;
    /* (A file of duplicates only is kept as a source: it is not read again, and the
     * games it would have added are counted.) */
    if (skipped && !added && !dups && status != KIFU_INDEX_REPLACED) {
        ix->next_source--;
        ix->stats.files_unchanged++;
        return KIFU_INDEX_UNCHANGED;
    }
    if (add_source(ix, id, path, dig, (int64_t)len))
        return nomem(err);
    ix->sources[ix->nsources - 1].games = (uint32_t)added;
    ix->sources[ix->nsources - 1].dups = (uint32_t)dups;
    ix->sources[ix->nsources - 1].replace = status == KIFU_INDEX_REPLACED;
    /* A full batch goes to the table now, the add's transaction kept open: memory stays
     * bounded however many files one add reads. */
    if (ix->npos >= kifu__index_batch ? ix->ops->write(ix, err)
                                      : ix->ops->rows && ix->ops->rows(ix, err))
        return -1;
    if (status == KIFU_INDEX_REPLACED)
        ix->stats.files_replaced++;
    else
        ix->stats.files_added++;
    return status;
}

int kifu__index_known(kifu_index *ix, const char *path, uint64_t dig, kifu__known *k,
                      kifu_error *err)
{
    /* The identities first: those of a file read again are forgotten before it is. */
    if (kifu__dups_load(ix, err) || ix->ops->lookup(ix, path, dig, k, err))
        return -1;
    /* A file read again: its old games are not duplicates of its new ones. */
    if (k->ngone && !(k->id && k->digest == dig)) {
        qsort(k->gone, k->ngone, sizeof *k->gone, kifu__cmp_u32);
        kifu__dups_forget(ix, k->gone, k->ngone);
    }
    if (k->id && k->digest == dig) {
        kifu__free(k->done), kifu__free(k->gone);
        k->done = k->gone = NULL;
        ix->stats.files_unchanged++;
        return KIFU_INDEX_UNCHANGED;
    }
    return k->id || k->ngone ? KIFU_INDEX_REPLACED : KIFU_INDEX_ADDED;
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
    if (kifu__index_default_tagger(ix, err)) {
        kifu_free(data);
        return -1;
    }
    uint64_t dig = ix->ops->digest(data, len);
    kifu__known k = {0};
    int status = kifu__index_known(ix, path, dig, &k, err);
    if (status < 0 || status == KIFU_INDEX_UNCHANGED) {
        kifu_free(data);
        return status;
    }
    uint32_t id = k.id ? k.id : ix->next_source++;
    kifu__parsed r;
    int rc = kifu__index_parse(ix, path, data, len, id, k.done, k.ndone, &r, err);
    kifu_free(data);
    kifu__free(k.done);
    if (rc) {
        kifu__free(k.gone);
        ix->stats.files_failed++;
        return -1;
    }
    return kifu__index_queued(ix, path, dig, len, id, status, &k, &r, warn, warn_ctx,
                              err);
}

/* ---- Compact moves ------------------------------------------------------------------ */

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
