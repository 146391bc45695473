/* normalize.c: complete every move of a record and check it with the rules engine.
 *
 * Readers give what their format says (KIF: from and to; CSA: the piece after the move;
 * KI2: only the target, piece and relative word; JKF: anything). The normalizer replays
 * the tree and fills color, from, piece, capture, promote, same and relative, names
 * handicap presets given as boards, fixes the side of ILLEGAL_ACTION endings and sums
 * per-move times into totals. The tree is visited by the record walk (walk.h): no
 * recursion, so forks of any depth and long games use no C stack. */
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"
#include "notation/notation.h"
#include "notation/relative.h"
#include "record/record.h"
#include "record/walk.h"

/* ---- readable move text for error messages ---- */

/* "☗２二角成(88)", "☖同　銀", "☗５五角打": the move as read (partial moves too). */
static void move_text(const kifu_move *m, char *buf, size_t cap)
{
    unsigned style = (m->flags & KIFU_MOVE_NO_COLOR) ? KIFU_TEXT_FROM : KIFU_TEXT_KIF;
    kifu_move_text(m, NULL, style, buf, cap);
}

static void sq_text(int sq, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s", kifu__zen_digit(SQ_X(sq)), kifu__kanji_number(SQ_Y(sq)));
}

/* ---- resolving one record move to a legal packed move ---- */

/* How resolving went: n is 1 when the move was alone (no other piece of its kind
 * reaches its square: no relative word), else NO_CANDS (the word looks at the board) or
 * the two or more legal moves listed, when reach board pieces reach the square (pinned or
 * not). */
/* A record read from JKF (kifu_record.from_jkf): where its warnings go. */
typedef struct jkf_check {
    void (*warn)(void *, const char *);
    void *ctx;
} jkf_check;

typedef struct cand_list {
    kmove v[32];
    size_t n;
    int reach;
    /* When the move was refused for a foul (it could be played, the rules forbid it):
     * which, and the move as played. */
    int foul;
    kmove foul_mv;
    /* JKF: its fields are checked against the position (NULL: another format). */
    const jkf_check *jkf;
    /* The JKF field a refusal is about ("piece", "same"), or NULL: the move object. */
    const char *field;
} cand_list;

#define NO_CANDS ((size_t)-1)

#define fail(err, code, ...)                                                             \
    kifu__error(err, code, 0, 0, 0, "a legal move", NULL, __VA_ARGS__)

/* The foul a refusal of the engine names (kifu_foul), or NONE when the move could not be
 * played at all (no piece there, cannot reach, ...). */
static int foul_of(const kifu_position *p, const char *why)
{
    static const struct {
        const char *prefix;
        int foul;
    } words[] = {{"王手放置", KIFU_FOUL_LEFT_IN_CHECK},
                 {"二歩", KIFU_FOUL_NIFU},
                 {"打ち歩詰め", KIFU_FOUL_UCHIFUZUME},
                 {"行き所のない駒", KIFU_FOUL_DEAD_PIECE},
                 {"must promote", KIFU_FOUL_DEAD_PIECE}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strncmp(why, words[i].prefix, strlen(words[i].prefix)) == 0) {
            /* The engine says 王手放置 for both: not in check before, the move put the
             * king in check itself. */
            if (words[i].foul == KIFU_FOUL_LEFT_IN_CHECK && !kifu_position_in_check(p))
                return KIFU_FOUL_INTO_CHECK;
            return words[i].foul;
        }
    return KIFU_FOUL_NONE;
}

/* No other piece of mv's kind reaches its square, pinned or not, when `reach` board
 * pieces of the kind do (counted while the moves were listed): mv needs no
 * relative word. */
static int alone_by_reach(kmove mv, int reach)
{
    /* One king; a pawn reaches a square only from right behind it (a drop there would be
     * 二歩); on a file the nearest lance blocks any other (as kifu__relative knows). */
    int kind = MOVE_PIECE(mv);
    /* The count first: it mostly decides alone (KI2 asks for every move). */
    if (!MOVE_IS_DROP(mv))
        return reach <= 1 || kind == KING || kind == PAWN || kind == LANCE;
    return reach == 0 || kind == KING || kind == PAWN;
}

static int check_legal(const kifu_position *p, kmove mv, cand_list *cl, kmove *out,
                       kifu_error *err)
{
    const char *why = kifu__position_illegal_reason(p, mv);
    if (why) {
        cl->foul = foul_of(p, why);
        cl->foul_mv = mv;
        return fail(err, KIFU_ERR_ILLEGAL, "%s", why);
    }
    *out = mv;
    return 0;
}

/* mv is legal when the engine lists it among the moves of its kind to its square.
 * Otherwise the engine says why. Inline, as resolve and complete are: each is called
 * once per move, and saving and restoring their registers cost the normalizer of a
 * 300-game corpus 2.5M instructions (3%). */
static inline int check_listed(const kifu_position *p, kmove mv, cand_list *cl,
                               kmove *out, kifu_error *err)
{
    /* Mostly the move is legal and no other piece of its kind reaches its square: one
     * piece checked, nothing listed, no relative word. */
    if (kifu__position_legal_alone(p, mv)) {
        cl->n = 1;
        *out = mv;
        return 0;
    }
    int reach;
    cl->n = kifu__position_moves_to(p, MOVE_TO(mv), MOVE_PIECE(mv), cl->v, &reach);
    for (size_t i = 0; i < cl->n; i++) {
        kmove c = cl->v[i];
        if (MOVE_FROM(c) == MOVE_FROM(mv) && MOVE_IS_PROMOTE(c) == MOVE_IS_PROMOTE(mv)) {
            *out = c;
            /* The word by reach: from the moves listed when every piece that reaches is
             * among them (relative.c looks), else by another look at the board. */
            cl->n = alone_by_reach(mv, reach) ? 1 : cl->n > 1 ? cl->n : NO_CANDS;
            cl->reach = reach;
            return 0;
        }
    }
    cl->n = NO_CANDS;
    return check_legal(p, mv, cl, out, err);
}

