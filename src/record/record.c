/* record.c: the record tree: header, initial position, move nodes with forks. */
#include "record/record.h"
#include "record/walk.h"

#include <pthread.h>
#include <string.h>

#include "kifu_private.h"
#include "rules/engine.h"

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

static kifu_node *new_node(kifu_record *r, int kind)
{
    kifu_node *n = kifu__arena_alloc(&r->arena, sizeof *n);
    if (!n)
        return NULL;
    n->kind = (uint8_t)kind;
    n->id = (uint32_t)r->nnodes++;
    return n;
}

kifu_record *kifu_record_new(void)
{
    kifu_record *r = kifu__calloc(1, sizeof *r);
    if (!r)
        return NULL;
    kifu__arena_init(&r->arena);
    r->preset = KIFU_PRESET_NONE;
    r->root = new_node(r, KIFU_NODE_ROOT);
    if (!r->root) {
        kifu_record_free(r);
        return NULL;
    }
    return r;
}

void kifu_record_free(kifu_record *r)
{
    if (!r)
        return;
    kifu__arena_free(&r->arena);
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
    return n->id;
}
int kifu_node_ply(const kifu_node *n)
{
    return n->ply;
}
kifu_node *kifu_node_parent(const kifu_node *n)
{
    return n->parent;
}
size_t kifu_node_child_count(const kifu_node *n)
{
    return n->nchildren;
}

kifu_node *kifu_node_child(const kifu_node *n, size_t i)
{
    return i < n->nchildren ? n->children[i] : NULL;
}

kifu_node *kifu_node_next(const kifu_node *n)
{
    return n->nchildren ? n->children[0] : NULL;
}

size_t kifu_node_index(const kifu_node *n)
{
    if (!n->parent)
        return 0;
    for (uint32_t i = 0; i < n->parent->nchildren; i++)
        if (n->parent->children[i] == n)
            return i;
    return 0;
}

kifu_move *kifu_node_move(kifu_node *n)
{
    return n->kind == KIFU_NODE_MOVE ? &n->move : NULL;
}

const kifu_move *kifu_node_move_const(const kifu_node *n)
{
    return n->kind == KIFU_NODE_MOVE ? &n->move : NULL;
}

int kifu_node_foul(const kifu_node *n)
{
    return n->kind == KIFU_NODE_MOVE ? n->foul : KIFU_FOUL_NONE;
}

const char *kifu_foul_name(int foul)
{
    static const char *const names[] = {"",     "王手放置",   "自玉への王手",
                                        "二歩", "打ち歩詰め", "行き所のない駒"};
    return foul >= 0 && foul < (int)(sizeof names / sizeof names[0]) ? names[foul] : "";
}

int kifu__position_play_node(kifu_position *p, const kifu_node *n, kifu_error *err)
{
    kifu_move m = n->move;
    return n->foul ? kifu__position_force(p, &m, err) : kifu_position_play(p, &m, err);
}

const char *kifu_node_special(const kifu_node *n)
{
    return n->kind == KIFU_NODE_SPECIAL ? n->special : NULL;
}

size_t kifu_node_comment_count(const kifu_node *n)
{
    return n->text ? n->text->ncomments : 0;
}

const char *kifu_node_comment(const kifu_node *n, size_t i)
{
    return i < kifu_node_comment_count(n) ? n->text->comments[i] : NULL;
}

/* n's text part, made when first needed; NULL on NOMEM. */
static kifu__node_text *text_of(kifu_record *r, kifu_node *n)
{
    if (!n->text)
        n->text = kifu__arena_alloc(&r->arena, sizeof *n->text);
    return n->text;
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
    kifu__node_text *t = text_of(r, n);
    return t ? add_string(r, &t->comments, &t->ncomments, &t->capcomments, text) : -1;
}

void kifu_node_clear_comments(kifu_node *n)
{
    if (n->text)
        n->text->ncomments = 0;
}

size_t kifu_node_bookmark_count(const kifu_node *n)
{
    return n->text ? n->text->nbookmarks : 0;
}

const char *kifu_node_bookmark(const kifu_node *n, size_t i)
{
    return i < kifu_node_bookmark_count(n) ? n->text->bookmarks[i] : NULL;
}

int kifu_node_add_bookmark(kifu_record *r, kifu_node *n, const char *name)
{
    kifu__node_text *t = text_of(r, n);
    return t ? add_string(r, &t->bookmarks, &t->nbookmarks, &t->capbookmarks, name) : -1;
}

const kifu_move_time *kifu_node_time(const kifu_node *n)
{
    return n->has_time ? &n->time : NULL;
}

int kifu_node_set_time(kifu_record *r, kifu_node *n, const kifu_move_time *t)
{
    (void)r;
    if (t) {
        n->time = *t;
        n->has_time = 1;
    } else {
        n->has_time = 0;
    }
    return 0;
}

