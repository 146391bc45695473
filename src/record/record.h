/* record.h: the bodies of kifu_record and kifu_node (see kifu.h for the model). */
#ifndef KIFU_RECORD_H
#define KIFU_RECORD_H

#include <stdatomic.h>
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
} kifu__node_text;

/* A node is 32 bytes: what every pass over the moves reads (links, kind, move) and
 * nothing else. A 1,000,000-move game once took 112 bytes a move (three pointers, a child
 * array, a 36-byte time and the ending word in every node), 4 to 30 times its file
 * (issue 17 asks for at most 4). Now:
 * - links are 32-bit ids (id + 1; 0: none) as first child and next sibling: a fork is
 *   rare, so child i walks the siblings, and no node carries an array for them;
 * - nodes live in 4 KiB pages (kifu__page) whose first slot is a header naming the
 *   record and the page's first id, so a kifu_node * stays a stable pointer, and its
 *   id, its record and any linked node are found from the pointer alone;
 * - what only some records or nodes have lives beside the nodes, per page, made when a
 *   node of the page first needs it: times (SFEN and KI2 hold none), where each move's
 *   text began (the readers'), comments, bookmarks and ending words. */
struct kifu_node {
    uint32_t parent, first, next; /* ids + 1: parent, first child, next sibling */
    int32_t ply;
    kifu_move move;
    uint8_t kind;         /* kifu_node_kind: a whole byte, read on every visit */
    uint8_t has_time : 1; /* the page's times hold this node's */
    uint8_t foul : 3; /* kifu_foul: a forbidden move that ended its line (normalize.c) */
    uint8_t has_text : 1;  /* the page's texts hold this node's (kifu__text) */
    uint8_t has_total : 1; /* of its time (kifu__ptime) */
};
_Static_assert(sizeof(kifu_node) == 32, "a node is 32 bytes: a page holds 127");

enum {
    KIFU__PAGE_BYTES = 4096,
    /* Slot 0 is the header. */
    KIFU__PAGE_NODES = KIFU__PAGE_BYTES / sizeof(kifu_node) - 1,
};

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

typedef struct kifu__page_side {
    kifu__ptime *times;
    uint32_t
        *src; /* byte offset + 1 in the reader's input where the node's text begins */
    kifu__node_text **text;
} kifu__page_side;

/* The header in slot 0 of every page: as big as a node. */
typedef struct kifu__page {
    kifu_record *rec;
    kifu__page_side *side; /* NULL: no node of the page has a time, src or text */
    uint32_t base;         /* id of the page's first node */
    uint32_t run;          /* pages of the allocation this page starts; 0: not a start */
} kifu__page;

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
};

/* The page of node n, and n's slot in it. */
static inline kifu__page *kifu__page_of(const kifu_node *n)
{
    return (kifu__page *)((uintptr_t)n & ~(uintptr_t)(KIFU__PAGE_BYTES - 1));
}
static inline uint32_t kifu__slot_of(const kifu_node *n)
{
    return (uint32_t)(n - (const kifu_node *)(const void *)kifu__page_of(n)) - 1;
}
static inline uint32_t kifu__id_of(const kifu_node *n)
{
    return kifu__page_of(n)->base + kifu__slot_of(n);
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
        return (kifu_node *)(void *)pg + 1 + (id - pg->base);
    kifu__page *to = pg->rec->pages[id / KIFU__PAGE_NODES];
    return (kifu_node *)(void *)to + 1 + id % KIFU__PAGE_NODES;
}
static inline kifu_node *kifu__parent(const kifu_node *n)
{
    return kifu__link(n, n->parent);
}
/* Child 0 (the line's continuation), or NULL. */
static inline kifu_node *kifu__first(const kifu_node *n)
{
    return kifu__link(n, n->first);
}
/* Child 0 of n, for a pass along a line that knows n's id (*id, updated to the child's):
 * mostly the next slot of n's page, found with no page lookup. */
