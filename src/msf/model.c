/* model.c: the Xelto record (Mino Seslax Format) as kifu_msf: pieces, states, nodes,
 * lines, tags, and the paths that name them. The msf module (src/msf/) owns the Xelto
 * game: its model, reader and checks, writer and diagrams. It shares with the shogi side
 * only core (allocation, errors, string buffers) and the JSON library; nothing of shogi
 * applies to it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu_private.h"
#include "msf/msf.h"

const char kifu__msf_names[KIFU_MSF_PIECES + 1][4] = {
    "",    "pal", "ful", "mik", "fav", "zan", "gil", "ruj", "dyu", "lis",
    "mel", "ser", "dia", "vio", "ral", "din", "rez", "kun", "mat", "lax",
    "jil", "tan", "rav", "nen", "pin", "mir", "ket", "lin", "len", "tem"};
const char *const kifu__msf_sides[2] = {"arxe", "sorn"};
const char *const kifu__msf_results[4] = {"daim", "xeltsoldes", "teomsast",
                                          "artansoldes"};
const char *const kifu__msf_pits[6] = {"", "leim", "okke", "kor", "ev", "sed"};

const char *kifu_msf_piece_name(int piece)
{
    return piece >= 1 && piece <= KIFU_MSF_PIECES ? kifu__msf_names[piece] : NULL;
}

int kifu_msf_piece_from_name(const char *name)
{
    for (int p = 1; name && p <= KIFU_MSF_PIECES; p++)
        if (strcmp(name, kifu__msf_names[p]) == 0)
            return p;
    return KIFU_MSF_NONE;
}

int kifu_msf_piece_side(int piece)
{
    if (piece >= 1 && piece <= 14)
        return KIFU_MSF_ARXE;
    if (piece >= 15 && piece <= 28)
        return KIFU_MSF_SORN;
    return -1;
}

int kifu_msf_piece_turnable(int piece)
{
    return (piece >= 1 && piece <= 7) || (piece >= 15 && piece <= 21) ||
           piece == KIFU_MSF_TEM;
}

void kifu_msf_state_start(kifu_msf_state *out)
{
    static const char *const rows[7] = {
        "rav nen pin mir ket lin len", "din rez kun mat lax jil tan", "", "tem@3", "",
        "pal ful mik fav zan gil ruj", "dyu lis mel ser dia vio ral"};
    memset(out, 0, sizeof *out);
    out->sast = KIFU_MSF_ARXE;
    for (int r = 0; r < 7; r++) {
        if (strcmp(rows[r], "tem@3") == 0) {
            out->ele[r][3] = KIFU_MSF_TEM;
            continue;
        }
        for (int c = 0; c < 7 && rows[r][0]; c++) {
            char name[4];
            memcpy(name, rows[r] + 4 * c, 3);
            name[3] = 0;
            out->ele[r][c] = (uint8_t)kifu_msf_piece_from_name(name);
        }
    }
}

/* ---- records, nodes, lines ---- */

int kifu__msf_set_string(char **dst, const char *s)
{
    char *copy = NULL;
    if (s && !(copy = kifu__strdup(s)))
        return -1;
    kifu__free(*dst);
    *dst = copy;
    return 0;
}

kifu_msf_node *kifu__msf_node_new(kifu_msf *m)
{
    if (kifu__reserve(&m->all_nodes, &m->capnodes, m->nnodes + 1, sizeof *m->all_nodes,
                      64))
        return NULL;
    kifu_msf_node *n = kifu__calloc(1, sizeof *n);
    if (n) {
        n->id = m->nnodes;
        m->all_nodes[m->nnodes++] = n;
    }
    return n;
}

kifu_msf_line *kifu__msf_line_new(kifu_msf *m, kifu_msf_node *from)
{
    if (kifu__reserve(&m->all_lines, &m->caplines, m->nlines + 1, sizeof *m->all_lines,
                      16))
        return NULL;
    kifu_msf_line *l = kifu__calloc(1, sizeof *l);
    if (l) {
        l->from = from;
        m->all_lines[m->nlines++] = l;
    }
    return l;
}

