/* check.c: what a Xelto record must satisfy beyond its types. Each state: the pieces of
 * each side's sets, no piece twice, korol only turned pieces on the board. Each move
 * (unless KIFU_MSF_NO_TRANSITIONS): the rules of movement are not published, so only
 * what the states themselves prove is checked: the state a move leads to must be the one
 * before it changed exactly as the move says (docs/msf.md lists the rules with the
 * examples that show them). Times never go back. Every node and line is visited in
 * one flat loop over the record's lists. */
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"
#include "msf/msf.h"

/* ---- RFC 3339 date-times ---- */

static int digits(const char *s, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

/* Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil). */
static long long days_from_civil(int y, int m, int d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int kifu__msf_time(const char *s, long long *secs, long *nanos)
{
    int y, mo, d, h, mi, se, oh = 0, om = 0;
    if (strlen(s) < 20 || digits(s, 4, &y) || s[4] != '-' || digits(s + 5, 2, &mo) ||
        s[7] != '-' || digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't') ||
        digits(s + 11, 2, &h) || s[13] != ':' || digits(s + 14, 2, &mi) || s[16] != ':' ||
        digits(s + 17, 2, &se))
        return -1;
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
        (mo == 2 && d == 29 && !leap) || h > 23 || mi > 59 || se > 60)
        return -1;
    const char *p = s + 19;
    long ns = 0;
    if (*p == '.') {
        int n = 0;
        for (p++; *p >= '0' && *p <= '9'; p++, n++)
            if (n < 9)
                ns = ns * 10 + (*p - '0');
        if (n == 0)
            return -1;
        for (; n < 9; n++)
            ns *= 10;
    }
    int sign = 0;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        sign = *p == '-' ? -1 : 1;
        if (digits(p + 1, 2, &oh) || p[3] != ':' || digits(p + 4, 2, &om) || oh > 23 ||
            om > 59)
            return -1;
        p += 6;
    } else {
        return -1;
    }
    if (*p)
        return -1;
    *secs = days_from_civil(y, mo, d) * 86400LL + h * 3600LL + mi * 60LL + se -
            sign * (oh * 3600LL + om * 60LL);
    *nanos = ns;
    return 0;
}

/* ---- states ---- */

static const char *name(int p)
{
    return p ? kifu__msf_names[p] : "null";
}

/* Where a piece stands in a state: kind 0 ele[a][b], 1 side a's txifol[b], 2 side a's
 * evol; kind -1: nowhere. */
typedef struct spot {
    int kind, a, b;
} spot;

static void spot_path(const char *base, spot s, char *buf, size_t cap)
{
    if (s.kind == 0)
        snprintf(buf, cap, "%s.ele[%d][%d]", base, s.a, s.b);
    else if (s.kind == 1)
        snprintf(buf, cap, "%s.%s.txifol[%d]", base, kifu__msf_sides[s.a], s.b);
    else
        snprintf(buf, cap, "%s.%s.evol", base, kifu__msf_sides[s.a]);
}

/* Calls each piece of st with its spot, in the order duplicates are reported: the board,
 * then arxe's txifol and evol, then sorn's. */
#define FOR_EACH_PIECE(st, p, sp, body)                                                  \
    do {                                                                                 \
        for (int r_ = 0; r_ < 7; r_++)                                                   \
            for (int c_ = 0; c_ < 7; c_++)                                               \
                if ((p = (st)->ele[r_][c_])) {                                           \
                    sp = (spot){0, r_, c_};                                              \
                    body                                                                 \
                }                                                                        \
        for (int s_ = 0; s_ < 2; s_++) {                                                 \
            for (int i_ = 0; i_ < (st)->ntxifol[s_] && i_ < 16; i_++)                    \
                if ((p = (st)->txifol[s_][i_])) {                                        \
                    sp = (spot){1, s_, i_};                                              \
                    body                                                                 \
                }                                                                        \
            if ((p = (st)->evol[s_])) {                                                  \
                sp = (spot){2, s_, 0};                                                   \
                body                                                                     \
            }                                                                            \
        }                                                                                \
    } while (0)

