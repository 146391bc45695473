/* read.c: an MSF document (JSON, its values read by doc.c with core/json.c) into a
 * kifu_msf, checking every type of the format document as it goes: each violation is
 * reported with its JSON path and the place of its value, and reading goes on so that one
 * run names every problem. The states and transitions are checked after it (check.c), on
 * a record whose types are right. Variations are read from a stack of lines, in file
 * order, without recursion over their depth. */
#include <stdio.h>
#include <string.h>

#include "core/json_path.h"
#include "kifu_private.h"
#include "msf/msf.h"

typedef kifu__msf_val val;

typedef struct ctx {
    kifu_msf *m;
    kifu__msf_report *rep;
    kifu__json_path path; /* of the value being read */
    /* each node's value, by node id: the checks place their problems from it */
    const kifu__msf_val **node_val;
    size_t nnode_val, capnode_val;
} ctx;

/* Notes v as node n's value. 0, or -1 on NOMEM. */
static int note_node(ctx *c, const kifu_msf_node *n, const kifu__msf_val *v)
{
    if (kifu__reserve(&c->node_val, &c->capnode_val, n->id + 1, sizeof *c->node_val, 64))
        return -1;
    while (c->nnode_val <= n->id)
        c->node_val[c->nnode_val++] = NULL;
    c->node_val[n->id] = v;
    return 0;
}

/* A line still to read: its seslax array and path. */
typedef struct frame {
    const val *seslax;
    kifu_msf_line *line;
    size_t next;   /* index of the next node */
    const val *at; /* the next node */
    char *path;
} frame;

static size_t push_key(ctx *c, const char *key)
{
    return kifu__json_path_key(&c->path, key);
}

static size_t push_index(ctx *c, size_t i)
{
    return kifu__json_path_index(&c->path, i);
}

static void pop(ctx *c, size_t old)
{
    kifu__json_path_pop(&c->path, old);
}

static int is(const val *v, int type)
{
    return v && v->type == type;
}

static int is_array(const val *v)
{
    return is(v, KIFU__JSON_ARRAY);
}

static const char *str(const val *v)
{
    return is(v, KIFU__JSON_STRING) ? v->s : NULL;
}

static size_t size(const val *v)
{
    return is_array(v) ? v->count : 0;
}

static int is_integer(const val *v)
{
    return is(v, KIFU__JSON_NUMBER) && v->is_int;
}

/* The value, as messages name what they found. */
static void describe(const val *v, char *buf, size_t cap)
{
    switch (v ? v->type : KIFU__JSON_NULL) {
    case KIFU__JSON_OBJECT:
        snprintf(buf, cap, "an object");
        break;
    case KIFU__JSON_ARRAY:
        snprintf(buf, cap, "an array of %zu", v->count);
        break;
    case KIFU__JSON_STRING:
        snprintf(buf, cap, "\"%.60s\"", v->s);
        break;
    case KIFU__JSON_NUMBER:
        /* an integer beyond long long as written (a real's digits would be lost) */
        if (v->is_int)
            snprintf(buf, cap, "%lld", v->i);
        else if (!memchr(v->s, '.', v->n) && !memchr(v->s, 'e', v->n) &&
                 !memchr(v->s, 'E', v->n))
            snprintf(buf, cap, "%.*s", v->n > 60 ? 60 : (int)v->n, v->s);
        else
            snprintf(buf, cap, "%g", v->d);
        break;
    case KIFU__JSON_TRUE:
    case KIFU__JSON_FALSE:
        snprintf(buf, cap, "a boolean");
        break;
    default:
        snprintf(buf, cap, v ? "null" : "nothing");
        break;
    }
}

/* The value at the current path is not `expected`; v NULL: the member is missing from
 * the object `in`, where the problem is then placed. */
static void bad_in(ctx *c, const val *in, const val *v, const char *expected)
{
    char found[96];
    describe(v, found, sizeof found);
    kifu__msf_problem_at(c->rep, v ? v->off : in->off, KIFU_ERR_SCHEMA,
                         c->path.len ? c->path.s : "(top level)", expected, found,
                         "expected %s, found %s", expected, found);
}