int kifu__msf_line_push(kifu_msf_line *l, kifu_msf_node *n)
{
    if (kifu__reserve(&l->nodes, &l->cap, l->n + 1, sizeof *l->nodes, 16))
        return -1;
    n->line = l;
    n->index = l->n;
    n->ply = (l->n ? l->nodes[l->n - 1]->ply : l->from->ply) + 1;
    l->nodes[l->n++] = n;
    return 0;
}

/* Values the model can hold: every check, writer and view indexes tables with them. */
static int state_ok(const kifu_msf_state *s)
{
    int ok = s->sast <= 1 && s->ntxifol[0] <= 14 && s->ntxifol[1] <= 14 &&
             s->evol[0] <= KIFU_MSF_PIECES && s->evol[1] <= KIFU_MSF_PIECES &&
             s->nkorol <= 15;
    for (int r = 0; r < 7 && ok; r++)
        for (int c = 0; c < 7; c++)
            ok &= s->ele[r][c] <= KIFU_MSF_PIECES;
    for (int sd = 0; sd < 2 && ok; sd++)
        for (int i = 0; i < s->ntxifol[sd]; i++)
            ok &= s->txifol[sd][i] <= KIFU_MSF_PIECES;
    for (int i = 0; i < s->nkorol && ok; i++)
        ok &= s->korol[i] <= KIFU_MSF_PIECES;
    return ok;
}

static int square_ok(kifu_msf_square q)
{
    return q.alsia <= 6 && q.soom <= 6;
}

static int move_ok(const kifu_msf_move *mv)
{
    switch (mv->pit) {
    case KIFU_MSF_LEIM:
        return square_ok(mv->from[0]) && square_ok(mv->to[0]);
    case KIFU_MSF_OKKE:
        return square_ok(mv->from[0]) && square_ok(mv->to[0]) && square_ok(mv->from[1]) &&
               square_ok(mv->to[1]);
    case KIFU_MSF_KOR:
        return square_ok(mv->ka);
    case KIFU_MSF_EV:
        return mv->evol >= 1 && mv->evol < KIFU_MSF_TEM;
    case KIFU_MSF_SED:
        return 1;
    }
    return 0;
}

kifu_msf *kifu_msf_new(const kifu_msf_state *start)
{
    if (start && !state_ok(start))
        return NULL;
    kifu_msf *m = kifu__calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->root = kifu__msf_node_new(m);
    m->main = m->root ? kifu__msf_line_new(m, m->root) : NULL;
    if (!m->main) {
        kifu_msf_free(m);
        return NULL;
    }
    m->main->main = 1;
    m->root->cont = m->main;
    if (start)
        m->root->slax = *start;
    else
        kifu_msf_state_start(&m->root->slax);
    return m;
}

void kifu_msf_free(kifu_msf *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nnodes; i++) {
        kifu_msf_node *n = m->all_nodes[i];
        kifu__free(n->im);
        kifu__free(n->oprens);
        kifu__free(n->mit);
        kifu__free(n);
    }
    for (size_t i = 0; i < m->nlines; i++) {
        kifu_msf_line *l = m->all_lines[i];
        kifu__free(l->fixt.im);
        kifu__free(l->fixt.oprens);
        kifu__free(l->nodes);
        kifu__free(l);
    }
    for (size_t i = 0; i < m->ntags; i++) {
        kifu__free(m->tags[i].key);
        kifu__free(m->tags[i].value);
    }
    kifu__free(m->tags);
    kifu__free(m->all_nodes);
    kifu__free(m->all_lines);
    kifu__free(m);
}

/* ---- tags ---- */

size_t kifu_msf_tag_count(const kifu_msf *m)
{
    return m->ntags;
}

int kifu_msf_tag_at(const kifu_msf *m, size_t i, const char **key, const char **value)
{
    if (i >= m->ntags)
        return -1;
    if (key)
        *key = m->tags[i].key;
    if (value)
        *value = m->tags[i].value;
    return 0;
}

const char *kifu_msf_tag_get(const kifu_msf *m, const char *key)
{
    for (size_t i = 0; i < m->ntags; i++)
        if (strcmp(m->tags[i].key, key) == 0)
            return m->tags[i].value;
    return NULL;
}

