/* tags_run.c: recognising the tags of one game. Positions come in main-line order; each
 * side's conditions (board, rook, moves, from/by/hold, capture) are tested after each of
 * its own moves, as seen from its camp. A run keeps, per definition and side, how many of
 * its conditions do not hold, brought up to date by what a move changes (the plan,
 * tags_plan.c, files the definitions by it); only those with none left are looked at. When
 * the line ends, the names are decided in their order: needs, opponent and excludes look
 * at names already decided, and a name decided present gives the names it implies. */
#include <string.h>

#include "kifu_private.h"
#include "tags/tags.h"

/* What a game's run holds besides the arrays, copied whole with them. */
typedef struct gamestate {
    int moves[2];         /* own moves played */
    int capture;          /* the ply of the game's first capture, -1: none yet */
    kifu_board board;     /* the last position (squares, hands, side to move) */
    kifu_board view;      /* the board seen from gote's camp (its squares kept) */
    uint64_t moved[2][2]; /* squares (own view) some own move left */
    uint8_t rooks[2][10]; /* own unpromoted rooks on each file (own view), ranks 5-9 */
    uint16_t files[2];    /* the files with such a rook, as bits (1 << file) */
    int rooks_moved;      /* rooks[] changed: bit per side */
    size_t open;          /* (definition, side) pairs not done */
    size_t ncand[2], ndue[2], next_by[2], next_from[2], nfound[2];
} gamestate;

struct kifu__tagrun {
    kifu_tagger *t;
    size_t cap;          /* definitions the arrays hold */
    int started;         /* a first position was given */
    uint32_t hands_seen; /* counts changes of hands and games: stamps the answers */
    gamestate g;
    /* The arrays, in one block (bytes long): per definition and side (definition * 2 +
     * side), */
    void *block;
    size_t bytes;
    int *run;          /* own moves in a row it held, up to move held - 1 */
    int *held;         /* 1 + the last own move it held at, 0: never */
    int *start;        /* the ply where that run began */
    int *found;        /* the ply of the first run long enough, -1: none */
    int *pos;          /* its place in cand, -1: none */
    uint32_t *stamp;   /* hands_seen * 2 + side to move when its hands were tested */
    uint8_t *wrong;    /* its conditions that do not hold (squares, rook, from, capture,
                          moves) */
    uint8_t *done;     /* nothing later can change found */
    uint8_t *hands_ok; /* the answer of the hands test stamped */
    /* and per side the definitions not done whose conditions all hold (but hands), and
     * the ones past their last move (by) in a run, decided when it ends. */
    uint32_t *cand[2], *due[2];
    uint32_t *found_list[2]; /* the definitions found, in the order found */
    kifu__tagnames names;    /* scratch for deciding */
    /* The run after the first position of the last game that had one, to start the
     * next game from when it begins the same (most do). */
    void *snap;
    gamestate snap_g;
    kifu_board snap_board;
    int snap_ply, snapped;
};

void kifu__tagrun_free(kifu__tagrun *run)
{
    if (!run)
        return;
    kifu__free(run->block);
    kifu__free(run->snap);
    kifu__tagnames_free(&run->names);
    kifu__free(run);
}

/* The arrays for n definitions, in one block (and one for the snapshot). 0, or -1
 * NOMEM. */
