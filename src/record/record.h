/* record.h: the bodies of kifu_record and kifu_node (see kifu.h for the model). */
#ifndef KIFU_RECORD_H
#define KIFU_RECORD_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/arena.h"
#include "kifu.h"

typedef struct kifu__header_entry {
    const char *key;
    const char *value;
} kifu__header_entry;

/* What few nodes have, in the arena, made when first needed: comments, bookmarks, the
 * word of an ending. */
typedef struct kifu__node_text {
    const char **comments;
    uint32_t ncomments, capcomments;
    const char **bookmarks;
    uint32_t nbookmarks, capbookmarks;
    const char *special;  /* a SPECIAL node's word */
    kifu_move_time *time; /* a time that does not pack (see kifu__ptime) */
    const char *sid;      /* the position's ID a posjson document gave (seeds/002) */
    int sid_number;       /* sid was a JSON number: its literal, written back as one */
} kifu__node_text;

/* A node is 10 bytes: what every pass over the moves reads (kind, move, ply) and nothing
 * else. A 1,000,000-move game once took 112 bytes a move, then 32 (links, a 14-byte
 * kifu_move), 4 to 9 times its file; issue 17 asks for at most 4, and a SFEN file gives
 * 5 bytes a move. So:
 * - the move is packed in 37 bits (kifu__move_get/kifu__move_put below): squares as
 *   x * 10 + y, the relative word as a side and a direction; kifu_node_get_move gives
 *   it as a value;
 * - links are implicit on a line: a node's parent is the node made just before it, its
 *   first child (fc) the node made just after it, and it has no sibling. A node whose
 *   links are other (a fork, a line read out of order, an edit) is marked xl, and its
 *   links are ids + 1 (0: none) in its page's side part (kifu__links);
 * - nodes live in 4 KiB pages (kifu__page) that start with a header naming the record
 *   and the page's first id, so a kifu_node * stays a stable pointer, and its id, its
 *   record and any linked node are found from the pointer alone;
 * - where a move's text began (for an error found by the normalizer) is a byte: the
 *   distance from the node made before it, or 255 when the page's side part holds the
 *   offset whole (see kifu__node_src);
 * - what only some records or nodes have lives beside the nodes, per page, made when a
 *   node of the page first needs it: times (SFEN and KI2 hold none), links, whole
 *   offsets, comments, bookmarks and ending words.
 * The ply takes 25 bits: a line is at most KIFU__PLY_MAX moves. */
struct __attribute__((packed)) kifu_node {
    uint64_t mv : 37;       /* the move, packed (kifu__move_put) */
    uint64_t ply : 25;      /* 0 for the root */
    uint64_t kind : 2;      /* kifu_node_kind */
    uint64_t has_time : 1;  /* the page's times hold this node's */
    uint64_t foul : 3;      /* kifu_foul: a forbidden move that ended its line */
    uint64_t has_text : 1;  /* the page's texts hold this node's (kifu__text) */
    uint64_t has_total : 1; /* of its time (kifu__ptime) */
    uint64_t xl : 1;        /* its links are in the page's side part */
    uint64_t fc : 1;        /* not xl: its first child is the next node made */
    uint64_t src : 8;       /* where its text began (kifu__node_src) */
};
_Static_assert(sizeof(kifu_node) == 10, "a node is 10 bytes: a page holds 407");

enum {
    KIFU__PAGE_BYTES = 4096,
    KIFU__PAGE_HEAD = 24, /* sizeof(kifu__page): the nodes follow it */
    KIFU__PAGE_NODES = (KIFU__PAGE_BYTES - KIFU__PAGE_HEAD) / sizeof(kifu_node),
};
#define KIFU__PLY_MAX ((1 << 25) - 1)

/* Per page, made when a node of the page first needs one of them: arrays indexed by the
 * node's slot (0 .. KIFU__PAGE_NODES - 1), each NULL until then. */
/* A time span in 6 bytes: kifu_time's fields narrowed (h from -1, m, s to 255, ms to
 * 65535), read and written with no arithmetic. */
typedef struct kifu__t6 {
    int16_t h;
    uint8_t m, s;
    uint16_t ms;
} kifu__t6;
/* A move's time packed in 12 bytes instead of 36 (CSA and KIF give one per move); the
 * node says whether total was given (has_total). h == KIFU__T6_FULL in `now`: a field did
 * not fit (a JKF may give 60,000,000 minutes), and the node's text part holds the time
 * whole. */
