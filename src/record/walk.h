/* walk.h: the one walk of a record's move tree, cmark-style: an event when a node is
 * entered and when it is left, iteratively (an explicit stack: forks nest to any depth
 * without touching the C stack). Two orders:
 * - KIFU__WALK_TREE: every node's children in order, each subtree whole: the main line
 *   first, then the forks from the deepest back, each followed by its own forks (the order
 *   Kifu for Windows writes KIF and KI2 in; the normalizer and clone use it).
 * - KIFU__WALK_LINES: JKF's nesting: a child 0 whose parent has forks takes them (children
 *   1..) as its first children, then its own continuation; a fork's first node (child 1..)
 *   takes only its continuation. So a line is entered node by node, and the forks of an
 *   entry come between it and the next entry of its line.
 * The walker only follows links: what is done at each node (playing moves, writing) is
 * the caller's. kifu_walker (kifu.h) is the public form, with positions and keys. */
#ifndef KIFU_RECORD_WALK_H
#define KIFU_RECORD_WALK_H

#include <stdint.h>

#include "record/record.h"

enum { KIFU__WALK_TREE = 0, KIFU__WALK_LINES = 1 };
enum {
    KIFU__WALK_DONE = 0,
    KIFU__WALK_ENTER = 1,
    KIFU__WALK_EXIT = 2,
    KIFU__WALK_NOMEM = -1
};

typedef struct kifu__walk_frame {
    kifu_node *node;
    kifu_node *cur; /* the (virtual) child last entered, NULL before the first */
    uint32_t state; /* KIFU__WALK_FORKS .. KIFU__WALK_NONE: which children come next */
} kifu__walk_frame;

/* Where a frame is among its node's (virtual) children: a child list is walked by its
 * links, so the frame keeps the last child entered rather than a count. */
enum {
    KIFU__WALK_START = 0, /* none entered yet */
    KIFU__WALK_FORKS = 1, /* LINES: in the parent's forks (the siblings after the node) */
    KIFU__WALK_OWN = 2,   /* in the node's own children */
    KIFU__WALK_NONE = 3,  /* no more (all entered, or skipped) */
};

typedef struct kifu__walk {
    kifu__walk_frame *st;
    uint32_t top, cap;
    int order;
    int started;
    kifu_node *node; /* the node of the last event */
    /* A usual record's line fits here, so walking it allocates nothing. */
    kifu__walk_frame small[256];
} kifu__walk;

void kifu__walk_init(kifu__walk *w, kifu_node *root, int order);
void kifu__walk_free(kifu__walk *w);
/* Push a frame when the stack is full: its slow path (the stack moves to the heap). */
int kifu__walk_grow(kifu__walk *w);

/* In LINES order: does n carry its parent's forks (child 0 of a node with several)? */
static inline int kifu__walk_carries_forks(const kifu_node *n)
{
    return kifu__next_link(n) && kifu__is_first(n);
}

/* The next (virtual) child of frame f in the walk's order, or NULL past the last. In
 * LINES order a node that carries forks takes its siblings (its parent's children 1..)
 * before its own child 0, and no node takes its own forks. */
static inline kifu_node *kifu__walk_child(const kifu__walk *w, kifu__walk_frame *f)
{
    kifu_node *c;
    switch (f->state) {
    case KIFU__WALK_START:
        if (w->order == KIFU__WALK_LINES && kifu__walk_carries_forks(f->node)) {
            f->state = KIFU__WALK_FORKS;
            return f->cur = kifu__sibling(f->node);
        }
        f->state = KIFU__WALK_OWN;
        return f->cur = kifu__first(f->node);
    case KIFU__WALK_FORKS:
        if ((c = kifu__sibling(f->cur)) != NULL)
            return f->cur = c;
        f->state = KIFU__WALK_OWN;
        return f->cur = kifu__first(f->node);
    case KIFU__WALK_OWN:
        if (w->order == KIFU__WALK_TREE && (c = kifu__sibling(f->cur)) != NULL)
            return f->cur = c;
        f->state = KIFU__WALK_NONE;
        return NULL;
    default:
        return NULL;
    }
}

/* The next event; w->node is its node. KIFU__WALK_DONE after the root's EXIT. Inline: the
 * normalizer and the writers take two events per move, on the conversion's hot path. */
static inline int kifu__walk_next(kifu__walk *w)
{
    if (__builtin_expect(!w->started, 0)) {
        w->started = 1;
        if (w->top == w->cap && kifu__walk_grow(w))
            return KIFU__WALK_NOMEM;
        w->st[w->top++] = (kifu__walk_frame){w->node, NULL, KIFU__WALK_START};
        return KIFU__WALK_ENTER;
    }
    if (!w->top)
        return KIFU__WALK_DONE;
    kifu__walk_frame *f = &w->st[w->top - 1];
    kifu_node *c = f->state == KIFU__WALK_NONE ? NULL : kifu__walk_child(w, f);
    if (c) {
        if (w->top == w->cap && kifu__walk_grow(w))
            return KIFU__WALK_NOMEM;
        w->st[w->top++] = (kifu__walk_frame){c, NULL, KIFU__WALK_START};
        w->node = c;
        return KIFU__WALK_ENTER;
    }
    w->node = f->node;
    w->top--;
    return KIFU__WALK_EXIT;
}
/* After an ENTER: leave the node's (virtual) children out; its EXIT comes next. */
void kifu__walk_skip(kifu__walk *w);
#endif