static spot find(const kifu_msf_state *st, int piece)
{
    int p;
    spot sp;
    FOR_EACH_PIECE(st, p, sp, if (p == piece) return sp;);
    return (spot){-1, 0, 0};
}

/* Checks one state; base is its path ("kit.slax"). Returns the problems found. */
static int check_state(const kifu_msf_state *st, const char *base, kifu__msf_report *rep)
{
    int before = rep->count;
    char path[700], other[700];
    for (int s = 0; s < 2; s++) {
        /* what a side holds, it took from the other side */
        const char *want = s == KIFU_MSF_ARXE ? "a piece of sorn (Piece.Sorn: arxe's "
                                                "captures)"
                                              : "a piece of arxe (Piece.Arxe: sorn's "
                                                "captures)";
        for (int i = 0; i < st->ntxifol[s]; i++)
            if (kifu_msf_piece_side(st->txifol[s][i]) != 1 - s) {
                snprintf(path, sizeof path, "%s.%s.txifol[%d]", base, kifu__msf_sides[s],
                         i);
                kifu__msf_problem(rep, KIFU_ERR_SCHEMA, path, want,
                                  name(st->txifol[s][i]), "expected %s, found \"%s\"",
                                  want, name(st->txifol[s][i]));
            }
        if (st->evol[s] && kifu_msf_piece_side(st->evol[s]) != 1 - s) {
            snprintf(path, sizeof path, "%s.%s.evol", base, kifu__msf_sides[s]);
            kifu__msf_problem(rep, KIFU_ERR_SCHEMA, path, want, name(st->evol[s]),
                              "expected %s or null, found \"%s\"", want,
                              name(st->evol[s]));
        }
    }
    /* no piece twice across ele, arxe and sorn */
    spot seen[KIFU_MSF_PIECES + 1];
    for (int i = 0; i <= KIFU_MSF_PIECES; i++)
        seen[i].kind = -1;
    int p;
    spot sp;
    FOR_EACH_PIECE(st, p, sp, {
        if (seen[p].kind >= 0) {
            spot_path(base, sp, path, sizeof path);
            spot_path(base, seen[p], other, sizeof other);
            kifu__msf_problem(rep, KIFU_ERR_SCHEMA, path, "a piece not yet in the state",
                              name(p),
                              "\"%s\" is already at %s (no piece may appear twice "
                              "across arxe, sorn and ele)",
                              name(p), other);
        } else {
            seen[p] = sp;
        }
    });
    for (int i = 0; i < st->nkorol; i++) {
        int k = st->korol[i];
        snprintf(path, sizeof path, "%s.korol[%d]", base, i);
        int twice = -1;
        for (int j = 0; j < i; j++)
            if (st->korol[j] == k)
                twice = j;
        if (!kifu_msf_piece_turnable(k))
            kifu__msf_problem(rep, KIFU_ERR_SCHEMA, path, "a turnable piece", name(k),
                              "expected a turnable piece (Piece.Turnable: a vanguard or "
                              "tem), found \"%s\"",
                              name(k));
        else if (twice >= 0)
            kifu__msf_problem(rep, KIFU_ERR_SCHEMA, path, "a piece not yet in korol",
                              name(k), "\"%s\" is already at %s.korol[%d]", name(k), base,
                              twice);
        else if (find(st, k).kind != 0)
            kifu__msf_problem(rep, KIFU_ERR_SCHEMA, path, "a piece on the board", name(k),
                              "\"%s\" is turned but does not stand on the board (ele)",
                              name(k));
    }
    return rep->count - before;
}

/* ---- transitions ---- */

static int in_list(const uint8_t *list, int n, int p)
{
    for (int i = 0; i < n; i++)
        if (list[i] == p)
            return 1;
    return 0;
}

/* An expected list as a set: pieces, and the count. */
typedef struct set {
    uint8_t v[32];
    int n;
} set;

static void set_add(set *s, int p)
{
    if (p && !in_list(s->v, s->n, p) && s->n < 32)
        s->v[s->n++] = (uint8_t)p;
}

