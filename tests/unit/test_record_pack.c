/* test_record_pack.c: the 10-byte node layout (src/record/record.h) through the public
 * API: packed moves given back exactly, links across pages and after edits against a
 * model kept here, source offsets (a byte of distance or a whole offset) giving an
 * illegal move's line and column, deep trees, and texts on every node of a page. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/fmt.h"
#include "harness.h"
#include "kifu.h"
#include "record/record.h"
#include "rules/engine.h"
#include "testutil.h"

/* Nodes per 4 KiB page. The ids and plies below (406, 407, 813, 1220, 4069 ...) aim at
 * the ends of pages of 407 nodes: a new layout needs them moved. */
#define PAGE ((int)KIFU__PAGE_NODES)
_Static_assert(KIFU__PAGE_NODES == 407, "the page ends aimed at below");
#define FROM_NULL KIFU__MOVE_FROM_NULL

/* ---- moves ---- */

static const char *const rels[] = {"",   "L",  "C",  "R",  "U",  "M",  "D",
                                   "H",  "LU", "CU", "RU", "LM", "CM", "RM",
                                   "LD", "CD", "RD", "LH", "CH", "RH"};
#define NRELS (sizeof rels / sizeof rels[0])
static const uint8_t flagbits[] = {KIFU_MOVE_PIECE_AFTER, KIFU_MOVE_DROP, KIFU_MOVE_RAW,
                                   KIFU_MOVE_NO_COLOR, FROM_NULL};

static int flags_of(unsigned k)
{
    int f = 0;
    for (unsigned b = 0; b < 5; b++)
        if (k & 1u << b)
            f |= flagbits[b];
    return f;
}

/* Does n give back exactly m? */
static int same_move(const kifu_node *n, const kifu_move *m)
{
    kifu_move got;
    memset(&got, 0xAB, sizeof got);
    return kifu_node_get_move(n, &got) == 1 && memcmp(&got, m, sizeof got) == 0;
}

/* The engine's move of node n is what kifu__move_pack makes of its public move (none for
 * a raw one): kifu__node_kmove reads the packed bits directly. */
static int same_kmove(const kifu_node *n, const kifu_move *m)
{
    kmove want = (m->flags & KIFU_MOVE_RAW) ? MOVE_NONE : kifu__move_pack(m);
    return kifu__node_kmove(n) == want;
}

static void print_move(const char *what, const kifu_move *m)
{
    printf("    %s: color %d from %d%d to %d%d piece %d cap %d promote %d same %d rel "
           "%02x%02x%02x flags %#x\n",
           what, m->color, m->from_x, m->from_y, m->to_x, m->to_y, m->piece, m->capture,
           m->promote, m->same, (unsigned char)m->relative[0],
           (unsigned char)m->relative[1], (unsigned char)m->relative[2], m->flags);
}

/* Every square pair (drops' 0,0 included) in both colors, each made by add_move with
 * the other fields cycling, all checked after all are made (no node clobbers another). */
TEST(move_squares_round_trip_by_add_move)
{
    kifu_record *r = kifu_record_new();
    enum { N = 2 * 100 * 100 };
    kifu_node **nodes = malloc(N * sizeof *nodes);
    kifu_move *want = malloc(N * sizeof *want);
    kifu_node *parent = kifu_record_root(r);
    int k = 0;
    for (int c = 0; c < 2; c++)
        for (int from = 0; from < 100; from++)
            for (int to = 0; to < 100; to++, k++) {
                want[k] = t_move_make(c, from / 10, from % 10, to / 10, to % 10, k % 16,
                                      (k / 16) % 16, k % 3 - 1, (k / 3) % 3 - 1,
                                      rels[k % NRELS], flags_of((unsigned)k % 32));
                /* Lines and forks both: every 7th node forks off its parent. */
                kifu_node *p = k % 7 == 6 ? kifu_node_parent(parent) : parent;
                nodes[k] = kifu_node_add_move(r, p, &want[k]);
                CHECK(nodes[k] != NULL);
                if (!nodes[k])
                    goto out;
                parent = nodes[k];
            }
    int bad = 0;
    for (k = 0; k < N; k++)
        if ((!same_move(nodes[k], &want[k]) || !same_kmove(nodes[k], &want[k])) &&
            bad++ < 5) {
            kifu_move got;
            kifu_node_get_move(nodes[k], &got);
            print_move("set", &want[k]);
            print_move("got", &got);
        }
    CHECK_INT(bad, 0);
out:
    free(nodes);
    free(want);
    kifu_record_free(r);
}

/* Every kind, capture, promote, same, relative word and flag combination, by set_move
 * on one node (and by add_move for one square pair each). */
TEST(move_fields_round_trip_by_set_move)
{
    kifu_record *r = kifu_record_new();
    kifu_move first = t_move_make(0, 7, 7, 7, 6, KIFU_FU, 0, -1, -1, "", 0);
    kifu_node *n = kifu_node_add_move(r, kifu_record_root(r), &first);
    kifu_node *neighbour = kifu_node_add_move(r, n, &first);
    long bad = 0;
    for (int piece = 0; piece < 16; piece++)
        for (int cap = 0; cap < 16; cap++)
            for (int pr = -1; pr <= 1; pr++)
                for (int sm = -1; sm <= 1; sm++)
                    for (unsigned ri = 0; ri < NRELS; ri++)
                        for (unsigned fk = 0; fk < 32; fk++) {
                            int c = (int)(fk + ri) & 1;
                            kifu_move m =
                                t_move_make(c, (piece + fk) % 10, cap % 10, ri % 10,
                                            (piece + cap) % 10, piece, cap, pr, sm,
                                            rels[ri], flags_of(fk));
                            if (kifu_node_set_move(r, n, &m) != 0 || !same_move(n, &m) ||
                                !same_kmove(n, &m)) {
                                if (bad++ < 5)
                                    print_move("set_move refused or changed", &m);
                            }
                        }
    CHECK_INT(bad, 0);
    CHECK(same_move(neighbour, &first)); /* the next slot untouched */
    /* Every relative word and flag set by add_move too, as a fork of the root. */
    for (unsigned ri = 0; ri < NRELS; ri++)
        for (unsigned fk = 0; fk < 32; fk++) {
            kifu_move m =
                t_move_make(1, 0, 0, 9, 9, 15, 15, 1, 1, rels[ri], flags_of(fk));
            kifu_node *x = kifu_node_add_move(r, kifu_record_root(r), &m);
            CHECK(x != NULL && same_move(x, &m));
        }
    kifu_record_free(r);
}

/* Out-of-range fields: set_move gives -1 and leaves the node as it was; add_move gives
 * NULL and makes no node. */