/* A record move as the normalizer reads it: the fields of the node's packed move that
 * resolving needs, squares as the engine numbers them. Taken from the node's bits in
 * registers: a kifu_move unpacked and read back per move cost more than resolving. */
typedef struct raw_move {
    int from, to;   /* SQ, -1 none (0, 0), -2 no square (a 0 with a non-0, or 10+) */
    int from_given; /* from's x is not 0 (else a drop, or KI2 with no source) */
    int to_given;   /* to's x is not 0 (else 同, the square of the move before) */
    int color, piece, promote, same;
    unsigned rel, flags; /* kifu__mv_rel_code; KIFU_MOVE_* (and KIFU__MOVE_FROM_NULL) */
} raw_move;

static inline raw_move raw_of(const kifu_node *n)
{
    uint64_t v = n->mv;
    unsigned from = (v >> 1) & 127, to = (v >> 8) & 127;
    return (raw_move){.from = kifu__mv_sq[from],
                      .to = kifu__mv_sq[to],
                      .from_given = from >= 10,
                      .to_given = to >= 10,
                      .color = (int)(v & 1),
                      .piece = (int)((v >> 15) & 15),
                      .promote = (int)((v >> 23) & 3) - 1,
                      .same = (int)((v >> 25) & 3) - 1,
                      .rel = kifu__mv_rel_of(n),
                      .flags = kifu__move_flags(n)};
}

/* The relative word of m as text (JKF letters). */
static void rel_text(const raw_move *m, char out[3])
{
    uint16_t w = kifu__mv_rel[m->rel];
    out[0] = (char)(w & 255), out[1] = (char)(w >> 8), out[2] = 0;
}

static int resolve_board_move(const kifu_position *p, int side, const raw_move *m, int to,
                              kmove *out, cand_list *cl, kifu_error *err)
{
    int from = m->from;
    int cp = kifu__position_at(p, from);
    if (!cp || CPIECE_COLOR(cp) != side) {
        cl->field = "from";
        return fail(err, KIFU_ERR_ILLEGAL, !cp ? "no piece there" : "not your piece");
    }
    int bk = CPIECE_KIND(cp), kind = m->piece, promote = m->promote == 1;
    if (kind == 0) {
        kind = bk;
    } else if (m->flags & KIFU_MOVE_PIECE_AFTER) {
        /* CSA names the piece after the move: +8822UM from a KA is KA promoting. */
        if (kind == bk) {
            promote = 0;
        } else if (kind_can_promote(bk) && kind == kind_promoted(bk)) {
            promote = 1;
            kind = bk;
        }
    } else if (cl->jkf && m->promote != 0 && kind != bk && kind_can_promote(bk) &&
               kind == kind_promoted(bk)) {
        /* CSA-level JKF (what the CSA reader gives, with no "promote") names the piece
         * after the move too: "UM" from a KA is KA promoting. */
        promote = 1;
        kind = bk;
    }
    if (kind != bk) {
        cl->field = "piece";
        char want[64];
        snprintf(want, sizeof want, "%s, not %s", kifu__kanji_piece(bk),
                 kifu__kanji_piece(m->piece));
        return fail(err, KIFU_ERR_ILLEGAL, "no such piece there (the piece is %s)", want);
    }
    int cap = kifu__position_at(p, to);
    kmove mv = move_make(from, to, kind, cap ? CPIECE_KIND(cap) : 0, promote);
    return check_listed(p, mv, cl, out, err);
}

static int resolve_drop(const kifu_position *p, int side, int kind, int to, kmove *out,
                        cand_list *cl, kifu_error *err)
{
    cl->field = "piece"; /* when it fails here */
    if (kind < PAWN || kind > GOLD)
        return fail(err, KIFU_ERR_ILLEGAL, "cannot drop %s", kifu__kanji_piece(kind));
    if (!kifu__position_hand(p, side, kind))
        return fail(err, KIFU_ERR_ILLEGAL, "no %s in hand", kifu__kanji_piece(kind));
    cl->field = NULL;
    return check_listed(p, move_make_drop(kind, to), cl, out, err);
}

/* KI2 gives no source: when no legal move fits, the one piece of `kind` that could make
 * the move but for a foul (王手放置 and the like). 1 with cl->foul and cl->foul_mv set;
 * 0 when none or several do. */
static int foul_candidate(const kifu_position *p, int side, int kind, int to, int promote,
                          cand_list *cl)
{
    int found = 0, foul = KIFU_FOUL_NONE;
    kmove mv = 0;
    for (int from = 0; from < SQ_NB && found < 2; from++) {
        int cp = kifu__position_at(p, from);
        if (!cp || CPIECE_COLOR(cp) != side || CPIECE_KIND(cp) != kind || from == to)
            continue;
        int cap = kifu__position_at(p, to);
        kmove c = move_make(from, to, kind, cap ? CPIECE_KIND(cap) : 0, promote);
        const char *why = kifu__position_illegal_reason(p, c);
        int f = why ? foul_of(p, why) : KIFU_FOUL_NONE;
        if (f) {
            found++;
            foul = f;
            mv = c;
        }
    }
    if (found != 1)
        return 0;
    cl->foul = foul;
    cl->foul_mv = mv;
    return 1;
}

