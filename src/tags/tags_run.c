/* tags_run.c: recognising the tags of one game. Positions come in main-line order; each
 * side's board conditions (board, rook, moves, from/by/hold) are tested after each of
 * its own moves, on the board seen from its camp. When the line ends, the names are
 * decided in their order: needs, opponent and excludes look at names already decided,
 * and a name decided present gives the names it implies. */
#include <string.h>

#include "kifu_private.h"
#include "tags/tags.h"

struct kifu__tagrun {
    kifu_tagger *t;
    size_t cap;   /* definitions the arrays hold */
    int moves[2]; /* own moves played */
    int capture;  /* the ply of the game's first capture, -1: none yet */
    int started;  /* the board below is the last position's */
    uint8_t board[81];
    kifu_board view;      /* the board seen from gote's camp (its squares kept) */
    uint64_t moved[2][2]; /* squares (own view) some own move left */
    uint8_t rooks[2][10]; /* own unpromoted rooks on each file (own view), ranks 5-9 */
    uint16_t files[2];    /* the files with such a rook, as bits (1 << file) */
    int rooks_moved;      /* rooks[] changed: bit per side */
    /* Per definition and side (definition * 2 + side): */
    uint8_t *wrong; /* its board's squares that are not as it asks, + 1 when it asks
                       for a rook on files that have none */
    int *run;       /* own moves in a row the conditions held, up to move held - 1 */
    int *held;      /* 1 + the last own move they held at, 0: never */
    int *start;     /* the ply where that run began */
    int *found;     /* the ply of the first run long enough, -1: none */
    uint8_t *done;  /* nothing later can change found */
    int *pos;       /* its place in cand, -1: none */
    size_t open;    /* pairs not done */
    /* Per side: the definitions not done whose squares are all right (the ones a test
     * looks at), and the ones past their last move (by) still in a run. */
    uint32_t *cand[2], *due[2];
    size_t ncand[2], ndue[2], next_by[2];
    /* The state after the last first position (games start from the same one). */
    int cached;
    uint8_t cache_board[81], cache_rooks[2][10];
    uint16_t cache_files[2];
    uint8_t *cache_wrong;
    int *cache_pos;
    uint32_t *cache_cand[2];
    size_t cache_ncand[2];
};

static void *grab(void **v, size_t bytes)
{
    kifu__free(*v);
    return *v = kifu__calloc(1, bytes);
}

void kifu__tagrun_free(kifu__tagrun *run)
{
    if (!run)
        return;
    void *v[] = {run->wrong,     run->run,           run->held,         run->start,
                 run->found,     run->done,          run->pos,          run->cand[0],
                 run->cand[1],   run->due[0],        run->due[1],       run->cache_wrong,
                 run->cache_pos, run->cache_cand[0], run->cache_cand[1]};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        kifu__free(v[i]);
    kifu__free(run);
}

/* The arrays for n definitions. 0, or -1 NOMEM. */
static int run_alloc(kifu__tagrun *run, size_t n)
{
    size_t n2 = n * 2 + 1;
    run->cap = 0;
    run->cached = 0;
    int ok =
        grab((void **)&run->wrong, n2) && grab((void **)&run->run, n2 * sizeof(int)) &&
        grab((void **)&run->held, n2 * sizeof(int)) &&
        grab((void **)&run->start, n2 * sizeof(int)) &&
        grab((void **)&run->found, n2 * sizeof(int)) && grab((void **)&run->done, n2) &&
        grab((void **)&run->pos, n2 * sizeof(int)) &&
        grab((void **)&run->cache_wrong, n2) &&
        grab((void **)&run->cache_pos, n2 * sizeof(int));
    for (int c = 0; c < 2 && ok; c++)
        ok = grab((void **)&run->cand[c], (n + 1) * sizeof(uint32_t)) &&
             grab((void **)&run->due[c], (n + 1) * sizeof(uint32_t)) &&
             grab((void **)&run->cache_cand[c], (n + 1) * sizeof(uint32_t));
    if (!ok)
        return -1;
    run->cap = n;
    return 0;
}