static int run_alloc(kifu__tagrun *run, size_t n)
{
    size_t n2 = n * 2 + 1, ints = n2 * sizeof(int), list = (n + 1) * sizeof(uint32_t);
    size_t bytes = 6 * ints + 6 * list + 3 * n2;
    kifu__free(run->block);
    kifu__free(run->snap);
    run->cap = 0;
    run->snapped = 0;
    run->block = kifu__calloc(1, bytes);
    run->snap = kifu__calloc(1, bytes);
    if (!run->block || !run->snap)
        return -1;
    char *at = run->block;
    int **iv[] = {&run->run, &run->held, &run->start, &run->found, &run->pos};
    for (size_t i = 0; i < sizeof iv / sizeof *iv; i++, at += ints)
        *iv[i] = (int *)(void *)at;
    run->stamp = (uint32_t *)(void *)at, at += ints;
    uint32_t **lv[] = {&run->cand[0], &run->cand[1],       &run->due[0],
                       &run->due[1],  &run->found_list[0], &run->found_list[1]};
    for (size_t i = 0; i < 6; i++, at += list)
        *lv[i] = (uint32_t *)(void *)at;
    run->wrong = (uint8_t *)at, at += n2;
    run->done = (uint8_t *)at, at += n2;
    run->hands_ok = (uint8_t *)at;
    run->bytes = bytes;
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
    if (run->cap < t->ndefs && run_alloc(run, t->ndefs))
        return NULL;
    run->started = 0;
    /* A new game: no answer about hands stands (and now and then, none of any). */
    if (++run->hands_seen >= 1u << 30) {
        run->hands_seen = 1;
        run->snapped = 0; /* its stamps too */
        memset(run->stamp, 0, (t->ndefs * 2 + 1) * sizeof *run->stamp);
    }
    return run;
}

/* A game's state before its first position. */
static void reset(kifu__tagrun *run)
{
    const kifu_tagger *t = run->t;
    size_t n = t->ndefs * 2;
    memset(&run->g, 0, sizeof run->g);
    run->g.capture = -1;
    memset(run->run, 0, n * sizeof(int));
    memset(run->held, 0, n * sizeof(int));
    memset(run->found, 0xff, n * sizeof(int)); /* -1 */
    for (size_t i = 0; i < n; i++) {
        /* A game's tag has no board conditions: it is decided from the sides' tags. */
        run->done[i] = (uint8_t)t->defs[i / 2].game;
        run->g.open += !run->done[i];
    }
}

/* The piece p (kind | color << 4, or 0) as the other side sees it. */
static inline unsigned other(unsigned p)
{
    return p ? p ^ (KIFU_WHITE << 4) : 0;
}

static void cand_add(kifu__tagrun *run, uint32_t i, int c)
{
    size_t j = i * 2 + (size_t)c;
    run->pos[j] = (int)run->g.ncand[c];
    run->cand[c][run->g.ncand[c]++] = i;
}

static void cand_remove(kifu__tagrun *run, uint32_t i, int c)
{
    size_t j = i * 2 + (size_t)c;
    int at = run->pos[j];
    uint32_t last = run->cand[c][--run->g.ncand[c]];
    run->cand[c][at] = last;
    run->pos[last * 2 + (size_t)c] = at;
    run->pos[j] = -1;
}

/* Definition i is decided for side c. */
static void settle(kifu__tagrun *run, uint32_t i, int c)
{
    size_t j = i * 2 + (size_t)c;
    run->done[j] = 1;
    run->g.open--;
    if (run->pos[j] >= 0)
        cand_remove(run, i, c);
}

/* One condition of definition i for side c went from not holding to holding (now 1),
 * or back (now 0). */
static inline void turned(kifu__tagrun *run, uint32_t i, int c, unsigned now)
{
    size_t j = i * 2 + (size_t)c;
    if (run->done[j])
        return;
    if (now) {
        if (--run->wrong[j] == 0)
            cand_add(run, i, c);
    } else if (run->wrong[j]++ == 0) {
        cand_remove(run, i, c);
    }
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
        run->g.rooks[c][v / 9 + 1] = (uint8_t)(run->g.rooks[c][v / 9 + 1] + add);
        run->g.rooks_moved |= 1 << c;
    }
}

/* The files with a rook of side c, as bits. */
static uint16_t rook_files(const kifu__tagrun *run, int c)
{
    unsigned f = 0;
    for (int x = 1; x <= 9; x++)
        f |= (unsigned)(run->g.rooks[c][x] != 0) << x;
    return (uint16_t)f;
}

