/* cmd_replay.c: `kifu replay`: step through a record in the terminal. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "msf_file.h"
#include "record_cursor.h"
#include "record_view.h"
#include "term.h"
#include "viewer.h"

void cmd_replay_usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu replay [--game N] [--input-encoding ENC] [--ply N] [--path P] "
        "[--flip]\n"
        "                   [--lenient] FILE[#GAME]\n"
        "--game N (or FILE#N) steps through game N of a file of several.\n"
        "\n"
        "Step through a record (any format, including a sfenlist) in the terminal.\n"
        "--lenient steps through a record with an illegal move up to the last move\n"
        "that could be played (the error is printed first, the exit code says it).\n"
        "An .msf file (a Xelto record) steps through its states and variations with\n"
        "the same keys (no find); its comments (oprens) and times (im) are shown.\n"
        "\n"
        "keys:\n"
        "  -> f j space    next move          <- b k      previous move\n"
        "  PgDn PgUp       10 moves           Home < 0    start     End > G  end\n"
        "  g N Enter       go to ply N (or a path: 12,0,1 or /0/0/1)\n"
        "  [ ]             previous / next fork at this ply (alternatives to this move)\n"
        "  /TEXT Enter     find a move (７六歩, 同銀, 7g7f ...) ahead; n finds again\n"
        "  d u             scroll long comments down / up\n"
        "  r               flip the board        ?  help        q  quit\n"
        "The screen shows the players, event, date and result, the moves around the\n"
        "current one (as many as the height allows), and the comments, times and\n"
        "bookmarks of the current move, whole, wrapped to the width.\n");
}

typedef struct view {
    cli_viewer vw; /* first: the loop's part (flip, help, colour, status ...) */
    kifu_player *pl;
    const kifu_record *rec;
    const kifu_node *scroll_at; /* the node the comment scroll belongs to */
    int scroll;                 /* first line of the notes shown */
    int page;                   /* lines d and u scroll by */
    char search[128];
} view;

static void put_at(FILE *sb, const view *v, int row, int col)
{
    term_put_at(sb, v->vw.positioned, row, col);
}

static int put_lines(FILE *sb, const view *v, const char *text, int row, int col,
                     int clear)
{
    return term_put_lines(sb, v->vw.positioned, text, row, col, clear);
}

/* Remove ASCII and full-width spaces and the ☗/☖ marks, for searching. */
static void squeeze(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    while (*s && n + 1 < cap) {
        if (*s == ' ') {
            s++;
        } else if (strncmp(s, "　", 3) == 0 || strncmp(s, "☗", 3) == 0 ||
                   strncmp(s, "☖", 3) == 0 || strncmp(s, "▲", 3) == 0 ||
                   strncmp(s, "△", 3) == 0) {
            s += 3;
        } else {
            out[n++] = *s++;
        }
    }
    out[n] = 0;
}

static int node_matches(const kifu_node *n, const char *query)
{
    char text[96], a[96], q[128];
    squeeze(query, q, sizeof q);
    if (!q[0])
        return 0;
    kifu_node_text(n, text, sizeof text);
    squeeze(text, a, sizeof a);
    if (strstr(a, q))
        return 1;
    kifu_move m_v;
    const kifu_move *m = kifu_node_get_move(n, &m_v) ? &m_v : NULL;
    if (m) {
        kifu_move ki2 = *m;
        const kifu_node *p = kifu_node_parent(n);
        kifu_move pm;
        kifu_move_text(&ki2, p && kifu_node_get_move(p, &pm) ? &pm : NULL,
                       KIFU_TEXT_RELATIVE, text, sizeof text);
        squeeze(text, a, sizeof a);
        if (strstr(a, q))
            return 1;
        char usi[8];
        if (strcmp(kifu_move_usi(m, usi), query) == 0)
            return 1;
    }
    return 0;
}

static void find(view *v)
{
    int cur = kifu_player_ply(v->pl), end = kifu_player_line_end(v->pl);
    for (int k = 1; k <= end + 1; k++) {
        int ply = (cur + k) % (end + 1);
        const kifu_node *n = kifu_player_line_node(v->pl, ply);
        if (n && node_matches(n, v->search)) {
            kifu_player_go(v->pl, ply);
            snprintf(v->vw.status, sizeof v->vw.status, "found '%s' at ply %d%s",
                     v->search, ply, ply <= cur ? " (from the start)" : "");
            return;
        }
    }
    snprintf(v->vw.status, sizeof v->vw.status, "'%s' is not on this line", v->search);
}

