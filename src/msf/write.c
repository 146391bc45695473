/* write.c: canonical MSF and the JSON Lines of the states. Canonical MSF takes the key
 * order of the format document, a two-space indent, small objects (a move, a result, a
 * hand) on one line and the board one row per line with null padded to the width of a
 * name, so that two records diff square by square. Variations are written from a stack
 * of frames, without recursion over their depth. */
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"
#include "msf/msf.h"

static void indent(kifu__strbuf *b, int n)
{
    for (int i = 0; i < n; i++)
        kifu__sb_putc(b, ' ');
}

/* A line break and indent in canonical layout; a space when compact (ind < 0). */
static void br(kifu__strbuf *b, int ind)
{
    if (ind < 0)
        return;
    kifu__sb_putc(b, '\n');
    indent(b, ind);
}

static void put_piece(kifu__strbuf *b, int p, int padded)
{
    if (p)
        kifu__sb_printf(b, "\"%s\"", kifu__msf_names[p]);
    else
        kifu__sb_puts(b, padded ? " null" : "null");
}

static void put_list(kifu__strbuf *b, const uint8_t *v, int n)
{
    kifu__sb_putc(b, '[');
    for (int i = 0; i < n; i++) {
        if (i)
            kifu__sb_puts(b, ", ");
        put_piece(b, v[i], 0);
    }
    kifu__sb_putc(b, ']');
}

void kifu__msf_put_state(kifu__strbuf *b, const kifu_msf_state *s, int ind)
{
    int in = ind < 0 ? -1 : ind + 2;
    kifu__sb_putc(b, '{');
    br(b, in);
    kifu__sb_printf(b, "\"sast\": \"%s\",", kifu__msf_sides[s->sast & 1]);
    for (int sd = 0; sd < 2; sd++) {
        if (in < 0)
            kifu__sb_putc(b, ' ');
        br(b, in);
        kifu__sb_printf(b, "\"%s\": {\"txifol\": ", kifu__msf_sides[sd]);
        put_list(b, s->txifol[sd], s->ntxifol[sd]);
        kifu__sb_puts(b, ", \"evol\": ");
        put_piece(b, s->evol[sd], 0);
        kifu__sb_puts(b, "},");
    }
    if (in < 0)
        kifu__sb_putc(b, ' ');
    br(b, in);
    kifu__sb_puts(b, "\"ele\": [");
    for (int r = 0; r < 7; r++) {
        br(b, in < 0 ? -1 : in + 2);
        kifu__sb_putc(b, '[');
        for (int c = 0; c < 7; c++) {
            if (c)
                kifu__sb_puts(b, ", ");
            put_piece(b, s->ele[r][c], in >= 0);
        }
        kifu__sb_puts(b, r < 6 ? (in < 0 ? "], " : "],") : "]");
    }
    br(b, in);
    kifu__sb_puts(b, in < 0 ? "], " : "],");
    br(b, in);
    kifu__sb_puts(b, "\"korol\": ");
    put_list(b, s->korol, s->nkorol);
    br(b, ind);
    kifu__sb_putc(b, '}');
}

static void put_square(kifu__strbuf *b, kifu_msf_square q)
{
    kifu__sb_printf(b, "{\"alsia\": %d, \"soom\": %d}", q.alsia, q.soom);
}

void kifu__msf_put_move(kifu__strbuf *b, const kifu_msf_move *mv)
{
    kifu__sb_printf(b, "{\"pit\": \"%s\"", kifu__msf_pits[mv->pit <= 5 ? mv->pit : 0]);
    switch (mv->pit) {
    case KIFU_MSF_LEIM:
    case KIFU_MSF_OKKE:
        kifu__sb_puts(b, ", \"luul\": [");
        for (int k = 0; k < (mv->pit == KIFU_MSF_OKKE ? 2 : 1); k++) {
            kifu__sb_puts(b, k ? ", {\"i\": " : "{\"i\": ");
            put_square(b, mv->from[k]);
            kifu__sb_puts(b, ", \"a\": ");
            put_square(b, mv->to[k]);
            kifu__sb_putc(b, '}');
        }
        kifu__sb_putc(b, ']');
        break;
    case KIFU_MSF_KOR:
        kifu__sb_puts(b, ", \"ka\": ");
        put_square(b, mv->ka);
        break;
    case KIFU_MSF_EV:
        kifu__sb_puts(b, ", \"evol\": ");
        put_piece(b, mv->evol, 0);
        break;
    }
    kifu__sb_putc(b, '}');
}

