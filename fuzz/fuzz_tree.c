/* fuzz_tree.c: libFuzzer target for the APIs that walk a record's tree, on deep trees.
 *
 * The input is a program that builds a record: legal moves (picked from the legal list),
 * forks, runs of up to 20,000 nested fork levels from three bytes, comments, specials,
 * reordered and deleted children. Then the clone must walk like the original (same
 * events, same nodes), the walk with positions must reach every move, and JKF and KIF
 * written from both must be the same text and read back to as many nodes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kifu.h"

/* Enough for deep trees, few enough that one run stays well under libFuzzer's timeout
 * under ASan on a busy machine. */
#define MAX_NODES 50000

typedef struct builder {
    kifu_record *r;
    kifu_position *p;
    kifu_node **path; /* path[0] is the root; path[depth] the current node */
    size_t depth, cap;
    int ok;
} builder;

static int push(builder *b, kifu_node *n)
{
    if (b->depth + 1 >= b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 256;
        kifu_node **v = realloc(b->path, cap * sizeof *v);
        if (!v)
            return -1;
        b->path = v, b->cap = cap;
    }
    b->path[++b->depth] = n;
    return 0;
}

/* Adds legal move number `pick` (mod the count) under the current node and goes there. */
static int add_move(builder *b, unsigned pick)
{
    kifu_move moves[600];
    size_t n = kifu_position_legal_moves(b->p, moves, 600);
    if (n == 0 || kifu_record_node_count(b->r) >= MAX_NODES) /* created, deleted or not */
        return -1;
    kifu_move m = moves[pick % n];
    kifu_node *c = kifu_node_add_move(b->r, b->path[b->depth], &m);
    if (!c || kifu_position_play(b->p, &m, NULL) || push(b, c))
        return -1;
    return 0;
}

static void up(builder *b, size_t levels)
{
    while (levels-- && b->depth > 0) {
        if (kifu_node_kind_of(b->path[b->depth]) == KIFU_NODE_MOVE)
            kifu_position_undo(b->p);
        b->depth--;
    }
}

static void build(builder *b, const uint8_t *d, size_t size)
{
    for (size_t i = 0; i < size; i++) {
        unsigned op = d[i] & 7, arg = d[i] >> 3;
        kifu_node *cur = b->path[b->depth];
        switch (op) {
        case 0:
            add_move(b, arg);
            break;
        case 1: /* a fork: an alternative to the current move */
            if (b->depth > 0) {
                up(b, 1);
                add_move(b, arg);
            }
            break;
        case 2:
            up(b, arg + 1);
            break;
        case 3: { /* nested forks: at each level a dead end, then on through the fork */
            if (i + 2 >= size)
                return;
            unsigned k = ((unsigned)d[i + 1] << 8 | d[i + 2]) % 20000 + 1;
            i += 2;
            for (unsigned l = 0; l < k; l++) {
                if (add_move(b, arg))
                    break;
                up(b, 1);
                if (add_move(b, arg + 1))
                    break;
            }
            break;
        }
        case 4: { /* a comment of the next bytes (up to 8; a NUL ends it) */
            char text[9];
            size_t n = size - i - 1 < 8 ? size - i - 1 : 8;
            /* Comments are UTF-8 (kifu.h): bytes past ASCII become '?'. */
            for (size_t k = 0; k < n; k++)
                text[k] = d[i + 1 + k] < 0x80 ? (char)d[i + 1 + k] : '?';
            text[n] = 0;
            i += n;
            kifu_node_add_comment(b->r, cur, text);
            break;
        }
        case 5: /* an ending after the current node */
            if (kifu_node_kind_of(cur) != KIFU_NODE_SPECIAL)
                kifu_node_add_special(b->r, cur, arg & 1 ? "TORYO" : "CHUDAN");
            break;
        case 6: {
            size_t n = kifu_node_child_count(cur);
            if (n > 1)
                kifu_node_reorder(cur, arg % n, 0);
            break;
        }
        default: /* delete the current node's last child */
            if (kifu_node_child_count(cur) > 0)
                kifu_node_delete(b->r,
                                 kifu_node_child(cur, kifu_node_child_count(cur) - 1));
        }
    }
}