/* JKF at every level in one record (seeds/000): a move without "from" is a drop in
 * KIF-level JKF, but a KI2-level move (to, piece, relative or same) mixed in has none
 * either. It is found on the board as KI2's are when it cannot be a drop (no such piece
 * in hand, or the square taken) or names a relative word other than H; a move that can
 * be either stays the drop KIF-level JKF means (KI2-level JKF says "H" only when a board
 * piece could go there too, so one without a word is read as json-kifu-format reads
 * KIF-level JKF). `from: null` is always a drop. */
static int jkf_board_move(const kifu_position *p, int side, const raw_move *m, int kind,
                          int to, const cand_list *cl)
{
    if (!cl->jkf || (m->flags & KIFU__MOVE_FROM_NULL) || m->rel == 16)
        return 0;
    if (m->rel || m->same == 1)
        return 1;
    return kind < PAWN || kind > GOLD || !kifu__position_hand(p, side, kind) ||
           kifu__position_at(p, to) != 0;
}

/* side: the side to move in p (passed along: a call per use costs more than the work).
 * Always inline (its one caller is step): as a call of eight arguments, two of them on
 * the stack, it cost 35 instructions a move more (callgrind, issue 9). */
static inline __attribute__((always_inline)) int resolve(const kifu_position *p, int side,
                                                         const raw_move *m, int prev_to,
                                                         kmove *out, cand_list *cl,
                                                         kifu_error *err)
{
    cl->n = NO_CANDS;
    cl->foul = KIFU_FOUL_NONE;
    cl->field = NULL;
    int to = m->to;
    if (m->to_given) {
        if (to < 0)
            return fail(err, KIFU_ERR_ILLEGAL, "no such square");
    } else if (prev_to >= 0) {
        to = prev_to;
    } else {
        return fail(err, KIFU_ERR_ILLEGAL, "同 (same square) with no previous move");
    }
    if (!(m->flags & KIFU_MOVE_NO_COLOR) && m->color != side) {
        cl->field = "color";
        return fail(err, KIFU_ERR_ILLEGAL, "not your turn (%s to move)",
                    side ? "☖ gote" : "☗ sente");
    }
    if (m->from_given) {
        if (m->from < 0)
            return fail(err, KIFU_ERR_ILLEGAL, "no such square");
        return resolve_board_move(p, side, m, to, out, cl, err);
    }
    int kind = m->piece;
    if (kind <= 0 || kind >= PIECE_KIND_NB)
        return fail(err, KIFU_ERR_ILLEGAL, "no piece kind given");
    if (((m->flags & KIFU_MOVE_DROP) && !jkf_board_move(p, side, m, kind, to, cl)) ||
        m->rel == 16 /* H alone */) {
        if (m->promote == 1)
            return fail(err, KIFU_ERR_ILLEGAL, "cannot promote: a drop never promotes");
        return resolve_drop(p, side, kind, to, out, cl, err);
    }

    /* From unknown (KI2): the legal board moves of this kind to `to`, with the promotion
     * the record says, told apart by the relative word. */
    kmove cands[32];
    /* Board moves only: a drop is never among the candidates, and the relative word of a
     * board move looks at board sources only. */
    int reach;
    size_t n = kifu__position_board_moves_to(p, to, kind, cl->v, &reach), k = 0;
    for (size_t i = 0; i < n; i++)
        if (!MOVE_IS_DROP(cl->v[i]) && MOVE_IS_PROMOTE(cl->v[i]) == (m->promote == 1))
            cands[k++] = cl->v[i];
    if (k == 0) {
        /* No piece on the board gets there: a drop written without 打 (a JKF move
         * without from that is neither says so as the drop it was read as). */
        if (kind <= GOLD && !m->rel &&
            (kifu__position_hand(p, side, kind) || (m->flags & KIFU_MOVE_DROP)))
            return resolve_drop(p, side, kind, to, out, cl, err);
        if (!m->rel && foul_candidate(p, side, kind, to, m->promote == 1, cl))
            return fail(err, KIFU_ERR_ILLEGAL, "%s",
                        kifu__position_illegal_reason(p, cl->foul_mv));
        char sq[16];
        sq_text(to, sq, sizeof sq);
        return fail(err, KIFU_ERR_ILLEGAL, "cannot reach: no %s can move to %s",
                    kifu__kanji_piece(kind), sq);
    }
    char word[3];
    rel_text(m, word);
    if (k > 1 && m->rel)
        k = kifu__relative_filter(p, word, cands, k);
    if (k == 1) {
        *out = cands[0];
        if (alone_by_reach(cands[0], reach)) {
            cl->n = 1; /* no word to look for */
        } else if (n > 1) {
            /* The legal board moves: the word needs no second look unless a piece that
             * reaches is not among them (relative.c looks). */
            cl->n = n;
            cl->reach = reach;
        }
        return 0;
    }
    cl->field = "relative"; /* what fails below: the word fits none, or several */
    if (k == 0)
        return fail(err, KIFU_ERR_ILLEGAL,
                    "cannot reach: no %s fits the relative word %s",
                    kifu__kanji_piece(kind), word);
    char list[96] = "";
    for (size_t i = 0; i < k && strlen(list) + 8 < sizeof list; i++) {
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s(%d%d)", i ? ", " : "",
                 SQ_X(MOVE_FROM(cands[i])), SQ_Y(MOVE_FROM(cands[i])));
    }
    return kifu__error(err, KIFU_ERR_AMBIGUOUS, 0, 0, 0, "one piece (a relative word)",
                       list, "ambiguous: %zu pieces can move there: %s", k, list);
}

