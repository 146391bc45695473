/* tags_run.c: recognising the tags of one game. Positions come in main-line order; each
 * side's board conditions (board, rook, moves, from/by/hold) are tested after each of
 * its own moves, on the board seen from its camp. When the line ends, the names are
 * decided in their order: needs, opponent and excludes look at names already decided,
 * and a name decided present gives the names it implies. */
#include <string.h>

#include "kifu_private.h"
#include "tags/tags.h"

/* A definition not done for one side, with what rejects most positions at once: its
 * key square on the real board and the real pieces allowed there (key 0 and every bit
 * when it has none), and from / by. */
typedef struct tagact {
    int def;
    int king; /* the real square the own king must stand on, or -1 */
    int key;
    uint32_t allow;
    int from, by;
} tagact;

struct kifu__tagrun {
    kifu_tagger *t;
    size_t cap;           /* definitions the arrays hold */
    int moves[2];         /* own moves played */
    int king[2];          /* each king's square (real board), -1: none */
    int capture;          /* the ply of the game's first capture, -1: none yet */
    int wait_capture;     /* a definition asks about the first capture: feed positions
                             until it is seen, though every definition is done */
    uint64_t moved[2][2]; /* squares (own view) some own move left */
    int *run;      /* per definition and side: own moves in a row the conditions held */
    int *start;    /* the ply where that run began */
    int *found;    /* the ply of the first run long enough, -1: none */
    uint8_t *done; /* nothing later can change found */
    size_t open;   /* (definition, side) pairs not done */
    struct tagact *active[2]; /* per side: the definitions not done, in no order */
    size_t nactive[2];
};

void kifu__tagrun_free(kifu__tagrun *run)
{
    if (!run)
        return;
    kifu__free(run->run);
    kifu__free(run->start);
    kifu__free(run->found);
    kifu__free(run->done);
    kifu__free(run->active[0]);
    kifu__free(run->active[1]);
    kifu__free(run);
}

kifu__tagrun *kifu__tagrun_start(kifu_tagger *t)
{
    kifu__tagrun *run = t->run;
    if (!run) {
        if (!(run = kifu__calloc(1, sizeof *run)))
            return NULL;
        run->t = t;
        t->run = run;
    }
    size_t n = t->ndefs * 2;
    if (run->cap < t->ndefs) {
        kifu__free(run->run);
        kifu__free(run->start);
        kifu__free(run->found);
        kifu__free(run->done);
        kifu__free(run->active[0]);
        kifu__free(run->active[1]);
        run->active[0] = kifu__calloc(t->ndefs + 1, sizeof(tagact));
        run->active[1] = kifu__calloc(t->ndefs + 1, sizeof(tagact));
        run->run = kifu__calloc(n + 1, sizeof(int));
        run->start = kifu__calloc(n + 1, sizeof(int));
        run->found = kifu__calloc(n + 1, sizeof(int));
        run->done = kifu__calloc(n + 1, 1);
        run->cap = 0;
        if (!run->run || !run->start || !run->found || !run->done || !run->active[0] ||
            !run->active[1])
            return NULL;
        run->cap = t->ndefs;
    }
    memset(run->moves, 0, sizeof run->moves);
    run->capture = -1;
    run->wait_capture = 0;
    for (size_t i = 0; i < t->ndefs; i++)
        run->wait_capture |= t->defs[i].capture != 0;
    memset(run->moved, 0, sizeof run->moved);
    memset(run->run, 0, n * sizeof(int));
    run->open = 0;
    run->nactive[0] = run->nactive[1] = 0;
    for (size_t i = 0; i < n; i++) {
        run->found[i] = -1;
        /* A game's tag has no board conditions: it is decided from the sides' tags. */
        run->done[i] = t->defs[i / 2].game;
        if (!run->done[i]) {
            int c = (int)(i & 1);
            const kifu__tagdef *d = &t->defs[i / 2];
            tagact *a = &run->active[c][run->nactive[c]++];
            a->def = (int)(i / 2);
            a->from = d->from;
            a->by = d->by;
            a->king = d->king_sq < 0 ? -1 : c ? 80 - d->king_sq : d->king_sq;
            if (d->key_sq < 0) {
                a->key = 0, a->allow = ~0u;
            } else if (c == KIFU_BLACK) {
                a->key = d->key_sq, a->allow = d->key_allow;
            } else {
                /* Gote's own view turned back: the square turned round, the owners of
                 * the allowed pieces swapped (bit 0, empty, stays). */
                uint32_t w = d->key_allow;
                a->key = 80 - d->key_sq;
                a->allow = (w & 1) | (w & 0xFFFEu) << 16 | (w >> 16 & 0xFFFEu);
            }
            run->open++;
        }
    }
    return run;
}

/* The board seen from gote's camp: turned round, owners swapped, hands swapped. */
static void turn(const kifu_board *b, kifu_board *out)
{
    for (int sq = 0; sq < 81; sq++) {
        uint8_t cp = b->sq[80 - sq];
        out->sq[sq] = cp ? (uint8_t)(cp ^ (KIFU_WHITE << 4)) : 0;
    }
    memcpy(out->hands[0], b->hands[1], sizeof out->hands[0]);
    memcpy(out->hands[1], b->hands[0], sizeof out->hands[1]);
    out->color = (uint8_t)(b->color ^ 1);
}