/* The optional members of a result or a node on one line: `, "im": ..., "oprens": ...`. */
static void put_notes(kifu__strbuf *b, const char *im, const char *oprens)
{
    if (im) {
        kifu__sb_puts(b, ", \"im\": ");
        kifu__sb_json_string(b, im);
    }
    if (oprens) {
        kifu__sb_puts(b, ", \"oprens\": ");
        kifu__sb_json_string(b, oprens);
    }
}

static void put_result(kifu__strbuf *b, const kifu__msf_result *r)
{
    kifu__sb_printf(b, "{\"pit\": \"%s\"", kifu__msf_results[r->pit & 3]);
    if (r->pit != KIFU_MSF_DAIM)
        kifu__sb_printf(b, ", \"vastan\": \"%s\"", kifu__msf_sides[r->vastan & 1]);
    if (r->pit == KIFU_MSF_ARTANSOLDES)
        kifu__sb_printf(b, ", \"ito\": %d", r->ito);
    put_notes(b, r->im, r->oprens);
    kifu__sb_putc(b, '}');
}

/* A node up to its `"mit": [`; the caller has placed the '{'. */
static void node_head(kifu__strbuf *b, const kifu_msf *m, const kifu_msf_node *n, int ind)
{
    kifu__sb_putc(b, '{');
    br(b, ind + 2);
    if (n == m->root) {
        kifu__sb_printf(b, "\"fala\": %ld,", m->fala);
    } else {
        kifu__sb_puts(b, "\"ov\": ");
        kifu__msf_put_move(b, &n->ov);
        kifu__sb_putc(b, ',');
    }
    br(b, ind + 2);
    kifu__sb_puts(b, "\"slax\": ");
    kifu__msf_put_state(b, &n->slax, ind + 2);
    kifu__sb_putc(b, ',');
    br(b, ind + 2);
    kifu__sb_puts(b, "\"mit\": [");
}

/* The rest of a node after its variations. */
static void node_tail(kifu__strbuf *b, const kifu_msf_node *n, int ind)
{
    if (n->nmit)
        br(b, ind + 2);
    kifu__sb_putc(b, ']');
    if (n->im) {
        kifu__sb_putc(b, ',');
        br(b, ind + 2);
        kifu__sb_puts(b, "\"im\": ");
        kifu__sb_json_string(b, n->im);
    }
    if (n->oprens) {
        kifu__sb_putc(b, ',');
        br(b, ind + 2);
        kifu__sb_puts(b, "\"oprens\": ");
        kifu__sb_json_string(b, n->oprens);
    }
    br(b, ind);
    kifu__sb_putc(b, '}');
}

/* Indentation stops growing past this many spaces: each level of variations indents by
 * 8 more, and a record nested thousands deep would otherwise grow as the square of its
 * depth. Real records stay well inside it. */
#define MAX_INDENT 96

/* A frame: a node whose variations are being written (line NULL), or a line whose
 * nodes are. */
typedef struct wframe {
    const kifu_msf_node *node;
    const kifu_msf_line *line;
    size_t i;
    int ind;
} wframe;

static int push(wframe **st, size_t *d, size_t *cap, wframe f)
{
    if (kifu__reserve(st, cap, *d + 1, sizeof **st, 16))
        return -1;
    (*st)[(*d)++] = f;
    return 0;
}

