/* player.c: a cursor over a record tree that keeps the position at the cursor.
 *
 * The player keeps the "current line": the nodes from the root through the cursor and on
 * to the end, following the fork chosen at each ply and child 0 beyond the last choice
 * (JKFPlayer's behaviour: stepping back out of a fork and forward again stays in it).
 * Moving is incremental (play / undo on one kifu_position), so going to ply N costs the
 * distance, never a replay from the start. */
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"
#include "notation/notation.h"
#include "notation/relative.h"
#include "record/record.h"
#include "rules/engine.h"

struct kifu_player {
    kifu_record *rec;
    kifu_position *pos;
    kifu_node **line; /* line[i] has ply i; line[0] is the root */
    size_t nline, capline;
    size_t cur; /* index of the cursor in line */
};

static int line_push(kifu_player *pl, kifu_node *n)
{
    if (kifu__reserve(&pl->line, &pl->capline, pl->nline + 1, sizeof *pl->line, 64))
        return -1;
    pl->line[pl->nline++] = n;
    return 0;
}

/* Cut the line after index i and follow child 0 from there to the end. */
static int line_extend(kifu_player *pl, size_t i)
{
    pl->nline = i + 1;
    for (kifu_node *n = pl->line[i];
         kifu__first_link(n) && n->kind != KIFU_NODE_SPECIAL;) {
        n = kifu__first(n);
        if (line_push(pl, n))
            return -1;
    }
    return 0;
}

kifu_player *kifu_player_new(kifu_record *r, kifu_error *err)
{
    if (!r) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL, "no record given");
        return NULL;
    }
    kifu_player *pl = kifu__calloc(1, sizeof *pl);
    if (!pl || !(pl->pos = kifu_position_new())) {
        kifu__free(pl);
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    pl->rec = r;
    kifu_board b;
    kifu_record_initial(r, &b);
    if (kifu__position_set_board_loose(pl->pos, &b, err)) {
        kifu_player_free(pl);
        return NULL;
    }
    if (line_push(pl, r->root) || line_extend(pl, 0)) {
        kifu_player_free(pl);
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    return pl;
}

void kifu_player_free(kifu_player *pl)
{
    if (!pl)
        return;
    kifu_position_free(pl->pos);
    kifu__free(pl->line);
    kifu__free(pl);
}

kifu_record *kifu_player_record(const kifu_player *pl)
{
    return pl->rec;
}
kifu_node *kifu_player_node(const kifu_player *pl)
{
    return pl->line[pl->cur];
}
const kifu_position *kifu_player_position(const kifu_player *pl)
{
    return pl->pos;
}
int kifu_player_ply(const kifu_player *pl)
{
    return (int)pl->cur;
}

/* Apply node n (a move or an ending) to the position. 0, or -1 if its move is illegal. */
static int apply(kifu_player *pl, kifu_node *n)
{
    if (n->kind != KIFU_NODE_MOVE)
        return 0;
    return kifu__position_play_node(pl->pos, n, NULL) ? -1 : 0;
}

static void unapply(kifu_player *pl, kifu_node *n)
{
    if (n->kind == KIFU_NODE_MOVE)
        kifu_position_undo(pl->pos);
}

int kifu_player_forward(kifu_player *pl)
{
    if (pl->cur + 1 >= pl->nline)
        return 0;
    if (apply(pl, pl->line[pl->cur + 1]))
        return 0; /* an illegal move in the record ends the line for the player */
    pl->cur++;
    return 1;
}

int kifu_player_backward(kifu_player *pl)
{
    if (pl->cur == 0)
        return 0;
    unapply(pl, pl->line[pl->cur]);
    pl->cur--;
    return 1;
}

int kifu_player_go(kifu_player *pl, int ply)
{
    size_t target = ply < 0 ? 0 : (size_t)ply;
    if (target >= pl->nline)
        target = pl->nline - 1;
    while (pl->cur > target)
        kifu_player_backward(pl);
    while (pl->cur < target && kifu_player_forward(pl))
        ;
    return (int)pl->cur;
}

size_t kifu_player_fork_count(const kifu_player *pl)
{
    kifu_node *n = pl->line[pl->cur];
    return kifu__parent_link(n) ? kifu_node_child_count(kifu__parent(n)) : 1;
}

int kifu_player_switch_fork(kifu_player *pl, size_t i)
{
    kifu_node *n = pl->line[pl->cur];
    kifu_node *sib = kifu__parent_link(n) ? kifu__child(kifu__parent(n), i) : NULL;
    if (!sib)
        return -1;
    if (sib == n)
        return 0;
    unapply(pl, n);
    if (apply(pl, sib)) {
        apply(pl, n); /* the current node was legal: put it back */
        return -1;
    }
    pl->line[pl->cur] = sib;
    if (line_extend(pl, pl->cur)) {
        pl->nline = pl->cur + 1;
        return -1;
    }
    return 0;
}

static int parse_num(const char **s, long *out)
{
    const char *p = *s;
    while (*p == ' ')
        p++;
    if (*p < '0' || *p > '9')
        return -1;
    long v = 0;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (*p++ - '0');
        if (v > 100000000)
            return -1;
    }
    while (*p == ' ')
        p++;
    *s = p;
    *out = v;
    return 0;
}