static kifu_node *add_child(kifu_record *r, kifu_node *parent, int kind)
{
    if (!parent->capchildren) {
        /* The first child needs no allocation; a fork moves the array to the arena. */
        parent->children = &parent->only_child;
        parent->capchildren = 1;
    } else if (kifu__grow(r, &parent->children, &parent->capchildren, parent->nchildren,
                          sizeof(kifu_node *))) {
        return NULL;
    }
    if (parent->nchildren)
        r->forked = 1;
    kifu_node *n = new_node(r, kind);
    if (!n)
        return NULL;
    n->parent = parent;
    n->ply = parent->ply + 1;
    parent->children[parent->nchildren++] = n;
    return n;
}

kifu_node *kifu__node_add_blank_move(kifu_record *r, kifu_node *parent)
{
    return add_child(r, parent, KIFU_NODE_MOVE);
}

kifu_node *kifu_node_add_move(kifu_record *r, kifu_node *parent, const kifu_move *m)
{
    kifu_node *n = add_child(r, parent, KIFU_NODE_MOVE);
    if (n)
        n->move = *m;
    return n;
}

kifu_node *kifu_node_add_special(kifu_record *r, kifu_node *parent, const char *word)
{
    const char *w = kifu__arena_strdup(&r->arena, word);
    if (!w)
        return NULL;
    kifu_node *n = add_child(r, parent, KIFU_NODE_SPECIAL);
    if (n)
        n->special = w;
    return n;
}

int kifu_node_delete(kifu_record *r, kifu_node *n)
{
    (void)r;
    kifu_node *p = n->parent;
    if (!p)
        return -1;
    size_t i = kifu_node_index(n);
    memmove(p->children + i, p->children + i + 1,
            (p->nchildren - i - 1) * sizeof(kifu_node *));
    p->nchildren--;
    n->parent = NULL;
    return 0;
}

int kifu_node_reorder(kifu_node *parent, size_t i, size_t j)
{
    if (i >= parent->nchildren || j >= parent->nchildren)
        return -1;
    kifu_node *n = parent->children[i];
    if (i < j)
        memmove(parent->children + i, parent->children + i + 1, (j - i) * sizeof n);
    else
        memmove(parent->children + j + 1, parent->children + j, (i - j) * sizeof n);
    parent->children[j] = n;
    return 0;
}

/* ---- clone ---- */

static int clone_payload(kifu_record *r, kifu_node *dst, const kifu_node *src)
{
    dst->move = src->move;
    dst->time = src->time;
    dst->has_time = src->has_time;
    dst->foul = src->foul;
    dst->src = src->src;
    for (size_t i = 0; i < kifu_node_comment_count(src); i++)
        if (kifu_node_add_comment(r, dst, src->text->comments[i]))
            return -1;
    for (size_t i = 0; i < kifu_node_bookmark_count(src); i++)
        if (kifu_node_add_bookmark(r, dst, src->text->bookmarks[i]))
            return -1;
    return 0;
}

static kifu_node *clone_child(kifu_record *r, kifu_node *dst, const kifu_node *c)
{
    kifu_node *d = c->kind == KIFU_NODE_SPECIAL
                       ? kifu_node_add_special(r, dst, c->special)
                       : add_child(r, dst, c->kind);
    if (!d || clone_payload(r, d, c))
        return NULL;
    return d;
}

/* Copies the subtree below src into dst. Walks each line iteratively and recurses only
 * into forks, so a long game does not use a stack frame per move. */
/* The subtrees of src under dst, by the record walk: a stack of the copies holds the
 * node each child goes under, so forks of any depth are copied without recursion. */
static int clone_tree(kifu_record *r, kifu_node *dst, const kifu_node *src)
{
    kifu__walk w;
    kifu__walk_init(&w, (kifu_node *)src, KIFU__WALK_TREE); /* read only */
    kifu_node **copies = NULL;
    size_t top = 0, cap = 0;
    int ev, rc = 0;
    while ((ev = kifu__walk_next(&w)) > 0) {
        if (ev == KIFU__WALK_EXIT) {
            top--;
            continue;
        }
        kifu_node *d = top ? clone_child(r, copies[top - 1], w.node) : dst;
        if (kifu__reserve(&copies, &cap, top + 1, sizeof *copies, 64))
            d = NULL;
        if (!d) {
            rc = -1;
            break;
        }
        copies[top++] = d;
    }
    kifu__walk_free(&w);
    kifu__free(copies);
    return ev < 0 ? -1 : rc;
}

kifu_record *kifu_record_clone(const kifu_record *src)
{
    kifu_record *r = kifu_record_new();
    if (!r)
        return NULL;
    r->preset = src->preset;
    r->has_data = src->has_data;
    r->initial = src->initial;
    for (size_t i = 0; i < src->nheader; i++)
        if (kifu_record_header_add(r, src->header[i].key, src->header[i].value))
            goto fail;
    if (clone_payload(r, r->root, src->root) || clone_tree(r, r->root, src->root))
        goto fail;
    return r;
fail:
    kifu_record_free(r);
    return NULL;
}