kifu__tagrun *kifu__tagrun_start(kifu_tagger *t)
{
    kifu__tagrun *run = t->run;
    if (!t->plan && kifu__tagplan_make(t))
        return NULL;
    if (!run) {
        if (!(run = kifu__calloc(1, sizeof *run)))
            return NULL;
        run->t = t;
        t->run = run;
    }
    size_t n = t->ndefs * 2;
    if (run->cap < t->ndefs && run_alloc(run, t->ndefs))
        return NULL;
    memset(run->moves, 0, sizeof run->moves);
    run->capture = -1;
    run->started = 0;
    run->rooks_moved = 0;
    memset(run->moved, 0, sizeof run->moved);
    memset(run->run, 0, n * sizeof(int));
    memset(run->held, 0, n * sizeof(int));
    memset(run->found, 0xff, n * sizeof(int)); /* -1 */
    run->open = 0;
    for (size_t i = 0; i < n; i++) {
        /* A game's tag has no board conditions: it is decided from the sides' tags. */
        run->done[i] = (uint8_t)t->defs[i / 2].game;
        run->open += !run->done[i];
    }
    for (int c = 0; c < 2; c++)
        run->ndue[c] = run->next_by[c] = 0;
    return run;
}

/* The piece p (kind | color << 4, or 0) as the other side sees it. */
static inline unsigned other(unsigned p)
{
    return p ? p ^ (KIFU_WHITE << 4) : 0;
}

/* The board seen from gote's camp: its squares are kept turned round with owners
 * swapped as they change; here the hands swapped and the side to move. */
static const kifu_board *turned(kifu__tagrun *run, const kifu_board *b)
{
    memcpy(run->view.hands[0], b->hands[1], sizeof run->view.hands[0]);
    memcpy(run->view.hands[1], b->hands[0], sizeof run->view.hands[1]);
    run->view.color = (uint8_t)(b->color ^ 1);
    return &run->view;
}

static void cand_add(kifu__tagrun *run, uint32_t i, int c)
{
    size_t j = i * 2 + (size_t)c;
    run->pos[j] = (int)run->ncand[c];
    run->cand[c][run->ncand[c]++] = i;
}

static void cand_remove(kifu__tagrun *run, uint32_t i, int c)
{
    size_t j = i * 2 + (size_t)c;
    int at = run->pos[j];
    uint32_t last = run->cand[c][--run->ncand[c]];
    run->cand[c][at] = last;
    run->pos[last * 2 + (size_t)c] = at;
    run->pos[j] = -1;
}

/* Definition i is decided for side c. */
static void settle(kifu__tagrun *run, uint32_t i, int c)
{
    size_t j = i * 2 + (size_t)c;
    run->done[j] = 1;
    run->open--;
    if (run->pos[j] >= 0)
        cand_remove(run, i, c);
}

/* The rook (not promoted) on piece p at real square sq counted for its side, add 1 or
 * -1: where a rook that was swung to a file stands in the opening (ranks 5 to 9), not a
 * rook gone to attack. */
static inline void count_rook(kifu__tagrun *run, unsigned p, int sq, int add)
{
    if ((p & 15) != KIFU_HI)
        return;
    int c = (int)(p >> 4) & 1, v = c ? 80 - sq : sq;
    if (v % 9 >= 4) {
        run->rooks[c][v / 9 + 1] = (uint8_t)(run->rooks[c][v / 9 + 1] + add);
        run->rooks_moved |= 1 << c;
    }
}

/* The files with a rook of side c, as bits. */
static uint16_t rook_files(const kifu__tagrun *run, int c)
{
    unsigned f = 0;
    for (int x = 1; x <= 9; x++)
        f |= (unsigned)(run->rooks[c][x] != 0) << x;
    return (uint16_t)f;
}

/* One condition of definition i for side c went from right (was) to wrong, or back. */
static inline void flip(kifu__tagrun *run, uint32_t i, int c, unsigned was, unsigned now)
{
    size_t j = i * 2 + (size_t)c;
    if (was == now || run->done[j])
        return;
    if (now) {
        if (--run->wrong[j] == 0)
            cand_add(run, i, c);
    } else if (run->wrong[j]++ == 0) {
        cand_remove(run, i, c);
    }
}

/* Real square sq went from piece a to piece b: the definitions looking at it, for each
 * side (gote's own view: the square turned round, the owners swapped). */