/* ---- the record walk ---- */

static int in_zone(int color, int y)
{
    return color == BLACK ? y <= 3 : y >= 7;
}

/* Each square as a packed move names it (x * 10 + y), by a load instead of a division. */
static const uint8_t sq_code[SQ_NB] = {
    11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33,
    34, 35, 36, 37, 38, 39, 41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55, 56,
    57, 58, 59, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 72, 73, 74, 75, 76, 77, 78, 79,
    81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99};

/* Each square's rank, for the promotion zone. */
static const uint8_t sq_rank[SQ_NB] = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9};

/* Fills node n's move (m: as read) from the legal move mv played from position p (before
 * it), packed straight from mv: no kifu_move is built and packed per move. */
static inline void complete(const kifu_position *p, int color, kifu_node *n,
                            const raw_move *m, kmove mv, int prev_to, const cand_list *cl)
{
    int to = MOVE_TO(mv), drop = MOVE_IS_DROP(mv);
    int kind = MOVE_PIECE(mv);
    int promote = -1;
    if (MOVE_IS_PROMOTE(mv))
        promote = 1;
    else if (!drop && kind_can_promote(kind) &&
             (in_zone(color, sq_rank[to]) || in_zone(color, sq_rank[MOVE_FROM(mv)])))
        promote = 0;
    int same = m->same < 0 && to == prev_to ? 1 : m->same;
    unsigned rel = m->rel;
    if (!rel) {
        /* The move alone, no other piece of its kind reaching its square (mostly so): no
         * word. Else the word counts the others by reach, pinned ones too (relative.c):
         * the legal candidates listed in cl may be fewer. */
        char word[3] = {0};
        if (cl->n == 1)
            ;
        else if (cl->n != NO_CANDS)
            kifu__relative_listed(p, mv, cl->v, cl->n, cl->reach, word);
        else
            kifu__relative(p, mv, word);
        rel = kifu__mv_rel_code(word);
    }
    /* Complete now: only the drop mark (and how JKF wrote the drop) stays. */
    unsigned flags = drop ? KIFU_MOVE_DROP | (m->flags & KIFU__MOVE_FROM_NULL) : 0;
    n->mv = kifu__mv_bits((unsigned)color, drop ? 0 : sq_code[MOVE_FROM(mv)], sq_code[to],
                          (unsigned)kind, (unsigned)MOVE_CAPTURE(mv), promote, same, rel,
                          flags);
}

/* Per-move times to running totals: the total of the same player's previous move (two
 * plies up, forks included) plus this move's time. */
static void fill_total_slow(kifu_node *n, const kifu_node *g);

/* Inlined into step: a call per move cost more than the sum (callgrind, issue 9). g: n's
 * grandparent or NULL (the callers have it at hand). */
static inline __attribute__((always_inline)) void fill_total(kifu_node *n,
                                                             const kifu_node *g)
{
    static const kifu__t6 zero = {0, 0, 0, 0};
    if (!n->has_time || n->has_total)
        return;
    kifu__ptime *t = kifu__ptime_of(n);
    /* g's time: mostly in n's page, beside n's (no page lookup then). */
    const kifu__ptime *gt = !g || !g->has_time                     ? NULL
                            : kifu__page_of(g) == kifu__page_of(n) ? t - (n - g)
                                                                   : kifu__ptime_of(g);
    /* No time two plies up: the total is this move's time (zero added, no branches). */
    const kifu__t6 *a = &t->now, *b = gt ? &gt->total : &zero;
    /* Both packed and in normal form (what readers give): add with carries, no
     * divisions. The same result as the sum in milliseconds (fill_total_slow). */
    if (a->h <= 0 && a->h != KIFU__T6_FULL && a->m < 60 && a->s < 60 && a->ms < 1000 &&
        (!gt || (g->has_total && gt->now.h != KIFU__T6_FULL && b->h < INT16_MAX &&
                 b->m < 60 && b->s < 60 && b->ms < 1000))) {
        /* The carries by arithmetic, not branches: seconds are as good as random, and
         * a branch on their sum would be mispredicted half the time. */
        int ms = a->ms + b->ms, c_ms = ms >= 1000;
        int sec = a->s + b->s + c_ms, c_sec = sec >= 60;
        int min = a->m + b->m + c_sec, c_min = min >= 60;
        /* Built whole and stored once: fewer stores than field by field. */
        t->total = (kifu__t6){(int16_t)((b->h > 0 ? b->h : 0) + c_min),
                              (uint8_t)(min - 60 * c_min), (uint8_t)(sec - 60 * c_sec),
                              (uint16_t)(ms - 1000 * c_ms)};
        n->has_total = 1;
        return;
    }
    fill_total_slow(n, g);
}

/* The same on whole times, in milliseconds, so CSA V3.0 fractions add up too. */
static void fill_total_slow(kifu_node *n, const kifu_node *g)
{
    kifu_move_time t, gt;
    kifu__time_get(n, &t);
    const kifu_time *a = &t.now, *b = g && kifu__time_get(g, &gt) ? &gt.total : NULL;
    long long base = 0, now = kifu_time_seconds(a) * 1000LL + a->ms;
    if (b)
        base = kifu_time_seconds(b) * 1000LL + b->ms;
    long long sum = base + now;
    t.total = kifu_time_from_seconds((long)(sum / 1000), 1);
    t.total.ms = (int)(sum % 1000);
    t.has_total = 1;
    kifu__time_set(n, &t); /* a NOMEM loses only the total */
}

