/* record.c: the record tree: header, initial position, move nodes with forks. */
#include "record/record.h"

#include <pthread.h>
#include <string.h>

#include "kifu_private.h"
#include "rules/engine.h"

/* x * 10 + y to x | y << 8; codes past 99 are never made. */
#define XY(x)                                                                            \
    x, x | 1 << 8, x | 2 << 8, x | 3 << 8, x | 4 << 8, x | 5 << 8, x | 6 << 8,           \
        x | 7 << 8, x | 8 << 8, x | 9 << 8
const uint16_t kifu__mv_xy[128] = {XY(0), XY(1), XY(2), XY(3), XY(4),
                                   XY(5), XY(6), XY(7), XY(8), XY(9)};
#undef XY
/* x * 10 + y to the engine's square (-1: 0, -2: no square). */
const int8_t kifu__mv_sq[128] = {
    -1, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, 0,  1,  2,  3,  4,  5,  6,  7,
    8,  -2, 9,  10, 11, 12, 13, 14, 15, 16, 17, -2, 18, 19, 20, 21, 22, 23, 24,
    25, 26, -2, 27, 28, 29, 30, 31, 32, 33, 34, 35, -2, 36, 37, 38, 39, 40, 41,
    42, 43, 44, -2, 45, 46, 47, 48, 49, 50, 51, 52, 53, -2, 54, 55, 56, 57, 58,
    59, 60, 61, 62, -2, 63, 64, 65, 66, 67, 68, 69, 70, 71, -2, 72, 73, 74, 75,
    76, 77, 78, 79, 80, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2,
    -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2,
};
/* side | dir << 2 (kifu__mv_rel_code) to the word's letters, the first in the low byte. */
#define W(a, b) (uint16_t)((a) | (b) << 8)
const uint16_t kifu__mv_rel[32] = {0,   'L',         'C',         'R',
                                   'U', W('L', 'U'), W('C', 'U'), W('R', 'U'),
                                   'M', W('L', 'M'), W('C', 'M'), W('R', 'M'),
                                   'D', W('L', 'D'), W('C', 'D'), W('R', 'D'),
                                   'H', W('L', 'H'), W('C', 'H'), W('R', 'H')};
#undef W

int kifu__move_check(const kifu_move *m)
{
    if (m->color > 1 || m->from_x > 9 || m->from_y > 9 || m->to_x > 9 || m->to_y > 9 ||
        m->piece > 15 || m->capture > 15 || m->promote < -1 || m->promote > 1 ||
        m->same < -1 || m->same > 1 || (m->flags & ~(15u | KIFU__MOVE_FROM_NULL)))
        return -1;
    /* The word must read back as it was: [LCR]?[UMDH]? and nothing after. */
    uint16_t w = kifu__mv_rel[kifu__mv_rel_code(m->relative)];
    char back[3] = {(char)(w & 255), (char)(w >> 8), 0};
    size_t n = strnlen(m->relative, sizeof m->relative);
    return n < sizeof m->relative && !back[n] && memcmp(back, m->relative, n) == 0 ? 0
                                                                                   : -1;
}

int kifu__grow(kifu_record *r, void *arrayp, uint32_t *cap, uint32_t n, size_t elem)
{
    if (n < *cap)
        return 0;
    uint32_t ncap = *cap ? *cap * 2 : 2;
    void **slot = arrayp;
    void *p = kifu__arena_alloc(&r->arena, ncap * elem);
    if (!p)
        return -1;
    if (*slot)
        memcpy(p, *slot, n * elem);
    *slot = p;
    *cap = ncap;
    return 0;
}

/* Pages come in runs of 1, 2, 4 .. 16 pages (64 KiB): a short record takes one page, a
 * long one does not call the allocator per page. Each run is aligned to the page size,
 * which is what finds a page's header from a node's address. */
enum { MAX_RUN = 16 };