int kifu_msf_tag_set(kifu_msf *m, const char *key, const char *value)
{
    for (size_t i = 0; i < m->ntags; i++)
        if (strcmp(m->tags[i].key, key) == 0)
            return kifu__msf_set_string(&m->tags[i].value, value ? value : "");
    if (kifu__reserve(&m->tags, &m->captags, m->ntags + 1, sizeof *m->tags, 8))
        return -1;
    kifu__msf_tag t = {kifu__strdup(key), kifu__strdup(value ? value : "")};
    if (!t.key || !t.value) {
        kifu__free(t.key);
        kifu__free(t.value);
        return -1;
    }
    m->tags[m->ntags++] = t;
    return 0;
}

long kifu_msf_fala(const kifu_msf *m)
{
    return m->fala;
}

int kifu_msf_set_fala(kifu_msf *m, long fala)
{
    if (fala < 0 || fala > 2147483647L)
        return -1;
    m->fala = fala;
    return 0;
}

/* ---- lines and nodes ---- */

kifu_msf_node *kifu_msf_root(const kifu_msf *m)
{
    return m->root;
}

kifu_msf_line *kifu_msf_main_line(const kifu_msf *m)
{
    return m->main;
}

size_t kifu_msf_line_count(const kifu_msf_line *l)
{
    return l->n;
}

kifu_msf_node *kifu_msf_line_node(const kifu_msf_line *l, size_t i)
{
    return i < l->n ? l->nodes[i] : NULL;
}

kifu_msf_node *kifu_msf_line_from(const kifu_msf_line *l)
{
    return l->from;
}

void kifu_msf_line_result(const kifu_msf_line *l, kifu_msf_result *out)
{
    *out = (kifu_msf_result){l->fixt.pit, l->fixt.vastan, l->fixt.ito, l->fixt.im,
                             l->fixt.oprens};
}

int kifu_msf_line_set_result(kifu_msf *m, kifu_msf_line *l, const kifu_msf_result *res)
{
    (void)m;
    if (res->pit > KIFU_MSF_ARTANSOLDES || res->vastan > 1 || res->ito > 4)
        return -1;
    char *im = NULL, *op = NULL;
    if (kifu__msf_set_string(&im, res->im) || kifu__msf_set_string(&op, res->oprens)) {
        kifu__free(im);
        return -1;
    }
    kifu__free(l->fixt.im);
    kifu__free(l->fixt.oprens);
    l->fixt = (kifu__msf_result){res->pit, res->vastan, res->ito, im, op};
    return 0;
}

const kifu_msf_state *kifu_msf_node_state(const kifu_msf_node *n)
{
    return &n->slax;
}

const kifu_msf_move *kifu_msf_node_move(const kifu_msf_node *n)
{
    return &n->ov;
}

const char *kifu_msf_node_im(const kifu_msf_node *n)
{
    return n->im;
}

const char *kifu_msf_node_oprens(const kifu_msf_node *n)
{
    return n->oprens;
}

int kifu_msf_node_set_im(kifu_msf *m, kifu_msf_node *n, const char *im)
{
    (void)m;
    return kifu__msf_set_string(&n->im, im);
}

int kifu_msf_node_set_oprens(kifu_msf *m, kifu_msf_node *n, const char *text)
{
    (void)m;
    return kifu__msf_set_string(&n->oprens, text);
}

size_t kifu_msf_node_variation_count(const kifu_msf_node *n)
{
    return n->nmit;
}

kifu_msf_line *kifu_msf_node_variation(const kifu_msf_node *n, size_t i)
{
    return i < n->nmit ? n->mit[i] : NULL;
}

kifu_msf_line *kifu_msf_node_line(const kifu_msf_node *n)
{
    return n->line;
}

size_t kifu_msf_node_index(const kifu_msf_node *n)
{
    return n->index;
}

kifu_msf_node *kifu_msf_node_parent(const kifu_msf_node *n)
{
    if (!n->line)
        return NULL;
    return n->index ? n->line->nodes[n->index - 1] : n->line->from;
}

int kifu_msf_node_ply(const kifu_msf_node *n)
{
    return n->ply;
}