static void time_text(const kifu_time *t, char *buf, size_t cap)
{
    if (t->h >= 0)
        snprintf(buf, cap, "%d:%02d:%02d", t->h, t->m, t->s);
    else
        snprintf(buf, cap, "%d:%02d", t->m, t->s);
}

/* "LABEL a [b] c": the children of `parent`, the one the cursor takes in brackets. New
 * string (free), or NULL. */
static char *alternatives(const kifu_node *parent, const kifu_node *mark,
                          const char *label)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fputs(label, f);
    for (size_t i = 0; i < kifu_node_child_count(parent); i++) {
        char t[80];
        const kifu_node *c = kifu_node_child(parent, i);
        kifu_node_text(c, t, sizeof t);
        fprintf(f, " %s%s%s", c == mark ? "[" : "", t, c == mark ? "]" : "");
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* How many moves to list before and after the cursor in `rows` rows: half each, the rest
 * on the side that has moves (at the start, all ahead). */
static void around(const kifu_player *pl, int rows, int *before, int *after)
{
    int ply = kifu_player_ply(pl), ahead = kifu_player_line_end(pl) - ply;
    if (rows < 1) {
        *before = *after = -1;
        return;
    }
    int b = (rows - 1) / 2, a = rows - 1 - b;
    if (b > ply)
        a += b - ply, b = ply;
    if (a > ahead) {
        b += a - ahead;
        a = ahead;
        if (b > ply)
            b = ply;
    }
    *before = b;
    *after = a;
}

/* The cursor's place (cli_viewer's where). */
static void where(cli_viewer *vw, cli_viewer_where *w)
{
    const view *v = (const view *)vw;
    w->ply = kifu_player_ply(v->pl);
    w->end = kifu_player_line_end(v->pl);
    int first = kifu_record_start_number(kifu_player_record(v->pl));
    w->first = first > 1 ? first : 0;
    kifu_player_path(v->pl, w->path, sizeof w->path);
    w->fork = kifu_node_index(kifu_player_node(v->pl)) + 1;
    w->forks = kifu_player_fork_count(v->pl);
}

/* The board at the cursor (cli_viewer's diagram). */
static char *diagram(cli_viewer *vw, const kifu_diagram_options *o)
{
    return kifu_player_diagram(((view *)vw)->pl, o, NULL);
}

/* The lines under the board: the players, event, date and result when they are not
 * beside it (`about`, else NULL), the alternatives to this move and to the next, the
 * time, the bookmarks and comments, and the key help; each wrapped to width. */
static void collect_notes(const view *v, const cli_lines *about, int width,
                          cli_lines *notes)
{
    kifu_player *pl = v->pl;
    kifu_node *n = kifu_player_node(pl);
    for (size_t i = 0; about && i < about->n; i++)
        cli_lines_wrap(notes, about->v[i], width, "", "");
    if (kifu_player_fork_count(pl) > 1) {
        char *line = alternatives(kifu_node_parent(n), n, "alternatives ([ ]):");
        cli_lines_wrap(notes, line, width, "", "  ");
        free(line);
    }
    /* the next move has alternatives: say so, they are one step ahead */
    if (kifu_node_child_count(n) > 1 && kifu_node_kind_of(n) != KIFU_NODE_SPECIAL) {
        const kifu_node *next = kifu_player_line_node(pl, kifu_player_ply(pl) + 1);
        char *line = alternatives(n, next, "next move (f, then [ ]):");
        cli_lines_wrap(notes, line, width, "", "  ");
        free(line);
    }
    kifu_move_time tv;
    const kifu_move_time *t = kifu_node_get_time(n, &tv) ? &tv : NULL;
    if (t) {
        char a[32], b[32], line[80];
        time_text(&t->now, a, sizeof a);
        time_text(&t->total, b, sizeof b);
        snprintf(line, sizeof line, "time %s / %s", a, b);
        cli_lines_wrap(notes, line, width, "", "");
    }
    cli_node_notes(notes, n, width);
    if (v->vw.help) {
        const char *h[] = {"-> f j space: next   <- b k: back   PgDn PgUp: 10   Home/End",
                           "g N: go to ply or path   [ ]: fork   /TEXT: find, n: again",
                           "d u: scroll the comments   r: flip   ?: help   q: quit"};
        for (int i = 0; i < 3; i++)
            cli_lines_wrap(notes, h[i], width, "", "");
    }
}

/* How many of the `count` notes lines fit in `avail` rows; the scroll (d/u) is kept in
 * range, and starts over at the top on another node. */
static int fit_notes(view *v, size_t count, int avail)
{
    if (avail < 0)
        avail = 0;
    int shown = count < (size_t)avail ? (int)count : avail;
    const kifu_node *n = kifu_player_node(v->pl);
    if (n != v->scroll_at)
        v->scroll = 0, v->scroll_at = n;
    if (v->scroll > (int)count - shown)
        v->scroll = (int)count - shown;
    if (v->scroll < 0)
        v->scroll = 0;
    return shown;
}

/* Right of the board, from row 3: the players, event, date and result, then the moves
 * around the cursor, down to the row above the notes (`shown` of them) or at least to
 * the board's last row (`board_end` is the row under it). The row after the list. */
static int draw_side(const view *v, FILE *sb, const cli_lines *about, int board_end,
                     int rows, int shown)
{
    int lrow = 3;
    for (size_t i = 0; i < about->n; i++)
        lrow = put_lines(sb, v, about->v[i], lrow, 40, 0);
    int last = v->vw.positioned ? rows - 1 - shown : lrow + 10;
    if (last < board_end - 1)
        last = board_end - 1;
    int before, after;
    around(v->pl, last - lrow + 1, &before, &after);
    char *list =
        before + after >= 0 ? kifu_player_moves_text(v->pl, before, after, "") : NULL;
    lrow = put_lines(sb, v, list ? list : "", lrow, 40, 0);
    kifu_free(list);
    return lrow;
}

/* Beside and under the board (cli_viewer's body). Right of the board when there is room
 * (else below it): the players, event, date and result, then the moves around the
 * cursor. Below the board: the notes (collect_notes), whole, wrapped to the width; they
 * take the rows they need (all of them, or scrolled with d/u), the move list the rest
 * of the height. */
static void body(cli_viewer *vw, FILE *sb, int row, int rows, int cols)
{
    view *v = (view *)vw;
    int side = !v->vw.positioned || cols >= 70;
    int width = v->vw.positioned ? cols : 1 << 20;
    cli_lines about = {0}, notes = {0};
    cli_record_about(&about, v->rec, side && v->vw.positioned ? cols - 40 : width);
    collect_notes(v, side ? NULL : &about, width, &notes);
    int shown = fit_notes(v, notes.n, v->vw.positioned ? rows - row : (int)notes.n);
    int lrow = side ? draw_side(v, sb, &about, row, rows, shown) : 3;
    if (lrow > row)
        row = lrow;
    for (int i = 0; i < shown && v->scroll + i < (int)notes.n; i++) {
        put_at(sb, v, row++, 1);
        fprintf(sb, "%s%s", notes.v[v->scroll + i], v->vw.positioned ? "" : "\n");
    }
    if (!v->vw.status[0] && shown < (int)notes.n)
        snprintf(v->vw.status, sizeof v->vw.status,
                 "d u: scroll (lines %d-%d of %zu)  ? help", v->scroll + 1,
                 v->scroll + shown, notes.n);
    v->page = shown > 1 ? shown / 2 : 1;
    cli_lines_free(&about);
    cli_lines_free(&notes);
}

static void go_to(view *v, const char *what)
{
    int ply;
    kifu_error err = {0};
    if (cli_parse_int(what, &ply) == 0) {
        int got = kifu_player_go(v->pl, ply);
        if (got != ply)
            snprintf(v->vw.status, sizeof v->vw.status, "the line ends at ply %d", got);
    } else if (kifu_player_go_path(v->pl, what, &err)) {
        snprintf(v->vw.status, sizeof v->vw.status, "bad ply or path %.40s: %.150s", what,
                 err.message);
    }
}

/* The keys of a shogi record (cli_viewer's act). */
static int act(cli_viewer *vw, term_nav nav, int key, const char *line)
{
    view *v = (view *)vw;
    kifu_player *pl = v->pl;
    char buf[128];
    switch (nav) {
    case NAV_NEXT:
        if (!kifu_player_forward(pl))
            snprintf(vw->status, sizeof vw->status, "end of the line");
        break;
    case NAV_BACK:
        if (!kifu_player_backward(pl))
            snprintf(vw->status, sizeof vw->status, "at the start");
        break;
    case NAV_PAGE_DOWN:
        kifu_player_go(pl, kifu_player_ply(pl) + 10);
        break;
    case NAV_PAGE_UP:
        kifu_player_go(pl, kifu_player_ply(pl) - 10);
        break;
    case NAV_START:
        kifu_player_go(pl, 0);
        break;
    case NAV_END:
        kifu_player_go(pl, kifu_player_line_end(pl));
        break;
    case NAV_FORK_PREV:
    case NAV_FORK_NEXT: {
        size_t nf = kifu_player_fork_count(pl);
        if (nf <= 1) {
            snprintf(vw->status, sizeof vw->status, "no fork at this ply");
            break;
        }
        size_t i = kifu_node_index(kifu_player_node(pl));
        i = nav == NAV_FORK_NEXT ? (i + 1) % nf : (i + nf - 1) % nf;
        if (kifu_player_switch_fork(pl, i))
            snprintf(vw->status, sizeof vw->status,
                     "that fork starts with an illegal move");
        else
            snprintf(vw->status, sizeof vw->status, "fork %zu/%zu", i + 1, nf);
        break;
    }
    case NAV_GOTO:
        go_to(v, line);
        break;
    default:
        if (key == '/') { /* the keys of this viewer only: find a move */
            int r = term_ask(vw->positioned, "find: ", buf, sizeof buf);
            if (r == -2)
                return 1;
            if (r == 0 && buf[0]) {
                snprintf(v->search, sizeof v->search, "%s", buf);
                find(v);
            }
        } else if (key == 'n') {
            if (v->search[0])
                find(v);
            else
                snprintf(vw->status, sizeof vw->status, "nothing to find yet: / first");
        } else if (key == 'd') { /* scroll the comments */
            v->scroll += v->page;
        } else if (key == 'u') {
            v->scroll -= v->page;
        } else {
            snprintf(vw->status, sizeof vw->status,
                     "unknown key (? for help, q to quit)");
        }
        break;
    }
    return 0;
}

/* A shogi record's bytes, of format fmt, replayed under `name` (the FILE argument). */
static int replay_record(const cli_cursor_args *a, const char *name, const void *data,
                         size_t len, int fmt)
{
    kifu_record *rec;
    int rc, broken = EXIT_OK;
    kifu_player *pl = cli_open_player_from(a->file, data, len, fmt, a->encoding, a->game,
                                           a->lenient ? &broken : NULL, &rec, &rc);
    if (!pl)
        return rc;
    view v = {.vw = {.flip = a->flip,
                     .name = name,
                     .where = where,
                     .diagram = diagram,
                     .body = body,
                     .act = act},
              .pl = pl,
              .rec = rec};
    cli_cursor_place(pl, a, v.vw.status, sizeof v.vw.status);
    rc = cli_viewer_run(&v.vw, "replay");
    kifu_player_free(pl);
    kifu_record_free(rec);
    return rc != EXIT_OK ? rc : broken;
}

int cmd_replay(int argc, char **argv)
{
    cli_cursor_args a;
    int rc = cli_cursor_args_parse("replay", argc, argv, CLI_CURSOR_LENIENT,
                                   cmd_replay_usage, &a);
    if (rc != EXIT_OK)
        return rc;
    if (strcmp(a.file, "-") == 0 && isatty(STDIN_FILENO) == 0) {
        cli_err("kifu: replay: the keys come from standard input, so the record "
                "cannot (give a file)\n");
        return EXIT_USAGE;
    }
    /* FILE#N is game N of FILE */
    const char *name = a.file;
    char *path;
    if (cli_cursor_file(a.file, &a.game, &path, &rc))
        return rc;
    a.file = path;
    /* the format is decided once, here: a Xelto record has a replay of its own */
    size_t len;
    int fmt;
    kifu_error err = {0};
    char *data = cli_input_read(a.file, a.encoding, &len, &fmt, &err);
    if (!data) {
        cli_print_error(&err);
        rc = cli_exit_code(err.code);
    } else if (cli_other_game(fmt)) {
        rc = cli_msf_replay(&a, data, len);
    } else {
        rc = replay_record(&a, name, data, len, fmt);
    }
    kifu_free(data);
    free(path);
    return rc;
}