TEST(move_refusals)
{
    kifu_record *r = kifu_record_new();
    kifu_move ok =
        t_move_make(1, 3, 4, 5, 6, KIFU_KA, KIFU_HI, 1, 0, "RU", KIFU_MOVE_RAW);
    kifu_node *root = kifu_record_root(r);
    kifu_node *n = kifu_node_add_move(r, root, &ok);
    CHECK(n != NULL);
    kifu_move bad[32];
    int nb = 0;
    bad[nb] = ok, bad[nb++].color = 2;
    bad[nb] = ok, bad[nb++].color = 255;
    bad[nb] = ok, bad[nb++].from_x = 10;
    bad[nb] = ok, bad[nb++].from_y = 10;
    bad[nb] = ok, bad[nb++].to_x = 10;
    bad[nb] = ok, bad[nb++].to_y = 10;
    bad[nb] = ok, bad[nb++].to_y = 255;
    bad[nb] = ok, bad[nb++].piece = 16;
    bad[nb] = ok, bad[nb++].capture = 16;
    bad[nb] = ok, bad[nb++].promote = 2;
    bad[nb] = ok, bad[nb++].promote = -2;
    bad[nb] = ok, bad[nb++].same = -2;
    bad[nb] = ok, bad[nb++].same = 2;
    static const char *const badrel[] = {"X", "LL", "UL", "HH", "UU", "CL", "l", "LX"};
    for (size_t i = 0; i < sizeof badrel / sizeof badrel[0]; i++) {
        bad[nb] = ok;
        memset(bad[nb].relative, 0, 3);
        memcpy(bad[nb++].relative, badrel[i], strlen(badrel[i]));
    }
    bad[nb] = ok, memcpy(bad[nb++].relative, "LUM", 3); /* no NUL */
    bad[nb] = ok, bad[nb++].flags = 0x40;
    bad[nb] = ok, bad[nb++].flags = 0x10;
    bad[nb] = ok, bad[nb++].flags = 0x20;
    bad[nb] = ok, bad[nb++].flags = KIFU_MOVE_RAW | 0x40;
    size_t count = kifu_record_node_count(r);
    for (int i = 0; i < nb; i++) {
        int rc = kifu_node_set_move(r, n, &bad[i]);
        CHECK_INT(rc, -1);
        int kept = same_move(n, &ok);
        CHECK(kept);
        kifu_node *x = kifu_node_add_move(r, root, &bad[i]);
        CHECK(x == NULL);
        if (rc != -1 || !kept || x)
            print_move("accepted", &bad[i]);
    }
    CHECK_INT(kifu_record_node_count(r), count);
    CHECK_INT(kifu_node_child_count(root), 1);
    /* Bytes after the word's NUL are no part of it: taken or refused, never given back. */
    kifu_move tail = ok;
    memcpy(tail.relative, "L\0U", 3);
    if (kifu_node_set_move(r, n, &tail) == 0) {
        kifu_move got;
        memset(&got, 0xAB, sizeof got);
        CHECK_INT(kifu_node_get_move(n, &got), 1);
        CHECK(memcmp(got.relative, "L\0\0", 3) == 0);
        CHECK_INT(kifu_node_set_move(r, n, &ok), 0);
    }
    CHECK(same_move(n, &ok));
    /* Not a MOVE node: the root and an ending. */
    kifu_node *sp = kifu_node_add_special(r, n, "TORYO");
    CHECK_INT(kifu_node_set_move(r, root, &ok), -1);
    CHECK_INT(kifu_node_set_move(r, sp, &ok), -1);
    CHECK_INT(kifu_node_get_move(sp, NULL), 0);
    CHECK_INT(kifu_node_get_move(root, NULL), 0);
    CHECK_INT(kifu_node_get_move(n, NULL), 1);
    unsigned char untouched[sizeof(kifu_move)], ff[sizeof(kifu_move)];
    memset(untouched, 0xAB, sizeof untouched);
    memset(ff, 0xAB, sizeof ff);
    CHECK_INT(kifu_node_get_move(sp, (kifu_move *)(void *)untouched), 0);
    CHECK(memcmp(untouched, ff, sizeof ff) == 0);
    CHECK_STR(kifu_node_special(sp), "TORYO");
    kifu_record_free(r);
}

/* ---- links: a model of the tree ---- */

typedef struct model {
    kifu_record *r;
    kifu_node **node; /* by id */
    int *parent;      /* -1: the root, or deleted */
    int **kids;
    int *nkids, *capkids;
    int *ply;
    int *alive;
    int n, cap;
} model;

static void model_init(model *m)
{
    memset(m, 0, sizeof *m);
    m->r = kifu_record_new();
    m->cap = 1024;
    m->node = calloc((size_t)m->cap, sizeof *m->node);
    m->parent = calloc((size_t)m->cap, sizeof(int));
    m->kids = calloc((size_t)m->cap, sizeof(int *));
    m->nkids = calloc((size_t)m->cap, sizeof(int));
    m->capkids = calloc((size_t)m->cap, sizeof(int));
    m->ply = calloc((size_t)m->cap, sizeof(int));
    m->alive = calloc((size_t)m->cap, sizeof(int));
    m->node[0] = kifu_record_root(m->r);
    m->parent[0] = -1;
    m->alive[0] = 1;
    m->n = 1;
}

static void model_free(model *m)
{
    for (int i = 0; i < m->n; i++)
        free(m->kids[i]);
    free(m->node), free(m->parent), free(m->kids), free(m->nkids), free(m->capkids);
    free(m->ply), free(m->alive);
    kifu_record_free(m->r);
}

/* The move a node of id carries: its id in its squares and kinds, so a node showing
 * another's move is seen. */
static kifu_move id_move(int id)
{
    return t_move_make(id & 1, id % 10, (id / 10) % 10, (id / 100) % 10, (id / 1000) % 10,
                       (id / 10000) % 16, 0, -1, -1, "", 0);
}

/* Add a move (or, special nonzero, an ending) under id p; the new id, or -1. */
static int model_add(model *m, int p, int special)
{
    if (m->n == m->cap) {
        int c = m->cap * 2;
        m->node = realloc(m->node, (size_t)c * sizeof *m->node);
        m->parent = realloc(m->parent, (size_t)c * sizeof(int));
        m->kids = realloc(m->kids, (size_t)c * sizeof(int *));
        m->nkids = realloc(m->nkids, (size_t)c * sizeof(int));
        m->capkids = realloc(m->capkids, (size_t)c * sizeof(int));
        m->ply = realloc(m->ply, (size_t)c * sizeof(int));
        m->alive = realloc(m->alive, (size_t)c * sizeof(int));
        m->cap = c;
    }
    int id = m->n;
    kifu_move mv = id_move(id);
    kifu_node *x = special ? kifu_node_add_special(m->r, m->node[p], "CHUDAN")
                           : kifu_node_add_move(m->r, m->node[p], &mv);
    if (!x || kifu_node_id(x) != (size_t)id) {
        printf("    add under %d: %s\n", p, x ? "unexpected id" : "NULL");
        return -1;
    }
    m->node[id] = x;
    m->parent[id] = p;
    m->kids[id] = NULL;
    m->nkids[id] = m->capkids[id] = 0;
    m->ply[id] = m->ply[p] + 1;
    m->alive[id] = 1;
    if (m->nkids[p] == m->capkids[p]) {
        m->capkids[p] = m->capkids[p] ? 2 * m->capkids[p] : 2;
        m->kids[p] = realloc(m->kids[p], (size_t)m->capkids[p] * sizeof(int));
    }
    m->kids[p][m->nkids[p]++] = id;
    m->n++;
    return id;
}

/* Delete child i of p. */
static int model_delete(model *m, int p, int i)
{
    int id = m->kids[p][i];
    int rc = kifu_node_delete(m->r, m->node[id]);
    if (rc)
        return rc;
    memmove(m->kids[p] + i, m->kids[p] + i + 1,
            (size_t)(m->nkids[p] - i - 1) * sizeof(int));
    m->nkids[p]--;
    /* Iteratively: a deleted line may be long. */
    int *stack = malloc((size_t)m->n * sizeof(int)), top = 0;
    stack[top++] = id;
    while (top) {
        int x = stack[--top];
        m->alive[x] = 0;
        for (int k = 0; k < m->nkids[x]; k++)
            stack[top++] = m->kids[x][k];
    }
    free(stack);
    return 0;
}

static int model_reorder(model *m, int p, int i, int j)
{
    int rc = kifu_node_reorder(m->node[p], (size_t)i, (size_t)j);
    if (rc)
        return rc;
    int id = m->kids[p][i];
    memmove(m->kids[p] + i, m->kids[p] + i + 1,
            (size_t)(m->nkids[p] - i - 1) * sizeof(int));
    memmove(m->kids[p] + j + 1, m->kids[p] + j,
            (size_t)(m->nkids[p] - 1 - j) * sizeof(int));
    m->kids[p][j] = id;
    return 0;
}

/* Every live node's links, ply and move against the model; the walk from the root
 * reaches exactly the live nodes. Returns the mismatches (the first few printed). */
static int model_check(const model *m, const char *when)
{
    int bad = 0;
#define BAD(...)                                                                         \
    do {                                                                                 \
        if (bad++ < 5) {                                                                 \
            printf("    %s: node %d: ", when, id);                                       \
            printf(__VA_ARGS__);                                                         \
            printf("\n");                                                                \
        }                                                                                \
    } while (0)
    int live = 0;
    for (int id = 0; id < m->n; id++) {
        if (!m->alive[id])
            continue;
        live++;
        const kifu_node *x = m->node[id];
        if (kifu_node_id(x) != (size_t)id)
            BAD("id %zu", kifu_node_id(x));
        const kifu_node *p = kifu_node_parent(x);
        if (p != (m->parent[id] < 0 ? NULL : m->node[m->parent[id]]))
            BAD("parent %ld, want %d", p ? (long)kifu_node_id(p) : -1L, m->parent[id]);
        if (kifu_node_ply(x) != m->ply[id])
            BAD("ply %d, want %d", kifu_node_ply(x), m->ply[id]);
        if (kifu_node_child_count(x) != (size_t)m->nkids[id])
            BAD("%zu children, want %d", kifu_node_child_count(x), m->nkids[id]);
        const kifu_node *nx = kifu_node_next(x);
        if (nx != (m->nkids[id] ? m->node[m->kids[id][0]] : NULL))
            BAD("next %ld", nx ? (long)kifu_node_id(nx) : -1L);
        for (int i = 0; i < m->nkids[id]; i++) {
            const kifu_node *c = kifu_node_child(x, (size_t)i);
            if (c != m->node[m->kids[id][i]])
                BAD("child %d is %ld, want %d", i, c ? (long)kifu_node_id(c) : -1L,
                    m->kids[id][i]);
        }
        if (kifu_node_child(x, (size_t)m->nkids[id]) != NULL)
            BAD("a child past the last");
        if (m->parent[id] >= 0) {
            const int *k = m->kids[m->parent[id]];
            int i = 0;
            while (k[i] != id)
                i++;
            if (kifu_node_index(x) != (size_t)i)
                BAD("index %zu, want %d", kifu_node_index(x), i);
        }
        if (kifu_node_kind_of(x) == KIFU_NODE_MOVE) {
            kifu_move want = id_move(id);
            if (!same_move(x, &want))
                BAD("its move is another's");
        }
    }
    /* The walk reaches the live nodes and no other. */
    kifu_error err;
    kifu_walker *w = kifu_walk_new(m->r, 0, &err);
    int entered = 0, ev;
    while ((ev = kifu_walk_next(w)) > 0)
        if (ev == KIFU_WALK_ENTER) {
            int id = (int)kifu_node_id(kifu_walk_node(w));
            entered++;
            if (id >= m->n || !m->alive[id])
                BAD("walked to, but deleted");
        }
    kifu_walk_free(w);
    if (entered != live) {
        int id = -1;
        BAD("walk entered %d nodes, %d live", entered, live);
    }
#undef BAD
    return bad;
}