typedef struct kifu__ptime {
    kifu__t6 now, total;
} kifu__ptime;
#define KIFU__T6_FULL INT16_MIN

/* The links of an xl node: ids + 1, 0 for none. */
typedef struct kifu__links {
    uint32_t parent, first, next;
} kifu__links;

/* What few nodes of a page have, by slot (ascending): a list, not an array of a page's
 * slots, as most pages have one or two (an ending's word, a comment). */
typedef struct kifu__slot_entry {
    uint32_t slot;
    uint32_t offset;       /* src: a whole offset (the node's src is 255) */
    kifu__node_text *text; /* text: the node's comments, bookmarks, word */
} kifu__slot_entry;
typedef struct kifu__slot_list {
    kifu__slot_entry *v;
    uint32_t n, cap;
} kifu__slot_list;
/* The entry of slot in l, or NULL. */
kifu__slot_entry *kifu__slot_find(const kifu__slot_list *l, uint32_t slot);

typedef struct kifu__page_side {
    kifu__ptime *times;
    kifu__links *links;
    kifu__slot_list text, src;
    uint32_t src_slot; /* the slot whose offset was noted last, + 1 (0: none yet) */
    uint32_t src_off;  /* and that offset */
} kifu__page_side;

/* The header at the start of every page. */
typedef struct kifu__page {
    kifu_record *rec;
    kifu__page_side *side; /* NULL: no node of the page has a time, link, src or text */
    uint32_t base;         /* id of the page's first node */
    uint32_t run;          /* pages of the allocation this page starts; 0: not a start */
} kifu__page;
_Static_assert(sizeof(kifu__page) == KIFU__PAGE_HEAD, "the page header's size");

struct kifu_record {
    kifu__arena arena;
    kifu__header_entry *header;
    size_t nheader, capheader;
    int preset;   /* kifu_preset */
    int has_data; /* initial board given explicitly (preset OTHER) */
    kifu_board initial;
    kifu_node *root;
    size_t nnodes;
    kifu__page **pages; /* page i holds ids i * KIFU__PAGE_NODES .. */
    size_t npages, cappages;
    size_t free_pages; /* pages allocated but not yet used, after the last one used */
    kifu_node *slot_next, *slot_end; /* the last page's free slots */
    /* The text the record was read from, until it is normalized (the normalizer reports
     * an illegal move at its line and column from the offset a reader noted); else
     * NULL. A reference: the records of one input share it. */
    struct kifu__input *input;
    /* Some node got a second child (never reset): without forks the hot passes follow
     * child 0 instead of walking the tree (see kifu__record_is_line). */
    int forked;
    /* So many nodes that a ply could pass KIFU__PLY_MAX (kifu__node_add_child checks). */
    int deep;
    /* Read from JKF: the normalizer names a move by its JSON path (moves[3].forks[0][1])
     * and checks the fields JKF may give against the position (capture, same,
     * relative), the piece may be the kind after the move (CSA-level JKF). */
    int from_jkf;
    /* Read from CSA's N+ / N-: the sides were named by sign, so 先手/後手 are the
     * reader's keys, not the record's words; a handicap game of it says 下手/上手. */
    int sides_by_sign;
    /* The SFEN move number of the start position (0 or 1: the first move is 1). */
    int start_number;
    /* sids set on its nodes (kifu__node_set_sid; a node cut since may have taken one):
     * 0 spares a writer's walk looking for them (kifu__warn_lost_sids). */
    size_t nsids;
};

/* The page of node n, its first node, and n's slot in it. */
static inline kifu__page *kifu__page_of(const kifu_node *n)
{
    return (kifu__page *)((uintptr_t)n & ~(uintptr_t)(KIFU__PAGE_BYTES - 1));
}
static inline kifu_node *kifu__page_nodes(const kifu__page *pg)
{
    return (kifu_node *)(void *)((unsigned char *)pg + KIFU__PAGE_HEAD);
}
static inline uint32_t kifu__slot_of(const kifu_node *n)
{
    return (uint32_t)(n - kifu__page_nodes(kifu__page_of(n)));
}
static inline uint32_t kifu__id_of(const kifu_node *n)
{
    return kifu__page_of(n)->base + kifu__slot_of(n);
}