/* After rooks moved: the rook conditions that changed. */
static void rooks_changed(kifu__tagrun *run)
{
    const kifu__tagplan *p = run->t->plan;
    for (int c = 0; c < 2; c++) {
        if (!(run->g.rooks_moved >> c & 1))
            continue;
        uint16_t was = run->g.files[c], now = rook_files(run, c);
        run->g.files[c] = now;
        for (size_t k = 0; k < p->nrook && was != now; k++) {
            uint32_t i = p->rook_defs[k];
            unsigned a = (was & p->rook_files[i]) != 0, b = (now & p->rook_files[i]) != 0;
            if (a != b)
                turned(run, i, c, b);
        }
    }
    run->g.rooks_moved = 0;
}

/* Group x's pieces on its square went from holding a to b, for side c. */
static inline void group_changed(kifu__tagrun *run, const kifu__taggroup *x, int c,
                                 unsigned a, unsigned b)
{
    const uint32_t *defs = run->t->plan->defs;
    unsigned now = x->allow >> b & 1;
    if (now != (x->allow >> a & 1))
        for (uint32_t k = x->first; k < x->first + x->n; k++)
            turned(run, defs[k], c, now);
}

/* The groups on own-view square v (of side c) whose answer turned (bits of flips), the
 * piece there gone from a to b. */
static void groups_changed(kifu__tagrun *run, int c, int v, unsigned a, unsigned b,
                           uint64_t flips)
{
    const kifu__tagplan *p = run->t->plan;
    uint32_t g0 = p->at[v], ng = p->at[v + 1] - g0;
    if (ng > 64) { /* each one tested */
        for (uint32_t g = 0; g < ng; g++)
            group_changed(run, &p->groups[g0 + g], c, a, b);
        return;
    }
    for (; flips; flips &= flips - 1)
        group_changed(run, &p->groups[g0 + (uint32_t)__builtin_ctzll(flips)], c, a, b);
}

/* Own-view square v went from piece a to piece b for side c: the groups whose answer
 * turned, when there are any (most changes turn none). */
static inline __attribute__((always_inline)) void
view_changed(kifu__tagrun *run, int c, int v, unsigned a, unsigned b)
{
    const kifu__tagplan *p = run->t->plan;
    uint32_t ng = p->at[v + 1] - p->at[v];
    uint64_t flips = ng > 64 ? ~0ull : p->sig[v * 32 + a] ^ p->sig[v * 32 + b];
    if (ng && flips)
        groups_changed(run, c, v, a, b, flips);
}

/* Real square sq of board b changed since the last position. */
static inline __attribute__((always_inline)) void changed(kifu__tagrun *run,
                                                          const uint8_t *sqs, int sq)
{
    unsigned was = run->g.board.sq[sq], now = sqs[sq];
    count_rook(run, was, sq, -1);
    count_rook(run, now, sq, 1);
    view_changed(run, KIFU_BLACK, sq, was, now);
    view_changed(run, KIFU_WHITE, 80 - sq, other(was), other(now));
    run->g.board.sq[sq] = (uint8_t)now;
    run->g.view.sq[80 - sq] = (uint8_t)other(now);
}

/* The first position: every definition's conditions that do not hold counted, those
 * with none made candidates. */
