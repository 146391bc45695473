/* tags_def.c: reading tag definitions (the format is docs/tags.md). A text is a list of
 * sections, each `[name]` then `key: value` lines, `board:` followed by a grid pattern
 * (search/pattern.h) up to a blank line. The tagger keeps every text it was given and
 * builds its names and definitions from all of them: a name defined in a later text
 * replaces the earlier texts' definitions of it, and keeps its place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu_private.h"
#include "notation/words.h"
#include "tags/tags.h"

static const char *const family_words[] = {"戦法", "囲い", "備考"};

const char *kifu_tag_family_name(int family)
{
    return family >= 0 && family < 3 ? family_words[family] : NULL;
}

/* A definition as read, its references still names. */
typedef struct rawdef {
    kifu__tagdef d;
    char *name;
    int family;     /* -1: not said */
    char **refs[5]; /* implies, excludes, needs, opponent, sides: NULL-terminated */
    int ref_line[5];
} rawdef;

typedef struct parser {
    const char *text, *end, *source;
    int text_index;
    int lineno;
    const char *line; /* start of the current line */
    kifu_error *err;
    rawdef *v;
    size_t n, cap;
} parser;

static const char *const ref_keys[5] = {"implies", "excludes", "needs", "opponent",
                                        "sides"};

static void free_strings(char **v)
{
    if (!v)
        return;
    for (char **s = v; *s; s++)
        kifu__free(*s);
    kifu__free(v);
}

static void rawdef_free(rawdef *r)
{
    kifu__free(r->name);
    for (int i = 0; i < 5; i++)
        free_strings(r->refs[i]);
    kifu__pattern_free(r->d.pat);
    kifu__free(r->d.implies.v);
    kifu__free(r->d.excludes.v);
    kifu__free(r->d.needs.v);
    kifu__free(r->d.opponent.v);
    kifu__free(r->d.sides.v);
    kifu__free(r->d.group);
}

static int fail(parser *p, const char *at, const char *expected, const char *fmt,
                const char *what)
{
    char found[48];
    size_t n = 0;
    while (at + n < p->end && at[n] != '\n' && at[n] != '\r' && n < 40)
        n++;
    snprintf(found, sizeof found, "%.*s", (int)n, at);
    kifu__error(p->err, KIFU_ERR_SYNTAX, p->lineno,
                kifu__utf8_column(p->line, (size_t)(at - p->line)),
                (size_t)(at - p->text), expected, n ? found : "the end of the line", fmt,
                what);
    kifu__error_source(p->err, p->source);
    return -1;
}