/* The links of n (ids + 1, 0 for none): stored when xl, else implied (see above). */
static inline kifu__links *kifu__xlinks(const kifu_node *n)
{
    return &kifu__page_of(n)->side->links[kifu__slot_of(n)];
}
static inline uint32_t kifu__parent_link(const kifu_node *n)
{
    return n->xl ? kifu__xlinks(n)->parent : kifu__id_of(n); /* the root's id is 0 */
}
static inline uint32_t kifu__first_link(const kifu_node *n)
{
    return n->xl ? kifu__xlinks(n)->first : n->fc ? kifu__id_of(n) + 2 : 0;
}
static inline uint32_t kifu__next_link(const kifu_node *n)
{
    return n->xl ? kifu__xlinks(n)->next : 0;
}

/* The node of a link of n's record (id + 1), or NULL for 0. Links mostly stay in their
 * page: the next move of a line is the next slot. */
static inline kifu_node *kifu__link(const kifu_node *n, uint32_t link)
{
    if (!link)
        return NULL;
    const kifu__page *pg = kifu__page_of(n);
    uint32_t id = link - 1;
    if (id - pg->base < KIFU__PAGE_NODES)
        return kifu__page_nodes(pg) + (id - pg->base);
    kifu__page *to = pg->rec->pages[id / KIFU__PAGE_NODES];
    return kifu__page_nodes(to) + id % KIFU__PAGE_NODES;
}
static inline kifu_node *kifu__parent(const kifu_node *n)
{
    return kifu__link(n, kifu__parent_link(n));
}
/* Child 0 (the line's continuation), or NULL. */
static inline kifu_node *kifu__first(const kifu_node *n)
{
    if (!n->xl) /* a line: the next slot, mostly in the same page (by n's address) */
        return !n->fc ? NULL
               : ((uintptr_t)n & (KIFU__PAGE_BYTES - 1)) + 2 * sizeof(kifu_node) <=
                       KIFU__PAGE_HEAD + KIFU__PAGE_NODES * sizeof(kifu_node)
                   ? (kifu_node *)n + 1
                   : kifu__link(n, kifu__id_of(n) + 2);
    return kifu__link(n, kifu__xlinks(n)->first);
}
/* The next child of n's parent, or NULL. */
static inline kifu_node *kifu__sibling(const kifu_node *n)
{
    return n->xl ? kifu__link(n, kifu__xlinks(n)->next) : NULL;
}
/* Does n have a fork (a second child)? */
static inline int kifu__forked(const kifu_node *n)
{
    kifu_node *c = kifu__first(n);
    return c && kifu__next_link(c);
}
/* Is n child 0 of its parent? (the root too) */
static inline int kifu__is_first(const kifu_node *n)
{
    const kifu_node *p = kifu__parent(n);
    return !p || kifu__first_link(p) == kifu__id_of(n) + 1;
}
/* Child i of n, or NULL (walks the siblings: forks are few). */
static inline kifu_node *kifu__child(const kifu_node *n, size_t i)
{
    kifu_node *c = kifu__first(n);
    while (c && i--)
        c = kifu__sibling(c);
    return c;
}

/* The packed move (kifu_node.mv), bit by bit: color 0, from 1-7 and to 8-14 (x * 10 +
 * y), piece 15-18, capture 19-22, promote + 1 23-24, same + 1 25-26, the relative word's
 * side 27-28 (L C R) and direction 29-31 (U M D H), flags 32-36 (KIFU_MOVE_* and
 * KIFU__MOVE_FROM_NULL as bit 4). */
/* A private bit of kifu_move.flags: the JKF source wrote `"from": null` for this drop (kept
 * so that JKF -> record -> JKF gives the same JSON value). */
#define KIFU__MOVE_FROM_NULL 0x80

/* Tables of the packed move (record.c): a square's x and y (x | y << 8) by x * 10 + y
 * (0..99), the engine's square by the same (-1 for 0, -2 for no square), and the
 * relative word's letters (as two bytes) by its 5 bits. */
extern const uint16_t kifu__mv_xy[128];
extern const int8_t kifu__mv_sq[128];
extern const uint16_t kifu__mv_rel[32];

/* The move of node n (a MOVE node), unpacked into *m. Inline, by tables, and written
 * as two words where bytes are little-endian: writers and the normalizer take one per
 * move, and thirteen byte stores were a fifth of reading a CSA move (callgrind). */