/* Two trees alike: kinds, plies, moves, endings, comments, bookmarks, child counts, in
 * a walk of both at once. Returns the node count, or -1 (printed) at a difference. */
static long trees_equal(const kifu_record *a, const kifu_record *b)
{
    size_t cap = 1024, top = 0;
    const kifu_node **st = malloc(cap * 2 * sizeof *st);
    st[0] = kifu_record_root(a), st[1] = kifu_record_root(b), top = 1;
    long count = 0;
    while (top) {
        top--;
        const kifu_node *x = st[2 * top], *y = st[2 * top + 1];
        count++;
        kifu_move mx, my;
        memset(&mx, 0, sizeof mx), memset(&my, 0, sizeof my);
        int kx = kifu_node_get_move(x, &mx), ky = kifu_node_get_move(y, &my);
        const char *sx = kifu_node_special(x), *sy = kifu_node_special(y);
        int diff = kifu_node_kind_of(x) != kifu_node_kind_of(y) ||
                   kifu_node_ply(x) != kifu_node_ply(y) || kx != ky ||
                   memcmp(&mx, &my, sizeof mx) != 0 || (!sx != !sy) ||
                   (sx && strcmp(sx, sy) != 0) ||
                   kifu_node_child_count(x) != kifu_node_child_count(y) ||
                   kifu_node_comment_count(x) != kifu_node_comment_count(y) ||
                   kifu_node_bookmark_count(x) != kifu_node_bookmark_count(y);
        for (size_t i = 0; !diff && i < kifu_node_comment_count(x); i++)
            diff = strcmp(kifu_node_comment(x, i), kifu_node_comment(y, i)) != 0;
        for (size_t i = 0; !diff && i < kifu_node_bookmark_count(x); i++)
            diff = strcmp(kifu_node_bookmark(x, i), kifu_node_bookmark(y, i)) != 0;
        if (diff) {
            printf("    trees differ at ply %d (ids %zu, %zu)\n", kifu_node_ply(x),
                   kifu_node_id(x), kifu_node_id(y));
            if (kx && ky) {
                print_move("a", &mx);
                print_move("b", &my);
            }
            free(st);
            return -1;
        }
        size_t nc = kifu_node_child_count(x);
        if (top + nc >= cap) {
            cap = 2 * (top + nc);
            st = realloc(st, cap * 2 * sizeof *st);
        }
        /* Children pushed by walking siblings (child(i) per child is quadratic). */
        const kifu_node *cx = kifu_node_next(x), *cy = kifu_node_next(y);
        for (size_t i = 0; i < nc; i++) {
            st[2 * top] = cx, st[2 * top + 1] = cy, top++;
            if (i + 1 < nc)
                cx = kifu_node_child(x, i + 1), cy = kifu_node_child(y, i + 1);
        }
    }
    free(st);
    return count;
}

static long live_count(const model *m)
{
    long k = 0;
    for (int i = 0; i < m->n; i++)
        k += m->alive[i];
    return k;
}

/* Check the model and that a clone gives the same tree. */
static void check_all(model *m, const char *when)
{
    CHECK_INT(model_check(m, when), 0);
    CHECK_INT(kifu_record_node_count(m->r), m->n);
    kifu_record *c = kifu_record_clone(m->r);
    CHECK(c != NULL);
    if (c) {
        long k = trees_equal(m->r, c);
        CHECK_INT(k, live_count(m));
        if (k != live_count(m))
            printf("    (%s: clone)\n", when);
        kifu_record_free(c);
    }
}

/* Add under p until the record has `count` nodes (a line), the new ids returned as
 * the last made. */
static int line_to(model *m, int p, int count)
{
    while (m->n < count && p >= 0)
        p = model_add(m, p, 0);
    return p;
}

TEST(links_across_pages_forks_and_edits)
{
    model m;
    model_init(&m);
    int last = line_to(&m, 0, 2001); /* ids 1..2000: pages 0..4 */
    CHECK_INT(last, 2000);
    check_all(&m, "a line of 2,000");
    /* Forks out of order at the ends of pages (slot 406 and 0) and around them. */
    static const int at[] = {1,   405, 406,  407,  408,  813,
                             814, 815, 1220, 1221, 1999, 2000};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        CHECK(model_add(&m, at[i], 0) >= 0);
        CHECK(model_add(&m, at[i], i & 1) >= 0); /* a second fork, some endings */
    }
    check_all(&m, "forks at page ends");
    /* A fork line grown in order from a node made long before: crosses pages with its
     * first node's links stored and the rest implicit. */
    int f = model_add(&m, 406, 0);
    f = line_to(&m, f, m.n + 900);
    check_all(&m, "a 900-move fork line under 406");
    /* The next node made lands at the last slot of a page, then at a new page's slot 0,
     * each a fork of an old node. */
    int upto = ((m.n / PAGE) + 1) * PAGE - 1;
    line_to(&m, f, upto);
    CHECK_INT(m.n % PAGE, PAGE - 1);
    int s406 = model_add(&m, 814, 0);
    CHECK_INT(s406 % PAGE, PAGE - 1);
    int s0 = model_add(&m, s406, 0); /* the line goes on across the page's end */
    CHECK_INT(s0 % PAGE, 0);
    int s0b = model_add(&m, s406, 0); /* and forks there */
    model_add(&m, s0, 0);
    model_add(&m, s0b, 0);
    check_all(&m, "lines and forks across a page end");
    /* Deletes under 1999: child 0 (the line's continuation, implicit), a middle fork,
     * the last. */
    CHECK(model_add(&m, 1999, 0) >= 0);
    CHECK_INT(kifu_node_child_count(m.node[1999]), 4);
    CHECK_INT(model_delete(&m, 1999, 0), 0); /* 2000 and its forks */
    check_all(&m, "child 0 of 1999 deleted");
    CHECK_INT(model_delete(&m, 1999, 1), 0);
    check_all(&m, "a middle fork of 1999 deleted");
    CHECK_INT(model_delete(&m, 1999, m.nkids[1999] - 1), 0);
    check_all(&m, "the last fork of 1999 deleted");
    /* Children added after the deletes, to a node whose links are now stored. */
    CHECK(model_add(&m, 1999, 0) >= 0);
    CHECK(model_add(&m, 1999, 1) >= 0);
    check_all(&m, "added after deletes");
    /* Reorders both ways, to and from child 0. */
    CHECK_INT(kifu_node_child_count(m.node[813]), 3);
    CHECK_INT(model_reorder(&m, 813, 0, 2), 0);
    check_all(&m, "reorder 0 -> 2");
    CHECK_INT(model_reorder(&m, 813, 2, 0), 0);
    check_all(&m, "reorder 2 -> 0");
    CHECK_INT(model_reorder(&m, 813, 1, 0), 0);
    check_all(&m, "reorder 1 -> 0");
    CHECK_INT(model_reorder(&m, 813, 0, 1), 0);
    check_all(&m, "reorder 0 -> 1");
    CHECK_INT(model_reorder(&m, 813, 2, 1), 0);
    check_all(&m, "reorder 2 -> 1");
    CHECK_INT(model_reorder(&m, 813, 1, 1), 0);
    CHECK_INT(kifu_node_reorder(m.node[813], 3, 0), -1);
    CHECK_INT(kifu_node_reorder(m.node[813], 0, 3), -1);
    check_all(&m, "reorders out of range refused");
    /* Child 0 of a page-end node on the main line deleted, then the line re-grown. */
    CHECK_INT(model_delete(&m, 1220, 0), 0);
    int g = model_add(&m, 1220, 0);
    line_to(&m, g, m.n + 500);
    check_all(&m, "the main line cut at 1220 and re-grown");
    /* Child 0 of 406 (the line across the page's end, with all the forks above). */
    CHECK_INT(kifu_node_child_count(m.node[406]), 4);
    CHECK_INT(model_delete(&m, 406, 0), 0);
    check_all(&m, "child 0 of 406 deleted");
    CHECK_INT(model_delete(&m, 406, 1), 0);
    check_all(&m, "a middle fork of 406 deleted");
    /* The root's only child deleted: an empty tree, then a new line. */
    CHECK_INT(kifu_node_delete(m.r, kifu_record_root(m.r)), -1);
    CHECK_INT(model_delete(&m, 0, 0), 0);
    check_all(&m, "all deleted");
    line_to(&m, 0, m.n + 10);
    check_all(&m, "a new line after all was deleted");
    model_free(&m);
}