static void square_changed(kifu__tagrun *run, int sq, unsigned a, unsigned b)
{
    const kifu__tagplan *p = run->t->plan;
    count_rook(run, a, sq, -1);
    count_rook(run, b, sq, 1);
    for (int c = 0; c < 2; c++) {
        int v = c ? 80 - sq : sq;
        unsigned pa = c ? other(a) : a, pb = c ? other(b) : b;
        for (uint32_t e = p->at[v]; e < p->at[v + 1]; e++) {
            const kifu__tagsq *x = &p->on[e];
            flip(run, x->def, c, x->allow >> pa & 1, x->allow >> pb & 1);
        }
    }
}

/* After rooks moved: the rook conditions that changed. */
static void rooks_changed(kifu__tagrun *run)
{
    const kifu__tagplan *p = run->t->plan;
    for (int c = 0; c < 2; c++) {
        if (!(run->rooks_moved >> c & 1))
            continue;
        uint16_t was = run->files[c], now = rook_files(run, c);
        run->files[c] = now;
        for (size_t k = 0; k < p->nrook && was != now; k++) {
            uint32_t i = p->rook_defs[k];
            flip(run, i, c, (was & p->rook_files[i]) != 0, (now & p->rook_files[i]) != 0);
        }
    }
    run->rooks_moved = 0;
}

/* The first position: every definition's wrong squares counted, those with none made
 * candidates (or all that copied from the last game's, when it began the same). */
static void first_position(kifu__tagrun *run, const kifu_board *b)
{
    const kifu_tagger *t = run->t;
    const kifu__tagplan *p = t->plan;
    size_t n = t->ndefs;
    run->started = 1;
    memcpy(run->board, b->sq, 81);
    for (int sq = 0; sq < 81; sq++)
        run->view.sq[sq] = (uint8_t)other(b->sq[80 - sq]);
    if (run->cached && memcmp(run->cache_board, b->sq, 81) == 0) {
        memcpy(run->wrong, run->cache_wrong, n * 2);
        memcpy(run->pos, run->cache_pos, n * 2 * sizeof(int));
        memcpy(run->rooks, run->cache_rooks, sizeof run->rooks);
        memcpy(run->files, run->cache_files, sizeof run->files);
        for (int c = 0; c < 2; c++) {
            run->ncand[c] = run->cache_ncand[c];
            memcpy(run->cand[c], run->cache_cand[c], n * sizeof(uint32_t));
        }
        return;
    }
    memset(run->wrong, 0, n * 2);
    memset(run->rooks, 0, sizeof run->rooks);
    for (int sq = 0; sq < 81; sq++) {
        count_rook(run, b->sq[sq], sq, 1);
        for (uint32_t e = p->at[sq]; e < p->at[sq + 1]; e++) {
            const kifu__tagsq *x = &p->on[e];
            run->wrong[x->def * 2] += !(x->allow >> b->sq[sq] & 1);
            run->wrong[x->def * 2 + 1] += !(x->allow >> other(b->sq[80 - sq]) & 1);
        }
    }
    run->rooks_moved = 0;
    run->files[0] = rook_files(run, 0), run->files[1] = rook_files(run, 1);
    run->ncand[0] = run->ncand[1] = 0;
    for (size_t j = 0; j < n * 2; j++) {
        run->pos[j] = -1;
        if (p->rook_files[j / 2])
            run->wrong[j] += !(run->files[j & 1] & p->rook_files[j / 2]);
        if (p->kind[j / 2] == KIFU__TAG_NEVER)
            run->wrong[j] = 1;
        else if (!t->defs[j / 2].game && !run->wrong[j])
            cand_add(run, (uint32_t)(j / 2), (int)(j & 1));
    }
    run->cached = 1;
    memcpy(run->cache_board, b->sq, 81);
    memcpy(run->cache_wrong, run->wrong, n * 2);
    memcpy(run->cache_pos, run->pos, n * 2 * sizeof(int));
    memcpy(run->cache_rooks, run->rooks, sizeof run->rooks);
    memcpy(run->cache_files, run->files, sizeof run->files);
    for (int c = 0; c < 2; c++) {
        run->cache_ncand[c] = run->ncand[c];
        memcpy(run->cache_cand[c], run->cand[c], n * sizeof(uint32_t));
    }
}

static void changed(kifu__tagrun *run, const kifu_board *b, int sq)
{
    square_changed(run, sq, run->board[sq], b->sq[sq]);
    run->board[sq] = b->sq[sq];
    run->view.sq[80 - sq] = (uint8_t)other(b->sq[sq]);
}