/* "main line", or "fork 2 at ply 5" for the innermost fork holding n. */
static void branch_name(const kifu_node *n, char *buf, size_t cap)
{
    for (const kifu_node *x = n; kifu__parent_link(x); x = kifu__parent(x)) {
        size_t i = kifu_node_index(x);
        if (i) {
            snprintf(buf, cap, "fork %zu at ply %d", i, x->ply);
            return;
        }
    }
    snprintf(buf, cap, "main line");
}

/* The error of node n's move, at its line and column when the reader noted where its
 * text began and the input is still there (kifu_read keeps it until the normalizer is
 * done): counted only now, for the one move in error, so a reader notes a byte offset
 * per move and no line or column, and any line or column can be told. */
static void jkf_path(const kifu_node *n, char *buf, size_t cap);

static void report(kifu_error *err, const kifu_error *why, const kifu_node *n,
                   const cand_list *cl)
{
    char text[96], branch[64], path[160] = "";
    kifu_move m;
    kifu__move_get(n, &m);
    move_text(&m, text, sizeof text);
    branch_name(n, branch, sizeof branch);
    const kifu_record *r = kifu__page_of(n)->rec;
    if (r->from_jkf) {
        /* JKF names the place by its JSON path, as its reader's errors do. */
        jkf_path(n, path, sizeof path - 32);
        size_t l = strlen(path);
        snprintf(path + l, sizeof path - l, ".move%s%s: ", cl->field ? "." : "",
                 cl->field ? cl->field : "");
    }
    size_t off = 0;
    int line = 0, col = 0;
    if (kifu__node_src_get(n, &off) && r->input && off <= r->input->len)
        kifu__text_where(r->input->text, off, &line, &col);
    kifu__error(err, why->code, line, col, line ? off : 0, why->expected, text,
                "%sply %d (%s): %s: %s", path, n->ply, branch, text, why->message);
}

/* ---- JKF: the fields it may give, against the position ---- */

/* The JSON path of node n's entry in the JKF it was read from: "moves[3]",
 * "moves[3].forks[0][1]" (a fork is child k of the entry's parent: forks[k - 1] of the
 * entry holding child 0). Walked up, iteratively; the innermost 16 forks are named. */
static void jkf_path(const kifu_node *n, char *buf, size_t cap)
{
    size_t fork[16], pos[16], nf = 0, at = 0, deeper = 0;
    const kifu_node *x = n, *pa;
    while ((pa = kifu__parent(x)) != NULL) {
        size_t i = kifu_node_index(x);
        if (i == 0) {
            if (!kifu__parent(pa))
                break;
            at++;
            x = pa;
            continue;
        }
        if (nf < 16)
            fork[nf] = i - 1, pos[nf++] = at;
        else
            deeper = 1;
        x = kifu__first(pa);
        at = 0;
    }
    size_t l = (size_t)snprintf(buf, cap, "moves[%zu]%s", at + 1, deeper ? "..." : "");
    for (size_t k = nf; k-- > 0 && l < cap;)
        l += (size_t)snprintf(buf + l, cap - l, ".forks[%zu][%zu]", fork[k], pos[k]);
}

/* Say that the field `field` of node c's move contradicts the position and what it was
 * corrected to. */
static void jkf_corrected(const cand_list *cl, const kifu_node *c, const char *field,
                          const char *what)
{
    char path[160];
    jkf_path(c, path, sizeof path);
    kifu__warn(cl->jkf->warn, cl->jkf->ctx, "%s.move.%s: %s", path, field, what);
}

/* Does relative word `word` name legal move mv (p before it) among the moves of its
 * kind to its square (`right`: the word kifu gives it)? A drop's word is H; a board
 * move that no other piece of its kind could make takes none; else the word must
 * single it out, minimal or not (LU where L is enough). */
static int jkf_word_names(const kifu_position *p, kmove mv, const char *word,
                          const char *right)
{
    if (MOVE_IS_DROP(mv) || strcmp(word, "H") == 0)
        return MOVE_IS_DROP(mv) && strcmp(word, "H") == 0;
    if (!right[0])
        return 0;
    kmove v[32], cands[32];
    int reach;
    size_t n = kifu__position_board_moves_to(p, MOVE_TO(mv), MOVE_PIECE(mv), v, &reach),
           k = 0;
    for (size_t i = 0; i < n; i++)
        if (!MOVE_IS_DROP(v[i]) && MOVE_IS_PROMOTE(v[i]) == MOVE_IS_PROMOTE(mv))
            cands[k++] = v[i];
    k = kifu__relative_filter(p, word, cands, k);
    return k == 1 && MOVE_FROM(cands[0]) == MOVE_FROM(mv);
}

/* The fields a JKF move may give beyond what finds it (capture, same, relative), each
 * against the legal move mv found: one that contradicts the position is corrected, with
 * a warning naming its path (m's same and relative, which complete() keeps; the capture
 * is always the position's). */