/* The node after n on its own line (for the root: the main line's first), or NULL. */
static kifu_msf_node *next_on_line(const kifu_msf_node *n)
{
    const kifu_msf_line *l = n->line ? n->line : n->cont;
    size_t i = n->line ? n->index + 1 : 0;
    return l && i < l->n ? l->nodes[i] : NULL;
}

size_t kifu_msf_node_child_count(const kifu_msf_node *n)
{
    size_t c = next_on_line(n) != NULL;
    for (size_t i = 0; i < n->nmit; i++)
        c += n->mit[i]->n > 0;
    return c;
}

kifu_msf_node *kifu_msf_node_child(const kifu_msf_node *n, size_t i)
{
    kifu_msf_node *next = next_on_line(n);
    if (next) {
        if (i == 0)
            return next;
        i--;
    }
    for (size_t k = 0; k < n->nmit; k++)
        if (n->mit[k]->n > 0 && i-- == 0)
            return n->mit[k]->nodes[0];
    return NULL;
}

/* ---- paths ---- */

/* Prepends text to the path being built right to left in buf[*at .. cap). */
static void prepend(char *buf, size_t *at, const char *text)
{
    size_t n = strlen(text);
    if (n > *at)
        n = *at; /* cut: the path was longer than the buffer */
    *at -= n;
    memcpy(buf + *at, text + strlen(text) - n, n);
}

/* Builds the path of line l (then "[index]" when index >= 0) right to left, walking up
 * through the nodes the lines hang on: iterative, however deep the variations. */
static char *path_of(const kifu_msf_line *l, long index, char *buf, size_t cap)
{
    if (!cap)
        return buf;
    char tmp[512], seg[48];
    size_t at = sizeof tmp - 1;
    tmp[at] = 0;
    if (index >= 0) {
        snprintf(seg, sizeof seg, "[%ld]", index);
        prepend(tmp, &at, seg);
    }
    /* a path longer than the buffer keeps its end, where the node is named: the walk
     * stops there, so deep variations cost no more than a buffer's worth */
    while (l && at > 0) {
        if (l->main) {
            prepend(tmp, &at, "seslax");
            break;
        }
        snprintf(seg, sizeof seg, ".mit[%zu].seslax", l->mit_index);
        prepend(tmp, &at, seg);
        const kifu_msf_node *from = l->from;
        if (!from->line) {
            prepend(tmp, &at, "kit");
            break;
        }
        snprintf(seg, sizeof seg, "[%zu]", from->index);
        prepend(tmp, &at, seg);
        l = from->line;
    }
    snprintf(buf, cap, "%s", tmp + at);
    return buf;
}

char *kifu__msf_line_path(const kifu_msf_line *l, char *buf, size_t cap)
{
    return path_of(l, -1, buf, cap);
}

char *kifu_msf_node_path(const kifu_msf_node *n, char *buf, size_t cap)
{
    if (!n->line) {
        snprintf(buf, cap, "kit");
        return buf;
    }
    return path_of(n->line, (long)n->index, buf, cap);
}

static int number(const char **s, size_t *out)
{
    if (**s < '0' || **s > '9')
        return -1;
    size_t v = 0;
    while (**s >= '0' && **s <= '9') {
        if (v > 100000000)
            return -1;
        v = v * 10 + (size_t)(*(*s)++ - '0');
    }
    *out = v;
    return 0;
}

/* "kit", "seslax[3]", "kit.mit[0].seslax[1].mit[2].seslax[0]" */
static kifu_msf_node *find_json(const kifu_msf *m, const char *s)
{
    kifu_msf_node *n = m->root;
    if (strncmp(s, "kit", 3) == 0) {
        s += 3;
        if (!*s)
            return n;
        if (*s++ != '.')
            return NULL;
    }
    for (;;) {
        kifu_msf_line *l;
        size_t i;
        if (strncmp(s, "mit[", 4) == 0) {
            s += 4;
            if (number(&s, &i) || strncmp(s, "].seslax", 8) != 0 || i >= n->nmit)
                return NULL;
            s += 8;
            l = n->mit[i];
        } else if (n == m->root && strncmp(s, "seslax", 6) == 0) {
            s += 6;
            l = m->main;
        } else {
            return NULL;
        }
        if (*s++ != '[' || number(&s, &i) || *s++ != ']' || i >= l->n)
            return NULL;
        n = l->nodes[i];
        if (!*s)
            return n;
        if (*s++ != '.')
            return NULL;
    }
}