static void bad(ctx *c, const val *v, const char *expected)
{
    bad_in(c, NULL, v, expected);
}

/* The member `key` of object o, with the path pushed; a missing required one is
 * reported (and NULL returned, the path popped back). */
static const val *member(ctx *c, const val *o, const char *key, int required, size_t *old)
{
    *old = push_key(c, key);
    const val *v = kifu__msf_get(o, key);
    if (!v) {
        if (required)
            bad_in(c, o, NULL, "this member");
        pop(c, *old);
    }
    return v;
}

/* Every key of o must be one of `allowed` (NULL-terminated). */
static void known_keys(ctx *c, const val *o, const char *const *allowed)
{
    const val *v = o + 1;
    for (size_t i = 0; i < o->count; i++, v = kifu__msf_next(v)) {
        const char *k = v->key;
        int ok = 0;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = strcmp(*a, k) == 0;
        if (!ok) {
            size_t old = push_key(c, k);
            kifu__msf_problem_at(c->rep, v->off, KIFU_ERR_SCHEMA, c->path.s,
                                 "a key of the format", k, "unknown key \"%.60s\"", k);
            pop(c, old);
        }
    }
}

static int is_object(ctx *c, const val *v, const char *what)
{
    if (is(v, KIFU__JSON_OBJECT))
        return 1;
    bad(c, v, what);
    return 0;
}

static void read_int(ctx *c, const val *v, long long lo, long long hi, long *out)
{
    if (!is_integer(v) || v->i < lo || v->i > hi) {
        char want[64];
        snprintf(want, sizeof want, "an integer %lld..%lld", lo, hi);
        bad(c, v, want);
        return;
    }
    *out = (long)v->i;
}

static void read_string(ctx *c, const val *v, char **out)
{
    if (!is(v, KIFU__JSON_STRING)) {
        bad(c, v, "a string");
        return;
    }
    if (kifu__msf_set_string(out, str(v)))
        kifu__msf_problem(c->rep, KIFU_ERR_NOMEM, c->path.s, NULL, NULL, "out of memory");
}

/* A DateString: RFC 3339 date-time. */
static void read_date(ctx *c, const val *v, char **out)
{
    long long secs;
    long nanos;
    if (!is(v, KIFU__JSON_STRING) || kifu__msf_time(str(v), &secs, &nanos)) {
        bad(c, v, "an RFC 3339 date-time (2007-07-14T01:28:10+09:00)");
        return;
    }
    read_string(c, v, out);
}

/* A piece name: any of the 29 (Piece); the side's sets are checked with the state. */
static void read_piece(ctx *c, const val *v, int nullable, uint8_t *out)
{
    int p = is(v, KIFU__JSON_STRING) ? kifu_msf_piece_from_name(str(v)) : 0;
    if (p)
        *out = (uint8_t)p;
    else if (!(nullable && is(v, KIFU__JSON_NULL)))
        bad(c, v, nullable ? "a piece name or null" : "a piece name");
}

/* Reads an array of pieces into list (at most cap), *n their count. */
static void read_pieces(ctx *c, const val *v, uint8_t *list, size_t cap, uint8_t *n,
                        const char *what)
{
    if (!is_array(v)) {
        bad(c, v, what);
        return;
    }
    const val *e = v + 1;
    for (size_t i = 0; i < v->count; i++, e = kifu__msf_next(e)) {
        size_t old = push_index(c, i);
        if (i >= cap) {
            bad(c, e, "no more pieces (the list has too many to be without duplicates)");
            pop(c, old);
            break;
        }
        read_piece(c, e, 0, &list[i]);
        *n = (uint8_t)(i + 1);
        pop(c, old);
    }
}

static void read_player(ctx *c, const val *v, uint8_t *out)
{
    const char *s = str(v);
    if (s && strcmp(s, "arxe") == 0)
        *out = KIFU_MSF_ARXE;
    else if (s && strcmp(s, "sorn") == 0)
        *out = KIFU_MSF_SORN;
    else
        bad(c, v, "\"arxe\" or \"sorn\"");
}