/* Path syntax (see kifu.h and docs/library.md):
 *   "PLY[,C1,C2,...]"  go to ply PLY; at the k-th node met on the way from the root that
 * has forks, take child Ck (0 = the main continuation); child 0 at the branching nodes
 * after the last choice. "12" is ply 12 of the main line; "12,0,1" takes the main line at
 * the first branching point and the first fork at the second.
 *   "/I/J/K..."        child indices from the root, one per ply ("/0/0/1": the first fork
 * of the third move). "/" alone is the root. */
int kifu_player_go_path(kifu_player *pl, const char *path, kifu_error *err)
{
    if (!path)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "a path", NULL, "no path given");
    kifu_node *root = pl->rec->root;
    kifu_node **nodes = NULL;
    size_t nn = 0, cap = 0;
    const char *s = path;
    int rc = 0;
    long ply = 0;
    int child_form = *s == '/';
    if (!child_form && parse_num(&s, &ply))
        return kifu__error(err, KIFU_ERR_ARG, 0, 1, 0, "a ply number", path,
                           "a path starts with a ply number or '/'");
    kifu_node *n = root;
    for (long depth = 0;; depth++) {
        long choice = 0;
        if (child_form) {
            if (!*s || (s == path && strcmp(path, "/") == 0))
                break;
            if (*s != '/' || (s++, parse_num(&s, &choice))) {
                rc = kifu__error(err, KIFU_ERR_ARG, 0, (int)(s - path) + 1,
                                 (size_t)(s - path), "/ and a child index", path,
                                 "bad path");
                break;
            }
        } else {
            if (depth >= ply)
                break;
            if (kifu__forked(n) && *s == ',') {
                s++;
                if (parse_num(&s, &choice)) {
                    rc =
                        kifu__error(err, KIFU_ERR_ARG, 0, (int)(s - path) + 1,
                                    (size_t)(s - path), "a fork index", path, "bad path");
                    break;
                }
            }
        }
        kifu_node *next =
            n->kind == KIFU_NODE_SPECIAL ? NULL : kifu__child(n, (size_t)choice);
        if (!next) {
            rc = kifu__error(
                err, KIFU_ERR_ARG, 0, 0, 0, NULL, path,
                "the path leaves the record at ply %ld (%zu moves there)", depth + 1,
                n->kind == KIFU_NODE_SPECIAL ? (size_t)0 : kifu_node_child_count(n));
            break;
        }
        n = next;
        if (kifu__reserve(&nodes, &cap, nn + 1, sizeof *nodes, 64)) {
            rc = kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
            break;
        }
        nodes[nn++] = n;
    }
    if (!rc && !child_form && *s)
        rc =
            kifu__error(err, KIFU_ERR_ARG, 0, (int)(s - path) + 1, (size_t)(s - path),
                        NULL, path, "more fork choices than branching points on the way");
    if (rc) {
        kifu__free(nodes);
        return -1;
    }
    /* Go back to where the new path leaves the current line, then play forward. */
    size_t common = 0;
    while (common < nn && common + 1 <= pl->cur && pl->line[common + 1] == nodes[common])
        common++;
    kifu_player_go(pl, (int)common);
    for (size_t i = common; i < nn; i++) {
        if (apply(pl, nodes[i])) {
            kifu__free(nodes);
            line_extend(pl, pl->cur);
            return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                               "the move at ply %zu is illegal", i + 1);
        }
        pl->cur++;
        pl->nline = pl->cur;
        if (line_push(pl, nodes[i])) {
            kifu__free(nodes);
            pl->cur--;
            unapply(pl, nodes[i]);
            return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        }
    }
    kifu__free(nodes);
    if (line_extend(pl, pl->cur))
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return 0;
}

static int same_move(const kifu_move *a, const kifu_move *b)
{
    return a->from_x == b->from_x && a->from_y == b->from_y && a->to_x == b->to_x &&
           a->to_y == b->to_y && kifu__move_promotes(a) == kifu__move_promotes(b) &&
           (a->from_x || a->piece == b->piece);
}