static void first_position(kifu__tagrun *run, const kifu_board *b)
{
    const kifu_tagger *t = run->t;
    const kifu__tagplan *p = t->plan;
    size_t n = t->ndefs;
    reset(run);
    run->started = 1;
    run->g.board = *b;
    for (int sq = 0; sq < 81; sq++)
        run->g.view.sq[sq] = (uint8_t)other(b->sq[80 - sq]);
    for (size_t j = 0; j < n * 2; j++)
        run->wrong[j] = (uint8_t)(p->base[j / 2] + (p->kind[j / 2] == KIFU__TAG_NEVER));
    for (int sq = 0; sq < 81; sq++) {
        count_rook(run, b->sq[sq], sq, 1);
        for (int c = 0; c < 2; c++) {
            unsigned piece = c ? other(b->sq[80 - sq]) : b->sq[sq];
            for (uint32_t g = p->at[sq]; g < p->at[sq + 1]; g++) {
                const kifu__taggroup *x = &p->groups[g];
                if (!(x->allow >> piece & 1))
                    for (uint32_t k = 0; k < x->n; k++)
                        run->wrong[p->defs[x->first + k] * 2 + (size_t)c]++;
            }
        }
    }
    run->g.rooks_moved = 0;
    run->g.files[0] = rook_files(run, 0), run->g.files[1] = rook_files(run, 1);
    for (size_t j = 0; j < n * 2; j++) {
        run->pos[j] = -1;
        if (p->rook_files[j / 2])
            run->wrong[j] += !(run->g.files[j & 1] & p->rook_files[j / 2]);
        if (!run->done[j] && !run->wrong[j])
            cand_add(run, (uint32_t)(j / 2), (int)(j & 1));
    }
}

/* The state after the first position b (at ply) saved, or restored when the last game's
 * was the same: 1 restored, 0 not. */
static int snapshot(kifu__tagrun *run, const kifu_board *b, int ply, int save)
{
    if (save) {
        memcpy(run->snap, run->block, run->bytes);
        run->snap_g = run->g;
        run->snap_board = *b;
        run->snap_ply = ply;
        run->snapped = 1;
        return 0;
    }
    const kifu_board *s = &run->snap_board;
    if (!run->snapped || ply != run->snap_ply || b->color != s->color ||
        memcmp(b->sq, s->sq, sizeof s->sq) || memcmp(b->hands, s->hands, sizeof s->hands))
        return 0;
    /* The stamps of hands saved are older than this game: no answer of theirs stands. */
    memcpy(run->block, run->snap, run->bytes);
    run->g = run->snap_g;
    run->started = 1;
    return 1;
}

/* The squares that changed since the last position, found by comparing (a word at a
 * time): when no move says which. */
static void new_position(kifu__tagrun *run, const uint8_t *sq)
{
    for (int w = 0; w < 80; w += 8) {
        uint64_t x, y;
        memcpy(&x, run->g.board.sq + w, 8);
        memcpy(&y, sq + w, 8);
        for (uint64_t d = x ^ y; d;) {
            int k = __builtin_ctzll(d) / 8;
            d &= ~(0xFFull << (8 * k));
            changed(run, sq, w + k);
        }
    }
    if (run->g.board.sq[80] != sq[80])
        changed(run, sq, 80);
}

/* Side c's own move left own-view square v: the moved and unmoved conditions on it. */
static void square_left(kifu__tagrun *run, int c, int v)
{
    uint64_t *moved = run->g.moved[c], bit = 1ull << (v & 63);
    if (moved[v >> 6] & bit)
        return;
    const kifu__tagplan *p = run->t->plan;
    const kifu__tagdef *defs = run->t->defs;
    uint64_t before[2] = {moved[0], moved[1]};
    moved[v >> 6] |= bit;
    for (uint32_t k = p->mat[v]; k < p->mat[v + 1]; k++) {
        uint32_t i = p->mdefs[k];
        int a = kifu__tag_moves_ok(&defs[i], before),
            now = kifu__tag_moves_ok(&defs[i], moved);
        if (a != now)
            turned(run, i, c, (unsigned)now);
    }
}

/* Do d's hand and side lines (kind HANDS) or its whole board (OTHER) hold for side c?
 * The answer of hands stands while the hands and the side to move do. */