static void read_state(ctx *c, const val *v, kifu_msf_state *st)
{
    static const char *const keys[] = {"sast", "arxe", "sorn", "ele", "korol", NULL};
    memset(st, 0, sizeof *st);
    if (!is_object(c, v, "a State object"))
        return;
    known_keys(c, v, keys);
    size_t old;
    const val *x;
    if ((x = member(c, v, "sast", 1, &old))) {
        read_player(c, x, &st->sast);
        pop(c, old);
    }
    for (int side = 0; side < 2; side++) {
        static const char *const cp[] = {"txifol", "evol", NULL};
        if (!(x = member(c, v, kifu__msf_sides[side], 1, &old)))
            continue;
        if (is_object(c, x,
                      "a CapturedPieces object ({\"txifol\": [], \"evol\": null})")) {
            known_keys(c, x, cp);
            size_t o2;
            const val *y;
            if ((y = member(c, x, "txifol", 1, &o2))) {
                read_pieces(c, y, st->txifol[side], 14, &st->ntxifol[side],
                            "an array of piece names");
                pop(c, o2);
            }
            if ((y = member(c, x, "evol", 1, &o2))) {
                read_piece(c, y, 1, &st->evol[side]);
                pop(c, o2);
            }
        }
        pop(c, old);
    }
    if ((x = member(c, v, "ele", 1, &old))) {
        if (!is_array(x) || size(x) != 7) {
            bad(c, x, "a 7x7 array (7 rows)");
        } else {
            for (size_t r = 0; r < 7; r++) {
                size_t o2 = push_index(c, r);
                const val *row = kifu__msf_at(x, r);
                if (!is_array(row) || size(row) != 7) {
                    bad(c, row, "a row of 7 squares (piece names or null)");
                } else {
                    for (size_t col = 0; col < 7; col++) {
                        size_t o3 = push_index(c, col);
                        read_piece(c, kifu__msf_at(row, col), 1, &st->ele[r][col]);
                        pop(c, o3);
                    }
                }
                pop(c, o2);
            }
        }
        pop(c, old);
    }
    if ((x = member(c, v, "korol", 1, &old))) {
        read_pieces(c, x, st->korol, 15, &st->nkorol, "an array of turnable pieces");
        pop(c, old);
    }
}

static void read_square(ctx *c, const val *v, kifu_msf_square *sq)
{
    static const char *const keys[] = {"alsia", "soom", NULL};
    if (!is_object(c, v, "a Position ({\"alsia\": 0..6, \"soom\": 0..6})"))
        return;
    known_keys(c, v, keys);
    size_t old;
    const val *x;
    long n = 0;
    if ((x = member(c, v, "alsia", 1, &old))) {
        read_int(c, x, 0, 6, &n);
        sq->alsia = (uint8_t)n;
        pop(c, old);
    }
    n = 0;
    if ((x = member(c, v, "soom", 1, &old))) {
        read_int(c, x, 0, 6, &n);
        sq->soom = (uint8_t)n;
        pop(c, old);
    }
}