static void set_remove(set *s, int p)
{
    for (int i = 0; i < s->n; i++)
        if (s->v[i] == p) {
            s->v[i] = s->v[--s->n];
            return;
        }
}

static set set_of(const uint8_t *list, int n)
{
    set s = {{0}, 0};
    for (int i = 0; i < n; i++)
        set_add(&s, list[i]);
    return s;
}

/* What the state after a move must be: the board, each side's hand and korol as sets,
 * and each evol (or, where the move touched tem, that evol or null). */
typedef struct expect {
    uint8_t ele[7][7];
    set txifol[2], korol;
    uint8_t evol[2];
    int evol_may_go; /* the move went onto or with tem: an evol may be removed */
} expect;

static void expect_from(expect *x, const kifu_msf_state *p)
{
    memcpy(x->ele, p->ele, sizeof x->ele);
    for (int s = 0; s < 2; s++) {
        x->txifol[s] = set_of(p->txifol[s], p->ntxifol[s]);
        x->evol[s] = p->evol[s];
    }
    x->korol = set_of(p->korol, p->nkorol);
    x->evol_may_go = 0;
}

/* Compares a list of the state against the expected set: reports the first piece that
 * should not be there, or the first that is missing. 0, or -1 after a report. */
static int compare_set(kifu__msf_report *rep, const char *base, const char *what,
                       const uint8_t *list, int n, const set *want, const char *move)
{
    char path[700];
    for (int i = 0; i < n; i++)
        if (!in_list(want->v, want->n, list[i])) {
            snprintf(path, sizeof path, "%s.%s[%d]", base, what, i);
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, "no such piece", name(list[i]),
                              "\"%s\" should not be here after %s", name(list[i]), move);
            return -1;
        }
    for (int i = 0; i < want->n; i++)
        if (!in_list(list, n, want->v[i])) {
            snprintf(path, sizeof path, "%s.%s", base, what);
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, name(want->v[i]), "nothing",
                              "expected \"%s\" here after %s, found it missing",
                              name(want->v[i]), move);
            return -1;
        }
    return 0;
}

static int compare(kifu__msf_report *rep, const char *base, const kifu_msf_state *s,
                   const expect *x, const char *move)
{
    char path[700];
    for (int r = 0; r < 7; r++)
        for (int c = 0; c < 7; c++)
            if (s->ele[r][c] != x->ele[r][c]) {
                snprintf(path, sizeof path, "%s.ele[%d][%d]", base, r, c);
                kifu__msf_problem(
                    rep, KIFU_ERR_ILLEGAL, path, name(x->ele[r][c]), name(s->ele[r][c]),
                    "expected %s%s%s after %s, found %s%s%s", x->ele[r][c] ? "\"" : "",
                    name(x->ele[r][c]), x->ele[r][c] ? "\"" : "", move,
                    s->ele[r][c] ? "\"" : "", name(s->ele[r][c]),
                    s->ele[r][c] ? "\"" : "");
                return -1;
            }
    for (int sd = 0; sd < 2; sd++) {
        char what[32];
        snprintf(what, sizeof what, "%s.txifol", kifu__msf_sides[sd]);
        if (compare_set(rep, base, what, s->txifol[sd], s->ntxifol[sd], &x->txifol[sd],
                        move))
            return -1;
        if (s->evol[sd] != x->evol[sd] && !(x->evol_may_go && !s->evol[sd])) {
            snprintf(path, sizeof path, "%s.%s.evol", base, kifu__msf_sides[sd]);
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, name(x->evol[sd]),
                              name(s->evol[sd]), "expected %s%s after %s, found %s",
                              name(x->evol[sd]), x->evol_may_go ? " or null" : "", move,
                              name(s->evol[sd]));
            return -1;
        }
    }
    return compare_set(rep, base, "korol", s->korol, s->nkorol, &x->korol, move);
}

static int sq_eq(kifu_msf_square a, kifu_msf_square b)
{
    return a.alsia == b.alsia && a.soom == b.soom;
}