static void jkf_fields(const kifu_position *p, const kifu_node *c, raw_move *m, kmove mv,
                       int prev_to, const cand_list *cl)
{
    char msg[200];
    int given = (int)((c->mv >> 19) & 15), taken = MOVE_CAPTURE(mv);
    if (given && given != taken) {
        snprintf(msg, sizeof msg, "%s, but the move takes %s: corrected",
                 kifu_piece_csa(given), taken ? kifu_piece_csa(taken) : "nothing");
        jkf_corrected(cl, c, "capture", msg);
    }
    if (m->same == 0 && MOVE_TO(mv) == prev_to) {
        jkf_corrected(cl, c, "same",
                      "false, but the move goes to the square of the move before: "
                      "corrected to true");
        m->same = 1;
    }
    if (m->rel) {
        char word[3], right[3] = "";
        rel_text(m, word);
        kifu__relative(p, mv, right);
        if (!jkf_word_names(p, mv, word, right)) {
            snprintf(msg, sizeof msg,
                     "\"%s\" does not name this move among the pieces that reach its "
                     "square: corrected to %s%s%s",
                     word, right[0] ? "\"" : "no word", right, right[0] ? "\"" : "");
            jkf_corrected(cl, c, "relative", msg);
            m->rel = 0; /* complete() gives the word */
        }
    }
}

enum { STEP_OK = 0, STEP_BAD = 1, STEP_NOMEM = 2, STEP_FOUL = 3 };

/* Play mv on p. On a record without forks (line) nothing is ever taken back, so no
 * history is kept: it would be 24 bytes a move, 24 MB for a 1,000,000-move game. */
static inline int play(kifu_position *p, kmove mv, int line)
{
    if (line) {
        kifu__position_do_bare(p, mv);
        return 0;
    }
    return kifu__position_do_light(p, mv);
}

/* The square of the parent's move (for 同), or -1. */
static int prev_square(const kifu_node *parent)
{
    int to = parent->kind == KIFU_NODE_MOVE ? raw_of(parent).to : -1;
    return to < 0 ? -1 : to;
}

/* Complete, check and play the move (or fix the ending) of node c, whose parent's position
 * p holds (g: c's grandparent or NULL). STEP_BAD: an illegal move, reported in err and
 * marked raw (nothing played). STEP_FOUL: a move refused for a foul (cl says which), not
 * yet reported. */
static inline int step(kifu_position *p, kifu_node *c, const kifu_node *parent,
                       const kifu_node *g, cand_list *cl, kifu_error *e, int line,
                       kifu_error *err)
{
    if (c->kind == KIFU_NODE_MOVE) {
        int prev_to = prev_square(parent);
        kmove mv = MOVE_NONE;
        e->code =
            0; /* enough for kifu__error to take the next one; no full clear per move */
        int side = kifu_position_side(p);
        raw_move m = raw_of(c);
        int bad = resolve(p, side, &m, prev_to, &mv, cl, e);
        if (!bad && m.same == 1 && m.to_given && MOVE_TO(mv) != prev_to) {
            cl->field = "same";
            bad = kifu__error(e, KIFU_ERR_ILLEGAL, 0, 0, 0, "a legal move", NULL,
                              "同 (same square) but the previous move went elsewhere");
        }
        if (!bad && __builtin_expect(cl->jkf != NULL, 0))
            jkf_fields(p, c, &m, mv, prev_to, cl);
        if (bad && cl->foul && e->code == KIFU_ERR_ILLEGAL)
            return STEP_FOUL;
        if (bad) {
            report(err, e, c, cl);
            if (e->code == KIFU_ERR_NOMEM)
                return STEP_NOMEM;
            kifu__move_flag(c, KIFU_MOVE_RAW);
            return STEP_BAD;
        }
        complete(p, side, c, &m, mv, prev_to, cl);
        /* No repetition count or check state: the replay needs neither. */
        if (play(p, mv, line))
            return STEP_NOMEM;
    } else if (c->kind == KIFU_NODE_SPECIAL &&
               strcmp(kifu__special(c), "ILLEGAL_ACTION") == 0) {
        /* Who acted illegally: the side to move's opponent just moved (KIF 反則勝ち).
         * A static word: a SPECIAL node has its text part, and the arena frees none. */
        kifu__text(c)->special =
            kifu_position_side(p) == WHITE ? "+ILLEGAL_ACTION" : "-ILLEGAL_ACTION";
    }
    fill_total(c, g);
    return STEP_OK;
}

/* What the normalizer carries down the tree. */
typedef struct {
    kifu_record *r;
    kifu_position *p;
    cand_list cl;
    kifu_error e, *err;
    unsigned flags;
    kifu_node *raw; /* lenient: the subtree of this illegal move stays as read */
    int rc;
    void (*warn)(void *, const char *);
    void *warn_ctx;
    kifu__norm_hook hook; /* NULL: none, or no more for this record */
    void *hook_ctx;
    int forked;             /* the walk has left the main line (its first EXIT came) */
    int repaired, unplayed; /* REPAIR: moves repaired, moves left raw */
    int line; /* the record has no fork: followed child to child, nothing undone */
} norm;

static int is_foul_ending(const kifu_node *c)
{
    static const char *const words[] = {"ILLEGAL_MOVE", "ILLEGAL_ACTION",
                                        "+ILLEGAL_ACTION", "-ILLEGAL_ACTION"};
    if (c->kind != KIFU_NODE_SPECIAL)
        return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(kifu__special(c), words[i]) == 0)
            return 1;
    return 0;
}

/* A move refused for a foul is kept when it ends its line: followed by endings that record
 * a foul only, or by nothing (the ending is added, with a warning). 0 kept and played;
 * 1 not (more moves follow); -1 out of memory. */