static void read_move(ctx *c, const val *v, kifu_msf_move *mv)
{
    static const char *const kluul[] = {"pit", "luul", NULL};
    static const char *const kkor[] = {"pit", "ka", NULL};
    static const char *const kev[] = {"pit", "evol", NULL};
    static const char *const ksed[] = {"pit", NULL};
    memset(mv, 0, sizeof *mv);
    if (!is_object(c, v, "a Move object"))
        return;
    size_t old;
    const val *x = member(c, v, "pit", 1, &old);
    if (!x)
        return;
    const char *pit = str(x);
    for (int k = 1; k <= KIFU_MSF_SED && pit; k++)
        if (strcmp(pit, kifu__msf_pits[k]) == 0)
            mv->pit = (uint8_t)k;
    if (!mv->pit)
        bad(c, x, "\"leim\", \"okke\", \"kor\", \"ev\" or \"sed\"");
    pop(c, old);
    switch (mv->pit) {
    case KIFU_MSF_LEIM:
    case KIFU_MSF_OKKE: {
        known_keys(c, v, kluul);
        size_t want = mv->pit == KIFU_MSF_LEIM ? 1 : 2;
        if (!(x = member(c, v, "luul", 1, &old)))
            break;
        if (!is_array(x) || size(x) != want) {
            bad(c, x, want == 1 ? "an array of one FromTo" : "an array of two FromTo");
        } else {
            for (size_t k = 0; k < want; k++) {
                static const char *const ft[] = {"i", "a", NULL};
                size_t o2 = push_index(c, k), o3;
                const val *e = kifu__msf_at(x, k), *y;
                if (is_object(c, e, "a FromTo ({\"i\": Position, \"a\": Position})")) {
                    known_keys(c, e, ft);
                    if ((y = member(c, e, "i", 1, &o3))) {
                        read_square(c, y, &mv->from[k]);
                        pop(c, o3);
                    }
                    if ((y = member(c, e, "a", 1, &o3))) {
                        read_square(c, y, &mv->to[k]);
                        pop(c, o3);
                    }
                }
                pop(c, o2);
            }
        }
        pop(c, old);
        break;
    }
    case KIFU_MSF_KOR:
        known_keys(c, v, kkor);
        if ((x = member(c, v, "ka", 1, &old))) {
            read_square(c, x, &mv->ka);
            pop(c, old);
        }
        break;
    case KIFU_MSF_EV:
        known_keys(c, v, kev);
        if ((x = member(c, v, "evol", 1, &old))) {
            read_piece(c, x, 0, &mv->evol);
            if (mv->evol == KIFU_MSF_TEM) /* Piece.Lantis: any piece but tem */
                bad(c, x, "a piece name other than tem (Piece.Lantis)");
            pop(c, old);
        }
        break;
    case KIFU_MSF_SED:
        known_keys(c, v, ksed);
        break;
    }
}

static void read_result(ctx *c, const val *v, kifu__msf_result *res)
{
    static const char *const kwin[] = {"pit", "vastan", "im", "oprens", NULL};
    static const char *const kart[] = {"pit", "vastan", "ito", "im", "oprens", NULL};
    static const char *const kdaim[] = {"pit", "im", "oprens", NULL};
    if (!is_object(c, v, "a Result object"))
        return;
    size_t old;
    const val *x = member(c, v, "pit", 1, &old);
    int pit = -1;
    if (x) {
        const char *s = str(x);
        for (int k = 0; k < 4 && s; k++)
            if (strcmp(s, kifu__msf_results[k]) == 0)
                pit = k;
        if (pit < 0)
            bad(c, x, "\"xeltsoldes\", \"teomsast\", \"artansoldes\" or \"daim\"");
        pop(c, old);
    }
    if (pit < 0)
        return;
    res->pit = (uint8_t)pit;
    known_keys(c, v,
               pit == KIFU_MSF_DAIM          ? kdaim
               : pit == KIFU_MSF_ARTANSOLDES ? kart
                                             : kwin);
    if (pit != KIFU_MSF_DAIM && (x = member(c, v, "vastan", 1, &old))) {
        read_player(c, x, &res->vastan);
        pop(c, old);
    }
    if (pit == KIFU_MSF_ARTANSOLDES && (x = member(c, v, "ito", 1, &old))) {
        long ito = 0;
        read_int(c, x, 0, 4, &ito);
        res->ito = (uint8_t)ito;
        pop(c, old);
    }
    if ((x = member(c, v, "im", 0, &old))) {
        read_date(c, x, &res->im);
        pop(c, old);
    }
    if ((x = member(c, v, "oprens", 0, &old))) {
        read_string(c, x, &res->oprens);
        pop(c, old);
    }
}

/* Pushes a frame for every variation of `mit` (an array at the current path) hanging on
 * node n, last first, so that they are read next in file order. -1 on NOMEM. */
