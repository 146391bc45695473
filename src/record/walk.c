/* walk.c: the record walk of walk.h, and kifu_walker, its public form, which also keeps
 * the position (and its Zobrist key) at every node. The record module (src/record/) owns
 * the tree, its walk, the normalizer and the player; it may call notation, rules, core. */
#include "record/walk.h"

#include <string.h>

#include "kifu_private.h"
#include "rules/engine.h"
#include "rules/position.h"

void kifu__walk_init(kifu__walk *w, kifu_node *root, int order)
{
    w->st = w->small;
    w->cap = sizeof w->small / sizeof w->small[0];
    w->top = 0;
    w->order = order;
    w->started = 0;
    w->node = root;
}

void kifu__walk_free(kifu__walk *w)
{
    if (w->st != w->small)
        kifu__free(w->st);
    w->st = w->small;
    w->top = 0;
}

int kifu__walk_grow(kifu__walk *w)
{
    uint32_t cap = w->cap * 2;
    kifu__walk_frame *s =
        kifu__realloc(w->st == w->small ? NULL : w->st, cap * sizeof *s);
    if (!s)
        return -1;
    if (w->st == w->small)
        memcpy(s, w->small, sizeof w->small);
    w->st = s;
    w->cap = cap;
    return 0;
}

void kifu__walk_skip(kifu__walk *w)
{
    if (w->top)
        w->st[w->top - 1].state = KIFU__WALK_NONE;
}

/* ---- kifu_walker -------------------------------------------------------------------- */

struct kifu_walker {
    kifu__walk w;
    int with_position;
    kpos pos;
    kmove *played; /* the move played on entering each node of the stack (0: none) */
    size_t nplayed, capplayed;
};

kifu_walker *kifu_walk_new(const kifu_record *r, unsigned flags, kifu_error *err)
{
    kifu__rules_init();
    kifu_walker *w = kifu__calloc(1, sizeof *w);
    if (!w) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    /* The walker reads the tree only: the cast is for the shared internal walk. */
    kifu__walk_init(&w->w, (kifu_node *)r->root, KIFU__WALK_TREE);
    w->with_position = (flags & KIFU_WALK_POSITIONS) != 0;
    if (w->with_position) {
        kifu_board b;
        kifu_record_initial(r, &b);
        kifu__pos_from_board(&w->pos, &b);
    }
    return w;
}

void kifu_walk_free(kifu_walker *w)
{
    if (!w)
        return;
    kifu__walk_free(&w->w);
    kifu__free(w->played);
    kifu__free(w);
}

int kifu_walk_next(kifu_walker *w)
{
    int ev = kifu__walk_next(&w->w);
    if (ev == KIFU__WALK_NOMEM)
        return -1;
    if (!w->with_position || ev == KIFU__WALK_DONE)
        return ev;
    const kifu_node *n = w->w.node;
    if (ev == KIFU__WALK_ENTER) {
        kmove m = kifu__node_kmove(n);
        if (kifu__reserve(&w->played, &w->capplayed, w->nplayed + 1, sizeof *w->played,
                          256))
            return -1;
        if (n->kind == KIFU_NODE_MOVE && m == MOVE_NONE)
            kifu__walk_skip(
                &w->w); /* a move not checked: nothing after it has a position */
        w->played[w->nplayed++] = m;
        if (m)
            kifu__pos_do(&w->pos, m);
    } else {
        kmove m = w->played[--w->nplayed];
        if (m)
            kifu__pos_undo(&w->pos, m);
    }
    return ev;
}

const kifu_node *kifu_walk_node(const kifu_walker *w)
{
    return w->w.node;
}

uint64_t kifu_walk_hash(const kifu_walker *w)
{
    return w->with_position ? w->pos.key : 0;
}

int kifu_walk_board(const kifu_walker *w, kifu_board *out)
{
    if (!w->with_position)
        return -1;
    kifu__pos_to_board(&w->pos, out);
    return 0;
}

void kifu_walk_skip(kifu_walker *w)
{
    kifu__walk_skip(&w->w);
}