/* A deterministic run of random adds, deletes and reorders. */
TEST(links_random_edits)
{
    model m;
    model_init(&m);
    uint32_t seed = 12345;
#define RND() (seed = seed * 1103515245u + 12345u, (seed >> 8) & 0xffffff)
    line_to(&m, 0, 600);
    int nadd = 0, ndel = 0, nre = 0;
    for (int op = 1; op <= 4000; op++) {
        int id = (int)(RND() % (uint32_t)m.n);
        for (int t = 0; t < 1000 && !m.alive[id]; t++)
            id = (int)(RND() % (uint32_t)m.n);
        if (!m.alive[id])
            continue;
        if (m.nkids[id] < 2 && RND() % 2) /* edits where there are forks, mostly */
            continue;
        uint32_t what = RND() % 100;
        if (what < 70) {
            int x = model_add(&m, id, what < 3);
            nadd++;
            if (x >= 0 && what >= 50) /* a run: continues from the node made last */
                line_to(&m, x, m.n + (int)(RND() % 40));
        } else if (what < 80 && m.nkids[id] > 0) {
            CHECK_INT(model_delete(&m, id, (int)(RND() % (uint32_t)m.nkids[id])), 0);
            ndel++;
        } else if (m.nkids[id] > 1) {
            int i = (int)(RND() % (uint32_t)m.nkids[id]);
            int j = (int)(RND() % (uint32_t)m.nkids[id]);
            CHECK_INT(model_reorder(&m, id, i, j), 0);
            nre++;
        }
        if (op % 250 == 0) {
            char when[32];
            snprintf(when, sizeof when, "random op %d", op);
            check_all(&m, when);
        }
    }
#undef RND
    /* What the run did (1,542 adds, 169 deletes, 89 reorders when written). */
    printf("    random edits: %d adds, %d deletes, %d reorders, %d nodes\n", nadd, ndel,
           nre, m.n);
    model_free(&m);
}

/* A tree made breadth-first: no node's parent is the node made before it (but the
 * first), so every link is out of order. */
TEST(links_tree_made_breadth_first)
{
    model m;
    model_init(&m);
    int *queue = malloc(40000 * sizeof(int)), head = 0, tail = 0;
    queue[tail++] = 0;
    while (head < tail && m.n < 6000) {
        int p = queue[head++];
        int k = p % 5 == 0 ? 1 : 3; /* single children too */
        for (int i = 0; i < k; i++) {
            int x = model_add(&m, p, 0);
            CHECK(x >= 0);
            if (x < 0)
                break;
            queue[tail++] = x;
        }
    }
    free(queue);
    check_all(&m, "breadth-first tree");
    /* Edits in it. */
    CHECK_INT(model_reorder(&m, 1, 2, 0), 0);
    CHECK_INT(model_delete(&m, 2, 1), 0);
    CHECK_INT(model_delete(&m, 407, 0), 0);
    check_all(&m, "breadth-first tree edited");
    model_free(&m);
}

/* ---- source offsets ---- */

static void expect_at(const char *what, const char *text, size_t len, int format,
                      int line, int col)
{
    kifu_read_options o = {0};
    o.format = format;
    o.encoding = KIFU_ENC_UTF8;
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_read(text, len, &o, &err);
    CHECK(r == NULL);
    CHECK(err.code != 0);
    int ok = err.line == line && err.column == col;
    CHECK(ok);
    if (!ok)
        printf("    %s: error at %d:%d, want %d:%d (%s)\n", what, err.line, err.column,
               line, col, err.message);
    kifu_record_free(r);
}

/* Characters of [a, b) (a column is counted in characters). */
static int chars(const char *a, const char *b)
{
    int k = 0;
    for (; a < b; a++)
        k += ((unsigned char)*a & 0xC0) != 0x80;
    return k;
}

/* Where p is in [s, p): line and column. */
static void where(const char *s, const char *p, int *line, int *col)
{
    const char *ls = s;
    *line = 1;
    for (const char *q = s; q < p; q++)
        if (*q == '\n')
            (*line)++, ls = q + 1;
    *col = chars(ls, p) + 1;
}

static const char *const usi_cycle[4] = {"5i5h", "5a5b", "5h5i", "5b5a"};

/* A USI line of `moves` legal king steps with the one at ply `bad` made illegal (its
 * target rank 'e'), `gap[ply]` spaces before each move (NULL: one). */
static char *usi_line(int moves, int bad, const int *gap, size_t *len, size_t *bad_off)
{
    size_t cap = 64 + (size_t)moves * 5;
    for (int i = 0; gap && i <= moves; i++)
        cap += (size_t)gap[i];
    char *s = malloc(cap), *p = s;
    p += sprintf(p, "position startpos moves");
    for (int ply = 1; ply <= moves; ply++) {
        int sp = gap ? gap[ply] : 1;
        memset(p, ' ', (size_t)sp), p += sp;
        if (ply == bad)
            *bad_off = (size_t)(p - s);
        memcpy(p, usi_cycle[(ply - 1) % 4], 4);
        if (ply == bad)
            p[3] = 'e';
        p += 4;
    }
    *p++ = '\n';
    *p = 0;
    *len = (size_t)(p - s);
    return s;
}

TEST(src_usi_long_line)
{
    static const int bads[] = {1, 2, 405, 406, 407, 408, 1500, 4069, 4070, 4071, 4999};
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        size_t len, off = 0;
        char *s = usi_line(5000, bads[i], NULL, &len, &off);
        char what[48];
        snprintf(what, sizeof what, "USI, illegal ply %d", bads[i]);
        expect_at(what, s, len, KIFU_FMT_SFEN, 1, (int)off + 1);
        free(s);
    }
}

/* Gaps around the byte's limit: a distance of 253 is the last one a node holds, 254 on
 * are whole offsets; the illegal move after runs of both. */
TEST(src_usi_distance_limits)
{
    enum { MOVES = 3000 };
    int *gap = malloc((MOVES + 1) * sizeof(int));
    static const int bads[] = {10, 406, 407, 408, 1000, 2500};
    static const int sizes[] = {248, 249, 250, 251, 1000};
    for (size_t b = 0; b < sizeof bads / sizeof bads[0]; b++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            /* Distance = gap + 4 between token starts: 252 .. 255 and far. */
            for (int i = 0; i <= MOVES; i++)
                gap[i] = i % 3 == 0 ? sizes[(z + (size_t)i) % 5] : 1 + i % 2;
            gap[bads[b]] = sizes[z];
            size_t len, off = 0;
            char *s = usi_line(MOVES, bads[b], gap, &len, &off);
            char what[64];
            snprintf(what, sizeof what, "USI, gap %d before illegal ply %d", sizes[z],
                     bads[b]);
            expect_at(what, s, len, KIFU_FMT_SFEN, 1, (int)off + 1);
            free(s);
        }
    free(gap);
}

static const char *const csa_cycle[4] = {"+5958OU", "-5152OU", "+5859OU", "-5251OU"};

/* text read without normalizing (an illegal move is found later, when the test has
 * edited the record); err is cleared first. */
static kifu_record *read_raw(const char *text, size_t len, int format, kifu_error *err)
{
    kifu_read_options o = {0};
    o.format = format;
    o.flags = KIFU_READ_NO_NORMALIZE;
    kifu_error_clear(err);
    return kifu_read(text, len, &o, err);
}