static int read_mit(ctx *c, const val *mit, kifu_msf_node *n, frame **stack,
                    size_t *depth, size_t *cap)
{
    if (!is_array(mit)) {
        bad(c, mit, "an array of Variation objects");
        return 0;
    }
    size_t first = *depth;
    const val *var = mit + 1;
    for (size_t k = 0; k < mit->count; k++, var = kifu__msf_next(var)) {
        size_t old = push_index(c, k);
        kifu_msf_line *l = kifu_msf_add_variation(c->m, n);
        if (!l)
            return -1;
        if (is_object(c, var,
                      "a Variation object ({\"fixt\": ..., \"seslax\": [...]})")) {
            static const char *const keys[] = {"fixt", "seslax", NULL};
            known_keys(c, var, keys);
            size_t o2;
            const val *x;
            if ((x = member(c, var, "fixt", 1, &o2))) {
                read_result(c, x, &l->fixt);
                pop(c, o2);
            }
            if ((x = member(c, var, "seslax", 1, &o2))) {
                if (!is_array(x)) {
                    bad(c, x, "an array of NonrootNode objects");
                } else {
                    char *p = kifu__strdup(c->path.s);
                    if (!p || kifu__reserve(stack, cap, *depth + 1, sizeof **stack, 16)) {
                        kifu__free(p);
                        return -1;
                    }
                    (*stack)[(*depth)++] = (frame){x, l, 0, x + 1, p};
                }
                pop(c, o2);
            }
        }
        pop(c, old);
    }
    /* reverse the frames just pushed: the first variation is read first */
    for (size_t i = first, j = *depth; i + 1 < j; i++, j--) {
        frame t = (*stack)[i];
        (*stack)[i] = (*stack)[j - 1];
        (*stack)[j - 1] = t;
    }
    return 0;
}

/* The members of a node but `mit`: ov (not at the root), slax, im, oprens. */
static void read_node(ctx *c, const val *v, kifu_msf_node *n, int root)
{
    static const char *const kroot[] = {"fala", "slax", "mit", "im", "oprens", NULL};
    static const char *const knode[] = {"ov", "slax", "mit", "im", "oprens", NULL};
    known_keys(c, v, root ? kroot : knode);
    size_t old;
    const val *x;
    if (root && (x = member(c, v, "fala", 1, &old))) {
        read_int(c, x, 0, 2147483647LL, &c->m->fala);
        pop(c, old);
    }
    if (!root && (x = member(c, v, "ov", 1, &old))) {
        read_move(c, x, &n->ov);
        pop(c, old);
    }
    if ((x = member(c, v, "slax", 1, &old))) {
        read_state(c, x, &n->slax);
        pop(c, old);
    }
    if ((x = member(c, v, "im", 0, &old))) {
        read_date(c, x, &n->im);
        pop(c, old);
    }
    if ((x = member(c, v, "oprens", 0, &old))) {
        read_string(c, x, &n->oprens);
        pop(c, old);
    }
}

/* Reads the lines on the stack until it is empty: a node at a time from the top frame,
 * its variations pushed above it. 0, or -1 on NOMEM. */
static int read_lines(ctx *c, frame **stack, size_t *depth, size_t *cap)
{
    while (*depth) {
        frame *f = &(*stack)[*depth - 1];
        if (f->next >= f->seslax->count) {
            kifu__free(f->path);
            (*depth)--;
            continue;
        }
        size_t i = f->next++;
        pop(c, 0);
        kifu__json_path_add(&c->path, f->path, strlen(f->path));
        push_index(c, i);
        kifu_msf_line *line = f->line;
        const val *v = f->at;
        f->at = kifu__msf_next(v);
        if (!is_object(c, v, "a NonrootNode object"))
            continue;
        kifu_msf_node *n = kifu__msf_node_new(c->m);
        if (!n || kifu__msf_line_push(line, n) || note_node(c, n, v))
            return -1;
        read_node(c, v, n, 0);
        size_t old;
        const val *mit = member(c, v, "mit", 1, &old);
        if (mit) {
            /* f may move when the stack grows: nothing of it is used after this */
            if (read_mit(c, mit, n, stack, depth, cap))
                return -1;
            pop(c, old);
        }
    }
    return 0;
}