int kifu__record_add_page(kifu_record *r)
{
    if (r->nnodes >= UINT32_MAX - KIFU__PAGE_NODES) /* ids + 1 are 32-bit links */
        return -1;
    r->deep = r->nnodes + KIFU__PAGE_NODES >= KIFU__PLY_MAX;
    if (kifu__reserve(&r->pages, &r->cappages, r->npages + 1, sizeof *r->pages, 8))
        return -1;
    kifu__page *pg;
    if (r->free_pages) {
        pg = (kifu__page *)(void *)((unsigned char *)r->pages[r->npages - 1] +
                                    KIFU__PAGE_BYTES);
        r->free_pages--;
        pg->run = 0;
    } else {
        size_t run = r->npages < MAX_RUN ? (r->npages ? r->npages : 1) : MAX_RUN;
        pg = kifu__aligned_alloc(KIFU__PAGE_BYTES, run * KIFU__PAGE_BYTES);
        if (!pg)
            return -1;
        r->free_pages = run - 1;
        pg->run = (uint32_t)run;
    }
    pg->rec = r;
    pg->side = NULL;
    pg->base = (uint32_t)(r->npages * KIFU__PAGE_NODES);
    r->pages[r->npages++] = pg;
    r->slot_next = kifu__page_nodes(pg);
    r->slot_end = r->slot_next + KIFU__PAGE_NODES;
    return 0;
}

/* The page's side part, made when first needed; NULL on NOMEM. */
static kifu__page_side *side_of(kifu__page *pg)
{
    if (!pg->side)
        pg->side = kifu__arena_alloc(&pg->rec->arena, sizeof *pg->side);
    return pg->side;
}

/* One of the page's side arrays (KIFU__PAGE_NODES elements of elem bytes, zeroed unless
 * raw), made when first needed; NULL on NOMEM. */
static void *side_array(kifu__page *pg, void *arrayp, size_t elem, int raw)
{
    void **slot = arrayp;
    if (!*slot)
        *slot = raw ? kifu__arena_alloc_raw(&pg->rec->arena, KIFU__PAGE_NODES * elem)
                    : kifu__arena_alloc(&pg->rec->arena, KIFU__PAGE_NODES * elem);
    return *slot;
}