static inline kifu_node *kifu__line_next(const kifu_node *n, uint32_t *id)
{
    uint32_t f = n->first;
    uint32_t prev = *id;
    *id = f - 1;
    if (__builtin_expect(f == prev + 2 && ((uintptr_t)(n + 1) & (KIFU__PAGE_BYTES - 1)),
                         1))
        return (kifu_node *)n + 1;
    return kifu__link(n, f);
}
/* The next child of n's parent, or NULL. */
static inline kifu_node *kifu__sibling(const kifu_node *n)
{
    return kifu__link(n, n->next);
}
/* Does n have a fork (a second child)? */
static inline int kifu__forked(const kifu_node *n)
{
    kifu_node *c = kifu__first(n);
    return c && c->next;
}
/* Is n child 0 of its parent? (the root too) */
static inline int kifu__is_first(const kifu_node *n)
{
    const kifu_node *p = kifu__parent(n);
    return !p || p->first == kifu__id_of(n) + 1;
}
/* Child i of n, or NULL (walks the siblings: forks are few). */
static inline kifu_node *kifu__child(const kifu_node *n, size_t i)
{
    kifu_node *c = kifu__first(n);
    while (c && i--)
        c = kifu__sibling(c);
    return c;
}

/* The comments, bookmarks and word of n, or NULL when it has none. */
static inline kifu__node_text *kifu__text(const kifu_node *n)
{
    return n->has_text ? kifu__page_of(n)->side->text[kifu__slot_of(n)] : NULL;
}
/* The word of a SPECIAL node ("" if it has none). */
static inline const char *kifu__special(const kifu_node *n)
{
    kifu__node_text *t = kifu__text(n);
    return t && t->special ? t->special : "";
}
/* n's text part, made when first needed; NULL on NOMEM. */
kifu__node_text *kifu__text_make(kifu_node *n);

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
    kifu__page *pg = kifu__page_of(n);
    if (__builtin_expect(pg->side && pg->side->src && offset < UINT32_MAX, 1))
        pg->side->src[kifu__slot_of(n)] = (uint32_t)offset + 1;
    else
        kifu__node_src_page(n, offset);
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

/* A new node of kind, all zero, no links; NULL on NOMEM. */
static inline kifu_node *kifu__node_new(kifu_record *r, int kind)
{
    if (__builtin_expect(r->slot_next == r->slot_end, 0) && kifu__record_add_page(r))
        return NULL;
    kifu_node *n = r->slot_next++;
    memset(n, 0, sizeof *n);
    n->kind = (uint8_t)kind;
    r->nnodes++;
    return n;
}

/* A new node of kind as parent's last child; NULL on NOMEM. */
static inline kifu_node *kifu__node_add_child(kifu_record *r, kifu_node *parent, int kind)
{
    /* Mostly the parent is the node made last (a line read in order): its id + 1 is the
     * count, with no page lookup. */
    uint32_t pid =
        parent == r->slot_next - 1 ? (uint32_t)r->nnodes : kifu__id_of(parent) + 1;
    kifu_node *last = kifu__first(parent);
    if (__builtin_expect(last != NULL, 0)) {
        while (last->next)
            last = kifu__sibling(last);
        r->forked = 1;
    }
    int32_t ply = parent->ply + 1;
    kifu_node *n = kifu__node_new(r, kind);
    if (!n)
        return NULL;
    n->parent = pid;
    n->ply = ply;
    *(last ? &last->next : &parent->first) = (uint32_t)r->nnodes; /* n's id + 1 */
    return n;
}

/* A new move node under parent with its move all zero, for a reader to fill in place:
 * a kifu_move built on the stack and copied in would be read back wider than it was
 * written, which stalls the store forwarding on every move. NULL on NOMEM. */
static inline kifu_node *kifu__node_add_blank_move(kifu_record *r, kifu_node *parent)
{
    return kifu__node_add_child(r, parent, KIFU_NODE_MOVE);
}

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