static int hands_hold(kifu__tagrun *run, const kifu__tagdef *d, size_t j, int kind, int c)
{
    const kifu_board *b = &run->g.board;
    uint32_t stamp = run->hands_seen * 2 + (b->color & 1);
    if (kind == KIFU__TAG_HANDS && run->stamp[j] == stamp)
        return run->hands_ok[j];
    const kifu_board *v = b;
    if (c) {
        memcpy(run->g.view.hands[0], b->hands[1], sizeof run->g.view.hands[0]);
        memcpy(run->g.view.hands[1], b->hands[0], sizeof run->g.view.hands[1]);
        run->g.view.color = (uint8_t)(b->color ^ 1);
        v = &run->g.view;
    }
    run->stamp[j] = stamp;
    return run->hands_ok[j] = (uint8_t)kifu__pattern_match(d->pat, v);
}

/* Test side c's definitions on board b after its k-th move, at ply: those whose `from`
 * came join, then the candidates are tested, then the ones whose last move (by) came
 * and are not in a run are decided. */
static void test_side(kifu__tagrun *run, int c, int ply)
{
    int k = run->g.moves[c];
    const kifu_tagger *t = run->t;
    const kifu__tagplan *p = t->plan;
    while (p->from_key[run->g.next_from[c]] <= k)
        turned(run, p->from_order[run->g.next_from[c]++], c, 1);
    for (size_t a = 0; a < run->g.ncand[c];) {
        uint32_t i = run->cand[c][a];
        size_t j = i * 2 + (size_t)c;
        const kifu__tagdef *d = &t->defs[i];
        int kind = p->kind[i];
        if (kind == KIFU__TAG_HANDS || kind == KIFU__TAG_OTHER
                ? hands_hold(run, d, j, kind, c)
                : 1) {
            int r = (run->held[j] == k ? run->run[j] : 0) + 1;
            run->held[j] = k + 1;
            if (r == 1)
                run->start[j] = ply;
            if (d->by >= 0 && k > d->by && r == 1) {
                r = 0; /* began too late */
            } else if (r >= d->hold) {
                run->found[j] = run->start[j];
                run->found_list[c][run->g.nfound[c]++] = i;
                settle(run, i, c); /* its place now holds the last candidate */
                continue;
            }
            run->run[j] = r;
        }
        a++;
    }
    /* Past its last move, a definition not in a run is decided (absent); one in a run
     * waits in due for the run's end. */
    for (size_t a = 0; a < run->g.ndue[c];) {
        size_t j = run->due[c][a] * 2 + (size_t)c;
        if (!run->done[j] && run->held[j] == k + 1 && run->run[j] > 0) {
            a++;
            continue;
        }
        if (!run->done[j])
            settle(run, run->due[c][a], c);
        run->due[c][a] = run->due[c][--run->g.ndue[c]];
    }
    for (size_t *next = &run->g.next_by[c]; p->by_key[*next] <= k; ++*next) {
        uint32_t i = p->by_order[*next];
        size_t j = i * 2 + (size_t)c;
        if (run->done[j])
            continue;
        if (run->held[j] == k + 1 && run->run[j] > 0)
            run->due[c][run->g.ndue[c]++] = i;
        else
            settle(run, i, c);
    }
}

/* What a move did (kifu__tagrun_move) after the position was brought up to date: the
 * first capture, the square left, the side's move counted and its definitions tested. */
static int after_move(kifu__tagrun *run, int c, int from, int capture, int ply)
{
    const kifu__tagplan *p = run->t->plan;
    if (capture && run->g.capture < 0) {
        run->g.capture = ply;
        for (size_t k = 0; k < p->nafter; k++)
            for (int s = 0; s < 2; s++)
                turned(run, p->after[k], s, 1);
    }
    if (from >= 0)
        square_left(run, c, c ? 80 - from : from);
    int k = ++run->g.moves[c];
    /* Most moves leave the side nothing to test: no candidate, none due, no from or by
     * reached (a call a move cost a seventh of tagging). */
    if (run->g.ncand[c] || run->g.ndue[c] || p->from_key[run->g.next_from[c]] <= k ||
        p->by_key[run->g.next_by[c]] <= k)
        test_side(run, c, ply);
    return run->g.open == 0 && (!p->wait_capture || run->g.capture >= 0);
}