static inline void kifu__move_get(const kifu_node *n, kifu_move *m)
{
    uint64_t v = n->mv;
    unsigned from = (v >> 1) & 127, to = (v >> 8) & 127, f = (v >> 32) & 31,
             r = (v >> 27) & 31;
    uint64_t w0 = (v & 1) | (uint64_t)kifu__mv_xy[from] << 8 |
                  (uint64_t)kifu__mv_xy[to] << 24 | ((v >> 15) & 15) << 40 |
                  ((v >> 19) & 15) << 48 | (uint64_t)(uint8_t)(((v >> 23) & 3) - 1) << 56;
    uint64_t w1 = (uint8_t)(((v >> 25) & 3) - 1) | (uint64_t)kifu__mv_rel[r] << 8 |
                  (uint64_t)((f & 15) | (f & 16) << 3) << 32; /* bit 4: FROM_NULL */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(m, &w0, 8);
    memcpy((unsigned char *)m + 8, &w1, 5);
#else
    for (int i = 0; i < 8; i++)
        ((unsigned char *)m)[i] = (unsigned char)(w0 >> 8 * i);
    for (int i = 0; i < 5; i++)
        ((unsigned char *)m)[8 + i] = (unsigned char)(w1 >> 8 * i);
#endif
}
_Static_assert(sizeof(kifu_move) == 13 && offsetof(kifu_move, promote) == 7 &&
                   offsetof(kifu_move, same) == 8 && offsetof(kifu_move, relative) == 9 &&
                   offsetof(kifu_move, flags) == 12,
               "kifu__move_get writes kifu_move as two words");

/* Can m be packed? 0, or -1 when a field is out of what a node holds (squares 0..9,
 * kinds 0..15, promote and same -1..1, a relative word of JKF's letters, known flags). */
int kifu__move_check(const kifu_move *m);

/* The 5 bits of a relative word: side (0, L, C, R) and direction (0, U, M, D, H). */
static inline unsigned kifu__mv_rel_code(const char *r)
{
    if (!r[0])
        return 0;
    unsigned side = r[0] == 'L' ? 1 : r[0] == 'C' ? 2 : r[0] == 'R' ? 3 : 0;
    char d = side ? r[1] : r[0];
    unsigned dir = d == 'U' ? 1 : d == 'M' ? 2 : d == 'D' ? 3 : d == 'H' ? 4 : 0;
    return side | dir << 2;
}

/* The packed bits of a move from its fields: squares as x * 10 + y, promote and same
 * -1..1, rel a kifu__mv_rel_code, flags KIFU_MOVE_* and KIFU__MOVE_FROM_NULL. */
static inline uint64_t kifu__mv_bits(unsigned color, unsigned from, unsigned to,
                                     unsigned piece, unsigned capture, int promote,
                                     int same, unsigned rel, unsigned flags)
{
    return (uint64_t)color | (uint64_t)from << 1 | (uint64_t)to << 8 |
           (uint64_t)piece << 15 | (uint64_t)capture << 19 |
           (uint64_t)(unsigned)(promote + 1) << 23 |
           (uint64_t)(unsigned)(same + 1) << 25 | (uint64_t)rel << 27 |
           (uint64_t)((flags & 15) | (flags & KIFU__MOVE_FROM_NULL) >> 3) << 32;
}
/* The relative word's 5 bits of a packed move. */
static inline unsigned kifu__mv_rel_of(const kifu_node *n)
{
    return (unsigned)(n->mv >> 27) & 31;
}

/* Pack m, which kifu__move_check accepts (readers and the normalizer make only such
 * moves), into node n. */
static inline void kifu__move_put(kifu_node *n, const kifu_move *m)
{
    n->mv = kifu__mv_bits(m->color, m->from_x * 10u + m->from_y, m->to_x * 10u + m->to_y,
                          m->piece, m->capture, m->promote, m->same,
                          kifu__mv_rel_code(m->relative), m->flags);
}