char *kifu_msf_write(const kifu_msf *m, size_t *len, kifu_error *err)
{
    kifu__strbuf b;
    kifu__sb_init(&b);
    kifu__sb_puts(&b, "{\n  \"aptex\": {");
    for (size_t i = 0; i < m->ntags; i++) {
        kifu__sb_puts(&b, i ? ",\n    " : "\n    ");
        kifu__sb_json_string(&b, m->tags[i].key);
        kifu__sb_puts(&b, ": ");
        kifu__sb_json_string(&b, m->tags[i].value);
    }
    kifu__sb_puts(&b, m->ntags ? "\n  },\n  \"kit\": " : "},\n  \"kit\": ");
    wframe *st = NULL;
    size_t d = 0, cap = 0;
    int oom = 0;
    node_head(&b, m, m->root, 2);
    oom |= push(&st, &d, &cap, (wframe){m->root, NULL, 0, 2});
    while (d && !oom) {
        wframe *f = &st[d - 1];
        if (!f->line) {
            const kifu_msf_node *n = f->node;
            if (f->i < n->nmit) {
                const kifu_msf_line *l = n->mit[f->i];
                int ind = f->ind < MAX_INDENT ? f->ind + 4 : f->ind - 4;
                kifu__sb_puts(&b, f->i++ ? "," : "");
                br(&b, ind);
                kifu__sb_puts(&b, "{");
                br(&b, ind + 2);
                kifu__sb_puts(&b, "\"fixt\": ");
                put_result(&b, &l->fixt);
                kifu__sb_putc(&b, ',');
                br(&b, ind + 2);
                kifu__sb_puts(&b, "\"seslax\": [");
                oom |= push(&st, &d, &cap, (wframe){NULL, l, 0, ind + 4});
                continue;
            }
            node_tail(&b, n, f->ind);
            d--;
            if (n == m->root) {
                kifu__sb_puts(&b, ",\n  \"fixt\": ");
                put_result(&b, &m->main->fixt);
                kifu__sb_puts(&b, ",\n  \"seslax\": [");
                oom |= push(&st, &d, &cap, (wframe){NULL, m->main, 0, 4});
            }
            continue;
        }
        const kifu_msf_line *l = f->line;
        if (f->i < l->n) {
            const kifu_msf_node *n = l->nodes[f->i];
            int ind = f->ind;
            kifu__sb_puts(&b, f->i++ ? "," : "");
            br(&b, ind);
            node_head(&b, m, n, ind);
            if (n->nmit)
                oom |= push(&st, &d, &cap, (wframe){n, NULL, 0, ind});
            else
                node_tail(&b, n, ind);
            continue;
        }
        /* the line is done: close its array, and its variation object */
        int ind = f->ind;
        int is_main = l->main;
        d--;
        if (l->n)
            br(&b, ind - 2);
        kifu__sb_putc(&b, ']');
        if (!is_main) {
            br(&b, ind - 4);
            kifu__sb_putc(&b, '}');
        }
    }
    kifu__sb_puts(&b, "\n}\n");
    kifu__free(st);
    if (oom)
        b.failed = 1;
    char *out = kifu__sb_take(&b, len);
    if (!out)
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return out;
}

static void put_state_line(kifu__strbuf *b, const kifu_msf_node *n)
{
    char path[512];
    kifu__sb_puts(b, "{\"path\": ");
    kifu__sb_json_string(b, kifu_msf_node_path(n, path, sizeof path));
    kifu__sb_printf(b, ", \"ply\": %d", kifu_msf_node_ply(n));
    if (n->line) {
        kifu__sb_puts(b, ", \"ov\": ");
        kifu__msf_put_move(b, &n->ov);
    }
    kifu__sb_puts(b, ", \"slax\": ");
    kifu__msf_put_state(b, &n->slax, -1);
    put_notes(b, n->im, n->oprens);
    kifu__sb_puts(b, "}\n");
}

/* Lines from a stack: a line's nodes, then its nodes' variations (first ones first),
 * then what was below it. */
char *kifu_msf_write_states(const kifu_msf *m, size_t *len, kifu_error *err)
{
    kifu__strbuf b;
    kifu__sb_init(&b);
    const kifu_msf_line **st = NULL;
    size_t d = 0, cap = 0;
    int oom = 0;
    put_state_line(&b, m->root);
    for (size_t k = m->root->nmit; k-- > 0 && !oom;)
        if (kifu__reserve(&st, &cap, d + 1, sizeof *st, 16) == 0)
            st[d++] = m->root->mit[k];
        else
            oom = 1;
    if (!oom && kifu__reserve(&st, &cap, d + 1, sizeof *st, 16) == 0)
        st[d++] = m->main;
    else
        oom = 1;
    while (d && !oom) {
        const kifu_msf_line *l = st[--d];
        for (size_t i = 0; i < l->n; i++)
            put_state_line(&b, l->nodes[i]);
        for (size_t i = l->n; i-- > 0 && !oom;)
            for (size_t k = l->nodes[i]->nmit; k-- > 0 && !oom;) {
                if (kifu__reserve(&st, &cap, d + 1, sizeof *st, 16))
                    oom = 1;
                else
                    st[d++] = l->nodes[i]->mit[k];
            }
    }
    kifu__free(st);
    if (oom)
        b.failed = 1;
    char *out = kifu__sb_take(&b, len);
    if (!out)
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return out;
}