static int keep_foul(norm *n, kifu_node *c)
{
    for (const kifu_node *e = kifu__first(c); e; e = kifu__sibling(e))
        if (!is_foul_ending(e) || kifu__first_link(e))
            return 1;
    int side = kifu_position_side(n->p);
    kmove mv = n->cl.foul_mv;
    cand_list alone = {.n = NO_CANDS}; /* its word by reach, as for any move */
    const kifu_node *parent = kifu__parent(c);
    raw_move raw = raw_of(c);
    complete(n->p, side, c, &raw, mv, prev_square(parent), &alone);
    kifu_move m;
    kifu__move_get(c, &m); /* completed, for the warning */
    c->foul = (uint8_t)n->cl.foul;
    if (play(n->p, mv, n->line))
        return -1;
    fill_total(c, kifu__parent(parent));
    if (!kifu__first_link(c)) {
        /* Club records end so, with a comment (反則手にて終局) or a まで line only. */
        if (!kifu_node_add_special(n->r, c,
                                   side == BLACK ? "+ILLEGAL_ACTION" : "-ILLEGAL_ACTION"))
            return -1;
        char text[96], branch[64];
        move_text(&m, text, sizeof text);
        branch_name(c, branch, sizeof branch);
        kifu__warn(
            n->warn, n->warn_ctx,
            "ply %d (%s): %s is %s and ends its line: read as the game lost by that "
            "foul",
            c->ply, branch, text, kifu_foul_name(c->foul));
    }
    return 0;
}

/* Lenient repair (KIFU_READ_REPAIR) of node c, whose move could not be played: the one
 * legal move of its piece to its square, put in its place (relays miscopy a source
 * square; the rest of the game shows what was played). 0 put, 1 none or several. */
static int repair(norm *n, kifu_node *c, const kifu_node *parent)
{
    kifu_move m, pick = {0};
    kifu__move_get(c, &m);
    int tx = m.to_x, ty = m.to_y;
    if ((m.same == 1 || !tx) && parent->kind == KIFU_NODE_MOVE)
        kifu__move_to(parent, &tx, &ty);
    if (!tx || !m.piece)
        return 1;
    kifu_move legal[600];
    size_t k = kifu_position_legal_moves(n->p, legal, 600), found = 0;
    int after = (m.flags & KIFU_MOVE_PIECE_AFTER) != 0;
    for (size_t i = 0; i < k && i < 600; i++) {
        const kifu_move *l = &legal[i];
        /* CSA names the piece after the move: a promotion shows in it. */
        int kind = after && l->promote == 1 ? l->piece | 8 : l->piece;
        if (l->to_x != tx || l->to_y != ty || kind != m.piece ||
            ((m.flags & KIFU_MOVE_DROP) && l->from_x) ||
            (!after && (m.promote == 1) != (l->promote == 1)))
            continue;
        pick = *l;
        found++;
    }
    if (found != 1)
        return 1;
    pick.color = m.color;
    pick.flags = 0;
    pick.same = -1;
    pick.relative[0] = 0;
    kifu__move_put(c, &pick);
    return 0;
}

/* Tell the hook of the position after node c (a move played; endings have none). 0. */
static int tell(norm *n, kifu_node *c)
{
    if (n->hook && c->kind == KIFU_NODE_MOVE && n->hook(n->hook_ctx, c, n->p, !n->forked))
        n->hook = NULL;
    return 0;
}

/* A node entered (its parent and grandparent given, or NULL: a line's walk has them at
 * hand, where a lookup per move cost a tenth of filling its total): under an illegal move
 * (lenient) a move is only marked raw, any other is played. 1: stop here (an illegal
 * move, not lenient); -1: out of memory; else 0. */
static int visit(norm *n, kifu_node *c, const kifu_node *parent, const kifu_node *g)
{
    if (n->raw) {
        if (c->kind == KIFU_NODE_MOVE)
            kifu__move_flag(c, KIFU_MOVE_RAW);
        return 0;
    }
    int st = step(n->p, c, parent, g, &n->cl, &n->e, n->line, n->err);
    if (st == STEP_FOUL) {
        int k = keep_foul(n, c);
        if (k < 0)
            return -1;
        if (k == 0)
            return tell(n, c);
        /* More moves after it: an illegal move, as any other. */
        report(n->err, &n->e, c, &n->cl);
        kifu__move_flag(c, KIFU_MOVE_RAW);
        st = STEP_BAD;
    }
    if (st == STEP_NOMEM)
        return -1;
    if (st == STEP_BAD) {
        n->rc = -1;
        if (!(n->flags & KIFU_READ_LENIENT))
            return 1;
        if ((n->flags & KIFU_READ_REPAIR) && c->kind == KIFU_NODE_MOVE) {
            kifu_move was;
            kifu__move_get(c, &was);
            if (repair(n, c, parent) == 0) {
                st = step(n->p, c, parent, g, &n->cl, &n->e, n->line, n->err);
                if (st == STEP_NOMEM)
                    return -1;
                if (st == STEP_OK) {
                    c->foul = KIFU_FOUL_MISRECORDED;
                    n->repaired++;
                    char text[96], now[96], branch[64];
                    kifu_move m;
                    kifu__move_get(c, &m);
                    move_text(&was, text, sizeof text);
                    move_text(&m, now, sizeof now);
                    branch_name(c, branch, sizeof branch);
                    kifu__warn(n->warn, n->warn_ctx,
                               "ply %d (%s): %s cannot be played: read as %s, the one "
                               "legal move of that piece to that square (a miscopied "
                               "record), and the game goes on",
                               c->ply, branch, text, now);
                    return tell(n, c);
                }
            }
        }
        if ((n->flags & KIFU_READ_REPAIR) && n->repaired && !n->unplayed && n->err) {
            /* err says why the record is not whole: this move, not a repaired one. */
            kifu_error_clear(n->err);
            report(n->err, &n->e, c, &n->cl);
        }
        n->unplayed++;
        n->raw = c;
        return 0;
    }
    return tell(n, c);
}