/* leim and okke: the pieces on the from squares move to the to squares; an opponent's
 * piece there is captured into the mover's txifol (and leaves korol); tem there changes
 * places with the piece that came (the examples' swap). */
static int check_luul(kifu__msf_report *rep, const char *npath, const kifu_msf_state *p,
                      const kifu_msf_move *mv, expect *x)
{
    int mover = p->sast, nm = mv->pit == KIFU_MSF_OKKE ? 2 : 1;
    char path[700];
    const char *side = kifu__msf_sides[mover];
    for (int k = 0; k < nm; k++) {
        int pf = p->ele[mv->from[k].soom][mv->from[k].alsia];
        int ok = mv->pit == KIFU_MSF_LEIM
                     ? kifu_msf_piece_side(pf) == mover || pf == KIFU_MSF_TEM
                     : kifu_msf_piece_side(pf) == mover && kifu_msf_piece_turnable(pf);
        snprintf(path, sizeof path, "%s.ov.luul[%d].i", npath, k);
        if (!ok) {
            char want[80];
            snprintf(want, sizeof want, "a square holding %s of %s",
                     mv->pit == KIFU_MSF_LEIM ? "a piece (or tem)" : "a turnable piece",
                     side);
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, want, name(pf),
                              "expected %s (the side to move), found %s%s%s", want,
                              pf ? "\"" : "an empty square", pf ? name(pf) : "",
                              pf ? "\"" : "");
            return -1;
        }
        if (sq_eq(mv->from[k], mv->to[k])) {
            snprintf(path, sizeof path, "%s.ov.luul[%d].a", npath, k);
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, "another square", "the same",
                              "expected a square other than the one the piece leaves");
            return -1;
        }
    }
    if (nm == 2) {
        int dx0 = mv->to[0].alsia - mv->from[0].alsia,
            dy0 = mv->to[0].soom - mv->from[0].soom;
        int dx1 = mv->to[1].alsia - mv->from[1].alsia,
            dy1 = mv->to[1].soom - mv->from[1].soom;
        snprintf(path, sizeof path, "%s.ov.luul[1]", npath);
        if (sq_eq(mv->from[0], mv->from[1])) {
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, "two pieces", "one",
                              "okke moves two pieces: luul[1] starts where luul[0] does");
            return -1;
        }
        if (dx0 != dx1 || dy0 != dy1) {
            char want[32], found[32];
            snprintf(want, sizeof want, "(%+d,%+d)", dx0, dy0);
            snprintf(found, sizeof found, "(%+d,%+d)", dx1, dy1);
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, want, found,
                              "expected the vector of luul[0] %s (okke moves both pieces "
                              "alike), found %s",
                              want, found);
            return -1;
        }
    }
    for (int k = 0; k < nm; k++)
        x->ele[mv->from[k].soom][mv->from[k].alsia] = 0;
    for (int k = 0; k < nm; k++) {
        kifu_msf_square f = mv->from[k], t = mv->to[k];
        int pf = p->ele[f.soom][f.alsia];
        int vacated = 0;
        for (int j = 0; j < nm; j++)
            vacated |= sq_eq(mv->from[j], t);
        int o = vacated ? 0 : p->ele[t.soom][t.alsia];
        if (pf == KIFU_MSF_TEM || o == KIFU_MSF_TEM)
            x->evol_may_go = 1;
        if (o == KIFU_MSF_TEM) {
            x->ele[f.soom][f.alsia] = KIFU_MSF_TEM;
        } else if (o && kifu_msf_piece_side(o) == mover) {
            snprintf(path, sizeof path, "%s.ov.luul[%d].a", npath, k);
            kifu__msf_problem(
                rep, KIFU_ERR_ILLEGAL, path,
                "an empty square or a piece of the other side", name(o),
                "expected an empty square or a piece of %s, found \"%s\" of "
                "%s itself",
                kifu__msf_sides[1 - mover], name(o), side);
            return -1;
        } else if (o) {
            set_add(&x->txifol[mover], o);
            set_remove(&x->korol, o);
        }
        x->ele[t.soom][t.alsia] = (uint8_t)pf;
    }
    return 0;
}