/* Nodes in the tree (kifu_record_node_count counts deleted ones too). */
static size_t live_nodes(const kifu_record *r)
{
    kifu_walker *w = kifu_walk_new(r, 0, NULL);
    size_t n = 0;
    int ev;
    while (w && (ev = kifu_walk_next(w)) > 0)
        n += ev == KIFU_WALK_ENTER;
    kifu_walk_free(w);
    return n;
}

/* Walks a and b side by side: the same events over nodes that hold the same. */
static void same_walk(const kifu_record *a, const kifu_record *b)
{
    kifu_walker *wa = kifu_walk_new(a, 0, NULL), *wb = kifu_walk_new(b, 0, NULL);
    if (!wa || !wb)
        __builtin_trap();
    int ea, eb;
    do {
        ea = kifu_walk_next(wa);
        eb = kifu_walk_next(wb);
        if (ea != eb)
            __builtin_trap();
        if (ea == KIFU_WALK_ENTER) {
            const kifu_node *na = kifu_walk_node(wa), *nb = kifu_walk_node(wb);
            if (kifu_node_kind_of(na) != kifu_node_kind_of(nb) ||
                kifu_node_child_count(na) != kifu_node_child_count(nb) ||
                kifu_node_comment_count(na) != kifu_node_comment_count(nb))
                __builtin_trap();
            kifu_move ma, mb;
            if (kifu_node_get_move(na, &ma) && kifu_node_get_move(nb, &mb) &&
                memcmp(&ma, &mb, sizeof ma) != 0)
                __builtin_trap();
        }
    } while (ea > 0);
    kifu_walk_free(wa);
    kifu_walk_free(wb);
}

static void same_text(const kifu_record *a, const kifu_record *b, int format)
{
    kifu_write_options wo = {format, KIFU_ENC_UTF8, 0, NULL, NULL};
    kifu_error err = {0};
    size_t la = 0, lb = 0;
    char *ta = kifu_write(a, &wo, &la, &err);
    char *tb = kifu_write(b, &wo, &lb, &err);
    if (!ta != !tb || (ta && (la != lb || memcmp(ta, tb, la) != 0)))
        __builtin_trap();
    if (ta) {
        /* Read back: every node of a format that holds forks (the comments of a KIF
         * may make a dead end of a fork longer, never shorter). */
        kifu_read_options ro = {format, KIFU_ENC_UTF8, 0, NULL, NULL, NULL};
        kifu_error e2 = {0};
        kifu_record *back = kifu_read(ta, la, &ro, &e2);
        if (!back && e2.code != KIFU_ERR_NOMEM)
            __builtin_trap();
        if (back && format == KIFU_FMT_JKF && live_nodes(back) != live_nodes(a))
            __builtin_trap();
        kifu_record_free(back);
    }
    kifu_free(ta);
    kifu_free(tb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    builder b;
    memset(&b, 0, sizeof b);
    b.r = kifu_record_new();
    b.p = kifu_position_new();
    if (!b.r || !b.p || push(&b, NULL)) {
        kifu_record_free(b.r);
        kifu_position_free(b.p);
        free(b.path);
        return 0;
    }
    b.path[0] = kifu_record_root(b.r);
    b.depth = 0;
    build(&b, data, size);
    kifu_error err = {0};
    if (kifu_normalize(b.r, 0, &err) == 0) {
        kifu_record *c = kifu_record_clone(b.r);
        if (c) {
            size_t live = live_nodes(b.r);
            if (live_nodes(c) != live)
                __builtin_trap();
            same_walk(b.r, c);
            /* Positions at every node: every node is reached. */
            kifu_walker *w = kifu_walk_new(c, KIFU_WALK_POSITIONS, NULL);
            size_t entered = 0;
            int ev;
            while (w && (ev = kifu_walk_next(w)) > 0)
                entered += ev == KIFU_WALK_ENTER && kifu_walk_hash(w) != 0;
            if (w && entered != live)
                __builtin_trap();
            kifu_walk_free(w);
            same_text(b.r, c, KIFU_FMT_JKF);
            same_text(b.r, c, KIFU_FMT_KIFU);
        }
        kifu_record_free(c);
    }
    kifu_record_free(b.r);
    kifu_position_free(b.p);
    free(b.path);
    return 0;
}
