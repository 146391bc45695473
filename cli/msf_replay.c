/* msf_replay.c: `kifu replay` of an MSF file (a Xelto record): steps through its moves
 * and variations with the keys of the shogi replay, on the same terminal code. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "msf_file.h"
#include "term.h"
#include "viewer.h"

typedef struct mview {
    cli_viewer vw; /* first: the loop's part (flip, help, colour, status ...) */
    const kifu_msf *m;
    kifu_msf_node *n;
} mview;

/* The last ply of the line through n (following child 0 ahead of it). */
static int line_end(const kifu_msf_node *n)
{
    while (kifu_msf_node_child(n, 0))
        n = kifu_msf_node_child(n, 0);
    return kifu_msf_node_ply(n);
}

/* The cursor's place (cli_viewer's where). */
static void where(cli_viewer *vw, cli_viewer_where *w)
{
    const mview *v = (const mview *)vw;
    w->ply = kifu_msf_node_ply(v->n);
    w->end = line_end(v->n);
    kifu_msf_node_path(v->n, w->path, sizeof w->path);
    kifu_msf_node *par = kifu_msf_node_parent(v->n);
    w->forks = par ? kifu_msf_node_child_count(par) : 1;
    for (size_t i = 0; par && i < w->forks; i++)
        if (kifu_msf_node_child(par, i) == v->n)
            w->fork = i + 1;
}

/* The board of the cursor's state (cli_viewer's diagram). */
static char *diagram(cli_viewer *vw, const kifu_diagram_options *o)
{
    return kifu_msf_diagram(((mview *)vw)->n, o, NULL);
}

/* Under the board: the state's and the next move's text, the help (cli_viewer's body). */
static void body(cli_viewer *vw, FILE *sb, int row, int rows, int cols)
{
    (void)rows, (void)cols;
    mview *v = (mview *)vw;
    char *info = NULL;
    size_t ilen = 0;
    FILE *inf = open_memstream(&info, &ilen);
    if (!inf)
        return;
    cli_msf_info(inf, v->m, v->n, kifu_msf_node_child(v->n, 0));
    if (v->vw.help)
        fputs("-> f j space: next   <- b k: back   PgDn PgUp: 10   Home/End\n"
              "g P: go to a ply or path (12, 12,0,1, /0/0/1, "
              "seslax[3].mit[0].seslax[1])\n"
              "[ ]: other moves at this ply   r: flip   ?: help   q: quit\n",
              inf);
    if (fclose(inf) == 0)
        term_put_lines(sb, v->vw.positioned, info, row, 1, 1);
    free(info);
}

static void go_ply(mview *v, int ply)
{
    if (ply < 0)
        ply = 0;
    while (kifu_msf_node_ply(v->n) > ply)
        v->n = kifu_msf_node_parent(v->n);
    while (kifu_msf_node_ply(v->n) < ply && kifu_msf_node_child(v->n, 0))
        v->n = kifu_msf_node_child(v->n, 0);
}

/* The keys of an MSF record (cli_viewer's act). */
static int act(cli_viewer *vw, term_nav nav, int key, const char *line)
{
    (void)key;
    mview *v = (mview *)vw;
    kifu_msf_node *next, *par;
    switch (nav) {
    case NAV_NEXT:
        if ((next = kifu_msf_node_child(v->n, 0)))
            v->n = next;
        else
            snprintf(vw->status, sizeof vw->status, "end of the line");
        break;
    case NAV_BACK:
        if ((par = kifu_msf_node_parent(v->n)))
            v->n = par;
        else
            snprintf(vw->status, sizeof vw->status, "at the start");
        break;
    case NAV_PAGE_DOWN:
        go_ply(v, kifu_msf_node_ply(v->n) + 10);
        break;
    case NAV_PAGE_UP:
        go_ply(v, kifu_msf_node_ply(v->n) - 10);
        break;
    case NAV_START:
        go_ply(v, 0);
        break;
    case NAV_END:
        go_ply(v, line_end(v->n));
        break;
    case NAV_FORK_PREV:
    case NAV_FORK_NEXT: {
        par = kifu_msf_node_parent(v->n);
        size_t nf = par ? kifu_msf_node_child_count(par) : 1, i = 0;
        if (nf <= 1) {
            snprintf(vw->status, sizeof vw->status, "no other move at this ply");
            break;
        }
        while (i < nf && kifu_msf_node_child(par, i) != v->n)
            i++;
        i = nav == NAV_FORK_NEXT ? (i + 1) % nf : (i + nf - 1) % nf;
        v->n = kifu_msf_node_child(par, i);
        snprintf(vw->status, sizeof vw->status, "fork %zu/%zu", i + 1, nf);
        break;
    }
    case NAV_GOTO: {
        int ply;
        kifu_error err = {0};
        kifu_msf_node *n;
        if (cli_parse_int(line, &ply) == 0)
            go_ply(v, ply);
        else if ((n = kifu_msf_find(v->m, line, &err)))
            v->n = n;
        else
            snprintf(vw->status, sizeof vw->status, "%.200s", err.message);
        break;
    }
    default:
        snprintf(vw->status, sizeof vw->status, "unknown key (? for help, q to quit)");
        break;
    }
    return 0;
}

int cli_msf_replay(const cli_cursor_args *a, const void *data, size_t len)
{
    int rc = EXIT_OK;
    kifu_msf *m = cli_msf_open(a->file, data, len, 0, &rc);
    if (!m)
        return rc;
    mview v = {.vw = {.flip = a->flip,
                      .name = a->file,
                      .where = where,
                      .diagram = diagram,
                      .body = body,
                      .act = act},
               .m = m,
               .n = kifu_msf_root(m)};
    if (a->path || a->ply >= 0) {
        kifu_msf_node *n = cli_msf_place(m, a, v.vw.status, sizeof v.vw.status);
        if (n)
            v.n = n;
    }
    rc = cli_viewer_run(&v.vw, "replay");
    kifu_msf_free(m);
    return rc;
}