/* The squares that changed since the last position (a word at a time: a move changes
 * two or three). */
static void new_position(kifu__tagrun *run, const kifu_board *b)
{
    for (int w = 0; w < 80; w += 8) {
        uint64_t x, y;
        memcpy(&x, run->board + w, 8);
        memcpy(&y, b->sq + w, 8);
        for (uint64_t d = x ^ y; d;) {
            int k = __builtin_ctzll(d) / 8;
            d &= ~(0xFFull << (8 * k));
            changed(run, b, w + k);
        }
    }
    if (run->board[80] != b->sq[80])
        changed(run, b, 80);
}

/* Do d's conditions other than its squares hold for side c after its k-th move? */
static int holds(kifu__tagrun *run, const kifu__tagdef *d, int kind, const kifu_board *b,
                 int c, int k)
{
    const uint64_t *moved = run->moved[c];
    if (k < d->from || (d->capture == 2 && run->capture < 0))
        return 0;
    if ((d->moved[0] & ~moved[0]) || (d->moved[1] & ~moved[1]))
        return 0;
    if ((d->unmoved[0] & moved[0]) || (d->unmoved[1] & moved[1]))
        return 0;
    if (kind != KIFU__TAG_HANDS && kind != KIFU__TAG_OTHER)
        return 1;
    return kifu__pattern_match(d->pat, c ? turned(run, b) : b);
}

/* Test side c's definitions on board b after its k-th move, at ply: the candidates
 * (every square right), then the ones whose last move (by) has come. */
static void test_side(kifu__tagrun *run, int c, const kifu_board *b, int ply)
{
    int k = run->moves[c];
    const kifu_tagger *t = run->t;
    const kifu__tagplan *p = t->plan;
    for (size_t a = 0; a < run->ncand[c];) {
        uint32_t i = run->cand[c][a];
        size_t j = i * 2 + (size_t)c;
        const kifu__tagdef *d = &t->defs[i];
        if (holds(run, d, p->kind[i], b, c, k)) {
            int r = (run->held[j] == k ? run->run[j] : 0) + 1;
            run->held[j] = k + 1;
            if (r == 1)
                run->start[j] = ply;
            if (d->by >= 0 && k > d->by && r == 1) {
                r = 0; /* began too late */
            } else if (r >= d->hold) {
                run->found[j] = run->start[j];
                settle(run, i, c); /* its place now holds the last candidate */
                continue;
            }
            run->run[j] = r;
        }
        a++;
    }
    while (run->next_by[c] < p->nby && t->defs[p->by_order[run->next_by[c]]].by <= k)
        run->due[c][run->ndue[c]++] = p->by_order[run->next_by[c]++];
    /* Past its last move, a definition not in a run is decided (absent). */
    for (size_t a = 0; a < run->ndue[c];) {
        uint32_t i = run->due[c][a];
        size_t j = i * 2 + (size_t)c;
        if (!run->done[j] && run->held[j] == k + 1 && run->run[j] > 0) {
            a++;
            continue;
        }
        if (!run->done[j])
            settle(run, i, c);
        run->due[c][a] = run->due[c][--run->ndue[c]];
    }
}

int kifu__tagrun_position(kifu__tagrun *run, const kifu_move *m, int ply,
                          const kifu_board *b)
{
    if (!run->started) {
        first_position(run, b);
    } else if (m && m->to_x) {
        /* A move changes its squares only: from (unless a drop) and to. */
        int from = m->from_x ? KIFU_SQ(m->from_x, m->from_y) : -1;
        int to = KIFU_SQ(m->to_x, m->to_y);
        if (from >= 0 && run->board[from] != b->sq[from])
            changed(run, b, from);
        if (run->board[to] != b->sq[to])
            changed(run, b, to);
    } else {
        new_position(run, b);
    }
    if (run->rooks_moved)
        rooks_changed(run);
    int wait = run->t->plan->wait_capture;
    if (!m) {
        test_side(run, KIFU_BLACK, b, ply);
        test_side(run, KIFU_WHITE, b, ply);
        return run->open == 0 && !wait;
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
    test_side(run, c, b, ply);
    return run->open == 0 && (!wait || run->capture >= 0);
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