int kifu_normalize(kifu_record *r, unsigned flags, kifu_error *err)
{
    return kifu_normalize_warn(r, flags, NULL, NULL, err);
}

int kifu_normalize_warn(kifu_record *r, unsigned flags,
                        void (*warn)(void *, const char *), void *ctx, kifu_error *err)
{
    return kifu__normalize_hooked(r, flags, warn, ctx, NULL, NULL, NULL, err);
}

static int normalize(kifu_record *r, unsigned flags, void (*warn)(void *, const char *),
                     void *ctx, kifu__norm_hook hook, void *hook_ctx,
                     kifu_position **keep, kifu_error *err);

int kifu__normalize_hooked(kifu_record *r, unsigned flags,
                           void (*warn)(void *, const char *), void *ctx,
                           kifu__norm_hook hook, void *hook_ctx, kifu_position **keep,
                           kifu_error *err)
{
    int rc = normalize(r, flags, warn, ctx, hook, hook_ctx, keep, err);
    /* Its errors are made: the input's text is no longer needed for their places. */
    kifu__record_set_input(r, NULL);
    return rc;
}

static int normalize(kifu_record *r, unsigned flags, void (*warn)(void *, const char *),
                     void *ctx, kifu__norm_hook hook, void *hook_ctx,
                     kifu_position **keep, kifu_error *err)
{
    kifu__rules_init();
    if (r->has_data) {
        int preset = kifu__preset_match_ref(&r->initial);
        if (preset != KIFU_PRESET_OTHER)
            kifu_record_set_preset(r, preset);
    }
    kifu_board b;
    kifu_record_initial(r, &b);
    norm n = {.r = r,
              .err = err,
              .flags = flags,
              .warn = warn,
              .warn_ctx = ctx,
              .hook = hook,
              .hook_ctx = hook_ctx};
    kifu_error_clear(&n.e);
    jkf_check jc = {warn, ctx};
    n.cl.jkf = r->from_jkf ? &jc : NULL;
    /* Played with the light calls only: no repetition table to set up per record. */
    int start = r->has_data                     ? KIFU_PRESET_OTHER
                : r->preset == KIFU_PRESET_NONE ? KIFU_PRESET_HIRATE
                                                : r->preset;
    if (keep && *keep)
        n.p = kifu__position_restart(*keep, &b, start, &n.e) ? NULL : *keep;
    else
        n.p = kifu__position_new_start(&b, start, &n.e);
    if (keep && n.p)
        *keep = n.p;
    if (!n.p) {
        if (n.e.code == KIFU_ERR_NOMEM)
            return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return kifu__error(err, n.e.code, 0, 0, 0, n.e.expected, n.e.found,
                           "the initial position: %s", n.e.message);
    }
    /* The walk enters each node after its parent; the position follows: a move is
     * played on entering and taken back on leaving (put off until the next move, so the
     * undos of the last line, at the very end, are never made). A record without forks
     * is one line: it is followed from child to child, with no walk at all. */
    kifu__walk w;
    kifu__walk_init(&w, r->root, KIFU__WALK_TREE);
    int ev = KIFU__WALK_DONE, v = 0;
    if (n.hook && n.hook(hook_ctx, r->root, n.p, 1))
        n.hook = NULL;
    if (kifu__record_is_line(r)) {
        n.line = 1;
        /* Child after child, the grandparent at hand. */
        const kifu_node *g = NULL;
        for (kifu_node *pa = r->root, *c; v == 0 && (c = kifu__first(pa)); g = pa, pa = c)
            v = visit(&n, c, pa, g);
    }
    int owed = 0;
    while (v == 0 && !kifu__record_is_line(r) && (ev = kifu__walk_next(&w)) > 0) {
        kifu_node *c = w.node;
        if (ev == KIFU__WALK_EXIT) {
            n.forked = 1;
            if (n.raw)
                n.raw = c == n.raw ? NULL : n.raw;
            else
                owed += c->kind == KIFU_NODE_MOVE; /* every move entered was played */
            continue;
        }
        if (c == r->root)
            continue;
        if (!n.raw)
            for (; owed > 0; owed--)
                kifu__position_undo_light(n.p);
        const kifu_node *pa = kifu__parent(c); /* never the root's: c is below it */
        v = visit(&n, c, pa, kifu__parent(pa));
    }
    kifu__walk_free(&w);
    if (!keep)
        kifu_position_free(n.p);
    if (ev == KIFU__WALK_NOMEM || v < 0)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    /* Lenient: the illegal branches stay unnormalized (KIFU_MOVE_RAW) and err, when
     * given, describes the first of them; the record is usable. */
    if ((flags & (KIFU_READ_LENIENT | KIFU_READ_REPAIR)) ==
        (KIFU_READ_LENIENT | KIFU_READ_REPAIR))
        return n.unplayed ? -1 : 0;
    return (flags & KIFU_READ_LENIENT) ? 0 : n.rc;
}