/* CSA: comment lines of `clen` bytes before some moves; the illegal move at ply bad. */
static char *csa_text(int moves, int bad, int clen, size_t *len, int *bad_line)
{
    size_t cap = 64 + (size_t)moves * (9 + (size_t)clen + 2);
    char *s = malloc(cap), *p = s;
    int line = 1;
    p += sprintf(p, "V2.2\nPI\n+\n");
    line += 3;
    for (int ply = 1; ply <= moves; ply++) {
        if (ply % 3 == 0 || ply == bad) { /* a long comment line before it */
            *p++ = '\'';
            memset(p, 'c', (size_t)clen), p += clen;
            *p++ = '\n';
            line++;
        }
        if (ply == bad)
            *bad_line = line;
        memcpy(p, csa_cycle[(ply - 1) % 4], 7);
        if (ply == bad)
            p[4] = '5'; /* 5955OU, 5155OU .. : a king three or four squares away */
        p += 7;
        *p++ = '\n';
        line++;
    }
    *p = 0;
    *len = (size_t)(p - s);
    return s;
}

TEST(src_csa_long_comments)
{
    static const int bads[] = {1, 300, 406, 407, 408, 1201};
    static const int clens[] = {10, 245, 246, 247, 300, 5000};
    for (size_t b = 0; b < sizeof bads / sizeof bads[0]; b++)
        for (size_t c = 0; c < sizeof clens / sizeof clens[0]; c++) {
            size_t len;
            int line = 0;
            char *s = csa_text(1500, bads[b], clens[c], &len, &line);
            char what[64];
            snprintf(what, sizeof what, "CSA, %d-byte comments, illegal ply %d", clens[c],
                     bads[b]);
            expect_at(what, s, len, KIFU_FMT_CSA, line, 1);
            free(s);
        }
}

/* CSA statements joined by ',' (a move and its time), four moves a line, comment lines
 * of clen bytes between some lines; *at: the illegal move's sign. */
static char *csa_joined(int moves, int bad, int clen, size_t *len, const char **at)
{
    char *s = malloc(64 + (size_t)moves * (16 + (size_t)clen)), *p = s;
    p += sprintf(p, "V2.2\nPI\n+\n");
    for (int ply = 1; ply <= moves; ply++) {
        if (ply % 4 == 1 && ply % 3 == 0) {
            *p++ = '\'';
            memset(p, 'c', (size_t)clen), p += clen;
            *p++ = '\n';
        }
        if (ply == bad)
            *at = p;
        memcpy(p, csa_cycle[(ply - 1) % 4], 7);
        if (ply == bad)
            p[4] = '5';
        p += 7;
        p += sprintf(p, ",T%d%s", ply % 60, ply % 4 == 0 ? "\n" : ",");
    }
    p += sprintf(p, "\n");
    *len = (size_t)(p - s);
    return s;
}

TEST(src_csa_joined_statements)
{
    static const int bads[] = {1, 2, 4, 406, 407, 408, 1201, 1202};
    static const int clens[] = {10, 250, 3000};
    for (size_t b = 0; b < sizeof bads / sizeof bads[0]; b++)
        for (size_t c = 0; c < sizeof clens / sizeof clens[0]; c++) {
            size_t len;
            const char *at = NULL;
            char *s = csa_joined(1500, bads[b], clens[c], &len, &at);
            int line, col;
            where(s, at, &line, &col);
            char what[64];
            snprintf(what, sizeof what, "CSA joined, %d-byte comments, illegal ply %d",
                     clens[c], bads[b]);
            expect_at(what, s, len, KIFU_FMT_CSA, line, col);
            free(s);
        }
}

static const char *const kif_cycle[4] = {"５八玉(59)", "５二玉(51)", "５九玉(58)",
                                         "５一玉(52)"};
static const char *const kif_bad[4] = {"５五玉(59)", "５五玉(51)", "５五玉(58)",
                                       "５五玉(52)"};

/* KIF: a main line of `moves`, then a variation from ply `from` of `vlen` moves whose
 * ply `bad` (>= from) is illegal. */
static char *kif_text(int moves, int from, int vlen, int bad, size_t *len, int *bad_line,
                      int *bad_col)
{
    size_t cap = 256 + (size_t)(moves + vlen) * 64;
    char *s = malloc(cap), *p = s;
    int line = 1;
    p += sprintf(p, "手合割：平手\n手数----指手---------消費時間--\n");
    line += 2;
    for (int ply = 1; ply <= moves; ply++, line++)
        p += sprintf(p, "%4d %s\n", ply, kif_cycle[(ply - 1) % 4]);
    p += sprintf(p, "\n変化：%d手\n", from);
    line += 2;
    for (int ply = from; ply < from + vlen; ply++, line++) {
        /* The variation steps the other way: 4 (yon) files. */
        static const char *const alt[4] = {"４八玉(59)", "４二玉(51)", "５九玉(48)",
                                           "５一玉(42)"};
        if (ply == bad) {
            *bad_line = line;
            *bad_col = 6; /* after "%4d " */
            if (ply > 9999)
                *bad_col = 7;
        }
        p += sprintf(p, "%4d %s\n", ply,
                     ply == bad ? kif_bad[(ply - 1) % 4] : alt[(ply - 1) % 4]);
    }
    *p = 0;
    *len = (size_t)(p - s);
    return s;
}