/* The KIFU_MOVE_* flags (and KIFU__MOVE_FROM_NULL) of n's move; set more of them. */
static inline unsigned kifu__move_flags(const kifu_node *n)
{
    unsigned f = (unsigned)(n->mv >> 32) & 31;
    return (f & 15) | (f & 16) << 3;
}
static inline void kifu__move_flag(kifu_node *n, unsigned f)
{
    n->mv |= (uint64_t)((f & 15) | (f & KIFU__MOVE_FROM_NULL) >> 3) << 32;
}
static inline void kifu__move_unflag(kifu_node *n, unsigned f)
{
    n->mv &= ~((uint64_t)((f & 15) | (f & KIFU__MOVE_FROM_NULL) >> 3) << 32);
}
/* The square a move went to, as SQ-style file and rank: the 同 of the next move. */
static inline void kifu__move_to(const kifu_node *n, int *x, int *y)
{
    unsigned to = (unsigned)(n->mv >> 8) & 127;
    *x = kifu__mv_xy[to] & 255, *y = kifu__mv_xy[to] >> 8;
}

/* The comments, bookmarks and word of n, or NULL when it has none. */
static inline kifu__node_text *kifu__text(const kifu_node *n)
{
    return n->has_text
               ? kifu__slot_find(&kifu__page_of(n)->side->text, kifu__slot_of(n))->text
               : NULL;
}
/* The word of a SPECIAL node ("" if it has none). */
static inline const char *kifu__special(const kifu_node *n)
{
    kifu__node_text *t = kifu__text(n);
    return t && t->special ? t->special : "";
}
/* n's text part, made when first needed; NULL on NOMEM. */
kifu__node_text *kifu__text_make(kifu_node *n);
/* The ID a position-list document gave n's position (`sid`, a string or a number's
 * literal, *number saying which; may be NULL), or NULL when it gave none. Kept so that
 * the document's own links (#sid=q1-ok) still reach the position after kifu wrote it. */
const char *kifu__node_sid(const kifu_node *n, int *number);
/* Set it (copied). 0, or -1 on NOMEM. */
int kifu__node_set_sid(kifu_record *r, kifu_node *n, const char *sid, int number);

/* n's packed time, for a reader to fill in (node bits too), now marked present; NULL
 * on NOMEM. Inline: CSA and KIF readers set a time per move; the page's times are made
 * out of line (kifu__ptime_page), once per page. */
kifu__ptime *kifu__ptime_page(kifu_node *n);
static inline kifu__ptime *kifu__ptime_make(kifu_node *n)
{
    kifu__page *pg = kifu__page_of(n);
    if (__builtin_expect(!pg->side || !pg->side->times, 0))
        return kifu__ptime_page(n);
    n->has_time = 1;
    return &pg->side->times[kifu__slot_of(n)];
}
/* n's packed time (n->has_time). */
static inline kifu__ptime *kifu__ptime_of(const kifu_node *n)
{
    return &kifu__page_of(n)->side->times[kifu__slot_of(n)];
}

/* Narrow t into *o: 1, or 0 when a field does not fit. */
static inline int kifu__t6_pack(kifu__t6 *o, const kifu_time *t)
{
    if (t->h < -1 || t->h > INT16_MAX || (unsigned)t->m > 255 || (unsigned)t->s > 255 ||
        (unsigned)t->ms > 65535)
        return 0;
    o->h = (int16_t)t->h;
    o->m = (uint8_t)t->m;
    o->s = (uint8_t)t->s;
    o->ms = (uint16_t)t->ms;
    return 1;
}
static inline kifu_time kifu__t6_unpack(const kifu__t6 *t)
{
    return (kifu_time){t->h, t->m, t->s, t->ms};
}

/* Set n's time (packed, or whole in its text part when it does not pack). 0, or -1 on
 * NOMEM. Inline when it packs (the KIF reader sets one per move); kifu__time_set_full
 * keeps a time whole. */
