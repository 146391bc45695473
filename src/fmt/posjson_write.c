/* posjson_write.c: the position-list JSON writer (../shared/seeds/002; docs/formats.md "posjson").
 *
 * One entry per position, one entry per line, strict JSON: `bd`, `cb`, `cw`, `sid` (the
 * ID the document read gave the position, a string or a number as given, else the
 * entry's index) and `mv` (the bd index of the square moved to) first, as the document
 * defines them, so a program that knows only those reads every position. kifu's own keys
 * follow: `turn`, `ply`, `move` (KIF text), `usi`, `time`, `comments`, `bookmarks`, `end`
 * (the ending after this move: its word, or {"word", "time", "comments", "bookmarks",
 * "sid"} when it carries more), `prev` (the entry a fork's first position follows from:
 * entries are written main line first, then each fork, from the deepest back, as the
 * record walk visits them), `game` (on the first entry of each game after the first of a
 * file) and, on a game's first entry, `header`. */
#include <stdio.h>

#include "fmt/fmt.h"
#include "kifu_private.h"
#include "notation/bd.h"
#include "record/record.h"

/* Seconds with the milliseconds as a fraction ("7", "7.25"). */
static void seconds(kifu__strbuf *out, const kifu_time *t)
{
    kifu__sb_printf(out, "%ld", kifu_time_seconds(t));
    if (t->ms)
        kifu__sb_printf(out, ".%03d", t->ms);
}

static void strings(kifu__strbuf *out, const char *key, const kifu_node *n,
                    size_t (*count)(const kifu_node *),
                    const char *(*at)(const kifu_node *, size_t))
{
    size_t k = count(n);
    if (!k)
        return;
    kifu__sb_printf(out, ",\"%s\":[", key);
    for (size_t i = 0; i < k; i++) {
        if (i)
            kifu__sb_putc(out, ',');
        kifu__sb_json_string(out, at(n, i));
    }
    kifu__sb_putc(out, ']');
}

/* The ending that closes n's line and rides on n's entry: child 0, a leaf; else NULL
 * (it gets an entry). It rides whatever it carries (`end` is then an object with its
 * time, comments, bookmarks and sid): an entry of its own repeats its move's board, and
 * a reader that knows only bd, cb and cw reads that as a second game. What cannot ride
 * keeps an entry: an ending after an ending (a second KACHI, as JKF tools keep), and an
 * ending that is an alternative to another child. */
static const kifu_node *riding_end(const kifu_node *n)
{
    const kifu_node *c =
        kifu_node_child_count(n) && kifu_node_kind_of(n) != KIFU_NODE_SPECIAL
            ? kifu_node_child(n, 0)
            : NULL;
    if (!c || kifu_node_kind_of(c) != KIFU_NODE_SPECIAL || kifu_node_child_count(c))
        return NULL;
    return c;
}

/* `"sid":` and the ID the document gave n (a string, or a number as written), else the
 * entry's index. */
static void put_sid(kifu__strbuf *out, const kifu_node *n, size_t index)
{
    int number;
    const char *given = kifu__node_sid(n, &number);
    kifu__sb_puts(out, "\"sid\":");
    if (!given)
        kifu__sb_printf(out, "%zu", index);
    else if (number)
        kifu__sb_puts(out, given);
    else
        kifu__sb_json_string(out, given);
}

/* A node's time, comments and bookmarks, each key only when it has one. */
static void notes(kifu__strbuf *out, const kifu_node *n)
{
    kifu_move_time tv;
    const kifu_move_time *t = kifu_node_get_time(n, &tv) ? &tv : NULL;
    if (t) {
        kifu__sb_puts(out, ",\"time\":{\"now\":");
        seconds(out, &t->now);
        if (t->has_total) {
            kifu__sb_puts(out, ",\"total\":");
            seconds(out, &t->total);
        }
        kifu__sb_putc(out, '}');
    }
    strings(out, "comments", n, kifu_node_comment_count, kifu_node_comment);
    strings(out, "bookmarks", n, kifu_node_bookmark_count, kifu_node_bookmark);
}

/* The ending riding on its move's entry: its word, or, when it carries a time, comments,
 * bookmarks or an ID, {"word": ..., those}. */
static void ending(kifu__strbuf *out, const kifu_node *end)
{
    kifu__sb_puts(out, ",\"end\":");
    if (!kifu_node_comment_count(end) && !kifu_node_bookmark_count(end) &&
        !kifu_node_get_time(end, NULL) && !kifu__node_sid(end, NULL)) {
        kifu__sb_json_string(out, kifu_node_special(end));
        return;
    }
    kifu__sb_puts(out, "{\"word\":");
    kifu__sb_json_string(out, kifu_node_special(end));
    if (kifu__node_sid(end, NULL)) {
        kifu__sb_putc(out, ',');
        put_sid(out, end, 0);
    }
    notes(out, end);
    kifu__sb_putc(out, '}');
}

static void header(kifu__strbuf *out, const kifu_record *r)
{
    size_t k = kifu_record_header_count(r);
    if (!k)
        return;
    kifu__sb_puts(out, ",\"header\":{");
    for (size_t i = 0; i < k; i++) {
        const char *key, *value;
        kifu_record_header_at(r, i, &key, &value);
        if (i)
            kifu__sb_putc(out, ',');
        kifu__sb_json_string(out, key);
        kifu__sb_putc(out, ':');
        kifu__sb_json_string(out, value);
    }
    kifu__sb_putc(out, '}');
}

