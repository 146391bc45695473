/* trace.c: the path of one piece through a line of a record (the position-list
 * document's sb_trace): where it stood, every square it went to, its promotion, what it
 * took, and how its journey ended. The HTML viewer draws it as footprints. */
#include <string.h>

#include "kifu_private.h"

struct kifu_trace {
    kifu_trace_step *steps;
    size_t n, cap;
    int start_x, start_y, start_ply;
    int piece; /* kind | color << 4 at the start */
    int end;   /* kifu_trace_end */
    int end_ply;
};

static int push(kifu_trace *t, const kifu_trace_step *s)
{
    if (kifu__reserve(&t->steps, &t->cap, t->n + 1, sizeof *t->steps, 16))
        return -1;
    t->steps[t->n++] = *s;
    return 0;
}

void kifu_trace_free(kifu_trace *t)
{
    if (!t)
        return;
    kifu__free(t->steps);
    kifu__free(t);
}

/* Follow the piece on (x, y) from the player's cursor to the end of its line. */
static kifu_trace *follow(kifu_player *pl, int x, int y, kifu_error *err)
{
    kifu_board b;
    kifu_position_board(kifu_player_position(pl), &b);
    if (x < 1 || x > 9 || y < 1 || y > 9 || !b.sq[KIFU_SQ(x, y)]) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "a square with a piece",
                    "an empty square", "no piece stands on %d%d at ply %d", x, y,
                    kifu_player_ply(pl));
        return NULL;
    }
    kifu_trace *t = kifu__calloc(1, sizeof *t);
    if (!t) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    t->start_x = x, t->start_y = y, t->start_ply = kifu_player_ply(pl);
    t->piece = b.sq[KIFU_SQ(x, y)];
    t->end = KIFU_TRACE_LINE_END;
    while (kifu_player_forward(pl)) {
        const kifu_node *n = kifu_player_node(pl);
        kifu_move m_v;
        const kifu_move *m = kifu_node_get_move(n, &m_v) ? &m_v : NULL;
        if (!m) { /* an ending: the line stops here */
            t->end_ply = kifu_node_ply(n);
            break;
        }
        if (m->to_x == x && m->to_y == y) { /* taken */
            t->end = KIFU_TRACE_CAPTURED;
            t->end_ply = kifu_node_ply(n);
            break;
        }
        if (m->from_x != x || m->from_y != y)
            continue;
        kifu_trace_step s = {kifu_node_ply(n),
                             (uint8_t)x,
                             (uint8_t)y,
                             m->to_x,
                             m->to_y,
                             m->piece,
                             (uint8_t)(m->promote == 1),
                             m->capture};
        if (push(t, &s)) {
            kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
            kifu_trace_free(t);
            return NULL;
        }
        x = m->to_x, y = m->to_y;
    }
    if (!t->end_ply)
        t->end_ply = kifu_player_ply(pl);
    return t;
}

/* A player on r at the line of `path` (NULL: the main line). */
static kifu_player *line(const kifu_record *r, const char *path, kifu_error *err)
{
    /* The player edits only through calls we do not make: the record stays as it is. */
    kifu_player *pl = kifu_player_new((kifu_record *)r, err);
    if (pl && path && *path && kifu_player_go_path(pl, path, err)) {
        kifu_player_free(pl);
        return NULL;
    }
    return pl;
}

kifu_trace *kifu_trace_square(const kifu_record *r, const char *path, int ply, int x,
                              int y, kifu_error *err)
{
    kifu_player *pl = line(r, path, err);
    if (!pl)
        return NULL;
    if (kifu_player_go(pl, ply) != ply) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "a ply on the line", "a ply past its end",
                    "the line has no ply %d", ply);
        kifu_player_free(pl);
        return NULL;
    }
    kifu_trace *t = follow(pl, x, y, err);
    kifu_player_free(pl);
    return t;
}

kifu_trace *kifu_trace_moved(const kifu_record *r, const char *path, int ply,
                             kifu_error *err)
{
    kifu_player *pl = line(r, path, err);
    if (!pl)
        return NULL;
    kifu_move m_v;
    const kifu_move *m = NULL;
    if (ply >= 1 && kifu_player_go(pl, ply) == ply &&
        kifu_node_get_move(kifu_player_node(pl), &m_v))
        m = &m_v;
    if (!m) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "the ply of a move", "no move there",
                    "no move was played at ply %d of the line", ply);
        kifu_player_free(pl);
        return NULL;
    }
    kifu_trace *t;
    if (m->from_x) { /* from the square it left, this move first */
        kifu_player_backward(pl);
        t = follow(pl, m->from_x, m->from_y, err);
    } else { /* a drop: the piece starts on the square it was dropped on */
        t = follow(pl, m->to_x, m->to_y, err);
        if (t) {
            t->start_ply = ply;
            kifu_trace_step s = {ply, 0, 0, m->to_x, m->to_y, m->piece, 0, 0};
            if (push(t, &s)) {
                kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
                kifu_trace_free(t);
                t = NULL;
            } else { /* the drop is the first step */
                memmove(t->steps + 1, t->steps, (t->n - 1) * sizeof *t->steps);
                t->steps[0] = s;
            }
        }
    }
    kifu_player_free(pl);
    return t;
}

size_t kifu_trace_count(const kifu_trace *t)
{
    return t->n;
}

const kifu_trace_step *kifu_trace_step_at(const kifu_trace *t, size_t i)
{
    return i < t->n ? &t->steps[i] : NULL;
}

void kifu_trace_start(const kifu_trace *t, int *x, int *y, int *ply, int *piece)
{
    *x = t->start_x, *y = t->start_y, *ply = t->start_ply, *piece = t->piece;
}

int kifu_trace_end(const kifu_trace *t, int *ply)
{
    if (ply)
        *ply = t->end_ply;
    return t->end;
}