/* The move of node n (at npath) from state p to n's state. 0, or -1 after a report. */
static int check_move(kifu__msf_report *rep, const char *npath, const kifu_msf_state *p,
                      const kifu_msf_node *n)
{
    const kifu_msf_state *s = &n->slax;
    const kifu_msf_move *mv = &n->ov;
    int mover = p->sast;
    const char *side = kifu__msf_sides[mover];
    char base[600], path[640], move[64];
    snprintf(base, sizeof base, "%s.slax", npath);
    kifu_msf_move_text(mv, move, sizeof move);
    if (s->sast != 1 - mover) {
        snprintf(path, sizeof path, "%s.sast", base);
        kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, kifu__msf_sides[1 - mover],
                          kifu__msf_sides[s->sast],
                          "expected \"%s\" (sides alternate: %s moved), found \"%s\"",
                          kifu__msf_sides[1 - mover], side, kifu__msf_sides[s->sast]);
        return -1;
    }
    int q;
    spot sp;
    FOR_EACH_PIECE(s, q, sp, {
        if (find(p, q).kind < 0) {
            spot_path(base, sp, path, sizeof path);
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, "a piece of the state before",
                              name(q),
                              "\"%s\" appears from nothing (it is nowhere in the state "
                              "before)",
                              name(q));
            return -1;
        }
    });
    expect x;
    expect_from(&x, p);
    switch (mv->pit) {
    case KIFU_MSF_LEIM:
    case KIFU_MSF_OKKE:
        if (check_luul(rep, npath, p, mv, &x))
            return -1;
        break;
    case KIFU_MSF_KOR: {
        int k = p->ele[mv->ka.soom][mv->ka.alsia];
        if (kifu_msf_piece_side(k) != mover || !kifu_msf_piece_turnable(k)) {
            snprintf(path, sizeof path, "%s.ov.ka", npath);
            kifu__msf_problem(
                rep, KIFU_ERR_ILLEGAL, path, "a turnable piece of the mover", name(k),
                "expected a square holding a turnable piece of %s, found "
                "%s%s%s",
                side, k ? "\"" : "an empty square", k ? name(k) : "", k ? "\"" : "");
            return -1;
        }
        if (in_list(x.korol.v, x.korol.n, k))
            set_remove(&x.korol, k);
        else
            set_add(&x.korol, k);
        break;
    }
    case KIFU_MSF_EV:
        snprintf(path, sizeof path, "%s.ov.evol", npath);
        if (!in_list(p->txifol[mover], p->ntxifol[mover], mv->evol)) {
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path,
                              "a piece of the mover's txifol", name(mv->evol),
                              "expected a piece in %s's txifol, found \"%s\"", side,
                              name(mv->evol));
            return -1;
        }
        if (p->evol[mover]) {
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, "an empty evol",
                              name(p->evol[mover]),
                              "ev needs %s's evol empty, but \"%s\" is there", side,
                              name(p->evol[mover]));
            return -1;
        }
        set_remove(&x.txifol[mover], mv->evol);
        x.evol[mover] = mv->evol;
        break;
    case KIFU_MSF_SED:
        if (!p->evol[mover]) {
            snprintf(path, sizeof path, "%s.ov", npath);
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, "an evol to take back", "null",
                              "sed takes back %s's evol, but it is null", side);
            return -1;
        }
        set_add(&x.txifol[mover], p->evol[mover]);
        x.evol[mover] = 0;
        break;
    default:
        return 0;
    }
    return compare(rep, base, s, &x, move);
}