TEST(src_kif_variation)
{
    struct {
        int moves, from, vlen, bad;
    } cases[] = {
        {10, 5, 8, 5},        {10, 5, 8, 9},       {1000, 405, 20, 405},
        {1000, 405, 20, 407}, {1000, 1, 900, 600}, {2000, 1201, 40, 1217},
        {3, 1, 2, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        int line = 0, col = 0;
        char *s = kif_text(cases[i].moves, cases[i].from, cases[i].vlen, cases[i].bad,
                           &len, &line, &col);
        char what[80];
        snprintf(what, sizeof what, "KIF, %d moves, variation at %d, illegal ply %d",
                 cases[i].moves, cases[i].from, cases[i].bad);
        expect_at(what, s, len, KIFU_FMT_KIFU, line, col);
        free(s);
    }
}

/* A JKF move object of the king steps: alt (the fork's way, by file 4) or not, bad: a
 * target three or four squares away. */
static char *jkf_move(char *p, int ply, int alt, int bad)
{
    static const int main_sq[4][4] = {
        {5, 9, 5, 8}, {5, 1, 5, 2}, {5, 8, 5, 9}, {5, 2, 5, 1}};
    static const int alt_sq[4][4] = {
        {5, 9, 4, 8}, {5, 1, 4, 2}, {4, 8, 5, 9}, {4, 2, 5, 1}};
    const int *q = alt ? alt_sq[(ply - 1) % 4] : main_sq[(ply - 1) % 4];
    return p +
           sprintf(
               p,
               "{\"color\":%d,\"from\":{\"x\":%d,\"y\":%d},\"to\":{\"x\":%d,\"y\":%d},"
               "\"piece\":\"OU\"}",
               (ply - 1) % 2, q[0], q[1], bad ? q[0] : q[2], bad ? 5 : q[3]);
}

/* JKF: a main line of `moves` entries (nl: one a line, else all on one line), a fork at
 * ply `fork_at` of flen entries (its "forks" before its "move" when forks_first), the
 * move at ply bad illegal in the fork (in_fork) or on the main line. *at: the illegal
 * move object's place. */
static char *jkf_text(int moves, int fork_at, int flen, int bad, int in_fork,
                      int forks_first, int nl, size_t *len, const char **at)
{
    char *s = malloc(256 + (size_t)(moves + flen) * 128), *p = s;
    const char *sep = nl ? ",\n" : ",";
    p += sprintf(p, "{\"header\":{},\"moves\":[{}");
    for (int ply = 1; ply <= moves; ply++) {
        p += sprintf(p, "%s{", sep);
        int bad_here = ply == bad && !in_fork, fork = ply == fork_at;
        for (int part = 0; part < 2; part++) {
            if (part == (forks_first ? 1 : 0)) {
                p += sprintf(p, "\"move\":");
                if (bad_here)
                    *at = p;
                p = jkf_move(p, ply, 0, bad_here);
            } else if (fork) {
                p += sprintf(p, "\"forks\":[[");
                for (int f = ply; f < ply + flen; f++) {
                    p += sprintf(p, "%s{\"move\":", f == ply ? (nl ? "\n" : "") : sep);
                    if (f == bad && in_fork)
                        *at = p;
                    p = jkf_move(p, f, 1, f == bad && in_fork);
                    *p++ = '}';
                }
                p += sprintf(p, "]]");
            }
            if (part == 0 && fork)
                *p++ = ',';
        }
        *p++ = '}';
    }
    p += sprintf(p, "]}\n");
    *len = (size_t)(p - s);
    return s;
}

TEST(src_jkf_forks)
{
    struct {
        int moves, fork_at, flen, bad, in_fork, forks_first, nl;
    } cases[] = {
        {20, 5, 6, 7, 1, 0, 1},         {20, 5, 6, 7, 1, 1, 1},
        {20, 5, 6, 5, 1, 1, 1},         {20, 5, 6, 5, 0, 1, 1},
        {20, 5, 6, 9, 0, 1, 0},         {1000, 405, 10, 407, 1, 0, 1},
        {1000, 405, 10, 409, 1, 1, 0},  {1000, 405, 10, 600, 0, 1, 0},
        {2000, 1, 1500, 1221, 1, 0, 0}, {2000, 1, 1500, 1222, 1, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        const char *at = NULL;
        char *s =
            jkf_text(cases[i].moves, cases[i].fork_at, cases[i].flen, cases[i].bad,
                     cases[i].in_fork, cases[i].forks_first, cases[i].nl, &len, &at);
        int line, col;
        where(s, at, &line, &col);
        char what[96];
        snprintf(what, sizeof what, "JKF case %zu, illegal ply %d %s", i, cases[i].bad,
                 cases[i].in_fork ? "in the fork" : "on the main line");
        expect_at(what, s, len, KIFU_FMT_JKF, line, col);
        free(s);
    }
}

/* A JKF entry's forks before its move: the tree as with the forks after it (the fork
 * nodes are made first, then moved behind the entry's by a reorder). */
TEST(jkf_forks_before_the_move_same_tree)
{
    static const int at[] = {1, 405, 409, 1201,
                             1625}; /* (at - 1) % 4 == 0: the fork line is legal */
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        size_t l1, l2;
        const char *unused = NULL;
        char *a = jkf_text(2000, at[i], 600, -1, 0, 0, 1, &l1, &unused);
        char *b = jkf_text(2000, at[i], 600, -1, 0, 1, 0, &l2, &unused);
        kifu_error err;
        kifu_record *ra = t_read_text(a, l1, KIFU_FMT_JKF, 0, &err);
        kifu_record *rb = t_read_text(b, l2, KIFU_FMT_JKF, 0, &err);
        CHECK(ra && rb);
        if (ra && rb) {
            CHECK_INT(kifu_record_node_count(ra), 2601);
            CHECK_INT(trees_equal(ra, rb), 2601);
            const kifu_node *x = t_node_at(rb, at[i] - 1);
            CHECK_INT(x ? kifu_node_child_count(x) : 0, 2);
            CHECK_INT(x ? kifu_node_ply(kifu_node_child(x, 1)) : 0, at[i]);
        }
        kifu_record_free(ra);
        kifu_record_free(rb);
        free(a);
        free(b);
    }
}

/* KI2: eight moves a line, a variation; the illegal move's mark (▲△) is its place. */
static char *ki2_text(int moves, int from, int vlen, int bad, size_t *len,
                      const char **at)
{
    static const char *const main_mv[4] = {"▲５八玉", "△５二玉", "▲５九玉", "△５一玉"};
    static const char *const alt_mv[4] = {"▲４八玉", "△４二玉", "▲５九玉", "△５一玉"};
    static const char *const bad_mv[4] = {"▲５五玉", "△５五玉", "▲５五玉", "△５五玉"};
    char *s = malloc(256 + (size_t)(moves + vlen) * 32), *p = s;
    p += sprintf(p, "手合割：平手\n");
    for (int ply = 1; ply <= moves; ply++) {
        if (ply == bad)
            *at = p;
        p += sprintf(p, "%s%s",
                     ply == bad ? bad_mv[(ply - 1) % 4] : main_mv[(ply - 1) % 4],
                     ply % 8 == 0 ? "\n" : " ");
    }
    p += sprintf(p, "\n\n変化：%d手\n", from);
    for (int ply = from; ply < from + vlen; ply++) {
        if (ply + moves == bad) /* bad past the main line: in the variation */
            *at = p;
        p += sprintf(p, "%s%s",
                     ply + moves == bad ? bad_mv[(ply - 1) % 4] : alt_mv[(ply - 1) % 4],
                     (ply - from) % 8 == 7 ? "\n" : " ");
    }
    p += sprintf(p, "\n");
    *len = (size_t)(p - s);
    return s;
}

TEST(src_ki2_variation)
{
    /* bad > moves: ply bad - moves of the variation. */
    struct {
        int moves, from, vlen, bad;
    } cases[] = {
        {20, 5, 8, 7},        {20, 5, 8, 20 + 9},           {1000, 405, 10, 1000 + 407},
        {1000, 405, 10, 406}, {2000, 1, 1500, 2000 + 1221}, {2000, 1, 10, 1628},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        const char *at = NULL;
        char *s = ki2_text(cases[i].moves, cases[i].from, cases[i].vlen, cases[i].bad,
                           &len, &at);
        int line, col;
        where(s, at, &line, &col);
        char what[96];
        snprintf(what, sizeof what, "KI2 case %zu", i);
        expect_at(what, s, len, KIFU_FMT_KI2U, line, col);
        free(s);
    }
}

/* KIF: long comment lines between moves, a variation from ply 9 (alt) and one nested in
 * it from ply `nested` (the main line's steps again), with the illegal move at ply bad
 * of the nested one (or, bad < 0, at ply -bad of the first variation). */
static char *kif_nested(int moves, int alen, int nested, int blen, int bad, int clen,
                        size_t *len, const char **at)
{
    static const char *const alt[4] = {"４八玉(59)", "４二玉(51)", "５九玉(48)",
                                       "５一玉(42)"};
    char *s = malloc(256 + (size_t)(moves + alen + blen) * (40 + (size_t)clen)), *p = s;
    p += sprintf(p, "手合割：平手\n手数----指手---------消費時間--\n");
    for (int part = 0; part < 3; part++) {
        int from = part == 0 ? 1 : part == 1 ? 9 : nested;
        int n = part == 0 ? moves : part == 1 ? alen : blen;
        if (part)
            p += sprintf(p, "\n変化：%d手\n", from);
        for (int ply = from; ply < from + n; ply++) {
            if (ply % 3 == 0) {
                *p++ = '*';
                memset(p, 'c', (size_t)clen), p += clen;
                *p++ = '\n';
            }
            int is_bad = (part == 2 && ply == bad) || (part == 1 && ply == -bad);
            p += sprintf(p, "%4d ", ply);
            if (is_bad)
                *at = p;
            p += sprintf(p, "%s   ( 0:01/00:00:%02d)\n",
                         is_bad      ? kif_bad[(ply - 1) % 4]
                         : part == 1 ? alt[(ply - 1) % 4]
                                     : kif_cycle[(ply - 1) % 4],
                         ply % 60);
        }
    }
    *len = (size_t)(p - s);
    return s;
}

TEST(src_kif_nested_variations_and_comments)
{
    struct {
        int moves, alen, nested, blen, bad, clen;
    } cases[] = {
        {100, 40, 29, 10, 31, 10},      {100, 40, 29, 10, 29, 300},
        {1000, 600, 409, 20, 410, 250}, {1000, 600, 409, 20, 411, 253},
        {1000, 600, 409, 500, 815, 5},  {1000, 600, 409, 20, -407, 300},
        {1000, 600, 409, 20, -9, 10},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        const char *at = NULL;
        char *s = kif_nested(cases[i].moves, cases[i].alen, cases[i].nested,
                             cases[i].blen, cases[i].bad, cases[i].clen, &len, &at);
        int line, col;
        where(s, at, &line, &col);
        char what[80];
        snprintf(what, sizeof what, "KIF nested case %zu (illegal ply %d)", i,
                 cases[i].bad);
        expect_at(what, s, len, KIFU_FMT_KIFU, line, col);
        free(s);
    }
}

/* A record read without normalizing, then edited through the API (forks added to read
 * nodes, a reorder that puts the read line behind a fork, a delete): the illegal move is
 * still found at its text. */
TEST(src_survives_edits)
{
    static const int bads[] = {406, 407, 1500};
    for (size_t b = 0; b < sizeof bads / sizeof bads[0]; b++) {
        size_t len, off = 0;
        char *s = usi_line(2000, bads[b], NULL, &len, &off);
        kifu_error err;
        kifu_record *r = read_raw(s, len, KIFU_FMT_SFEN, &err);
        CHECK(r != NULL);
        if (!r) {
            free(s);
            continue;
        }
        /* Two forks at ply 1 (the king's other way), then the read line reordered past
         * them and one deleted: the line's nodes keep their source offsets. */
        kifu_position *p = kifu_position_new();
        kifu_node *at1 = kifu_record_root(r);
        kifu_move m;
        CHECK_INT(kifu_position_parse_usi(p, "5i4h", &m, NULL), 0);
        kifu_node *f1 = kifu_node_add_move(r, at1, &m);
        kifu_node *f1b = kifu_node_add_move(r, at1, &m);
        CHECK(f1 && f1b);
        CHECK_INT(kifu_node_reorder(at1, 0, 2),
                  0); /* the read line is now the last fork */
        CHECK_INT(kifu_node_delete(r, f1b), 0);
        CHECK_INT(kifu_node_index(t_node_at(r, 1)), 0);
        kifu_position_free(p);
        kifu_error_clear(&err);
        CHECK_INT(kifu_normalize(r, 0, &err), -1);
        int ok = err.line == 1 && err.column == (int)off + 1;
        CHECK(ok);
        if (!ok)
            printf("    illegal ply %d: error at %d:%d, want 1:%zu (%s)\n", bads[b],
                   err.line, err.column, off + 1, err.message);
        kifu_record_free(r);
        free(s);
    }
}

/* A line read without normalizing, cut (no fork ever made) and grown again through the
 * API: cut before the illegal move, it is gone; cut after it, it is still found. */
TEST(src_line_cut_and_regrown)
{
    static const int cuts[] = {1000, 1499, 1500, 1501, 1600};
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        size_t len, off = 0;
        char *s = usi_line(2000, 1500, NULL, &len, &off);
        kifu_error err;
        kifu_record *r = read_raw(s, len, KIFU_FMT_SFEN, &err);
        CHECK(r != NULL);
        if (!r) {
            free(s);
            continue;
        }
        /* Delete the move at ply cut (and the rest), then play the same steps on. */
        kifu_node *at = t_node_at(r, cuts[c] - 1);
        CHECK_INT(kifu_node_delete(r, kifu_node_next(at)), 0);
        kifu_position *p = kifu_position_new();
        for (int ply = 1; ply <= (cuts[c] - 1) % 4; ply++) /* the position repeats */
            t_play_usi(p, usi_cycle[ply - 1]);
        kifu_node *n = at;
        for (int ply = cuts[c]; ply < cuts[c] + 10; ply++) {
            kifu_move m;
            CHECK_INT(kifu_position_parse_usi(p, usi_cycle[(ply - 1) % 4], &m, NULL), 0);
            kifu_position_play(p, &m, NULL);
            n = kifu_node_add_move(r, n, &m);
            CHECK(n != NULL);
            if (!n)
                break;
        }
        kifu_position_free(p);
        CHECK_INT(kifu_node_child_count(at), 1);
        kifu_error_clear(&err);
        int rc = kifu_normalize(r, 0, &err);
        if (cuts[c] <= 1500) {
            CHECK_INT(rc, 0);
            CHECK(t_node_at(r, cuts[c] + 9) != NULL &&
                  t_node_at(r, cuts[c] + 10) == NULL);
        } else {
            CHECK_INT(rc, -1);
            CHECK_INT(err.line, 1);
            CHECK_INT(err.column, (int)off + 1);
        }
        kifu_record_free(r);
        free(s);
    }
}