int kifu__time_set_full(kifu_node *n, const kifu_move_time *t);
static inline int kifu__time_set(kifu_node *n, const kifu_move_time *t)
{
    kifu__t6 now, total = {-1, 0, 0, 0};
    if (__builtin_expect(!kifu__t6_pack(&now, &t->now) || now.h == KIFU__T6_FULL ||
                             (t->has_total && !kifu__t6_pack(&total, &t->total)),
                         0))
        return kifu__time_set_full(n, t);
    kifu__ptime *p = kifu__ptime_make(n);
    if (!p)
        return -1;
    p->now = now;
    p->total = total;
    n->has_total = t->has_total != 0;
    if (n->has_text)
        kifu__text(n)->time = NULL; /* no longer whole */
    return 0;
}
/* n's time into *out (may be NULL): 1, or 0 when it has none. */
int kifu__time_get_full(const kifu_node *n, kifu_move_time *out);
static inline int kifu__time_get(const kifu_node *n, kifu_move_time *out)
{
    if (!n->has_time)
        return 0;
    const kifu__ptime *p = kifu__ptime_of(n);
    if (!out || __builtin_expect(p->now.h == KIFU__T6_FULL, 0))
        return kifu__time_get_full(n, out);
    out->now = kifu__t6_unpack(&p->now);
    out->total = n->has_total ? kifu__t6_unpack(&p->total) : (kifu_time){-1, 0, 0, 0};
    out->has_total = n->has_total;
    return 1;
}

/* Note that the text of node n begins at byte `offset` of the reader's input (the text
 * kifu_read decodes and keeps until its normalizer is done: an illegal move found then
 * is reported at its line and column; see kifu__node_where). A NOMEM here only loses the
 * place. */
void kifu__node_src_page(kifu_node *n, size_t offset);
static inline void kifu__node_src(kifu_node *n, size_t offset)
{
    /* A reader notes its nodes in the order it makes them: mostly a byte, the distance
     * from the node before (SFEN 5, CSA 11, KIF 40 bytes a move). */
    kifu__page_side *sd = kifu__page_of(n)->side;
    uint32_t slot = kifu__slot_of(n);
    if (__builtin_expect(sd && sd->src_slot == slot && offset >= sd->src_off &&
                             offset - sd->src_off < 254 && slot,
                         1)) {
        n->src = (unsigned)(offset - sd->src_off) + 1;
        sd->src_slot = slot + 1;
        sd->src_off = (uint32_t)offset;
    } else {
        kifu__node_src_page(n, offset);
    }
}
/* Where n's text began: 1 and the byte offset, or 0 when not known. */
int kifu__node_src_get(const kifu_node *n, size_t *offset);

/* The decoded text of an input, shared by the records read from it until each is
 * normalized or freed; atomic, because two threads may normalize two of them. Text that
 * needed no decoding is the caller's bytes, borrowed while kifu_read runs: a second copy
 * of a large file was most of the peak memory of reading it. */
typedef struct kifu__input {
    const char *text;
    size_t len;
    char *own; /* text when the input owns it (freed with it); NULL while borrowed */
    atomic_size_t refs;
} kifu__input;

/* An input holding text (ownership passes: freed with the last reference), with one
 * reference; NULL on NOMEM (text is not freed then). */
kifu__input *kifu__input_new(char *text, size_t len);
/* An input borrowing text, which must outlive it or be copied by kifu__input_own. */
kifu__input *kifu__input_borrow(const char *text, size_t len);
/* Copy a borrowed text into the input (before the caller's bytes go while records still
 * hold it); owned already: nothing. Not while another thread reads it. 0, or -1 (NOMEM). */
int kifu__input_own(kifu__input *in);
/* How many references in has (1: only its maker's). */
static inline size_t kifu__input_refs(kifu__input *in)
{
    return atomic_load_explicit(&in->refs, memory_order_acquire);
}
/* Drop a reference (NULL is fine). */
void kifu__input_release(kifu__input *in);
/* Give r a reference to in (NULL: none), dropping the one it had. */
void kifu__record_set_input(kifu_record *r, kifu__input *in);

/* Is every node's only child its line's next one (no fork anywhere)? */
static inline int kifu__record_is_line(const kifu_record *r)
{
    return !r->forked;
}

/* The starting board of a preset (KIFU_PRESET_HIRATE .. before OTHER), built once per
 * process: readers and the normalizer ask for it per record. NULL for other values. */
const kifu_board *kifu__preset_ref(int preset);
/* kifu_preset_match against those boards. */
int kifu__preset_match_ref(const kifu_board *b);
/* Is the preset one every reader kifu's output is checked with knows by name? tsshogi
 * (ShogiHome) has no 三枚落ち, 五枚落ち, 左五枚落ち, 左七枚落ち, 右七枚落ち: the KIF and KI2
 * writers give those as a board diagram as well. */
static inline int kifu__preset_common(int preset)
{
    return preset != KIFU_PRESET_3 && preset != KIFU_PRESET_5 &&
           preset != KIFU_PRESET_5_L && preset != KIFU_PRESET_7_L &&
           preset != KIFU_PRESET_7_R;
}