/* One entry: the position b at node n (a move, the root, or an ending with an entry of
 * its own). */
static void entry(kifu__strbuf *out, const kifu_record *r, const kifu_node *n,
                  const kifu_board *b, size_t index, long prev, long game)
{
    char bd[82], cb[40], cw[40], text[64], usi[8];
    kifu__bd_write(b, bd, cb, cw);
    kifu__sb_printf(out, "{\"bd\":\"%s\",\"cb\":\"%s\",\"cw\":\"%s\",", bd, cb, cw);
    put_sid(out, n, index);
    int kind = kifu_node_kind_of(n);
    kifu_move m_v;
    const kifu_move *m =
        kind == KIFU_NODE_MOVE && kifu_node_get_move(n, &m_v) ? &m_v : NULL;
    if (m)
        kifu__sb_printf(out, ",\"mv\":%d", kifu__bd_index(m->to_x, m->to_y));
    /* `ply` counts the moves played before this position from the game's first, as a
     * BOD's 手数＝ does: a record that starts at move 6 (a SFEN's `... b - 6`) starts at
     * ply 5, and the reader takes its start number back from there. */
    kifu__sb_printf(out, ",\"turn\":\"%c\",\"ply\":%d",
                    b->color == KIFU_BLACK ? 'b' : 'w',
                    kifu_record_start_number(r) - 1 + kifu_node_ply(n));
    if (m) {
        kifu__sb_puts(out, ",\"move\":");
        kifu__sb_json_string(out, kifu_node_text(n, text, sizeof text));
        kifu__sb_printf(out, ",\"usi\":\"%s\"", kifu_move_usi(m, usi));
    }
    notes(out, n);
    const kifu_node *end = kind == KIFU_NODE_SPECIAL ? n : riding_end(n);
    if (end == n) {
        kifu__sb_puts(out, ",\"end\":");
        kifu__sb_json_string(out, kifu_node_special(end));
    } else if (end) {
        ending(out, end);
    }
    if (prev >= 0)
        kifu__sb_printf(out, ",\"prev\":%ld", prev);
    if (game)
        kifu__sb_printf(out, ",\"game\":%ld", game);
    if (kind == KIFU_NODE_ROOT)
        header(out, r);
    kifu__sb_putc(out, '}');
}

/* The entries of record r, the first numbered `sid`; each new game after the first of a
 * file says so (`game`), so that it never reads as the continuation of the one before. */
static int write_one(const kifu_record *r, size_t game, const kifu_write_options *opt,
                     kifu__strbuf *out, size_t *sidp, kifu_error *err)
{
    kifu_walker *w = kifu_walk_new(r, KIFU_WALK_POSITIONS, err);
    /* The entry of every node written, by node id, for `prev`. */
    size_t *at = kifu__malloc(kifu_record_node_count(r) * sizeof *at);
    if (!w || !at) {
        kifu_walk_free(w);
        kifu__free(at);
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    }
    size_t first = *sidp, sid = first, lost = 0;
    int ev;
    while ((ev = kifu_walk_next(w)) > 0) {
        const kifu_node *n = kifu_walk_node(w);
        if (ev != KIFU_WALK_ENTER)
            continue;
        const kifu_node *parent = kifu_node_parent(n);
        if (kifu_node_kind_of(n) == KIFU_NODE_SPECIAL && riding_end(parent) == n) {
            at[kifu_node_id(n)] = at[kifu_node_id(parent)];
            continue; /* written as the `end` of its move's entry */
        }
        kifu_board b;
        if (kifu_walk_board(w, &b)) {
            /* A move that is not legal has no position: nothing below it is written. */
            kifu_walk_skip(w);
            lost++;
            continue;
        }
        long prev = -1;
        if (parent && at[kifu_node_id(parent)] != sid - 1)
            prev = (long)at[kifu_node_id(parent)];
        if (sid)
            kifu__sb_puts(out, ",\n");
        entry(out, r, n, &b, sid, prev, sid == first && game > 1 ? (long)game : 0);
        at[kifu_node_id(n)] = sid++;
    }
    *sidp = sid;
    if (lost && opt && opt->warn) {
        char msg[160];
        snprintf(
            msg, sizeof msg,
            "posjson holds positions: %zu illegal move%s (and what follows) left out",
            lost, lost == 1 ? "" : "s");
        opt->warn(opt->warn_ctx, msg);
    }
    kifu_walk_free(w);
    kifu__free(at);
    if (ev < 0 || out->failed)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return 0;
}

int kifu__write_posjson_part(const kifu_record *r, size_t index, size_t *sid,
                             const kifu_write_options *opt, kifu__strbuf *out,
                             kifu_error *err)
{
    if (index == 0)
        kifu__sb_puts(out, "[\n");
    if (!r) {
        kifu__sb_puts(out, "\n]\n");
        return 0;
    }
    return write_one(r, index + 1, opt, out, sid, err);
}

int kifu__write_posjson_many(const kifu_record *const *rs, size_t n,
                             const kifu_write_options *opt, kifu__strbuf *out,
                             kifu_error *err)
{
    size_t sid = 0;
    for (size_t i = 0; i < n; i++)
        if (kifu__write_posjson_part(rs[i], i, &sid, opt, out, err))
            return -1;
    return kifu__write_posjson_part(NULL, n, &sid, opt, out, err);
}

int kifu__write_posjson(KIFU__WRITER_PARAMS)
{
    return kifu__write_posjson_many(&r, 1, opt, out, err);
}