/* The hands now (kpos and kifu_board order: [side][kind], kind 0 unused). */
static inline void hands_now(kifu__tagrun *run, const uint8_t *hands)
{
    uint8_t now[2][8];
    memcpy(now, hands, sizeof now);
    now[0][0] = now[1][0] = 0;
    if (memcmp(run->g.board.hands, now, sizeof now) != 0) {
        memcpy(run->g.board.hands, now, sizeof now);
        run->hands_seen++;
    }
}

int kifu__tagrun_position(kifu__tagrun *run, const kifu_move *m, int ply,
                          const kifu_board *b)
{
    const kifu__tagplan *p = run->t->plan;
    if (!run->started) {
        if (!m && snapshot(run, b, ply, 0))
            return run->g.open == 0 && !p->wait_capture;
        first_position(run, b);
        if (run->g.rooks_moved)
            rooks_changed(run);
        if (!m) {
            test_side(run, KIFU_BLACK, ply);
            test_side(run, KIFU_WHITE, ply);
            snapshot(run, b, ply, 1);
            return run->g.open == 0 && !p->wait_capture;
        }
        return after_move(run, m->color & 1,
                          m->from_x ? KIFU_SQ(m->from_x, m->from_y) : -1, m->capture,
                          ply);
    }
    if (!m) {
        new_position(run, b->sq);
        if (run->g.rooks_moved)
            rooks_changed(run);
        hands_now(run, &b->hands[0][0]);
        run->g.board.color = b->color;
        test_side(run, KIFU_BLACK, ply);
        test_side(run, KIFU_WHITE, ply);
        return run->g.open == 0 && !p->wait_capture;
    }
    return kifu__tagrun_move(run, m->color & 1,
                             m->from_x ? KIFU_SQ(m->from_x, m->from_y) : -1,
                             m->to_x ? KIFU_SQ(m->to_x, m->to_y) : -1, m->capture, ply,
                             b->sq, &b->hands[0][0], b->color);
}

int kifu__tagrun_move(kifu__tagrun *run, int c, int from, int to, int capture, int ply,
                      const uint8_t *sq, const uint8_t *hands, int color)
{
    if (!run->started) {
        kifu_board b;
        memcpy(b.sq, sq, sizeof b.sq);
        memcpy(b.hands, hands, sizeof b.hands);
        b.hands[0][0] = b.hands[1][0] = 0;
        b.color = (uint8_t)color;
        kifu_move m = {0};
        m.color = (uint8_t)c;
        if (from >= 0)
            m.from_x = (uint8_t)(from / 9 + 1), m.from_y = (uint8_t)(from % 9 + 1);
        m.capture = (uint8_t)capture;
        return kifu__tagrun_position(run, &m, ply, &b);
    }
    if (to >= 0) {
        /* A move changes its squares only: from (unless a drop) and to. */
        if (from >= 0 && run->g.board.sq[from] != sq[from])
            changed(run, sq, from);
        if (run->g.board.sq[to] != sq[to])
            changed(run, sq, to);
    } else {
        new_position(run, sq);
    }
    if (run->g.rooks_moved)
        rooks_changed(run);
    /* Hands change by a capture or a drop only (the generic path compares). */
    if (capture || from < 0 || to < 0)
        hands_now(run, hands);
    run->g.board.color = (uint8_t)color;
    return after_move(run, c, from, capture, ply);
}

int kifu__tagrun_finish(kifu__tagrun *run, kifu_tag **out, size_t *count)
{
    return kifu__tags_decide(run->t, &run->names, run->found, run->found_list,
                             run->g.nfound, run->g.capture, out, count);
}