/* Start a new page of nodes (the record's last slots are used): 0, or -1 on NOMEM or
 * when the 32-bit ids would run out. */
int kifu__record_add_page(kifu_record *r);

/* Node creation is inline, as readers make one per move: out of line it was two calls a
 * move, a tenth of reading a CSA file (callgrind, issue 9). */

/* A new node of kind at ply, all else zero, no links; NULL on NOMEM. */
static inline kifu_node *kifu__node_new(kifu_record *r, int kind, uint32_t ply)
{
    if (__builtin_expect(r->slot_next == r->slot_end, 0) && kifu__record_add_page(r))
        return NULL;
    kifu_node *n = r->slot_next++;
    *n =
        (kifu_node){.ply = ply, .kind = (unsigned)kind}; /* one store, not a field each */
    r->nnodes++;
    return n;
}

/* Link n, the node made last, as parent's last child, out of line (a fork, or a parent
 * that is not the node made before n). 0, or -1 on NOMEM. */
int kifu__node_link_slow(kifu_record *r, kifu_node *parent, kifu_node *n);

/* A new node of kind as parent's last child; NULL on NOMEM, or when the line would be
 * longer than KIFU__PLY_MAX. */
static inline kifu_node *kifu__node_add_child(kifu_record *r, kifu_node *parent, int kind)
{
    /* A ply is at most the count of nodes made before: checked once there are enough. */
    if (__builtin_expect(r->deep, 0) && parent->ply >= KIFU__PLY_MAX)
        return NULL;
    /* Mostly the parent is the node made last and has no child (a line read in order):
     * both links are implicit, and nothing is stored but the parent's fc bit. */
    int line = parent == r->slot_next - 1 && !parent->xl && !parent->fc;
    kifu_node *n = kifu__node_new(r, kind, (uint32_t)parent->ply + 1);
    if (!n)
        return NULL;
    if (__builtin_expect(line, 1))
        parent->fc = 1;
    else if (kifu__node_link_slow(r, parent, n)) {
        r->slot_next--, r->nnodes--; /* n was the last made: taken back */
        return NULL;
    }
    return n;
}

/* A new move node under parent with its move all zero, for a reader to fill with
 * kifu__move_put. NULL on NOMEM. */
static inline kifu_node *kifu__node_add_blank_move(kifu_record *r, kifu_node *parent)
{
    return kifu__node_add_child(r, parent, KIFU_NODE_MOVE);
}

/* The engine's move of a checked MOVE node; MOVE_NONE for another kind, a move not
 * normalized (KIFU_MOVE_RAW) or one the engine cannot pack. */
uint32_t kifu__node_kmove(const kifu_node *n);

/* Play node n's move on p: as the rules allow it, or, for a foul (n->foul), as it was
 * played. 0, or -1 with err (an illegal move that is no foul, or NOMEM). */
int kifu__position_play_node(kifu_position *p, const kifu_node *n, kifu_error *err);

/* Called by kifu__normalize_hooked at each position the normalizer reaches, as it
 * reaches it: the root's, then each move's once the move is complete and played (a
 * foul kept as played too; never an ending's, a refused move's or anything under one).
 * p holds the position (borrowed, for this call only). main_line: n is on the main line
 * (in the walk's order every main-line node comes before the first fork). Nonzero: call
 * no more for this record. */
typedef int (*kifu__norm_hook)(void *ctx, const kifu_node *n, const kifu_position *p,
                               int main_line);

/* kifu_normalize_warn with a hook (may be NULL): one replay of the moves serves both,
 * so a search needs no second one. keep (may be NULL): where the position replayed on
 * is left for the next call, which restarts it instead of allocating one (*keep NULL at
 * first; the caller frees it with kifu_position_free). */
int kifu__normalize_hooked(kifu_record *r, unsigned flags,
                           void (*warn)(void *, const char *), void *warn_ctx,
                           kifu__norm_hook hook, void *hook_ctx, kifu_position **keep,
                           kifu_error *err);

/* Grow a pointer array held in the record's arena (old contents copied). -1 on NOMEM. */
int kifu__grow(kifu_record *r, void *arrayp, uint32_t *cap, uint32_t n, size_t elem);

#endif