static int nomem(parser *p)
{
    return kifu__error(p->err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

/* [s, e) without surrounding spaces (ASCII and full-width). */
static void trim(const char **s, const char **e)
{
    *s += kifu__jp_space(*s, *e);
    while (*e > *s) {
        if ((*e)[-1] == ' ' || (*e)[-1] == '\t')
            (*e)--;
        else if (*e - *s >= 3 && memcmp(*e - 3, "\xE3\x80\x80", 3) == 0)
            *e -= 3;
        else
            break;
    }
}

static char *dup_n(const char *s, size_t n)
{
    char *d = kifu__malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* A list of names separated by `,` `、` `，`: a new NULL-terminated array. */
static int read_names(parser *p, const char *s, const char *e, char ***out)
{
    size_t n = 0, cap = 0;
    char **v = NULL;
    while (s < e) {
        const char *q = s;
        size_t sep = 0;
        while (q < e) {
            if (*q == ',')
                sep = 1;
            else if (kifu__jp_starts(q, e, "、") || kifu__jp_starts(q, e, "，"))
                sep = 3;
            if (sep)
                break;
            q++;
        }
        const char *a = s, *b = q;
        trim(&a, &b);
        if (a == b) {
            free_strings(v);
            return fail(p, s, "a tag name", "%s", "an empty name in a list of tags");
        }
        if (kifu__reserve(&v, &cap, n + 2, sizeof *v, 4) ||
            !(v[n] = dup_n(a, (size_t)(b - a)))) {
            free_strings(v);
            return nomem(p);
        }
        v[++n] = NULL;
        s = q + sep;
    }
    if (!v)
        return fail(p, s, "one tag name or more", "%s", "an empty list of tags");
    *out = v;
    return 0;
}

/* A non-negative number. */
static int read_number(parser *p, const char *s, const char *e, int *out)
{
    long v;
    size_t n = kifu__jp_number(s, e, &v);
    if (!n || s + n != e || v > 100000)
        return fail(p, s, "a number", "%s", "not a number");
    *out = (int)v;
    return 0;
}

/* Squares, as `5九` or `59`, separated by spaces or the list separators. */
static int read_squares(parser *p, const char *s, const char *e, uint64_t bits[2])
{
    while (s < e) {
        s += kifu__jp_space(s, e);
        if (*s == ',') {
            s++;
            continue;
        }
        if (kifu__jp_starts(s, e, "、") || kifu__jp_starts(s, e, "，")) {
            s += 3;
            continue;
        }
        if (s >= e)
            break;
        int x, y;
        size_t a = kifu__jp_digit(s, e, &x);
        size_t b = a ? kifu__jp_rank(s + a, e, &y) : 0;
        if (!a || !b || x < 1 || y < 1)
            return fail(p, s, "a square such as 5九 or 59", "%s", "not a square");
        int sq = KIFU_SQ(x, y);
        bits[sq >> 6] |= 1ull << (sq & 63);
        s += a + b;
    }
    return 0;
}

static int read_rook(parser *p, const char *s, const char *e, kifu__tagdef *d)
{
    int lo, hi;
    size_t a = kifu__jp_digit(s, e, &lo);
    if (!a)
        return fail(p, s, "a file 1..9, or two as 5-8", "%s", "not a rook file");
    hi = lo;
    const char *q = s + a;
    if (q < e &&
        (*q == '-' || kifu__jp_starts(q, e, "〜") || kifu__jp_starts(q, e, "～"))) {
        q += *q == '-' ? 1 : 3;
        size_t b = kifu__jp_digit(q, e, &hi);
        if (!b)
            return fail(p, q, "a file 1..9", "%s", "not a rook file");
        q += b;
    }
    if (q != e || lo > hi)
        return fail(p, s, "a file 1..9, or two as 5-8", "%s", "not a rook file");
    d->rook_lo = lo, d->rook_hi = hi;
    return 0;
}

/* The grid after `board:`: lines up to a blank line or the end. Returns the end. */
static const char *read_board(parser *p, const char *s, rawdef *r)
{
    const char *q = s;
    int lines = 0;
    while (q < p->end) {
        const char *e = q;
        while (e < p->end && *e != '\n' && *e != '\r')
            e++;
        const char *t = q + kifu__jp_space(q, e);
        if (t == e)
            break;
        lines++;
        q = e;
        if (q < p->end && *q == '\r')
            q++;
        if (q < p->end && *q == '\n')
            q++;
    }
    kifu_error e;
    kifu_error_clear(&e);
    r->d.pat = kifu__pattern_grid(s, (size_t)(q - s), &e);
    if (!r->d.pat) {
        if (p->err && !p->err->code) {
            *p->err = e;
            p->err->line = e.line ? p->lineno + e.line : p->lineno;
            p->err->offset += (size_t)(s - p->text);
            kifu__error_source(p->err, p->source);
        }
        return NULL;
    }
    p->lineno += lines;
    return q;
}

static int key_is(const char *s, const char *e, const char *key)
{
    size_t n = strlen(key);
    return (size_t)(e - s) == n && memcmp(s, key, n) == 0;
}

/* One `key: value` line of section r. */
static int read_key(parser *p, rawdef *r, const char *s, const char *e, const char **next)
{
    const char *k = s, *colon = s;
    while (colon < e && *colon != ':' && !kifu__jp_starts(colon, e, "："))
        colon++;
    if (colon == e)
        return fail(p, s, "key: value, or [name] to start a definition", "%s",
                    "not a line of a tag definition");
    const char *ke = colon;
    trim(&k, &ke);
    const char *v = colon + (*colon == ':' ? 1 : 3), *ve = e;
    trim(&v, &ve);
    kifu__tagdef *d = &r->d;
    if (key_is(k, ke, "board")) {
        if (d->pat)
            return fail(p, k, "one board per definition", "%s", "a second board");
        if (v != ve)
            return fail(p, v, "the grid on the lines after `board:`", "%s",
                        "text after board:");
        const char *q = e;
        if (q < p->end && *q == '\r')
            q++;
        if (q < p->end && *q == '\n')
            q++;
        *next = read_board(p, q, r);
        return *next ? 0 : -1;
    }
    if (key_is(k, ke, "family")) {
        for (int f = 0; f < 3; f++)
            if (key_is(v, ve, family_words[f]))
                return r->family = f, 0;
        return fail(p, v, "戦法, 囲い or 備考", "%s", "unknown family");
    }
    if (key_is(k, ke, "side")) {
        if (key_is(v, ve, "each"))
            return d->game = 0, 0;
        if (key_is(v, ve, "game"))
            return d->game = 1, 0;
        return fail(p, v, "each or game", "%s", "unknown side");
    }
    if (key_is(k, ke, "by"))
        return read_number(p, v, ve, &d->by);
    if (key_is(k, ke, "from"))
        return read_number(p, v, ve, &d->from);
    if (key_is(k, ke, "hold")) {
        if (read_number(p, v, ve, &d->hold))
            return -1;
        if (d->hold < 1)
            return fail(p, v, "a number of moves, 1 or more", "%s", "hold 0");
        return 0;
    }
    if (key_is(k, ke, "group")) {
        if (v == ve)
            return fail(p, v, "a group name", "%s", "an empty group");
        kifu__free(d->group);
        if (!(d->group = dup_n(v, (size_t)(ve - v))))
            return nomem(p);
        return 0;
    }
    if (key_is(k, ke, "rook"))
        return read_rook(p, v, ve, d);
    if (key_is(k, ke, "capture")) {
        d->capture = key_is(v, ve, "before") ? 1 : key_is(v, ve, "after") ? 2 : 0;
        return d->capture ? 0 : fail(p, v, "before or after", "%s", "unknown capture");
    }
    if (key_is(k, ke, "moved"))
        return read_squares(p, v, ve, d->moved);
    if (key_is(k, ke, "unmoved"))
        return read_squares(p, v, ve, d->unmoved);
    for (int i = 0; i < 5; i++)
        if (key_is(k, ke, ref_keys[i])) {
            if (r->refs[i])
                return fail(p, k, "each key once", "%s", "a key given twice");
            r->ref_line[i] = p->lineno;
            return read_names(p, v, ve, &r->refs[i]);
        }
    return fail(p, k,
                "family, side, board, by, from, hold, rook, capture, moved, unmoved, "
                "group, implies, excludes, needs, opponent or sides",
                "%s", "unknown key");
}

/* Read one text's sections into p->v. */
static int parse_text(parser *p)
{
    const char *s = p->text;
    rawdef *cur = NULL;
    p->lineno = 0;
    while (s < p->end) {
        const char *e = s;
        while (e < p->end && *e != '\n' && *e != '\r')
            e++;
        p->lineno++;
        p->line = s;
        const char *t = s + kifu__jp_space(s, e);
        const char *next = NULL;
        if (t < e && *t != '#') {
            if (*t == '[') {
                const char *close = memchr(t, ']', (size_t)(e - t));
                const char *a = t + 1, *b = close ? close : e;
                trim(&a, &b);
                if (!close || a == b)
                    return fail(p, t, "[name]", "%s", "bad section line");
                const char *after = close + 1;
                after += kifu__jp_space(after, e);
                if (after != e)
                    return fail(p, after, "the end of the line after [name]", "%s",
                                "text after the section name");
                if (kifu__reserve(&p->v, &p->cap, p->n + 1, sizeof *p->v, 16))
                    return nomem(p);
                cur = &p->v[p->n++];
                memset(cur, 0, sizeof *cur);
                cur->family = -1;
                cur->d.by = -1;
                cur->d.hold = 1;
                cur->d.text = p->text_index;
                cur->d.line = p->lineno;
                if (!(cur->name = dup_n(a, (size_t)(b - a))))
                    return nomem(p);
            } else if (!cur) {
                return fail(p, t, "[name] to start a definition", "%s",
                            "text before the first definition");
            } else if (read_key(p, cur, t, e, &next)) {
                return -1;
            }
        }
        if (next) {
            s = next;
            continue;
        }
        s = e;
        if (s < p->end && *s == '\r')
            s++;
        if (s < p->end && *s == '\n')
            s++;
    }
    return 0;
}

void kifu__tags_clear(kifu_tagger *t)
{
    for (size_t i = 0; i < t->ndefs; i++) {
        kifu__tagdef *d = &t->defs[i];
        kifu__pattern_free(d->pat);
        kifu__free(d->implies.v);
        kifu__free(d->excludes.v);
        kifu__free(d->needs.v);
        kifu__free(d->opponent.v);
        kifu__free(d->sides.v);
        kifu__free(d->group);
    }
    kifu__free(t->defs);
    for (size_t i = 0; i < t->nnames; i++)
        kifu__free(t->names[i]);
    kifu__free(t->names);
    kifu__free(t->family);
    t->defs = NULL, t->names = NULL, t->family = NULL;
    t->ndefs = t->nnames = 0;
    /* What was made from the definitions goes with them. */
    kifu__tagplan_free(t->plan);
    kifu__tagrun_free(t->run);
    t->plan = NULL, t->run = NULL;
}

static int find_name(char **names, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return (int)i;
    return -1;
}

/* An error about definition r's reference key i (its line, column 1). */
static int ref_fail(const kifu_tagger *t, const rawdef *r, int i, const char *name,
                    const char *why, kifu_error *err)
{
    kifu__error(err, KIFU_ERR_SYNTAX, r->ref_line[i], 1, 0, NULL, name, "[%s] %s %s: %s",
                r->name, ref_keys[i], name, why);
    kifu__error_source(err, t->sources[r->d.text]);
    return -1;
}

/* Names to indexes, checking the order rules: a tag is decided in the order of the
 * names, so what it needs, excludes or is the opponent of must come before it, and what
 * it implies after it. */
static int resolve(kifu_tagger *t, rawdef *r, kifu_error *err)
{
    kifu__tagref *out[5] = {&r->d.implies, &r->d.excludes, &r->d.needs, &r->d.opponent,
                            &r->d.sides};
    for (int i = 0; i < 5; i++) {
        if (!r->refs[i])
            continue;
        size_t n = 0;
        while (r->refs[i][n])
            n++;
        if (!(out[i]->v = kifu__calloc(n, sizeof(int))))
            return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        out[i]->n = n;
        for (size_t k = 0; k < n; k++) {
            const char *name = r->refs[i][k];
            int x = find_name(t->names, t->nnames, name);
            if (x < 0 && i == 1)
                for (int f = 0; f < 3; f++)
                    if (strcmp(name, family_words[f]) == 0)
                        x = -2 - f;
            if (x == -1 || (x < -1 && i != 1))
                return ref_fail(t, r, i, name, "no tag of that name is defined", err);
            if (i == 0 && x <= r->d.name)
                return ref_fail(t, r, i, name, "a tag implies only tags defined after it",
                                err);
            if (i > 0 && x >= r->d.name)
                return ref_fail(t, r, i, name,
                                "a tag refers only to tags defined before it", err);
            out[i]->v[k] = x;
        }
    }
    if (r->d.game && (!r->refs[4] || out[4]->n != 2))
        return kifu__error(err, KIFU_ERR_SYNTAX, r->d.line, 1, 0, "sides: A, B", NULL,
                           "[%s] is a game's tag: it needs `sides:` with two names",
                           r->name),
               kifu__error_source(err, t->sources[r->d.text]), -1;
    if (!r->d.game && r->refs[4])
        return ref_fail(t, r, 4, r->refs[4][0], "sides: is for side: game", err);
    return 0;
}

int kifu__tags_build(kifu_tagger *t, kifu_error *err)
{
    kifu__tags_clear(t);
    parser p = {0};
    p.err = err;
    int rc = 0;
    for (size_t i = 0; i < t->ntexts && !rc; i++) {
        p.text = t->texts[i];
        p.end = p.text + strlen(p.text);
        p.source = t->sources[i];
        p.text_index = (int)i;
        rc = parse_text(&p);
    }
    /* Names in order of first appearance; each kept from the last text that defines it. */
    int *owner = NULL;
    if (!rc && p.n) {
        t->names = kifu__calloc(p.n, sizeof *t->names);
        t->family = kifu__calloc(p.n, sizeof *t->family);
        owner = kifu__calloc(p.n, sizeof *owner);
        t->defs = kifu__calloc(p.n, sizeof *t->defs);
        if (!t->names || !t->family || !owner || !t->defs)
            rc = nomem(&p);
    }
    for (size_t i = 0; i < p.n && !rc; i++) {
        int x = find_name(t->names, t->nnames, p.v[i].name);
        if (x < 0) {
            x = (int)t->nnames++;
            t->names[x] = p.v[i].name;
            p.v[i].name = NULL; /* the names array owns it now */
            t->family[x] = -1;
        }
        owner[x] = p.v[i].d.text;
        p.v[i].d.name = x;
    }
    for (size_t i = 0; i < p.n && !rc; i++) {
        rawdef *r = &p.v[i];
        if (owner[r->d.name] != r->d.text)
            continue;
        int *fam = &t->family[r->d.name];
        if (!r->name)
            r->name = kifu__strdup(t->names[r->d.name]);
        if (r->family < 0) {
            rc = kifu__error(err, KIFU_ERR_SYNTAX, r->d.line, 1, 0,
                             "family: 戦法|囲い|備考", NULL, "[%s] says no family",
                             t->names[r->d.name]);
            kifu__error_source(err, t->sources[r->d.text]);
        } else if (*fam >= 0 && *fam != r->family) {
            rc = kifu__error(err, KIFU_ERR_SYNTAX, r->d.line, 1, 0, NULL, NULL,
                             "[%s] is defined with two families", t->names[r->d.name]);
            kifu__error_source(err, t->sources[r->d.text]);
        } else if (r->d.game && (r->d.pat || r->d.rook_lo || r->d.moved[0] ||
                                 r->d.moved[1] || r->d.unmoved[0] || r->d.unmoved[1])) {
            rc = kifu__error(err, KIFU_ERR_SYNTAX, r->d.line, 1, 0, NULL, NULL,
                             "[%s] is a game's tag: it has no board, rook or moves",
                             t->names[r->d.name]);
            kifu__error_source(err, t->sources[r->d.text]);
        } else {
            *fam = r->family;
            rc = resolve(t, r, err);
            if (!rc) {
                t->defs[t->ndefs++] = r->d;
                memset(&r->d, 0, sizeof r->d); /* t owns the pattern and refs now */
            }
        }
    }
    for (size_t i = 0; i < p.n; i++)
        rawdef_free(&p.v[i]);
    kifu__free(p.v);
    kifu__free(owner);
    /* A name's definitions side by side, in name order (insertion sort: stable, and the
     * lists are short). */
    for (size_t i = 1; !rc && i < t->ndefs; i++) {
        kifu__tagdef d = t->defs[i];
        size_t j = i;
        for (; j > 0 && t->defs[j - 1].name > d.name; j--)
            t->defs[j] = t->defs[j - 1];
        t->defs[j] = d;
    }
    if (!rc && kifu__tagplan_make(t))
        rc = nomem(&p);
    if (rc)
        kifu__tags_clear(t);
    return rc;
}
