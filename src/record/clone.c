/* clone.c: a record's deep copy (kifu_record_clone), its tree copied by the record walk
 * (walk.h), which itself reads the tree of record.c. */
#include <string.h>

#include "kifu_private.h"
#include "record/record.h"
#include "record/walk.h"

static int clone_payload(kifu_record *r, kifu_node *dst, const kifu_node *src)
{
    dst->mv = src->mv;
    kifu_move_time t;
    if (kifu__time_get(src, &t) && kifu__time_set(dst, &t))
        return -1;
    dst->foul = src->foul;
    size_t off;
    if (kifu__node_src_get(src, &off))
        kifu__node_src(dst, off);
    for (size_t i = 0; i < kifu_node_comment_count(src); i++)
        if (kifu_node_add_comment(r, dst, kifu_node_comment(src, i)))
            return -1;
    for (size_t i = 0; i < kifu_node_bookmark_count(src); i++)
        if (kifu_node_add_bookmark(r, dst, kifu_node_bookmark(src, i)))
            return -1;
    int number;
    const char *sid = kifu__node_sid(src, &number);
    if (sid && kifu__node_set_sid(r, dst, sid, number))
        return -1;
    return 0;
}

static kifu_node *clone_child(kifu_record *r, kifu_node *dst, const kifu_node *c)
{
    kifu_node *d = c->kind == KIFU_NODE_SPECIAL
                       ? kifu_node_add_special(r, dst, kifu__special(c))
                       : kifu__node_add_child(r, dst, c->kind);
    if (!d || clone_payload(r, d, c))
        return NULL;
    return d;
}

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
    r->start_number = src->start_number;
    r->sides_by_sign = src->sides_by_sign;
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