int kifu_player_add_move(kifu_player *pl, const kifu_move *m, kifu_error *err)
{
    kifu_node *cur = pl->line[pl->cur];
    if (cur->kind == KIFU_NODE_SPECIAL)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                           "the game has ended here (%s)",
                           kifu_special_text(kifu__special(cur)));
    kifu_move mv = *m;
    mv.color = (uint8_t)kifu_position_side(pl->pos);
    if (mv.from_x == 0)
        mv.flags |= KIFU_MOVE_DROP;
    const char *reason = NULL;
    if (!kifu_position_is_legal(pl->pos, &mv, &reason))
        return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL, "illegal move: %s",
                           reason ? reason : "the rules forbid it");
    if (kifu_position_play(pl->pos, &mv, err))
        return -1;
    /* The KI2 relative word of the completed move, from the position before it, as the
     * normalizer would give it; then the move again. */
    kifu_position_undo(pl->pos);
    kmove k = kifu__move_pack(&mv);
    memset(mv.relative, 0, sizeof mv.relative);
    if (k)
        kifu__relative(pl->pos, k, mv.relative);
    if (kifu_position_play(pl->pos, &mv, err))
        return -1;
    mv.flags &= (uint8_t) ~(KIFU_MOVE_RAW | KIFU_MOVE_NO_COLOR | KIFU_MOVE_PIECE_AFTER);
    kifu_node *child = NULL;
    for (kifu_node *c = kifu__first(cur); c; c = kifu__sibling(c)) {
        kifu_move cm;
        if (kifu_node_get_move(c, &cm) && same_move(&cm, &mv)) {
            child = c;
            break;
        }
    }
    if (!child) {
        kifu_move prev;
        int has_prev = kifu_node_get_move(cur, &prev);
        mv.same =
            (int8_t)(has_prev && prev.to_x == mv.to_x && prev.to_y == mv.to_y ? 1 : -1);
        child = kifu_node_add_move(pl->rec, cur, &mv);
        if (!child) {
            kifu_position_undo(pl->pos);
            return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        }
    }
    pl->cur++;
    pl->nline = pl->cur;
    if (line_push(pl, child) || line_extend(pl, pl->cur)) {
        pl->cur--;
        kifu_position_undo(pl->pos);
        line_extend(pl, pl->cur);
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    }
    return 0;
}

int kifu_player_delete_branch(kifu_player *pl)
{
    if (pl->cur == 0)
        return -1;
    kifu_node *n = pl->line[pl->cur];
    kifu_player_backward(pl);
    if (kifu_node_delete(pl->rec, n))
        return -1;
    return line_extend(pl, pl->cur);
}

kifu_node *kifu_player_line_node(const kifu_player *pl, int ply)
{
    return ply >= 0 && (size_t)ply < pl->nline ? pl->line[ply] : NULL;
}

int kifu_player_line_end(const kifu_player *pl)
{
    return (int)pl->nline - 1;
}

char *kifu_player_path(const kifu_player *pl, char *buf, size_t cap)
{
    if (!cap)
        return buf;
    size_t len = (size_t)snprintf(buf, cap, "%zu", pl->cur);
    /* choices at every branching node on the way; trailing zeros are implied */
    size_t keep = len;
    for (size_t i = 0; i < pl->cur && len + 12 < cap; i++) {
        kifu_node *n = pl->line[i];
        if (!kifu__forked(n))
            continue;
        size_t idx = kifu_node_index(pl->line[i + 1]);
        len += (size_t)snprintf(buf + len, cap - len, ",%zu", idx);
        if (idx)
            keep = len;
    }
    buf[keep] = 0;
    return buf;
}

int kifu_player_add_special(kifu_player *pl, const char *word, kifu_error *err)
{
    kifu_node *cur = pl->line[pl->cur];
    if (cur->kind == KIFU_NODE_SPECIAL)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                           "the game has ended here (%s)",
                           kifu_special_text(kifu__special(cur)));
    kifu_node *child = NULL;
    for (kifu_node *c = kifu__first(cur); c && !child; c = kifu__sibling(c))
        if (c->kind == KIFU_NODE_SPECIAL && strcmp(kifu__special(c), word) == 0)
            child = c;
    if (!child && !(child = kifu_node_add_special(pl->rec, cur, word)))
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    pl->nline = pl->cur + 1;
    if (line_push(pl, child)) {
        line_extend(pl, pl->cur);
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    }
    pl->cur++;
    return 0;
}