/* "/I/J/K": child indices from the root. */
static kifu_msf_node *find_children(const kifu_msf *m, const char *s)
{
    kifu_msf_node *n = m->root;
    while (*s == '/') {
        s++;
        if (!*s)
            break;
        size_t i;
        if (number(&s, &i) || !(n = kifu_msf_node_child(n, i)))
            return NULL;
    }
    return *s ? NULL : n;
}

/* "PLY[,C1,C2...]": as kifu_player_go_path. */
static kifu_msf_node *find_ply(const kifu_msf *m, const char *s)
{
    size_t ply, choice;
    if (number(&s, &ply))
        return NULL;
    kifu_msf_node *n = m->root;
    for (size_t k = 0; k < ply; k++) {
        choice = 0;
        if (kifu_msf_node_child_count(n) > 1 && *s == ',') {
            s++;
            if (number(&s, &choice))
                return NULL;
        }
        if (!(n = kifu_msf_node_child(n, choice)))
            return NULL;
    }
    return *s ? NULL : n;
}

kifu_msf_node *kifu_msf_find(const kifu_msf *m, const char *path, kifu_error *err)
{
    kifu_msf_node *n = NULL;
    if (!path)
        path = "";
    if (path[0] == '/')
        n = find_children(m, path);
    else if (path[0] >= '0' && path[0] <= '9')
        n = find_ply(m, path);
    else
        n = find_json(m, path);
    if (!n)
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "a node's path", path,
                    "no node at '%.100s' (a JSON path like seslax[3].mit[0].seslax[1], "
                    "PLY[,C1,C2...] or /I/J...)",
                    path);
    return n;
}

/* ---- editing ---- */

kifu_msf_node *kifu_msf_append(kifu_msf *m, kifu_msf_line *l, const kifu_msf_move *mv,
                               const kifu_msf_state *after)
{
    if (!move_ok(mv) || !state_ok(after))
        return NULL;
    kifu_msf_node *n = kifu__msf_node_new(m);
    if (!n || kifu__msf_line_push(l, n))
        return NULL; /* the node stays listed in m and is freed with it */
    n->ov = *mv;
    n->slax = *after;
    return n;
}

kifu_msf_line *kifu_msf_add_variation(kifu_msf *m, kifu_msf_node *n)
{
    if (kifu__reserve(&n->mit, &n->capmit, n->nmit + 1, sizeof *n->mit, 4))
        return NULL;
    kifu_msf_line *l = kifu__msf_line_new(m, n);
    if (!l)
        return NULL;
    l->mit_index = n->nmit;
    n->mit[n->nmit++] = l;
    return l;
}

char *kifu_msf_move_text(const kifu_msf_move *mv, char *buf, size_t cap)
{
    switch (mv->pit) {
    case KIFU_MSF_LEIM:
        snprintf(buf, cap, "leim %d,%d-%d,%d", mv->from[0].alsia, mv->from[0].soom,
                 mv->to[0].alsia, mv->to[0].soom);
        break;
    case KIFU_MSF_OKKE:
        snprintf(buf, cap, "okke %d,%d-%d,%d %d,%d-%d,%d", mv->from[0].alsia,
                 mv->from[0].soom, mv->to[0].alsia, mv->to[0].soom, mv->from[1].alsia,
                 mv->from[1].soom, mv->to[1].alsia, mv->to[1].soom);
        break;
    case KIFU_MSF_KOR:
        snprintf(buf, cap, "kor %d,%d", mv->ka.alsia, mv->ka.soom);
        break;
    case KIFU_MSF_EV:
        snprintf(buf, cap, "ev %s",
                 kifu_msf_piece_name(mv->evol) ? kifu_msf_piece_name(mv->evol) : "?");
        break;
    case KIFU_MSF_SED:
        snprintf(buf, cap, "sed");
        break;
    default:
        snprintf(buf, cap, "%s", "");
    }
    return buf;
}