/* An own rook (not promoted) on files lo..hi, ranks 5 to 9: where a rook that was
 * swung to that file stands in the opening, and not a rook gone to attack. */
static int rook_on(const kifu_board *b, int c, int lo, int hi)
{
    uint8_t rook = (uint8_t)(KIFU_HI | c << 4);
    for (int x = lo; x <= hi; x++)
        for (int y = 5; y <= 9; y++)
            if (b->sq[c ? KIFU_SQ(10 - x, 10 - y) : KIFU_SQ(x, y)] == rook)
                return 1;
    return 0;
}

/* Does d hold for side c on board b (view: b seen from c's camp, made on first need)? */
static int holds(const kifu__tagdef *d, const kifu_board *b, int c, kifu_board *view,
                 int *turned, const uint64_t moved[2], int k, int captured)
{
    if (k < d->from || (d->capture == 2 && !captured))
        return 0;
    if ((d->moved[0] & ~moved[0]) || (d->moved[1] & ~moved[1]))
        return 0;
    if ((d->unmoved[0] & moved[0]) || (d->unmoved[1] & moved[1]))
        return 0;
    if (d->rook_lo && !rook_on(b, c, d->rook_lo, d->rook_hi))
        return 0;
    if (!d->pat)
        return 1;
    if (c && !*turned)
        turn(b, view), *turned = 1;
    return kifu__pattern_match(d->pat, c ? view : b);
}

/* Test side c's definitions on board b after its k-th move, at ply. */
static void test_side(kifu__tagrun *run, int c, const kifu_board *b, int ply)
{
    int k = run->moves[c];
    const kifu_tagger *t = run->t;
    kifu_board view;
    int turned = 0;
    tagact *act = run->active[c];
    for (size_t a = 0; a < run->nactive[c];) {
        const tagact *x = &act[a];
        size_t j = (size_t)x->def * 2 + (size_t)c;
        const kifu__tagdef *d = &t->defs[x->def];
        /* Most definitions fail on the king's square (castles: the king moves seldom,
         * so the test is well predicted) or their key square: decided without the
         * rest. */
        int ok = (x->king < 0 || x->king == run->king[c]) &&
                 (x->allow >> b->sq[x->key] & 1) && k >= x->from &&
                 holds(d, b, c, &view, &turned, run->moved[c], k, run->capture >= 0);
        if (ok) {
            if (run->run[j]++ == 0)
                run->start[j] = ply;
            if (x->by >= 0 && k > x->by && run->run[j] == 1) {
                run->run[j] = 0; /* began too late */
            } else if (run->run[j] >= d->hold) {
                run->found[j] = run->start[j];
                run->done[j] = 1;
            }
        } else {
            run->run[j] = 0;
        }
        if (!run->done[j] && x->by >= 0 && k >= x->by && run->run[j] == 0)
            run->done[j] = 1;
        if (run->done[j]) {
            run->open--;
            act[a] = act[--run->nactive[c]]; /* the order of testing does not matter */
        } else {
            a++;
        }
    }
}

int kifu__tagrun_position(kifu__tagrun *run, const kifu_move *m, int ply,
                          const kifu_board *b)
{
    if (!m) {
        run->king[0] = run->king[1] = -1;
        for (int sq = 0; sq < 81; sq++)
            if ((b->sq[sq] & 15) == KIFU_OU)
                run->king[b->sq[sq] >> 4] = sq;
        test_side(run, KIFU_BLACK, b, ply);
        test_side(run, KIFU_WHITE, b, ply);
        return run->open == 0 && !run->wait_capture;
    }
    int c = m->color & 1;
    if (m->capture && run->capture < 0)
        run->capture = ply;
    if (m->from_x) {
        int x = c ? 10 - m->from_x : m->from_x, y = c ? 10 - m->from_y : m->from_y;
        int sq = KIFU_SQ(x, y);
        run->moved[c][sq >> 6] |= 1ull << (sq & 63);
    }
    run->moves[c]++;
    if (m->piece == KIFU_OU)
        run->king[c] = KIFU_SQ(m->to_x, m->to_y);
    test_side(run, c, b, ply);
    return run->open == 0 && (!run->wait_capture || run->capture >= 0);
}

static int later(int a, int b)
{
    return a > b ? a : b;
}

/* Is a tag of family f among names 0..upto-1 present for side s? */
static int family_present(const kifu_tagger *t, const int *present, int upto, int f,
                          int s)
{
    for (int x = 0; x < upto; x++)
        if (t->family[x] == f && present[x * 3 + s] >= 0)
            return 1;
    return 0;
}

/* The ply where definition d is satisfied for side s, given the names decided so far,
 * or -1. */