/* The latest time at or before each node (its own im, else its parent's), by node id. */
static int check_times(const kifu_msf *m, kifu__msf_report *rep)
{
    const char **last = kifu__calloc(m->nnodes ? m->nnodes : 1, sizeof *last);
    size_t *from = kifu__calloc(m->nnodes ? m->nnodes : 1, sizeof *from);
    if (!last || !from) {
        kifu__free(last);
        kifu__free(from);
        return -1;
    }
    char path[700], at[600];
    /* nodes are created after the node they follow, so one pass in id order suffices */
    for (size_t i = 0; i < m->nnodes; i++) {
        const kifu_msf_node *n = m->all_nodes[i];
        const kifu_msf_node *par = kifu_msf_node_parent(n);
        const char *prev = par ? last[par->id] : NULL;
        size_t prev_at = par ? from[par->id] : 0;
        last[i] = prev;
        from[i] = prev_at;
        if (!n->im)
            continue;
        long long a, b;
        long an, bn;
        if (prev && kifu__msf_time(prev, &a, &an) == 0 &&
            kifu__msf_time(n->im, &b, &bn) == 0 && (b < a || (b == a && bn < an))) {
            kifu_msf_node_path(n, at, sizeof at);
            snprintf(path, sizeof path, "%s.im", at);
            kifu_msf_node_path(m->all_nodes[prev_at], at, sizeof at);
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, prev, n->im,
                              "expected a time not before %s (%s.im), found %s", prev, at,
                              n->im);
        }
        last[i] = n->im;
        from[i] = i;
    }
    for (size_t i = 0; i < m->nlines; i++) {
        const kifu_msf_line *l = m->all_lines[i];
        const kifu_msf_node *end = l->n ? l->nodes[l->n - 1] : l->from;
        const char *prev = last[end->id];
        long long a, b;
        long an, bn;
        if (l->fixt.im && prev && kifu__msf_time(prev, &a, &an) == 0 &&
            kifu__msf_time(l->fixt.im, &b, &bn) == 0 && (b < a || (b == a && bn < an))) {
            if (l->main)
                snprintf(at, sizeof at, "fixt");
            else {
                kifu__msf_line_path(l, at, sizeof at);
                at[strlen(at) - strlen(".seslax")] = 0;
                strcat(at, ".fixt");
            }
            snprintf(path, sizeof path, "%s.im", at);
            kifu_msf_node_path(m->all_nodes[from[end->id]], at, sizeof at);
            kifu__msf_problem(rep, KIFU_ERR_ILLEGAL, path, prev, l->fixt.im,
                              "expected a time not before %s (%s.im), found %s", prev, at,
                              l->fixt.im);
        }
    }
    kifu__free(last);
    kifu__free(from);
    return 0;
}

int kifu__msf_check(const kifu_msf *m, unsigned flags, kifu__msf_report *rep)
{
    int before = rep->count;
    char npath[560], base[600];
    for (size_t i = 0; i < m->nnodes; i++) {
        const kifu_msf_node *n = m->all_nodes[i];
        if (n != m->root && !n->line)
            continue; /* a node whose append failed: not in the record */
        kifu_msf_node_path(n, npath, sizeof npath);
        snprintf(base, sizeof base, "%s.slax", npath);
        rep->node = n;
        rep->node_path = npath;
        check_state(&n->slax, base, rep);
    }
    rep->node = NULL;
    if (rep->count == before && !(flags & KIFU_MSF_NO_TRANSITIONS)) {
        for (size_t i = 0; i < m->nnodes; i++) {
            const kifu_msf_node *n = m->all_nodes[i];
            const kifu_msf_node *par = kifu_msf_node_parent(n);
            if (!par)
                continue;
            kifu_msf_node_path(n, npath, sizeof npath);
            rep->node = n;
            rep->node_path = npath;
            check_move(rep, npath, &par->slax, n);
        }
        rep->node = NULL;
        if (check_times(m, rep))
            kifu__msf_problem(rep, KIFU_ERR_NOMEM, "", NULL, NULL, "out of memory");
    }
    return rep->count - before;
}

int kifu_msf_check(const kifu_msf *m, unsigned flags, kifu_msf_problem_fn fn, void *ctx,
                   kifu_error *err)
{
    kifu__msf_report rep = {fn, ctx, err, NULL, 0, NULL, NULL, NULL, 0, NULL, NULL};
    int n = kifu__msf_check(m, flags, &rep);
    kifu__msf_more(&rep);
    return n;
}