/* Several CSA games in one text ('/' between): an illegal move in the second. */
TEST(src_csa_second_game)
{
    size_t l1, l2;
    int line1 = 0, line2 = 0;
    char *g1 = csa_text(800, -1, 300, &l1, &line1);
    char *g2 = csa_text(800, 700, 300, &l2, &line2);
    char *s = malloc(l1 + l2 + 4);
    memcpy(s, g1, l1);
    memcpy(s + l1, "/\n", 2);
    memcpy(s + l1 + 2, g2, l2 + 1);
    int lines1 = 0;
    for (size_t i = 0; i < l1; i++)
        lines1 += s[i] == '\n';
    kifu_read_options o = {0};
    o.format = KIFU_FMT_CSA;
    kifu_record **rs = NULL;
    size_t count = 0;
    kifu_error err;
    kifu_error_clear(&err);
    int rc = kifu_read_all(s, l1 + l2 + 2, &o, &rs, &count, &err);
    CHECK_INT(rc, -1);
    CHECK_INT(err.line, lines1 + 1 + line2);
    CHECK_INT(err.column, 1);
    if (rc == 0) {
        for (size_t i = 0; i < count; i++)
            kifu_record_free(rs[i]);
        kifu_free(rs);
    }
    free(s), free(g1), free(g2);
}

/* ---- deep trees ---- */

/* Walk r: the ENTER count, and the greatest ply entered. */
static long walk_count(const kifu_record *r, int *maxply)
{
    kifu_error err;
    kifu_walker *w = kifu_walk_new(r, 0, &err);
    long k = 0;
    int ev;
    *maxply = 0;
    while ((ev = kifu_walk_next(w)) > 0)
        if (ev == KIFU_WALK_ENTER) {
            k++;
            int p = kifu_node_ply(kifu_walk_node(w));
            if (p > *maxply)
                *maxply = p;
        }
    kifu_walk_free(w);
    return ev == 0 ? k : -1;
}

/* Clone, JKF out and back (normalized), each equal to r. */
static void deep_round_trip(kifu_record *r, long count)
{
    kifu_record *c = kifu_record_clone(r);
    CHECK(c != NULL);
    CHECK_INT(trees_equal(r, c), count);
    kifu_record_free(c);
    kifu_error err;
    size_t len = 0;
    char *jkf = t_write_as(r, KIFU_FMT_JKF, KIFU_ENC_UTF8, &len, &err);
    CHECK(jkf != NULL);
    if (!jkf)
        return;
    kifu_record *back = t_read_text(jkf, len, KIFU_FMT_JKF, 0, &err);
    CHECK(back != NULL);
    if (back) {
        CHECK_INT(kifu_record_node_count(back), count);
        CHECK_INT(trees_equal(r, back), count);
    } else {
        printf("    read back: %s\n", err.message);
    }
    kifu_record_free(back);
    kifu_free(jkf);
}

TEST(deep_100000_nested_forks)
{
    enum { LEVELS = 100000 };
    static const char *const cycle[4][2] = {
        {"5i5h", "5i4h"}, {"5a5b", "5a4b"}, {"4h5h", "4h5i"}, {"4b5b", "4b5a"}};
    kifu_record *r = kifu_record_new();
    kifu_position *p = kifu_position_new();
    kifu_move a[4], b[4];
    for (int i = 0; i < 4; i++) { /* the positions repeat every 4 levels */
        kifu_position_parse_usi(p, cycle[i][0], &a[i], NULL);
        kifu_position_parse_usi(p, cycle[i][1], &b[i], NULL);
        kifu_position_play(p, &b[i], NULL);
    }
    kifu_position_free(p);
    kifu_node *n = kifu_record_root(r);
    int made = 1;
    for (int i = 0; i < LEVELS && n; i++) {
        /* The dead end first (child 0), then the fork under which the next level goes. */
        kifu_node *dead = kifu_node_add_move(r, n, &a[i % 4]);
        kifu_node *fork = kifu_node_add_move(r, n, &b[i % 4]);
        if (!dead || !fork || kifu_node_ply(fork) != i + 1 ||
            kifu_node_index(fork) != 1) {
            CHECK(0);
            break;
        }
        made += 2;
        n = fork;
    }
    CHECK_INT(kifu_record_node_count(r), 2 * LEVELS + 1);
    CHECK_INT(made, 2 * LEVELS + 1);
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu_normalize(r, 0, &err), 0);
    int maxply;
    CHECK_INT(walk_count(r, &maxply), 2 * LEVELS + 1);
    CHECK_INT(maxply, LEVELS);
    deep_round_trip(r, 2 * LEVELS + 1);
    kifu_record_free(r);
}

TEST(deep_500000_move_line)
{
    enum { MOVES = 500000 };
    kifu_record *r = kifu_record_new();
    kifu_position *p = kifu_position_new();
    kifu_move mv[4];
    for (int i = 0; i < 4; i++) {
        kifu_position_parse_usi(p, usi_cycle[i], &mv[i], NULL);
        kifu_position_play(p, &mv[i], NULL);
    }
    kifu_position_free(p);
    kifu_node *n = kifu_record_root(r);
    for (int i = 0; i < MOVES && n; i++)
        n = kifu_node_add_move(r, n, &mv[i % 4]);
    CHECK(n != NULL);
    CHECK_INT(kifu_record_node_count(r), MOVES + 1);
    CHECK_INT(n ? kifu_node_ply(n) : -1, MOVES);
    /* Each node's ply and id along the line. */
    long bad = 0, k = 0;
    for (const kifu_node *x = kifu_record_root(r); x; x = kifu_node_next(x), k++)
        if (kifu_node_ply(x) != k || kifu_node_id(x) != (size_t)k ||
            kifu_node_child_count(x) != (x == n ? 0u : 1u))
            bad++;
    CHECK_INT(bad, 0);
    CHECK_INT(k, MOVES + 1);
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu_normalize(r, 0, &err), 0);
    int maxply;
    CHECK_INT(walk_count(r, &maxply), MOVES + 1);
    CHECK_INT(maxply, MOVES);
    deep_round_trip(r, MOVES + 1);
    kifu_record_free(r);
}

