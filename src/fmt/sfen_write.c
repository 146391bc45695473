/* sfen_write.c: a record's main line as a USI `position` line, or as a sfenlist (the
 * start and the position after each move, one SFEN per line). */
#include <stdio.h>

#include "fmt/fmt.h"
#include "kifu_private.h"
#include "record/record.h"
#include "rules/engine.h"

/* Tell the caller what these formats cannot hold: forks and comments. */
static void warn_lost(const kifu_record *r, const kifu_write_options *opt,
                      const char *fmt)
{
    if (!opt || !opt->warn)
        return;
    /* A line of USI moves, or of positions, holds nothing else: every other part of the
     * record is named. */
    size_t forks = 0, comments = 0, times = 0, marks = 0;
    const char *ending = NULL;
    for (const kifu_node *n = kifu_record_root(r); n; n = kifu_node_next(n)) {
        size_t c = kifu_node_child_count(n);
        forks += c > 1 ? c - 1 : 0;
        comments += kifu_node_comment_count(n);
        marks += kifu_node_bookmark_count(n);
        kifu_move_time t;
        times += kifu_node_kind_of(n) == KIFU_NODE_MOVE && kifu_node_get_time(n, &t);
        if (kifu_node_kind_of(n) == KIFU_NODE_SPECIAL && !ending)
            ending = kifu_node_special(n);
    }
    char msg[200];
    /* 手合割 is no loss: the start position says it. */
    size_t header = kifu_record_header_count(r) - !!kifu_record_header_get(r, "手合割");
    if (header) {
        snprintf(msg, sizeof msg, "%s holds no header: %zu entr%s left out", fmt, header,
                 header == 1 ? "y" : "ies");
        opt->warn(opt->warn_ctx, msg);
    }
    if (forks) {
        snprintf(msg, sizeof msg, "%s keeps only the main line: %zu fork(s) left out",
                 fmt, forks);
        opt->warn(opt->warn_ctx, msg);
    }
    if (comments) {
        snprintf(msg, sizeof msg, "%s holds no comments: %zu comment line(s) left out",
                 fmt, comments);
        opt->warn(opt->warn_ctx, msg);
    }
    if (marks) {
        snprintf(msg, sizeof msg, "%s holds no bookmarks: %zu left out", fmt, marks);
        opt->warn(opt->warn_ctx, msg);
    }
    if (times) {
        snprintf(msg, sizeof msg, "%s holds no times: the times of %zu move(s) left out",
                 fmt, times);
        opt->warn(opt->warn_ctx, msg);
    }
    if (ending) {
        snprintf(msg, sizeof msg, "%s holds no ending: %s left out", fmt,
                 kifu_special_text(ending));
        opt->warn(opt->warn_ctx, msg);
    }
}

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

/* A position at the record's start, set loosely: records start from positions no game
 * reaches (problems, handicaps with pieces in hand). */
static int start(const kifu_record *r, kifu_position **p, kifu_error *err)
{
    *p = kifu_position_new();
    if (!*p)
        return nomem(err);
    kifu_board b;
    kifu_record_initial(r, &b);
    if (kifu__position_set_board_loose(*p, &b, err)) {
        kifu_position_free(*p);
        *p = NULL;
        return -1;
    }
    return 0;
}

/* Play the move of node n (ply) on p, or fail with the ply named. */
static int play(kifu_position *p, const kifu_node *n, kifu_error *err)
{
    if (kifu__position_play_node(p, n, NULL) == 0)
        return 0;
    return kifu__error(
        err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
        "cannot write move %d: it is illegal or incomplete (normalize first)",
        kifu_node_ply(n));
}

int kifu__write_sfen(KIFU__WRITER_PARAMS)
{
    kifu_position *p;
    if (start(r, &p, err))
        return -1;
    warn_lost(r, opt, "SFEN");
    kifu_board b;
    kifu_record_initial(r, &b);
    int number = kifu_record_start_number(r);
    if (kifu_preset_match(&b) == KIFU_PRESET_HIRATE && number == 1) {
        kifu__sb_puts(out, "position startpos");
    } else {
        char *sfen = kifu_position_sfen(p, number);
        if (!sfen) {
            kifu_position_free(p);
            return nomem(err);
        }
        kifu__sb_printf(out, "position sfen %s", sfen);
        kifu_free(sfen);
    }
    int first = 1, rc = 0;
    for (const kifu_node *n = kifu_node_next(kifu_record_root(r)); n;
         n = kifu_node_next(n)) {
        if (kifu_node_kind_of(n) != KIFU_NODE_MOVE)
            break;
        char usi[8];
        kifu_move m;
        kifu_node_get_move(n, &m);
        kifu_move_usi(&m, usi);
        if ((rc = play(p, n, err)))
            break;
        kifu__sb_printf(out, "%s%s", first ? " moves " : " ", usi);
        first = 0;
    }
    kifu__sb_putc(out, '\n');
    kifu_position_free(p);
    if (!rc && out->failed)
        return nomem(err);
    return rc;
}

int kifu__write_sfenlist(KIFU__WRITER_PARAMS)
{
    kifu_position *p;
    if (start(r, &p, err))
        return -1;
    warn_lost(r, opt, "sfenlist");
    int rc = 0, number = kifu_record_start_number(r);
    const kifu_node *n = kifu_record_root(r);
    for (;;) {
        char *sfen = kifu_position_sfen(p, number);
        if (!sfen) {
            rc = nomem(err);
            break;
        }
        kifu__sb_printf(out, "%s\n", sfen);
        kifu_free(sfen);
        n = kifu_node_next(n);
        if (!n || kifu_node_kind_of(n) != KIFU_NODE_MOVE)
            break;
        if ((rc = play(p, n, err)))
            break;
        number++;
    }
    kifu_position_free(p);
    if (!rc && out->failed)
        return nomem(err);
    return rc;
}