/* Where slot is, or would go, in l. */
static uint32_t slot_index(const kifu__slot_list *l, uint32_t slot)
{
    uint32_t lo = 0, hi = l->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (l->v[mid].slot < slot)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

kifu__slot_entry *kifu__slot_find(const kifu__slot_list *l, uint32_t slot)
{
    uint32_t i = slot_index(l, slot);
    return i < l->n && l->v[i].slot == slot ? &l->v[i] : NULL;
}

/* The entry of slot in l, made (zeroed) when it has none; NULL on NOMEM. */
static kifu__slot_entry *slot_get(kifu_record *r, kifu__slot_list *l, uint32_t slot)
{
    uint32_t i = slot_index(l, slot);
    if (i < l->n && l->v[i].slot == slot)
        return &l->v[i];
    if (kifu__grow(r, &l->v, &l->cap, l->n, sizeof *l->v))
        return NULL;
    memmove(l->v + i + 1, l->v + i, (l->n - i) * sizeof *l->v);
    l->v[i] = (kifu__slot_entry){slot, 0, NULL};
    l->n++;
    return &l->v[i];
}

kifu__node_text *kifu__text_make(kifu_node *n)
{
    kifu__page *pg = kifu__page_of(n);
    kifu__page_side *sd = side_of(pg);
    kifu__slot_entry *e = sd ? slot_get(pg->rec, &sd->text, kifu__slot_of(n)) : NULL;
    if (!e)
        return NULL;
    if (!e->text)
        e->text = kifu__arena_alloc(&pg->rec->arena, sizeof *e->text);
    if (e->text)
        n->has_text = 1;
    return e->text;
}

kifu__ptime *kifu__ptime_page(kifu_node *n)
{
    kifu__page *pg = kifu__page_of(n);
    kifu__page_side *sd = side_of(pg);
    /* Not zeroed: an entry is read only once its node has_time, and is set then. */
    if (!sd || !side_array(pg, &sd->times, sizeof *sd->times, 1))
        return NULL;
    return kifu__ptime_make(n);
}

int kifu__time_set_full(kifu_node *n, const kifu_move_time *t)
{
    static const kifu_time none = {-1, 0, 0, 0};
    /* Out of range (a JKF may give 60,000,000 minutes): kept whole. */
    kifu__node_text *x = kifu__text_make(n);
    kifu__ptime *p = x ? kifu__ptime_make(n) : NULL;
    if (!p)
        return -1;
    if (!x->time) {
        x->time = kifu__arena_alloc(&kifu__page_of(n)->rec->arena, sizeof *x->time);
        if (!x->time) {
            n->has_time = 0;
            return -1;
        }
    }
    *x->time = *t;
    if (!t->has_total)
        x->time->total = none;
    p->now.h = KIFU__T6_FULL;
    return 0;
}

int kifu__time_get_full(const kifu_node *n, kifu_move_time *out)
{
    if (!n->has_time)
        return 0;
    if (out)
        *out = *kifu__text(n)->time;
    return 1;
}

void kifu__node_src_page(kifu_node *n, size_t offset)
{
    kifu__page *pg = kifu__page_of(n);
    kifu__page_side *sd = side_of(pg);
    uint32_t slot = kifu__slot_of(n);
    /* Not a distance from the node before (kifu__node_src tried): kept whole. */
    n->src = 0;
    kifu__slot_entry *e =
        offset < UINT32_MAX && sd ? slot_get(pg->rec, &sd->src, slot) : NULL;
    if (!e)
        return; /* only the place is lost */
    e->offset = (uint32_t)offset;
    n->src = 255;
    sd->src_slot = slot + 1;
    sd->src_off = (uint32_t)offset;
}

int kifu__node_src_get(const kifu_node *n, size_t *offset)
{
    const kifu__page *pg = kifu__page_of(n);
    const kifu_node *first = kifu__page_nodes(pg);
    size_t sum = 0;
    *offset = 0;
    /* Back along the distances to a node whose offset is whole. */
    while (n->src && n->src != 255 && n > first) {
        sum += n->src - 1u;
        n--;
    }
    if (n->src != 255 || !pg->side)
        return 0;
    const kifu__slot_entry *e = kifu__slot_find(&pg->side->src, kifu__slot_of(n));
    if (!e)
        return 0;
    *offset = e->offset + sum;
    return 1;
}

/* Make n xl: its links, as implied so far, stored in its page's side part. 0, or -1. */
static int make_xl(kifu_node *n)
{
    if (n->xl)
        return 0;
    kifu__page *pg = kifu__page_of(n);
    kifu__page_side *sd = side_of(pg);
    if (!sd || !side_array(pg, &sd->links, sizeof *sd->links, 1))
        return -1;
    kifu__links l = {kifu__parent_link(n), kifu__first_link(n), 0};
    sd->links[kifu__slot_of(n)] = l;
    n->xl = 1;
    n->fc = 0;
    return 0;
}

/* Which link of a node. */
enum { LINK_PARENT, LINK_FIRST, LINK_NEXT };

/* Would n keep link `which` = link (id + 1, 0: none) implicit? Not xl, and what a line
 * implies: the parent made just before, the first child made just after, no sibling. */
static int implicit(const kifu_node *n, int which, uint32_t link)
{
    if (n->xl)
        return 0;
    uint32_t id = kifu__id_of(n);
    return which == LINK_PARENT  ? link == id
           : which == LINK_FIRST ? !link || link == id + 2
                                 : !link;
}

/* Set a link of n: kept implicit when it can be, else n becomes xl. 0, or -1 on NOMEM
 * (nothing changed; callers that change several links make them xl first, can_link). */
static int set_link(kifu_node *n, int which, uint32_t link)
{
    if (implicit(n, which, link)) {
        if (which == LINK_FIRST)
            n->fc = link != 0;
        return 0;
    }
    if (make_xl(n))
        return -1;
    kifu__links *l = kifu__xlinks(n);
    *(which == LINK_PARENT  ? &l->parent
      : which == LINK_FIRST ? &l->first
                            : &l->next) = link;
    return 0;
}

/* Can the links that will change be stored? The side parts are made first, so that a
 * change of several links is whole or none. */
static int can_link(kifu_node *a, kifu_node *b, kifu_node *c)
{
    return (a && make_xl(a)) || (b && make_xl(b)) || (c && make_xl(c)) ? -1 : 0;
}

int kifu__node_link_slow(kifu_record *r, kifu_node *parent, kifu_node *n)
{
    uint32_t id = kifu__id_of(n) + 1, pid = kifu__id_of(parent) + 1;
    kifu_node *last = kifu__first(parent);
    if (last) {
        while (kifu__next_link(last))
            last = kifu__sibling(last);
        r->forked = 1;
    }
    kifu_node *holder = last ? last : parent; /* whose link will point at n */
    int which = last ? LINK_NEXT : LINK_FIRST;
    if (can_link(implicit(n, LINK_PARENT, pid) ? NULL : n,
                 implicit(holder, which, id) ? NULL : holder, NULL))
        return -1;
    set_link(n, LINK_PARENT, pid);
    return set_link(holder, which, id);
}

kifu_record *kifu_record_new(void)
{
    kifu_record *r = kifu__calloc(1, sizeof *r);
    if (!r)
        return NULL;
    kifu__arena_init(&r->arena);
    r->preset = KIFU_PRESET_NONE;
    r->root = kifu__node_new(r, KIFU_NODE_ROOT, 0);
    if (!r->root) {
        kifu_record_free(r);
        return NULL;
    }
    return r;
}

kifu__input *kifu__input_new(char *text, size_t len)
{
    kifu__input *in = kifu__input_borrow(text, len);
    if (in)
        in->own = text;
    return in;
}

kifu__input *kifu__input_borrow(const char *text, size_t len)
{
    kifu__input *in = kifu__malloc(sizeof *in);
    if (!in)
        return NULL;
    in->text = text;
    in->len = len;
    in->own = NULL;
    atomic_init(&in->refs, 1);
    return in;
}

int kifu__input_own(kifu__input *in)
{
    if (in->own)
        return 0;
    char *t = kifu__malloc(in->len + 1);
    if (!t)
        return -1;
    memcpy(t, in->text, in->len);
    t[in->len] = 0;
    in->text = in->own = t;
    return 0;
}

void kifu__input_release(kifu__input *in)
{
    if (in && atomic_fetch_sub_explicit(&in->refs, 1, memory_order_acq_rel) == 1) {
        kifu__free(in->own);
        kifu__free(in);
    }
}

void kifu__record_set_input(kifu_record *r, kifu__input *in)
{
    if (in)
        atomic_fetch_add_explicit(&in->refs, 1, memory_order_relaxed);
    kifu__input_release(r->input);
    r->input = in;
}

void kifu_record_free(kifu_record *r)
{
    if (!r)
        return;
    kifu__input_release(r->input);
    kifu__arena_free(&r->arena);
    /* From the last: a run's later pages are read before its start frees them. */
    for (size_t i = r->npages; i-- > 0;)
        if (r->pages[i]->run)
            kifu__free(r->pages[i]);
    kifu__free(r->pages);
    kifu__free(r->header);
    kifu__free(r);
}

/* ---- header ---- */

size_t kifu_record_header_count(const kifu_record *r)
{
    return r->nheader;
}

int kifu_record_header_at(const kifu_record *r, size_t i, const char **key,
                          const char **value)
{
    if (i >= r->nheader)
        return -1;
    if (key)
        *key = r->header[i].key;
    if (value)
        *value = r->header[i].value;
    return 0;
}

const char *kifu_record_header_get(const kifu_record *r, const char *key)
{
    for (size_t i = 0; i < r->nheader; i++)
        if (strcmp(r->header[i].key, key) == 0)
            return r->header[i].value;
    return NULL;
}

int kifu_record_header_add(kifu_record *r, const char *key, const char *value)
{
    if (kifu__reserve(&r->header, &r->capheader, r->nheader + 1, sizeof *r->header, 8))
        return -1;
    const char *k = kifu__arena_strdup(&r->arena, key);
    const char *v = kifu__arena_strdup(&r->arena, value);
    if (!k || !v)
        return -1;
    r->header[r->nheader].key = k;
    r->header[r->nheader].value = v;
    r->nheader++;
    return 0;
}

int kifu_record_header_set(kifu_record *r, const char *key, const char *value)
{
    for (size_t i = 0; i < r->nheader; i++) {
        if (strcmp(r->header[i].key, key) == 0) {
            const char *v = kifu__arena_strdup(&r->arena, value);
            if (!v)
                return -1;
            r->header[i].value = v;
            return 0;
        }
    }
    return kifu_record_header_add(r, key, value);
}

/* ---- initial position ---- */

int kifu_record_start_number(const kifu_record *r)
{
    return r->start_number > 1 ? r->start_number : 1;
}

void kifu_record_set_start_number(kifu_record *r, int number)
{
    r->start_number = number > 1 && number <= 999999999 ? number : 1;
}

int kifu_record_preset(const kifu_record *r)
{
    return r->preset;
}

int kifu_record_set_preset(kifu_record *r, int preset)
{
    if (preset != KIFU_PRESET_NONE && (preset < 0 || preset >= KIFU_PRESET_OTHER))
        return -1;
    r->preset = preset;
    r->has_data = 0;
    return 0;
}

int kifu_record_set_initial(kifu_record *r, const kifu_board *b)
{
    r->preset = KIFU_PRESET_OTHER;
    r->has_data = 1;
    r->initial = *b;
    return 0;
}

static kifu_board preset_boards[KIFU_PRESET_OTHER];
static pthread_once_t preset_once = PTHREAD_ONCE_INIT;

static void build_presets(void)
{
    for (int i = 0; i < KIFU_PRESET_OTHER; i++)
        kifu_preset_board(i, &preset_boards[i]);
}

const kifu_board *kifu__preset_ref(int preset)
{
    if (preset < 0 || preset >= KIFU_PRESET_OTHER)
        return NULL;
    pthread_once(&preset_once, build_presets);
    return &preset_boards[preset];
}

int kifu__preset_match_ref(const kifu_board *b)
{
    pthread_once(&preset_once, build_presets);
    for (int i = 0; i < KIFU_PRESET_OTHER; i++) {
        const kifu_board *p = &preset_boards[i];
        if (memcmp(p->sq, b->sq, sizeof p->sq) == 0 &&
            memcmp(p->hands, b->hands, sizeof p->hands) == 0 && p->color == b->color)
            return i;
    }
    return KIFU_PRESET_OTHER;
}

void kifu_record_initial(const kifu_record *r, kifu_board *out)
{
    if (r->has_data) {
        *out = r->initial;
        return;
    }
    const kifu_board *b =
        kifu__preset_ref(r->preset == KIFU_PRESET_NONE ? KIFU_PRESET_HIRATE : r->preset);
    if (b)
        *out = *b;
    else
        kifu_preset_board(r->preset, out); /* out of range: as before */
}

/* ---- nodes ---- */

kifu_node *kifu_record_root(const kifu_record *r)
{
    return r->root;
}
size_t kifu_record_node_count(const kifu_record *r)
{
    return r->nnodes;
}
int kifu_node_kind_of(const kifu_node *n)
{
    return n->kind;
}
size_t kifu_node_id(const kifu_node *n)
{
    return kifu__id_of(n);
}
int kifu_node_ply(const kifu_node *n)
{
    return n->ply;
}
kifu_node *kifu_node_parent(const kifu_node *n)
{
    return kifu__parent(n);
}
size_t kifu_node_child_count(const kifu_node *n)
{
    size_t k = 0;
    for (kifu_node *c = kifu__first(n); c; c = kifu__sibling(c))
        k++;
    return k;
}

kifu_node *kifu_node_child(const kifu_node *n, size_t i)
{
    return kifu__child(n, i);
}

kifu_node *kifu_node_next(const kifu_node *n)
{
    return kifu__first(n);
}

size_t kifu_node_index(const kifu_node *n)
{
    const kifu_node *p = kifu__parent(n);
    size_t i = 0;
    for (kifu_node *c = p ? kifu__first(p) : NULL; c && c != n; c = kifu__sibling(c))
        i++;
    return i;
}

int kifu_node_get_move(const kifu_node *n, kifu_move *out)
{
    if (n->kind != KIFU_NODE_MOVE)
        return 0;
    if (out)
        kifu__move_get(n, out);
    return 1;
}

int kifu_node_set_move(kifu_record *r, kifu_node *n, const kifu_move *m)
{
    (void)r;
    if (n->kind != KIFU_NODE_MOVE || kifu__move_check(m))
        return -1;
    kifu__move_put(n, m);
    return 0;
}

int kifu_node_foul(const kifu_node *n)
{
    return n->kind == KIFU_NODE_MOVE ? n->foul : KIFU_FOUL_NONE;
}

const char *kifu_foul_name(int foul)
{
    static const char *const names[] = {
        "", "王手放置", "自玉への王手", "二歩", "打ち歩詰め", "行き所のない駒", "誤記"};
    return foul >= 0 && foul < (int)(sizeof names / sizeof names[0]) ? names[foul] : "";
}

uint32_t kifu__node_kmove(const kifu_node *n)
{
    if (n->kind != KIFU_NODE_MOVE || (kifu__move_flags(n) & KIFU_MOVE_RAW))
        return MOVE_NONE;
    /* Straight from the packed bits: unpacked into a kifu_move and packed again, it took
     * 212 instructions a move (103 now), a twentieth of an index build's reading. */
    uint64_t v = n->mv;
    return kifu__move_of((int)(v & 1), kifu__mv_sq[(v >> 1) & 127],
                         kifu__mv_sq[(v >> 8) & 127], (int)((v >> 15) & 15),
                         (int)((v >> 19) & 15), (int)((v >> 23) & 3) - 1);
}

int kifu__position_play_node(kifu_position *p, const kifu_node *n, kifu_error *err)
{
    kifu_move m;
    kifu__move_get(n, &m);
    return n->foul ? kifu__position_force(p, &m, err) : kifu_position_play(p, &m, err);
}

const char *kifu_node_special(const kifu_node *n)
{
    return n->kind == KIFU_NODE_SPECIAL ? kifu__special(n) : NULL;
}

size_t kifu_node_comment_count(const kifu_node *n)
{
    const kifu__node_text *t = kifu__text(n);
    return t ? t->ncomments : 0;
}

const char *kifu_node_comment(const kifu_node *n, size_t i)
{
    return i < kifu_node_comment_count(n) ? kifu__text(n)->comments[i] : NULL;
}

static int add_string(kifu_record *r, const char ***arr, uint32_t *n, uint32_t *cap,
                      const char *text)
{
    if (kifu__grow(r, arr, cap, *n, sizeof(char *)))
        return -1;
    const char *s = kifu__arena_strdup(&r->arena, text);
    if (!s)
        return -1;
    (*arr)[(*n)++] = s;
    return 0;
}

int kifu_node_add_comment(kifu_record *r, kifu_node *n, const char *text)
{
    kifu__node_text *t = kifu__text_make(n);
    return t ? add_string(r, &t->comments, &t->ncomments, &t->capcomments, text) : -1;
}

void kifu_node_clear_comments(kifu_node *n)
{
    kifu__node_text *t = kifu__text(n);
    if (t)
        t->ncomments = 0;
}

size_t kifu_node_bookmark_count(const kifu_node *n)
{
    const kifu__node_text *t = kifu__text(n);
    return t ? t->nbookmarks : 0;
}

const char *kifu_node_bookmark(const kifu_node *n, size_t i)
{
    return i < kifu_node_bookmark_count(n) ? kifu__text(n)->bookmarks[i] : NULL;
}

int kifu_node_add_bookmark(kifu_record *r, kifu_node *n, const char *name)
{
    kifu__node_text *t = kifu__text_make(n);
    return t ? add_string(r, &t->bookmarks, &t->nbookmarks, &t->capbookmarks, name) : -1;
}

const char *kifu__node_sid(const kifu_node *n, int *number)
{
    const kifu__node_text *t = kifu__text(n);
    if (number)
        *number = t && t->sid ? t->sid_number : 0;
    return t ? t->sid : NULL;
}

int kifu__node_set_sid(kifu_record *r, kifu_node *n, const char *sid, int number)
{
    kifu__node_text *t = kifu__text_make(n);
    const char *s = t ? kifu__arena_strdup(&r->arena, sid) : NULL;
    if (!s)
        return -1;
    t->sid = s;
    t->sid_number = number;
    r->nsids++;
    return 0;
}

int kifu_node_get_time(const kifu_node *n, kifu_move_time *out)
{
    return kifu__time_get(n, out);
}

int kifu_node_set_time(kifu_record *r, kifu_node *n, const kifu_move_time *t)
{
    (void)r;
    if (!t) {
        n->has_time = 0;
        return 0;
    }
    return kifu__time_set(n, t);
}

kifu_node *kifu_node_add_move(kifu_record *r, kifu_node *parent, const kifu_move *m)
{
    if (kifu__move_check(m))
        return NULL; /* a field out of range */
    kifu_node *n = kifu__node_add_child(r, parent, KIFU_NODE_MOVE);
    if (n)
        kifu__move_put(n, m);
    return n;
}

kifu_node *kifu_node_add_special(kifu_record *r, kifu_node *parent, const char *word)
{
    const char *w = kifu__arena_strdup(&r->arena, word);
    if (!w)
        return NULL;
    kifu_node *n = kifu__node_add_child(r, parent, KIFU_NODE_SPECIAL);
    if (!n)
        return NULL;
    kifu__node_text *t = kifu__text_make(n);
    if (!t) {
        kifu_node_delete(r, n);
        return NULL;
    }
    t->special = w;
    return n;
}

/* The node whose link points at n, and which link: its parent's first or its previous
 * sibling's next. */
static kifu_node *link_holder(kifu_node *n, int *which)
{
    kifu_node *p = kifu__parent(n);
    uint32_t id = kifu__id_of(n) + 1;
    *which = kifu__first_link(p) == id ? LINK_FIRST : LINK_NEXT;
    if (*which == LINK_FIRST)
        return p;
    kifu_node *c = kifu__first(p);
    while (kifu__next_link(c) != id)
        c = kifu__sibling(c);
    return c;
}

int kifu_node_delete(kifu_record *r, kifu_node *n)
{
    (void)r;
    if (!kifu__parent_link(n))
        return -1;
    int which;
    kifu_node *h = link_holder(n, &which);
    if (can_link(n, h, NULL))
        return -1;
    set_link(h, which, kifu__next_link(n));
    set_link(n, LINK_PARENT, 0);
    set_link(n, LINK_NEXT, 0);
    return 0;
}

int kifu_node_reorder(kifu_node *parent, size_t i, size_t j)
{
    kifu_node *n = kifu__child(parent, i);
    if (!n || !kifu__child(parent, j))
        return -1;
    if (i == j)
        return 0;
    int which;
    kifu_node *h = link_holder(n, &which);
    /* Unlink child i, then link it in before the child now at j (after it when moving
     * down: j counts the siblings without n). Every node touched gets its side part
     * first, so the links change whole or not at all. */
    kifu_node *before = j == 0 ? NULL : kifu__child(parent, j - 1 + (j > i));
    if (can_link(n, h, before ? before : parent))
        return -1;
    set_link(h, which, kifu__next_link(n));
    uint32_t id = kifu__id_of(n) + 1;
    if (j == 0) {
        set_link(n, LINK_NEXT, kifu__first_link(parent));
        set_link(parent, LINK_FIRST, id);
        return 0;
    }
    set_link(n, LINK_NEXT, kifu__next_link(before));
    set_link(before, LINK_NEXT, id);
    return 0;
}