/* ---- texts ---- */

/* Comments, bookmarks on every node of page 1 (ids 407..813), added in the given order
 * (0: creation order, 1: reverse, 2: interleaved from both ends), plus endings as forks. */
static void texts_on_page(int order)
{
    kifu_record *r = kifu_record_new();
    kifu_node **nodes = malloc(3 * PAGE * sizeof *nodes);
    kifu_node *n = kifu_record_root(r);
    nodes[0] = n;
    kifu_move m = t_move_make(0, 7, 7, 7, 6, KIFU_FU, 0, -1, -1, "", 0);
    for (int i = 1; i < 3 * PAGE; i++)
        nodes[i] = n = kifu_node_add_move(r, n, &m);
    char buf[64];
    for (int k = 0; k < PAGE; k++) {
        int i = order == 0   ? PAGE + k
                : order == 1 ? 2 * PAGE - 1 - k
                : k % 2      ? 2 * PAGE - 1 - k / 2
                             : PAGE + k / 2;
        for (int j = 0; j <= i % 3; j++) {
            snprintf(buf, sizeof buf, "comment %d.%d", i, j);
            CHECK_INT(kifu_node_add_comment(r, nodes[i], buf), 0);
        }
        if (i % 5 == 0) {
            snprintf(buf, sizeof buf, "mark%d", i);
            CHECK_INT(kifu_node_add_bookmark(r, nodes[i], buf), 0);
        }
    }
    /* An ending forking off every 4th node of page 1 and comments on the endings. */
    kifu_node *ends[PAGE];
    static const char *const words[] = {"TORYO", "CHUDAN", "SENNICHITE", "独自の終局"};
    for (int i = PAGE; i < 2 * PAGE; i += 4) {
        ends[i - PAGE] = kifu_node_add_special(r, nodes[i], words[(i / 4) % 4]);
        CHECK(ends[i - PAGE] != NULL);
        snprintf(buf, sizeof buf, "end %d", i);
        CHECK_INT(kifu_node_add_comment(r, ends[i - PAGE], buf), 0);
    }
    /* A comment added late to a node of page 1 that had a text already. */
    CHECK_INT(kifu_node_add_comment(r, nodes[PAGE + 200], "late"), 0);
    int bad = 0;
    for (int i = 0; i < 3 * PAGE; i++) {
        size_t want = i >= PAGE && i < 2 * PAGE ? (size_t)(i % 3 + 1) : 0;
        if (i == PAGE + 200)
            want++;
        if (kifu_node_comment_count(nodes[i]) != want) {
            if (bad++ < 5)
                printf("    order %d: node %d has %zu comments, want %zu\n", order, i,
                       kifu_node_comment_count(nodes[i]), want);
            continue;
        }
        for (size_t j = 0; j < want; j++) {
            if (i == PAGE + 200 && j == want - 1)
                snprintf(buf, sizeof buf, "late");
            else
                snprintf(buf, sizeof buf, "comment %d.%zu", i, j);
            const char *c = kifu_node_comment(nodes[i], j);
            if (!c || strcmp(c, buf) != 0) {
                if (bad++ < 5)
                    printf("    order %d: node %d comment %zu is \"%s\", want \"%s\"\n",
                           order, i, j, c ? c : "(null)", buf);
            }
        }
        int marked = i >= PAGE && i < 2 * PAGE && i % 5 == 0;
        snprintf(buf, sizeof buf, "mark%d", i);
        if (kifu_node_bookmark_count(nodes[i]) != (size_t)marked ||
            (marked && strcmp(kifu_node_bookmark(nodes[i], 0), buf) != 0)) {
            if (bad++ < 5)
                printf("    order %d: node %d bookmarks wrong\n", order, i);
        }
        if (kifu_node_special(nodes[i]) != NULL)
            bad++;
    }
    for (int i = PAGE; i < 2 * PAGE; i += 4) {
        const kifu_node *e = ends[i - PAGE];
        snprintf(buf, sizeof buf, "end %d", i);
        if (kifu_node_child(nodes[i], 1) != e ||
            kifu_node_kind_of(e) != KIFU_NODE_SPECIAL || !kifu_node_special(e) ||
            strcmp(kifu_node_special(e), words[(i / 4) % 4]) != 0 ||
            kifu_node_comment_count(e) != 1 ||
            strcmp(kifu_node_comment(e, 0), buf) != 0) {
            if (bad++ < 5)
                printf("    order %d: the ending under %d is wrong (\"%s\")\n", order, i,
                       kifu_node_special(e) ? kifu_node_special(e) : "(null)");
        }
    }
    CHECK_INT(bad, 0);
    kifu_record *c = kifu_record_clone(r);
    CHECK_INT(trees_equal(r, c), kifu_record_node_count(r));
    kifu_record_free(c);
    /* Cleared comments leave bookmarks and endings. */
    kifu_node_clear_comments(nodes[PAGE + 8]);
    CHECK_INT(kifu_node_comment_count(nodes[PAGE + 8]), 0);
    CHECK_INT(kifu_node_bookmark_count(nodes[PAGE + 8]), 1);
    CHECK_INT(kifu_node_comment_count(nodes[PAGE + 4]), (PAGE + 4) % 3 + 1);
    free(nodes);
    kifu_record_free(r);
}

TEST(texts_every_node_of_a_page_in_order)
{
    texts_on_page(0);
}
TEST(texts_every_node_of_a_page_in_reverse)
{
    texts_on_page(1);
}
TEST(texts_every_node_of_a_page_from_both_ends)
{
    texts_on_page(2);
}

/* Endings as the first node of a page and its last, and a comment on the root. */
TEST(texts_specials_at_page_ends)
{
    kifu_record *r = kifu_record_new();
    kifu_node *n = kifu_record_root(r);
    CHECK_INT(kifu_node_add_comment(r, n, "root"), 0);
    kifu_move m = t_move_make(0, 7, 7, 7, 6, KIFU_FU, 0, -1, -1, "", 0);
    while (kifu_record_node_count(r) < PAGE - 1)
        n = kifu_node_add_move(r, n, &m);
    kifu_node *e1 = kifu_node_add_special(r, n, "TORYO"); /* slot 406 */
    kifu_node *e2 = kifu_node_add_special(r, n, "KACHI"); /* slot 0 of page 1 */
    CHECK_INT(kifu_node_id(e1), PAGE - 1);
    CHECK_INT(kifu_node_id(e2), PAGE);
    CHECK_INT(kifu_node_add_bookmark(r, e1, "b1"), 0);
    CHECK_INT(kifu_node_add_comment(r, e2, "c2"), 0);
    CHECK_STR(kifu_node_special(e1), "TORYO");
    CHECK_STR(kifu_node_special(e2), "KACHI");
    CHECK_STR(kifu_node_bookmark(e1, 0), "b1");
    CHECK_STR(kifu_node_comment(e2, 0), "c2");
    CHECK_STR(kifu_node_comment(kifu_record_root(r), 0), "root");
    CHECK_INT(kifu_node_comment_count(e1), 0);
    CHECK_INT(kifu_node_ply(e2), PAGE - 1);
    CHECK(kifu_node_parent(e2) == n);
    kifu_record *c = kifu_record_clone(r);
    CHECK_INT(trees_equal(r, c), PAGE + 1);
    kifu_record_free(c);
    kifu_record_free(r);
}

int main(void)
{
    RUN(move_squares_round_trip_by_add_move);
    RUN(move_fields_round_trip_by_set_move);
    RUN(move_refusals);
    RUN(links_across_pages_forks_and_edits);
    RUN(links_random_edits);
    RUN(links_tree_made_breadth_first);
    RUN(src_usi_long_line);
    RUN(src_usi_distance_limits);
    RUN(src_csa_long_comments);
    RUN(src_csa_joined_statements);
    RUN(src_kif_variation);
    RUN(src_kif_nested_variations_and_comments);
    RUN(src_survives_edits);
    RUN(src_line_cut_and_regrown);
    RUN(src_csa_second_game);
    RUN(src_jkf_forks);
    RUN(jkf_forks_before_the_move_same_tree);
    RUN(src_ki2_variation);
    RUN(deep_100000_nested_forks);
    RUN(deep_500000_move_line);
    RUN(texts_every_node_of_a_page_in_order);
    RUN(texts_every_node_of_a_page_in_reverse);
    RUN(texts_every_node_of_a_page_from_both_ends);
    RUN(texts_specials_at_page_ends);
    return t_finish();
}