static int satisfied(const kifu_tagger *t, const kifu__tagdef *d, int ply,
                     const int *present, int s)
{
    for (size_t k = 0; k < d->needs.n && ply >= 0; k++) {
        int p = present[d->needs.v[k] * 3 + s];
        ply = p < 0 ? -1 : later(ply, p);
    }
    for (size_t k = 0; k < d->opponent.n && ply >= 0; k++) {
        int p = present[d->opponent.v[k] * 3 + (s ^ 1)];
        ply = p < 0 ? -1 : later(ply, p);
    }
    for (size_t k = 0; k < d->excludes.n && ply >= 0; k++) {
        int x = d->excludes.v[k];
        if (x <= -2 ? family_present(t, present, d->name, -2 - x, s)
                    : present[x * 3 + s] >= 0)
            ply = -1;
    }
    return ply;
}

int kifu__tagrun_finish(kifu__tagrun *run, kifu_tag **out, size_t *count)
{
    const kifu_tagger *t = run->t;
    size_t nn = t->nnames;
    *out = NULL;
    *count = 0;
    /* Per name: sente's, gote's and the game's ply, -1 absent; what is implied so far. */
    int *present = kifu__malloc((nn * 6 + 1) * sizeof(int));
    if (!present)
        return -1;
    int *implied = present + nn * 3;
    for (size_t i = 0; i < nn * 6; i++)
        present[i] = -1;
    /* Of a group, only what the side did first: a rook swung to the 6th file and later
     * to the 7th is a 四間飛車. Decided on the board conditions, before the names. */
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < t->ndefs; i++) {
            const kifu__tagdef *d = &t->defs[i];
            int *f = &run->found[i * 2 + (size_t)s];
            if (!d->group || *f < 0)
                continue;
            for (size_t j = 0; j < t->ndefs && *f >= 0; j++) {
                const kifu__tagdef *e = &t->defs[j];
                int g = run->found[j * 2 + (size_t)s];
                if (j != i && e->group && g >= 0 && strcmp(e->group, d->group) == 0 &&
                    (g < *f || (g == *f && j < i)) && e->name != d->name)
                    *f =
                        -2; /* out: the first one is never put out, so every other meets it */
            }
        }
    for (size_t i = 0; i < t->ndefs * 2; i++)
        if (run->found[i] == -2)
            run->found[i] = -1;
    size_t i = 0; /* the definitions come by name */
    for (size_t x = 0; x < nn; x++) {
        size_t first = i;
        for (; i < t->ndefs && t->defs[i].name == (int)x; i++) {
            const kifu__tagdef *d = &t->defs[i];
            for (int s = 0; s < (d->game ? 1 : 2); s++) {
                int ply;
                if (d->game) {
                    const int *a = &present[d->sides.v[0] * 3],
                              *b = &present[d->sides.v[1] * 3];
                    int p1 = a[0] >= 0 && b[1] >= 0 ? later(a[0], b[1]) : -1;
                    int p2 = b[0] >= 0 && a[1] >= 0 ? later(b[0], a[1]) : -1;
                    ply = p1 < 0 ? p2 : p2 < 0 ? p1 : (p1 < p2 ? p1 : p2);
                } else {
                    ply = run->found[i * 2 + (size_t)s];
                    if (ply >= 0)
                        ply = satisfied(t, d, ply, present, s);
                    if (d->capture == 1 && run->capture >= 0 && ply >= run->capture)
                        ply = -1; /* decided only once the pieces met */
                }
                if (ply < 0)
                    continue;
                int slot = d->game ? 2 : s;
                int *p = &present[x * 3 + (size_t)slot];
                if (*p < 0 || ply < *p)
                    *p = ply;
                for (size_t k = 0; k < d->implies.n; k++) {
                    int *q = &implied[d->implies.v[k] * 3 + slot];
                    if (*q < 0 || ply < *q)
                        *q = ply;
                }
            }
        }
        /* What names above implied (its own definitions may have failed). */
        for (int s = 0; s < 3; s++) {
            int q = implied[x * 3 + (size_t)s];
            int *p = &present[x * 3 + (size_t)s];
            if (q >= 0 && (*p < 0 || q < *p)) {
                *p = q;
                /* and what it implies in turn */
                for (size_t e = first; e < i; e++)
                    for (size_t k = 0; k < t->defs[e].implies.n; k++) {
                        int *r = &implied[t->defs[e].implies.v[k] * 3 + s];
                        if (*r < 0 || q < *r)
                            *r = q;
                    }
            }
        }
    }
    size_t n = 0;
    for (size_t e = 0; e < nn * 3; e++)
        n += present[e] >= 0;
    kifu_tag *v = kifu__calloc(n + 1, sizeof *v);
    if (!v) {
        kifu__free(present);
        return -1;
    }
    size_t k = 0;
    for (int s = 0; s < 3; s++)
        for (size_t x = 0; x < nn; x++)
            if (present[x * 3 + (size_t)s] >= 0) {
                v[k].name = t->names[x];
                v[k].family = t->family[x];
                v[k].side = s == 2 ? -1 : s;
                v[k].ply = present[x * 3 + (size_t)s];
                k++;
            }
    kifu__free(present);
    *out = v;
    *count = n;
    return 0;
}