static int read_doc(ctx *c, const val *doc)
{
    static const char *const keys[] = {"aptex", "kit", "fixt", "seslax", NULL};
    if (!is_object(c, doc, "an MSF record (an object with aptex, kit, fixt, seslax)"))
        return 0;
    known_keys(c, doc, keys);
    kifu_msf *m = c->m;
    size_t old;
    const val *x;
    if ((x = member(c, doc, "aptex", 1, &old))) {
        if (is_object(c, x, "a GameTags object (string values)")) {
            const val *tag = x + 1;
            for (size_t i = 0; i < x->count; i++, tag = kifu__msf_next(tag)) {
                size_t o2 = push_key(c, tag->key);
                if (!is(tag, KIFU__JSON_STRING))
                    bad(c, tag, "a string");
                else if (kifu_msf_tag_set(m, tag->key, tag->s))
                    return -1;
                pop(c, o2);
            }
        }
        pop(c, old);
    }
    if ((x = member(c, doc, "fixt", 1, &old))) {
        read_result(c, x, &m->main->fixt);
        pop(c, old);
    }
    frame *stack = NULL;
    size_t depth = 0, cap = 0;
    int rc = 0;
    const val *seslax = member(c, doc, "seslax", 1, &old);
    if (seslax) {
        if (!is_array(seslax))
            bad(c, seslax, "an array of NonrootNode objects");
        pop(c, old);
    }
    const val *kit = member(c, doc, "kit", 1, &old);
    if (kit && is_object(c, kit, "a RootNode object")) {
        if (note_node(c, m->root, kit))
            return -1;
        read_node(c, kit, m->root, 1);
        size_t o2;
        const val *mit = member(c, kit, "mit", 1, &o2);
        if (mit) {
            rc = read_mit(c, mit, m->root, &stack, &depth, &cap);
            pop(c, o2);
        }
    }
    if (kit)
        pop(c, old);
    /* the main line is read after kit's variations: it comes last on the stack's bottom */
    if (rc == 0 && is_array(seslax)) {
        char *p = kifu__strdup("seslax");
        if (!p || kifu__reserve(&stack, &cap, depth + 1, sizeof *stack, 16)) {
            kifu__free(p);
            rc = -1;
        } else {
            memmove(stack + 1, stack, depth * sizeof *stack);
            stack[0] = (frame){seslax, m->main, 0, seslax + 1, p};
            depth++;
        }
    }
    if (rc == 0)
        rc = read_lines(c, &stack, &depth, &cap);
    for (size_t i = 0; i < depth; i++)
        kifu__free(stack[i].path);
    kifu__free(stack);
    return rc;
}

kifu_msf *kifu_msf_read(const void *data, size_t len, const kifu_msf_read_options *o,
                        kifu_error *err)
{
    kifu_msf_read_options none = {0};
    if (!o)
        o = &none;
    kifu__msf_report rep = {o->problem, o->ctx, err, o->source, 0,   data,
                            NULL,       NULL,   0,   NULL,      NULL};
    kifu__msf_doc doc;
    kifu_error e = {0};
    if (kifu__msf_doc_read(&doc, data, len, &e)) {
        if (o->source)
            kifu__error_source(&e, o->source);
        if (o->problem)
            o->problem(o->ctx, &e);
        if (err && !err->code)
            *err = e;
        return NULL;
    }
    kifu_msf *m = kifu_msf_new(NULL);
    if (!m) {
        kifu__msf_doc_free(&doc);
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    memset(&m->root->slax, 0, sizeof m->root->slax);
    rep.doc = &doc;
    ctx c = {.m = m, .rep = &rep};
    int rc = read_doc(&c, doc.v);
    rep.node_val = c.node_val;
    rep.nnode_val = c.nnode_val;
    if (rc)
        kifu__msf_problem(&rep, KIFU_ERR_NOMEM, "", NULL, NULL, "out of memory");
    else if (rep.count == 0)
        kifu__msf_check(m, o->flags, &rep);
    kifu__free(c.node_val);
    kifu__msf_doc_free(&doc);
    kifu__msf_more(&rep);
    if (rep.count) {
        kifu_msf_free(m);
        return NULL;
    }
    return m;
}
